/* SPDX-License-Identifier: MIT */
/* touchtape diff: the paths of two paired kernel touches. Each sample of
 * one is measured to the other's path (its polyline), both ways: the
 * largest of those distances (a Hausdorff distance) and their RMS. Only
 * the stretch of the other path near the sample's time counts (PATH_WINDOW_US
 * or PATH_WINDOW_FRAMES frames, the wider), so a touch that passes the same
 * place at another time (a jump out and back onto its own track) still
 * shows, and the work stays linear in the samples. The stretch is wide
 * because a replay under load (QEMU's TCG) bunches frames: the same
 * positions 31, 0.5 and 56 ms apart instead of 14 each; the time
 * tolerance would cut the other path short and call that a parting.
 * See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "util-strings.h"

#define PATH_WINDOW_US 250000
#define PATH_WINDOW_FRAMES 10

static double
seg_dist(const struct dpt *p, const struct dpt *a, const struct dpt *b)
{
	double dx = b->x - a->x, dy = b->y - a->y;
	double len2 = dx * dx + dy * dy;
	double u = len2 > 0 ? ((p->x - a->x) * dx + (p->y - a->y) * dy) / len2 : 0;

	u = u < 0 ? 0 : u > 1 ? 1 : u;
	return hypot(p->x - (a->x + u * dx), p->y - (a->y + u * dy));
}

/* The distance from @p to the polyline @q near @p's time; *near: the
 * sample of @q the nearest point belongs to. */
static double
to_path(const struct dpt *p, const struct dpt *q, size_t nq, size_t *start, int64_t w, size_t *near)
{
	size_t end;
	size_t j = diff_points_at(q, nq, start, p->t, w, &end);
	double best = INFINITY;

	for (; j <= end; j++) {
		double d = j + 1 < nq ? seg_dist(p, &q[j], &q[j + 1]) : hypot(p->x - q[j].x, p->y - q[j].y);
		if (d < best) {
			best = d;
			*near = j;
		}
	}
	return best;
}

/* Every sample of @p to the path @q; @p_is_a says which file @p is. */
static void
one_way(struct diff_parting *g, const struct dpt *p, size_t np, const struct dpt *q, size_t nq, int64_t w,
	bool p_is_a)
{
	size_t start = 0, near = 0;

	for (size_t i = 0; i < np; i++) {
		double d = to_path(&p[i], q, nq, &start, w, &near);
		g->sum2 += d * d;
		g->n++;
		if (d > g->max) {
			g->max = d;
			g->t = p[i].t;
			g->la = p_is_a ? p[i].line : q[near].line;
			g->lb = p_is_a ? q[near].line : p[i].line;
		}
	}
}

void
diff_path_parting(const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb, int64_t w,
		  struct diff_parting *g)
{
	one_way(g, pa, na, pb, nb, w, true);
	one_way(g, pb, nb, pa, na, w, false);
}

static void
report(struct differ *df, const struct dtouch *ka, const struct diff_parting *g, const struct ddev *d)
{
	double scale = d->mm ? 1.0 : 100.0;
	const char *u = d->mm ? "mm" : "% of the axis range";
	struct diff_num n = { g->max, d->mm ? df->o->path_tol_mm : df->o->path_tol_frac,
			      d->mm ? "mm" : "fraction" };
	char t[32], at[32];

	diff_measured(df, "path", &n, g->la, g->lb,
		      "device %zu slot %d touch at +%s s: paths part by %.2f %s at +%s s into the touch "
		      "(RMS %.2f, tolerance %.2f)", ka->dev, ka->slot, tt_format_time(t, sizeof(t), ka->begin_us),
		      g->max * scale, u, tt_format_time(at, sizeof(at), g->t), sqrt(g->sum2 / (double)g->n) * scale,
		      n.tolerance * scale);
}

/* The stretch of the other path a sample is measured to, either side. */
int64_t
diff_path_window(const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb)
{
	int64_t span = pa[na - 1].t > pb[nb - 1].t ? pa[na - 1].t : pb[nb - 1].t;
	size_t n = na < nb ? na : nb;
	int64_t frames = n > 1 ? span / (int64_t)(n - 1) * PATH_WINDOW_FRAMES : 0;

	return frames > PATH_WINDOW_US ? frames : PATH_WINDOW_US;
}

void
diff_compare_path(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	const struct ddev *d = &df->a->devs[ka->dev];
	const struct ddev *db = &df->b->devs[kb->dev];
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = diff_points(d, ka, 0, &pa);
	size_t nb = diff_points(db, kb, 0, &pb);
	struct diff_parting g = { 0 };

	if (!na || !nb)
		return;
	diff_path_parting(pa, na, pb, nb, diff_path_window(pa, na, pb, nb), &g);
	if (g.max > (d->mm ? df->o->path_tol_mm : df->o->path_tol_frac))
		report(df, ka, &g, d);
}
