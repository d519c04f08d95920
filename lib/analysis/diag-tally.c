/* SPDX-License-Identifier: MIT */
/* Diagnostics counted per kind and compared: see diag-tally.h. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diag-tally.h"
#include "util-strings.h"

void
tt_diag_tally_add(void *tally, const struct tt_diag *d)
{
	struct tt_diag_tally *t = tally;
	uint64_t n;

	if ((unsigned)d->check >= TT_CHECK_COUNT)
		return;
	n = t->count[d->check]++;
	if (n < TT_TALLY_WHERE)
		t->where[d->check][n] = (struct tt_diag_where){ .line = d->line, .time_us = d->time_us };
}

uint64_t
tt_diag_tally_excess(const struct tt_diag_tally *a, const struct tt_diag_tally *b,
		     uint64_t a_times, enum tt_check kind)
{
	uint64_t allowed = a->count[kind] * a_times;

	return b->count[kind] > allowed ? b->count[kind] - allowed : 0;
}

size_t
tt_diag_tally_compare(const struct tt_diag_tally *a, const struct tt_diag_tally *b,
		      enum tt_tally_mode mode, uint64_t a_times, const bool *skip,
		      enum tt_check *out)
{
	size_t n = 0;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		bool differs;

		if (skip && skip[c])
			continue;
		if (mode == TT_TALLY_MORE)
			differs = tt_diag_tally_excess(a, b, a_times, c) > 0;
		else
			differs = a->count[c] != b->count[c];
		if (differs)
			out[n++] = c;
	}
	return n;
}

static void
append(char *buf, size_t size, size_t *len, const char *s)
{
	int w = snprintf(buf + *len, size - *len, "%s", s);

	if (w > 0)
		*len += (size_t)w < size - *len ? (size_t)w : size - *len - 1;
}

const char *
tt_diag_tally_where_text(const struct tt_diag_tally *t, enum tt_check kind,
			 int64_t origin_us, char *buf, size_t size)
{
	uint64_t n = t->count[kind];
	size_t shown = n < TT_TALLY_WHERE ? (size_t)n : TT_TALLY_WHERE;
	size_t len = 0;
	bool lines = shown && t->where[kind][0].line;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!shown)
		return buf;
	append(buf, size, &len, lines ? (n == 1 ? "line " : "lines ") : "at ");
	for (size_t i = 0; i < shown; i++) {
		const struct tt_diag_where *w = &t->where[kind][i];
		char item[48], ts[32];

		if (w->line)
			snprintf(item, sizeof(item), "%s%zu", i ? ", " : "", w->line);
		else if (w->time_us >= 0)
			snprintf(item, sizeof(item), "%s+%s s", i ? ", " : "",
				 tt_format_time(ts, sizeof(ts), w->time_us - origin_us));
		else
			snprintf(item, sizeof(item), "%s(the whole file)", i ? ", " : "");
		append(buf, size, &len, item);
	}
	if (n > shown)
		append(buf, size, &len, ", ...");
	return buf;
}

bool
tt_check_is_reader(enum tt_check kind)
{
	return kind == TT_CHECK_BAD_LINE || kind == TT_CHECK_READER_WARNING;
}

bool
tt_check_is_xi(enum tt_check kind)
{
	switch (kind) {
	case TT_CHECK_XI_UPDATE_BEFORE_BEGIN:
	case TT_CHECK_XI_BEGIN_TWICE:
	case TT_CHECK_XI_END_TWICE:
	case TT_CHECK_NOT_DELIVERED:
	case TT_CHECK_XI_NEVER_ENDED:
	case TT_CHECK_OWNERSHIP_UNRESOLVED:
		return true;
	default:
		return false;
	}
}
