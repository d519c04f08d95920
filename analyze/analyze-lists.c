/* SPDX-License-Identifier: MIT */
/* touchtape analyze: the lists streamed during the pass, as text or
 * JSON: the anomalies, the kernel touches, the XI touches. */
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
#include "util-strings.h"

void
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

void
anomaly_text(struct analyze *a, const struct tt_diag *d)
{
	FILE *o = a->anomalies;
	char ts[32];

	fprintf(o, "  %s:", a->name);
	if (d->line)
		fprintf(o, "%zu:", d->line);
	/* What the reader says has a line, no time (nor device). */
	if (d->check == TT_CHECK_READER_WARNING || d->check == TT_CHECK_BAD_LINE) {
		fprintf(o, " %s: %s [%s]\n", tt_severity_name(d->severity), d->message, tt_check_name(d->check));
		return;
	}
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

void
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
	if (a->plot) {
		ts->plot.duration_us = t->end_us - t->begin_us;
		tt_plot_path_end(a->plot, TT_PLOT_KERNEL, t->device, t->serial, &ts->plot);
	}
}

void
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

void
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
