/* SPDX-License-Identifier: MIT */
/* record --guide as a capture source (guide-source.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "guide-source.h"
#include "log.h"
#include "util-mem.h"

/* Touches are followed on this many slots of this many devices. */
#define GS_SLOTS 64
#define GS_DEVICES 16
/* The progress line is redrawn this often. */
#define GS_TICK_US 200000

struct gs_device {
	int32_t slot;
	bool down[GS_SLOTS];	/* a tracking id, Type B */
	uint32_t type_a;	/* contacts of the frame, Type A */
	bool touch;		/* BTN_TOUCH, single touch */
	uint32_t ndown;		/* the touches down after its last frame */
};

struct tt_guide_source {
	struct tt_guide *guide;
	const struct tt_source_ctx *ctx;
	struct tt_loop_source *keys, *tick;
	bool raw;		/* the terminal's mode changed, to restore */
	struct termios saved;
	struct gs_device dev[GS_DEVICES];
	int error;		/* the first marker that failed */
};

static int64_t
now_us(const struct tt_guide_source *gs)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 - gs->ctx->start_us;
}

static int
on_marker(void *data, bool begin, enum tt_guide_exercise e)
{
	struct tt_guide_source *gs = data;

	return tt_source_marker(gs->ctx, begin ? TT_MARKER_GUIDE_BEGIN : TT_MARKER_GUIDE_END, -1,
				tt_guide_exercise_name(e));
}

static void
on_done(void *data)
{
	struct tt_guide_source *gs = data;

	gs->ctx->stop(gs->ctx->host, "guide done", 0);
}

static const struct tt_guide_ops guide_ops = { .marker = on_marker, .done = on_done };

struct tt_guide_source *
tt_guide_source_new(enum tt_guide_kind kind)
{
	struct tt_guide_source *gs = tt_zalloc(sizeof(*gs));

	gs->guide = tt_guide_new(kind, stderr, &guide_ops, gs);
	return gs;
}

static void
on_keys(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	struct tt_guide_source *gs = data;
	char buf[64];
	ssize_t n = read(tt_loop_source_fd(source), buf, sizeof(buf));

	(void)loop;
	(void)events;
	if (n <= 0) {	/* the terminal went away: what was done stays */
		tt_loop_remove(gs->ctx->loop, source);
		gs->keys = NULL;
		if (!tt_guide_finished(gs->guide))
			tt_guide_key(gs->guide, 'q', now_us(gs));
		return;
	}
	for (ssize_t i = 0; i < n && !gs->ctx->stopped; i++) {
		gs->ctx->poll(gs->ctx->host);	/* the frames before the key first */
		if (tt_guide_key(gs->guide, (unsigned char)buf[i], now_us(gs)) < 0)
			return;
	}
}

static void
on_tick(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	struct tt_guide_source *gs = data;
	int64_t now = now_us(gs);

	(void)loop;
	(void)events;
	tt_guide_tick(gs->guide, now);
	tt_loop_timer_set(source, gs->ctx->start_us + now + GS_TICK_US);
}

/* Keys one at a time, not echoed; restored when the source goes. */
static void
raw_terminal(struct tt_guide_source *gs)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &gs->saved) < 0)
		return;
	t = gs->saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	gs->raw = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

static int
gs_start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_guide_source *gs = data;

	gs->ctx = ctx;
	raw_terminal(gs);
	gs->keys = tt_loop_add(ctx->loop, STDIN_FILENO, on_keys, gs);
	gs->tick = tt_loop_add_timer(ctx->loop, on_tick, gs);
	if (!gs->keys || !gs->tick)
		return -errno ? -errno : -ENOMEM;
	tt_loop_timer_set(gs->tick, ctx->start_us + now_us(gs) + GS_TICK_US);
	tt_guide_start(gs->guide, now_us(gs));
	return 0;
}

/* The touches down on the frame's device after it. */
static uint32_t
follow(struct gs_device *d, const struct tt_frame *f)
{
	uint32_t n = 0, contacts = 0;
	bool type_a = false;

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_ABS && e->code == ABS_MT_SLOT)
			d->slot = e->value;
		else if (e->type == EV_ABS && e->code == ABS_MT_TRACKING_ID && d->slot >= 0 && d->slot < GS_SLOTS)
			d->down[d->slot] = e->value >= 0;
		else if (e->type == EV_SYN && e->code == SYN_MT_REPORT)
			type_a = true, contacts++;
		else if (e->type == EV_KEY && e->code == BTN_TOUCH)
			d->touch = e->value != 0;
	}
	if (type_a || d->type_a)
		d->type_a = contacts;
	for (int s = 0; s < GS_SLOTS; s++)
		n += d->down[s];
	if (!n)
		n = d->type_a;
	return n ? n : d->touch;
}

/* The guide hears the touches down on every device together: a frame of
 * another device (the keyboard or pen of a HID touchscreen, which --hid
 * records too) lifts none of them. */
static void
gs_frame_written(void *data, const struct tt_frame *f)
{
	struct tt_guide_source *gs = data;
	uint32_t ndown = 0;

	if (f->device >= GS_DEVICES)
		return;
	gs->dev[f->device].ndown = follow(&gs->dev[f->device], f);
	for (size_t i = 0; i < GS_DEVICES; i++)
		ndown += gs->dev[i].ndown;
	tt_guide_frame(gs->guide, ndown, f->time_us);
}

static void
gs_free(void *data)
{
	struct tt_guide_source *gs = data;

	if (!gs)
		return;
	if (gs->keys)
		tt_loop_remove(gs->ctx->loop, gs->keys);
	if (gs->tick)
		tt_loop_remove(gs->ctx->loop, gs->tick);
	if (gs->raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &gs->saved);
	tt_guide_free(gs->guide);
	free(gs);
}

const struct tt_source_ops tt_guide_source_ops = {
	.name = "guide",
	.start = gs_start,
	.frame_written = gs_frame_written,
	.free = gs_free,
};
