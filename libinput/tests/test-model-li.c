/* SPDX-License-Identifier: MIT */
/* The libinput layer's model on real kernel layers (the samples) with
 * libinput events made by hand around them: touches linked to their
 * kernel touch (also when libinput's event comes first in the file),
 * a touch with no kernel touch under it, gestures with the kernel
 * touches that made them, taps told from clicks, scroll and motion
 * counted. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "model-li.h"
#include "stack.h"
#include "reader.h"
#include "test-common.h"

#define MAX_LI 16

struct seen {
	struct tt_li_touch touches[8];
	size_t ntouches;
	struct tt_li_gesture gestures[4];
	size_t ngestures;
};

static void
on_touch(void *data, const struct tt_li_touch *t)
{
	struct seen *s = data;
	if (s->ntouches < ARRAY_LENGTH(s->touches))
		s->touches[s->ntouches++] = *t;
}

static void
on_gesture(void *data, const struct tt_li_gesture *g)
{
	struct seen *s = data;
	if (s->ngestures < ARRAY_LENGTH(s->gestures))
		s->gestures[s->ngestures++] = *g;
}

/* Feeds @sample with @li merged in by time; an event with @early set
 * goes in before the frames of its own time, else after them. */
static struct tt_stack *
run(const char *sample, const struct tt_li_event *li, size_t nli, const bool *early, struct seen *s)
{
	static const struct tt_li_callbacks cb = { .touch_end = on_touch, .gesture_end = on_gesture };
	struct tt_stack *m = tt_stack_new(NULL, NULL, NULL);
	struct tt_reader *r = NULL;
	struct tt_record rec;
	char path[4096];
	size_t next = 0;

	tt_stack_subscribe_li(m, &cb, s);
	snprintf(path, sizeof(path), "%s/samples/%s", tt_test_srcdir(), sample);
	check(tt_reader_open(path, &r) == 0);
	while (r && tt_reader_next(r, &rec) > 0) {
		int64_t t;
		while (next < nli && tt_record_time(&rec, &t) &&
		       (li[next].time_us < t || (li[next].time_us == t && early && early[next]))) {
			struct tt_record lr = { .type = TT_RECORD_LI_EVENT, .line = 10000 + next, .li_event = &li[next] };
			tt_stack_feed(m, &lr);
			next++;
		}
		tt_stack_feed(m, &rec);
	}
	for (; next < nli; next++) {
		struct tt_record lr = { .type = TT_RECORD_LI_EVENT, .line = 10000 + next, .li_event = &li[next] };
		tt_stack_feed(m, &lr);
	}
	tt_stack_finish(m);
	tt_reader_free(r);
	return m;
}

static struct tt_li_event
ev(enum tt_li_event_type kind, int64_t t)
{
	return (struct tt_li_event){ .kind = kind, .time_us = t, .slot = -1, .seat_slot = -1 };
}

static struct tt_li_event
touch(enum tt_li_event_type kind, int64_t t, int32_t slot)
{
	struct tt_li_event e = ev(kind, t);
	e.slot = slot;
	e.seat_slot = slot;
	return e;
}

/* 3m-two-finger: slot 0 (tracking ID 2) from 19 us, slot 1 (ID 3) from
 * 10029 us to 2493419 us. */
static void
test_touch_link(void)
{
	struct tt_li_event li[] = {
		touch(TT_LI_TOUCH_DOWN, 19, 0),
		touch(TT_LI_TOUCH_DOWN, 10329, 1),	/* 300 us late */
		touch(TT_LI_TOUCH_MOTION, 20000, 0),
		touch(TT_LI_TOUCH_DOWN, 30000, 5),	/* no kernel touch in slot 5 */
		touch(TT_LI_TOUCH_UP, 40000, 5),
		touch(TT_LI_TOUCH_UP, 2493419, 1),
		touch(TT_LI_TOUCH_CANCEL, 2498397, 0),
	};
	/* libinput's down of slot 0 before the kernel frame in the file. */
	bool early[ARRAY_LENGTH(li)] = { true };
	struct seen s = { 0 };
	struct tt_stack *m = run("3m-two-finger.jsonl", li, ARRAY_LENGTH(li), early, &s);
	size_t n;
	const struct tt_li_counts *c = tt_li_model_counts(tt_stack_li(m), &n);

	check_int_eq(s.ntouches, 3);
	/* In end order: slot 5, slot 1, slot 0. */
	check_int_eq(s.touches[0].slot, 5);
	check_int_eq(s.touches[0].kernel_serial, 0);
	check_int_eq(s.touches[1].slot, 1);
	check_int_eq(s.touches[1].kernel_tracking_id, 3);
	check_int_eq(s.touches[1].latency_us, 300);
	check(!s.touches[1].cancelled);
	check_int_eq(s.touches[2].slot, 0);
	check_int_eq(s.touches[2].kernel_tracking_id, 2);
	check_int_eq(s.touches[2].latency_us, 0);
	check_int_eq(s.touches[2].nmotions, 1);
	check(s.touches[2].cancelled);
	check_int_eq(n, 1);
	check_int_eq(c[0].touches, 3);
	check_int_eq(c[0].touches_linked, 2);
	check_int_eq(c[0].touches_cancelled, 1);
	check(tt_li_model_has_layer(tt_stack_li(m)));
	tt_stack_free(m);
}

/* A touch begun long after its slot's kernel touch is not its touch. */
static void
test_touch_outside_window(void)
{
	struct tt_li_event li[] = {
		touch(TT_LI_TOUCH_DOWN, 400000, 0),
		touch(TT_LI_TOUCH_UP, 500000, 0),
	};
	struct seen s = { 0 };
	struct tt_stack *m = run("3m-two-finger.jsonl", li, ARRAY_LENGTH(li), NULL, &s);

	check_int_eq(s.ntouches, 1);
	check_int_eq(s.touches[0].kernel_serial, 0);
	tt_li_model_set_window(tt_stack_li(m), 0);
	tt_stack_free(m);
}

/* touchpad-two-finger-swipe: slot 0 from 0, slot 1 from 14862 us, both
 * up by 805727 us; no kernel button pressed until the end. */
static void
test_touchpad(void)
{
	struct tt_li_event li[MAX_LI];
	size_t n = 0;
	struct seen s = { 0 };

	li[n++] = ev(TT_LI_POINTER_MOTION, 5000);
	li[n - 1].dx = 3; li[n - 1].dy = 4; li[n - 1].dx_unaccel = 1.5; li[n - 1].dy_unaccel = 2;
	li[n++] = ev(TT_LI_GESTURE_PINCH_BEGIN, 100000);
	li[n - 1].fingers = 2;
	li[n++] = ev(TT_LI_GESTURE_PINCH_UPDATE, 110000);
	li[n - 1].dx_unaccel = 1; li[n - 1].dy_unaccel = -2; li[n - 1].scale = 0.8; li[n - 1].angle = 5;
	li[n++] = ev(TT_LI_GESTURE_PINCH_UPDATE, 120000);
	li[n - 1].dx_unaccel = 1; li[n - 1].dy_unaccel = -2; li[n - 1].scale = 0.6; li[n - 1].angle = -2;
	li[n++] = ev(TT_LI_GESTURE_PINCH_END, 130000);
	li[n - 1].fingers = 2; li[n - 1].cancelled = true;
	li[n++] = ev(TT_LI_POINTER_BUTTON, 200000);
	li[n - 1].code = BTN_RIGHT; li[n - 1].pressed = true;
	li[n++] = ev(TT_LI_POINTER_BUTTON, 210000);
	li[n - 1].code = BTN_RIGHT;
	li[n++] = ev(TT_LI_POINTER_SCROLL_FINGER, 300000);
	li[n - 1].has_vert = true; li[n - 1].vert = -10.5;
	li[n++] = ev(TT_LI_POINTER_SCROLL_FINGER, 310000);
	li[n - 1].has_vert = true; li[n - 1].vert = -4.5; li[n - 1].has_horiz = true; li[n - 1].horiz = 1;
	li[n++] = ev(TT_LI_GESTURE_SWIPE_BEGIN, 900000);	/* after every kernel touch */
	li[n - 1].fingers = 3;
	li[n++] = ev(TT_LI_OTHER, 950000);

	struct tt_stack *m = run("touchpad-two-finger-swipe.jsonl", li, n, NULL, &s);
	size_t nc;
	const struct tt_li_counts *c = tt_li_model_counts(tt_stack_li(m), &nc);

	check_int_eq(s.ngestures, 2);
	check_int_eq(s.gestures[0].kind, TT_LI_GESTURE_PINCH);
	check_int_eq(s.gestures[0].fingers, 2);
	check_int_eq(s.gestures[0].nkernel, 2);
	check_int_eq(s.gestures[0].latency_us, 100000 - 14862);
	check_int_eq(s.gestures[0].nupdates, 2);
	check(fabs(s.gestures[0].scale - 0.6) < 1e-9);
	check(fabs(s.gestures[0].angle - 3) < 1e-9);
	check(fabs(s.gestures[0].dy + 4) < 1e-9);
	check(s.gestures[0].cancelled);
	check_int_eq(s.gestures[1].kind, TT_LI_GESTURE_SWIPE);
	check(s.gestures[1].active_at_end);
	check_int_eq(s.gestures[1].nkernel, 0);
	check_int_eq(s.gestures[1].latency_us, -1);
	check_int_eq(nc, 1);
	check_int_eq(c[0].gestures[TT_LI_GESTURE_PINCH][2], 1);
	check_int_eq(c[0].gestures[TT_LI_GESTURE_SWIPE][3], 1);
	check_int_eq(c[0].gestures_cancelled, 1);
	check_int_eq(c[0].taps, 1);
	check_int_eq(c[0].tap_buttons[1], 1);
	check_int_eq(c[0].button_presses, 1);
	check_int_eq(c[0].scroll_events[0], 2);
	check(fabs(c[0].scroll_vert + 15) < 1e-9);
	check(fabs(c[0].scroll_horiz - 1) < 1e-9);
	check(fabs(tt_li_counts_accel_ratio(&c[0]) - 2) < 1e-9);
	check_int_eq(c[0].unknown_events, 1);
	tt_stack_free(m);
}

/* The kernel layer alone: no libinput layer, nothing counted. */
static void
test_no_layer(void)
{
	struct seen s = { 0 };
	struct tt_stack *m = run("3m-two-finger.jsonl", NULL, 0, NULL, &s);
	size_t n;

	tt_li_model_counts(tt_stack_li(m), &n);
	check_int_eq(n, 0);
	check(!tt_li_model_has_layer(tt_stack_li(m)));
	check(isnan(tt_li_counts_accel_ratio(&(struct tt_li_counts){ 0 })));
	tt_stack_free(m);
	tt_li_model_free(NULL);
}

int
main(void)
{
	RUN(test_touch_link);
	RUN(test_touch_outside_window);
	RUN(test_touchpad);
	RUN(test_no_layer);
	return tt_test_result();
}
