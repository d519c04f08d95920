/* SPDX-License-Identifier: MIT */
/* What the files of touchtape analyze share: the per-device and per-touch
 * statistics of the pass (cmd-analyze.c) that the report and the lists
 * print (analyze-report.c, analyze-lists.c). Private to analyze/. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grade.h"
#include "stack.h"
#include "json-emit.h"
#include "li-analyze.h"
#include "model.h"
#include "model-plot.h"
#include "read-options.h"
#include "util-stats.h"
#include "wl-analyze.h"

/* 2: times in integer microseconds (_us), the shared numbers under the
 * names inspect --summary uses. */
#define ANALYZE_VERSION 2

struct dev_stats {
	bool used;
	uint32_t id;
	const struct tt_device *dev;
	bool selected;
	bool mm;
	bool have_time;
	int64_t last_us;
	uint32_t prev_count;
	int64_t neutral_us;
	struct tt_interval_hist iv;	/* frame intervals while touching */
	double sum, sumsq;
	int64_t max_at_us;	/* the frame ending the longest interval (iv.max_us) */
	size_t max_line;
	uint8_t slots_used[TT_BITMAP_BYTES(TT_MAX_SLOTS)];
	/* Within --from/--to, counting the touches begun before it too. */
	uint64_t window_touches;
	uint32_t window_max;
};

struct touch_stats {
	double path, max_step;
	int32_t last_x, last_y;
	bool known;		/* last_x/y were reported by the device */
	int32_t pmin, pmax, smin, smax;
	struct tt_plot_path plot;
};

struct analyze {
	const char *name;
	bool json;
	const struct tt_read_options *ro;
	const struct tt_record *feeding;	/* while one is fed */
	/* With --from/--to: the shared numbers of the window alone. */
	struct tt_stack *window;
	struct tt_detect_options opts;
	struct tt_diag_filter filter;
	struct dev_stats devs[TT_MAX_DEVICES];
	size_t ndevs;
	FILE *touches;		/* formatted per-touch output, streamed */
	FILE *xtouches;
	FILE *anomalies;
	FILE *hcontacts;	/* the HID contacts (hid-contacts.c) */
	/* With --json: the three lists, each an array in its file; and
	 * the report on stdout they are copied into. */
	struct tt_json_emit jtouches, jxtouches, janomalies, jhcontacts;
	struct tt_json_emit report;
	uint64_t ntouches, nxtouches, nanomalies, nhcontacts;
	struct tt_plot *plot;
	struct tt_stack *detect;
	/* The jump just reported, for the plot: its kernel_update follows. */
	bool jump_pending;
	int64_t jump_device, jump_tracking_id;
	struct li_summary li;	/* the libinput layer, over the whole file */
	struct wl_summary wl;	/* the Wayland layer, over the whole file */
	/* --grade: the profile, its layer on the reported stack, and the
	 * verdicts after the pass (analyze-grade.c). */
	struct tt_grade_profile *profile;
	double refresh_hz;
	struct tt_grade *grade;
	struct tt_grade_outcome graded;
};

double
secs(int64_t us);
void
anomaly_json(struct analyze *a, const struct tt_diag *d);
void
anomaly_text(struct analyze *a, const struct tt_diag *d);
void
report_touch(struct analyze *a, struct tt_ktouch *t, struct touch_stats *ts, struct dev_stats *s);
void
xtouch_json(struct analyze *a, const struct tt_xtouch *t);
void
xtouch_text(struct analyze *a, const struct tt_xtouch *t);
void
report(struct analyze *a, const struct tt_reader *r);
/* analyze-grade.c: --grade's layer before the pass, the verdicts after
 * it, and their table or JSON member in the report. */
void
grade_start(struct analyze *a);
void
grade_conclude(struct analyze *a);
void
grade_text(struct analyze *a);
void
grade_json(struct analyze *a);
/* analyze-plot-layers.c: what the HID, XI, libinput and Wayland layers
 * give --plot, subscribed on a->detect. */
void
plot_layers_subscribe(struct analyze *a);
/* hid-contacts.c: the model's hid_end, listing the contacts in the window. */
void
on_hend(void *data, struct tt_htouch *t);
