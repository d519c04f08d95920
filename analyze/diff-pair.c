/* SPDX-License-Identifier: MIT */
/* touchtape diff: the kernel touches of the two files paired and compared
 * as the files are read, side by side. A touch of A is paired as if
 * every touch were known and A's taken in the order of device, begin and
 * slot, each with the nearest unpaired touch of B beginning within the
 * time tolerance: so it waits until no touch of A can still sort before
 * it and every touch of B that begins by its begin plus the tolerance
 * has ended. Frames of a device come in time order (a frame back in time
 * sets side->backwards; cmd-diff.c reads the files again holding every
 * touch to the end), so a touch that has not begun will begin at or
 * after its device's last frame. Once compared, a touch's samples are
 * freed: diff holds the touches of a stretch of the files, not of the
 * files. See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "util-strings.h"

void
diff_stats_add(struct dstats *st, int64_t touches, int64_t samples, int64_t values)
{
	st->touches += (uint64_t)touches;
	st->samples += (uint64_t)samples;
	st->values += (uint64_t)values;
	if (st->touches > st->max_touches)
		st->max_touches = st->touches;
	if (st->samples > st->max_samples)
		st->max_samples = st->samples;
	if (st->values > st->max_values)
		st->max_values = st->values;
}

void
diff_pair_begin(struct ddev *d, const struct tt_ktouch *t)
{
	d->act = tt_grow(d->act, d->nact, &d->capact, sizeof(*d->act));
	d->act[d->nact++] = (struct dactive){ .begin_us = t->begin_us, .id = t->serial, .samples = t->user };
}

static int
cmp_k(const struct dtouch *x, const struct dtouch *y)
{
	if (x->begin_us != y->begin_us)
		return x->begin_us < y->begin_us ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

void
diff_pair_end(struct ddev *d, uint64_t id, struct dtouch *k)
{
	size_t i;

	for (i = 0; i < d->nact && d->act[i].id != id; i++)
		;
	if (i < d->nact)
		d->act[i] = d->act[--d->nact];
	d->pend = tt_grow(d->pend, d->npend, &d->cappend, sizeof(*d->pend));
	for (i = d->npend; i > 0 && cmp_k(&d->pend[i - 1], k) > 0; i--)
		;
	memmove(&d->pend[i + 1], &d->pend[i], (d->npend - i) * sizeof(*d->pend));
	d->pend[i] = *k;
	d->npend++;
}

/* Touches of device @i of @s beginning before this have all ended: those
 * down began at their begin, those to come will at the last frame or
 * later (relative to the device's first frame). */
static int64_t
unknown_from(const struct side *s, size_t i)
{
	if (s->eof)
		return INT64_MAX;
	if (i >= s->ndevs || !s->devs[i].have_time)
		return 0;
	const struct ddev *d = &s->devs[i];
	int64_t lo = d->last_frame_us - d->first_us;
	for (size_t j = 0; j < d->nact; j++) {
		if (d->act[j].begin_us - d->first_us < lo)
			lo = d->act[j].begin_us - d->first_us;
	}
	return lo;
}

/* Done with @k (moved from a pending list): kept without its samples
 * when linked to XI, for pairing the XI touches. */
static void
let_go(struct side *s, struct dtouch *k)
{
	diff_stats_add(&s->st, -1, -(int64_t)k->ns, 0);
	free(k->enc);
	k->enc = NULL;
	k->ns = 0;
	if (k->pair < 0) {
		s->lone = tt_grow(s->lone, s->nlone, &s->caplone, sizeof(*s->lone));
		s->lone[s->nlone++] = (struct dlone){ k->dev, k->begin_us, k->end_us, k->nframes };
	}
	if (k->link != TT_LINK_LINKED)
		return;
	s->k = tt_grow(s->k, s->nks, &s->capk, sizeof(*s->k));
	s->k[s->nks++] = *k;
}

static struct dtouch
take(struct ddev *d, size_t i)
{
	struct dtouch k = d->pend[i];

	memmove(&d->pend[i], &d->pend[i + 1], (d->npend - i - 1) * sizeof(*d->pend));
	d->npend--;
	return k;
}

static double
pos_tolerance(const struct differ *df, const struct ddev *d)
{
	if (d->mm)
		return df->o->pos_tol_mm;
	bool mt = tt_device_has(d->dev, EV_ABS, ABS_MT_POSITION_X);
	const struct tt_absinfo *ax = &d->dev->abs[mt ? ABS_MT_POSITION_X : ABS_X];
	const struct tt_absinfo *ay = &d->dev->abs[mt ? ABS_MT_POSITION_Y : ABS_Y];
	double range = fmax((double)ax->maximum - ax->minimum, (double)ay->maximum - ay->minimum);
	return fmax(1.0, range * df->o->pos_tol_frac);
}

static const char *
unit(const struct ddev *d)
{
	return d->mm ? "mm" : "units";
}

static void
compare_place(struct differ *df, const struct dtouch *ka, const char *what, double xa, double ya, double xb,
	      double yb, size_t lb)
{
	const struct ddev *d = &df->a->devs[ka->dev];
	struct diff_num n = { hypot(xa - xb, ya - yb), pos_tolerance(df, d), unit(d) };
	char t[32];

	if (n.value <= n.tolerance)
		return;
	diff_measured(df, "position", &n, ka->line, lb,
		      "device %zu slot %d touch at +%s s: %s position (%.1f, %.1f) vs (%.1f, %.1f) %s, "
		      "%.1f %s apart (tolerance %.1f)", ka->dev, ka->slot, tt_format_time(t, sizeof(t), ka->begin_us),
		      what, xa, ya, xb, yb, n.unit, n.value, n.unit, n.tolerance);
}

/* What lies inside the two touches, unless --ignore'd. */
static void
compare_inside(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	if (!(df->o->ignore & DIFF_IGNORE_PATH))
		diff_compare_path(df, ka, kb);
	if (!(df->o->ignore & DIFF_IGNORE_AXES))
		diff_compare_axes(df, ka, kb);
	if (!(df->o->ignore & DIFF_IGNORE_RHYTHM))
		diff_compare_touch_rhythm(df, ka, kb);
}

static void
compare_pair(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	struct diff_num n = { fabs((double)(kb->end_us - ka->end_us)) / 1000.0, (double)df->o->time_tol / 1000.0,
			      "ms" };
	char t[32];

	tt_format_time(t, sizeof(t), ka->begin_us);
	if (ka->slot != kb->slot)
		diff_difference(df, "slot", ka->line, kb->line, "device %zu touch at +%s s: slot %d vs %d", ka->dev, t,
				ka->slot, kb->slot);
	compare_place(df, ka, "begin", ka->bx, ka->by, kb->bx, kb->by, kb->line);
	compare_place(df, ka, "end", ka->ex, ka->ey, kb->ex, kb->ey, kb->line);
	if (llabs(ka->end_us - kb->end_us) > df->o->time_tol)
		diff_measured(df, "end", &n, ka->line, kb->line,
			      "device %zu slot %d touch at +%s s: ends %.3f ms %s (tolerance %.3f ms)", ka->dev,
			      ka->slot, t, n.value, kb->end_us > ka->end_us ? "later" : "earlier", n.tolerance);
	if (ka->active_at_end != kb->active_at_end)
		diff_difference(df, "end", ka->line, kb->line, "device %zu slot %d touch at +%s s: %s at the end in %s only",
				ka->dev, ka->slot, t, "still down", ka->active_at_end ? df->a->name : df->b->name);
	/* Whether XI is compared is known at the end: diff_buf_flush(). */
	if (ka->link != kb->link && (ka->link == TT_LINK_NOT_DELIVERED || kb->link == TT_LINK_NOT_DELIVERED)) {
		diff_buf_xi_only(df, true);
		diff_difference(df, "xi", ka->line, kb->line, "device %zu slot %d touch at +%s s: X delivery %s vs %s",
				ka->dev, ka->slot, t, tt_link_status_name(ka->link), tt_link_status_name(kb->link));
		diff_buf_xi_only(df, false);
	}
	compare_inside(df, ka, kb);
}

/* The touch of B that @ka pairs with: beginning within the time
 * tolerance, the nearest in time and place; -1 for none. */
static ssize_t
best_match(const struct differ *df, const struct dtouch *ka, const struct ddev *db, double tol)
{
	ssize_t best = -1;
	double best_score = INFINITY;

	for (size_t j = 0; j < db->npend; j++) {
		const struct dtouch *kb = &db->pend[j];
		int64_t dt = llabs(kb->begin_us - ka->begin_us);
		if (dt > df->o->time_tol)
			continue;
		/* Rank by time and place; a shifted touch still pairs. */
		double score = (double)dt / (double)df->o->time_tol + hypot(ka->bx - kb->bx, ka->by - kb->by) / tol +
			       (ka->slot != kb->slot ? 1.0 : 0.0);
		if (score < best_score) {
			best_score = score;
			best = (ssize_t)j;
		}
	}
	return best;
}

static void
say_missing(struct differ *df, const struct dtouch *k)
{
	char t[32];

	diff_buf_key(df, 1, k);
	diff_difference(df, "touch-missing", k->line, 0, "device %zu slot %d touch at +%s s (%.1f, %.1f) %s is missing in %s",
			k->dev, k->slot, tt_format_time(t, sizeof(t), k->begin_us), k->bx, k->by,
			unit(&df->a->devs[k->dev]), df->b->name);
}

static void
say_extra(struct differ *df, const struct dtouch *k)
{
	char t[32];

	diff_buf_key(df, 2, k);
	diff_difference(df, "touch-extra", 0, k->line, "device %zu slot %d touch at +%s s (%.1f, %.1f) %s is only in %s",
			k->dev, k->slot, tt_format_time(t, sizeof(t), k->begin_us), k->bx, k->by,
			unit(&df->b->devs[k->dev]), df->b->name);
}

/* The first waiting touch of A on device @i, when nothing can come
 * before it or pair with it any more. */
static bool
decide_one(struct differ *df, size_t i)
{
	struct side *a = df->a, *b = df->b;
	struct ddev *da = &a->devs[i];

	if (!da->npend || da->pend[0].begin_us >= unknown_from(a, i) ||
	    da->pend[0].begin_us >= unknown_from(b, i) - df->o->time_tol)
		return false;
	struct dtouch ka = take(da, 0);
	ssize_t best = i < b->ndevs ? best_match(df, &ka, &b->devs[i], pos_tolerance(df, da)) : -1;
	if (best < 0) {
		say_missing(df, &ka);
	} else {
		struct dtouch kb = take(&b->devs[i], (size_t)best);
		ka.pair = (ssize_t)kb.serial;
		kb.pair = (ssize_t)ka.serial;
		diff_buf_key(df, 0, &ka);
		compare_pair(df, &ka, &kb);
		let_go(b, &kb);
	}
	let_go(a, &ka);
	return true;
}

/* The waiting touches of B on device @i that no touch of A can pair
 * with any more. */
static void
drop_extras(struct differ *df, size_t i)
{
	struct ddev *db = &df->b->devs[i];
	int64_t lo = unknown_from(df->a, i);

	if (i < df->a->ndevs && df->a->devs[i].npend && df->a->devs[i].pend[0].begin_us < lo)
		lo = df->a->devs[i].pend[0].begin_us;
	while (db->npend && db->pend[0].begin_us < lo - df->o->time_tol) {
		struct dtouch kb = take(db, 0);
		say_extra(df, &kb);
		let_go(df->b, &kb);
	}
}

void
diff_pair_step(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	bool ended = a->eof && b->eof;

	if (!ended && (df->hold || a->backwards || b->backwards))
		return;
	for (size_t i = 0; i < a->ndevs; i++) {
		while (decide_one(df, i))
			;
	}
	for (size_t i = 0; i < b->ndevs; i++)
		drop_extras(df, i);
}

void
diff_pair_clear(struct side *s)
{
	for (size_t i = 0; i < s->ndevs; i++) {
		struct ddev *d = &s->devs[i];
		for (size_t j = 0; j < d->npend; j++)
			free(d->pend[j].enc);
		/* Read no further: the stack drops them without an end. */
		for (size_t j = 0; j < d->nact; j++)
			diff_samples_forget(d->act[j].samples);
		free(d->pend);
		free(d->act);
		d->pend = NULL;
		d->act = NULL;
		d->npend = d->nact = 0;
	}
	free(s->k);
	s->k = NULL;
	s->nks = 0;
	free(s->lone);
	s->lone = NULL;
	s->nlone = 0;
}
