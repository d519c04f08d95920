/* SPDX-License-Identifier: MIT */
/* touchtape inspect --summary: the index in a few lines, text or JSON.
 * The numbers are lib/analysis/detect.h's, printed as analyze prints them. */
#include "config.h"

#include <inttypes.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "json-emit.h"
#include "li-counts-print.h"
#include "model-xi-own.h"
#include "summary.h"
#include "surroundings-print.h"
#include "util-plural.h"
#include "util-strings.h"

static void
device_text(const struct ti_device *d, const struct tt_stats_device *sd, FILE *out)
{
	char tb[32];

	fprintf(out, "device %u \"%s\": ", d->id, d->name);
	if (d->mt == TT_MT_B)
		fprintf(out, "MT protocol B, %u slot%s", d->num_slots, tt_plural_s(d->num_slots));
	else if (d->mt == TT_MT_A)
		fprintf(out, "MT protocol A");
	else
		fprintf(out, "%s", d->touch ? "single touch" : "no touch");
	fprintf(out, "\n  %" PRIu64 " frame%s, %" PRIu64 " event%s, %" PRIu64 " touch sequence%s, max %u simultaneous",
		sd->frames, tt_plural_s(sd->frames), sd->events, tt_plural_s(sd->events), sd->touch_sequences,
		tt_plural_s(sd->touch_sequences), sd->max_simultaneous);
	if (sd->syn_dropped)
		fprintf(out, ", %" PRIu64 " SYN_DROPPED", sd->syn_dropped);
	if (d->removed)
		fprintf(out, ", removed at %s s", tt_format_time(tb, sizeof(tb), d->removed_us));
	fputc('\n', out);
}

/* The stats' lines (analyze's), then what the index adds: where the
 * device came from and the most contacts down at once. */
static void
hid_device_text(const struct ti_hid_device *h, const struct tt_stats_hid *sh, FILE *out)
{
	tt_stats_hid_text(sh, h->name, out);
	fprintf(out, "  I: %x %04x %04x, max %u simultaneous, evdev device%s", h->bus, h->vendor, h->product,
		h->max_simultaneous, tt_plural_s(h->nevdev));
	for (uint32_t i = 0; i < h->nevdev; i++)
		fprintf(out, " %u", h->evdev[i]);
	fprintf(out, "%s\n", h->nevdev ? "" : " none");
}

/* ---- the libinput layer: the libinput model's counts (analyze's) ---- */

static const struct ti_li_device *
li_device_of(const struct tt_index *ix, uint32_t device)
{
	for (size_t i = 0; i < tt_index_nli_devices(ix); i++) {
		if (tt_index_li_device_at(ix, i)->device == device)
			return tt_index_li_device_at(ix, i);
	}
	return NULL;
}

static void
li_view_text(const struct ti_li_device *d, FILE *out)
{
	fprintf(out, " \"%s\" (%s): capabilities", d->name, d->sysname);
	for (uint32_t b = 0; b < 32; b++) {
		const char *name = (d->capabilities & (1u << b)) ? tt_li_capability_name(1u << b) : NULL;
		if (name)
			fprintf(out, " %s", name);
	}
	if (d->has_size)
		fprintf(out, ", %.1fx%.1f mm", d->width_mm, d->height_mm);
	fprintf(out, "; config %s", *d->config ? d->config : "none");
}

static void
li_text(const struct tt_index *ix, const struct tt_li_counts *c, FILE *out)
{
	const struct ti_li_device *d = li_device_of(ix, c->device);

	fprintf(out, "libinput device %u", c->device);
	if (d)
		li_view_text(d, out);
	fprintf(out, "\n  touches %" PRIu64 " (%" PRIu64 " linked to kernel touches, %" PRIu64 " cancelled), taps %"
		PRIu64 " (left %" PRIu64 ", right %" PRIu64 ", middle %" PRIu64 ");", c->touches, c->touches_linked,
		c->touches_cancelled, c->taps, c->tap_buttons[0], c->tap_buttons[1], c->tap_buttons[2]);
	tt_li_counts_gestures_text(c, out);
	fputc('\n', out);
}

static void
li_summary_text(const struct tt_index *ix, FILE *out)
{
	size_t n;
	const struct tt_li_counts *c = tt_index_li_counts(ix, &n);

	if (!tt_index_has_li(ix))
		return;
	for (size_t i = 0; i < n; i++)
		li_text(ix, &c[i], out);
}

/* ---- XI ownership chains ---- */

/* The arrow of the chain line where the locale's charset has it. */
static bool
utf8_locale(void)
{
	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

/* One line per touch, "grab1 R +31 ms → grab2 R +63 ms → window O"; the
 * first TI_LEAN_CHAINS, analyze lists them all. */
static void
chains_text(const struct tt_index *ix, FILE *out)
{
	size_t n;
	const struct tt_xi_chain *c = tt_xi_own_chains(tt_index_xi_own(ix), &n);
	bool utf8 = utf8_locale();
	char line[512];

	if (!n)
		return;
	fprintf(out, "XI ownership chains (R reject, A accept, O owned, P pending end; ms from the kernel frame):\n");
	for (size_t i = 0; i < n && i < TI_LEAN_CHAINS; i++) {
		tt_xi_chain_format(&c[i], utf8, line, sizeof(line));
		fprintf(out, "  XI device %" PRId32 " touch %" PRIu32 " (line %zu): %s\n", c[i].sourceid, c[i].touchid,
			c[i].base_line, line);
	}
	if (n > TI_LEAN_CHAINS)
		fprintf(out, "  ... and %zu more (touchtape analyze lists them all)\n", n - TI_LEAN_CHAINS);
}

/* "xi_chains": every touch's chain line (ASCII arrows), as analyze's. */
static void
chains_json(const struct tt_index *ix, struct tt_json_emit *j)
{
	size_t n;
	const struct tt_xi_chain *c = tt_xi_own_chains(tt_index_xi_own(ix), &n);
	char line[512];

	tt_json_emit_key(j, "xi_chains");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		tt_xi_chain_format(&c[i], false, line, sizeof(line));
		tt_json_emit_object_begin(j);
		tt_json_emit_member_int(j, "deviceid", c[i].sourceid);
		tt_json_emit_member_int(j, "touchid", c[i].touchid);
		tt_json_emit_member_int(j, "line", (int64_t)c[i].base_line);
		tt_json_emit_member_string(j, "chain", line);
		tt_json_emit_object_end(j);
	}
	tt_json_emit_array_end(j);
}

static void
wl_summary_text(const struct tt_index *ix, FILE *out)
{
	uint64_t touches, linked, cancelled;

	if (!tt_index_has_wl(ix))
		return;
	tt_index_wl_counts(ix, &touches, &linked, &cancelled);
	fprintf(out, "  wayland: touches %" PRIu64 " (%" PRIu64 " linked to kernel touches, %" PRIu64 " cancelled)\n",
		touches, linked, cancelled);
}

static void
text_summary(const struct tt_index *ix, FILE *out)
{
	const struct tt_stats *st = tt_index_stats(ix);
	char tb[32], tb2[32];
	size_t shown = 0;

	fprintf(out, "%s: %s to %s s (%.3f s), %zu device%s, %" PRIu64 " frame%s, %" PRIu64 " event%s, %" PRIu64
		" XI event%s\n", tt_index_name(ix), tt_format_time(tb, sizeof(tb), st->have_time ? st->first_us : 0),
		tt_format_time(tb2, sizeof(tb2), st->have_time ? st->last_us : 0),
		(double)tt_stats_duration(st) / 1e6, tt_index_ndevices(ix), tt_plural_s(tt_index_ndevices(ix)), st->frames,
		tt_plural_s(st->frames), st->events, tt_plural_s(st->events), st->xi_events, tt_plural_s(st->xi_events));
	if (tt_index_header(ix))
		tt_sur_system_text(tt_index_header(ix), "  ", out);
	for (size_t i = 0; i < tt_index_ndevices(ix); i++) {
		const struct tt_stats_device *sd = tt_stats_device(st, tt_index_device_at(ix, i)->id);
		if (sd) {
			device_text(tt_index_device_at(ix, i), sd, out);
			tt_sur_device_text(tt_index_device_at(ix, i)->copy, "  ", false, out);
		}
	}
	for (size_t i = 0; i < tt_index_nhid_devices(ix); i++) {
		const struct ti_hid_device *h = tt_index_hid_device_at(ix, i);
		const struct tt_stats_hid *sh = tt_stats_hid(st, h->id);
		if (sh)
			hid_device_text(h, sh, out);
	}
	li_summary_text(ix, out);
	wl_summary_text(ix, out);
	tt_stats_xi_text(st, out);
	chains_text(ix, out);
	tt_stats_anomalies_text(st, out);
	for (size_t i = 0; i < tt_index_nmarkers(ix) && shown < TI_LEAN_MARKERS; i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		const char *text = tt_index_marker_text(ix, m);
		if (!tt_index_marker_is_diag(ix, m))
			continue;
		fprintf(out, "  %s:%u: %s: %s [%s]\n", tt_index_name(ix), m->line, tt_severity_name(m->severity), text,
			tt_check_name(m->check));
		shown++;
	}
	struct ti_read_status rs;
	tt_index_read_status(ix, &rs);
	if (rs.nerrors)
		fprintf(out, "unreadable lines: %zu (first: %s)\n", rs.nerrors, rs.first_error ? rs.first_error : "?");
}

static void
device_json(const struct ti_device *d, const struct tt_stats_device *sd, struct tt_json_emit *j)
{
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "id", d->id);
	tt_json_emit_member_string(j, "name", d->name);
	tt_json_emit_member_string(j, "mt_protocol", d->mt == TT_MT_B ? "B" : d->mt == TT_MT_A ? "A" : NULL);
	tt_json_emit_member_int(j, "slots", d->num_slots);
	tt_stats_device_json(sd, j);
	if (d->copy)
		tt_sur_device_json(d->copy, j);
	tt_json_emit_member_bool(j, "removed", d->removed);
	tt_json_emit_object_end(j);
}

static void
hid_device_json(const struct ti_hid_device *h, const struct tt_stats_hid *sh, struct tt_json_emit *j)
{
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "id", h->id);
	tt_json_emit_member_string(j, "name", h->name);
	tt_json_emit_member_int(j, "bus", h->bus);
	tt_json_emit_member_int(j, "vendor", h->vendor);
	tt_json_emit_member_int(j, "product", h->product);
	tt_json_emit_key(j, "evdev");
	tt_json_emit_array_begin(j);
	for (uint32_t i = 0; i < h->nevdev; i++)
		tt_json_emit_int(j, h->evdev[i]);
	tt_json_emit_array_end(j);
	tt_stats_hid_json(sh, j);
	tt_json_emit_member_int(j, "max_simultaneous", h->max_simultaneous);
	tt_json_emit_object_end(j);
}

static void
li_view_json(const struct ti_li_device *d, struct tt_json_emit *j)
{
	tt_json_emit_member_string(j, "sysname", d->sysname);
	tt_json_emit_member_string(j, "name", d->name);
	tt_json_emit_key(j, "capabilities");
	tt_json_emit_array_begin(j);
	for (uint32_t b = 0; b < 32; b++) {
		const char *name = (d->capabilities & (1u << b)) ? tt_li_capability_name(1u << b) : NULL;
		if (name)
			tt_json_emit_string(j, name);
	}
	tt_json_emit_array_end(j);
	tt_json_emit_member_string(j, "config", d->config);
}

static void
li_json(const struct tt_index *ix, const struct tt_li_counts *c, struct tt_json_emit *j)
{
	const struct ti_li_device *d = li_device_of(ix, c->device);

	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", c->device);
	if (d)
		li_view_json(d, j);
	tt_json_emit_member_int(j, "touches", (int64_t)c->touches);
	tt_json_emit_member_int(j, "touches_linked", (int64_t)c->touches_linked);
	tt_json_emit_member_int(j, "touches_cancelled", (int64_t)c->touches_cancelled);
	tt_json_emit_member_int(j, "taps", (int64_t)c->taps);
	tt_li_counts_gestures_json(c, j);
	tt_json_emit_object_end(j);
}

/* "libinput_devices": empty without the layer. */
static void
li_summary_json(const struct tt_index *ix, struct tt_json_emit *j)
{
	size_t n;
	const struct tt_li_counts *c = tt_index_li_counts(ix, &n);

	tt_json_emit_key(j, "libinput_devices");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; tt_index_has_li(ix) && i < n; i++)
		li_json(ix, &c[i], j);
	tt_json_emit_array_end(j);
}

/* "wayland": the Wayland touches, linked and cancelled; only with the
 * layer. */
static void
wl_summary_json(const struct tt_index *ix, struct tt_json_emit *j)
{
	uint64_t touches, linked, cancelled;

	if (!tt_index_has_wl(ix))
		return;
	tt_index_wl_counts(ix, &touches, &linked, &cancelled);
	tt_json_emit_key(j, "wayland");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "touches", (int64_t)touches);
	tt_json_emit_member_int(j, "linked", (int64_t)linked);
	tt_json_emit_member_int(j, "cancelled", (int64_t)cancelled);
	tt_json_emit_object_end(j);
}

/* The first anomalies in the order they were found: the order analyze
 * lists them in. */
static void
first_anomalies_json(const struct tt_index *ix, struct tt_json_emit *j)
{
	size_t shown = 0;

	tt_json_emit_key(j, "first_anomalies");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < tt_index_nmarkers(ix) && shown < TI_LEAN_MARKERS; i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		if (!tt_index_marker_is_diag(ix, m))
			continue;
		tt_json_emit_object_begin(j);
		tt_json_emit_member_string(j, "kind", tt_check_name(m->check));
		tt_json_emit_member_string(j, "severity", tt_severity_name(m->severity));
		tt_json_emit_member_int(j, "line", m->line);
		tt_json_emit_member_int(j, "time_us", m->time_us);
		tt_json_emit_member_int(j, "device", m->device);
		tt_json_emit_member_string(j, "message", tt_index_marker_text(ix, m));
		tt_json_emit_object_end(j);
		shown++;
	}
	tt_json_emit_array_end(j);
}

static void
json_summary(const struct tt_index *ix, FILE *out, const struct tt_grade_outcome *grade)
{
	struct tt_json_emit j;

	struct ti_read_status rs;

	tt_index_read_status(ix, &rs);
	tt_json_emit_init_file(&j, out);
	tt_json_emit_object_begin(&j);
	tt_json_emit_member_string(&j, "file", tt_index_name(ix));
	if (tt_index_header(ix))
		tt_sur_system_json(tt_index_header(ix), &j);
	tt_stats_json(tt_index_stats(ix), &j);
	tt_json_emit_key(&j, "devices");
	tt_json_emit_array_begin(&j);
	for (size_t i = 0; i < tt_index_ndevices(ix); i++) {
		const struct ti_device *d = tt_index_device_at(ix, i);
		const struct tt_stats_device *sd = tt_stats_device(tt_index_stats(ix), d->id);
		if (sd)
			device_json(d, sd, &j);
	}
	tt_json_emit_array_end(&j);
	tt_json_emit_key(&j, "hid_devices");
	tt_json_emit_array_begin(&j);
	for (size_t i = 0; i < tt_index_nhid_devices(ix); i++) {
		const struct ti_hid_device *h = tt_index_hid_device_at(ix, i);
		const struct tt_stats_hid *sh = tt_stats_hid(tt_index_stats(ix), h->id);
		if (sh)
			hid_device_json(h, sh, &j);
	}
	tt_json_emit_array_end(&j);
	li_summary_json(ix, &j);
	chains_json(ix, &j);
	wl_summary_json(ix, &j);
	first_anomalies_json(ix, &j);
	if (grade)
		tt_grade_report_json(grade, true, &j);
	tt_json_emit_member_int(&j, "unreadable_lines", (int64_t)rs.nerrors);
	tt_json_emit_object_end(&j);
	tt_json_emit_raw(&j, "\n", 1);
}

void
tt_inspect_summary(const struct tt_index *ix, FILE *out, bool json, const struct tt_grade_outcome *grade)
{
	if (json) {
		json_summary(ix, out, grade);
		return;
	}
	text_summary(ix, out);
	if (grade)
		tt_grade_report_failing_text(grade, out);
}
