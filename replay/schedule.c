/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "log.h"
#include "schedule.h"
#include "util-mem.h"
#include "util-strings.h"

void
rp_options_init(struct rp_options *o)
{
	*o = (struct rp_options){
		.speed = 1.0,
		.from_us = INT64_MIN,
		.to_us = RP_NO_LIMIT,
		.max_gap_us = -1,
		.loops = 1,
	};
}

void
rp_schedule_free(struct rp_schedule *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nframes; i++)
		free(s->frames[i].events);
	free(s->frames);
	for (size_t i = 0; i < s->ndevices; i++)
		rp_state_release(&s->devices[i].start);
	free(s->devices);
	tt_reader_free(s->reader);
	free(s);
}

struct load_ctx {
	const char *name;
	FILE *err;
	const struct rp_options *o;
	size_t errors;
	size_t range_errors;
};

static void
on_diag(void *userdata, const struct tt_diag *d)
{
	struct load_ctx *ctx = userdata;

	/* A value outside absinfo is only a warning for validate (real
	 * devices do it), but the kernel would clamp nothing and clients
	 * would see values the device says it cannot produce: refused
	 * unless --force. */
	if (d->check == TT_CHECK_VALUE_RANGE) {
		ctx->range_errors++;
		if (ctx->o->force)
			return;
	} else if (d->severity != TT_SEV_ERROR) {
		return;
	}
	ctx->errors++;
	if (ctx->errors <= 20)
		fprintf(ctx->err, "%s:%zu: %s [%s]\n", ctx->name, d->line, d->message,
			tt_check_name(d->check));
}

static void
on_warn(void *userdata, const char *msg)
{
	struct load_ctx *ctx = userdata;
	fprintf(ctx->err, "%s\n", msg);
}

static bool
selected(const struct rp_options *o, uint32_t id)
{
	if (!o->device_ids)
		return true;
	for (size_t i = 0; i < o->ndevice_ids; i++) {
		if (o->device_ids[i] == id)
			return true;
	}
	return false;
}

static int
device_index(const struct rp_schedule *s, uint32_t id)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		if (s->devices[i].dev->id == id)
			return (int)i;
	}
	return -1;
}

static struct input_event *
frame_events(const struct tt_frame *f, uint32_t *n)
{
	bool has_syn = f->nevents && f->events[f->nevents - 1].type == EV_SYN &&
		       f->events[f->nevents - 1].code == SYN_REPORT;
	uint32_t count = f->nevents + (has_syn ? 0 : 1);
	struct input_event *ev = tt_reallocarray(NULL, count, sizeof(*ev));

	memset(ev, 0, count * sizeof(*ev));
	for (uint32_t i = 0; i < f->nevents; i++) {
		ev[i].type = f->events[i].type;
		ev[i].code = f->events[i].code;
		ev[i].value = f->events[i].value;
	}
	/* An incomplete frame (device gone mid-frame) still needs its end. */
	if (!has_syn)
		ev[count - 1] = (struct input_event){ .type = EV_SYN, .code = SYN_REPORT };
	*n = count;
	return ev;
}

static void
add_frame(struct rp_schedule *s, size_t *cap, const struct tt_frame *f, int idx, size_t line)
{
	struct rp_frame *rf;

	if (s->nframes == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		s->frames = tt_reallocarray(s->frames, *cap, sizeof(*s->frames));
	}
	rf = &s->frames[s->nframes++];
	rf->time_us = f->time_us;
	rf->dev = (uint32_t)idx;
	rf->flags = f->flags;
	rf->line = line;
	rf->events = frame_events(f, &rf->nevents);
}

static int
cmp_frames(const void *a, const void *b)
{
	const struct rp_frame *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Deadlines from the recording's times: offset = (t - base - removed) /
 * speed, where removed is what --max-gap took out of the idle gaps so far,
 * itself a sum of differences of recorded times. */
static void
compute_offsets(struct rp_schedule *s, const struct rp_options *o)
{
	int64_t base, prev, removed = 0;

	if (!s->nframes)
		return;
	qsort(s->frames, s->nframes, sizeof(*s->frames), cmp_frames);
	base = o->from_us != INT64_MIN ? o->from_us : s->frames[0].time_us;
	if (base > s->frames[0].time_us)
		base = s->frames[0].time_us;
	prev = base;
	for (size_t i = 0; i < s->nframes; i++) {
		struct rp_frame *f = &s->frames[i];
		int64_t gap = f->time_us - prev;

		if (o->max_gap_us >= 0 && gap > o->max_gap_us)
			removed += gap - o->max_gap_us;
		prev = f->time_us;
		f->offset_us = llround((double)(f->time_us - base - removed) / o->speed);
	}
	s->span_us = s->frames[s->nframes - 1].offset_us;
}

static int
check_keys(const struct rp_schedule *s, const struct load_ctx *ctx)
{
	int rc = 0;

	for (size_t i = 0; i < s->ndevices; i++) {
		const struct tt_device *d = s->devices[i].dev;
		if (!tt_device_has_typing_keys(d))
			continue;
		fprintf(ctx->err,
			"%s: device %" PRIu32 " \"%s\" can type keys: refusing to replay it "
			"(a recording could type commands into your session); "
			"use --allow-keys if you trust this file, or --device to leave it out\n",
			ctx->name, d->id, d->name);
		rc = -EINVAL;
	}
	return rc;
}

static void
note_dropped(struct rp_schedule *s, size_t line)
{
	if (s->ndropped < ARRAY_LENGTH(s->dropped_lines))
		s->dropped_lines[s->ndropped] = line;
	s->ndropped++;
}

static void
add_device(struct rp_schedule *s, const struct tt_device *dev)
{
	struct rp_device *rd;

	s->devices = tt_reallocarray(s->devices, s->ndevices + 1, sizeof(*s->devices));
	rd = &s->devices[s->ndevices++];
	rd->dev = dev;
	rp_state_init_recorded(&rd->start, dev);
}

static int
read_all(struct rp_schedule *s, struct load_ctx *ctx)
{
	const struct rp_options *o = ctx->o;
	struct tt_checker *c = tt_checker_new(on_diag, ctx);
	struct tt_record rec;
	size_t cap = 0;
	int rc;

	tt_reader_set_warn(s->reader, on_warn, ctx);
	while ((rc = tt_reader_next(s->reader, &rec)) != 0) {
		if (rc < 0) {
			ctx->errors++;
			fprintf(ctx->err, "%s\n", tt_reader_error(s->reader));
			if (rc == -EIO)
				break;
			continue;
		}
		tt_checker_feed(c, &rec);
		if (rec.type == TT_RECORD_DEVICE) {
			if (selected(o, rec.device->id) && device_index(s, rec.device->id) < 0)
				add_device(s, rec.device);
			continue;
		}
		if (rec.type != TT_RECORD_FRAME)
			continue;
		const struct tt_frame *f = rec.frame;
		int idx = device_index(s, f->device);
		if (idx < 0 || f->time_us > o->to_us)
			continue;
		if (f->flags & TT_FRAME_DROPPED) {
			note_dropped(s, rec.line);
			continue;
		}
		if (f->flags & TT_FRAME_RESYNC)
			s->nresync++;
		if (o->from_us != INT64_MIN && f->time_us < o->from_us) {
			/* Before --from: only the state it leaves matters. */
			uint32_t n;
			_cleanup_free_ struct input_event *ev = frame_events(f, &n);
			rp_state_apply(&s->devices[idx].start, ev, n);
			continue;
		}
		add_frame(s, &cap, f, idx, rec.line);
	}
	tt_checker_finish(c);
	tt_checker_free(c);
	return 0;
}

int
rp_schedule_load(const char *path, const struct rp_options *o, FILE *err,
		 struct rp_schedule **out)
{
	_cleanup_(rp_schedule_freep) struct rp_schedule *s = tt_zalloc(sizeof(*s));
	struct load_ctx ctx = { .name = path, .err = err, .o = o };
	int rc;

	_cleanup_free_ char *why = NULL;
	rc = tt_reader_open_why(path, &s->reader, &why);
	if (rc < 0) {
		fprintf(err, "%s: %s\n", tt_program_name, why ? why : path);
		return rc;
	}
	ctx.name = tt_reader_name(s->reader);
	if (o->desc)
		tt_reader_set_companion(s->reader, o->desc);
	read_all(s, &ctx);
	if (ctx.errors) {
		fprintf(err, "%s: %zu error%s: refusing to replay (nothing was created)%s\n",
			ctx.name, ctx.errors, ctx.errors == 1 ? "" : "s",
			ctx.range_errors == ctx.errors ?
			"; --force replays values outside absinfo anyway" : "");
		return -EINVAL;
	}
	if (o->device_ids) {
		for (size_t i = 0; i < o->ndevice_ids; i++) {
			if (device_index(s, o->device_ids[i]) < 0) {
				fprintf(err, "%s: no device with id %" PRIu32 " (see 'touchtape print')\n",
					ctx.name, o->device_ids[i]);
				return -ENOENT;
			}
		}
	}
	if (!s->ndevices) {
		fprintf(err, "%s: no evdev device to replay\n", ctx.name);
		return -EINVAL;
	}
	if (!o->allow_keys && (rc = check_keys(s, &ctx)) < 0)
		return rc;
	compute_offsets(s, o);
	*out = steal(&s);
	return 0;
}
