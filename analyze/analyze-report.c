/* SPDX-License-Identifier: MIT */
/* touchtape analyze: the closing report, as text or JSON: each
 * device's numbers and the sections of the layers above it. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-private.h"
#include "commands.h"
#include "stack.h"
#include "evnames.h"
#include "log.h"
#include "model.h"
#include "json-emit.h"
#include "li-analyze.h"
#include "xi-chains.h"
#include "wl-analyze.h"
#include "model-plot.h"
#include "output.h"
#include "read-options.h"
#include "reader.h"
#include "surroundings-print.h"
#include "util-stats.h"
#include "util-strings.h"

/* Microseconds by util-stats.h's rule, exact to the bucket; -1 beyond the
 * histogram. */
static int64_t
percentile_us(const struct dev_stats *s, double q)
{
	int64_t v;

	if (tt_interval_hist_percentile(&s->iv, q, &v) < 0)
		return -1;
	return v;
}

static void
slots_text(FILE *o, const struct dev_stats *s)
{
	bool first = true;

	for (unsigned int i = 0; i < TT_MAX_SLOTS; i++) {
		if (!bit_is_set(s->slots_used, i))
			continue;
		fprintf(o, "%s%u", first ? "" : " ", i);
		first = false;
	}
	if (first)
		fputs("none", o);
}

static void
slots_json(struct tt_json_emit *j, const struct dev_stats *s)
{
	tt_json_emit_key(j, "slots_used");
	tt_json_emit_array_begin(j);
	for (unsigned int i = 0; i < TT_MAX_SLOTS; i++) {
		if (bit_is_set(s->slots_used, i))
			tt_json_emit_int(j, i);
	}
	tt_json_emit_array_end(j);
}

static const char *
protocol_name(const struct tt_device *dev)
{
	switch (dev->mt_protocol) {
	case TT_MT_A: return "A";
	case TT_MT_B: return "B";
	default: return tt_device_has(dev, EV_ABS, ABS_X) && tt_device_has(dev, EV_KEY, BTN_TOUCH) ? "single" : "none";
	}
}

static void
interval_json(struct tt_json_emit *j, const struct dev_stats *s, double mean, double sd)
{
	tt_json_emit_key(j, "frame_interval_us");
	if (!s->iv.n) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "count", (int64_t)s->iv.n);
	tt_json_emit_member_int(j, "median", percentile_us(s, 0.5));
	tt_json_emit_member_int(j, "p5", percentile_us(s, 0.05));
	tt_json_emit_member_int(j, "p95", percentile_us(s, 0.95));
	tt_json_emit_member_int(j, "mean", (int64_t)llround(mean));
	tt_json_emit_member_int(j, "stddev", (int64_t)llround(sd));
	tt_json_emit_member_int(j, "max", s->iv.max_us);
	tt_json_emit_member_int(j, "max_at_us", s->max_at_us);
	tt_json_emit_member_int(j, "max_line", (int64_t)s->max_line);
	tt_json_emit_object_end(j);
}

static void
device_json(struct tt_json_emit *j, const struct dev_stats *s, const struct tt_stats_device *sd,
	    double median, double mean, double sdev, double neutral)
{
	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "id", s->id);
	tt_json_emit_member_string(j, "name", s->dev->name);
	tt_json_emit_member_string(j, "mt_protocol", protocol_name(s->dev));
	tt_json_emit_member_string(j, "units", s->mm ? "mm" : "device");
	tt_stats_device_json(sd, j);
	tt_sur_device_json(s->dev, j);
	interval_json(j, s, mean, sdev);
	tt_json_emit_member_fixed(j, "frame_rate_hz", median > 0 ? 1000.0 / median : NAN, 2);
	slots_json(j, s);
	tt_json_emit_member_fixed(j, "neutral_share", neutral, 4);
	tt_json_emit_object_end(j);
}

static void
print_device(struct analyze *a, const struct dev_stats *s, const struct tt_stats_device *sd)
{
	int64_t dur = sd->have_time ? sd->last_us - sd->first_us : 0;
	double median = s->iv.n ? (double)percentile_us(s, 0.5) / 1000.0 : NAN;
	double mean = s->iv.n ? s->sum / (double)s->iv.n : NAN;
	double sdev = s->iv.n ? sqrt(fmax(0, s->sumsq / (double)s->iv.n - mean * mean)) : NAN;
	double neutral = dur > 0 ? (double)s->neutral_us / (double)dur : NAN;

	if (a->json) {
		device_json(&a->report, s, sd, median, mean, sdev, neutral);
		return;
	}
	printf("device %u \"%s\": MT protocol %s, distances in %s\n", s->id, s->dev->name,
	       protocol_name(s->dev), s->mm ? "mm" : "device units (no resolution)");
	printf("  %.3f s, %" PRIu64 " frames, %" PRIu64 " events\n", secs(dur), sd->frames, sd->events);
	if (s->iv.n) {
		char at[32];
		printf("  frame interval while touching: median %.2f ms (%.1f Hz), p5 %.2f ms, p95 %.2f ms, "
		       "mean %.3f ms, jitter (stddev) %.3f ms, %" PRIu64 " intervals\n", median,
		       median > 0 ? 1000.0 / median : 0.0, (double)percentile_us(s, 0.05) / 1000.0,
		       (double)percentile_us(s, 0.95) / 1000.0, mean / 1000.0, sdev / 1000.0, s->iv.n);
		printf("  longest frame interval while touching: %.2f ms, ending at %s s (line %zu)\n",
		       (double)s->iv.max_us / 1000.0, tt_format_time(at, sizeof(at), s->max_at_us), s->max_line);
	}
	printf("  touch sequences %" PRIu64 ", max simultaneous %u, slots used: ", sd->touch_sequences,
	       sd->max_simultaneous);
	slots_text(stdout, s);
	printf("\n  SYN_DROPPED %" PRIu64 ", no touch down %.1f%% of the time\n", sd->syn_dropped,
	       isfinite(neutral) ? neutral * 100.0 : 100.0);
	tt_sur_device_text(s->dev, "  ", false, stdout);
}

static int
copy_out(FILE *from)
{
	char buf[65536];
	size_t n;

	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, n, stdout);
	return 0;
}

static void
print_devices(struct analyze *a, const struct tt_stats *st)
{
	for (size_t i = 0; i < a->ndevs; i++) {
		const struct dev_stats *s = &a->devs[i];
		const struct tt_stats_device *sd = tt_stats_device(st, s->id);
		struct tt_stats_device wd;
		if (!s->used || !s->selected || !sd)
			continue;
		/* The window's own pass never saw the touches begun before
		 * it: the touches are the ones analyze lists. */
		if (a->window) {
			wd = *sd;
			wd.touch_sequences = s->window_touches;
			wd.max_simultaneous = s->window_max;
			sd = &wd;
		}
		print_device(a, s, sd);
	}
}

static const char *
hid_name(const struct tt_reader *r, uint32_t id)
{
	const struct tt_hid_device *d = tt_reader_hid_device(r, id);

	return d && d->name ? d->name : "";
}

static void
print_hid_devices(struct analyze *a, const struct tt_reader *r, const struct tt_stats *st)
{
	for (size_t i = 0; i < st->nhids; i++) {
		const struct tt_stats_hid *sh = &st->hids[i];
		if (!a->json) {
			tt_stats_hid_text(sh, hid_name(r, sh->id), stdout);
			continue;
		}
		tt_json_emit_newline(&a->report, "  ");
		tt_json_emit_object_begin(&a->report);
		tt_json_emit_member_int(&a->report, "id", sh->id);
		tt_json_emit_member_string(&a->report, "name", hid_name(r, sh->id));
		tt_stats_hid_json(sh, &a->report);
		tt_json_emit_object_end(&a->report);
	}
}

/* One of the lists streamed into a temporary file, on a line of its own. */
static void
list_json(struct analyze *a, const char *key, struct tt_json_emit *list, FILE *f)
{
	tt_json_emit_array_end(list);
	tt_json_emit_newline(&a->report, "");
	tt_json_emit_key(&a->report, key);
	tt_json_emit_separator(&a->report);
	copy_out(f);
}

static void
report_json(struct analyze *a, const struct tt_reader *r, const struct tt_stats *st)
{
	struct tt_json_emit *j = &a->report;

	tt_json_emit_init_file(j, stdout);
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "analyze_version", ANALYZE_VERSION);
	tt_json_emit_member_string(j, "file", a->name);
	tt_json_emit_member_string(j, "format", tt_file_format_name(tt_reader_format(r)));
	tt_read_options_window_json(a->ro, j);
	tt_sur_system_json(tt_reader_header(r), j);
	tt_stats_json(st, j);
	tt_json_emit_member_fixed(j, "jump_threshold_mm", a->opts.jump_mm, 3);
	tt_json_emit_key(j, "devices");
	tt_json_emit_array_begin(j);
	print_devices(a, st);
	tt_json_emit_array_end(j);
	tt_json_emit_key(j, "hid_devices");
	tt_json_emit_array_begin(j);
	print_hid_devices(a, r, st);
	tt_json_emit_array_end(j);
	list_json(a, "touches", &a->jtouches, a->touches);
	list_json(a, "xi_touches", &a->jxtouches, a->xtouches);
	list_json(a, "hid_contacts", &a->jhcontacts, a->hcontacts);
	list_json(a, "anomalies", &a->janomalies, a->anomalies);
	xi_chains_json(tt_stack_xi_own(a->window ? a->window : a->detect), j);
	li_analyze_json(&a->li, j);
	wl_analyze_json(&a->wl, j);
	grade_json(a);
	tt_json_emit_object_end(j);
	tt_json_emit_raw(j, "\n", 1);
}

void
report(struct analyze *a, const struct tt_reader *r)
{
	/* What --ignore left out is not counted either. */
	struct tt_stats st = *tt_stack_stats(a->window ? a->window : a->detect);

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		st.diags[c] = a->filter.count[c];
	if (a->json) {
		report_json(a, r, &st);
		return;
	}
	printf("%s: %s, %.3f s", a->name, tt_file_format_name(tt_reader_format(r)), secs(tt_stats_duration(&st)));
	tt_read_options_window_text(a->ro, stdout);
	putchar('\n');
	tt_sur_system_text(tt_reader_header(r), "", stdout);
	print_devices(a, &st);
	print_hid_devices(a, r, &st);
	/* A HID-only recording has no kernel touch sequences to head. */
	if (a->ndevs || a->ntouches) {
		printf("touch sequences (* = numbered by touchtape):\n");
		copy_out(a->touches);
	}
	if (st.nhids) {
		printf("HID contacts:\n");
		copy_out(a->hcontacts);
	}
	if (a->nxtouches) {
		printf("XI touch sequences:\n");
		copy_out(a->xtouches);
	}
	xi_chains_text(tt_stack_xi_own(a->window ? a->window : a->detect), stdout);
	tt_stats_xi_text(&st, stdout);
	tt_stats_anomalies_text(&st, stdout);
	copy_out(a->anomalies);
	tt_diag_filter_print_more(&a->filter, stdout, "  ");
	li_analyze_text(&a->li, stdout);
	wl_analyze_text(&a->wl, stdout);
	printf("%" PRIu64 " touch sequence%s, %" PRIu64 " XI touch sequence%s, ", a->ntouches,
	       a->ntouches == 1 ? "" : "s", a->nxtouches, a->nxtouches == 1 ? "" : "s");
	if (st.nhids)
		printf("%" PRIu64 " HID contact%s, ", a->nhcontacts, a->nhcontacts == 1 ? "" : "s");
	printf("%" PRIu64 " anomal%s\n", a->nanomalies, a->nanomalies == 1 ? "y" : "ies");
	grade_text(a);
}
