/* SPDX-License-Identifier: MIT */
/*
 * The SVG picture of `touchtape analyze --plot`: one panel per touch device
 * with every touch's trajectory on the device surface (one colour per
 * touch, jumps circled in red), and a timeline of the number of touches
 * down on each device. Streams: finished trajectories and count changes go
 * to temporary files, so memory holds only the touches still down.
 *
 * The SVG elements carry classes tests can count: one
 * <polyline class="touch"> per touch sequence, <circle class="jump"> per
 * jump, one <polyline class="count"> per device in the timeline.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "timeline.h"

struct tt_plot;

/* A trajectory being drawn: the caller keeps one per touch down. */
struct tt_plot_path {
	int32_t *xy;		/* x0, y0, x1, y1, ... device units */
	size_t npoints, cap;
	int32_t *jumps;		/* points where a jump landed */
	size_t njumps, capjumps;
	unsigned int stride;	/* keeps every stride-th point when long */
	unsigned int skipped;
};

struct tt_plot *tt_plot_new(void);
void tt_plot_free(struct tt_plot *p);
/* A device with positions gets a panel; others are ignored. */
void tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev);
void tt_plot_path_add(struct tt_plot_path *path, int32_t x, int32_t y, bool jump);
/* Draws the finished trajectory and frees the path's memory. */
void tt_plot_path_end(struct tt_plot *p, uint32_t device, uint64_t serial, struct tt_plot_path *path);
void tt_plot_count(struct tt_plot *p, uint32_t device, int64_t time_us, uint32_t count);
/* Writes the whole SVG; 0 or a negative errno. */
int tt_plot_write(struct tt_plot *p, FILE *out, int64_t t0_us, int64_t t1_us);
