/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "log.h"
#include "report.h"

static void
print_counts(FILE *out, const struct rp_verify_result *v)
{
	if (v->kind == RP_VERIFY_RECORDED)
		fprintf(out, "verify: %zu evdev device%s compared, %zu frames recorded, ", v->readers,
			v->readers == 1 ? "" : "s", v->expected_frames);
	else
		fprintf(out, "verify: %zu frames expected, ", v->expected_frames);
	fprintf(out, "%zu delivered, %zu unexplained difference%s\n", v->received_frames,
		v->unexplained, v->unexplained == 1 ? "" : "s");
	for (int r = 0; r < RP_R_COUNT; r++) {
		if (v->reasons[r])
			fprintf(out, "  explained: %zu x %s\n", v->reasons[r],
				v->reason_name(r));
	}
}

void
rp_report_print_verify(FILE *out, const struct rp_verify_result *v)
{
	print_counts(out, v);
	if (v->kind == RP_VERIFY_RECORDED)
		return;	/* no model of what was written: no anomalies, no timing */
	fprintf(out, "verify: %" PRIu64 " new anomal%s in the delivered events\n", v->anomalies,
		v->anomalies == 1 ? "y" : "ies");
	if (v->ntimed)
		fprintf(out, "kernel timestamps vs deadlines: median %" PRId64 " us, p99 %" PRId64
			" us, max %" PRId64 " us; drift %" PRId64 " us (%zu frames)\n",
			v->kernel.median_us, v->kernel.p99_us, v->kernel.max_us, v->kernel.drift_us,
			v->ntimed);
}

static void
summary_json(FILE *f, const char *key, const struct rp_summary *s)
{
	fprintf(f, "\"%s\":{\"median_us\":%" PRId64 ",\"p99_us\":%" PRId64 ",\"max_us\":%" PRId64
		",\"drift_us\":%" PRId64 "}", key, s->median_us, s->p99_us, s->max_us, s->drift_us);
}

/* As analyze's anomaly_counts: the total, then each kind there is. */
static void
new_anomalies_json(FILE *f, const struct rp_verify_result *v)
{
	fprintf(f, "\"new_anomaly_counts\":{\"total\":%" PRIu64, v->anomalies);
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (v->new_anomalies[c])
			fprintf(f, ",\"%s\":%" PRIu64, tt_check_name(c), v->new_anomalies[c]);
	}
	fputc('}', f);
}

void
rp_report_begin(FILE *f, const struct rp_stats *st)
{
	fprintf(f, "{\"frames_written\":%zu,\"extra_frames\":%zu,\"loops\":%" PRIu32,
		st->frames_written, st->extra_frames, st->loops_done);
}

void
rp_report_evdev_fields(FILE *f, const struct rp_schedule *s)
{
	fprintf(f, ",\"syn_dropped_skipped\":%zu,\"resync_frames\":%zu", s->ndropped, s->nresync);
}

void
rp_report_lateness(FILE *f, const struct rp_summary *sum)
{
	fputc(',', f);
	summary_json(f, "lateness", sum);
}

static void
explained_json(FILE *f, const struct rp_verify_result *v)
{
	bool first = true;

	fputs("\"explained\":{", f);
	for (int r = 0; r < RP_R_COUNT; r++) {
		if (!v->reasons[r])
			continue;
		fprintf(f, "%s\"%s\":%zu", first ? "" : ",", v->reason_name(r),
			v->reasons[r]);
		first = false;
	}
	fputc('}', f);
}

void
rp_report_verify(FILE *f, const struct rp_verify_result *v)
{
	fputs(",\"verify\":{", f);
	if (v->kind == RP_VERIFY_RECORDED)
		fprintf(f, "\"devices_compared\":%zu,", v->readers);
	fprintf(f, "\"expected_frames\":%zu,\"delivered_frames\":%zu,\"unexplained\":%zu,",
		v->expected_frames, v->received_frames, v->unexplained);
	explained_json(f, v);
	if (v->kind == RP_VERIFY_WRITTEN) {
		fputc(',', f);
		new_anomalies_json(f, v);
		fprintf(f, ",\"timed_frames\":%zu,", v->ntimed);
		summary_json(f, "kernel_time_error", &v->kernel);
	}
	fputc('}', f);
}

void
rp_report_end(FILE *f)
{
	fputs("}\n", f);
}
