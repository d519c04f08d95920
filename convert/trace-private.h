/* SPDX-License-Identifier: MIT */
/* Shared by trace.c (the recording, the devices, the diagnostics) and
 * trace-touches.c (the touches of every layer and their links). */
#pragma once

#include <stdbool.h>

#include "stack.h"
#include "trace-writer.h"
#include "trace.h"

/* Processes: one per layer and device, in the stack's order. */
enum trace_layer {
	TRACE_RECORDING = 0,
	TRACE_HID,
	TRACE_KERNEL,
	TRACE_XI,
	TRACE_LI,
	TRACE_WL,
};

#define TRACE_PID_SPAN 100000
/* The recording's threads. */
#define TRACE_TID_DIAG 1
#define TRACE_TID_MARKERS 2

/* A set of threads for touches that overlap (an XI client's, a HID
 * device's contacts): a touch takes the lowest free lane. */
struct trace_lanes {
	int64_t pid;
	char name[48];
	int64_t first_tid;
	bool *busy;
	size_t n;
};

/* Where an XI touch's slice is, for the kernel touch that links to it
 * later (its kernel_end waits for the link; the XI touch may be gone by
 * then). A ring: the link window is far shorter than its turn. */
struct trace_xi_place {
	size_t line;	/* its begin's line: one XI begin, one line */
	struct trace_track track;
};
#define TRACE_XI_RING 1024
#define TRACE_XI_NAMES 256

struct tt_trace {
	FILE *out;
	struct trace_writer w;
	struct tt_stack *stack;
	struct trace_lanes *lanes;
	size_t nlanes;
	struct trace_xi_place ring[TRACE_XI_RING];
	size_t ring_next;
	/* XI device names by deviceid (X numbers them below 256). */
	char *xi_names[TRACE_XI_NAMES];
};

int64_t trace_pid(enum trace_layer layer, int64_t id);
/* The process of an XI source device, of libinput on a device, of
 * Wayland: named on first use. */
void trace_name_xi(struct tt_trace *t, int32_t sourceid);
void trace_name_li(struct tt_trace *t, uint32_t device);
void trace_name_wl(struct tt_trace *t);

/* Takes a lane of the group (@pid, @name): its track. */
struct trace_track trace_lane_take(struct tt_trace *t, int64_t pid, const char *name);
void trace_lane_free(struct tt_trace *t, const struct trace_track *track);
void trace_lanes_clear(struct tt_trace *t);

/* Subscribes to the stack's kernel, XI, HID, libinput and Wayland
 * callbacks. */
void trace_touches_subscribe(struct tt_trace *t);
