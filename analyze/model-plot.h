/* SPDX-License-Identifier: MIT */
/*
 * The SVG picture of `touchtape analyze --plot`, drawn for a driver
 * developer: on top, a timeline of the touches down on each device with a
 * time axis in seconds; per touch device, the device's full range as the
 * frame with axes in mm (device units when it has no resolution), every
 * touch's trajectory labelled with its slot and tracking ID (jumps
 * circled in red); and one panel per touch of x, y and pressure over time, for
 * the TT_PLOT_MAX_TOUCH_PANELS longest touches (the SVG says how many more
 * there were). Streams: finished trajectories, count changes and the
 * panels' points go to temporary files, so memory holds only the touches
 * still down.
 *
 * The SVG elements carry classes tests can count: one
 * <polyline class="touch"> and one <text class="touch-label"> per touch
 * sequence, <circle class="jump"> per jump, one <polyline class="count">
 * per device in the timeline, one <g class="touch-panel"> per touch
 * panel, and <text class="tick"> for every tick label.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "timeline.h"

#define TT_PLOT_MAX_TOUCH_PANELS 16

struct tt_plot;

struct tt_plot_point {
	int64_t time_us;
	int32_t x, y, pressure;
};

/* A trajectory being drawn: the caller keeps one per touch down. */
struct tt_plot_path {
	struct tt_plot_point *points;
	size_t npoints, cap;
	int32_t *jumps;		/* x0, y0, x1, y1, ...: points where a jump landed */
	size_t njumps, capjumps;
	unsigned int stride;	/* keeps every stride-th point when long */
	unsigned int skipped;
	int32_t slot, tracking_id;
	bool synthetic_id;	/* the model numbered the touch (Type A) */
	/* The touch's begin to end, set before tt_plot_path_end(): the
	 * longest touches get the panels. */
	int64_t duration_us;
};

struct tt_plot *tt_plot_new(void);
void tt_plot_free(struct tt_plot *p);
/* A device with positions gets a panel; others are ignored. */
void tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev);
/* Adds the touch's current position and pressure at @time_us. */
void tt_plot_path_sample(struct tt_plot_path *path, const struct tt_ktouch *t, int64_t time_us, bool jump);
/* Draws the finished trajectory and frees the path's memory. */
void tt_plot_path_end(struct tt_plot *p, uint32_t device, uint64_t serial, struct tt_plot_path *path);
/* Frees a path that was not drawn; the path may be empty. */
void tt_plot_path_release(struct tt_plot_path *path);
void tt_plot_count(struct tt_plot *p, uint32_t device, int64_t time_us, uint32_t count);
/* Writes the whole SVG; 0 or a negative errno. */
int tt_plot_write(struct tt_plot *p, FILE *out, int64_t t0_us, int64_t t1_us);
