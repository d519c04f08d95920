/* SPDX-License-Identifier: MIT */
/* touchtape diff of the libinput layer: what libinput made of the same
 * touches in two recordings (two libinput versions or configurations).
 * Devices are paired by their order in each file, gestures by time
 * overlap (the same kind first), taps by time and button; times are
 * relative to each device's first frame, as for the kernel touches. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/diff.h"
#include "util-strings.h"

/* Scroll sums this close are the same scrolling (libinput's units). */
#define SCROLL_FLOOR 1.0

static ssize_t
ordinal(const struct side *s, uint32_t device, int64_t *t0)
{
	for (size_t i = 0; i < s->ndevs; i++) {
		if (s->devs[i].id == device) {
			*t0 = s->devs[i].first_us;
			return (ssize_t)i;
		}
	}
	*t0 = 0;
	return -1;
}

static const struct tt_li_counts *
counts_of(const struct side *s, size_t ord)
{
	for (size_t i = 0; i < s->li.ncounts; i++) {
		int64_t t0;
		if (ordinal(s, s->li.counts[i].device, &t0) == (ssize_t)ord)
			return &s->li.counts[i];
	}
	return NULL;
}

static void
count_diff(struct differ *df, size_t ord, const char *what, uint64_t a, uint64_t b)
{
	if (a != b)
		diff_difference(df, "libinput", 0, 0, "libinput device %zu: %s %" PRIu64 " vs %" PRIu64, ord, what, a, b);
}

static bool
scroll_close(const struct differ *df, double a, double b)
{
	double tol = df->o->scroll_tol * fmax(fabs(a), fabs(b));
	return fabs(a - b) <= fmax(tol, SCROLL_FLOOR);
}

static void
scroll_diff(struct differ *df, size_t ord, const char *axis, double a, double b)
{
	if (!scroll_close(df, a, b))
		diff_difference(df, "libinput", 0, 0, "libinput device %zu: scroll %s %.2f vs %.2f (tolerance %.0f%%)",
				ord, axis, a, b, df->o->scroll_tol * 100);
}

/* The numbers of a device that gestures and taps, listed one by one,
 * do not already tell. */
static void
compare_counts(struct differ *df, size_t ord, const struct tt_li_counts *a, const struct tt_li_counts *b)
{
	if (!a || !b) {
		diff_difference(df, "libinput", 0, 0, "libinput device %zu: seen by libinput only in %s", ord,
				a ? df->a->name : df->b->name);
		return;
	}
	count_diff(df, ord, "touches", a->touches, b->touches);
	count_diff(df, ord, "touches cancelled", a->touches_cancelled, b->touches_cancelled);
	count_diff(df, ord, "button presses (not taps)", a->button_presses - a->taps,
		   b->button_presses - b->taps);
	scroll_diff(df, ord, "vertical", a->scroll_vert, b->scroll_vert);
	scroll_diff(df, ord, "horizontal", a->scroll_horiz, b->scroll_horiz);
	count_diff(df, ord, "wheel v120 vertical", (uint64_t)llround(fabs(a->wheel_v120_vert)),
		   (uint64_t)llround(fabs(b->wheel_v120_vert)));
}

/* ---- gestures ---- */

struct lgest {
	const struct tt_li_gesture *g;
	ssize_t ord;
	int64_t begin_us, end_us;	/* relative */
	bool matched;
};

static struct lgest *
gestures_of(const struct side *s)
{
	struct lgest *v = tt_reallocarray(NULL, s->li.ngestures ? s->li.ngestures : 1, sizeof(*v));

	for (size_t i = 0; i < s->li.ngestures; i++) {
		int64_t t0;
		v[i].g = &s->li.gestures[i];
		v[i].ord = ordinal(s, v[i].g->device, &t0);
		v[i].begin_us = v[i].g->begin_us - t0;
		v[i].end_us = v[i].g->end_us - t0;
		v[i].matched = false;
	}
	return v;
}

static void
gesture_name(char *buf, size_t len, const struct lgest *l)
{
	const char *dir = li_gesture_direction(l->g);
	char tb[32];

	snprintf(buf, len, "libinput device %zd %s %d-finger%s%s at +%s s", l->ord,
		 tt_li_gesture_kind_name(l->g->kind), l->g->fingers, *dir ? " " : "", dir,
		 tt_format_time(tb, sizeof(tb), l->begin_us));
}

/* The gesture of @b that overlaps @a in time on the same device (of the
 * same kind when @same_kind). */
static ssize_t
match_gesture(const struct differ *df, const struct lgest *a, struct lgest *b, size_t nb, bool same_kind)
{
	for (size_t i = 0; i < nb; i++) {
		if (b[i].matched || b[i].ord != a->ord || b[i].begin_us > a->end_us + df->o->time_tol ||
		    b[i].end_us + df->o->time_tol < a->begin_us)
			continue;
		if (!same_kind || b[i].g->kind == a->g->kind)
			return (ssize_t)i;
	}
	return -1;
}

static void
compare_gesture(struct differ *df, const struct lgest *a, const struct lgest *b)
{
	char name[160];
	const char *da = li_gesture_direction(a->g), *db = li_gesture_direction(b->g);

	gesture_name(name, sizeof(name), a);
	if (a->g->kind != b->g->kind)
		diff_difference(df, "libinput", a->g->begin_line, b->g->begin_line, "%s: recognised as %s vs %s", name,
				tt_li_gesture_kind_name(a->g->kind), tt_li_gesture_kind_name(b->g->kind));
	if (a->g->fingers != b->g->fingers)
		diff_difference(df, "libinput", a->g->begin_line, b->g->begin_line, "%s: %d vs %d fingers", name,
				a->g->fingers, b->g->fingers);
	if (a->g->kind == b->g->kind && strcmp(da, db) != 0)
		diff_difference(df, "libinput", a->g->begin_line, b->g->begin_line, "%s: direction %s vs %s", name,
				*da ? da : "none", *db ? db : "none");
	if (a->g->cancelled != b->g->cancelled)
		diff_difference(df, "libinput", a->g->end_line, b->g->end_line, "%s: %s vs %s", name,
				a->g->cancelled ? "cancelled" : "ended", b->g->cancelled ? "cancelled" : "ended");
}

static void
compare_gestures(struct differ *df)
{
	_cleanup_free_ struct lgest *a = gestures_of(df->a);
	_cleanup_free_ struct lgest *b = gestures_of(df->b);
	size_t na = df->a->li.ngestures, nb = df->b->li.ngestures;
	char name[160];

	/* Each gesture with one of its own kind first, so a gesture left
	 * out in one file does not take another's partner (the time
	 * tolerance may span both); then what is left, of any kind. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < na; i++) {
			ssize_t j = a[i].matched ? -1 : match_gesture(df, &a[i], b, nb, pass == 0);
			if (j < 0)
				continue;
			a[i].matched = b[j].matched = true;
			compare_gesture(df, &a[i], &b[j]);
		}
	}
	for (size_t i = 0; i < na; i++) {
		if (a[i].matched)
			continue;
		gesture_name(name, sizeof(name), &a[i]);
		diff_difference(df, "libinput", a[i].g->begin_line, 0, "%s: not recognised in %s", name, df->b->name);
	}
	for (size_t i = 0; i < nb; i++) {
		if (b[i].matched)
			continue;
		gesture_name(name, sizeof(name), &b[i]);
		diff_difference(df, "libinput", 0, b[i].g->begin_line, "%s: only in %s", name, df->b->name);
	}
}

/* ---- taps ---- */

static bool
tap_matches(const struct differ *df, const struct side *sa, const struct li_tap *ta,
	    const struct side *sb, const struct li_tap *tb)
{
	int64_t t0a, t0b;
	ssize_t oa = ordinal(sa, ta->device, &t0a), ob = ordinal(sb, tb->device, &t0b);

	return oa == ob && ta->button == tb->button &&
	       llabs((ta->time_us - t0a) - (tb->time_us - t0b)) <= df->o->time_tol;
}

/* The taps of @from with none in @to at the same time: listed. */
static void
taps_missing(struct differ *df, const struct side *from, const struct side *to, bool from_a)
{
	for (size_t i = 0; i < from->li.ntaps; i++) {
		const struct li_tap *t = &from->li.taps[i];
		bool found = false;
		int64_t t0;
		char tb[32];
		for (size_t j = 0; j < to->li.ntaps && !found; j++)
			found = tap_matches(df, from, t, to, &to->li.taps[j]);
		if (found)
			continue;
		ssize_t ord = ordinal(from, t->device, &t0);
		diff_difference(df, "libinput", from_a ? t->line : 0, from_a ? 0 : t->line,
				"libinput device %zd %s tap at +%s s: only in %s", ord, li_tap_button_name(t->button),
				tt_format_time(tb, sizeof(tb), t->time_us - t0), from->name);
	}
}

void
diff_compare_li(struct differ *df)
{
	const struct side *a = df->a, *b = df->b;
	size_t ndevs = a->ndevs > b->ndevs ? a->ndevs : b->ndevs;

	if (!a->li.has_layer && !b->li.has_layer)
		return;
	if (a->li.has_layer != b->li.has_layer) {
		diff_difference(df, "libinput", 0, 0, "a libinput layer only in %s", a->li.has_layer ? a->name : b->name);
		return;
	}
	for (size_t ord = 0; ord < ndevs; ord++) {
		const struct tt_li_counts *ca = counts_of(a, ord), *cb = counts_of(b, ord);
		if (ca || cb)
			compare_counts(df, ord, ca, cb);
	}
	compare_gestures(df);
	taps_missing(df, a, b, true);
	taps_missing(df, b, a, false);
}
