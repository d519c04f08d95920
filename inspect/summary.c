/* SPDX-License-Identifier: MIT */
/* touchtape inspect --summary: the index in a few lines, text or JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model-json.h"
#include "summary.h"
#include "util-plural.h"
#include "util-strings.h"

static uint64_t
total_anomalies(const struct tt_index *ix)
{
	uint64_t n = 0;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		n += ix->nanomalies[c];
	return n;
}

static int64_t
duration(const struct tt_index *ix)
{
	return ix->have_time ? ix->last_us - ix->first_us : 0;
}

static void
text_summary(const struct tt_index *ix, FILE *out)
{
	char tb[32], tb2[32];
	const struct ti_client_count *cl = ix->clients;
	size_t ncl = ix->nclients;
	uint64_t nframes = 0;

	for (size_t i = 0; i < ix->ndevs; i++)
		nframes += ix->devs[i].nframes;
	fprintf(out, "%s: %s to %s s (%.3f s), %zu device%s, %" PRIu64 " frame%s, %zu event%s, %" PRIu64 " XI event%s\n",
		ix->name, tt_format_time(tb, sizeof(tb), ix->have_time ? ix->first_us : 0),
		tt_format_time(tb2, sizeof(tb2), ix->have_time ? ix->last_us : 0), (double)duration(ix) / 1e6,
		ix->ndevs, tt_plural_s(ix->ndevs), nframes, tt_plural_s(nframes), ix->nevents,
		tt_plural_s(ix->nevents), ix->xi_events, tt_plural_s(ix->xi_events));
	for (size_t i = 0; i < ix->ndevs; i++) {
		const struct ti_device *d = &ix->devs[i];
		fprintf(out, "device %u \"%s\": ", d->id, d->name);
		if (d->mt == TT_MT_B)
			fprintf(out, "MT protocol B, %u slot%s", d->num_slots, tt_plural_s(d->num_slots));
		else if (d->mt == TT_MT_A)
			fprintf(out, "MT protocol A");
		else
			fprintf(out, "%s", d->touch ? "single touch" : "no touch");
		fprintf(out, "\n  %" PRIu64 " frame%s, %" PRIu64 " event%s, %" PRIu64 " touch sequence%s, max %u simultaneous",
			d->nframes, tt_plural_s(d->nframes), d->nevents, tt_plural_s(d->nevents), d->nlanes,
			tt_plural_s(d->nlanes), d->max_active);
		if (d->ndropped)
			fprintf(out, ", %" PRIu64 " SYN_DROPPED", d->ndropped);
		if (d->removed)
			fprintf(out, ", removed at %s s", tt_format_time(tb, sizeof(tb), d->removed_us));
		fputc('\n', out);
	}
	if (ncl) {
		fprintf(out, "XI touch sequences:");
		for (size_t k = 0; k < ncl; k++)
			fprintf(out, " %s %" PRIu64 " (+%" PRIu64 " raw)%s", cl[k].client[0] ? cl[k].client : "-",
				cl[k].n, cl[k].raw, k + 1 < ncl ? "," : "");
		fputc('\n', out);
		fprintf(out, "ownership outcomes:");
		for (unsigned int o = 0; o < ARRAY_LENGTH(ix->outcomes); o++) {
			if (ix->outcomes[o])
				fprintf(out, " %s %" PRIu64, tt_own_outcome_name(o), ix->outcomes[o]);
		}
		fputc('\n', out);
		fprintf(out, "kernel to XI: %" PRIu64 " linked", ix->nlinked);
		if (ix->nlinked)
			fprintf(out, " (mean latency %.2f ms)", (double)ix->latency_sum_us / (double)ix->nlinked / 1e3);
		fprintf(out, ", %" PRIu64 " not delivered\n", ix->nnot_delivered);
	}
	fprintf(out, "anomalies: %" PRIu64 "\n", total_anomalies(ix));
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (ix->nanomalies[c])
			fprintf(out, "  %s %s: %" PRIu64 "\n",
				tt_check_severity(c) == TT_SEV_ERROR ? "error" : "warning", tt_check_name(c),
				ix->nanomalies[c]);
	}
	size_t shown = 0;
	for (size_t i = 0; i < ix->nmarkers && shown < 10; i++) {
		const struct ti_marker *m = &ix->markers[i];
		const char *text = tt_index_marker_text(ix, m);
		if (m->kind != TI_MARK_ANOMALY || !text)
			continue;
		fprintf(out, "  %s:%u: %s\n", ix->name, m->line, text);
		shown++;
	}
	if (ix->nerrors)
		fprintf(out, "unreadable lines: %zu (first: %s)\n", ix->nerrors, ix->first_error ? ix->first_error : "?");
}

static void
json_summary(const struct tt_index *ix, FILE *out)
{
	const struct ti_client_count *cl = ix->clients;
	size_t ncl = ix->nclients;

	fprintf(out, "{\"file\":");
	tt_json_string(out, ix->name);
	fprintf(out, ",\"start_us\":%" PRId64 ",\"end_us\":%" PRId64 ",\"duration_us\":%" PRId64,
		ix->have_time ? ix->first_us : 0, ix->have_time ? ix->last_us : 0, duration(ix));
	fprintf(out, ",\"events\":%zu,\"xi_events\":%" PRIu64 ",\"devices\":[", ix->nevents, ix->xi_events);
	for (size_t i = 0; i < ix->ndevs; i++) {
		const struct ti_device *d = &ix->devs[i];
		fprintf(out, "%s{\"id\":%u,\"name\":", i ? "," : "", d->id);
		tt_json_string(out, d->name);
		fprintf(out, ",\"mt_protocol\":%s,\"slots\":%u,\"frames\":%" PRIu64 ",\"events\":%" PRIu64
			",\"touch_sequences\":%" PRIu64 ",\"max_simultaneous\":%u,\"syn_dropped\":%" PRIu64
			",\"removed\":%s}",
			d->mt == TT_MT_B ? "\"B\"" : d->mt == TT_MT_A ? "\"A\"" : "null", d->num_slots, d->nframes,
			d->nevents, d->nlanes, d->max_active, d->ndropped, d->removed ? "true" : "false");
	}
	fprintf(out, "],\"xi_touch_sequences\":{");
	for (size_t k = 0; k < ncl; k++) {
		fprintf(out, "%s", k ? "," : "");
		tt_json_string(out, cl[k].client);
		fprintf(out, ":{\"touch\":%" PRIu64 ",\"raw\":%" PRIu64 "}", cl[k].n, cl[k].raw);
	}
	fprintf(out, "},\"ownership\":{");
	for (unsigned int o = 0; o < ARRAY_LENGTH(ix->outcomes); o++)
		fprintf(out, "%s\"%s\":%" PRIu64, o ? "," : "", tt_own_outcome_name(o), ix->outcomes[o]);
	fprintf(out, "},\"links\":{\"linked\":%" PRIu64 ",\"not_delivered\":%" PRIu64 ",\"mean_latency_us\":",
		ix->nlinked, ix->nnot_delivered);
	if (ix->nlinked)
		fprintf(out, "%" PRId64, ix->latency_sum_us / (int64_t)ix->nlinked);
	else
		fprintf(out, "null");
	fprintf(out, "},\"anomalies\":{\"total\":%" PRIu64, total_anomalies(ix));
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (ix->nanomalies[c])
			fprintf(out, ",\"%s\":%" PRIu64, tt_check_name(c), ix->nanomalies[c]);
	}
	fprintf(out, "},\"first_anomalies\":[");
	size_t shown = 0;
	for (size_t i = 0; i < ix->nmarkers && shown < 10; i++) {
		const struct ti_marker *m = &ix->markers[i];
		const char *text = tt_index_marker_text(ix, m);
		if (m->kind != TI_MARK_ANOMALY || !text)
			continue;
		fprintf(out, "%s{\"line\":%u,\"t\":%" PRId64 ",\"check\":\"%s\",\"severity\":\"%s\",\"message\":",
			shown ? "," : "", m->line, m->time_us, tt_check_name(m->check),
			m->severity == TT_SEV_ERROR ? "error" : "warning");
		tt_json_string(out, text);
		fputc('}', out);
		shown++;
	}
	fprintf(out, "],\"unreadable_lines\":%zu}\n", ix->nerrors);
}

void
tt_inspect_summary(const struct tt_index *ix, FILE *out, bool json)
{
	if (json)
		json_summary(ix, out);
	else
		text_summary(ix, out);
}
