/* SPDX-License-Identifier: MIT */
/* touchtape diff: the rhythm of the frames. Per device: the frames while
 * a touch is down and their mean interval; per paired touch: its frames
 * and its largest interval in motion (a stall). A replay writes every
 * frame again, only a few milliseconds late under load; a halved report
 * rate or frames lost mid-motion change these. The mean, not the median:
 * a replay under QEMU's TCG delivers frames in bunches (several within a
 * millisecond, then a gap) at the same overall rate, which moves the
 * median of consecutive intervals to the bunch's spacing and leaves the
 * mean where it was. See diff.h. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "util-strings.h"

void
diff_rhythm_frame(struct ddev *d, int64_t t_us, uint32_t nactive)
{
	if (!nactive && !d->in_touch)
		return;
	d->touch_frames++;
	if (d->in_touch) {
		d->nintervals++;
		d->interval_sum_us += t_us - d->last_touch_frame_us;
	}
	d->last_touch_frame_us = t_us;
	d->in_touch = nactive > 0;
}

/* The mean interval between frames while touching, in us; 0 without. */
static double
mean_us(const struct ddev *d)
{
	return d->nintervals ? (double)d->interval_sum_us / (double)d->nintervals : 0;
}

double
diff_count_tolerance(const struct differ *df, uint64_t a, uint64_t b)
{
	return fmax(2.0, df->o->rate_tol_frac * (double)(a > b ? a : b));
}

static void
compare_device(struct differ *df, size_t i)
{
	const struct ddev *a = &df->a->devs[i], *b = &df->b->devs[i];
	double fa = (double)a->touch_frames, fb = (double)b->touch_frames;
	struct diff_num n = { fabs(fa - fb), diff_count_tolerance(df, a->touch_frames, b->touch_frames), "count" };
	double ma = mean_us(a), mb = mean_us(b);

	/* The frames of a touch in one file only are reported as the touch. */
	if (n.value > n.tolerance + (double)diff_unpaired_frames(df, i))
		diff_measured(df, "rhythm", &n, 0, 0, "device %zu: %" PRIu64 " vs %" PRIu64 " frames while touching "
			      "(tolerance %.0f)", i, a->touch_frames, b->touch_frames, n.tolerance);
	/* A replay's frames come late by a few ms, but not all alike: the
	 * mean stays within 2 ms, or 4 times the rate tolerance of it. One
	 * frame late by up to the stall tolerance at the start of a touch
	 * shortens the time touching by that much: over a few intervals
	 * (a short tap) this moves the mean more than a halved rate would
	 * over a long touch, so it is spread over the intervals. */
	n.value = fabs(ma - mb) / 1000.0;
	n.tolerance = fmax(2.0, 4.0 * df->o->rate_tol_frac * ma / 1000.0);
	if (a->nintervals && b->nintervals)
		n.tolerance = fmax(n.tolerance, (double)df->o->stall_tol / 1000.0 /
				   (double)(a->nintervals < b->nintervals ? a->nintervals : b->nintervals));
	n.unit = "ms";
	if (n.value > n.tolerance)
		diff_measured(df, "rhythm", &n, 0, 0, "device %zu: mean frame interval while touching %.1f vs "
			      "%.1f ms (tolerance %.1f ms)", i, ma / 1000.0, mb / 1000.0, n.tolerance);
}

void
diff_compare_rhythm(struct differ *df)
{
	for (size_t i = 0; i < df->a->ndevs && i < df->b->ndevs; i++)
		compare_device(df, i);
}

/* The largest interval in motion: the step after it is more than twice
 * the step before (the finger went on meanwhile). A finger that rests
 * and moves again sends no frames meanwhile, then a step like any. */
static int64_t
largest_stall(const struct dpt *p, size_t n, size_t *line)
{
	int64_t best = 0;

	for (size_t i = 2; i < n; i++) {
		double before = hypot(p[i - 1].x - p[i - 2].x, p[i - 1].y - p[i - 2].y);
		double after = hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
		if (before > 0 && after > 2 * before && p[i].t - p[i - 1].t > best) {
			best = p[i].t - p[i - 1].t;
			*line = p[i].line;
		}
	}
	return best;
}

void
diff_report_stall(struct differ *df, const struct dtouch *ka, int64_t ga, int64_t gb, size_t la, size_t lb)
{
	double m = mean_us(&df->a->devs[ka->dev]);
	struct diff_num n = { fabs((double)(ga - gb)) / 1000.0, fmax((double)df->o->stall_tol, 3.0 * m) / 1000.0,
			      "ms" };
	char t[32];

	if (n.value > n.tolerance)
		diff_measured(df, "rhythm", &n, la, lb, "device %zu slot %d touch at +%s s: largest interval in "
			      "motion %.1f vs %.1f ms (tolerance %.1f ms)", ka->dev, ka->slot,
			      tt_format_time(t, sizeof(t), ka->begin_us), (double)ga / 1000.0, (double)gb / 1000.0,
			      n.tolerance);
}

/* The device's median interval is known at the end: diff_buf_stall(). */
static void
compare_stall(struct differ *df, const struct dtouch *ka, const struct dpt *pa, size_t na, const struct dpt *pb,
	      size_t nb)
{
	size_t la = ka->line, lb = pb[0].line;
	int64_t ga = largest_stall(pa, na, &la), gb = largest_stall(pb, nb, &lb);

	diff_buf_stall(df, ka, ga, gb, la, lb);
}

/* The touch's frames in windows of this length: a stretch at half the
 * rate shows even in a touch long enough to hide it in its total. */
#define RATE_WINDOW_US 500000

/* The samples of @p from *i on that fall before @end; *line: the first. */
static uint64_t
count_until(const struct dpt *p, size_t n, size_t *i, int64_t end, size_t *line)
{
	uint64_t c = 0;

	if (*i < n)
		*line = p[*i].line;
	for (; *i < n && p[*i].t < end; (*i)++)
		c++;
	return c;
}

/* The first window where the frames differ by more than four times the
 * rate tolerance (a replay moves a frame or two across a window's edge:
 * at least 4). */
static void
compare_local_rate(struct differ *df, const struct dtouch *ka, const struct dpt *pa, size_t na,
		   const struct dpt *pb, size_t nb, const char *t)
{
	size_t i = 0, j = 0, la = ka->line, lb = pb[0].line;
	char at[32];

	for (int64_t w = 0; i < na || j < nb; w += RATE_WINDOW_US) {
		uint64_t ca = count_until(pa, na, &i, w + RATE_WINDOW_US, &la);
		uint64_t cb = count_until(pb, nb, &j, w + RATE_WINDOW_US, &lb);
		struct diff_num n = { fabs((double)ca - (double)cb),
				      fmax(4.0, 4.0 * df->o->rate_tol_frac * (double)(ca > cb ? ca : cb)), "count" };
		if (n.value <= n.tolerance)
			continue;
		diff_measured(df, "rhythm", &n, la, lb, "device %zu slot %d touch at +%s s: %" PRIu64 " vs %" PRIu64
			      " frames in the %.1f s from +%s s into the touch (tolerance %.0f)", ka->dev, ka->slot, t,
			      ca, cb, RATE_WINDOW_US / 1e6, tt_format_time(at, sizeof(at), w), n.tolerance);
		return;
	}
}

void
diff_compare_touch_rhythm(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	struct diff_num n = { fabs((double)ka->nframes - (double)kb->nframes),
			      diff_count_tolerance(df, ka->nframes, kb->nframes), "count" };
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = diff_points(&df->a->devs[ka->dev], ka, 0, &pa);
	size_t nb = diff_points(&df->b->devs[kb->dev], kb, 0, &pb);
	char t[32];

	tt_format_time(t, sizeof(t), ka->begin_us);
	if (n.value > n.tolerance)
		diff_measured(df, "rhythm", &n, ka->line, kb->line, "device %zu slot %d touch at +%s s: %" PRIu64
			      " vs %" PRIu64 " frames (tolerance %.0f)", ka->dev, ka->slot, t, ka->nframes,
			      kb->nframes, n.tolerance);
	else if (na && nb)
		compare_local_rate(df, ka, pa, na, pb, nb, t);
	if (na && nb)
		compare_stall(df, ka, pa, na, pb, nb);
}
