/* SPDX-License-Identifier: MIT */
/*
 * The per-touch measures of the grade, on a touch's samples in mm: pure
 * functions (grade/tests/test-grade-stroke.c checks them against
 * independent computations). Definitions: touchtape-analyze(1), GRADING.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A touch's position after one frame of its device while it was down:
 * in mm from the axes' minimum, and in device units. */
struct tt_grade_point {
	int64_t t_us;
	double x, y;
	int32_t ux, uy;
};

/* Samples less than this after a touch begins are left out of its
 * stationary jitter (the finger settles). */
#define TT_GRADE_SETTLE_US 100000
/* A touch held still without a guide: every sample within this of the
 * median position, for at least TT_GRADE_STILL_US. */
#define TT_GRADE_STILL_MM 3.0
#define TT_GRADE_STILL_US 2000000
/* A straight stroke without a guide: at least this long, its endpoints
 * at least TT_GRADE_STRAIGHT of its path length apart. */
#define TT_GRADE_STROKE_MM 30.0
#define TT_GRADE_STRAIGHT 0.95
/* Frames left out at each end of a stroke for its line. */
#define TT_GRADE_STROKE_TRIM 2

/* The largest distance of a sample (after the first 100 ms) from the
 * median position. @guided: the touch was in a stationary exercise, so it
 * is measured as it is; else it counts only when held still (above).
 * 0 and *@jitter, *@from_us, *@to_us set; -ENODATA when it does not count. */
int tt_grade_stationary(const struct tt_grade_point *p, size_t n, bool guided,
			double *jitter, int64_t *from_us, int64_t *to_us);

struct tt_grade_stroke {
	double linearity_max;	/* largest distance from the fitted line */
	double linearity_rms;
	double reversed;	/* largest step back along the stroke's direction */
	double gap_ratio;	/* largest interval / median interval (0: no intervals) */
};

/* A stroke's line (orthogonal least squares over its samples less
 * TT_GRADE_STROKE_TRIM at each end), reversed motion and gaps. @guided:
 * the touch was in a line exercise; else it counts only when long and
 * straight (above). 0 and *@out set; -ENODATA when it does not count. */
int tt_grade_stroke(const struct tt_grade_point *p, size_t n, bool guided, struct tt_grade_stroke *out);
