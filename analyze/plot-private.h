/* SPDX-License-Identifier: MIT */
/*
 * What the files of analyze --plot share: the plot's state (model-plot.c
 * draws the surfaces, trajectories and touch panels; plot-timeline.c the
 * timeline's tracks) and its layout. Private to analyze/.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model-plot.h"

#define LEFT 80.0		/* room for the y tick labels */
#define TOP 30.0
#define PANEL_W 480.0
#define GAP 70.0		/* below a frame: tick labels and the axis title */
#define LANE_H 60.0
#define LANE_HEAD 16.0		/* a track's label row, above its line */
#define PLOT_W 800.0
#define WIDTH (LEFT + PLOT_W + 110.0)
#define CHAR_W 6.5		/* of the 10 px labels (bold), wide enough */
#define LABEL_H 12.0

/* A surface: a device's range, its trajectories drawn on it. */
struct panel {
	enum tt_plot_layer layer;
	uint32_t device;
	char *name;
	double y0, h;		/* SVG position and height of the surface */
	int32_t xmin, xmax, ymin, ymax;
	int32_t xres, yres;	/* units per mm, 0 without a resolution */
	int32_t pmin, pmax;
	bool has_pressure;
	/* Where touch labels went (x, y, width), so the next one does not
	 * cover them; and how many found no room. */
	double (*labels)[3];
	size_t nlabels, caplabels;
	uint64_t unlabelled;
};

/* A track of the timeline: the touches down over time on one device of
 * one layer. The kernel's come from its frames (struct count_rec), the
 * others' from each touch's begin and end (struct span_rec). */
struct track {
	enum tt_plot_layer layer;
	uint32_t id;
	char *label;		/* "HID device 2 \"name\"" */
	uint32_t max_count;
};

struct count_rec {
	uint32_t track;
	uint32_t count;
	int64_t time_us;
};

struct span_rec {
	uint32_t track;
	int64_t begin_us, end_us;
};

/* A touch panel in the temporary file: this, then npoints points. */
struct touch_rec {
	uint64_t serial;
	enum tt_plot_layer layer;
	uint32_t device;
	int32_t slot, tracking_id;
	bool synthetic_id;
	uint32_t npoints;
	int64_t duration_us;	/* what picks the panels */
};

struct tt_plot {
	FILE *paths;		/* finished SVG elements of the panels */
	FILE *counts;		/* struct count_rec */
	FILE *spans;		/* struct span_rec */
	FILE *touches;		/* struct touch_rec + points */
	struct panel *panels;
	size_t npanels;
	struct track *tracks;
	size_t ntracks;
	double height;		/* of the panels so far */
	/* Touches saved, per layer: the kernel's get the touch panels, a
	 * HID contact only in a file without kernel touches. */
	uint64_t ntouches[TT_PLOT_LAYERS];
	char **hid_names;	/* by HID device id, up to nhid_names */
	size_t nhid_names;
};

/* The track of @layer's @id (and @label, unless NULL: an XI device has a
 * track per client), made with @label (NULL: "") if new. */
struct track *plot_track(struct tt_plot *p, enum tt_plot_layer layer, uint32_t id, const char *label);
/* The timeline on top: a lane per track, the time axis below them. */
void plot_write_timeline(struct tt_plot *p, FILE *out, double top, int64_t t0, int64_t t1);
/* The name of a layer for people: "kernel", "HID", ... */
const char *plot_layer_name(enum tt_plot_layer layer);
