/* SPDX-License-Identifier: MIT */
/*
 * touchtape diff's parts: cmd-diff.c reads both files and pairs their
 * touches, diff-diag.c compares their diagnostics (the shared pass,
 * lib/detect.h, run on each), diff-output.c writes each difference as a
 * line of text or a JSON object (--json).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stack.h"
#include "diag-tally.h"
#include "json-emit.h"
#include "li-summary.h"
#include "wl-summary.h"
#include "model.h"
#include "reader.h"
#include "util-mem.h"

struct dtouch {
	size_t dev;		/* device ordinal in the file */
	int32_t slot;
	int64_t begin_us, end_us;	/* relative to the anchor */
	double bx, by, ex, ey;
	size_t line;
	bool active_at_end;
	enum tt_link_status link;
	int32_t xi_source;	/* the XI touch it became, when linked */
	uint32_t xi_touchid;
	ssize_t pair;		/* index of its match in the other file, -1 */
	bool matched;
};

struct dxtouch {
	char client[32];
	bool raw;
	int64_t begin_us, end_us;
	enum tt_own_outcome outcome;
	bool emulating, began_unowned, active_at_end;
	size_t line;
	int32_t source;		/* XI source device and touch id: the link key */
	uint32_t touchid;
	ssize_t kernel;		/* index of its kernel touch in the file, -1 */
	bool matched;
};

struct ddev {
	uint32_t id;
	const struct tt_device *dev;
	bool mm;
	int64_t first_us;
	bool have_time;
};

struct side {
	const char *name;
	struct tt_reader *r;
	struct ddev devs[TT_MAX_DEVICES];
	size_t ndevs;
	struct dtouch *k;
	size_t nk, capk;
	struct dxtouch *x;
	size_t nx, capx;
	int64_t anchor;		/* first frame (or XI event) time */
	bool have_anchor;
	bool has_xi;
	int64_t last_us;	/* the last timed record's, kept or not */
	bool have_last;
	struct tt_diag_tally diags;	/* the shared pass's, per kind */
	struct tt_stack *detect;	/* while it is read */
	struct li_summary li;		/* the libinput layer */
	struct wl_summary wl;		/* the Wayland layer */
};

struct diff_opts {
	int64_t time_tol;
	double pos_tol_mm;
	double pos_tol_frac;	/* of the axis range, for devices without resolution */
	bool kernel_only;
	bool no_anomalies;
	bool json;
	double scroll_tol;	/* libinput scroll sums: a fraction of the larger */
};

struct differ {
	struct side *a, *b;
	const struct diff_opts *o;
	size_t ndiff;
	struct tt_json_emit *json;	/* --json: the document being written */
};

/* One difference: "A:LINE B:LINE: what" (a line 0 is "-"), or with
 * --json an object in the "differences" array. */
void diff_difference(struct differ *df, size_t la, size_t lb, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The opening: the files, what is ignored, whether XI is compared; with
 * --json up to the opening of the "differences" array. */
void diff_output_begin(struct differ *df);
/* The closing: the diagnostics compared (diff_compare_diags()), then the
 * count of differences. */
void diff_output_end(struct differ *df);
/* Whether the XI touches are compared: both files have XI data and not
 * --kernel-only. */
bool diff_xi_compared(const struct differ *df);

/* The kinds of diagnostics whose count differs between the two files,
 * as differences, unless --no-anomalies. With --json, the "anomalies"
 * array (call it after the "differences" array is closed). */
void diff_compare_diags(struct differ *df);
/* Whether diff compares @kind: not the reader's (a file's own caveats),
 * not XI kinds when XI is not compared, not those the touch comparison
 * already reports touch by touch. */
/* The libinput layers (diff-li.c): devices' numbers, gestures, taps. */
void diff_compare_li(struct differ *df);
/* The Wayland layers (diff-wl.c): sequences, events per kind, latencies. */
void diff_compare_wl(struct differ *df);
/* The devices' key udev properties and quirks (diff-sur.c), where both
 * files recorded them. */
void diff_compare_surroundings(struct differ *df);

bool diff_diag_compared(const struct differ *df, enum tt_check kind);
