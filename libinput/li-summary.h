/* SPDX-License-Identifier: MIT */
/*
 * What analyze and diff keep of a recording's libinput layer: the
 * libinput model's counts per device (libinput/model-li.h), every gesture,
 * every tap with its time, and the libinput-to-kernel latencies of the
 * linked touches. Gestures and taps are few; the latencies are one
 * number per touch. libinput's own log messages (libinput-log markers)
 * are kept too: few, and what a triager reads first.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model-li.h"

struct li_tap {
	uint32_t device;
	int64_t time_us;
	uint32_t button;	/* 0 left, 1 right, 2 middle */
	size_t line;
};

/* A message libinput logged while recording (a libinput-log marker):
 * its own warnings, e.g. "kernel bug: Touch jump detected". */
struct li_log {
	int64_t time_us;
	int64_t device;		/* evdev device record id, or -1 */
	size_t line;
	char *text;		/* sanitized; never NULL */
};

struct li_summary {
	struct tt_li_model *m;	/* the stack's */
	bool has_layer;
	struct tt_li_counts *counts;	/* per device, after li_summary_finish() */
	size_t ncounts;
	struct tt_li_gesture *gestures;
	size_t ngestures, capgestures;
	struct li_tap *taps;
	size_t ntaps, captaps;
	int64_t *latencies;	/* of linked touches, µs; sorted after finish */
	size_t nlatencies, caplatencies;
	int64_t *gesture_latencies;	/* sorted after finish */
	size_t ngesture_latencies, capgesture_latencies;
	struct li_log *logs;	/* in file order */
	size_t nlogs, caplogs;
};

struct tt_stack;
/* Subscribes to @stack's libinput layer; li_summary_feed() gets every
 * record the stack gets (for the log markers), li_summary_finish() runs
 * after the stack's finish. */
void li_summary_init(struct li_summary *s, struct tt_stack *stack);
void li_summary_feed(struct li_summary *s, const struct tt_record *rec);
void li_summary_finish(struct li_summary *s);
void li_summary_clear(struct li_summary *s);
/* Whether there is anything to report: li records or libinput's log. */
bool li_summary_any(const struct li_summary *s);

/* "up", "down", "left", "right" by the larger summed delta, "in"/"out"
 * for a pinch by its scale, "" for a hold or no movement. */
const char *li_gesture_direction(const struct tt_li_gesture *g);
const char *li_tap_button_name(uint32_t button);
