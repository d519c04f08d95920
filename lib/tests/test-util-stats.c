/* SPDX-License-Identifier: MIT */
/*
 * The statistics rule (lib/base/util-stats.h): medians and percentiles by
 * linear interpolation between the closest ranks, on the sorted array and
 * on a histogram, which must agree.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "test-common.h"
#include "util-mem.h"
#include "util-stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
test_median_odd(void)
{
	const int64_t v[] = { 1000, 2000, 9000 };

	check_int_eq(tt_median(v, N(v)), 2000);
}

/* Issue 34: intervals alternating 7.5 and 9.1 ms have the median 8.3 ms,
 * not the lower middle value 7.5. */
static void
test_median_even(void)
{
	const int64_t two[] = { 7500, 9100 };
	const int64_t four[] = { 7500, 7500, 9100, 9100 };
	const int64_t halves[] = { 1, 2 };
	const int64_t negative[] = { -3, -2 };
	const int64_t mixed[] = { -400, 300 };

	check_int_eq(tt_median(two, N(two)), 8300);
	check_int_eq(tt_median(four, N(four)), 8300);
	/* 1.5 and -2.5: halves go upwards, so a shift shifts the result. */
	check_int_eq(tt_median(halves, N(halves)), 2);
	check_int_eq(tt_median(negative, N(negative)), -2);
	check_int_eq(tt_median(mixed, N(mixed)), -50);
}

static void
test_ends(void)
{
	const int64_t v[] = { -7, 3, 3, 10, 400 };

	check_int_eq(tt_percentile(v, N(v), 0.0), -7);
	check_int_eq(tt_percentile(v, N(v), 1.0), 400);
	/* Outside 0..1 is clamped. */
	check_int_eq(tt_percentile(v, N(v), -0.5), -7);
	check_int_eq(tt_percentile(v, N(v), 2.0), 400);
}

static void
test_p95(void)
{
	const int64_t ten[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	int64_t twentyone[21];

	/* h = 9 * 0.95 = 8.55: 90 + 0.55 * 10 = 95.5, up to 96. */
	check_int_eq(tt_percentile(ten, N(ten), 0.95), 96);
	/* h = 9 * 0.05 = 0.45: 10 + 4.5, up to 15. */
	check_int_eq(tt_percentile(ten, N(ten), 0.05), 15);
	/* h = 20 * 0.95 = 19 exactly, although 0.95 is not in binary. */
	for (size_t i = 0; i < N(twentyone); i++)
		twentyone[i] = (int64_t)i * 1000;
	check_int_eq(tt_percentile(twentyone, N(twentyone), 0.95), 19000);
	check_int_eq(tt_percentile(twentyone, N(twentyone), 0.99), 19800);
}

static void
test_one_and_none(void)
{
	const int64_t one[] = { 42 };
	int64_t out = 7;

	check_int_eq(tt_median(one, 1), 42);
	check_int_eq(tt_percentile(one, 1, 0.0), 42);
	check_int_eq(tt_percentile(one, 1, 0.95), 42);
	check_int_eq(tt_percentile(one, 1, 1.0), 42);
	/* n = 0: 0 for the array (the array is not read), -ENODATA and the
	 * out-parameter untouched for the histogram. */
	check_int_eq(tt_percentile(NULL, 0, 0.5), 0);
	check_int_eq(tt_median(NULL, 0), 0);
	check_int_eq(tt_hist_percentile(NULL, 0, 0, NULL, 0.5, &out), -ENODATA);
	check_int_eq(out, 7);
}

/* Buckets of 10 us, as analyze keeps frame intervals. */
static int64_t
bucket10(size_t i)
{
	return (int64_t)i * 10;
}

/* The array that lists each bucket's value as often as it was counted. */
static size_t
expand(const uint32_t *counts, size_t nbuckets, int64_t *v)
{
	size_t n = 0;

	for (size_t i = 0; i < nbuckets; i++)
		for (uint32_t k = 0; k < counts[i]; k++)
			v[n++] = bucket10(i);
	return n;
}

static void
test_hist_agrees(void)
{
	static const double ps[] = { 0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0 };
	uint32_t counts[64];
	int64_t v[64 * 8];

	srand(34);
	for (int round = 0; round < 500; round++) {
		size_t nb = 1 + (size_t)rand() % N(counts);
		for (size_t i = 0; i < nb; i++)
			counts[i] = rand() % 3 ? 0 : (uint32_t)(rand() % 8);
		counts[(size_t)rand() % nb]++;
		size_t n = expand(counts, nb, v);
		for (size_t k = 0; k < N(ps); k++) {
			int64_t h = -1;
			check_int_eq(tt_hist_percentile(counts, nb, n, bucket10, ps[k], &h), 0);
			check_int_eq(h, tt_percentile(v, n, ps[k]));
		}
	}
}

/* Samples above the last bucket: ranks below them still answer, a rank
 * among them is -ERANGE with the out-parameter untouched. */
static void
test_hist_over(void)
{
	uint32_t counts[100] = { 0 };
	int64_t out = 7;

	/* Issue 34's intervals alternating 7.5 and 9.1 (here 750 and 910 us):
	 * the median is the mean of the middle two. */
	counts[75] = 750;
	counts[91] = 750;
	check_int_eq(tt_hist_percentile(counts, N(counts), 1500, bucket10, 0.5, &out), 0);
	check_int_eq(out, 830);
	/* One more, above the histogram: the middle one is the first 910. */
	check_int_eq(tt_hist_percentile(counts, N(counts), 1501, bucket10, 0.5, &out), 0);
	check_int_eq(out, 910);
	out = 7;
	check_int_eq(tt_hist_percentile(counts, N(counts), 1510, bucket10, 1.0, &out), -ERANGE);
	check_int_eq(out, 7);
	check_int_eq(tt_hist_percentile(counts, N(counts), 1510, bucket10, 0.0, &out), 0);
	check_int_eq(out, 750);
}

static void
test_comparators(void)
{
	int64_t i64[] = { 5, INT64_MIN, -1, INT64_MAX, 0 };
	uint64_t u64[] = { 5, UINT64_MAX, 0, 1ULL << 63 };
	double d[] = { 2.5, __builtin_nan(""), -1.0, 0.0 };

	tt_sort(i64, N(i64), sizeof(*i64), tt_cmp_i64);
	check(i64[0] == INT64_MIN && i64[1] == -1 && i64[2] == 0 && i64[3] == 5 && i64[4] == INT64_MAX);
	tt_sort(u64, N(u64), sizeof(*u64), tt_cmp_u64);
	check(u64[0] == 0 && u64[1] == 5 && u64[2] == 1ULL << 63 && u64[3] == UINT64_MAX);
	tt_sort(d, N(d), sizeof(*d), tt_cmp_double);
	check(d[0] == -1.0 && d[1] == 0.0 && d[2] == 2.5 && d[3] != d[3]);
	tt_sort(NULL, 0, sizeof(int64_t), tt_cmp_i64);
}

int
main(void)
{
	RUN(test_median_odd);
	RUN(test_median_even);
	RUN(test_ends);
	RUN(test_p95);
	RUN(test_one_and_none);
	RUN(test_hist_agrees);
	RUN(test_hist_over);
	RUN(test_comparators);
	return tt_test_result();
}
