/* SPDX-License-Identifier: MIT */
/* The grade as a table for people and as analyze's JSON "grade" object. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"

static const char *
unit_text(enum tt_grade_metric m)
{
	const char *unit = tt_grade_metric_unit(m);

	return strcmp(unit, "ratio") == 0 || strcmp(unit, "contacts") == 0 ? "" : unit;
}

static void
value_text(const struct tt_grade_result *r, char *buf, size_t size)
{
	if (!r->v.measured) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%.*f %s", tt_grade_metric_decimals(r->metric), r->v.value, unit_text(r->metric));
	if (r->metric == TT_GRADE_MAX_CONTACTS && r->v.aux)
		snprintf(buf, size, "%.0f (%" PRId64 " slots)", r->v.value, r->v.aux);
}

static void
limit_text(const struct tt_grade_result *r, char *buf, size_t size)
{
	const struct tt_grade_limit *l = &r->limit;
	int d = tt_grade_metric_decimals(r->metric);
	const char *u = unit_text(r->metric);

	if (l->has_min && l->has_max)
		snprintf(buf, size, "%.*f..%.*f %s", d, l->min, d, l->max, u);
	else if (l->has_min)
		snprintf(buf, size, ">= %.*f %s", d, l->min, u);
	else if (l->has_max)
		snprintf(buf, size, "<= %.*f %s", d, l->max, u);
	else
		snprintf(buf, size, "-");
}

static void
where_text(const struct tt_grade_result *r, char *buf, size_t size)
{
	const struct tt_grade_value *v = &r->v;
	int len;

	if (r->verdict == TT_VERDICT_NOT_MEASURABLE && v->why) {
		snprintf(buf, size, "%s", v->why);
		return;
	}
	if (v->from_us < 0) {
		snprintf(buf, size, "-");
		return;
	}
	if (v->from_us == v->to_us)
		len = snprintf(buf, size, "%.3f s", (double)v->from_us / 1e6);
	else
		len = snprintf(buf, size, "%.3f-%.3f s", (double)v->from_us / 1e6, (double)v->to_us / 1e6);
	if (v->line && len > 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, ", line %zu", v->line);
}

static void
suggestions_text(const struct tt_grade_outcome *o, FILE *out)
{
	struct tt_grade_suggestion s[TT_GRADE_MAX_SUGGESTIONS];
	size_t n = tt_grade_suggest(o, s, TT_GRADE_MAX_SUGGESTIONS);

	for (size_t i = 0; i < n; i++) {
		bool hwdb = strcmp(s[i].kind, "hwdb") == 0;

		fprintf(out, "  suggestion (%s): %s; %s:\n", s[i].kind, s[i].why,
			hwdb ? "in /etc/udev/hwdb.d/61-evdev-local.hwdb, then systemd-hwdb update and "
			       "udevadm trigger" : "in /etc/libinput/local-overrides.quirks");
		for (const char *line = s[i].text; *line;) {
			const char *nl = strchr(line, '\n');
			int len = nl ? (int)(nl - line) : (int)strlen(line);
			fprintf(out, "    %.*s\n", len, line);
			line += len + (nl ? 1 : 0);
		}
	}
}

static void
suggestions_json(const struct tt_grade_outcome *o, struct tt_json_emit *j)
{
	struct tt_grade_suggestion s[TT_GRADE_MAX_SUGGESTIONS];
	size_t n = tt_grade_suggest(o, s, TT_GRADE_MAX_SUGGESTIONS);

	tt_json_emit_key(j, "suggestions");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		tt_json_emit_object_begin(j);
		tt_json_emit_member_string(j, "kind", s[i].kind);
		tt_json_emit_member_string(j, "why", s[i].why);
		tt_json_emit_member_string(j, "text", s[i].text);
		if (s[i].expected >= 0)
			tt_json_emit_member_fixed(j, "expected_jitter", s[i].expected, 4);
		tt_json_emit_object_end(j);
	}
	tt_json_emit_array_end(j);
}

void
tt_grade_report_text(const struct tt_grade_outcome *o, FILE *out)
{
	const struct tt_grade_profile *p = o->profile;

	if (!o->graded) {
		fprintf(out, "grade (%s): no touch device with a touch in the recording: nothing to grade\n", p->name);
		return;
	}
	fprintf(out, "grade (%s: %s), device %" PRIu32 " \"%s\":\n", p->name, p->title ? p->title : "",
		o->device->id, o->device->name ? o->device->name : "");
	fprintf(out, "  %-26s %-16s %-16s %-15s %s\n", "metric", "value", "limit", "verdict", "where");
	for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
		const struct tt_grade_result *r = &o->res[m];
		char value[64], limit[64], where[160];

		value_text(r, value, sizeof(value));
		limit_text(r, limit, sizeof(limit));
		where_text(r, where, sizeof(where));
		fprintf(out, "  %-26s %-16s %-16s %-15s %s\n", tt_grade_metric_name(r->metric), value, limit,
			tt_grade_verdict_name(r->verdict), where);
	}
	if (p->source)
		fprintf(out, "  limits from: %s\n", p->source);
	suggestions_text(o, out);
}

void
tt_grade_report_failing_text(const struct tt_grade_outcome *o, FILE *out)
{
	const char *sep = ": ";

	if (!o->graded) {
		fprintf(out, "grade (%s): nothing to grade\n", o->profile->name);
		return;
	}
	fprintf(out, "grade (%s), device %" PRIu32 ": %u metric%s fail%s", o->profile->name, o->device->id, o->nfail,
		o->nfail == 1 ? "" : "s", o->nfail == 1 ? "s" : "");
	for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
		const struct tt_grade_result *r = &o->res[m];
		char value[64], limit[64];

		if (r->verdict != TT_VERDICT_FAIL)
			continue;
		value_text(r, value, sizeof(value));
		limit_text(r, limit, sizeof(limit));
		fprintf(out, "%s%s %s (%s)", sep, tt_grade_metric_name(r->metric), value, limit);
		sep = ", ";
	}
	fputc('\n', out);
}

static void
limit_json(const struct tt_grade_limit *l, struct tt_json_emit *j)
{
	if (!l->has_min && !l->has_max) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "min");
	if (l->has_min)
		tt_json_emit_real(j, l->min);
	else
		tt_json_emit_null(j);
	tt_json_emit_key(j, "max");
	if (l->has_max)
		tt_json_emit_real(j, l->max);
	else
		tt_json_emit_null(j);
	tt_json_emit_object_end(j);
}

static void
metric_json(const struct tt_grade_result *r, struct tt_json_emit *j)
{
	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "name", tt_grade_metric_name(r->metric));
	tt_json_emit_key(j, "value");
	if (r->v.measured)
		tt_json_emit_fixed(j, r->v.value, tt_grade_metric_decimals(r->metric) + 2);
	else
		tt_json_emit_null(j);
	tt_json_emit_member_string(j, "unit", tt_grade_metric_unit(r->metric));
	tt_json_emit_key(j, "limit");
	limit_json(&r->limit, j);
	tt_json_emit_member_string(j, "verdict", tt_grade_verdict_name(r->verdict));
	tt_json_emit_key(j, "why");
	if (r->verdict == TT_VERDICT_NOT_MEASURABLE && r->v.why)
		tt_json_emit_string(j, r->v.why);
	else
		tt_json_emit_null(j);
	tt_json_emit_member_int_or_null(j, "from_us", r->v.from_us);
	tt_json_emit_member_int_or_null(j, "to_us", r->v.to_us);
	if (r->v.line)
		tt_json_emit_member_int(j, "line", (int64_t)r->v.line);
	if (r->metric == TT_GRADE_MAX_CONTACTS && r->v.aux)
		tt_json_emit_member_int(j, "slots", r->v.aux);
	tt_json_emit_object_end(j);
}

void
tt_grade_report_json(const struct tt_grade_outcome *o, bool failing_only, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "grade");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "profile", o->profile->name);
	if (o->graded) {
		tt_json_emit_member_int(j, "device", o->device->id);
	} else {
		tt_json_emit_key(j, "device");
		tt_json_emit_null(j);
	}
	tt_json_emit_key(j, failing_only ? "failing" : "metrics");
	tt_json_emit_array_begin(j);
	for (int m = 0; o->graded && m < TT_GRADE_METRIC_COUNT; m++) {
		if (!failing_only || o->res[m].verdict == TT_VERDICT_FAIL)
			metric_json(&o->res[m], j);
	}
	tt_json_emit_array_end(j);
	if (!failing_only)
		suggestions_json(o, j);
	tt_json_emit_object_end(j);
}
