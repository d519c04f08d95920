/* SPDX-License-Identifier: MIT */
/* touchtape analyze: per-device and per-touch numbers and the anomalies a
 * driver developer looks for, in one streaming pass over any recording.
 * The anomalies and the shared numbers come from lib/detect.h; this file
 * keeps the statistics only analyze shows (frame intervals, paths) and
 * the output. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#include "util-strings.h"

/* 2: times in integer microseconds (_us), the shared numbers under the
 * names inspect --summary uses. */
#define ANALYZE_VERSION 2
/* Frame intervals are kept as a histogram of 10 us buckets up to 100 ms:
 * bounded memory, percentiles exact to 10 us. */
#define HIST_BUCKET_US 10
#define HIST_BUCKETS 10000

enum {
	OPT_JUMP = TT_OPT_FIRST_PRIVATE,
	OPT_JUMP_UNITS,
	OPT_NO_LINK,
	OPT_WINDOW,
	OPT_IGNORE,
	OPT_MAX,
	OPT_STRICT,
};

struct dev_stats {
	bool used;
	uint32_t id;
	const struct tt_device *dev;
	bool selected;
	bool mm;
	bool have_time;
	int64_t last_us;
	uint32_t prev_count;
	int64_t neutral_us;
	uint32_t *hist;		/* frame intervals while touching */
	uint64_t nintervals, over;
	double sum, sumsq;
	int64_t max_us, max_at_us;	/* the longest interval, and the frame ending it */
	size_t max_line;
	uint8_t slots_used[TT_BITMAP_BYTES(TT_MAX_SLOTS)];
	/* Within --from/--to, counting the touches begun before it too. */
	uint64_t window_touches;
	uint32_t window_max;
};

struct touch_stats {
	double path, max_step;
	int32_t last_x, last_y;
	bool known;		/* last_x/y were reported by the device */
	int32_t pmin, pmax, smin, smax;
	struct tt_plot_path plot;
};

struct analyze {
	const char *name;
	bool json;
	const struct tt_read_options *ro;
	const struct tt_record *feeding;	/* while one is fed */
	/* With --from/--to: the shared numbers of the window alone. */
	struct tt_stack *window;
	struct tt_detect_options opts;
	struct tt_diag_filter filter;
	struct dev_stats devs[TT_MAX_DEVICES];
	size_t ndevs;
	FILE *touches;		/* formatted per-touch output, streamed */
	FILE *xtouches;
	FILE *anomalies;
	/* With --json: the three lists, each an array in its file; and
	 * the report on stdout they are copied into. */
	struct tt_json_emit jtouches, jxtouches, janomalies;
	struct tt_json_emit report;
	uint64_t ntouches, nxtouches, nanomalies;
	struct tt_plot *plot;
	struct tt_stack *detect;
	/* The jump just reported, for the plot: its kernel_update follows. */
	bool jump_pending;
	int64_t jump_device, jump_tracking_id;
	struct li_summary li;	/* the libinput layer, over the whole file */
	struct wl_summary wl;	/* the Wayland layer, over the whole file */
};

static struct dev_stats *
find_dev(struct analyze *a, uint32_t id)
{
	for (size_t i = 0; i < a->ndevs; i++) {
		if (a->devs[i].used && a->devs[i].id == id)
			return &a->devs[i];
	}
	return NULL;
}

static double
secs(int64_t us)
{
	return (double)us / 1e6;
}

/* ---- anomalies: the shared stream ---- */

static void
anomaly_json(struct analyze *a, const struct tt_diag *d)
{
	struct tt_json_emit *j = &a->janomalies;

	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "kind", tt_check_name(d->check));
	tt_json_emit_member_string(j, "severity", tt_severity_name(d->severity));
	tt_json_emit_member_int(j, "line", (int64_t)d->line);
	tt_json_emit_member_int(j, "time_us", d->time_us);
	tt_json_emit_member_int(j, "device", d->device);
	tt_json_emit_member_int(j, "slot", d->slot);
	tt_json_emit_member_int(j, "tracking_id", d->tracking_id);
	tt_json_emit_member_int(j, "touchid", d->touchid);
	tt_json_emit_member_string(j, "client", d->client[0] ? d->client : NULL);
	tt_json_emit_member_string(j, "message", d->message);
	tt_json_emit_object_end(j);
}

static void
anomaly_text(struct analyze *a, const struct tt_diag *d)
{
	FILE *o = a->anomalies;
	char ts[32];

	fprintf(o, "  %s:", a->name);
	if (d->line)
		fprintf(o, "%zu:", d->line);
	fprintf(o, " %s s", tt_format_time(ts, sizeof(ts), d->time_us));
	if (d->device >= 0)
		fprintf(o, " %s %" PRId64, d->touchid >= 0 ? "XI device" : "device", d->device);
	if (d->slot >= 0)
		fprintf(o, " slot %" PRId64, d->slot);
	if (d->tracking_id >= 0)
		fprintf(o, " tracking ID %" PRId64, d->tracking_id);
	if (d->touchid >= 0)
		fprintf(o, " touch %" PRId64, d->touchid);
	if (d->client[0])
		fprintf(o, " [%s]", d->client);
	fprintf(o, ": %s: %s [%s]\n", tt_severity_name(d->severity), d->message, tt_check_name(d->check));
}

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct analyze *a = data;
	bool show;

	if (a->filter.ignore[d->check] || !tt_read_options_keep_diag(a->ro, d, a->feeding))
		return;
	show = tt_diag_filter_accept(&a->filter, d);
	/* A line that could not be read is trouble with the file, not only
	 * a finding: on stderr too, like every command's. */
	if (d->check == TT_CHECK_BAD_LINE) {
		char msg[600];
		tt_diag_format(d, "analyze", a->name, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
	}
	if (d->check == TT_CHECK_JUMP) {
		a->jump_pending = true;
		a->jump_device = d->device;
		a->jump_tracking_id = d->tracking_id;
	}
	/* JSON lists them all; text stops each kind at --max. */
	if (a->json)
		anomaly_json(a, d);
	else if (show)
		anomaly_text(a, d);
	a->nanomalies++;
}

/* ---- kernel touches ---- */

static void
use_slot(struct dev_stats *s, int32_t slot)
{
	if (slot >= 0 && slot < (int32_t)TT_MAX_SLOTS)
		set_bit(s->slots_used, (unsigned)slot);
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, t->device);
	struct touch_stats *ts = tt_zalloc(sizeof(*ts));

	t->user = ts;
	ts->last_x = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	ts->last_y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	ts->known = !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)));
	ts->pmin = ts->pmax = t->values[TT_AXIS(ABS_MT_PRESSURE)];
	ts->smin = ts->smax = t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)];
	/* With --from/--to, the slots of the touches listed. */
	if (s && !a->window)
		use_slot(s, t->slot);
	if (a->plot && ts->known)
		tt_plot_path_sample(&ts->plot, t, t->begin_us, false);
}

static void
on_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct analyze *a = data;
	struct touch_stats *ts = t->user;
	struct dev_stats *s = find_dev(a, t->device);
	int32_t x = t->values[TT_AXIS(ABS_MT_POSITION_X)], y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	int32_t p = t->values[TT_AXIS(ABS_MT_PRESSURE)], sz = t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)];

	if (!ts || !s)
		return;
	if (p < ts->pmin) ts->pmin = p;
	if (p > ts->pmax) ts->pmax = p;
	if (sz < ts->smin) ts->smin = sz;
	if (sz > ts->smax) ts->smax = sz;
	bool known = !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)));
	bool jump = a->jump_pending && a->jump_device == t->device && a->jump_tracking_id == t->tracking_id;
	a->jump_pending = false;
	if (x == ts->last_x && y == ts->last_y && known == ts->known) {
		if (a->plot && known)	/* pressure alone changed: the touch panel shows it */
			tt_plot_path_sample(&ts->plot, t, u->time_us, false);
		return;
	}
	/* No step from a position the device never reported. */
	double step = ts->known ? tt_model_distance(s->dev, (double)x - ts->last_x, (double)y - ts->last_y) : 0;
	ts->path += step;
	if (step > ts->max_step)
		ts->max_step = step;
	ts->last_x = x;
	ts->last_y = y;
	ts->known = known;
	if (a->plot && known)
		tt_plot_path_sample(&ts->plot, t, u->time_us, jump);
}

static void
print_range(struct analyze *a, const char *key, bool has, int32_t lo, int32_t hi)
{
	if (has)
		fprintf(a->touches, ", %s %d-%d", key, lo, hi);
}

static void
range_json(struct tt_json_emit *j, const char *key, bool has, int32_t lo, int32_t hi)
{
	tt_json_emit_key(j, key);
	if (!has) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_array_begin(j);
	tt_json_emit_int(j, lo);
	tt_json_emit_int(j, hi);
	tt_json_emit_array_end(j);
}

static void
point_json(struct tt_json_emit *j, const char *key, double x, double y)
{
	tt_json_emit_key(j, key);
	tt_json_emit_array_begin(j);
	tt_json_emit_fixed(j, x, 3);
	tt_json_emit_fixed(j, y, 3);
	tt_json_emit_array_end(j);
}

/* The XI touch a kernel touch became, or null. */
static void
touch_xi_json(struct tt_json_emit *j, const struct tt_ktouch *t)
{
	tt_json_emit_key(j, "xi");
	if (t->link != TT_LINK_LINKED) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "deviceid", t->xi_deviceid);
	tt_json_emit_member_int(j, "touchid", t->xi_touchid);
	tt_json_emit_member_int(j, "line", (int64_t)t->xi_begin_line);
	tt_json_emit_member_int(j, "latency_us", t->xi_begin_us - t->begin_us);
	tt_json_emit_key(j, "emulating_pointer");
	if (t->xi_emulating_known)
		tt_json_emit_bool(j, t->xi_emulating_pointer);
	else
		tt_json_emit_null(j);
	tt_json_emit_object_end(j);
}

/* The HID contact a kernel touch was made of, or null. */
static void
touch_hid_json(struct tt_json_emit *j, const struct tt_ktouch *t)
{
	tt_json_emit_key(j, "hid");
	if (t->hid_link != TT_LINK_LINKED) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", t->hid_device);
	tt_json_emit_member_int(j, "contact_id", t->hid_contact_id);
	tt_json_emit_member_int(j, "line", (int64_t)t->hid_begin_line);
	tt_json_emit_member_int(j, "latency_us", t->begin_us - t->hid_begin_us);
	tt_json_emit_object_end(j);
}

static void
touch_json(struct analyze *a, const struct tt_ktouch *t, const struct touch_stats *ts,
	   const struct dev_stats *s, const double pos[4], bool has_p, bool has_s)
{
	struct tt_json_emit *j = &a->jtouches;

	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "device", t->device);
	tt_json_emit_member_int(j, "slot", t->slot);
	tt_json_emit_member_int(j, "tracking_id", t->tracking_id);
	tt_json_emit_member_bool(j, "synthetic_id", t->flags & TT_KTOUCH_SYNTHETIC_ID);
	tt_json_emit_member_int(j, "begin_us", t->begin_us);
	tt_json_emit_member_int(j, "end_us", t->end_us);
	tt_json_emit_member_int(j, "duration_us", t->end_us - t->begin_us);
	tt_json_emit_member_int(j, "begin_line", (int64_t)t->begin_line);
	tt_json_emit_member_int(j, "end_line", (int64_t)t->end_line);
	tt_json_emit_member_int(j, "frames", (int64_t)t->nframes);
	tt_json_emit_member_string(j, "units", s->mm ? "mm" : "device");
	point_json(j, "start", pos[0], pos[1]);
	point_json(j, "end", pos[2], pos[3]);
	tt_json_emit_member_fixed(j, "path_length", ts->path, 3);
	tt_json_emit_member_fixed(j, "max_step", ts->max_step, 3);
	range_json(j, "pressure", has_p, ts->pmin, ts->pmax);
	range_json(j, "touch_major", has_s, ts->smin, ts->smax);
	tt_json_emit_member_bool(j, "began_before_start", t->flags & TT_KTOUCH_BEFORE_START);
	tt_json_emit_member_bool(j, "active_at_end", t->flags & TT_KTOUCH_ACTIVE_AT_END);
	tt_json_emit_member_string(j, "link", tt_link_status_name(t->link));
	touch_xi_json(j, t);
	tt_json_emit_member_string(j, "hid_link", tt_link_status_name(t->hid_link));
	touch_hid_json(j, t);
	tt_json_emit_object_end(j);
}

static void
touch_text(struct analyze *a, const struct tt_ktouch *t, const struct touch_stats *ts,
	   const struct dev_stats *s, const double pos[4], bool has_p, bool has_s)
{
	FILE *o = a->touches;
	const char *u = s->mm ? "mm" : "units";
	char b[32], e[32];

	fprintf(o, "  device %u slot %d tracking ID %d%s: %s-%s s (%.3f s, %" PRIu64 " frames), "
		"(%.1f, %.1f) -> (%.1f, %.1f) %s, path %.1f %s, max step %.1f %s",
		t->device, t->slot, t->tracking_id, (t->flags & TT_KTOUCH_SYNTHETIC_ID) ? "*" : "",
		tt_format_time(b, sizeof(b), t->begin_us), tt_format_time(e, sizeof(e), t->end_us),
		secs(t->end_us - t->begin_us), t->nframes, pos[0], pos[1], pos[2], pos[3], u, ts->path, u,
		ts->max_step, u);
	print_range(a, "pressure", has_p, ts->pmin, ts->pmax);
	print_range(a, "size", has_s, ts->smin, ts->smax);
	if (t->link == TT_LINK_LINKED)
		fprintf(o, ", XI device %d touch %u after %.3f ms%s", t->xi_deviceid, t->xi_touchid,
			(double)(t->xi_begin_us - t->begin_us) / 1000.0,
			t->xi_emulating_pointer ? " (emulating pointer)" : "");
	else if (t->link == TT_LINK_NOT_DELIVERED)
		fputs(", not delivered by X", o);
	if (t->hid_link == TT_LINK_LINKED)
		fprintf(o, ", from HID device %u contact %d after %.3f ms", t->hid_device, t->hid_contact_id,
			(double)(t->begin_us - t->hid_begin_us) / 1000.0);
	else if (t->hid_link == TT_LINK_NOT_DELIVERED)
		fputs(", no HID contact", o);
	if (t->flags & TT_KTOUCH_BEFORE_START)
		fputs(", down before the recording started", o);
	if (t->flags & TT_KTOUCH_ACTIVE_AT_END)
		fputs(", still down at the end", o);
	fputc('\n', o);
}

static void
report_touch(struct analyze *a, struct tt_ktouch *t, struct touch_stats *ts, struct dev_stats *s)
{
	double pos[4];
	bool has_p = tt_device_has(s->dev, EV_ABS, ABS_MT_PRESSURE) ||
		     (!tt_device_has(s->dev, EV_ABS, ABS_MT_POSITION_X) && tt_device_has(s->dev, EV_ABS, ABS_PRESSURE));
	bool has_s = tt_device_has(s->dev, EV_ABS, ABS_MT_TOUCH_MAJOR);

	tt_model_position(s->dev, t->begin_x, t->begin_y, &pos[0], &pos[1]);
	tt_model_position(s->dev, t->values[TT_AXIS(ABS_MT_POSITION_X)],
			  t->values[TT_AXIS(ABS_MT_POSITION_Y)], &pos[2], &pos[3]);
	if (a->json)
		touch_json(a, t, ts, s, pos, has_p, has_s);
	else
		touch_text(a, t, ts, s, pos, has_p, has_s);
	a->ntouches++;
	if (a->plot)
		tt_plot_path_end(a->plot, t->device, t->serial, &ts->plot);
}

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct analyze *a = data;
	struct touch_stats *ts = t->user;
	struct dev_stats *s = find_dev(a, t->device);

	if (ts && s && s->selected && tt_read_options_overlaps(a->ro, t->begin_us, t->end_us)) {
		report_touch(a, t, ts, s);
		s->window_touches++;
		if (a->window)
			use_slot(s, t->slot);
	}
	if (ts)
		tt_plot_path_release(&ts->plot);
	free(ts);
	t->user = NULL;
}

/* ---- frames ---- */

/* The frame intervals while touching and the time without touches:
 * analyze's own numbers. */
static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, dev->id);

	if (!s)
		return;
	/* Intervals with both ends in the window. */
	if (s->have_time && tt_read_options_overlaps(a->ro, s->last_us, s->last_us) &&
	    tt_read_options_overlaps(a->ro, f->time_us, f->time_us)) {
		int64_t dt = f->time_us - s->last_us;
		if (s->prev_count == 0 && dt > 0)
			s->neutral_us += dt;
		if (s->prev_count > 0 && n > 0 && dt >= 0) {
			if (dt / HIST_BUCKET_US < HIST_BUCKETS)
				s->hist[dt / HIST_BUCKET_US]++;
			else
				s->over++;
			s->nintervals++;
			s->sum += (double)dt;
			s->sumsq += (double)dt * (double)dt;
			if (dt > s->max_us || s->nintervals == 1) {
				s->max_us = dt;
				s->max_at_us = f->time_us;
				s->max_line = line;
			}
		}
	}
	s->have_time = true;
	s->last_us = f->time_us;
	if (tt_read_options_overlaps(a->ro, f->time_us, f->time_us)) {
		if (n > s->window_max)
			s->window_max = n;
		if (a->plot && n != s->prev_count)
			tt_plot_count(a->plot, s->id, f->time_us, n);
	}
	s->prev_count = n;
}

/* ---- XI touches ---- */

static void
xtouch_json(struct analyze *a, const struct tt_xtouch *t)
{
	struct tt_json_emit *j = &a->jxtouches;

	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "deviceid", t->deviceid);
	tt_json_emit_member_int(j, "sourceid", t->sourceid);
	tt_json_emit_member_int(j, "touchid", t->touchid);
	tt_json_emit_member_string(j, "client", t->client);
	tt_json_emit_member_bool(j, "raw", t->flags & TT_XTOUCH_RAW);
	tt_json_emit_member_int(j, "begin_us", t->begin_us);
	tt_json_emit_member_int(j, "end_us", t->end_us);
	tt_json_emit_member_int(j, "begin_line", (int64_t)t->begin_line);
	tt_json_emit_member_int(j, "end_line", (int64_t)t->end_line);
	tt_json_emit_member_int(j, "updates", (int64_t)t->nupdates);
	tt_json_emit_member_string(j, "outcome", tt_own_outcome_name(t->outcome));
	tt_json_emit_member_int_or_null(j, "owned_us", t->owned_us);
	tt_json_emit_member_int_or_null(j, "resolved_us", t->resolved_us);
	tt_json_emit_member_bool(j, "began_unowned", t->flags & TT_XTOUCH_BEGAN_UNOWNED);
	tt_json_emit_member_bool(j, "emulating_pointer", t->flags & TT_XTOUCH_EMULATING_POINTER);
	tt_json_emit_member_bool(j, "pending_end", t->flags & TT_XTOUCH_PENDING_END);
	tt_json_emit_member_bool(j, "active_at_end", t->flags & TT_XTOUCH_ACTIVE_AT_END);
	tt_json_emit_object_end(j);
}

static void
xtouch_text(struct analyze *a, const struct tt_xtouch *t)
{
	FILE *o = a->xtouches;
	char b[32], e[32];

	fprintf(o, "  XI device %d (source %d) %stouch %u", t->deviceid, t->sourceid,
		(t->flags & TT_XTOUCH_RAW) ? "raw " : "", t->touchid);
	if (t->client[0])
		fprintf(o, " [%s]", t->client);
	fprintf(o, ": %s-%s s, %" PRIu64 " updates, ownership %s", tt_format_time(b, sizeof(b), t->begin_us),
		tt_format_time(e, sizeof(e), t->end_us), t->nupdates, tt_own_outcome_name(t->outcome));
	if (t->flags & TT_XTOUCH_BEGAN_UNOWNED)
		fputs(", began unowned", o);
	if (t->owned_us >= 0)
		fprintf(o, ", owned at %s s", tt_format_time(b, sizeof(b), t->owned_us));
	if (t->flags & TT_XTOUCH_EMULATING_POINTER)
		fputs(", emulating pointer", o);
	if (t->flags & TT_XTOUCH_PENDING_END)
		fputs(", pending end", o);
	if (t->flags & TT_XTOUCH_ACTIVE_AT_END)
		fputs(", never ended", o);
	fputc('\n', o);
}

static void
on_xend(void *data, struct tt_xtouch *t)
{
	struct analyze *a = data;

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	if (a->json)
		xtouch_json(a, t);
	else
		xtouch_text(a, t);
	a->nxtouches++;
}

/* ---- output ---- */

/* Microseconds, exact to the bucket; -1 beyond the histogram. */
static int64_t
percentile_us(const struct dev_stats *s, double q)
{
	uint64_t want = (uint64_t)ceil(q * (double)s->nintervals);
	uint64_t seen = 0;

	if (want < 1)
		want = 1;
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		seen += s->hist[i];
		if (seen >= want)
			return (int64_t)i * HIST_BUCKET_US;
	}
	return -1;
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
	if (!s->nintervals) {
		tt_json_emit_null(j);
		return;
	}
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "count", (int64_t)s->nintervals);
	tt_json_emit_member_int(j, "median", percentile_us(s, 0.5));
	tt_json_emit_member_int(j, "p5", percentile_us(s, 0.05));
	tt_json_emit_member_int(j, "p95", percentile_us(s, 0.95));
	tt_json_emit_member_int(j, "mean", (int64_t)llround(mean));
	tt_json_emit_member_int(j, "stddev", (int64_t)llround(sd));
	tt_json_emit_member_int(j, "max", s->max_us);
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
	double median = s->nintervals ? (double)percentile_us(s, 0.5) / 1000.0 : NAN;
	double mean = s->nintervals ? s->sum / (double)s->nintervals : NAN;
	double sdev = s->nintervals ? sqrt(fmax(0, s->sumsq / (double)s->nintervals - mean * mean)) : NAN;
	double neutral = dur > 0 ? (double)s->neutral_us / (double)dur : NAN;

	if (a->json) {
		device_json(&a->report, s, sd, median, mean, sdev, neutral);
		return;
	}
	printf("device %u \"%s\": MT protocol %s, distances in %s\n", s->id, s->dev->name,
	       protocol_name(s->dev), s->mm ? "mm" : "device units (no resolution)");
	printf("  %.3f s, %" PRIu64 " frames, %" PRIu64 " events\n", secs(dur), sd->frames, sd->events);
	if (s->nintervals) {
		char at[32];
		printf("  frame interval while touching: median %.2f ms (%.1f Hz), p5 %.2f ms, p95 %.2f ms, "
		       "mean %.3f ms, jitter (stddev) %.3f ms, %" PRIu64 " intervals\n", median,
		       median > 0 ? 1000.0 / median : 0.0, (double)percentile_us(s, 0.05) / 1000.0,
		       (double)percentile_us(s, 0.95) / 1000.0, mean / 1000.0, sdev / 1000.0, s->nintervals);
		printf("  longest frame interval while touching: %.2f ms, ending at %s s (line %zu)\n",
		       (double)s->max_us / 1000.0, tt_format_time(at, sizeof(at), s->max_at_us), s->max_line);
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
	list_json(a, "anomalies", &a->janomalies, a->anomalies);
	xi_chains_json(tt_stack_xi_own(a->window ? a->window : a->detect), j);
	li_analyze_json(&a->li, j);
	wl_analyze_json(&a->wl, j);
	tt_json_emit_object_end(j);
	tt_json_emit_raw(j, "\n", 1);
}

static void
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
	printf("touch sequences (* = numbered by touchtape):\n");
	copy_out(a->touches);
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
	printf("%" PRIu64 " touch sequence%s, %" PRIu64 " XI touch sequence%s, %" PRIu64 " anomal%s\n",
	       a->ntouches, a->ntouches == 1 ? "" : "s", a->nxtouches, a->nxtouches == 1 ? "" : "s",
	       a->nanomalies, a->nanomalies == 1 ? "y" : "ies");
}

static void
add_device(struct analyze *a, const struct tt_device *dev)
{
	struct dev_stats *s = find_dev(a, dev->id);

	if (!s) {
		if (a->ndevs >= TT_MAX_DEVICES)
			return;
		s = &a->devs[a->ndevs++];
	}
	free(s->hist);
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->id = dev->id;
	s->dev = dev;
	s->selected = a->opts.only_device < 0 || a->opts.only_device == (int64_t)dev->id;
	s->mm = tt_model_has_mm(dev);
	s->hist = tt_zalloc(HIST_BUCKETS * sizeof(*s->hist));
	if (a->plot && s->selected)
		tt_plot_add_device(a->plot, dev);
}

/* The reader's warnings are diagnostics like the others. */
static void
on_warn(void *data, const char *message)
{
	struct analyze *a = data;

	tt_stack_reader_warning(a->detect, a->name, message);
}

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape analyze [OPTIONS] FILE\n"
		"\n"
		"Reads a recording (touchtape timeline, evemu, libinput record or\n"
		"hid-recorder) in one streaming pass and prints, per device, the frame\n"
		"rate, touches and time without touches; per HID device its report rate,\n"
		"reports, contacts and HID-to-kernel latency; per touch sequence its\n"
		"times, positions, path, largest per-frame movement, pressure and size,\n"
		"with HID data the HID contact it was made of, and with XI data the XI\n"
		"touch it became, its kernel-to-X latency and ownership outcome; per XI\n"
		"touch its ownership chain (each client's decision and ownership delay,\n"
		"median and p95 per stage); and the anomalies (the diagnostics validate\n"
		"reports, and what the touch model shows, HID contacts among it), each\n"
		"with time, device, slot or touch and line in the file.\n"
		"\n"
		"Options:\n"
		"  -j, --json          machine-readable output (see touchtape-analyze(1))\n"
		"  -d, --device ID     only the evdev device with this record id\n"
		"      --from TIME     report only from this time on (1.5, 250ms, 2s, in the\n"
		"                      times print shows): the numbers, touches and anomalies\n"
		"                      of the window; what comes before still sets the state\n"
		"      --to TIME       report only up to this time\n"
		"  -p, --plot OUT.svg  draw trajectories (axes in mm), touches over time, and\n"
		"                      x, y and pressure over time per touch (written beside OUT.svg\n"
		"                      and renamed into place)\n"
		"      --desc FILE     the device description of an events-only evemu file\n"
		"      --jump MM       per-frame movement that counts as a jump (default %.0f mm,\n"
		"                      libinput's touchpad jump threshold)\n"
		"      --jump-units N  the same for devices without resolution, in device\n"
		"                      units (default: 25%% of the axis range)\n"
		"      --no-link       do not pair kernel touches with XI touches\n"
		"      --link-window T how long after a kernel touch its XI touch may begin\n"
		"                      (default 250ms)\n"
		"      --ignore KIND   leave out anomalies of this kind (repeatable; the kinds\n"
		"                      are in touchtape-analyze(1))\n"
		"      --max N         list at most N anomalies of each kind (default %d;\n"
		"                      0 = all); JSON lists them all\n"
		"      --strict        warnings count as findings too\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when no error-severity anomaly was found (no anomaly at all\n"
		"with --strict), 1 when one was, 2 on bad usage, a file that cannot be read,\n"
		"a --device the file does not have, a --from past its end or a plot not\n"
		"written.\n"
		"\n"
		"Examples:\n"
		"  touchtape analyze bug-1234.jsonl\n"
		"  touchtape analyze --json --device 0 recording.jsonl | jq .anomalies\n"
		"  touchtape analyze --ignore touch-active-at-end --strict ci-recording.jsonl\n"
		"  touchtape analyze --plot touches.svg touchpad.evemu\n"
		"  touchtape analyze --from 2s --to 3.5s --json bug-1234.jsonl\n",
		TT_DETECT_DEFAULT_JUMP_MM, TT_DIAG_DEFAULT_MAX);
}

static int
parse_positive(const char *opt, const char *arg, double *out)
{
	double v;

	if (tt_parse_double(arg, &v) < 0 || !(v > 0) || !isfinite(v)) {
		tt_usage_error("analyze", "%s takes a positive number, not '%s'", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int
open_outputs(struct analyze *a, const char *plot_path)
{
	a->touches = tmpfile();
	a->xtouches = tmpfile();
	a->anomalies = tmpfile();
	if (!a->touches || !a->xtouches || !a->anomalies || (plot_path && !(a->plot = tt_plot_new()))) {
		tt_error("cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	tt_json_emit_init_file(&a->jtouches, a->touches);
	tt_json_emit_init_file(&a->jxtouches, a->xtouches);
	tt_json_emit_init_file(&a->janomalies, a->anomalies);
	if (a->json) {
		tt_json_emit_array_begin(&a->jtouches);
		tt_json_emit_array_begin(&a->jxtouches);
		tt_json_emit_array_begin(&a->janomalies);
	}
	return 0;
}

static int
write_plot(struct analyze *a, struct tt_output *out)
{
	const struct tt_stats *st = tt_stack_stats(a->window ? a->window : a->detect);
	FILE *f = tt_output_stream(out);

	if (!f || tt_plot_write(a->plot, f, st->first_us, st->last_us) < 0) {
		tt_error("%s: cannot write the plot: %s", tt_output_name(out), strerror(errno));
		return -EIO;
	}
	return tt_output_commit(out);
}

/* Reads the whole file through the shared pass (what comes before
 * --from sets the state the window starts in); -EIO when reading
 * stopped. */
static int
read_all(struct analyze *a, struct tt_reader *r)
{
	struct tt_record rec;
	int rc;

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			tt_stack_reader_error(a->detect, a->name, tt_reader_error(r));
			if (rc == -EIO)
				return rc;
			continue;
		}
		if (rec.type == TT_RECORD_DEVICE)
			add_device(a, rec.device);
		if (!tt_read_options_keep_device(a->ro, &rec))
			continue;
		a->feeding = &rec;
		tt_stack_feed(a->detect, &rec);
		li_summary_feed(&a->li, &rec);
		wl_summary_feed(&a->wl, &rec);
		a->feeding = NULL;
		if (a->window && tt_read_options_in_window(a->ro, &rec))
			tt_stack_feed(a->window, &rec);
	}
	return 0;
}

static int
start(struct analyze *a, struct tt_reader *r)
{
	const struct tt_model_callbacks cb = {
		.kernel_begin = on_kbegin,
		.kernel_update = on_kupdate,
		.kernel_end = on_kend,
		.frame = on_frame,
		.xi_end = on_xend,
	};
	int rc;

	a->detect = tt_stack_new(&a->opts, on_diag, a);
	tt_stack_subscribe(a->detect, &cb, a);
	if (tt_read_options_has_window(a->ro))
		a->window = tt_stack_new(&a->opts, NULL, NULL);
	tt_reader_set_warn(r, on_warn, a);
	li_summary_init(&a->li, a->detect);
	wl_summary_init(&a->wl, a->detect);
	rc = read_all(a, r);
	tt_stack_finish(a->detect);
	li_summary_finish(&a->li);
	wl_summary_finish(&a->wl);
	if (a->window)
		tt_stack_finish(a->window);
	return rc;
}

static int
run(struct analyze *a, const char *path, const char *plot_path)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_output_freep) struct tt_output *plot_out = NULL;
	const char *inputs[] = { path, a->ro->desc, NULL };
	const struct tt_stats *st;
	int rc, status;

	rc = tt_open_recording_opts(path, a->ro, &r);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	a->name = tt_reader_name(r);
	/* Opened before the reading, so a refused output costs no time. */
	if (plot_path && tt_output_open(plot_path, inputs, &plot_out) < 0)
		return TT_EXIT_TROUBLE;
	if (open_outputs(a, plot_path) < 0)
		return TT_EXIT_TROUBLE;
	rc = start(a, r);
	if (tt_read_options_finish(a->ro, r) < 0)
		return TT_EXIT_TROUBLE;
	st = tt_stack_stats(a->detect);
	if (tt_read_options_check_end(a->ro, a->name, st->have_time, st->last_us) != 0)
		return TT_EXIT_USAGE;
	report(a, r);
	status = tt_diag_filter_status(&a->filter);
	if (rc < 0 || (a->plot && write_plot(a, plot_out) < 0))
		status = TT_EXIT_TROUBLE;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tt_error("cannot write the report: %s", strerror(errno));
		status = TT_EXIT_TROUBLE;
	}
	return status;
}

/* Options that take a value and can fail; -1 after a usage error. */
static int
parse_value(struct analyze *a, int opt, const char *arg)
{
	int64_t v;

	switch (opt) {
	case OPT_JUMP:
		return parse_positive("--jump", arg, &a->opts.jump_mm);
	case OPT_JUMP_UNITS:
		return parse_positive("--jump-units", arg, &a->opts.jump_units);
	case OPT_WINDOW:
		if (tt_parse_duration_us(arg, &a->opts.link_window_us) < 0 || a->opts.link_window_us <= 0)
			return tt_usage_error("analyze", "--link-window takes a duration like 250ms, not '%s'", arg), -1;
		return 0;
	case OPT_IGNORE:
		if (tt_diag_filter_ignore(&a->filter, arg) < 0)
			return tt_usage_error("analyze", "--ignore: no diagnostic is called '%s'", arg), -1;
		return 0;
	case OPT_MAX:
		if (tt_parse_int64(arg, &v) < 0 || v < 0)
			return tt_usage_error("analyze", "--max takes a number, not '%s'", arg), -1;
		a->filter.max_per_kind = (size_t)v;
		return 0;
	default:
		return tt_usage_error("analyze", "unknown option"), -1;
	}
}

static void
analyze_free(struct analyze *a)
{
	for (size_t i = 0; i < a->ndevs; i++)
		free(a->devs[i].hist);
	if (a->touches) fclose(a->touches);
	if (a->xtouches) fclose(a->xtouches);
	if (a->anomalies) fclose(a->anomalies);
	tt_stack_free(a->detect);
	tt_stack_free(a->window);
	tt_plot_free(a->plot);
	li_summary_clear(&a->li);
	wl_summary_clear(&a->wl);
	free(a);
}

int
tt_cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'p' },
		{ "jump", required_argument, NULL, OPT_JUMP },
		{ "jump-units", required_argument, NULL, OPT_JUMP_UNITS },
		{ "no-link", no_argument, NULL, OPT_NO_LINK },
		{ "link-window", required_argument, NULL, OPT_WINDOW },
		{ "ignore", required_argument, NULL, OPT_IGNORE },
		{ "max", required_argument, NULL, OPT_MAX },
		{ "strict", no_argument, NULL, OPT_STRICT },
		TT_READ_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct analyze *a = tt_zalloc(sizeof(*a));
	const char *plot = NULL;
	struct tt_read_options ro;
	int opt, status, taken;

	a->opts.only_device = -1;
	a->opts.jump_mm = TT_DETECT_DEFAULT_JUMP_MM;
	a->filter.max_per_kind = TT_DIAG_DEFAULT_MAX;
	optind = 1;
	status = -1;
	tt_read_options_init(&ro, "analyze", TT_READ_ALL);
	a->ro = &ro;
	while (status < 0 && (opt = getopt_long(argc, argv, "jp:h" TT_READ_SHORT_OPTIONS, opts, NULL)) != -1) {
		if ((taken = tt_read_option(&ro, opt, optarg)) != 0) {
			if (taken != 1)
				status = taken;
			continue;
		}
		switch (opt) {
		case 'j': a->json = true; break;
		case 'p': plot = optarg; break;
		case OPT_NO_LINK: a->opts.no_link = true; break;
		case OPT_STRICT: a->filter.strict = true; break;
		case 'h': usage(stdout); status = TT_EXIT_OK; break;
		default:
			if (parse_value(a, opt, optarg) < 0)
				status = TT_EXIT_USAGE;
			break;
		}
	}
	if (status < 0 && optind != argc - 1)
		status = tt_usage_error("analyze", optind >= argc ? "no file given" : "one file at a time");
	if (status < 0 && tt_read_options_check(&ro) != 0)
		status = TT_EXIT_USAGE;
	if (status < 0 && ro.ndevices)
		a->opts.only_device = ro.devices[0];
	if (status < 0)
		status = run(a, argv[optind], plot);
	tt_read_options_clear(&ro);
	analyze_free(a);
	return status;
}
