/* SPDX-License-Identifier: MIT */
/*
 * Tolerances as diff's options and regress's sidecar take them: always
 * with a unit, so "50" is never guessed to be seconds or milliseconds.
 * A duration: a number and us, ms or s. A distance: a number and mm, or
 * a percentage of the axis range. A fraction: a percentage, or a plain
 * number 0..1. Negative, NaN and infinite values are refused.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* @s as a duration in us. 0, -EDOM when it has no unit, -EINVAL else. */
int tt_parse_tolerance_us(const char *s, int64_t *out);
/* @s as "Nmm" (*mm = N, *is_mm true) or "N%" (*frac = N/100, *is_mm
 * false); the other out-parameter is left alone. 0, -EDOM when it has
 * no unit, -EINVAL else. */
int tt_parse_tolerance_distance(const char *s, double *mm, double *frac, bool *is_mm);
/* @s as "N%" or a plain fraction 0..1. 0, or -EINVAL. */
int tt_parse_tolerance_fraction(const char *s, double *out);

/* What diff may leave out (--ignore, the sidecar's ignore =): "path",
 * "axes", "rhythm", "keys", "hid", "anomalies", separated by commas,
 * spaces or '|'; bit i for the i-th of those is added to *out. 0, or
 * -EINVAL naming none or another word. */
int tt_parse_ignore_kinds(const char *s, unsigned *out);
#define TT_IGNORE_KINDS "path, axes, rhythm, keys, hid or anomalies"

/* What the refusals say (the tests look for it). */
#define TT_TOLERANCE_TIME_UNITS "needs a unit: us, ms, s"
#define TT_TOLERANCE_DISTANCE_UNITS "needs a unit: mm or %"
