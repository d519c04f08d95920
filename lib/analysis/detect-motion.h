/* SPDX-License-Identifier: MIT */
/*
 * The jump and stall rules of the diagnostics layer (detect.h), judged
 * against the touch's own motion and the device's own rhythm. detect.c
 * keeps one struct tt_motion_dev per device and one struct
 * tt_motion_touch per kernel touch, feeds them, and reports what they
 * find.
 *
 * jump: a step between two positions the device reported, with no events
 * lost in between, that is
 *  - over the absolute threshold (--jump MM on devices with resolution,
 *    default 20 mm; --jump-units N without, default
 *    TT_MOTION_JUMP_RANGE of the axis range), or
 *  - sudden: at least TT_MOTION_SUDDEN_MIN of the axis range and
 *    TT_MOTION_SUDDEN times the touch's recent steps (the largest of its
 *    last few), or
 *  - a step out and back: a step of at least TT_MOTION_STEP_MIN of the
 *    range (and twice the touch's recent steps) that a later step within
 *    TT_MOTION_BACK_UPDATES of the touch's updates undoes (in the
 *    opposite direction, to within TT_MOTION_BACK_SLACK of it and the
 *    touch's own motion), the touch moving on meanwhile with steps under
 *    half its size; both steps are jumps. A swipe's large step is
 *    followed by more large steps.
 * Fast real swipes speed up over several frames and never come back in
 * one step, so they stay clean. The jump rules count steps, never time:
 * the same positions give the same verdict however the frames were
 * spaced (a replay that bunches frames finds what the original did). A
 * step that is a stall is reported as that alone.
 *
 * stall: a touch that was moving sends no frame for longer than
 * max(TT_MOTION_STALL_FACTOR x the device's running median frame
 * interval while touching, TT_MOTION_STALL_MIN_US), and is then
 * elsewhere: at least TT_MOTION_STALL_DIST of the range from where it
 * was, and TT_MOTION_STALL_STEPS times its last step. A finger at rest
 * sends no frames on most devices, so rest is not a stall: a touch that
 * comes back where it was, or lifts, is not one. The median is a running
 * estimate from a histogram of intervals (bounded memory), trusted after
 * TT_MOTION_MEDIAN_MIN intervals.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "util-stats.h"

#define TT_MOTION_JUMP_RANGE 0.25	/* of the axis range, in one frame */
#define TT_MOTION_STEP_MIN 0.05		/* of the axis range */
#define TT_MOTION_SUDDEN_MIN 0.10	/* of the axis range */
#define TT_MOTION_SUDDEN 8.0
#define TT_MOTION_BACK_UPDATES 64	/* of the touch, for a way back */
#define TT_MOTION_BACK_SLACK 0.35	/* what out and back may leave, of the step */
#define TT_MOTION_BACK_COS 0.7		/* the way back within 45 degrees of opposite */
#define TT_MOTION_PACE 3		/* recent steps remembered */
#define TT_MOTION_STALL_FACTOR 8
#define TT_MOTION_STALL_MIN_US 100000
#define TT_MOTION_STALL_DIST 0.02	/* of the axis range */
#define TT_MOTION_STALL_STEPS 4.0
#define TT_MOTION_MEDIAN_MIN 8
#define TT_MOTION_MEDIAN_EVERY 256

struct tt_motion_dev {
	const struct tt_device *dev;
	bool mm;
	double res_x, res_y;	/* position axis resolutions, units per mm */
	double rx, ry;		/* position axis ranges, units */
	double jump_limit;	/* absolute: mm, units, or 0 for the range default */
	struct tt_interval_hist iv;	/* frame intervals while touching */
	/* The median of iv, recomputed as it grows (each interval early
	 * on, then every TT_MOTION_MEDIAN_EVERY): asked per update, a scan
	 * of the buckets each time would cost more than the rest. */
	int64_t median_us;
	uint64_t median_n;
	int64_t last_us;
	bool have_last;
	uint32_t prev_active;
};

struct tt_motion_touch {
	int32_t x, y;
	bool known;		/* x/y are positions the device reported */
	uint64_t drop_gen;
	int64_t last_us;	/* of its last update */
	bool have_last;
	double pace[TT_MOTION_PACE];	/* its last steps, of the range */
	unsigned int npace;
	double last_step;	/* of the range, its last step that moved it */
	int64_t last_move_us;	/* of that step */
	/* A step that a later one may undo (out and back). */
	bool out;
	bool out_reported;
	double out_dx, out_dy;	/* units */
	size_t out_line;
	int64_t out_us;
	unsigned int out_updates;	/* of the touch since */
};

enum tt_motion_kind {
	TT_MOTION_JUMP,
	TT_MOTION_STALL,
};

/* What a position update showed. */
struct tt_motion_find {
	enum tt_motion_kind kind;
	size_t line;
	int64_t time_us;
	char message[200];
};

/* @jump_mm and @jump_units: the options (0: defaults). The device must
 * outlive it; tt_motion_dev_release() frees what init allocates. */
void tt_motion_dev_init(struct tt_motion_dev *m, const struct tt_device *dev, double jump_mm,
			double jump_units);
void tt_motion_dev_release(struct tt_motion_dev *m);
/* Every frame of the device, @nactive touches down after it. */
void tt_motion_frame(struct tt_motion_dev *m, int64_t time_us, uint32_t nactive);
/* The running median frame interval while touching; -1 while there are
 * fewer than TT_MOTION_MEDIAN_MIN. */
int64_t tt_motion_median_us(const struct tt_motion_dev *m);

void tt_motion_touch_init(struct tt_motion_touch *mt, int32_t x, int32_t y, bool known, uint64_t drop_gen,
			  int64_t time_us);
/* An update of the touch, now at @x/@y (@known: both reported).
 * @comparable: no events lost since the last one and the slots known.
 * Fills up to @max findings; returns how many. */
size_t tt_motion_update(struct tt_motion_dev *m, struct tt_motion_touch *mt, int32_t x, int32_t y,
			bool known, bool comparable, uint64_t drop_gen, size_t line, int64_t time_us,
			struct tt_motion_find *out, size_t max);
