/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "evnames.h"
#include "kernel-model.h"
#include "keyguard.h"
#include "keymask.h"
#include "log.h"
#include "uinput-device.h"
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
	for (size_t i = 0; i < s->ndevices; i++) {
		rp_state_release(&s->devices[i].start);
		free(s->devices[i].own);	/* shallow: not tt_device_free() */
	}
	free(s->devices);
	free(s->left_out);
	tt_reader_free(s->reader);
	free(s);
}

struct load_ctx {
	const char *name;
	const struct tt_reader *reader;
	FILE *err;
	const struct rp_options *o;
	enum tt_record_type feeding;	/* the record the checker is given */
	size_t errors;			/* what refuses the file */
	bool read_stopped;		/* a read error ended the file early */
	/* Errors for validate that replay reproduces anyway: how many, the
	 * first of each kind, and why. */
	size_t tolerated[TT_CHECK_COUNT];
	struct tt_diag first_tolerated[TT_CHECK_COUNT];
	const char *why_tolerated[TT_CHECK_COUNT];
};

static const char *
severity_name(enum tt_severity sev)
{
	return sev == TT_SEV_ERROR ? "error" : "warning";
}

/* "FILE:LINE: error: message [kind]", as validate says it. */
static void
print_diag(const struct load_ctx *ctx, const struct tt_diag *d, const char *tail)
{
	const char *sev = severity_name(d->severity);

	if (d->line)
		fprintf(ctx->err, "%s:%zu: %s: %s [%s]%s\n", ctx->name, d->line, sev, d->message,
			tt_check_name(d->check), tail);
	else
		fprintf(ctx->err, "%s: %s: %s [%s]%s\n", ctx->name, sev, d->message,
			tt_check_name(d->check), tail);
}

/*
 * Replay refuses only what it cannot reproduce: an error about evdev
 * devices or frames (a frame out of time order the schedule cannot place,
 * a code or slot the created device cannot carry, a device declared
 * twice). Returns why an error is replayed anyway, or NULL.
 */
static const char *
tolerated(const struct load_ctx *ctx, const struct tt_diag *d)
{
	if (ctx->feeding != TT_RECORD_DEVICE && ctx->feeding != TT_RECORD_FRAME)
		return "replay writes evdev frames only";
	if (d->check == TT_CHECK_TRACKING_ID_REUSED)
		return "uinput passes tracking IDs to clients as written";
	return NULL;
}

static void
on_diag(void *userdata, const struct tt_diag *d)
{
	struct load_ctx *ctx = userdata;
	const char *why;

	/* Warnings do not stop a replay: values outside absinfo are
	 * counted per device as they are scheduled (count_outside()), and
	 * SYN_DROPPED frames are said apart. */
	if (d->severity != TT_SEV_ERROR)
		return;
	/* Codes the description lacks: the schedule adds those the kernel
	 * can create and refuses the others (add_undeclared()), for the
	 * devices it replays. */
	if (d->check == TT_CHECK_UNSUPPORTED_CODE)
		return;
	why = tolerated(ctx, d);
	if (why && d->check < TT_CHECK_COUNT) {
		if (ctx->tolerated[d->check]++ == 0) {
			ctx->first_tolerated[d->check] = *d;
			ctx->why_tolerated[d->check] = why;
		}
		return;
	}
	if (++ctx->errors <= 20)
		print_diag(ctx, d, "");
}

static void
print_tolerated(const struct load_ctx *ctx)
{
	for (size_t k = 0; k < TT_CHECK_COUNT; k++) {
		char tail[160];

		if (!ctx->tolerated[k])
			continue;
		snprintf(tail, sizeof(tail), " (%zu in all): replayed anyway: %s",
			 ctx->tolerated[k], ctx->why_tolerated[k]);
		print_diag(ctx, &ctx->first_tolerated[k], tail);
	}
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

/* The events of @f to write to @rd: ended by SYN_REPORT, without the
 * keys @rd leaves out. NULL when nothing but those keys was in it. */
static struct input_event *
frame_events(const struct tt_frame *f, struct rp_device *rd, bool guard, uint32_t *n)
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
	if (guard) {
		uint32_t kept = (uint32_t)rp_keyguard_events(ev, count);
		rd->keys_dropped += count - kept;
		if (kept < count && kept == 1) {
			free(ev);
			return NULL;
		}
		count = kept;
	}
	*n = count;
	return ev;
}

/* Values outside absinfo are written as recorded (the kernel does not
 * clamp, and the device did deliver them): counted per axis, to say so. */
static void
count_outside(struct rp_device *rd, const struct input_event *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct tt_absinfo *a;

		if (ev[i].type != EV_ABS || ev[i].code >= ABS_CNT)
			continue;
		a = &rd->dev->abs[ev[i].code];
		if (rp_abs_outside(ev[i].code, ev[i].value, a->minimum, a->maximum))
			rd->outside[ev[i].code]++;
	}
}

static void
count_uncreatable(struct rp_device *rd, const struct input_event *ev, uint32_t n, size_t line)
{
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].type != EV_ABS || ev[i].code >= ABS_CNT ||
		    !bit_is_set(rd->uncreatable, ev[i].code))
			continue;
		if (!rd->uncreatable_used++)
			rd->uncreatable_line = line;
	}
}

static void
add_frame(struct rp_schedule *s, size_t *cap, const struct tt_frame *f, int idx, size_t line,
	  bool guard)
{
	struct rp_device *rd = &s->devices[idx];
	struct rp_frame *rf;
	uint32_t n;
	struct input_event *ev = frame_events(f, rd, guard, &n);

	if (!ev)
		return;
	count_outside(rd, ev, n);
	count_uncreatable(rd, ev, n, line);
	s->frames = tt_grow(s->frames, s->nframes, cap, sizeof(*s->frames));
	rf = &s->frames[s->nframes++];
	rf->time_us = f->time_us;
	rf->dev = (uint32_t)idx;
	rf->flags = f->flags;
	rf->line = line;
	rf->events = ev;
	rf->nevents = n;
}

static int
cmp_frames(const void *a, const void *b)
{
	const struct rp_frame *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

void
rp_timebase_init(struct rp_timebase *tb, const struct rp_options *o, int64_t first_us)
{
	tb->base = o->from_us != INT64_MIN && o->from_us < first_us ? o->from_us : first_us;
	tb->prev = tb->base;
	tb->removed = 0;
}

/* offset = (t - base - removed) / speed, where removed is what --max-gap
 * took out of the idle gaps so far, itself a sum of differences of
 * recorded times: errors cannot accumulate. */
int64_t
rp_timebase_offset(struct rp_timebase *tb, const struct rp_options *o, int64_t t_us)
{
	int64_t gap = t_us - tb->prev;

	if (o->max_gap_us >= 0 && gap > o->max_gap_us)
		tb->removed += gap - o->max_gap_us;
	tb->prev = t_us;
	return llround((double)(t_us - tb->base - tb->removed) / o->speed);
}

static void
compute_offsets(struct rp_schedule *s, const struct rp_options *o)
{
	struct rp_timebase tb;

	if (!s->nframes)
		return;
	qsort(s->frames, s->nframes, sizeof(*s->frames), cmp_frames);
	rp_timebase_init(&tb, o, s->frames[0].time_us);
	for (size_t i = 0; i < s->nframes; i++)
		s->frames[i].offset_us = rp_timebase_offset(&tb, o, s->frames[i].time_us);
	s->span_us = s->frames[s->nframes - 1].offset_us;
}

/* "N values outside the absinfo range of ABS_X (2), ABS_Y (1)", under
 * the catalog's name and severity for such values. */
static void
print_outside(const struct rp_device *rd, const struct load_ctx *ctx)
{
	char list[512];
	size_t used = 0, total = 0;

	list[0] = '\0';
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		char cb[24];

		if (!rd->outside[c])
			continue;
		total += rd->outside[c];
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s (%" PRIu32 ")",
						 used ? ", " : "", tt_code_label(cb, sizeof(cb), EV_ABS, c),
						 rd->outside[c]);
	}
	if (!total)
		return;
	fprintf(ctx->err, "%s: %s: device %" PRIu32 " \"%s\": %zu value%s outside the absinfo range "
		"of %s: replayed as recorded (the kernel does not clamp) [%s]\n", ctx->name,
		severity_name(tt_check_severity(TT_CHECK_VALUE_RANGE)), rd->dev->id, rd->dev->name,
		total, total == 1 ? "" : "s", list, tt_check_name(TT_CHECK_VALUE_RANGE));
}

/* The codes added to a device, said once. Not under validate's
 * [unsupported-code], an error there: replay creates them. */
static void
print_added(const struct rp_device *rd, const struct load_ctx *ctx)
{
	char list[512];

	if (!rd->added.count)
		return;
	rp_undeclared_list(&rd->added, tt_reader_device(ctx->reader, rd->dev->id), list, sizeof(list));
	fprintf(ctx->err, "%s: warning: device %" PRIu32 " \"%s\": the description lacks %s, used by "
		"the recording: added\n", ctx->name, rd->dev->id, rd->dev->name, list);
}

/* Said once per device, after the whole file was read. */
static void
print_device_notes(const struct rp_schedule *s, const struct load_ctx *ctx)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct rp_device *rd = &s->devices[i];
		const struct tt_device *d = rd->dev;
		char list[256];

		if (rd->keys_filtered) {
			rp_keyguard_list(tt_reader_device(s->reader, d->id), list, sizeof(list));
			fprintf(ctx->err, "%s: device %" PRIu32 " \"%s\": replayed without its keys that "
				"can type or act on your session: %s not created, %zu event%s dropped; "
				"--allow-keys replays them\n", ctx->name, d->id, d->name, list,
				rd->keys_dropped, rd->keys_dropped == 1 ? "" : "s");
		}
		if (!rd->keys_filtered && rd->keys_dropped)
			fprintf(ctx->err, "%s: device %" PRIu32 " \"%s\": %zu event%s of keys that can type "
				"or act on your session, and that its description lacks, dropped; "
				"--allow-keys replays them\n", ctx->name, d->id, d->name,
				rd->keys_dropped, rd->keys_dropped == 1 ? "" : "s");
		print_added(rd, ctx);
		print_outside(rd, ctx);
	}
}

static void
note_dropped(struct rp_schedule *s, size_t line)
{
	if (s->ndropped < ARRAY_LENGTH(s->dropped_lines))
		s->dropped_lines[s->ndropped] = line;
	s->ndropped++;
}

static void
leave_out(struct rp_schedule *s, const struct tt_device *dev, const struct load_ctx *ctx)
{
	char list[256];

	rp_keyguard_list(dev, list, sizeof(list));
	fprintf(ctx->err, "%s: device %" PRIu32 " \"%s\" is left out: it has nothing but keys, and %s "
		"can type or act on your session; --allow-keys replays it\n", ctx->name, dev->id,
		dev->name, list);
	s->left_out = tt_reallocarray(s->left_out, s->nleft_out + 1, sizeof(*s->left_out));
	s->left_out[s->nleft_out++] = dev->id;
}

/* The device to create, made @rd's own (a shallow copy) to change it. */
static struct tt_device *
own_device(struct rp_device *rd)
{
	if (!rd->own) {
		rd->own = tt_zalloc(sizeof(*rd->own));
		*rd->own = *rd->dev;
		rd->dev = rd->own;
	}
	return rd->own;
}

/* Axes uinput refuses are left out of the device: replayable as long as
 * the recording does not use them (count_uncreatable()). */
static void
drop_uncreatable(struct rp_device *rd, const struct tt_device *dev)
{
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (!tt_device_has(dev, EV_ABS, code) || rp_uinput_abs_ok(code, &dev->abs[code]))
			continue;
		clear_bit(own_device(rd)->codes[EV_ABS], code);
		set_bit(rd->uncreatable, code);
	}
}

/* The axes uinput refuses: a note when the recording does not use them,
 * an error (returns false) when it does. */
static bool
check_uncreatable(const struct rp_device *rd, const struct load_ctx *ctx)
{
	char list[256];
	size_t used = 0;

	list[0] = '\0';
	for (unsigned int code = 0; code < ABS_CNT && used < sizeof(list); code++) {
		char cb[24];
		if (bit_is_set(rd->uncreatable, code))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
						 tt_code_label(cb, sizeof(cb), EV_ABS, code));
	}
	if (!used)
		return true;
	if (rd->uncreatable_used) {
		fprintf(ctx->err, "%s:%zu: device %" PRIu32 " \"%s\": uinput cannot create its axes %s "
			"(a range or slot count the kernel refuses), and the recording uses them\n",
			ctx->name, rd->uncreatable_line, rd->dev->id, rd->dev->name, list);
		return false;
	}
	fprintf(ctx->err, "%s: device %" PRIu32 " \"%s\": replayed without its axes %s: uinput cannot "
		"create them (a range or slot count the kernel refuses), and the recording does not "
		"use them\n", ctx->name, rd->dev->id, rd->dev->name, list);
	return true;
}

static void
add_device(struct rp_schedule *s, const struct tt_device *dev, const struct load_ctx *ctx)
{
	struct tt_device *own = NULL;
	struct rp_device *rd;

	if (!ctx->o->allow_keys && rp_keyguard_device(dev, &own) == RP_KEYS_LEAVE_OUT) {
		leave_out(s, dev, ctx);
		return;
	}
	s->devices = tt_reallocarray(s->devices, s->ndevices + 1, sizeof(*s->devices));
	rd = &s->devices[s->ndevices++];
	memset(rd, 0, sizeof(*rd));
	rd->own = own;
	rd->dev = own ? own : dev;
	rd->keys_filtered = own != NULL;
	drop_uncreatable(rd, dev);
	rp_state_init_recorded(&rd->start, rd->dev);
}

/* "FILE:LINE: error: the device does not have ..., and the kernel cannot
 * create it [unsupported-code]": validate's error, that refuses a replay. */
static void
refuse_code(struct load_ctx *ctx, const struct rp_device *rd, const struct tt_event *e, size_t line)
{
	struct tt_diag d;
	char tb[24], cb[24];

	tt_diag_init(&d, TT_CHECK_UNSUPPORTED_CODE, line, 0, rd->dev->id);
	snprintf(d.message, sizeof(d.message), "device %" PRIu32 " \"%s\" does not have %s %s, and "
		 "the kernel cannot create it", rd->dev->id, rd->dev->name,
		 tt_type_label(tb, sizeof(tb), e->type), tt_code_label(cb, sizeof(cb), e->type, e->code));
	if (++ctx->errors <= 20)
		print_diag(ctx, &d, "");
}

/* The codes of @f the device lacks: the device delivered them, so they
 * are added to the device replay creates where the kernel can create
 * them (guarded keys only with --allow-keys: the others are dropped). */
static void
add_undeclared(struct rp_device *rd, const struct tt_frame *f, size_t line, struct load_ctx *ctx)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		bool added = e->type < EV_CNT && e->code < KEY_CNT &&
			     bit_is_set(rd->added.codes[e->type], e->code);

		if (e->type == EV_SYN || (tt_device_has(rd->dev, e->type, e->code) && !added))
			continue;
		if (!rp_undeclared_creatable(e->type, e->code)) {
			refuse_code(ctx, rd, e, line);
			continue;
		}
		if (e->type == EV_KEY && !ctx->o->allow_keys && tt_keymask_is_guarded(e->code))
			continue;
		if (!rd->added.count)
			rd->added.first_line = line;
		rp_undeclared_add(own_device(rd), tt_reader_device(ctx->reader, rd->dev->id),
				  &rd->added, e->type, e->code, e->value);
	}
}

/* After the whole file: an added axis uinput refuses is refused like the
 * description's (check_uncreatable()); an added slot axis gives the
 * device slots, and its state at the start has them, empty. */
static void
finish_undeclared(struct rp_device *rd)
{
	if (!rd->added.count)
		return;
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (!bit_is_set(rd->added.codes[EV_ABS], code) ||
		    rp_uinput_abs_ok(code, &rd->own->abs[code]))
			continue;
		clear_bit(rd->own->codes[EV_ABS], code);
		set_bit(rd->uncreatable, code);
		if (!rd->uncreatable_used++)
			rd->uncreatable_line = rd->added.first_line;
	}
	if (bit_is_set(rd->added.codes[EV_ABS], ABS_MT_SLOT)) {
		rp_state_release(&rd->start);
		rp_state_init_recorded(&rd->start, rd->dev);
	}
}

static bool
was_left_out(const struct rp_schedule *s, uint32_t id)
{
	for (size_t i = 0; i < s->nleft_out; i++) {
		if (s->left_out[i] == id)
			return true;
	}
	return false;
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
			if (rc == -EIO) {
				ctx->read_stopped = true;
				break;
			}
			continue;
		}
		ctx->feeding = rec.type;
		tt_checker_feed(c, &rec);
		ctx->feeding = 0;
		if (rec.type == TT_RECORD_DEVICE) {
			if (selected(o, rec.device->id) && device_index(s, rec.device->id) < 0 &&
			    !was_left_out(s, rec.device->id))
				add_device(s, rec.device, ctx);
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
		add_undeclared(&s->devices[idx], f, rec.line, ctx);
		if (o->from_us != INT64_MIN && f->time_us < o->from_us) {
			/* Before --from: only the state it leaves matters. */
			uint32_t n;
			_cleanup_free_ struct input_event *ev =
				frame_events(f, &s->devices[idx], !o->allow_keys, &n);
			if (ev)
				rp_state_apply(&s->devices[idx].start, ev, n);
			continue;
		}
		add_frame(s, &cap, f, idx, rec.line, !o->allow_keys);
	}
	tt_checker_finish(c);
	tt_checker_free(c);
	return 0;
}

/* --device ID that names no device (one left out is not an error: it was
 * said). */
static int
check_selection(const struct rp_schedule *s, const struct load_ctx *ctx)
{
	const struct rp_options *o = ctx->o;

	for (size_t i = 0; o->device_ids && i < o->ndevice_ids; i++) {
		if (device_index(s, o->device_ids[i]) < 0 && !was_left_out(s, o->device_ids[i])) {
			fprintf(ctx->err, "%s: no device with id %" PRIu32 " (see 'touchtape print')\n",
				ctx->name, o->device_ids[i]);
			return -ENOENT;
		}
	}
	return 0;
}

static int
open_recording(struct rp_schedule *s, const char *path, const struct rp_options *o, FILE *err)
{
	_cleanup_free_ char *why = NULL;
	int rc = tt_reader_open_why(path, &s->reader, &why);

	if (rc < 0) {
		fprintf(err, "%s: %s\n", tt_program_name, why ? why : path);
		return rc;
	}
	if (!o->desc)
		return 0;
	if (tt_reader_format(s->reader) != TT_FORMAT_EVEMU) {
		fprintf(err, "%s: --desc is for evemu events-only files\n", tt_reader_name(s->reader));
		return -EBADF;	/* usage, not a finding in the file */
	}
	rc = tt_reader_set_companion(s->reader, o->desc);
	if (rc < 0)
		fprintf(err, "%s: %s\n", o->desc, strerror(-rc));
	return rc;
}

int
rp_schedule_load(const char *path, const struct rp_options *o, FILE *err,
		 struct rp_schedule **out)
{
	_cleanup_(rp_schedule_freep) struct rp_schedule *s = tt_zalloc(sizeof(*s));
	struct load_ctx ctx = { .name = path, .err = err, .o = o };

	int rc;

	rc = open_recording(s, path, o, err);
	if (rc < 0)
		return rc;
	ctx.name = tt_reader_name(s->reader);
	ctx.reader = s->reader;
	read_all(s, &ctx);
	/* A file that cannot be read to its end is trouble (exit 2), not a
	 * finding in it. */
	if (ctx.read_stopped) {
		fprintf(err, "%s: the file cannot be read to its end: refusing to replay "
			"(nothing was created)\n", ctx.name);
		return -EIO;
	}
	if (ctx.errors) {
		fprintf(err, "%s: %zu error%s that replay cannot reproduce: refusing to replay "
			"(nothing was created)\n", ctx.name, ctx.errors, ctx.errors == 1 ? "" : "s");
		return -EINVAL;
	}
	if ((rc = check_selection(s, &ctx)) < 0)
		return rc;
	if (!s->ndevices && !s->nleft_out) {
		fprintf(err, "%s: no evdev device to replay\n", ctx.name);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->ndevices; i++) {
		finish_undeclared(&s->devices[i]);
		if (!check_uncreatable(&s->devices[i], &ctx))
			ctx.errors++;
	}
	if (ctx.errors) {
		fprintf(err, "%s: refusing to replay (nothing was created)\n", ctx.name);
		return -EINVAL;
	}
	print_tolerated(&ctx);
	print_device_notes(s, &ctx);
	compute_offsets(s, o);
	*out = steal(&s);
	return 0;
}
