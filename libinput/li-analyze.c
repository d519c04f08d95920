/* SPDX-License-Identifier: MIT */
/* analyze's report of the libinput layer, as text and as JSON. */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "li-analyze.h"
#include "li-counts-print.h"
#include "util-plural.h"
#include "util-stats.h"

static const char *scroll_sources[] = { "finger", "continuous", "wheel" };

static void
device_text(const struct tt_li_counts *c, FILE *out)
{
	double ratio = tt_li_counts_accel_ratio(c);

	fprintf(out, "  device %" PRIu32 ": touches %" PRIu64 " (%" PRIu64 " linked to kernel touches, %" PRIu64
		" cancelled), taps %" PRIu64 " (left %" PRIu64 ", right %" PRIu64 ", middle %" PRIu64
		"), other button presses %" PRIu64 "\n", c->device, c->touches, c->touches_linked,
		c->touches_cancelled, c->taps, c->tap_buttons[0], c->tap_buttons[1], c->tap_buttons[2],
		c->button_presses - c->taps);
	fprintf(out, "    pointer motion %" PRIu64 " events", c->motions);
	if (!isnan(ratio))
		fprintf(out, ", acceleration ratio %.3f", ratio);
	fprintf(out, "; scroll");
	for (int i = 0; i < 3; i++)
		fprintf(out, " %s %" PRIu64, scroll_sources[i], c->scroll_events[i]);
	fprintf(out, " events, distance vertical %.2f horizontal %.2f, wheel v120 %.0f/%.0f;",
		c->scroll_vert, c->scroll_horiz, c->wheel_v120_vert, c->wheel_v120_horiz);
	tt_li_counts_gestures_text(c, out);
	fputc('\n', out);
}

static void
gesture_text(const struct tt_li_gesture *g, FILE *out)
{
	const char *dir = li_gesture_direction(g);

	fprintf(out, "  device %" PRIu32 " %s %d fingers%s%s: %.6f-%.6f s (line %zu), %" PRIu64 " updates, "
		"delta %.2f/%.2f", g->device, tt_li_gesture_kind_name(g->kind), g->fingers, *dir ? " " : "",
		dir, g->begin_us / 1e6, g->end_us / 1e6, g->begin_line, g->nupdates, g->dx, g->dy);
	if (g->kind == TT_LI_GESTURE_PINCH)
		fprintf(out, ", scale %.3f, angle %.1f deg", g->scale, g->angle);
	fprintf(out, ", %" PRIu32 " kernel touches", g->nkernel);
	if (g->latency_us >= 0)
		fprintf(out, ", began %.1f ms after the last finger landed", g->latency_us / 1000.0);
	fprintf(out, "%s%s\n", g->cancelled ? ", cancelled" : "", g->active_at_end ? ", active at end" : "");
}

void
li_latency_text(const char *what, const int64_t *v, size_t n, FILE *out)
{
	if (!n)
		return;
	fprintf(out, "  %s: median %" PRId64 " us, p95 %" PRId64 " us, max %" PRId64 " us over %zu\n", what,
		tt_median(v, n), tt_percentile(v, n, 0.95), v[n - 1], n);
}

static void
logs_text(const struct li_summary *s, FILE *out)
{
	fprintf(out, "  libinput's log: %zu message%s\n", s->nlogs, tt_plural_s(s->nlogs));
	for (size_t i = 0; i < s->nlogs; i++) {
		const struct li_log *l = &s->logs[i];
		fprintf(out, "    %.6f s (line %zu)", l->time_us / 1e6, l->line);
		if (l->device >= 0)
			fprintf(out, " device %" PRId64, l->device);
		fprintf(out, ": %s\n", l->text);
	}
}

void
li_analyze_text(const struct li_summary *s, FILE *out)
{
	if (!li_summary_any(s))
		return;
	fprintf(out, "libinput:\n");
	for (size_t i = 0; i < s->ncounts; i++)
		device_text(&s->counts[i], out);
	for (size_t i = 0; i < s->ngestures; i++)
		gesture_text(&s->gestures[i], out);
	li_latency_text("touch latency (libinput - kernel)", s->latencies, s->nlatencies, out);
	li_latency_text("gesture recognition (begin - last finger down)", s->gesture_latencies,
			s->ngesture_latencies, out);
	logs_text(s, out);
}

/* ---- JSON ---- */

static void
real_or_null(struct tt_json_emit *j, const char *key, double v, int decimals)
{
	if (isnan(v)) {
		tt_json_emit_key(j, key);
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_member_fixed(j, key, v, decimals);
}

static void
scroll_json(struct tt_json_emit *j, const struct tt_li_counts *c)
{
	tt_json_emit_key(j, "scroll");
	tt_json_emit_object_begin(j);
	for (int i = 0; i < 3; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_events", scroll_sources[i]);
		tt_json_emit_member_int(j, key, (int64_t)c->scroll_events[i]);
	}
	tt_json_emit_member_fixed(j, "vertical", c->scroll_vert, 3);
	tt_json_emit_member_fixed(j, "horizontal", c->scroll_horiz, 3);
	tt_json_emit_member_fixed(j, "wheel_v120_vertical", c->wheel_v120_vert, 0);
	tt_json_emit_member_fixed(j, "wheel_v120_horizontal", c->wheel_v120_horiz, 0);
	tt_json_emit_object_end(j);
}

static void
device_json(struct tt_json_emit *j, const struct tt_li_counts *c)
{
	tt_json_emit_newline(j, "    ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", c->device);
	tt_json_emit_member_int(j, "touches", (int64_t)c->touches);
	tt_json_emit_member_int(j, "touches_linked", (int64_t)c->touches_linked);
	tt_json_emit_member_int(j, "touches_cancelled", (int64_t)c->touches_cancelled);
	tt_json_emit_member_int(j, "taps", (int64_t)c->taps);
	tt_json_emit_key(j, "tap_buttons");
	tt_json_emit_object_begin(j);
	for (uint32_t b = 0; b < 3; b++)
		tt_json_emit_member_int(j, li_tap_button_name(b), (int64_t)c->tap_buttons[b]);
	tt_json_emit_object_end(j);
	tt_json_emit_member_int(j, "button_presses", (int64_t)c->button_presses);
	tt_json_emit_member_int(j, "pointer_motions", (int64_t)c->motions);
	real_or_null(j, "acceleration_ratio", tt_li_counts_accel_ratio(c), 3);
	scroll_json(j, c);
	tt_li_counts_gestures_json(c, j);
	tt_json_emit_member_int(j, "unknown_events", (int64_t)c->unknown_events);
	tt_json_emit_object_end(j);
}

static void
gesture_json(struct tt_json_emit *j, const struct tt_li_gesture *g)
{
	tt_json_emit_newline(j, "    ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", g->device);
	tt_json_emit_member_string(j, "kind", tt_li_gesture_kind_name(g->kind));
	tt_json_emit_member_int(j, "fingers", g->fingers);
	tt_json_emit_member_string(j, "direction", li_gesture_direction(g));
	tt_json_emit_member_int(j, "begin_us", g->begin_us);
	tt_json_emit_member_int(j, "end_us", g->end_us);
	tt_json_emit_member_int(j, "begin_line", (int64_t)g->begin_line);
	tt_json_emit_member_int(j, "end_line", (int64_t)g->end_line);
	tt_json_emit_member_int(j, "updates", (int64_t)g->nupdates);
	tt_json_emit_member_fixed(j, "dx", g->dx, 3);
	tt_json_emit_member_fixed(j, "dy", g->dy, 3);
	tt_json_emit_member_fixed(j, "scale", g->scale, 3);
	tt_json_emit_member_fixed(j, "angle", g->angle, 2);
	tt_json_emit_member_bool(j, "cancelled", g->cancelled);
	tt_json_emit_member_bool(j, "active_at_end", g->active_at_end);
	tt_json_emit_member_int(j, "kernel_touches", g->nkernel);
	tt_json_emit_key(j, "latency_us");
	if (g->latency_us >= 0)
		tt_json_emit_int(j, g->latency_us);
	else
		tt_json_emit_null(j);
	tt_json_emit_object_end(j);
}

void
li_latency_json(struct tt_json_emit *j, const char *key, const int64_t *v, size_t n)
{
	tt_json_emit_key(j, key);
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "count", (int64_t)n);
	if (n) {
		tt_json_emit_member_int(j, "median", tt_median(v, n));
		tt_json_emit_member_int(j, "p95", tt_percentile(v, n, 0.95));
		tt_json_emit_member_int(j, "max", v[n - 1]);
	}
	tt_json_emit_object_end(j);
}

static void
logs_json(struct tt_json_emit *j, const struct li_summary *s)
{
	tt_json_emit_member_int(j, "log_messages", (int64_t)s->nlogs);
	tt_json_emit_key(j, "log");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < s->nlogs; i++) {
		const struct li_log *l = &s->logs[i];
		tt_json_emit_newline(j, "    ");
		tt_json_emit_object_begin(j);
		tt_json_emit_member_int(j, "t", l->time_us);
		tt_json_emit_member_int(j, "line", (int64_t)l->line);
		tt_json_emit_key(j, "device");
		if (l->device >= 0)
			tt_json_emit_int(j, l->device);
		else
			tt_json_emit_null(j);
		tt_json_emit_member_string(j, "message", l->text);
		tt_json_emit_object_end(j);
	}
	tt_json_emit_array_end(j);
}

void
li_analyze_json(const struct li_summary *s, struct tt_json_emit *j)
{
	if (!li_summary_any(s))
		return;
	tt_json_emit_newline(j, "");
	tt_json_emit_key(j, "libinput");
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "devices");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < s->ncounts; i++)
		device_json(j, &s->counts[i]);
	tt_json_emit_array_end(j);
	tt_json_emit_key(j, "gestures");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < s->ngestures; i++)
		gesture_json(j, &s->gestures[i]);
	tt_json_emit_array_end(j);
	li_latency_json(j, "touch_latency_us", s->latencies, s->nlatencies);
	li_latency_json(j, "gesture_latency_us", s->gesture_latencies, s->ngesture_latencies);
	logs_json(j, s);
	tt_json_emit_object_end(j);
}
