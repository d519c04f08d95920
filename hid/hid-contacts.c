/* SPDX-License-Identifier: MIT */
/* analyze's list of HID contacts: each contact sequence the model
 * assembled from the reports, as hid-multitouch would, with its times,
 * reports and first and last logical position. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "analyze/analyze-private.h"
#include "json-emit.h"
#include "read-options.h"
#include "util-strings.h"

static void
point_json(struct tt_json_emit *j, const char *key, int32_t x, int32_t y)
{
	tt_json_emit_key(j, key);
	tt_json_emit_array_begin(j);
	tt_json_emit_int(j, x);
	tt_json_emit_int(j, y);
	tt_json_emit_array_end(j);
}

static void
hcontact_json(struct analyze *a, const struct tt_htouch *t)
{
	struct tt_json_emit *j = &a->jhcontacts;

	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "hid_device", t->device);
	tt_json_emit_member_string(j, "kind", t->kind == TT_HTOUCH_PEN ? "pen" : "finger");
	tt_json_emit_member_int(j, "contact_id", t->contact_id);
	tt_json_emit_member_int(j, "begin_us", t->begin_us);
	tt_json_emit_member_int(j, "end_us", t->end_us);
	tt_json_emit_member_int(j, "begin_line", (int64_t)t->begin_line);
	tt_json_emit_member_int(j, "end_line", (int64_t)t->end_line);
	tt_json_emit_member_int(j, "reports", (int64_t)t->nreports);
	point_json(j, "begin", t->begin_x, t->begin_y);
	point_json(j, "end", t->x, t->y);
	tt_json_emit_member_bool(j, "vanished", t->flags & TT_HTOUCH_VANISHED);
	tt_json_emit_member_bool(j, "active_at_end", t->flags & TT_HTOUCH_ACTIVE_AT_END);
	tt_json_emit_object_end(j);
}

static void
hcontact_text(struct analyze *a, const struct tt_htouch *t)
{
	FILE *o = a->hcontacts;
	char b[32], e[32];

	fprintf(o, "  HID device %" PRIu32 " ", t->device);
	if (t->kind == TT_HTOUCH_PEN)
		fputs("pen", o);
	else
		fprintf(o, "contact %" PRId32, t->contact_id);
	fprintf(o, ": %s-%s s (%.3f s, %" PRIu64 " report%s), (%" PRId32 ", %" PRId32 ") -> (%" PRId32 ", %" PRId32 ")",
		tt_format_time(b, sizeof(b), t->begin_us), tt_format_time(e, sizeof(e), t->end_us),
		secs(t->end_us - t->begin_us), t->nreports, t->nreports == 1 ? "" : "s", t->begin_x, t->begin_y,
		t->x, t->y);
	if (t->flags & TT_HTOUCH_VANISHED)
		fputs(", vanished", o);
	if (t->flags & TT_HTOUCH_ACTIVE_AT_END)
		fputs(", never ended", o);
	fputc('\n', o);
}

void
on_hend(void *data, struct tt_htouch *t)
{
	struct analyze *a = data;

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	if (a->json)
		hcontact_json(a, t);
	else
		hcontact_text(a, t);
	a->nhcontacts++;
}
