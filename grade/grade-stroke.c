/* SPDX-License-Identifier: MIT */
/* The per-touch measures of the grade (grade-stroke.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "grade-stroke.h"
#include "util-mem.h"
#include "util-stats.h"

static double
median_of(const struct tt_grade_point *p, size_t n, bool y)
{
	_cleanup_free_ double *v = tt_zalloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = y ? p[i].y : p[i].x;
	qsort(v, n, sizeof(*v), tt_cmp_double);
	return tt_percentile_double(v, n, 0.5);
}

int
tt_grade_stationary(const struct tt_grade_point *p, size_t n, bool guided,
		    double *jitter, int64_t *from_us, int64_t *to_us)
{
	size_t first = 0;
	double mx, my, worst = 0.0;

	if (!n)
		return -ENODATA;
	while (first < n && p[first].t_us - p[0].t_us < TT_GRADE_SETTLE_US)
		first++;
	if (first >= n)
		return -ENODATA;
	if (!guided && p[n - 1].t_us - p[first].t_us < TT_GRADE_STILL_US)
		return -ENODATA;
	mx = median_of(p + first, n - first, false);
	my = median_of(p + first, n - first, true);
	for (size_t i = first; i < n; i++)
		worst = fmax(worst, hypot(p[i].x - mx, p[i].y - my));
	if (!guided && worst > TT_GRADE_STILL_MM)
		return -ENODATA;
	*jitter = worst;
	*from_us = p[first].t_us;
	*to_us = p[n - 1].t_us;
	return 0;
}

static bool
long_and_straight(const struct tt_grade_point *p, size_t n)
{
	double path = 0.0, ends;

	for (size_t i = 1; i < n; i++)
		path += hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
	ends = hypot(p[n - 1].x - p[0].x, p[n - 1].y - p[0].y);
	return path >= TT_GRADE_STROKE_MM && ends >= TT_GRADE_STRAIGHT * path;
}

/* The orthogonal least-squares line through @p: its centre and unit
 * direction, pointing from the first sample towards the last. */
static void
fit_line(const struct tt_grade_point *p, size_t n, double *cx, double *cy, double *ux, double *uy)
{
	double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0, a;

	for (size_t i = 0; i < n; i++) {
		mx += p[i].x;
		my += p[i].y;
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxx += (p[i].x - mx) * (p[i].x - mx);
		syy += (p[i].y - my) * (p[i].y - my);
		sxy += (p[i].x - mx) * (p[i].y - my);
	}
	a = 0.5 * atan2(2.0 * sxy, sxx - syy);
	*ux = cos(a);
	*uy = sin(a);
	if ((p[n - 1].x - p[0].x) * *ux + (p[n - 1].y - p[0].y) * *uy < 0) {
		*ux = -*ux;
		*uy = -*uy;
	}
	*cx = mx;
	*cy = my;
}

static double
gap_ratio(const struct tt_grade_point *p, size_t n)
{
	_cleanup_free_ int64_t *dt = tt_zalloc(n * sizeof(*dt));
	int64_t worst = 0, median;

	for (size_t i = 1; i < n; i++) {
		dt[i - 1] = p[i].t_us - p[i - 1].t_us;
		if (dt[i - 1] > worst)
			worst = dt[i - 1];
	}
	qsort(dt, n - 1, sizeof(*dt), tt_cmp_i64);
	median = tt_median(dt, n - 1);
	return median > 0 ? (double)worst / (double)median : 0.0;
}

int
tt_grade_stroke(const struct tt_grade_point *p, size_t n, bool guided, struct tt_grade_stroke *out)
{
	const struct tt_grade_point *q = p + TT_GRADE_STROKE_TRIM;
	size_t m = n > 2 * TT_GRADE_STROKE_TRIM ? n - 2 * TT_GRADE_STROKE_TRIM : 0;
	double cx, cy, ux, uy, sum2 = 0.0, prev = 0.0;
	struct tt_grade_stroke s = { 0 };

	if (m < 3 || (!guided && !long_and_straight(p, n)))
		return -ENODATA;
	fit_line(q, m, &cx, &cy, &ux, &uy);
	for (size_t i = 0; i < m; i++) {
		double along = (q[i].x - cx) * ux + (q[i].y - cy) * uy;
		double across = fabs((q[i].y - cy) * ux - (q[i].x - cx) * uy);

		s.linearity_max = fmax(s.linearity_max, across);
		sum2 += across * across;
		if (i > 0)
			s.reversed = fmax(s.reversed, prev - along);
		prev = along;
	}
	s.linearity_rms = sqrt(sum2 / (double)m);
	s.gap_ratio = gap_ratio(q, m);
	*out = s;
	return 0;
}
