/* SPDX-License-Identifier: MIT */
/*
 * The libinput layer's model: li records in, libinput touches and gestures
 * out, each linked to the kernel touches it came from, and what libinput
 * made of each device counted. Shared by analyze, diff and the inspector;
 * the one place these numbers are computed.
 *
 * A layer of the stack (stack.h): the stack feeds it every record and
 * the kernel touches of its one kernel model.
 *
 *   touch_end: a libinput touch (TOUCH_DOWN to TOUCH_UP or TOUCH_CANCEL)
 *     with the kernel touch it came from: same evdev device, same slot,
 *     the kernel touch begun at most the window (default 250 ms) before
 *     it. libinput stamps its events with the kernel's time, so the
 *     latency is normally 0; more means libinput held the touch back.
 *   gesture_end: a swipe, pinch or hold from its BEGIN to its END with
 *     the kernel touches down during it, and the latency from the last
 *     of them landing (before the BEGIN) to the BEGIN: how long libinput
 *     took to recognise the gesture.
 *
 * Taps: libinput reports a tap as a button press of the touchpad; a press
 * while the kernel device holds none of its buttons down is counted as a
 * tap (a physical click has the kernel's BTN_LEFT down).
 *
 * Memory is bounded by the touches and gestures open at once and the
 * kernel touches of the last window (longer while a gesture is open).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "util-mem.h"

#define TT_LI_DEFAULT_WINDOW_US 250000

enum tt_li_gesture_kind {
	TT_LI_GESTURE_SWIPE,
	TT_LI_GESTURE_PINCH,
	TT_LI_GESTURE_HOLD,
	TT_LI_GESTURE_KINDS,
};

/* Finger counts kept apart in the counts; more go into the last. */
#define TT_LI_MAX_FINGERS 5

struct tt_li_touch {
	uint64_t serial;	/* 1, 2, ... in TOUCH_DOWN order */
	uint32_t device;	/* evdev device record id */
	int32_t slot, seat_slot;
	int64_t begin_us, end_us;
	size_t begin_line, end_line;
	bool cancelled;		/* ended by TOUCH_CANCEL */
	bool active_at_end;	/* never ended */
	uint64_t nmotions;
	/* The kernel touch it came from, or serial 0. */
	uint64_t kernel_serial;
	int32_t kernel_tracking_id;
	int64_t latency_us;	/* begin_us minus the kernel touch's begin */
};

struct tt_li_gesture {
	uint64_t serial;
	uint32_t device;
	enum tt_li_gesture_kind kind;
	int32_t fingers;
	int64_t begin_us, end_us;
	size_t begin_line, end_line;
	bool cancelled;
	bool active_at_end;
	uint64_t nupdates;
	double dx, dy;		/* sums of the unaccelerated deltas */
	double scale;		/* PINCH: the last scale (1 = as at BEGIN) */
	double angle;		/* PINCH: sum of the angle deltas, degrees */
	uint32_t nkernel;	/* kernel touches down at some time during it */
	int64_t latency_us;	/* begin_us minus the last kernel touch-down before it; -1 none */
};

/* What libinput made of one device. Scroll values are libinput's (the
 * finger and continuous sources in its scroll units, wheels in v120). */
struct tt_li_counts {
	uint32_t device;
	bool li_seen;		/* a li_device record or li event named it */
	uint64_t touches, touches_cancelled, touches_linked;
	uint64_t motions;
	double motion_accel, motion_unaccel;	/* path lengths of POINTER_MOTION */
	uint64_t button_presses;
	uint64_t taps;
	uint64_t tap_buttons[3];	/* taps by button: left, right, middle */
	uint64_t scroll_events[3];	/* finger, continuous, wheel */
	double scroll_vert, scroll_horiz;	/* finger and continuous, signed sums */
	double wheel_v120_vert, wheel_v120_horiz;
	uint64_t gestures[TT_LI_GESTURE_KINDS][TT_LI_MAX_FINGERS + 1];	/* by fingers */
	uint64_t gestures_cancelled;
	uint64_t unknown_events;	/* kinds this touchtape does not know */
};

struct tt_li_callbacks {
	void (*touch_end)(void *data, const struct tt_li_touch *t);
	void (*gesture_end)(void *data, const struct tt_li_gesture *g);
	/* A button press the counts took for a tap: @button 0 left, 1
	 * right, 2 middle. */
	void (*tap)(void *data, uint32_t device, int64_t time_us, uint32_t button, size_t line);
};

struct tt_li_model;

struct tt_model;
/* A model that tells taps from clicks by the keys @kernel has down (the
 * stack's kernel model; NULL: every press is a tap). Nobody hears it
 * until tt_li_model_set_callbacks(). */
struct tt_li_model *tt_li_model_new(const struct tt_model *kernel);
void tt_li_model_free(struct tt_li_model *m);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_li_model *, tt_li_model_free);
/* Who hears its touches and gestures (@cb NULL: nobody). */
void tt_li_model_set_callbacks(struct tt_li_model *m, const struct tt_li_callbacks *cb, void *data);
/* Its layer ops, with the model as self. */
struct tt_layer_ops;
const struct tt_layer_ops *tt_li_model_layer(void);

/* How long before a libinput touch its kernel touch may begin (0: the
 * default). */
void tt_li_model_set_window(struct tt_li_model *m, int64_t window_us);
void tt_li_model_feed(struct tt_li_model *m, const struct tt_record *rec);
/* End of input: open touches and gestures end as active at end. */
void tt_li_model_finish(struct tt_li_model *m);

/* The devices libinput saw, in the order first seen (valid until the
 * next feed). */
const struct tt_li_counts *tt_li_model_counts(const struct tt_li_model *m, size_t *n);
/* Whether the file had a libinput layer at all. */
bool tt_li_model_has_layer(const struct tt_li_model *m);

const char *tt_li_gesture_kind_name(enum tt_li_gesture_kind kind);
/* Whether @type is a gesture event: its kind and phase (0 BEGIN,
 * 1 UPDATE, 2 END). */
bool tt_li_gesture_phase(enum tt_li_event_type type, enum tt_li_gesture_kind *kind, int *phase);
/* Motion path length with acceleration over without it; NAN without motion. */
double tt_li_counts_accel_ratio(const struct tt_li_counts *c);
