/* SPDX-License-Identifier: MIT */
/*
 * The SVG picture of `touchtape analyze --plot`, drawn for a driver
 * developer: on top, a timeline with a track per device of each layer
 * (kernel, HID, XI, libinput, Wayland) of the touches down over time,
 * with a time axis in seconds; per kernel touch device and per HID
 * device, the device's full range as the frame with axes in mm (device
 * or logical units when it has no resolution), every touch's or
 * contact's trajectory labelled with its slot and tracking ID (a HID
 * contact: its number and Contact Identifier; jumps circled in red); and
 * one panel per touch of x, y and pressure over time, for the
 * TT_PLOT_MAX_TOUCH_PANELS longest kernel touches (HID contacts in a file
 * without kernel touches; the SVG says how many more there were).
 * Streams: finished trajectories, count changes, touch spans and the
 * panels' points go to temporary files, so memory holds only the touches
 * still down.
 *
 * The SVG elements carry classes tests can count: one
 * <polyline class="touch" data-layer="kernel|HID"> and one <text
 * class="touch-label"> per touch sequence (a surface with no room left
 * says how many it left unlabelled), <circle class="jump"> per jump, per
 * track one <rect class="lane" data-layer=...>, its <text
 * class="lane-label"> and its <polyline class="count">, one <g
 * class="touch-panel"> per touch panel, and <text class="tick"> for
 * every tick label.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "timeline.h"

#define TT_PLOT_MAX_TOUCH_PANELS 16

/* The layers a plot shows, in the timeline's order. */
enum tt_plot_layer {
	TT_PLOT_KERNEL = 0,
	TT_PLOT_HID,
	TT_PLOT_XI,
	TT_PLOT_LIBINPUT,
	TT_PLOT_WAYLAND,
	TT_PLOT_LAYERS,
};

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
	enum tt_plot_layer layer;	/* kernel or HID */
	int32_t slot, tracking_id;	/* HID: Contact Identifier, -1 */
	bool synthetic_id;	/* the model numbered the touch (Type A) */
	/* The touch's begin to end, set before tt_plot_path_end(): the
	 * longest touches get the panels. */
	int64_t duration_us;
};

struct tt_plot *tt_plot_new(void);
void tt_plot_free(struct tt_plot *p);
/* A device with positions gets a panel and a track; others are ignored. */
void tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev);
/* A HID device's name, for its panel and track. */
void tt_plot_name_hid(struct tt_plot *p, const struct tt_hid_device *dev);
/* Adds the touch's current position and pressure at @time_us. */
void tt_plot_path_sample(struct tt_plot_path *path, const struct tt_ktouch *t, int64_t time_us, bool jump);
/* The same for a HID contact; its first gives its device a panel when
 * the descriptor gives X and Y ranges. */
void tt_plot_hid_sample(struct tt_plot *p, struct tt_plot_path *path, const struct tt_htouch *t, int64_t time_us);
/* Draws the finished trajectory of @layer's @device (kernel or HID) and
 * frees the path's memory. */
void tt_plot_path_end(struct tt_plot *p, enum tt_plot_layer layer, uint32_t device, uint64_t serial,
		      struct tt_plot_path *path);
/* Frees a path that was not drawn; the path may be empty. */
void tt_plot_path_release(struct tt_plot_path *path);
/* A kernel device's touches down, from @time_us on. */
void tt_plot_count(struct tt_plot *p, uint32_t device, int64_t time_us, uint32_t count);
/* A touch of a layer above or beside the kernel, down from @begin_us to
 * @end_us, on the track of @layer's @id named @label (NULL: "HID device
 * 2 \"its name\""). */
void tt_plot_span(struct tt_plot *p, enum tt_plot_layer layer, uint32_t id, const char *label, int64_t begin_us,
		  int64_t end_us);
/* Writes the whole SVG; 0 or a negative errno. */
int tt_plot_write(struct tt_plot *p, FILE *out, int64_t t0_us, int64_t t1_us);
