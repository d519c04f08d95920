/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for grading profiles (grade/grade.h): a profile file
 * is the user's own, so anything may be in it. A parsed profile must have
 * a name and no minimum above its maximum; a refused one must say where
 * ("FILE:LINE: what").
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tt_grade_profile *p = NULL;
	char *text = malloc(size + 1), *error = NULL;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (tt_grade_profile_parse("fuzz.profile", text, &p, &error) == 0) {
		if (!p || !p->name)
			abort();
		for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
			const struct tt_grade_limit *l = &p->limits[m];
			if (l->has_min && l->has_max && !l->min_is_refresh && l->min > l->max)
				abort();
		}
	} else if (!error || strncmp(error, "fuzz.profile:", 13) != 0) {
		abort();
	}
	tt_grade_profile_free(p);
	free(error);
	free(text);
	return 0;
}
