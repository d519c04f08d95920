/* SPDX-License-Identifier: MIT */
/* touchtape analyze: per-device and per-touch numbers and the anomalies a
 * driver developer looks for, in one streaming pass over any recording. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "commands.h"
#include "evnames.h"
#include "log.h"
#include "model.h"
#include "model-json.h"
#include "model-plot.h"
#include "output.h"
#include "read-options.h"
#include "reader.h"
#include "util-strings.h"

#define ANALYZE_VERSION 1
/* libinput's touchpad jump detection (tp_detect_jumps) calls a movement
 * of more than 20 mm within one ~12 ms frame a jump. */
#define DEFAULT_JUMP_MM 20.0
/* Frame intervals are kept as a histogram of 10 us buckets up to 100 ms:
 * bounded memory, percentiles exact to 10 us. */
#define HIST_BUCKET_US 10
#define HIST_BUCKETS 10000

struct dev_stats {
	bool used;
	uint32_t id;
	const struct tt_device *dev;
	bool selected;
	bool mm;
	uint64_t frames, events, touches, dropped;
	int64_t first_us, last_us;
	bool have_time;
	uint32_t max_touches;
	uint32_t prev_count;
	int64_t neutral_us;
	uint32_t *hist;		/* frame intervals while touching */
	uint64_t nintervals, over;
	double sum, sumsq;
	uint8_t slots_used[TT_BITMAP_BYTES(TT_MAX_SLOTS)];
	uint8_t keys[TT_BITMAP_BYTES(KEY_CNT)];
	bool mismatch;		/* button/slot disagreement being reported */
	/* Type A flicker: the last two frames with contact content. */
	uint32_t cnt1, cnt2;
	size_t line1;
	int64_t t1;
	int nseen;
	/* SYN_DROPPED gap in progress */
	bool in_drop;
	int64_t drop_us;
	size_t drop_line;
};

struct touch_stats {
	double path, max_step;
	int32_t last_x, last_y;
	int32_t pmin, pmax, smin, smax;
	struct tt_plot_path plot;
};

struct analyze {
	const char *name;
	bool json;
	int64_t only_device;	/* -1: all */
	double jump;		/* threshold, mm (or device units without resolution) */
	double jump_units;	/* threshold for devices without resolution, 0 = off */
	struct dev_stats devs[TT_MAX_DEVICES];
	size_t ndevs;
	FILE *touches;		/* formatted per-touch output, streamed */
	FILE *xtouches;
	FILE *anomalies;
	uint64_t ntouches, nxtouches, nanomalies, nlinked;
	struct tt_plot *plot;
	struct tt_checker *checker;
	int64_t first_us, last_us;
	bool have_time;
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

static void
see_time(struct analyze *a, int64_t t)
{
	if (!a->have_time || t < a->first_us)
		a->first_us = t;
	if (!a->have_time || t > a->last_us)
		a->last_us = t;
	a->have_time = true;
}

/* ---- anomalies ---- */

struct anomaly {
	const char *kind;
	size_t line;
	int64_t time_us;
	int64_t device;		/* evdev record id, XI device id, or -1 */
	int64_t slot;		/* -1 when none */
	int64_t tracking_id;	/* kernel tracking ID, -1 */
	int64_t touchid;	/* XI touch id, -1 */
	const char *client;
};

static void
anomaly(struct analyze *a, const struct anomaly *an, const char *fmt, ...) _printf_(3, 4);

static void
anomaly(struct analyze *a, const struct anomaly *an, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	FILE *o = a->anomalies;

	if (an->device >= 0 && a->only_device >= 0 && an->device != a->only_device &&
	    an->touchid < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (a->json) {
		fprintf(o, "%s{\"kind\":", a->nanomalies ? ",\n  " : "\n  ");
		tt_json_string(o, an->kind);
		fprintf(o, ",\"line\":%zu,\"time_s\":", an->line);
		tt_json_double(o, secs(an->time_us), 6);
		fprintf(o, ",\"device\":%" PRId64 ",\"slot\":%" PRId64 ",\"tracking_id\":%" PRId64
			",\"touchid\":%" PRId64 ",\"client\":",
			an->device, an->slot, an->tracking_id, an->touchid);
		tt_json_string(o, an->client);
		fprintf(o, ",\"message\":");
		tt_json_string(o, msg);
		fputc('}', o);
	} else {
		char ts[32];
		fprintf(o, "  %s:%zu: %s s", a->name, an->line, tt_format_time(ts, sizeof(ts), an->time_us));
		if (an->device >= 0)
			fprintf(o, " %s %" PRId64, an->touchid >= 0 ? "XI device" : "device", an->device);
		if (an->slot >= 0)
			fprintf(o, " slot %" PRId64, an->slot);
		if (an->tracking_id >= 0)
			fprintf(o, " tracking ID %" PRId64, an->tracking_id);
		if (an->touchid >= 0)
			fprintf(o, " touch %" PRId64, an->touchid);
		if (an->client && *an->client)
			fprintf(o, " [%s]", an->client);
		fprintf(o, ": %s [%s]\n", msg, an->kind);
	}
	a->nanomalies++;
}

/* Anomalies about a device, a kernel touch, an XI touch. */
#define AN(k, l, t, d) (&(struct anomaly){ .kind = (k), .line = (l), .time_us = (t), .device = (d), \
	.slot = -1, .tracking_id = -1, .touchid = -1, .client = NULL })
#define AK(k, l, t, d, s, id) (&(struct anomaly){ .kind = (k), .line = (l), .time_us = (t), .device = (d), \
	.slot = (s), .tracking_id = (id), .touchid = -1, .client = NULL })
#define AX(k, l, t, d, id, c) (&(struct anomaly){ .kind = (k), .line = (l), .time_us = (t), .device = (d), \
	.slot = -1, .tracking_id = -1, .touchid = (id), .client = (c) })

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct analyze *a = data;

	/* SYN_DROPPED is reported with its gap by on_frame. */
	if (d->check == TT_CHECK_SYN_DROPPED)
		return;
	/* The anomaly names the device already. */
	const char *msg = d->message;
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "device %" PRId64 ": ", d->device);
	if (strncmp(msg, prefix, strlen(prefix)) == 0)
		msg += strlen(prefix);
	anomaly(a, AN(tt_check_name(d->check), d->line, d->time_us, d->device), "%s", msg);
}

/* ---- kernel touches ---- */

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, t->device);
	struct touch_stats *ts = tt_zalloc(sizeof(*ts));

	t->user = ts;
	ts->last_x = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	ts->last_y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	ts->pmin = ts->pmax = t->values[TT_AXIS(ABS_MT_PRESSURE)];
	ts->smin = ts->smax = t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)];
	if (s) {
		s->touches++;
		if (t->slot >= 0 && t->slot < (int32_t)TT_MAX_SLOTS)
			set_bit(s->slots_used, (unsigned)t->slot);
	}
	if (a->plot)
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
	if (x == ts->last_x && y == ts->last_y) {
		if (a->plot)	/* pressure alone changed: the touch panel shows it */
			tt_plot_path_sample(&ts->plot, t, u->time_us, false);
		return;
	}
	double step = tt_model_distance(s->dev, (double)x - ts->last_x, (double)y - ts->last_y);
	double limit = s->mm ? a->jump : a->jump_units;
	bool jump = limit > 0 && step > limit;
	ts->path += step;
	if (step > ts->max_step)
		ts->max_step = step;
	if (jump)
		anomaly(a, AK("jump", u->line, u->time_us, t->device, t->slot, t->tracking_id),
			"moved %.1f %s in one frame (threshold %.1f)", step, s->mm ? "mm" : "units", limit);
	ts->last_x = x;
	ts->last_y = y;
	if (a->plot)
		tt_plot_path_sample(&ts->plot, t, u->time_us, jump);
}

static void
print_range(struct analyze *a, const char *key, bool has, int32_t lo, int32_t hi)
{
	if (a->json) {
		fprintf(a->touches, ",\"%s\":", key);
		if (has)
			fprintf(a->touches, "[%d,%d]", lo, hi);
		else
			fputs("null", a->touches);
	} else if (has) {
		fprintf(a->touches, ", %s %d-%d", key, lo, hi);
	}
}

static void
report_touch(struct analyze *a, struct tt_ktouch *t, struct touch_stats *ts, struct dev_stats *s)
{
	FILE *o = a->touches;
	double bx, by, ex, ey;
	char b[32], e[32];

	if (t->flags & TT_KTOUCH_ACTIVE_AT_END)
		anomaly(a, AK("touch-active-at-end", t->begin_line, t->begin_us, t->device, t->slot, t->tracking_id),
			"touch is still down at the end of the recording");
	if (t->link == TT_LINK_NOT_DELIVERED)
		anomaly(a, AK("not-delivered", t->begin_line, t->begin_us, t->device, t->slot, t->tracking_id),
			"the X server delivered no touch sequence for this touch");
	if (t->link == TT_LINK_LINKED)
		a->nlinked++;
	bool has_p = tt_device_has(s->dev, EV_ABS, ABS_MT_PRESSURE) ||
		     (!tt_device_has(s->dev, EV_ABS, ABS_MT_POSITION_X) && tt_device_has(s->dev, EV_ABS, ABS_PRESSURE));
	bool has_s = tt_device_has(s->dev, EV_ABS, ABS_MT_TOUCH_MAJOR);
	tt_model_position(s->dev, t->begin_x, t->begin_y, &bx, &by);
	tt_model_position(s->dev, t->values[TT_AXIS(ABS_MT_POSITION_X)],
			  t->values[TT_AXIS(ABS_MT_POSITION_Y)], &ex, &ey);
	if (a->json) {
		fprintf(o, "%s{\"device\":%u,\"slot\":%d,\"tracking_id\":%d,\"synthetic_id\":%s,"
			"\"begin_s\":", a->ntouches ? ",\n  " : "\n  ", t->device, t->slot, t->tracking_id,
			(t->flags & TT_KTOUCH_SYNTHETIC_ID) ? "true" : "false");
		tt_json_double(o, secs(t->begin_us), 6);
		fputs(",\"end_s\":", o);
		tt_json_double(o, secs(t->end_us), 6);
		fputs(",\"duration_s\":", o);
		tt_json_double(o, secs(t->end_us - t->begin_us), 6);
		fprintf(o, ",\"begin_line\":%zu,\"end_line\":%zu,\"frames\":%" PRIu64 ",\"units\":\"%s\",\"start\":[",
			t->begin_line, t->end_line, t->nframes, s->mm ? "mm" : "device");
		tt_json_double(o, bx, 3); fputc(',', o); tt_json_double(o, by, 3);
		fputs("],\"end\":[", o);
		tt_json_double(o, ex, 3); fputc(',', o); tt_json_double(o, ey, 3);
		fputs("],\"path_length\":", o);
		tt_json_double(o, ts->path, 3);
		fputs(",\"max_step\":", o);
		tt_json_double(o, ts->max_step, 3);
		print_range(a, "pressure", has_p, ts->pmin, ts->pmax);
		print_range(a, "touch_major", has_s, ts->smin, ts->smax);
		fprintf(o, ",\"began_before_start\":%s,\"active_at_end\":%s,\"link\":\"%s\",\"xi\":",
			(t->flags & TT_KTOUCH_BEFORE_START) ? "true" : "false",
			(t->flags & TT_KTOUCH_ACTIVE_AT_END) ? "true" : "false", tt_link_status_name(t->link));
		if (t->link == TT_LINK_LINKED) {
			fprintf(o, "{\"deviceid\":%d,\"touchid\":%u,\"line\":%zu,\"latency_ms\":", t->xi_deviceid,
				t->xi_touchid, t->xi_begin_line);
			tt_json_double(o, (double)(t->xi_begin_us - t->begin_us) / 1000.0, 3);
			fprintf(o, ",\"emulating_pointer\":%s}", !t->xi_emulating_known ? "null" :
				t->xi_emulating_pointer ? "true" : "false");
		} else {
			fputs("null", o);
		}
		fputc('}', o);
	} else {
		const char *u = s->mm ? "mm" : "units";
		fprintf(o, "  device %u slot %d tracking ID %d%s: %s-%s s (%.3f s, %" PRIu64 " frames), "
			"(%.1f, %.1f) -> (%.1f, %.1f) %s, path %.1f %s, max step %.1f %s",
			t->device, t->slot, t->tracking_id, (t->flags & TT_KTOUCH_SYNTHETIC_ID) ? "*" : "",
			tt_format_time(b, sizeof(b), t->begin_us), tt_format_time(e, sizeof(e), t->end_us),
			secs(t->end_us - t->begin_us), t->nframes, bx, by, ex, ey, u, ts->path, u,
			ts->max_step, u);
		print_range(a, "pressure", has_p, ts->pmin, ts->pmax);
		print_range(a, "size", has_s, ts->smin, ts->smax);
		if (t->link == TT_LINK_LINKED)
			fprintf(o, ", XI device %d touch %u after %.3f ms%s", t->xi_deviceid, t->xi_touchid,
				(double)(t->xi_begin_us - t->begin_us) / 1000.0,
				t->xi_emulating_pointer ? " (emulating pointer)" : "");
		else if (t->link == TT_LINK_NOT_DELIVERED)
			fputs(", not delivered by X", o);
		if (t->flags & TT_KTOUCH_BEFORE_START)
			fputs(", down before the recording started", o);
		if (t->flags & TT_KTOUCH_ACTIVE_AT_END)
			fputs(", still down at the end", o);
		fputc('\n', o);
	}
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

	if (ts && s && s->selected)
		report_touch(a, t, ts, s);
	if (ts)
		tt_plot_path_release(&ts->plot);
	free(ts);
	t->user = NULL;
}

/* ---- frames ---- */

static const unsigned int tool_codes[] = {
	BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
};

/* BTN_TOUCH and BTN_TOOL_* against the touches down. Touchpads with fewer
 * slots than fingers report more fingers than slots: allowed when every
 * slot is in use. */
static bool
buttons_disagree(const struct dev_stats *s, uint32_t n, char *why, size_t size)
{
	const struct tt_device *dev = s->dev;
	uint32_t capacity = dev->mt_protocol == TT_MT_B ? dev->num_slots : UINT32_MAX;

	if (tt_device_has(dev, EV_KEY, BTN_TOUCH) && bit_is_set(s->keys, BTN_TOUCH) != (n > 0)) {
		snprintf(why, size, "BTN_TOUCH is %d with %u touches down", bit_is_set(s->keys, BTN_TOUCH) ? 1 : 0, n);
		return true;
	}
	for (unsigned int i = 0; i < ARRAY_LENGTH(tool_codes); i++) {
		if (!tt_device_has(dev, EV_KEY, tool_codes[i]) || !bit_is_set(s->keys, tool_codes[i]))
			continue;
		uint32_t fingers = i + 1;
		bool ok = fingers == n || (fingers > n && n >= capacity) ||
			  (i == ARRAY_LENGTH(tool_codes) - 1 && n > fingers);
		if (!ok) {
			snprintf(why, size, "%s is set with %u touches down", tt_code_name(EV_KEY, tool_codes[i]), n);
			return true;
		}
		return false;
	}
	bool any_tool = false;
	for (unsigned int i = 0; i < ARRAY_LENGTH(tool_codes); i++)
		any_tool |= tt_device_has(dev, EV_KEY, tool_codes[i]);
	if (any_tool && n > 0 && !bit_is_set(s->keys, BTN_TOOL_PEN) && !bit_is_set(s->keys, BTN_TOOL_RUBBER)) {
		snprintf(why, size, "no BTN_TOOL_* is set with %u touches down", n);
		return true;
	}
	return false;
}

static bool
has_contact_content(const struct tt_frame *f)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if ((e->type == EV_SYN && e->code == SYN_MT_REPORT) ||
		    (e->type == EV_ABS && e->code >= TT_MT_FIRST && e->code <= TT_MT_LAST))
			return true;
	}
	return false;
}

static void
check_flicker(struct analyze *a, struct dev_stats *s, const struct tt_frame *f, size_t line, uint32_t n)
{
	if (s->dev->mt_protocol != TT_MT_A || !has_contact_content(f))
		return;
	if (s->nseen >= 2 && s->cnt2 == n && s->cnt1 != n)
		anomaly(a, AN("contact-count-flicker", s->line1, s->t1, s->id),
			"Type A contact count went %u -> %u -> %u in consecutive frames", s->cnt2, s->cnt1, n);
	s->cnt2 = s->cnt1;
	s->cnt1 = n;
	s->line1 = line;
	s->t1 = f->time_us;
	s->nseen++;
}

static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, dev->id);
	char why[128];

	if (!s)
		return;
	see_time(a, f->time_us);
	if (s->in_drop && !(f->flags & TT_FRAME_DROPPED)) {
		anomaly(a, AN("syn-dropped", s->drop_line, s->drop_us, s->id),
			"the kernel dropped events (SYN_DROPPED); %.3f ms until the next frame",
			(double)(f->time_us - s->drop_us) / 1000.0);
		s->in_drop = false;
	}
	if ((f->flags & TT_FRAME_DROPPED) && !s->in_drop) {
		s->dropped++;
		s->in_drop = true;
		s->drop_us = f->time_us;
		s->drop_line = line;
	}
	s->frames++;
	s->events += f->nevents;
	if (s->have_time) {
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
		}
	} else {
		s->first_us = f->time_us;
	}
	s->have_time = true;
	s->last_us = f->time_us;
	if (n > s->max_touches)
		s->max_touches = n;
	if (a->plot && n != s->prev_count)
		tt_plot_count(a->plot, s->id, f->time_us, n);
	s->prev_count = n;

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_KEY && e->code < KEY_CNT) {
			if (e->value)
				set_bit(s->keys, e->code);
			else
				clear_bit(s->keys, e->code);
		}
	}
	if (dev->mt_protocol != TT_MT_NONE && !(f->flags & (TT_FRAME_DROPPED | TT_FRAME_INCOMPLETE))) {
		if (buttons_disagree(s, n, why, sizeof(why))) {
			if (!s->mismatch)
				anomaly(a, AN("button-state-mismatch", line, f->time_us, s->id), "%s", why);
			s->mismatch = true;
		} else {
			s->mismatch = false;
		}
	}
	check_flicker(a, s, f, line, n);
}

/* ---- XI touches ---- */

static void
on_xend(void *data, struct tt_xtouch *t)
{
	struct analyze *a = data;
	FILE *o = a->xtouches;
	char b[32], e[32];

	if (t->flags & TT_XTOUCH_ACTIVE_AT_END)
		anomaly(a, AX("xi-touch-never-ended", t->begin_line, t->begin_us, t->deviceid, t->touchid, t->client),
			"the XI %stouch sequence never ended", (t->flags & TT_XTOUCH_RAW) ? "raw " : "");
	if (t->outcome == TT_OWN_UNRESOLVED)
		anomaly(a, AX("ownership-unresolved", t->begin_line, t->begin_us, t->deviceid, t->touchid, t->client),
			"ownership was never resolved (not owned, accepted or rejected by the end)");
	if (a->json) {
		fprintf(o, "%s{\"deviceid\":%d,\"sourceid\":%d,\"touchid\":%u,\"client\":",
			a->nxtouches ? ",\n  " : "\n  ", t->deviceid, t->sourceid, t->touchid);
		tt_json_string(o, t->client);
		fprintf(o, ",\"raw\":%s,\"begin_s\":", (t->flags & TT_XTOUCH_RAW) ? "true" : "false");
		tt_json_double(o, secs(t->begin_us), 6);
		fputs(",\"end_s\":", o);
		tt_json_double(o, secs(t->end_us), 6);
		fprintf(o, ",\"begin_line\":%zu,\"end_line\":%zu,\"updates\":%" PRIu64 ",\"outcome\":\"%s\",\"owned_s\":",
			t->begin_line, t->end_line, t->nupdates, tt_own_outcome_name(t->outcome));
		if (t->owned_us >= 0)
			tt_json_double(o, secs(t->owned_us), 6);
		else
			fputs("null", o);
		fputs(",\"resolved_s\":", o);
		if (t->resolved_us >= 0)
			tt_json_double(o, secs(t->resolved_us), 6);
		else
			fputs("null", o);
		fprintf(o, ",\"began_unowned\":%s,\"emulating_pointer\":%s,\"pending_end\":%s,\"active_at_end\":%s}",
			(t->flags & TT_XTOUCH_BEGAN_UNOWNED) ? "true" : "false",
			(t->flags & TT_XTOUCH_EMULATING_POINTER) ? "true" : "false",
			(t->flags & TT_XTOUCH_PENDING_END) ? "true" : "false",
			(t->flags & TT_XTOUCH_ACTIVE_AT_END) ? "true" : "false");
	} else {
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
	a->nxtouches++;
}

/* ---- output ---- */

static double
percentile(const struct dev_stats *s, double q)
{
	uint64_t want = (uint64_t)ceil(q * (double)s->nintervals);
	uint64_t seen = 0;

	if (want < 1)
		want = 1;
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		seen += s->hist[i];
		if (seen >= want)
			return (double)(i * HIST_BUCKET_US) / 1000.0;
	}
	return NAN;	/* beyond 100 ms */
}

static void
slots_text(FILE *o, const struct dev_stats *s, bool json)
{
	bool first = true;

	for (unsigned int i = 0; i < TT_MAX_SLOTS; i++) {
		if (!bit_is_set(s->slots_used, i))
			continue;
		fprintf(o, json ? "%s%u" : "%s%u", first ? "" : json ? "," : " ", i);
		first = false;
	}
	if (first && !json)
		fputs("none", o);
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
print_device(struct analyze *a, const struct dev_stats *s, bool first)
{
	int64_t dur = s->have_time ? s->last_us - s->first_us : 0;
	double median = s->nintervals ? percentile(s, 0.5) : NAN;
	double mean = s->nintervals ? s->sum / (double)s->nintervals : NAN;
	double sd = s->nintervals ? sqrt(fmax(0, s->sumsq / (double)s->nintervals - mean * mean)) : NAN;
	double neutral = dur > 0 ? (double)s->neutral_us / (double)dur : NAN;

	if (a->json) {
		printf("%s{\"id\":%u,\"name\":", first ? "\n  " : ",\n  ", s->id);
		tt_json_string(stdout, s->dev->name);
		printf(",\"mt_protocol\":\"%s\",\"units\":\"%s\",\"duration_s\":", protocol_name(s->dev),
		       s->mm ? "mm" : "device");
		tt_json_double(stdout, secs(dur), 6);
		printf(",\"frames\":%" PRIu64 ",\"events\":%" PRIu64 ",\"frame_interval_ms\":{\"count\":%" PRIu64
		       ",\"median\":", s->frames, s->events, s->nintervals);
		tt_json_double(stdout, median, 3);
		printf(",\"p5\":");
		tt_json_double(stdout, s->nintervals ? percentile(s, 0.05) : NAN, 3);
		printf(",\"p95\":");
		tt_json_double(stdout, s->nintervals ? percentile(s, 0.95) : NAN, 3);
		printf(",\"mean\":");
		tt_json_double(stdout, mean / 1000.0, 3);
		printf(",\"stddev\":");
		tt_json_double(stdout, sd / 1000.0, 3);
		printf("},\"frame_rate_hz\":");
		tt_json_double(stdout, median > 0 ? 1000.0 / median : NAN, 2);
		printf(",\"slots_used\":[");
		slots_text(stdout, s, true);
		printf("],\"max_touches\":%u,\"touch_sequences\":%" PRIu64 ",\"syn_dropped\":%" PRIu64
		       ",\"neutral_share\":", s->max_touches, s->touches, s->dropped);
		tt_json_double(stdout, neutral, 4);
		printf("}");
		return;
	}
	printf("device %u \"%s\": MT protocol %s, distances in %s\n", s->id, s->dev->name,
	       protocol_name(s->dev), s->mm ? "mm" : "device units (no resolution)");
	printf("  %.3f s, %" PRIu64 " frames, %" PRIu64 " events\n", secs(dur), s->frames, s->events);
	if (s->nintervals)
		printf("  frame interval while touching: median %.2f ms (%.1f Hz), p5 %.2f ms, p95 %.2f ms, "
		       "mean %.3f ms, jitter (stddev) %.3f ms, %" PRIu64 " intervals\n", median,
		       median > 0 ? 1000.0 / median : 0.0, percentile(s, 0.05), percentile(s, 0.95),
		       mean / 1000.0, sd / 1000.0, s->nintervals);
	printf("  touch sequences %" PRIu64 ", max simultaneous %u, slots used: ", s->touches, s->max_touches);
	slots_text(stdout, s, false);
	printf("\n  SYN_DROPPED %" PRIu64 ", no touch down %.1f%% of the time\n", s->dropped,
	       isfinite(neutral) ? neutral * 100.0 : 100.0);
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
report(struct analyze *a, const struct tt_reader *r)
{
	bool first = true;

	if (a->json) {
		printf("{\"analyze_version\":%d,\"file\":", ANALYZE_VERSION);
		tt_json_string(stdout, a->name);
		printf(",\"format\":\"%s\",\"duration_s\":", tt_file_format_name(tt_reader_format(r)));
		tt_json_double(stdout, a->have_time ? secs(a->last_us - a->first_us) : 0, 6);
		printf(",\"jump_threshold_mm\":");
		tt_json_double(stdout, a->jump, 3);
		printf(",\"devices\":[");
	} else {
		printf("%s: %s, %.3f s\n", a->name, tt_file_format_name(tt_reader_format(r)),
		       a->have_time ? secs(a->last_us - a->first_us) : 0.0);
	}
	for (size_t i = 0; i < a->ndevs; i++) {
		if (!a->devs[i].used || !a->devs[i].selected)
			continue;
		print_device(a, &a->devs[i], first);
		first = false;
	}
	if (a->json) {
		printf("],\n\"touches\":[");
		copy_out(a->touches);
		printf("],\n\"xi_touches\":[");
		copy_out(a->xtouches);
		printf("],\n\"anomalies\":[");
		copy_out(a->anomalies);
		printf("],\n\"summary\":{\"touch_sequences\":%" PRIu64 ",\"xi_touch_sequences\":%" PRIu64
		       ",\"linked\":%" PRIu64 ",\"anomalies\":%" PRIu64 "}}\n",
		       a->ntouches, a->nxtouches, a->nlinked, a->nanomalies);
		return;
	}
	printf("touch sequences (* = numbered by touchtape):\n");
	copy_out(a->touches);
	if (a->nxtouches) {
		printf("XI touch sequences:\n");
		copy_out(a->xtouches);
	}
	printf("anomalies:\n");
	copy_out(a->anomalies);
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
	s->selected = a->only_device < 0 || a->only_device == (int64_t)dev->id;
	s->mm = tt_model_has_mm(dev);
	s->hist = tt_zalloc(HIST_BUCKETS * sizeof(*s->hist));
	memcpy(s->keys, dev->keys_down, sizeof(s->keys));
	if (a->plot && s->selected)
		tt_plot_add_device(a->plot, dev);
}

static void
on_warn(void *data, const char *message)
{
	(void)data;
	tt_warning("%s", message);
}

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape analyze [OPTIONS] FILE\n"
		"\n"
		"Reads a recording (touchtape timeline, evemu or libinput record) in one\n"
		"streaming pass and prints, per device, the frame rate, touches and time\n"
		"without touches; per touch sequence its times, positions, path, largest\n"
		"per-frame movement, pressure and size, and with XI data the XI touch it\n"
		"became, its kernel-to-X latency and ownership outcome; and the anomalies,\n"
		"each with time, device, slot or touch and line in the file.\n"
		"\n"
		"Options:\n"
		"  -j, --json          machine-readable output (see touchtape-analyze(1))\n"
		"  -d, --device ID     only the evdev device with this record id\n"
		"  -p, --plot OUT.svg  draw trajectories (axes in mm), touches over time, and\n"
		"                      x, y and pressure over time per touch (written beside OUT.svg\n"
		"                      and renamed into place)\n"
		"      --desc FILE     the device description of an events-only evemu file\n"
		"      --jump MM       per-frame movement that counts as a jump (default %.0f mm,\n"
		"                      libinput's touchpad jump threshold)\n"
		"      --jump-units N  the same for devices without resolution, in device\n"
		"                      units (default: off)\n"
		"      --no-link       do not pair kernel touches with XI touches\n"
		"      --link-window T how long after a kernel touch its XI touch may begin\n"
		"                      (default 250ms)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when no anomalies were found, 1 when some were (bad lines\n"
		"too), 2 on bad usage, a file that cannot be read or a plot not written.\n"
		"\n"
		"Examples:\n"
		"  touchtape analyze bug-1234.jsonl\n"
		"  touchtape analyze --json --device 3 recording.jsonl | jq .anomalies\n"
		"  touchtape analyze --plot touches.svg touchpad.evemu\n",
		DEFAULT_JUMP_MM);
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
write_plot(struct analyze *a, struct tt_output *out)
{
	FILE *f = tt_output_stream(out);

	if (!f || tt_plot_write(a->plot, f, a->first_us, a->last_us) < 0) {
		tt_error("%s: cannot write the plot: %s", tt_output_name(out), strerror(errno));
		return -EIO;
	}
	return tt_output_commit(out);
}

static int
run(struct analyze *a, const char *path, const struct tt_read_options *ro, const char *plot_path, bool link,
    int64_t window)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_model_freep) struct tt_model *m = NULL;
	_cleanup_(tt_output_freep) struct tt_output *plot_out = NULL;
	const char *inputs[] = { path, ro->desc, NULL };
	struct tt_record rec;
	int rc, status = TT_EXIT_OK;
	const struct tt_model_callbacks cb = {
		.kernel_begin = on_kbegin,
		.kernel_update = on_kupdate,
		.kernel_end = on_kend,
		.frame = on_frame,
		.xi_end = on_xend,
	};

	rc = tt_open_recording_opts(path, ro, &r);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	a->name = tt_reader_name(r);
	tt_reader_set_warn(r, on_warn, a);
	/* Opened before the reading, so a refused output costs no time. */
	if (plot_path && tt_output_open(plot_path, inputs, &plot_out) < 0)
		return TT_EXIT_TROUBLE;
	a->touches = tmpfile();
	a->xtouches = tmpfile();
	a->anomalies = tmpfile();
	if (!a->touches || !a->xtouches || !a->anomalies) {
		tt_error("cannot create a temporary file: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	if (plot_path && !(a->plot = tt_plot_new())) {
		tt_error("cannot create a temporary file: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	m = tt_model_new(&cb, a);
	tt_model_set_link(m, link, window, 0);
	a->checker = tt_checker_new(on_diag, a);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			/* An error of the file, not a finding: on stderr like
			 * every command's, and in the report. */
			tt_error("%s", tt_reader_error(r));
			anomaly(a, AN("bad-line", tt_reader_line(r), 0, -1), "%s", tt_reader_error(r));
			if (rc == -EIO) {
				status = TT_EXIT_FAILURE;
				break;
			}
			continue;
		}
		if (rec.type == TT_RECORD_DEVICE)
			add_device(a, rec.device);
		if (!tt_read_options_keep(ro, &rec))
			continue;
		if (rec.type == TT_RECORD_XI_EVENT)
			see_time(a, rec.xi_event->time_us);
		tt_checker_feed(a->checker, &rec);
		tt_model_feed(m, &rec);
	}
	tt_checker_finish(a->checker);
	tt_model_finish(m);
	for (size_t i = 0; i < a->ndevs; i++) {
		struct dev_stats *s = &a->devs[i];
		if (s->used && s->in_drop)
			anomaly(a, AN("syn-dropped", s->drop_line, s->drop_us, s->id), "the kernel dropped events (SYN_DROPPED) at the end");
	}
	report(a, r);
	if (tt_read_options_finish(ro, r) < 0)
		return TT_EXIT_TROUBLE;
	if (a->plot && write_plot(a, plot_out) < 0)
		return TT_EXIT_TROUBLE;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tt_error("cannot write the report: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	if (status == TT_EXIT_OK && a->nanomalies)
		status = TT_EXIT_FAILURE;
	return status;
}

int
tt_cmd_analyze(int argc, char **argv)
{
	enum { OPT_JUMP = TT_OPT_FIRST_PRIVATE, OPT_JUMP_UNITS, OPT_NO_LINK, OPT_WINDOW };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'p' },
		{ "jump", required_argument, NULL, OPT_JUMP },
		{ "jump-units", required_argument, NULL, OPT_JUMP_UNITS },
		{ "no-link", no_argument, NULL, OPT_NO_LINK },
		{ "link-window", required_argument, NULL, OPT_WINDOW },
		TT_READ_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct analyze *a = tt_zalloc(sizeof(*a));
	const char *plot = NULL;
	struct tt_read_options ro;
	bool link = true;
	int64_t window = 0;
	int opt, status, taken;

	a->only_device = -1;
	a->jump = DEFAULT_JUMP_MM;
	optind = 1;
	status = -1;
	tt_read_options_init(&ro, "analyze", TT_READ_DEVICE);
	while (status < 0 && (opt = getopt_long(argc, argv, "jp:h" TT_READ_SHORT_OPTIONS, opts, NULL)) != -1) {
		if ((taken = tt_read_option(&ro, opt, optarg)) != 0) {
			if (taken != 1)
				status = taken;
			continue;
		}
		switch (opt) {
		case 'j': a->json = true; break;
		case 'p': plot = optarg; break;
		case OPT_JUMP:
			if (parse_positive("--jump", optarg, &a->jump) < 0)
				status = TT_EXIT_USAGE;
			break;
		case OPT_JUMP_UNITS:
			if (parse_positive("--jump-units", optarg, &a->jump_units) < 0)
				status = TT_EXIT_USAGE;
			break;
		case OPT_NO_LINK: link = false; break;
		case OPT_WINDOW:
			if (tt_parse_duration_us(optarg, &window) < 0 || window <= 0)
				status = tt_usage_error("analyze", "--link-window takes a duration like 250ms, not '%s'",
							optarg);
			break;
		case 'h': usage(stdout); status = TT_EXIT_OK; break;
		default: status = tt_usage_error("analyze", "unknown option"); break;
		}
	}
	if (status < 0 && optind != argc - 1)
		status = tt_usage_error("analyze", optind >= argc ? "no file given" : "one file at a time");
	if (status < 0 && ro.ndevices)
		a->only_device = ro.devices[0];
	if (status < 0)
		status = run(a, argv[optind], &ro, plot, link, window);
	tt_read_options_clear(&ro);

	for (size_t i = 0; i < a->ndevs; i++)
		free(a->devs[i].hist);
	if (a->touches) fclose(a->touches);
	if (a->xtouches) fclose(a->xtouches);
	if (a->anomalies) fclose(a->anomalies);
	tt_checker_free(a->checker);
	tt_plot_free(a->plot);
	free(a);
	return status;
}
