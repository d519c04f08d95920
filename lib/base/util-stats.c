/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include <stdlib.h>

#include "util-mem.h"
#include "util-stats.h"

/* Where percentile @p of @n values lies: between the 0-based ranks *lo
 * and *lo + 1, *frac of the way. A position within 1e-9 of a rank is that
 * rank, so that 0.95 * 20 (18.999999999999996 in binary) is rank 19. */
static void
position(uint64_t n, double p, uint64_t *lo, double *frac)
{
	double h, f;

	if (!(p > 0.0))
		p = 0.0;
	if (p > 1.0)
		p = 1.0;
	h = (double)(n - 1) * p;
	f = floor(h);
	*lo = (uint64_t)f;
	*frac = h - f;
	if (*frac > 1.0 - 1e-9) {
		(*lo)++;
		*frac = 0.0;
	} else if (*frac < 1e-9) {
		*frac = 0.0;
	}
	if (*lo >= n - 1) {
		*lo = n - 1;
		*frac = 0.0;
	}
}

/* @a + @frac (@b - @a), to the nearest integer, halves upwards. Rounding
 * only the step keeps @a exact however large it is. The step is within a
 * part in 10^9 of a half only when it is one that binary lost (0.95 is not
 * exact: 9 * 0.95 is 8.5499..., so 90 to 100 steps 5.4999...), so that
 * counts as a half. */
static int64_t
between(int64_t a, int64_t b, double frac)
{
	double step;

	if (frac == 0.0)
		return a;
	step = frac * ((double)b - (double)a);
	return a + (int64_t)floor(step + 0.5 + 1e-9 * (step + 1.0));
}

int64_t
tt_percentile(const int64_t *sorted, size_t n, double p)
{
	uint64_t lo;
	double frac;

	if (!n)
		return 0;
	position(n, p, &lo, &frac);
	return between(sorted[lo], frac > 0.0 ? sorted[lo + 1] : sorted[lo], frac);
}

int64_t
tt_median(const int64_t *sorted, size_t n)
{
	return tt_percentile(sorted, n, 0.5);
}

double
tt_percentile_double(const double *sorted, size_t n, double p)
{
	uint64_t lo;
	double frac;

	if (!n)
		return 0.0;
	position(n, p, &lo, &frac);
	if (frac <= 0.0)
		return sorted[lo];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* The bucket holding the 0-based @rank-th smallest sample, at or after
 * bucket *@i with *@seen samples below it; false above the last bucket. */
static bool
hist_find(const uint32_t *counts, size_t nbuckets, uint64_t rank, size_t *i, uint64_t *seen)
{
	for (; *i < nbuckets; (*i)++) {
		if (rank < *seen + counts[*i])
			return true;
		*seen += counts[*i];
	}
	return false;
}

int
tt_hist_percentile(const uint32_t *counts, size_t nbuckets, uint64_t n,
		   tt_bucket_value_fn value, double p, int64_t *out)
{
	uint64_t lo, seen = 0;
	double frac;
	size_t i = 0;
	int64_t a, b;

	if (!n)
		return -ENODATA;
	position(n, p, &lo, &frac);
	if (!hist_find(counts, nbuckets, lo, &i, &seen))
		return -ERANGE;
	a = value(i);
	b = a;
	if (frac > 0.0) {
		if (!hist_find(counts, nbuckets, lo + 1, &i, &seen))
			return -ERANGE;
		b = value(i);
	}
	*out = between(a, b, frac);
	return 0;
}

int
tt_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
tt_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int
tt_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return !!isnan(x) - !!isnan(y);
	return (x > y) - (x < y);
}

#define IH_FINE_US 10
#define IH_FINE_BUCKETS 10000
#define IH_FINE_END_US (IH_FINE_US * IH_FINE_BUCKETS)
#define IH_COARSE_US 1000
#define IH_BUCKETS (IH_FINE_BUCKETS + 9900)

static int64_t
ih_bucket_us(size_t i)
{
	return i < IH_FINE_BUCKETS ? (int64_t)i * IH_FINE_US
				   : IH_FINE_END_US + (int64_t)(i - IH_FINE_BUCKETS) * IH_COARSE_US;
}

void
tt_interval_hist_add(struct tt_interval_hist *h, int64_t dt_us)
{
	int64_t b;

	if (dt_us < 0)
		return;
	if (!h->counts) {
		h->counts = tt_zalloc(IH_BUCKETS * sizeof(*h->counts));
		h->max_us = -1;
	}
	b = dt_us < IH_FINE_END_US ? dt_us / IH_FINE_US : IH_FINE_BUCKETS + (dt_us - IH_FINE_END_US) / IH_COARSE_US;
	if (b < IH_BUCKETS)
		h->counts[b]++;
	else
		h->over++;
	h->n++;
	if (dt_us > h->max_us)
		h->max_us = dt_us;
}

int
tt_interval_hist_percentile(const struct tt_interval_hist *h, double p, int64_t *out)
{
	if (!h->n)
		return -ENODATA;
	return tt_hist_percentile(h->counts, IH_BUCKETS, h->n, ih_bucket_us, p, out);
}

void
tt_interval_hist_clear(struct tt_interval_hist *h)
{
	free(h->counts);
	*h = (struct tt_interval_hist){ .max_us = -1 };
}
