/* SPDX-License-Identifier: MIT */
/* touchtape diff: the paths of two paired kernel touches. Each sample of
 * one is measured to the other's path (its polyline), both ways: the
 * largest of those distances (a Hausdorff distance) and their RMS. Only
 * the stretch of the other path within the time tolerance of the sample
 * counts, so a touch that passes the same place at another time (a jump
 * out and back onto its own track) still shows, and the work stays linear
 * in the samples. See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "util-strings.h"

/* Where the paths part most, and by how much overall. */
struct path_gap {
	double max, sum2;
	size_t n;
	int64_t t;
	size_t la, lb;
};

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
one_way(struct path_gap *g, const struct dpt *p, size_t np, const struct dpt *q, size_t nq, int64_t w,
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

static void
report(struct differ *df, const struct dtouch *ka, const struct path_gap *g, const struct ddev *d)
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

void
diff_compare_path(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	const struct ddev *d = &df->a->devs[ka->dev];
	const struct ddev *db = &df->b->devs[kb->dev];
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = diff_points(d, ka, 0, &pa);
	size_t nb = diff_points(db, kb, 0, &pb);
	struct path_gap g = { 0 };

	if (!na || !nb)
		return;
	one_way(&g, pa, na, pb, nb, df->o->time_tol, true);
	one_way(&g, pb, nb, pa, na, df->o->time_tol, false);
	if (g.max > (d->mm ? df->o->path_tol_mm : df->o->path_tol_frac))
		report(df, ka, &g, d);
}
