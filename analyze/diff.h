/* SPDX-License-Identifier: MIT */
/*
 * touchtape diff's parts: cmd-diff.c reads both files side by side,
 * diff-pair.c pairs their kernel touches as they end, diff-diag.c
 * compares their diagnostics (the shared pass, lib/analysis/detect.h, run on
 * each), diff-output.c writes each difference as a line of text or a
 * JSON object (--json), held until both files are read. Inside a touch: diff-samples.c
 * keeps each kernel touch's samples, compactly; diff-path.c compares the
 * paths of paired touches, diff-axes.c their other axes, diff-rhythm.c
 * the frames' rhythm, diff-keys.c the EV_KEY and EV_SW changes,
 * diff-hid.c the HID contacts and diff-hid-state.c their tip, in range
 * and confidence; diff-explain.c what a touch in one file only explains.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "grade.h"
#include "stack.h"
#include "diag-tally.h"
#include "json-emit.h"
#include "li-summary.h"
#include "wl-summary.h"
#include "model.h"
#include "reader.h"
#include "util-mem.h"
#include "util-stats.h"

/* A touch of one file only: what diff-explain.c needs of it. */
struct dlone {
	size_t dev;
	int64_t begin_us, end_us;	/* relative to the anchor */
	uint64_t nframes;
};

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
	ssize_t pair;		/* the serial of its match in the other file, -1 */
	uint64_t serial;	/* 0, 1, ... in the order its end was heard */
	uint64_t nframes;	/* frames that changed it */
	/* Its ns samples (diff-samples.c), encoded: diff_stride() fields
	 * each, the time since the previous sample (us), the line since its
	 * begin line, x, y, then the device's compared axes (ddev.axes). */
	uint8_t *enc;
	uint32_t ns;
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
	ssize_t kernel;		/* the serial of its kernel touch, -1 */
	ssize_t kpair;		/* the serial of that touch's match in the other file, -1 */
	bool matched;
};

/* The axes besides the position diff compares, at most. */
#define DIFF_MAX_AXES 9

struct ddev {
	uint32_t id;
	const struct tt_device *dev;
	bool mm;
	int64_t first_us;
	bool have_time;
	/* diff-samples.c: the compared axes (ABS_MT_* codes) it has, and
	 * the scale from device units to mm (or to a fraction of the
	 * range, without resolution). */
	uint32_t naxes;
	uint16_t axes[DIFF_MAX_AXES];
	double sx, sy;
	/* diff-pair.c: its ended touches not yet paired, in (begin, slot)
	 * order (samples kept), and those still down; the last frame's
	 * time, and whether a frame went back in time (the pairing as the
	 * files are read relies on frames in time order). */
	struct dtouch *pend;
	size_t npend, cappend;
	struct dactive *act;
	size_t nact, capact;
	int64_t last_frame_us;
	/* diff-devaxes.c: its single-touch axes' values not yet compared. */
	struct dseries *series;
	/* diff-rhythm.c: frames while a touch is down, and their intervals'
	 * number and sum. */
	uint64_t touch_frames;
	int64_t last_touch_frame_us;
	bool in_touch;
	uint64_t nintervals;
	int64_t interval_sum_us;
};

/* An EV_KEY press or release or an EV_SW change (diff-keys.c). */
struct dkey {
	int64_t t_us;		/* relative to its device's first frame */
	size_t line;
	uint32_t dev;		/* device ordinal */
	uint16_t type, code;
	int32_t value;
	bool matched;
};

/* A change of a HID contact's In Range or Confidence (diff-hid-state.c). */
struct dhstate {
	int64_t t_us;		/* as its contact's begin_us */
	size_t line;
	uint32_t bit;		/* enum tt_hstate */
	bool on;
	bool matched;
};

/* A HID contact (diff-hid.c). */
struct dhid {
	uint32_t dev;		/* HID device record id */
	int32_t contact;
	int64_t begin_us, end_us;	/* relative to the file's anchor */
	size_t line, end_line;
	uint64_t nreports;
	bool matched;
	/* Its state at the begin and the bits its reports carry, then the
	 * changes (enum tt_hstate). */
	uint32_t state0, known;
	struct dhstate *chg;
	size_t nchg;
	/* The contact of the same ID that went on after a tip up and down
	 * only this file has (an index in the file, -1), and whether this one
	 * is such a continuation. */
	ssize_t next;
	bool cont;
	ssize_t pair;		/* its paired contact in the other file, -1 */
	/* Its samples (diff_acc_*: x, y), and their scale to fractions of
	 * the logical ranges. */
	uint8_t *enc;
	uint32_t ns;
	double sx, sy;
};

/* A kernel touch down (diff-pair.c): it may still sort before, or pair
 * with, a touch that ended. */
struct dactive {
	int64_t begin_us;	/* absolute */
	uint64_t id;		/* tt_ktouch.serial */
	void *samples;		/* its tt_ktouch.user (diff-samples.c) */
};

/* How much diff holds at a time (TT_DIFF_STATS=1 prints the largest):
 * kernel touches and their samples, single-touch axis values. */
struct dstats {
	uint64_t touches, samples, values;
	uint64_t max_touches, max_samples, max_values;
};

struct side {
	const char *name;
	struct tt_reader *r;
	/* diff --grade: the grade layer on this file's stack, and the
	 * device it grades (-1: the one with the most touches). */
	struct tt_grade *grade;
	int64_t grade_only;
	/* Read side by side with the other file: what it says on stderr
	 * waits here, so each file's messages come whole, the first
	 * file's first, as when they were read one after the other. */
	FILE *msgs;
	char *msgbuf;
	size_t msglen;
	bool eof;		/* read to its end, its stack finished */
	bool failed;		/* it could not be opened or read on */
	bool backwards;		/* a device's frame went back in time */
	uint64_t kserial;
	struct dstats st;
	struct ddev devs[TT_MAX_DEVICES];
	size_t ndevs;
	size_t nk;		/* kernel touches heard */
	/* Those linked to XI, once compared, for pairing the XI touches. */
	struct dtouch *k;
	size_t nks, capk;
	/* Those the other file lacks, for what they explain (diff-explain.c). */
	struct dlone *lone;
	size_t nlone, caplone;
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
	struct dkey *keys;
	size_t nkeys, capkeys;
	/* The last value of each key and switch seen, per device: an event
	 * that repeats it changes nothing (the kernel drops it, so a replay
	 * cannot reproduce it) and is no press or release. */
	struct dkey *klast;
	size_t nklast, capklast;
	struct dhid *hid;
	size_t nhid, caphid;
	uint64_t hid_reports;
	bool has_hid;
};

/* What --ignore and the sidecar's ignore = leave out, in the order of
 * tt_parse_ignore_kinds() (tolerance.h). */
enum diff_ignore {
	DIFF_IGNORE_PATH = 1 << 0,
	DIFF_IGNORE_AXES = 1 << 1,
	DIFF_IGNORE_RHYTHM = 1 << 2,
	DIFF_IGNORE_KEYS = 1 << 3,
	DIFF_IGNORE_HID = 1 << 4,
	DIFF_IGNORE_ANOMALIES = 1 << 5,
};

struct diff_opts {
	int64_t time_tol;
	double pos_tol_mm;
	double pos_tol_frac;	/* of the axis range, for devices without resolution */
	bool kernel_only;
	bool json;
	double scroll_tol;	/* libinput scroll sums: a fraction of the larger */
	double path_tol_mm;	/* --path-tolerance */
	double path_tol_frac;
	double axis_tol_frac;	/* --axis-tolerance: of each axis range */
	double rate_tol_frac;	/* --rate-tolerance: of frame counts */
	int64_t stall_tol;	/* --stall-tolerance */
	int64_t latency_tol;	/* --latency-tolerance: Wayland latencies */
	unsigned ignore;	/* enum diff_ignore */
	struct tt_grade_profile *profile;	/* --grade, or NULL */
	double refresh_hz;	/* --refresh */
};

struct dbuf;

struct differ {
	struct side *a, *b;
	const struct diff_opts *o;
	size_t ndiff;
	struct tt_json_emit *json;	/* --json: the document being written */
	/* While the files are read: differences wait here (diff-output.c),
	 * sorted by where they belong, until the counts that head the
	 * output are known. */
	struct dbuf *buf;
	bool hold;		/* pair nothing before both files ended */
};

/* diff-options.c: the defaults; the command line (0 to go on, -1
 * after --help, TT_EXIT_USAGE after a usage error). */
struct tt_read_options;
void diff_opts_default(struct diff_opts *o);
/* diff-grade.c: --grade's layer on a file's stack, and the metrics whose
 * verdicts differ. */
void diff_grade_attach(struct differ *df, struct side *s, int64_t only_device);
void diff_compare_grade(struct differ *df);
int diff_parse_args(int argc, char **argv, struct diff_opts *o, struct tt_read_options *ro);

/* One difference of @kind: "A:LINE B:LINE: what" (a line 0 is "-"), or
 * with --json an object in the "differences" array. While df->buf is
 * set, kept there instead (below). */
void diff_difference(struct differ *df, const char *kind, size_t la, size_t lb, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A number compared: its value, tolerance and unit ("mm", "ms"...). */
struct diff_num {
	double value, tolerance;
	const char *unit;
};

/* A difference with the number compared (in --json "value",
 * "tolerance", "unit"). */
void diff_measured(struct differ *df, const char *kind, const struct diff_num *n, size_t la, size_t lb,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* diff-output.c: the differences found while the files are read, in
 * the order they are printed in: the paired touches' (section 0), the
 * missing (1) and the extra (2), each in the order of the touches'
 * device, begin and slot (of A's touch, for 0 and 1), then as said. */
struct dbuf *diff_buf_new(void);
void diff_buf_free(struct dbuf *b);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct dbuf *, diff_buf_free);
/* Where the differences said from now on belong. */
void diff_buf_key(struct differ *df, unsigned section, const struct dtouch *k);
/* Whether those said from now on count only if the XI touches are
 * compared (known once both files are read). */
void diff_buf_xi_only(struct differ *df, bool on);
/* A paired touch's largest intervals in motion, @ga and @gb, at lines
 * @la and @lb: their tolerance comes from the device's median interval,
 * known at the end (diff_report_stall()). Kept only when they may
 * differ by more than it. */
void diff_buf_stall(struct differ *df, const struct dtouch *ka, int64_t ga, int64_t gb, size_t la, size_t lb);
/* Says the differences kept, in order, and ends the buffering. */
void diff_buf_flush(struct differ *df);

/* diff-pair.c: the kernel touches paired as the files are read. A touch
 * is down (begin), then ended and waiting (end: @k is moved from), then
 * compared and freed once neither file can hold a touch that sorts before
 * it or pairs with it. diff_pair_step() does what it can now (all, once
 * both files ended); it runs nothing while df->hold. */
void diff_pair_begin(struct ddev *d, const struct tt_ktouch *t);
void diff_pair_end(struct ddev *d, uint64_t id, struct dtouch *k);
void diff_pair_step(struct differ *df);
void diff_pair_clear(struct side *s);
/* A touch's samples or values held, or let go (negative). */
void diff_stats_add(struct dstats *st, int64_t touches, int64_t samples, int64_t values);

/* diff-samples.c: the model callbacks that keep each kernel touch's
 * samples (kernel_begin, kernel_update; kernel_end moves them into the
 * touch), the device's axes, and a sample's fields. */
void diff_samples_device(struct ddev *d);
void diff_samples_begin(const struct ddev *d, struct tt_ktouch *t);
void diff_samples_update(struct tt_ktouch *t, const struct tt_kupdate *u);
void diff_samples_take(struct tt_ktouch *t, struct dtouch *k);
void diff_samples_drop(struct tt_ktouch *t);
/* What diff_samples_begin() hung on a touch (tt_ktouch.user) freed: for
 * touches the stack drops without an end (a file read no further). */
void diff_samples_forget(void *user);
/* A touch's samples unpacked for one comparison: the time since its
 * begin, the line, the position scaled (mm or fraction), one field. */
struct dpt {
	int64_t t;
	size_t line;
	double x, y;
	int32_t v;
};
/* The samples of @k, with field @field of each (4 + axis index; 0 for
 * none) in ->v. Returns their number; *out is the caller's to free. */
size_t diff_points(const struct ddev *d, const struct dtouch *k, uint32_t field, struct dpt **out);
/* Samples as they come (diff-samples.c): @stride int32 fields each, of
 * which the first two (the time and the line) the accumulator fills from
 * @time_us and @line_offset (since the begin's line); v[2..] are kept. */
struct dacc;
struct dacc *diff_acc_new(uint32_t stride);
void diff_acc_add(struct dacc *acc, int64_t time_us, size_t line_offset, const int32_t *v);
/* The encoded samples (the caller frees them), their number in *ns; frees
 * @acc. */
uint8_t *diff_acc_take(struct dacc *acc, uint32_t *ns);
void diff_acc_free(struct dacc *acc);
/* How to unpack them: fields, the begin's line, the position's scale. */
struct diff_scale {
	uint32_t stride;
	size_t line0;
	double sx, sy;
};
size_t diff_decode(const uint8_t *enc, uint32_t ns, const struct diff_scale *sc, uint32_t field, struct dpt **out);
/* The samples of @p (n > 0) whose values hold in [t - w, t + w]: from
 * the return value (moving *start on; call with rising t) to *end. */
size_t diff_points_at(const struct dpt *p, size_t n, size_t *start, int64_t t, int64_t w, size_t *end);
static inline uint32_t
diff_stride(const struct ddev *d)
{
	return 4 + d->naxes;
}

/* Where two paths part most (diff-path.c): every sample of each to the
 * other's polyline within @w of its time, both ways; the largest
 * distance, where, and the sum of squares over n samples (for the RMS).
 * @g starts zeroed. */
struct diff_parting {
	double max, sum2;
	size_t n;
	int64_t t;
	size_t la, lb;
};
void diff_path_parting(const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb, int64_t w,
		       struct diff_parting *g);
/* The window for it (na, nb > 0): wide enough that a replay's bunched
 * frames do not cut the other path short (diff-path.c). */
int64_t diff_path_window(const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb);

/* Each comparison inside paired touches (after the pairing). */
void diff_compare_path(struct differ *df, const struct dtouch *ka, const struct dtouch *kb);
void diff_compare_axes(struct differ *df, const struct dtouch *ka, const struct dtouch *kb);
void diff_compare_touch_rhythm(struct differ *df, const struct dtouch *ka, const struct dtouch *kb);
/* The values @pa and @pb of axis @code held over time, each against the
 * other's within the time tolerance, both ways; a difference of kind
 * "axis" beyond its tolerance. In a touch of @slot beginning at
 * @begin_us, or with @slot -1 of device @dev itself. */
void diff_compare_values(struct differ *df, size_t dev, int32_t slot, int64_t begin_us, uint16_t code,
			 const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb);
/* Where one side's values part most from the other's: the first of the
 * largest gaps, one value at a time (diff_value_gap_add() with the
 * other's values held in [t - w, t + w], from @q to @end). */
struct diff_value_gap {
	int64_t max;
	int64_t t;
	size_t la, lb;
	int32_t va, vb;
};
void diff_value_gap_add(struct diff_value_gap *g, const struct dpt *p, const struct dpt *q, size_t n, bool p_is_a);
/* The gap of A's values to B's, then B's to A's (the larger, the
 * first at a tie): a difference beyond the axis' tolerance. */
void diff_report_values(struct differ *df, size_t dev, int32_t slot, int64_t begin_us, uint16_t code,
			const struct diff_value_gap *ga, const struct diff_value_gap *gb);
/* diff-devaxes.c: a multitouch device's single-touch axes, per frame,
 * and their comparison. */
void diff_devaxes_frame(struct side *s, size_t dev, int64_t t_us, const struct tt_frame *f, size_t line);
/* Compares the values both files have reached, and lets them go. */
void diff_devaxes_step(struct differ *df);
void diff_compare_device_axes(struct differ *df);
void diff_devaxes_clear(struct ddev *d);
/* Per device: frames while touching, their mean interval. */
void diff_rhythm_frame(struct ddev *d, int64_t t_us, uint32_t nactive);
void diff_compare_rhythm(struct differ *df);
/* A paired touch's largest intervals in motion compared (see
 * diff_buf_stall()). */
void diff_report_stall(struct differ *df, const struct dtouch *ka, int64_t ga, int64_t gb, size_t la, size_t lb);
/* Frame or report counts @a and @b may differ by the rate tolerance of
 * the larger, and at least 2. */
double diff_count_tolerance(const struct differ *df, uint64_t a, uint64_t b);
/* diff-explain.c: what a kernel touch in one file only (compared before
 * keys and rhythm) explains. Whether @k is a BTN_TOUCH or BTN_TOOL_*
 * change within the time tolerance of such a touch's life on its device;
 * the frames of such touches on device @dev, in both files. */
bool diff_key_explained(const struct differ *df, const struct dkey *k);
uint64_t diff_unpaired_frames(const struct differ *df, size_t dev);
/* diff-keys.c: the EV_KEY/EV_SW changes of a frame; their comparison. */
void diff_keys_frame(struct side *s, size_t dev, int64_t t_us, const struct tt_frame *f, size_t line);
void diff_compare_keys(struct differ *df);
/* diff-hid.c: the HID contacts' callbacks and comparison. */
void diff_hid_subscribe(struct side *s, struct tt_stack *st);
void diff_compare_hid(struct differ *df);
/* diff-hid-state.c: a contact's state changes as they come (hid_begin,
 * hid_state; taken at hid_end into the contact, the list freed then), and
 * the comparison of paired contacts' states and tip ups and downs: kind
 * "hid". @hb's chain (->next) is in @b, @ha's in @a. */
struct dhcollect;
struct dhcollect *diff_hstate_new(const struct tt_htouch *t);
void diff_hstate_change(struct dhcollect *c, const struct tt_htouch *t, const struct tt_hupdate *u);
void diff_hstate_take(struct dhcollect *c, struct dhid *h);
void diff_compare_hid_state(struct differ *df, const struct dhid *ha, const struct dhid *hb);
/* The contacts that went on after a tip up and down only one file has,
 * chained to the paired contact they continue (->next), each reported
 * once as a difference of kind "hid". */
void diff_hid_tip_gaps(struct differ *df);

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
