/* SPDX-License-Identifier: MIT */
/* analyze's report of the Wayland layer, as text and as JSON. */
#include "config.h"

#include <inttypes.h>

#include "li-analyze.h"
#include "wl-analyze.h"

static const char *
link_name(enum tt_link_status link)
{
	switch (link) {
	case TT_LINK_LINKED: return "linked";
	case TT_LINK_NOT_DELIVERED: return "unlinked";
	default: return "none";
	}
}

static void
touch_text(const struct tt_wl_touch *t, FILE *out)
{
	fprintf(out, "  %s touch id %" PRId32 ": %.6f-%.6f s (lines %zu-%zu), %" PRIu64 " motions, %" PRIu64
		" frames, %s", t->client, t->id, t->begin_us / 1e6, t->end_us / 1e6, t->begin_line, t->end_line,
		t->nmotions, t->nframes, link_name(t->link));
	if (t->link == TT_LINK_LINKED) {
		fprintf(out, " to kernel device %" PRIu32 " slot %" PRId32 " tracking ID %" PRId32 " (line %zu), "
			"latency_us %" PRId64, t->kernel_device, t->kernel_slot, t->kernel_tracking_id,
			t->kernel_begin_line, t->latency_us);
		if (t->has_stamp)
			fprintf(out, ", stamp_latency_us %" PRId64, t->stamp_latency_us);
		if (t->li_seat_slot >= 0)
			fprintf(out, ", libinput seat slot %" PRId32 " (line %zu)", t->li_seat_slot, t->li_begin_line);
	}
	fprintf(out, "%s%s\n", t->cancelled ? ", cancelled" : "", t->active_at_end ? ", active at end" : "");
}

void
wl_analyze_text(const struct wl_summary *s, FILE *out)
{
	if (!s->has_layer)
		return;
	fprintf(out, "wayland:\n");
	fprintf(out, "  touches %zu: linked %" PRIu64 ", unlinked %" PRIu64 ", cancelled %" PRIu64
		", active_at_end %" PRIu64 "\n", s->ntouches, s->linked, s->unlinked, s->cancelled,
		s->active_at_end);
	for (size_t i = 0; i < s->ntouches; i++)
		touch_text(&s->touches[i], out);
	li_latency_text("latency_us (kernel frame to Wayland client)", s->latencies, s->nlatencies, out);
	li_latency_text("stamp_latency_us (kernel frame to compositor timestamp)", s->stamp_latencies,
			s->nstamp_latencies, out);
	fprintf(out, "  events:");
	for (size_t i = 0; i < s->nkinds; i++)
		fprintf(out, "%s %s %" PRIu64, i ? "," : "", s->kinds[i].name, s->kinds[i].n);
	fputc('\n', out);
}

/* ---- JSON ---- */

static void
int_or_null(struct tt_json_emit *j, const char *key, bool have, int64_t v)
{
	tt_json_emit_key(j, key);
	if (have)
		tt_json_emit_int(j, v);
	else
		tt_json_emit_null(j);
}

static void
kernel_json(struct tt_json_emit *j, const struct tt_wl_touch *t)
{
	tt_json_emit_key(j, "kernel");
	if (t->link != TT_LINK_LINKED) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", t->kernel_device);
	tt_json_emit_member_int(j, "slot", t->kernel_slot);
	tt_json_emit_member_int(j, "tracking_id", t->kernel_tracking_id);
	tt_json_emit_member_int(j, "begin_us", t->kernel_begin_us);
	tt_json_emit_member_int(j, "line", (int64_t)t->kernel_begin_line);
	tt_json_emit_object_end(j);
}

static void
touch_json(struct tt_json_emit *j, const struct tt_wl_touch *t)
{
	bool linked = t->link == TT_LINK_LINKED;

	tt_json_emit_newline(j, "    ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "client", t->client);
	tt_json_emit_member_int(j, "id", t->id);
	tt_json_emit_member_int(j, "begin_us", t->begin_us);
	tt_json_emit_member_int(j, "end_us", t->end_us);
	tt_json_emit_member_int(j, "begin_line", (int64_t)t->begin_line);
	tt_json_emit_member_int(j, "end_line", (int64_t)t->end_line);
	tt_json_emit_member_int(j, "motions", (int64_t)t->nmotions);
	tt_json_emit_member_int(j, "frames", (int64_t)t->nframes);
	tt_json_emit_member_bool(j, "cancelled", t->cancelled);
	tt_json_emit_member_bool(j, "active_at_end", t->active_at_end);
	tt_json_emit_member_string(j, "link", link_name(t->link));
	kernel_json(j, t);
	int_or_null(j, "latency_us", linked, t->latency_us);
	int_or_null(j, "stamp_latency_us", linked && t->has_stamp, t->stamp_latency_us);
	int_or_null(j, "li_seat_slot", linked && t->li_seat_slot >= 0, t->li_seat_slot);
	tt_json_emit_object_end(j);
}

void
wl_analyze_json(const struct wl_summary *s, struct tt_json_emit *j)
{
	if (!s->has_layer)
		return;
	tt_json_emit_newline(j, "");
	tt_json_emit_key(j, "wayland");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "touches", (int64_t)s->ntouches);
	tt_json_emit_member_int(j, "linked", (int64_t)s->linked);
	tt_json_emit_member_int(j, "unlinked", (int64_t)s->unlinked);
	tt_json_emit_member_int(j, "cancelled", (int64_t)s->cancelled);
	tt_json_emit_member_int(j, "active_at_end", (int64_t)s->active_at_end);
	li_latency_json(j, "latency_us", s->latencies, s->nlatencies);
	li_latency_json(j, "stamp_latency_us", s->stamp_latencies, s->nstamp_latencies);
	tt_json_emit_key(j, "events");
	tt_json_emit_object_begin(j);
	for (size_t i = 0; i < s->nkinds; i++)
		tt_json_emit_member_int(j, s->kinds[i].name, (int64_t)s->kinds[i].n);
	tt_json_emit_object_end(j);
	tt_json_emit_key(j, "touch_list");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < s->ntouches; i++)
		touch_json(j, &s->touches[i]);
	tt_json_emit_array_end(j);
	tt_json_emit_object_end(j);
}
