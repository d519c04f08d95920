/* SPDX-License-Identifier: MIT */
/*
 * The one statistics rule every command prints by: medians and
 * percentiles of int64_t microseconds, and the qsort comparators.
 *
 * The rule (NumPy's 'linear', R's type 7, what spreadsheets call
 * PERCENTILE.INC): of n sorted values x[0] <= ... <= x[n-1], percentile p
 * (0 <= p <= 1) is at position h = (n - 1) p, between the closest ranks:
 *
 *	x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h])
 *
 * rounded to the nearest integer microsecond, halves upwards (towards
 * +infinity: floor(v + 0.5)), so shifting every value by a constant shifts
 * the result by the same constant. p = 0 is the minimum, p = 1 the maximum,
 * and the median (p = 0.5) of an even count is the mean of the two middle
 * values: {7500, 9100} gives 8300.
 *
 * A histogram (kept where memory must stay bounded) follows the same rule
 * over the sorted values its buckets stand for: tt_hist_percentile() over
 * buckets gives what tt_percentile() gives over the array that lists each
 * bucket's value as often as it was counted.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Percentile @p (0..1; clamped) of the @n ascending @sorted values by the
 * rule above. Returns 0 when @n is 0: an empty set has no percentile, and
 * a caller that must say "none" tests @n first. */
int64_t tt_percentile(const int64_t *sorted, size_t n, double p);

/* The median: tt_percentile(@sorted, @n, 0.5). */
int64_t tt_median(const int64_t *sorted, size_t n);

/* The same rule over doubles (positions in mm), without the rounding. */
double tt_percentile_double(const double *sorted, size_t n, double p);

/* What every sample counted in bucket @i of a histogram is taken to be;
 * must not decrease as @i grows. */
typedef int64_t (*tt_bucket_value_fn)(size_t i);

/* Percentile @p (0..1; clamped) of @n samples, @counts[i] of them in
 * bucket i of @nbuckets, by the rule above with each sample taken as
 * value(i). Samples counted in @n but in no bucket lie above the last one.
 * Returns 0 and sets *@out; -ENODATA when @n is 0; -ERANGE when a rank the
 * rule needs lies above the last bucket. */
int tt_hist_percentile(const uint32_t *counts, size_t nbuckets, uint64_t n,
		       tt_bucket_value_fn value, double p, int64_t *out);

/* qsort comparators, ascending; tt_cmp_double puts NaN last. Sort with
 * tt_sort() (util-mem.h), which takes empty arrays. */
int tt_cmp_i64(const void *a, const void *b);
int tt_cmp_u64(const void *a, const void *b);
int tt_cmp_double(const void *a, const void *b);

/* Intervals (µs) counted with bounded memory: 10 µs buckets up to 100 ms,
 * then 1 ms buckets up to 10 s (slow devices, excerpts picked out for a
 * bug report); percentiles by the rule above, exact to the bucket. The
 * one histogram of frame and report intervals, so every command's
 * interval numbers are the same. Zeroed, it is empty; the buckets are
 * allocated at the first sample. */
struct tt_interval_hist {
	uint32_t *counts;
	uint64_t n;		/* samples, those beyond 10 s included */
	uint64_t over;		/* samples beyond 10 s */
	int64_t max_us;		/* the largest sample, -1 before any */
};

void tt_interval_hist_add(struct tt_interval_hist *h, int64_t dt_us);
/* Percentile @p by the rule above: 0 and *@out set; -ENODATA without
 * samples; -ERANGE when the rank lies beyond 10 s. */
int tt_interval_hist_percentile(const struct tt_interval_hist *h, double p, int64_t *out);
void tt_interval_hist_clear(struct tt_interval_hist *h);
