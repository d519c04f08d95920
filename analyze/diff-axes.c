/* SPDX-License-Identifier: MIT */
/* touchtape diff: every axis but the position of two paired kernel
 * touches (pressure, touch and width major/minor, orientation, distance,
 * tool type, blob id), value by value: each value of one touch against
 * the values the other held within the time tolerance of it, both ways.
 * See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "evnames.h"
#include "util-strings.h"

/* Tool type and blob id are labels: any change is one. Other axes may
 * move by a fraction of their range, and never less than twice their
 * fuzz (the kernel's own filter). */
static double
axis_tolerance(const struct differ *df, const struct ddev *d, uint16_t code)
{
	if (code == ABS_MT_TOOL_TYPE || code == ABS_MT_BLOB_ID)
		return 0;
	bool st = code == ABS_MT_PRESSURE && !tt_device_has(d->dev, EV_ABS, ABS_MT_PRESSURE);
	const struct tt_absinfo *ai = &d->dev->abs[st ? ABS_PRESSURE : code];
	double range = (double)ai->maximum - ai->minimum;

	return fmax(1.0, fmax(range * df->o->axis_tol_frac, 2.0 * ai->fuzz));
}

void
diff_value_gap_add(struct diff_value_gap *g, const struct dpt *p, const struct dpt *q, size_t n, bool p_is_a)
{
	int64_t best = INT64_MAX;
	size_t near = 0;

	for (size_t j = 0; j < n; j++) {
		int64_t dv = llabs((int64_t)p->v - q[j].v);
		if (dv < best) {
			best = dv;
			near = j;
		}
	}
	if (best <= g->max)
		return;
	g->max = best;
	g->t = p->t;
	g->la = p_is_a ? p->line : q[near].line;
	g->lb = p_is_a ? q[near].line : p->line;
	g->va = p_is_a ? p->v : q[near].v;
	g->vb = p_is_a ? q[near].v : p->v;
}

static void
one_way(struct diff_value_gap *g, const struct dpt *p, size_t np, const struct dpt *q, size_t nq, int64_t w,
	bool p_is_a)
{
	size_t start = 0, end;

	for (size_t i = 0; i < np; i++) {
		size_t j = diff_points_at(q, nq, &start, p[i].t, w, &end);
		diff_value_gap_add(g, &p[i], &q[j], end - j + 1, p_is_a);
	}
}

/* In a touch (@slot >= 0, beginning at @begin_us) or of the device. */
static void
say(struct differ *df, const struct diff_num *n, const struct diff_value_gap *g, size_t dev, int32_t slot,
    int64_t begin_us, uint16_t code)
{
	char t[32], at[32], where[96];

	if (slot >= 0)
		snprintf(where, sizeof(where), "device %zu slot %d touch at +%s s", dev, slot,
			 tt_format_time(t, sizeof(t), begin_us));
	else
		snprintf(where, sizeof(where), "device %zu", dev);
	diff_measured(df, "axis", n, g->la, g->lb, "%s: %s %d vs %d at +%s s%s, %" PRId64 " apart (tolerance %.0f)",
		      where, tt_code_name(EV_ABS, code), g->va, g->vb, tt_format_time(at, sizeof(at), g->t),
		      slot >= 0 ? " into the touch" : "", g->max, n->tolerance);
}

void
diff_report_values(struct differ *df, size_t dev, int32_t slot, int64_t begin_us, uint16_t code,
		   const struct diff_value_gap *ga, const struct diff_value_gap *gb)
{
	const struct diff_value_gap *g = gb->max > ga->max ? gb : ga;
	struct diff_num n = { (double)g->max, axis_tolerance(df, &df->a->devs[dev], code), "units" };

	if (n.value > n.tolerance)
		say(df, &n, g, dev, slot, begin_us, code);
}

void
diff_compare_values(struct differ *df, size_t dev, int32_t slot, int64_t begin_us, uint16_t code,
		    const struct dpt *pa, size_t na, const struct dpt *pb, size_t nb)
{
	struct diff_value_gap ga = { 0 }, gb = { 0 };

	one_way(&ga, pa, na, pb, nb, df->o->time_tol, true);
	one_way(&gb, pb, nb, pa, na, df->o->time_tol, false);
	diff_report_values(df, dev, slot, begin_us, code, &ga, &gb);
}

static void
compare_axis(struct differ *df, const struct dtouch *ka, const struct dtouch *kb, uint32_t i)
{
	const struct ddev *d = &df->a->devs[ka->dev];
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = diff_points(d, ka, 4 + i, &pa);
	size_t nb = diff_points(&df->b->devs[kb->dev], kb, 4 + i, &pb);

	if (na && nb)
		diff_compare_values(df, ka->dev, ka->slot, ka->begin_us, d->axes[i], pa, na, pb, nb);
}

void
diff_compare_axes(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	const struct ddev *da = &df->a->devs[ka->dev];
	const struct ddev *db = &df->b->devs[kb->dev];

	/* The same axes on both sides, or the samples do not line up. */
	if (da->naxes != db->naxes || memcmp(da->axes, db->axes, sizeof(da->axes[0]) * da->naxes) != 0)
		return;
	for (uint32_t i = 0; i < da->naxes; i++)
		compare_axis(df, ka, kb, i);
}
