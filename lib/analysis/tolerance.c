/* SPDX-License-Identifier: MIT */
/* Tolerances with units (tolerance.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tolerance.h"
#include "util-mem.h"
#include "util-strings.h"

/* @s as a number followed by @unit; -EDOM when it is a number alone. */
static int
number_with(const char *s, const char *unit, double *out)
{
	size_t n = s ? strlen(s) : 0, u = strlen(unit);
	_cleanup_free_ char *number = NULL;
	double v;

	if (tt_parse_double(s, &v) == 0)
		return -EDOM;
	if (n <= u || strcmp(s + n - u, unit) != 0)
		return -EINVAL;
	number = strndup(s, n - u);
	if (tt_parse_double(number, &v) < 0 || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int
tt_parse_tolerance_us(const char *s, int64_t *out)
{
	static const struct {
		const char *unit;
		double factor;
	} units[] = { { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 } };
	double v;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		int rc = number_with(s, units[i].unit, &v);
		if (rc == -EDOM)
			return rc;
		if (rc == 0 && v * units[i].factor <= 9.2e18) {
			*out = (int64_t)llround(v * units[i].factor);
			return 0;
		}
	}
	return -EINVAL;
}

int
tt_parse_tolerance_distance(const char *s, double *mm, double *frac, bool *is_mm)
{
	double v;
	int rc = number_with(s, "mm", &v);

	if (rc == 0) {
		*mm = v;
		*is_mm = true;
		return 0;
	}
	if (rc == -EDOM)
		return rc;
	if (number_with(s, "%", &v) < 0 || v > 100)
		return -EINVAL;
	*frac = v / 100.0;
	*is_mm = false;
	return 0;
}

int
tt_parse_tolerance_fraction(const char *s, double *out)
{
	double v;
	int rc = number_with(s, "%", &v);

	if (rc == 0 && v <= 100) {
		*out = v / 100.0;
		return 0;
	}
	if (rc == -EDOM && tt_parse_double(s, &v) == 0 && v >= 0 && v <= 1) {
		*out = v;
		return 0;
	}
	return -EINVAL;
}

int
tt_parse_ignore_kinds(const char *s, unsigned *out)
{
	static const char *const names[] = { "path", "axes", "rhythm", "keys", "hid", "anomalies" };
	_cleanup_free_ char *copy = strdup(s);
	char *save = NULL;
	unsigned mask = 0;

	for (char *w = strtok_r(copy, ", |", &save); w; w = strtok_r(NULL, ", |", &save)) {
		size_t i;
		for (i = 0; i < ARRAY_LENGTH(names) && strcmp(w, names[i]) != 0; i++)
			;
		if (i == ARRAY_LENGTH(names))
			return -EINVAL;
		mask |= 1u << i;
	}
	if (!mask)
		return -EINVAL;
	*out |= mask;
	return 0;
}
