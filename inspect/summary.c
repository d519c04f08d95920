/* SPDX-License-Identifier: MIT */
/* touchtape inspect --summary: the index in a few lines, text or JSON.
 * The numbers are lib/detect.h's, printed as analyze prints them. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model-json.h"
#include "summary.h"
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
	for (size_t i = 0; i < tt_index_ndevices(ix); i++) {
		const struct tt_stats_device *sd = tt_stats_device(st, tt_index_device_at(ix, i)->id);
		if (sd)
			device_text(tt_index_device_at(ix, i), sd, out);
	}
	tt_stats_xi_text(st, out);
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
device_json(const struct ti_device *d, const struct tt_stats_device *sd, bool first, FILE *out)
{
	fprintf(out, "%s{\"id\":%u,\"name\":", first ? "" : ",", d->id);
	tt_json_string(out, d->name);
	fprintf(out, ",\"mt_protocol\":%s,\"slots\":%u,",
		d->mt == TT_MT_B ? "\"B\"" : d->mt == TT_MT_A ? "\"A\"" : "null", d->num_slots);
	tt_stats_device_json(sd, out);
	fprintf(out, ",\"removed\":%s}", d->removed ? "true" : "false");
}

/* The first anomalies in the order they were found: the order analyze
 * lists them in. */
static void
first_anomalies_json(const struct tt_index *ix, FILE *out)
{
	size_t shown = 0;

	fprintf(out, "\"first_anomalies\":[");
	for (size_t i = 0; i < tt_index_nmarkers(ix) && shown < TI_LEAN_MARKERS; i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		const char *text = tt_index_marker_text(ix, m);
		if (!tt_index_marker_is_diag(ix, m))
			continue;
		fprintf(out, "%s{\"kind\":\"%s\",\"severity\":\"%s\",\"line\":%u,\"time_us\":%" PRId64
			",\"device\":%" PRId64 ",\"message\":", shown ? "," : "", tt_check_name(m->check),
			tt_severity_name(m->severity), m->line, m->time_us, m->device);
		tt_json_string(out, text);
		fputc('}', out);
		shown++;
	}
	fputc(']', out);
}

static void
json_summary(const struct tt_index *ix, FILE *out)
{
	bool first = true;

	fprintf(out, "{\"file\":");
	tt_json_string(out, tt_index_name(ix));
	fputc(',', out);
	tt_stats_json(tt_index_stats(ix), out);
	fprintf(out, ",\"devices\":[");
	for (size_t i = 0; i < tt_index_ndevices(ix); i++) {
		const struct tt_stats_device *sd = tt_stats_device(tt_index_stats(ix), tt_index_device_at(ix, i)->id);
		if (!sd)
			continue;
		device_json(tt_index_device_at(ix, i), sd, first, out);
		first = false;
	}
	fprintf(out, "],");
	first_anomalies_json(ix, out);
	struct ti_read_status rs;
	tt_index_read_status(ix, &rs);
	fprintf(out, ",\"unreadable_lines\":%zu}\n", rs.nerrors);
}

void
tt_inspect_summary(const struct tt_index *ix, FILE *out, bool json)
{
	if (json)
		json_summary(ix, out);
	else
		text_summary(ix, out);
}
