/* SPDX-License-Identifier: MIT */
/* diff --grade PROFILE: both files graded (grade/grade.h) on the same
 * device; a metric whose verdict differs is a difference of kind "grade".
 * A value that moved within its verdict is not: the limits say what a
 * person would notice, and the other comparisons see the values. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "diff.h"

void
diff_grade_attach(struct differ *df, struct side *s, int64_t only_device)
{
	s->grade_only = only_device;
	if (df->o->profile && s->detect)
		s->grade = tt_grade_new(s->detect);
}

static void
value_text(const struct tt_grade_result *r, char *buf, size_t size)
{
	if (!r->v.measured)
		snprintf(buf, size, "not measurable");
	else
		snprintf(buf, size, "%.*f %s", tt_grade_metric_decimals(r->metric), r->v.value,
			 tt_grade_metric_unit(r->metric));
}

void
diff_compare_grade(struct differ *df)
{
	struct tt_grade_outcome ga, gb;
	int64_t only = df->a->grade_only;

	if (!df->o->profile)
		return;
	tt_grade_conclude(df->a->grade, df->o->profile, df->o->refresh_hz, only, &ga);
	tt_grade_conclude(df->b->grade, df->o->profile, df->o->refresh_hz, only, &gb);
	if (ga.graded != gb.graded) {
		diff_difference(df, "grade", 0, 0, "grade %s: %s has a touch device to grade, %s has none",
				df->o->profile->name, ga.graded ? df->a->name : df->b->name,
				ga.graded ? df->b->name : df->a->name);
		return;
	}
	for (int m = 0; ga.graded && m < TT_GRADE_METRIC_COUNT; m++) {
		const struct tt_grade_result *ra = &ga.res[m], *rb = &gb.res[m];
		char va[64], vb[64];

		if (ra->verdict == rb->verdict)
			continue;
		value_text(ra, va, sizeof(va));
		value_text(rb, vb, sizeof(vb));
		diff_difference(df, "grade", ra->v.line, rb->v.line, "grade %s: %s %s (%s) vs %s (%s)",
				df->o->profile->name, tt_grade_metric_name(ra->metric),
				tt_grade_verdict_name(ra->verdict), va, tt_grade_verdict_name(rb->verdict), vb);
	}
}
