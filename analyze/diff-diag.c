/* SPDX-License-Identifier: MIT */
/*
 * touchtape diff: the diagnostics of the two files compared kind by kind.
 * Both went through the same pass (lib/analysis/detect.h) that validate and
 * analyze run, so a kind is named here as there, and "jump: 0 in A, 2 in
 * B" means analyze finds two more jumps in B.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "diff.h"

bool
diff_diag_compared(const struct differ *df, enum tt_check kind)
{
	if ((df->o->ignore & DIFF_IGNORE_ANOMALIES) || tt_check_is_reader(kind))
		return false;
	if (tt_check_is_xi(kind) && !diff_xi_compared(df))
		return false;
	/* Compared touch by touch already, with the touches paired: a
	 * touch still down at the end, an XI touch never ended, a kernel
	 * touch X did not deliver. Counting them again would report one
	 * change twice. */
	return kind != TT_CHECK_TOUCH_ACTIVE_AT_END && kind != TT_CHECK_XI_NEVER_ENDED &&
	       kind != TT_CHECK_NOT_DELIVERED;
}

static size_t
first_line(const struct tt_diag_tally *t, enum tt_check kind)
{
	return t->count[kind] ? t->where[kind][0].line : 0;
}

/* "; A: lines 40, 52" for a side that has some of @kind. */
static void
where_text(const struct side *s, enum tt_check kind, char *buf, size_t size)
{
	char w[160];

	tt_diag_tally_where_text(&s->diags, kind, s->anchor, w, sizeof(w));
	if (w[0])
		snprintf(buf, size, "; %s: %s", s->name, w);
	else
		buf[0] = '\0';
}

static void
diag_text(struct differ *df, enum tt_check kind)
{
	const struct side *a = df->a, *b = df->b;
	char wa[200], wb[200];

	where_text(a, kind, wa, sizeof(wa));
	where_text(b, kind, wb, sizeof(wb));
	diff_difference(df, "anomaly", first_line(&a->diags, kind), first_line(&b->diags, kind),
			"%s (%s): %" PRIu64 " in %s, %" PRIu64 " in %s%s%s", tt_check_name(kind),
			tt_severity_name(tt_check_severity(kind)), a->diags.count[kind], a->name,
			b->diags.count[kind], b->name, wa, wb);
}

static void
side_json(struct tt_json_emit *j, const char *key, const struct tt_diag_tally *t, enum tt_check kind)
{
	size_t shown = t->count[kind] < TT_TALLY_WHERE ? (size_t)t->count[kind] : TT_TALLY_WHERE;

	tt_json_emit_key(j, key);
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "count");
	tt_json_emit_int(j, (int64_t)t->count[kind]);
	tt_json_emit_key(j, "lines");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < shown; i++) {
		if (t->where[kind][i].line)
			tt_json_emit_int(j, (int64_t)t->where[kind][i].line);
	}
	tt_json_emit_array_end(j);
	tt_json_emit_object_end(j);
}

static void
diag_json(struct differ *df, enum tt_check kind)
{
	struct tt_json_emit *j = df->json;

	df->ndiff++;
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "kind");
	tt_json_emit_string(j, tt_check_name(kind));
	tt_json_emit_key(j, "severity");
	tt_json_emit_string(j, tt_severity_name(tt_check_severity(kind)));
	side_json(j, "a", &df->a->diags, kind);
	side_json(j, "b", &df->b->diags, kind);
	tt_json_emit_object_end(j);
}

void
diff_compare_diags(struct differ *df)
{
	bool skip[TT_CHECK_COUNT];
	enum tt_check kinds[TT_CHECK_COUNT];
	size_t n;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		skip[c] = !diff_diag_compared(df, c);
	n = tt_diag_tally_compare(&df->a->diags, &df->b->diags, TT_TALLY_CHANGED, 1, skip, kinds);
	if (df->json) {
		tt_json_emit_key(df->json, "anomalies");
		tt_json_emit_array_begin(df->json);
	}
	for (size_t i = 0; i < n; i++) {
		if (df->json)
			diag_json(df, kinds[i]);
		else
			diag_text(df, kinds[i]);
	}
	if (df->json)
		tt_json_emit_array_end(df->json);
}
