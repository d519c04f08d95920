/* SPDX-License-Identifier: MIT */
/* The grade's verdicts: each measured value against its profile's limit. */
#include "config.h"

#include <math.h>

#include "grade.h"

/* Contacts: the recording shows how many were down at once; the device
 * declares how many slots it has. Too few seen is a failure only when the
 * device could not have had more. */
static enum tt_grade_verdict
judge_contacts(struct tt_grade_result *r)
{
	double seen = r->v.value, slots = (double)r->v.aux;

	if (r->limit.has_max && (slots > r->limit.max || seen > r->limit.max))
		return TT_VERDICT_FAIL;
	if (!r->limit.has_min || seen >= r->limit.min)
		return TT_VERDICT_PASS;
	if (slots >= r->limit.min) {
		r->v.why = "fewer touches at once in the recording than the limit; the device declares enough slots";
		return TT_VERDICT_NOT_MEASURABLE;
	}
	return TT_VERDICT_FAIL;
}

/* The value as shown (touchtape-analyze(1): a value is judged at the
 * decimals it is printed with). */
static double
shown(const struct tt_grade_result *r)
{
	double scale = pow(10.0, tt_grade_metric_decimals(r->metric));

	return round(r->v.value * scale) / scale;
}

static enum tt_grade_verdict
judge_one(struct tt_grade_result *r)
{
	double v = shown(r);

	if (!r->v.measured)
		return TT_VERDICT_NOT_MEASURABLE;
	if (!r->limit.has_min && !r->limit.has_max)
		return TT_VERDICT_INFO;
	if (r->metric == TT_GRADE_MAX_CONTACTS)
		return judge_contacts(r);
	if ((r->limit.has_min && v < r->limit.min) || (r->limit.has_max && v > r->limit.max))
		return TT_VERDICT_FAIL;
	return TT_VERDICT_PASS;
}

unsigned
tt_grade_judge(const struct tt_grade_profile *p, double refresh_hz,
	       const struct tt_grade_value *values, struct tt_grade_result *out)
{
	unsigned nfail = 0;

	for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
		struct tt_grade_result *r = &out[m];

		*r = (struct tt_grade_result){ .metric = (enum tt_grade_metric)m, .v = values[m],
					       .limit = p->limits[m] };
		if (r->limit.min_is_refresh) {
			r->limit.min = refresh_hz;
			r->limit.min_is_refresh = false;
		}
		r->verdict = judge_one(r);
		nfail += r->verdict == TT_VERDICT_FAIL;
	}
	return nfail;
}

void
tt_grade_conclude(const struct tt_grade *g, const struct tt_grade_profile *p, double refresh_hz,
		  int64_t only_device, struct tt_grade_outcome *out)
{
	struct tt_grade_value values[TT_GRADE_METRIC_COUNT];
	uint32_t id;

	*out = (struct tt_grade_outcome){ .profile = p };
	if (!g || tt_grade_pick_device(g, only_device, &id) < 0 || tt_grade_values(g, id, values) < 0)
		return;
	out->graded = true;
	out->device = tt_grade_device(g, id);
	tt_grade_ranges(g, id, out->range);
	out->nstill = tt_grade_still_samples(g, id, &out->still);
	out->nfail = tt_grade_judge(p, refresh_hz, values, out->res);
}
