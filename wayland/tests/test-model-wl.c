/* SPDX-License-Identifier: MIT */
/* The Wayland layer's model on hand-made records: wl_touch sequences per
 * client, linked to the kernel touch each came from by time and position
 * (also when the wl record comes first in the file, and when two fingers
 * land in one frame), the latencies to the receive time and to the
 * compositor's timestamp, and each protocol rule reported exactly where
 * it is broken and nowhere on a clean sequence. */
#include "config.h"

#include <stdlib.h>

#include "model-wl.h"
#include "stack.h"
#include "test-common.h"

/* The recording began at CLOCK_MONOTONIC 1000 s. */
#define START_US 1000000000LL

struct seen {
	struct tt_wl_touch touches[8];
	size_t ntouches;
	struct tt_diag diags[8];
	size_t ndiags;
};

static void
on_end(void *data, struct tt_wl_touch *t)
{
	struct seen *s = data;
	if (s->ntouches < ARRAY_LENGTH(s->touches))
		s->touches[s->ntouches++] = *t;
}

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct seen *s = data;
	/* The stack's other layers speak too; this is the Wayland one's test. */
	if (d->check < TT_CHECK_WL_FRAME_MISSING || d->check > TT_CHECK_WL_TOUCH_ID_REUSED)
		return;
	if (s->ndiags < ARRAY_LENGTH(s->diags))
		s->diags[s->ndiags++] = *d;
}

struct run {
	struct tt_stack *m;
	struct tt_device *dev;
	struct seen seen;
	size_t line;
};

/* A touchscreen 0..4095 x 0..2303, ten slots. */
static void
run_init(struct run *r, bool with_device)
{
	static const struct tt_wl_callbacks cb = { .touch_end = on_end };
	struct tt_header h = { .version = 1, .start_monotonic_us = START_US };
	struct tt_record rec = { .type = TT_RECORD_HEADER, .line = 1, .header = &h };

	memset(r, 0, sizeof(*r));
	r->m = tt_stack_new(NULL, on_diag, &r->seen);
	tt_stack_subscribe_wl(r->m, &cb, &r->seen);
	r->line = 1;
	tt_stack_feed(r->m, &rec);
	if (!with_device)
		return;
	r->dev = tt_device_new(0);
	tt_device_enable(r->dev, EV_KEY, BTN_TOUCH);
	tt_device_enable(r->dev, EV_ABS, ABS_MT_SLOT);
	tt_device_enable(r->dev, EV_ABS, ABS_MT_POSITION_X);
	tt_device_enable(r->dev, EV_ABS, ABS_MT_POSITION_Y);
	tt_device_enable(r->dev, EV_ABS, ABS_MT_TRACKING_ID);
	r->dev->abs[ABS_MT_SLOT].maximum = 9;
	r->dev->abs[ABS_MT_POSITION_X].maximum = 4095;
	r->dev->abs[ABS_MT_POSITION_Y].maximum = 2303;
	r->dev->abs[ABS_MT_TRACKING_ID].maximum = 65535;
	r->dev->mt_protocol = TT_MT_B;
	check(tt_device_set_slots(r->dev, 10) == 0);
	rec = (struct tt_record){ .type = TT_RECORD_DEVICE, .line = ++r->line, .device = r->dev };
	tt_stack_feed(r->m, &rec);
}

static void
run_fini(struct run *r)
{
	tt_stack_free(r->m);
	tt_device_free(r->dev);
}

/* A frame setting slot @slot to tracking ID @tid (-1: lifted) at x/y. */
static void
kframe(struct run *r, int64_t t, int32_t slot, int32_t tid, int32_t x, int32_t y)
{
	struct tt_event ev[] = {
		{ EV_ABS, ABS_MT_SLOT, slot, 0 },
		{ EV_ABS, ABS_MT_TRACKING_ID, tid, 0 },
		{ EV_ABS, ABS_MT_POSITION_X, x, 0 },
		{ EV_ABS, ABS_MT_POSITION_Y, y, 0 },
		{ EV_SYN, SYN_REPORT, 0, 0 },
	};
	struct tt_frame f = { .device = 0, .time_us = t, .nevents = ARRAY_LENGTH(ev), .events = ev };
	struct tt_record rec = { .type = TT_RECORD_FRAME, .line = ++r->line, .frame = &f };

	if (tid < 0) {	/* a release carries no position */
		ev[2] = ev[4];
		f.nevents = 3;
	}
	tt_stack_feed(r->m, &rec);
}

/* A wl_touch event received at @t; @ms: the compositor's time (0: none). */
static void
wl(struct run *r, enum tt_wl_event_type kind, int64_t t, int32_t id, double x, double y, uint32_t ms)
{
	struct tt_wl_event ev = {
		.time_us = t, .client = (char *)"wayland", .kind = kind, .id = id, .x = x, .y = y, .time_ms = ms,
		.fields = (ms ? TT_WL_F_TIME_MS : 0) |
			  (kind == TT_WL_TOUCH_FRAME || kind == TT_WL_TOUCH_CANCEL ? 0 : TT_WL_F_ID) |
			  (kind == TT_WL_TOUCH_DOWN || kind == TT_WL_TOUCH_MOTION ? TT_WL_F_XY : 0),
	};
	struct tt_record rec = { .type = TT_RECORD_WL_EVENT, .line = ++r->line, .wl_event = &ev };

	tt_stack_feed(r->m, &rec);
}

/* The output's current mode @w x @h at scale @scale. */
static void
output(struct run *r, int32_t w, int32_t h, int32_t scale)
{
	struct tt_wl_event ev = {
		.client = (char *)"wayland", .kind = TT_WL_OUTPUT_MODE, .object = 7,
		.fields = TT_WL_F_SIZE | TT_WL_F_MODE_FLAGS, .width = w, .height = h, .mode_flags = 1,
	};
	struct tt_record rec = { .type = TT_RECORD_WL_EVENT, .line = ++r->line, .wl_event = &ev };

	tt_stack_feed(r->m, &rec);
	ev = (struct tt_wl_event){
		.client = (char *)"wayland", .kind = TT_WL_OUTPUT_SCALE, .object = 7,
		.fields = TT_WL_F_SCALE, .scale = scale,
	};
	rec.line = ++r->line;
	tt_stack_feed(r->m, &rec);
}

/* The compositor's ms time of recording time @t. */
static uint32_t
ms_of(int64_t t)
{
	return (uint32_t)((START_US + t) / 1000);
}

static void
test_clean_two_fingers(void)
{
	struct run r;

	run_init(&r, true);
	output(&r, 3840, 2160, 2);	/* a 1920x1080 surface */
	kframe(&r, 10000, 0, 5, 1024, 576);	/* 0.25, 0.25 */
	wl(&r, TT_WL_TOUCH_DOWN, 13000, 0, 480, 270, ms_of(10000));
	wl(&r, TT_WL_TOUCH_FRAME, 13000, 0, 0, 0, 0);
	/* The second finger's wl record first in the file. */
	wl(&r, TT_WL_TOUCH_DOWN, 24500, 1, 1440, 810, ms_of(20000));
	wl(&r, TT_WL_TOUCH_FRAME, 24500, 0, 0, 0, 0);
	kframe(&r, 20000, 1, 6, 3072, 1728);	/* 0.75, 0.75 */
	wl(&r, TT_WL_TOUCH_MOTION, 31000, 0, 490, 280, ms_of(30000));
	wl(&r, TT_WL_TOUCH_MOTION, 31000, 1, 1450, 820, ms_of(30000));
	wl(&r, TT_WL_TOUCH_FRAME, 31000, 0, 0, 0, 0);
	kframe(&r, 40000, 0, -1, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 42000, 0, 0, 0, ms_of(40000));
	wl(&r, TT_WL_TOUCH_FRAME, 42000, 0, 0, 0, 0);
	kframe(&r, 50000, 1, -1, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 51000, 1, 0, 0, ms_of(50000));
	wl(&r, TT_WL_TOUCH_FRAME, 51000, 0, 0, 0, 0);
	tt_stack_finish(r.m);

	check_int_eq(r.seen.ndiags, 0);
	check_int_eq(r.seen.ntouches, 2);
	const struct tt_wl_touch *a = &r.seen.touches[0], *b = &r.seen.touches[1];
	check_int_eq(a->id, 0);
	check_int_eq(a->link, TT_LINK_LINKED);
	check_int_eq(a->kernel_tracking_id, 5);
	check_int_eq(a->kernel_slot, 0);
	check_int_eq(a->latency_us, 3000);
	check(a->has_stamp);
	check_int_eq(a->stamp_latency_us, 0);
	check_int_eq(a->nmotions, 1);
	check_int_eq(a->nframes, 3);
	check(!a->cancelled && !a->active_at_end);
	check_int_eq(b->id, 1);
	check_int_eq(b->link, TT_LINK_LINKED);
	check_int_eq(b->kernel_tracking_id, 6);
	check_int_eq(b->latency_us, 4500);
	check_int_eq(b->begin_line, 8);
	check_int_eq(b->end_line, 18);
	run_fini(&r);
}

/* Two fingers in one kernel frame (two frames at one time here), their
 * wl downs in the other order: the position decides. */
static void
test_link_by_position(void)
{
	struct run r;

	run_init(&r, true);
	output(&r, 1920, 1080, 1);
	kframe(&r, 10000, 0, 5, 400, 400);
	kframe(&r, 10000, 1, 6, 3600, 2000);
	wl(&r, TT_WL_TOUCH_DOWN, 12000, 0, 1690, 940, ms_of(10000));
	wl(&r, TT_WL_TOUCH_DOWN, 12000, 1, 190, 190, ms_of(10000));
	wl(&r, TT_WL_TOUCH_FRAME, 12000, 0, 0, 0, 0);
	/* Far from any kernel touch: unlinked; a compositor time on a
	 * clock of its own (ms since it started) is no latency. */
	kframe(&r, 20000, 2, 7, 2000, 1100);
	wl(&r, TT_WL_TOUCH_DOWN, 21000, 2, 10, 1000, ms_of(20000));
	kframe(&r, 30000, 3, 8, 2000, 1100);
	wl(&r, TT_WL_TOUCH_DOWN, 31000, 3, 960, 540, 5);
	wl(&r, TT_WL_TOUCH_FRAME, 21000, 0, 0, 0, 0);
	tt_stack_finish(r.m);

	check_int_eq(r.seen.ntouches, 4);
	for (size_t i = 0; i < r.seen.ntouches; i++) {
		const struct tt_wl_touch *t = &r.seen.touches[i];
		check(t->active_at_end);
		if (t->id == 0) {
			check_int_eq(t->kernel_tracking_id, 6);
		} else if (t->id == 1) {
			check_int_eq(t->kernel_tracking_id, 5);
		} else if (t->id == 3) {
			check_int_eq(t->kernel_tracking_id, 8);
			check(!t->has_stamp);
		} else {
			check_int_eq(t->link, TT_LINK_NOT_DELIVERED);
		}
	}
	run_fini(&r);
}

/* With a libinput layer: the libinput touch of the kernel touch. */
static void
test_libinput_touch(void)
{
	struct run r;
	struct tt_li_event li = {
		.time_us = 10000, .kind = TT_LI_TOUCH_DOWN, .device = 0, .slot = 0, .seat_slot = 3,
	};
	struct tt_record rec = { .type = TT_RECORD_LI_EVENT, .li_event = &li };

	run_init(&r, true);
	output(&r, 1920, 1080, 1);
	kframe(&r, 10000, 0, 5, 1024, 576);
	rec.line = ++r.line;
	tt_stack_feed(r.m, &rec);
	wl(&r, TT_WL_TOUCH_DOWN, 12000, 0, 480, 270, 0);
	wl(&r, TT_WL_TOUCH_FRAME, 12000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_int_eq(r.seen.ntouches, 1);
	check_int_eq(r.seen.touches[0].kernel_tracking_id, 5);
	check_int_eq(r.seen.touches[0].li_seat_slot, 3);
	check_int_eq(r.seen.touches[0].li_begin_line, 6);
	check_int_eq(r.seen.touches[0].li_begin_us, 10000);
	run_fini(&r);
}

/* No kernel layer: nothing to link, and not an unlinked touch. */
static void
test_no_kernel_layer(void)
{
	struct run r;

	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 0);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 2000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_FRAME, 2000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check(tt_wl_model_has_layer(tt_stack_wl(r.m)));
	check_int_eq(r.seen.ntouches, 1);
	check_int_eq(r.seen.touches[0].link, TT_LINK_NONE);
	check(!r.seen.touches[0].has_stamp);
	check_int_eq(r.seen.ndiags, 0);
	run_fini(&r);
}

/* The compositor went away mid-touch: the touch stays open, no rule
 * broken, and a new connection's down of the same id is a new touch. */
static void
test_compositor_lost(void)
{
	struct run r;
	struct tt_marker mk = { .time_us = 3000, .kind = TT_MARKER_WL_LOST, .device = -1 };
	struct tt_record rec = { .type = TT_RECORD_MARKER, .marker = &mk };

	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	/* Its frame never comes: the connection ended first. */
	wl(&r, TT_WL_TOUCH_MOTION, 2000, 0, 11, 10, 101);
	rec.line = ++r.line;
	tt_stack_feed(r.m, &rec);
	wl(&r, TT_WL_TOUCH_DOWN, 9000, 0, 10, 10, 500);
	wl(&r, TT_WL_TOUCH_FRAME, 9000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 9500, 0, 0, 0, 501);
	wl(&r, TT_WL_TOUCH_FRAME, 9500, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_int_eq(r.seen.ndiags, 0);
	check_int_eq(r.seen.ntouches, 2);
	check(r.seen.touches[0].active_at_end);
	check_int_eq(r.seen.touches[0].nmotions, 1);
	check(!r.seen.touches[1].active_at_end);
	run_fini(&r);
}

static void
check_one_diag(const struct run *r, enum tt_check kind, size_t line, int32_t id)
{
	check_int_eq(r->seen.ndiags, 1);
	if (r->seen.ndiags < 1)
		return;
	check_str_eq(tt_check_name(r->seen.diags[0].check), tt_check_name(kind));
	check_int_eq(r->seen.diags[0].line, line);
	check_int_eq(r->seen.diags[0].touchid, id);
	check_str_eq(r->seen.diags[0].client, "wayland");
}

static void
test_rules(void)
{
	struct run r;

	/* A down not closed by a frame before the next time's motion. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_MOTION, 9000, 0, 20, 10, 108);
	wl(&r, TT_WL_TOUCH_FRAME, 9000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 20000, 0, 0, 0, 119);
	wl(&r, TT_WL_TOUCH_FRAME, 20000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_FRAME_MISSING, 2, 0);
	run_fini(&r);

	/* ... or before the end. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 2000, 0, 0, 0, 101);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_FRAME_MISSING, 4, 0);
	run_fini(&r);

	/* Motion for an id never down. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_MOTION, 1000, 7, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_TOUCH_NOT_DOWN, 2, 7);
	run_fini(&r);

	/* Motion after the up. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 2000, 0, 0, 0, 101);
	wl(&r, TT_WL_TOUCH_FRAME, 2000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_MOTION, 3000, 0, 10, 10, 102);
	wl(&r, TT_WL_TOUCH_FRAME, 3000, 0, 0, 0, 0);
	/* A new down makes the id good again. */
	wl(&r, TT_WL_TOUCH_DOWN, 4000, 0, 10, 10, 103);
	wl(&r, TT_WL_TOUCH_FRAME, 4000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 5000, 0, 0, 0, 104);
	wl(&r, TT_WL_TOUCH_FRAME, 5000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_EVENT_AFTER_UP, 6, 0);
	check_int_eq(r.seen.ntouches, 2);
	run_fini(&r);

	/* A cancel ends every touch: the second one's motion after it. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 0, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 1, 50, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_CANCEL, 2000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_MOTION, 3000, 1, 10, 10, 102);
	wl(&r, TT_WL_TOUCH_FRAME, 3000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_EVENT_AFTER_CANCEL, 6, 1);
	check_int_eq(r.seen.ntouches, 2);
	check(r.seen.touches[0].cancelled && r.seen.touches[1].cancelled);
	run_fini(&r);

	/* A down for an id already down. */
	run_init(&r, false);
	wl(&r, TT_WL_TOUCH_DOWN, 1000, 3, 10, 10, 100);
	wl(&r, TT_WL_TOUCH_FRAME, 1000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_DOWN, 2000, 3, 10, 10, 101);
	wl(&r, TT_WL_TOUCH_FRAME, 2000, 0, 0, 0, 0);
	wl(&r, TT_WL_TOUCH_UP, 3000, 3, 0, 0, 102);
	wl(&r, TT_WL_TOUCH_FRAME, 3000, 0, 0, 0, 0);
	tt_stack_finish(r.m);
	check_one_diag(&r, TT_CHECK_WL_TOUCH_ID_REUSED, 4, 3);
	check_int_eq(r.seen.ntouches, 2);
	run_fini(&r);
}

int
main(void)
{
	RUN(test_clean_two_fingers);
	RUN(test_link_by_position);
	RUN(test_libinput_touch);
	RUN(test_no_kernel_layer);
	RUN(test_compositor_lost);
	RUN(test_rules);
	return tt_test_result();
}
