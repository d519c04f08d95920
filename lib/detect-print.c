/* SPDX-License-Identifier: MIT */
/* The shared numbers (struct tt_stats) as every command prints them:
 * one JSON key and unit each (integer microseconds for times), so analyze
 * --json and inspect --summary --json agree. */
#include "config.h"

#include <inttypes.h>

#include "detect.h"
#include "model-json.h"

void
tt_stats_device_json(const struct tt_stats_device *sd, FILE *out)
{
	fprintf(out, "\"frames\":%" PRIu64 ",\"events\":%" PRIu64 ",\"touch_sequences\":%" PRIu64
		",\"max_simultaneous\":%u,\"syn_dropped\":%" PRIu64 ",\"duration_us\":%" PRId64,
		sd->frames, sd->events, sd->touch_sequences, sd->max_simultaneous, sd->syn_dropped,
		sd->have_time ? sd->last_us - sd->first_us : 0);
}

static void
clients_json(const struct tt_stats *s, FILE *out)
{
	fputs("\"xi_touch_sequences\":{", out);
	for (size_t k = 0; k < s->nclients; k++) {
		fputs(k ? "," : "", out);
		tt_json_string(out, s->clients[k].client);
		fprintf(out, ":{\"touch\":%" PRIu64 ",\"raw\":%" PRIu64 "}", s->clients[k].touch,
			s->clients[k].raw);
	}
	fputc('}', out);
}

static void
links_json(const struct tt_stats *s, FILE *out)
{
	fprintf(out, "\"links\":{\"linked\":%" PRIu64 ",\"not_delivered\":%" PRIu64 ",\"mean_latency_us\":",
		s->linked, s->not_delivered);
	if (s->linked)
		fprintf(out, "%" PRId64 "}", s->latency_sum_us / (int64_t)s->linked);
	else
		fputs("null}", out);
}

void
tt_stats_json(const struct tt_stats *s, FILE *out)
{
	fprintf(out, "\"start_us\":%" PRId64 ",\"end_us\":%" PRId64 ",\"duration_us\":%" PRId64
		",\"frames\":%" PRIu64 ",\"events\":%" PRIu64 ",\"xi_events\":%" PRIu64 ",",
		s->have_time ? s->first_us : 0, s->have_time ? s->last_us : 0, tt_stats_duration(s),
		s->frames, s->events, s->xi_events);
	clients_json(s, out);
	fputs(",\"ownership\":{", out);
	for (unsigned int o = 0; o < TT_OWN_COUNT; o++)
		fprintf(out, "%s\"%s\":%" PRIu64, o ? "," : "", tt_own_outcome_name(o), s->outcomes[o]);
	fputs("},", out);
	links_json(s, out);
	fprintf(out, ",\"anomaly_counts\":{\"total\":%" PRIu64, tt_stats_diag_total(s));
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (s->diags[c])
			fprintf(out, ",\"%s\":%" PRIu64, tt_check_name(c), s->diags[c]);
	}
	fputc('}', out);
}

void
tt_stats_xi_text(const struct tt_stats *s, FILE *out)
{
	if (!s->nclients)
		return;
	fputs("XI touch sequences per client:", out);
	for (size_t k = 0; k < s->nclients; k++)
		fprintf(out, " %s %" PRIu64 " (+%" PRIu64 " raw)%s",
			s->clients[k].client[0] ? s->clients[k].client : "-", s->clients[k].touch,
			s->clients[k].raw, k + 1 < s->nclients ? "," : "");
	fputs("\nownership outcomes:", out);
	for (unsigned int o = 0; o < TT_OWN_COUNT; o++) {
		if (s->outcomes[o])
			fprintf(out, " %s %" PRIu64, tt_own_outcome_name(o), s->outcomes[o]);
	}
	fprintf(out, "\nkernel to XI: %" PRIu64 " linked", s->linked);
	if (s->linked)
		fprintf(out, " (mean latency %.2f ms)", (double)s->latency_sum_us / (double)s->linked / 1e3);
	fprintf(out, ", %" PRIu64 " not delivered\n", s->not_delivered);
}

void
tt_stats_anomalies_text(const struct tt_stats *s, FILE *out)
{
	uint64_t total = tt_stats_diag_total(s);

	fprintf(out, "anomalies: %" PRIu64 "\n", total);
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (s->diags[c])
			fprintf(out, "  %s %s: %" PRIu64 "\n", tt_severity_name(tt_check_severity(c)),
				tt_check_name(c), s->diags[c]);
	}
}
