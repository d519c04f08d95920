/* SPDX-License-Identifier: MIT */
/* The shared numbers (struct tt_stats) as every command prints them:
 * one JSON key and unit each (integer microseconds for times), so analyze
 * --json and inspect --summary --json agree. */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "detect.h"
#include "json-emit.h"

void
tt_stats_device_json(const struct tt_stats_device *sd, struct tt_json_emit *j)
{
	tt_json_emit_member_int(j, "frames", (int64_t)sd->frames);
	tt_json_emit_member_int(j, "events", (int64_t)sd->events);
	tt_json_emit_member_int(j, "touch_sequences", (int64_t)sd->touch_sequences);
	tt_json_emit_member_int(j, "max_simultaneous", sd->max_simultaneous);
	tt_json_emit_member_int(j, "syn_dropped", (int64_t)sd->syn_dropped);
	tt_json_emit_member_int(j, "duration_us", sd->have_time ? sd->last_us - sd->first_us : 0);
}

static void
clients_json(const struct tt_stats *s, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "xi_touch_sequences");
	tt_json_emit_object_begin(j);
	for (size_t k = 0; k < s->nclients; k++) {
		tt_json_emit_key(j, s->clients[k].client);
		tt_json_emit_object_begin(j);
		tt_json_emit_member_int(j, "touch", (int64_t)s->clients[k].touch);
		tt_json_emit_member_int(j, "raw", (int64_t)s->clients[k].raw);
		tt_json_emit_object_end(j);
	}
	tt_json_emit_object_end(j);
}

static void
links_json(const struct tt_stats *s, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "links");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "linked", (int64_t)s->linked);
	tt_json_emit_member_int(j, "not_delivered", (int64_t)s->not_delivered);
	tt_json_emit_key(j, "mean_latency_us");
	if (s->linked)
		tt_json_emit_int(j, s->latency_sum_us / (int64_t)s->linked);
	else
		tt_json_emit_null(j);
	tt_json_emit_object_end(j);
}

static void
hid_links_json(const struct tt_stats_hid_links *l, struct tt_json_emit *j, const char *key)
{
	tt_json_emit_key(j, key);
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "linked", (int64_t)l->linked);
	tt_json_emit_member_int(j, "not_delivered", (int64_t)l->not_delivered);
	tt_json_emit_member_int(j, "frames", (int64_t)l->frames);
	tt_json_emit_key(j, "median_latency_us");
	if (l->linked)
		tt_json_emit_int(j, l->median_latency_us);
	else
		tt_json_emit_null(j);
	tt_json_emit_key(j, "p95_latency_us");
	if (l->linked)
		tt_json_emit_int(j, l->p95_latency_us);
	else
		tt_json_emit_null(j);
	tt_json_emit_object_end(j);
}

static double
rate_hz(int64_t interval_us)
{
	return interval_us > 0 ? 1e6 / (double)interval_us : NAN;
}

void
tt_stats_hid_json(const struct tt_stats_hid *sh, struct tt_json_emit *j)
{
	tt_json_emit_member_int(j, "reports", (int64_t)sh->reports);
	tt_json_emit_member_int(j, "contacts", (int64_t)sh->contacts);
	tt_json_emit_member_int(j, "duration_us", sh->have_time ? sh->last_us - sh->first_us : 0);
	tt_json_emit_key(j, "report_interval_us");
	if (sh->intervals.n) {
		tt_json_emit_object_begin(j);
		tt_json_emit_member_int(j, "count", (int64_t)sh->intervals.n);
		tt_json_emit_member_int(j, "median", sh->median_interval_us);
		tt_json_emit_member_int(j, "p95", sh->p95_interval_us);
		tt_json_emit_object_end(j);
	} else {
		tt_json_emit_null(j);
	}
	tt_json_emit_member_fixed(j, "report_rate_hz",
				  sh->intervals.n ? rate_hz(sh->median_interval_us) : NAN, 2);
	hid_links_json(&sh->links, j, "links");
}

void
tt_stats_hid_text(const struct tt_stats_hid *sh, const char *name, FILE *out)
{
	int64_t dur = sh->have_time ? sh->last_us - sh->first_us : 0;

	fprintf(out, "HID device %u \"%s\"\n  %.3f s, %" PRIu64 " reports, %" PRIu64 " contacts\n", sh->id,
		name, (double)dur / 1e6, sh->reports, sh->contacts);
	if (sh->intervals.n)
		fprintf(out, "  report interval while touching: median %.2f ms (%.1f Hz), p95 %.2f ms, %" PRIu64
			" intervals\n", (double)sh->median_interval_us / 1e3, rate_hz(sh->median_interval_us),
			(double)sh->p95_interval_us / 1e3, sh->intervals.n);
	if (!sh->links.linked && !sh->links.not_delivered && !sh->links.frames)
		return;
	fprintf(out, "  HID to kernel: %" PRIu64 " contacts linked", sh->links.linked);
	if (sh->links.linked)
		fprintf(out, " (latency median %.3f ms, p95 %.3f ms)", (double)sh->links.median_latency_us / 1e3,
			(double)sh->links.p95_latency_us / 1e3);
	fprintf(out, ", %" PRIu64 " not delivered, %" PRIu64 " reports paired with their evdev frame\n",
		sh->links.not_delivered, sh->links.frames);
}

static void
counts_json(const struct tt_stats *s, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "ownership");
	tt_json_emit_object_begin(j);
	for (unsigned int o = 0; o < TT_OWN_COUNT; o++)
		tt_json_emit_member_int(j, tt_own_outcome_name(o), (int64_t)s->outcomes[o]);
	tt_json_emit_object_end(j);
	links_json(s, j);
	hid_links_json(&s->hid_links, j, "hid_links");
	tt_json_emit_key(j, "anomaly_counts");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "total", (int64_t)tt_stats_diag_total(s));
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (s->diags[c])
			tt_json_emit_member_int(j, tt_check_name(c), (int64_t)s->diags[c]);
	}
	tt_json_emit_object_end(j);
}

void
tt_stats_json(const struct tt_stats *s, struct tt_json_emit *j)
{
	tt_json_emit_member_int(j, "start_us", s->have_time ? s->first_us : 0);
	tt_json_emit_member_int(j, "end_us", s->have_time ? s->last_us : 0);
	tt_json_emit_member_int(j, "duration_us", tt_stats_duration(s));
	tt_json_emit_member_int(j, "frames", (int64_t)s->frames);
	tt_json_emit_member_int(j, "events", (int64_t)s->events);
	tt_json_emit_member_int(j, "xi_events", (int64_t)s->xi_events);
	tt_json_emit_member_int(j, "hid_reports", (int64_t)s->hid_reports);
	clients_json(s, j);
	counts_json(s, j);
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
