/* SPDX-License-Identifier: MIT */
/* replay's pure parts on the host: the schedule (deadlines, speed, ranges,
 * gaps), the player against a fake clock and a buffer sink (loops, stop,
 * release), the neutral-state frames for Type A and B, the initial state of
 * a recording that starts mid-touch, the refusals, values outside absinfo,
 * the guarded keys, and the kernel
 * filtering model that --verify relies on. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "kernel-model.h"
#include "neutral.h"
#include "frame-steps.h"
#include "hid-player.h"
#include "schedule.h"
#include "test-common.h"

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n"
#define DEV_B(extra) "{\"type\":\"device\",\"id\":3,\"name\":\"ts\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3}," \
	"\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\",\"BTN_TOOL_FINGER\",\"BTN_TOOL_DOUBLETAP\"" extra "],\"EV_ABS\":[]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1}," \
	"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100,\"fuzz\":4}}," \
	"\"mt\":{\"protocol\":\"B\",\"slots\":2}}\n"
#define FRAME(t, ev) "{\"type\":\"frame\",\"dev\":3,\"t\":" #t ",\"ev\":[" ev "]}\n"
#define DOWN "[3,57,7],[3,53,50],[1,330,1],[1,325,1],[0,0,0]"
#define MOVE(x) "[3,53," #x "],[0,0,0]"
#define UP "[3,57,-1],[1,330,0],[1,325,0],[0,0,0]"

static struct rp_schedule *
load(const char *text, const struct rp_options *o, int *rc_out, char **errtext)
{
	const char *path = tt_test_tmpfile(text, strlen(text));
	struct rp_schedule *s = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&buf, &len);
	int rc = rp_schedule_load(path, o, err, &s);

	fclose(err);
	if (rc_out)
		*rc_out = rc;
	if (errtext)
		*errtext = buf;
	else
		free(buf);
	return s;
}

/* The fake clock: every wait ends exactly @late_us after its deadline;
 * after @stop_after waits it reports a stop request instead. */
struct fake_clock {
	int64_t now;
	int64_t late_us;
	int waits;
	int stop_after;
};

static int64_t
fake_now(void *data)
{
	return ((struct fake_clock *)data)->now;
}

static int
fake_wait(void *data, int64_t deadline)
{
	struct fake_clock *c = data;

	if (c->stop_after && ++c->waits > c->stop_after)
		return 1;
	if (deadline + c->late_us > c->now)
		c->now = deadline + c->late_us;
	return 0;
}

/* The buffer sink: the frames as written, with their time and tag. */
struct written {
	int64_t time;
	uint32_t dev;
	int64_t tag;
	struct rp_evbuf ev;
};

struct buffer_sink {
	struct fake_clock *clock;
	struct written w[64];
	size_t n;
};

static int
buf_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct buffer_sink *b = data;
	struct written *w;

	if (b->n == ARRAY_LENGTH(b->w))
		return -ENOSPC;
	w = &b->w[b->n++];
	*w = (struct written){ .time = b->clock->now, .dev = dev, .tag = tag };
	for (size_t i = 0; i < n; i++)
		rp_evbuf_push(&w->ev, ev[i].type, ev[i].code, ev[i].value);
	return 0;
}

static void
buf_release(struct buffer_sink *b)
{
	for (size_t i = 0; i < b->n; i++)
		rp_evbuf_release(&b->w[i].ev);
}

static bool
has_event(const struct rp_evbuf *b, unsigned int type, unsigned int code, int value)
{
	for (size_t i = 0; i < b->n; i++) {
		if (b->ev[i].type == type && b->ev[i].code == code && b->ev[i].value == value)
			return true;
	}
	return false;
}

static const char *recording =
	HEADER DEV_B("")
	FRAME(1000, DOWN) FRAME(11000, MOVE(60)) FRAME(21000, MOVE(70))
	FRAME(3021000, MOVE(80)) FRAME(3031000, UP);

static void
test_deadlines(void)
{
	struct rp_options o;
	struct rp_schedule *s;
	int rc;

	rp_options_init(&o);
	s = load(recording, &o, &rc, NULL);
	check_int_eq(rc, 0);
	if (!s)
		return;
	check_int_eq(s->nframes, 5);
	/* Offsets from the first frame, from recorded times. */
	check_int_eq(s->frames[0].offset_us, 0);
	check_int_eq(s->frames[1].offset_us, 10000);
	check_int_eq(s->frames[3].offset_us, 3020000);
	check_int_eq(s->frames[4].offset_us, 3030000);
	check_int_eq(s->span_us, 3030000);
	rp_schedule_free(s);

	/* --speed 2 halves them; --max-gap 0.5 s shortens the 3 s gap. */
	o.speed = 2;
	o.max_gap_us = 500000;
	s = load(recording, &o, &rc, NULL);
	check_int_eq(s->frames[1].offset_us, 5000);
	check_int_eq(s->frames[3].offset_us, (20000 + 500000) / 2);
	check_int_eq(s->frames[4].offset_us, (20000 + 500000 + 10000) / 2);
	rp_schedule_free(s);

	/* --from/--to: a range; state before --from is prepared. */
	rp_options_init(&o);
	o.from_us = 11000;
	o.to_us = 3021000;
	s = load(recording, &o, &rc, NULL);
	check_int_eq(s->nframes, 3);
	check_int_eq(s->frames[0].time_us, 11000);
	check_int_eq(s->frames[0].offset_us, 0);
	check_int_eq(s->devices[0].start.s.slots[0].values[ABS_MT_TRACKING_ID - TT_MT_FIRST], 7);
	check(bit_is_set(s->devices[0].start.s.keys, BTN_TOUCH));
	rp_schedule_free(s);
}

static void
test_play_loops(void)
{
	struct rp_options o;
	struct rp_schedule *s;
	struct fake_clock clock = { .now = 100, .late_us = 5 };
	struct buffer_sink sink = { .clock = &clock };
	struct rp_clock c = { fake_now, fake_wait, &clock };
	struct rp_sink k = { buf_write, &sink };
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	int rc;

	rp_options_init(&o);
	o.loops = 3;
	o.to_us = 21000;	/* ends with the touch down: needs a release */
	s = load(recording, &o, &rc, NULL);
	check_int_eq(rc, 0);
	rc = rp_play(s, &o, 1000000, &c, &k, &st);
	check_int_eq(rc, 0);
	check_int_eq(st.loops_done, 3);
	check_int_eq(st.frames_written, 9);
	/* 3 x 3 frames, a release after loops 1 and 2 and at the end. */
	check_int_eq(sink.n, 12);
	check_int_eq(sink.w[0].time, 1000000 + 5);
	check_int_eq(sink.w[2].time, 1000000 + 20000 + 5);
	check_int_eq(sink.w[3].tag, -1);
	check(has_event(&sink.w[3].ev, EV_ABS, ABS_MT_TRACKING_ID, -1));
	check(has_event(&sink.w[3].ev, EV_KEY, BTN_TOUCH, 0));
	/* Loop 2 starts at its absolute base: no accumulated lateness. */
	check_int_eq(sink.w[4].time, 1000000 + 1 * (20000 + RP_LOOP_PAUSE_US) + 5);
	check_int_eq(sink.w[8].time, 1000000 + 2 * (20000 + RP_LOOP_PAUSE_US) + 5);
	check_int_eq(sink.w[11].tag, -1);
	check(has_event(&sink.w[11].ev, EV_KEY, BTN_TOOL_FINGER, 0));
	rp_stats_summary(&st, &sum);
	check_int_eq(sum.median_us, 5);
	check_int_eq(sum.max_us, 5);
	check_int_eq(sum.drift_us, 0);
	rp_stats_release(&st);
	buf_release(&sink);
	rp_schedule_free(s);
}

static void
test_stop_releases(void)
{
	struct rp_options o;
	struct rp_schedule *s;
	struct fake_clock clock = { .now = 0, .stop_after = 3 };
	struct buffer_sink sink = { .clock = &clock };
	struct rp_clock c = { fake_now, fake_wait, &clock };
	struct rp_sink k = { buf_write, &sink };
	struct rp_stats st = { 0 };

	rp_options_init(&o);
	s = load(recording, &o, NULL, NULL);
	/* Stop (a signal) while the touch is down: base wait + 2 frames. */
	check_int_eq(rp_play(s, &o, 0, &c, &k, &st), 1);
	check_int_eq(st.frames_written, 2);
	check_int_eq(sink.n, 3);
	check_int_eq(sink.w[2].tag, -1);
	check(has_event(&sink.w[2].ev, EV_ABS, ABS_MT_SLOT, 0));
	check(has_event(&sink.w[2].ev, EV_ABS, ABS_MT_TRACKING_ID, -1));
	check(has_event(&sink.w[2].ev, EV_KEY, BTN_TOUCH, 0));
	check(has_event(&sink.w[2].ev, EV_KEY, BTN_TOOL_FINGER, 0));
	rp_stats_release(&st);
	buf_release(&sink);
	rp_schedule_free(s);
}

/* HID reports through the same player: a one-finger touchscreen
 * (report 1: Tip Switch, contact id, X, Y, Contact Count). */
#define HID_DESC "050d0904a10185010922a102094215002501750195018102750781030951250f7508810205010930" \
	"26ff0f7510810209318102c0050d0954250a75088102c0"
#define HID_DEV "{\"type\":\"hid_device\",\"id\":0,\"name\":\"test hid\",\"bus\":3,\"vendor\":1," \
	"\"product\":2,\"version\":3,\"descriptor\":\"" HID_DESC "\"}\n"
#define HID_REPORT(t, data) "{\"type\":\"hid\",\"dev\":0,\"t\":" #t ",\"data\":\"" data "\"}\n"
#define HID_DOWN "0101031000200001"

static const char *hid_recording =
	HEADER HID_DEV HID_REPORT(1000, HID_DOWN) HID_REPORT(11000, "0101031100210001")
	HID_REPORT(21000, "0101031200220001");

struct hid_written {
	int64_t time;
	uint32_t dev;
	int64_t tag;
	uint8_t data[16];
	size_t len;
};

struct hid_buffer_sink {
	struct fake_clock *clock;
	struct hid_written w[64];
	size_t n;
};

static int
hid_buf_write(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag)
{
	struct hid_buffer_sink *b = data;

	if (b->n == ARRAY_LENGTH(b->w) || len > sizeof(b->w[0].data))
		return -ENOSPC;
	b->w[b->n] = (struct hid_written){ .time = b->clock->now, .dev = dev, .tag = tag, .len = len };
	memcpy(b->w[b->n++].data, bytes, len);
	return 0;
}

static struct rp_hid_schedule *
load_hid(const char *text, const struct rp_options *o)
{
	const char *path = tt_test_tmpfile(text, strlen(text));
	struct rp_hid_schedule *s = NULL;
	FILE *err = fopen("/dev/null", "w");

	check_int_eq(rp_hid_schedule_load(path, o, err, &s), 0);
	fclose(err);
	return s;
}

/* The times each kind's recorded steps were written at, in write order. */
static void
check_step_times(const int64_t *times, size_t n, const int64_t *want, size_t nwant)
{
	check_int_eq(n, nwant);
	for (size_t i = 0; i < n && i < nwant; i++)
		check_int_eq(times[i], want[i]);
}

/*
 * Both kinds of step, evdev frames and HID reports recorded at the same
 * times, through the one player with --speed 2 and two loops: each step
 * at start + loop base + offset / 2, the second loop at its absolute base
 * (span + pause after the first), whatever lateness the clock adds, and
 * the lateness noted per step.
 */
static void
test_both_kinds_scheduled(void)
{
	const int64_t start = 1000000, late = 7, span = 20000 / 2;
	const int64_t loop2 = start + span + RP_LOOP_PAUSE_US;
	const int64_t want[] = { start + late, start + 5000 + late, start + span + late,
				 loop2 + late, loop2 + 5000 + late, loop2 + span + late };
	struct rp_options o;
	int64_t times[16];
	size_t n = 0;

	rp_options_init(&o);
	o.loops = 2;
	o.speed = 2;
	o.to_us = 21000;
	struct rp_schedule *s = load(recording, &o, NULL, NULL);
	struct fake_clock clock = { .late_us = late };
	struct buffer_sink sink = { .clock = &clock };
	struct rp_clock c = { fake_now, fake_wait, &clock };
	struct rp_sink k = { buf_write, &sink };
	struct rp_stats st = { 0 };

	check_int_eq(rp_play(s, &o, start, &c, &k, &st), 0);
	for (size_t i = 0; i < sink.n && n < ARRAY_LENGTH(times); i++) {
		if (sink.w[i].tag >= 0)
			times[n++] = sink.w[i].time;
	}
	check_step_times(times, n, want, ARRAY_LENGTH(want));
	check_int_eq(st.nlateness, 6);
	check_int_eq(st.lateness_us[5], late);
	check_int_eq(st.deadlines_us[3], loop2);
	rp_stats_release(&st);
	buf_release(&sink);
	rp_schedule_free(s);

	struct rp_hid_schedule *h = load_hid(hid_recording, &o);
	struct fake_clock hclock = { .late_us = late };
	struct hid_buffer_sink hsink = { .clock = &hclock };
	struct rp_clock hc = { fake_now, fake_wait, &hclock };
	struct rp_hid_sink hk = { hid_buf_write, &hsink };
	struct rp_stats hst = { 0 };

	if (!h)
		return;
	check_int_eq(rp_hid_play(h, &o, start, &hc, &hk, &hst), 0);
	n = 0;
	for (size_t i = 0; i < hsink.n && n < ARRAY_LENGTH(times); i++) {
		if (hsink.w[i].tag >= 0)
			times[n++] = hsink.w[i].time;
	}
	check_step_times(times, n, want, ARRAY_LENGTH(want));
	check_int_eq(hst.loops_done, 2);
	check_int_eq(hst.frames_written, 6);
	check_int_eq(hst.nlateness, 6);
	check_int_eq(hst.lateness_us[5], late);
	check_int_eq(hst.deadlines_us[3], loop2);
	/* The contact lifted before the second loop and at the end. */
	check_int_eq(hst.extra_frames, 2);
	rp_stats_release(&hst);
	rp_hid_schedule_free(h);
}

/* A stop request in the middle of a HID replay: the contact still down
 * is lifted (its last report with the Tip Switch off), as the evdev
 * frames are released (test_stop_releases). */
static void
test_hid_stop_lifts(void)
{
	static const uint8_t lifted[] = { 0x01, 0x00, 0x03, 0x11, 0x00, 0x21, 0x00, 0x01 };
	struct rp_options o;
	struct fake_clock clock = { .stop_after = 3 };
	struct hid_buffer_sink sink = { .clock = &clock };
	struct rp_clock c = { fake_now, fake_wait, &clock };
	struct rp_hid_sink k = { hid_buf_write, &sink };
	struct rp_stats st = { 0 };
	struct rp_hid_schedule *h;

	rp_options_init(&o);
	h = load_hid(hid_recording, &o);
	if (!h)
		return;
	/* The base wait and two reports, then the stop. */
	check_int_eq(rp_hid_play(h, &o, 0, &c, &k, &st), 1);
	check_int_eq(st.frames_written, 2);
	check_int_eq(st.loops_done, 0);
	check_int_eq(sink.n, 3);
	check_int_eq(sink.w[2].tag, -1);
	check_int_eq(sink.w[2].len, sizeof(lifted));
	check(memcmp(sink.w[2].data, lifted, sizeof(lifted)) == 0);
	check_int_eq(st.extra_frames, 1);
	rp_stats_release(&st);
	rp_hid_schedule_free(h);
}

static void
test_mid_touch_start(void)
{
	static const char *text = HEADER
		"{\"type\":\"device\",\"id\":3,\"name\":\"ts\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3},"
		"\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"],\"EV_ABS\":[]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1},"
		"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100}},"
		"\"mt\":{\"protocol\":\"B\",\"slots\":2,\"current_slot\":1,\"state\":[{\"slot\":1,\"ABS_MT_TRACKING_ID\":9,\"ABS_MT_POSITION_X\":40}]},"
		"\"state\":{\"keys_down\":[\"BTN_TOUCH\"]}}\n"
		FRAME(500, "[3,53,41],[0,0,0]") FRAME(900, "[3,57,-1],[1,330,0],[0,0,0]");
	struct rp_options o;
	struct rp_schedule *s;
	struct fake_clock clock = { 0 };
	struct buffer_sink sink = { .clock = &clock };
	struct rp_clock c = { fake_now, fake_wait, &clock };
	struct rp_sink k = { buf_write, &sink };
	struct rp_stats st = { 0 };
	const struct rp_evbuf *p;

	rp_options_init(&o);
	s = load(text, &o, NULL, NULL);
	check(s != NULL);
	if (!s)
		return;
	check_int_eq(rp_play(s, &o, 0, &c, &k, &st), 0);
	check_int_eq(sink.n, 3);	/* prepare + 2 frames, neutral at the end */
	p = &sink.w[0].ev;
	check_int_eq(sink.w[0].tag, -1);
	check_int_eq(p->n, 5);
	check_int_eq(p->ev[0].code, ABS_MT_SLOT);
	check_int_eq(p->ev[0].value, 1);
	check_int_eq(p->ev[1].code, ABS_MT_TRACKING_ID);
	check_int_eq(p->ev[1].value, 9);
	check_int_eq(p->ev[2].code, ABS_MT_POSITION_X);
	check_int_eq(p->ev[2].value, 40);
	check_int_eq(p->ev[3].code, BTN_TOUCH);
	check_int_eq(p->ev[4].code, SYN_REPORT);
	rp_stats_release(&st);
	buf_release(&sink);
	rp_schedule_free(s);
}

static void
test_neutral_type_a(void)
{
	struct tt_device *dev = tt_device_new(0);
	struct rp_state st;
	struct rp_evbuf out = { 0 };
	static const struct input_event frame[] = {
		{ .type = EV_ABS, .code = ABS_MT_POSITION_X, .value = 5 },
		{ .type = EV_SYN, .code = SYN_MT_REPORT },
		{ .type = EV_KEY, .code = BTN_TOUCH, .value = 1 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};

	tt_device_enable(dev, EV_ABS, ABS_MT_POSITION_X);
	tt_device_enable(dev, EV_KEY, BTN_TOUCH);
	dev->mt_protocol = TT_MT_A;
	rp_state_init_created(&st, dev);
	check(rp_state_is_neutral(&st));
	check_int_eq(rp_state_neutral_frame(&st, false, &out), 0);
	rp_state_apply(&st, frame, ARRAY_LENGTH(frame));
	check(!rp_state_is_neutral(&st));
	check_int_eq(rp_state_neutral_frame(&st, false, &out), 3);
	check_int_eq(out.ev[0].code, BTN_TOUCH);
	check_int_eq(out.ev[0].value, 0);
	check_int_eq(out.ev[1].type, EV_SYN);
	check_int_eq(out.ev[1].code, SYN_MT_REPORT);
	check_int_eq(out.ev[2].code, SYN_REPORT);
	rp_state_apply(&st, out.ev, out.n);
	check(rp_state_is_neutral(&st));
	rp_evbuf_release(&out);
	rp_state_release(&st);
	tt_device_free(dev);
}

static void
test_neutral_type_b(void)
{
	struct tt_device *dev = tt_device_new(0);
	struct rp_state st;
	struct rp_evbuf out = { 0 };
	static const struct input_event frame[] = {
		{ .type = EV_ABS, .code = ABS_MT_SLOT, .value = 0 },
		{ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = 1 },
		{ .type = EV_ABS, .code = ABS_MT_SLOT, .value = 2 },
		{ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = 2 },
		{ .type = EV_KEY, .code = BTN_TOUCH, .value = 1 },
		{ .type = EV_KEY, .code = BTN_TOOL_DOUBLETAP, .value = 1 },
		{ .type = EV_KEY, .code = BTN_LEFT, .value = 1 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	static const struct { unsigned int type, code; int value; } want[] = {
		{ EV_ABS, ABS_MT_SLOT, 0 }, { EV_ABS, ABS_MT_TRACKING_ID, -1 },
		{ EV_ABS, ABS_MT_SLOT, 2 }, { EV_ABS, ABS_MT_TRACKING_ID, -1 },
		{ EV_KEY, BTN_TOUCH, 0 }, { EV_KEY, BTN_TOOL_DOUBLETAP, 0 },
		{ EV_KEY, BTN_LEFT, 0 }, { EV_SYN, SYN_REPORT, 0 },
	};

	tt_device_enable(dev, EV_ABS, ABS_MT_SLOT);
	tt_device_enable(dev, EV_ABS, ABS_MT_TRACKING_ID);
	dev->mt_protocol = TT_MT_B;
	tt_device_set_slots(dev, 3);
	rp_state_init_created(&st, dev);
	rp_state_apply(&st, frame, ARRAY_LENGTH(frame));
	check_int_eq(rp_state_neutral_frame(&st, false, &out), ARRAY_LENGTH(want));
	for (size_t i = 0; i < ARRAY_LENGTH(want) && i < out.n; i++) {
		check_int_eq(out.ev[i].type, want[i].type);
		check_int_eq(out.ev[i].code, want[i].code);
		check_int_eq(out.ev[i].value, want[i].value);
	}
	rp_state_apply(&st, out.ev, out.n);
	check(rp_state_is_neutral(&st));
	rp_evbuf_release(&out);
	rp_state_release(&st);
	tt_device_free(dev);
}

/* Occurrences of @needle in @hay. */
static size_t
count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void
test_refusals(void)
{
	struct rp_options o;
	struct rp_schedule *s;
	char *err = NULL;
	int rc;

	rp_options_init(&o);
	/* A malformed line is refused. */
	s = load(HEADER DEV_B("") FRAME(1, DOWN) "{\"type\":\"frame\",\"dev\":3\n", &o, &rc, &err);
	check(s == NULL);
	check_int_eq(rc, -EINVAL);
	check_contains(err, ":4: ");
	check_contains(err, "nothing was created");
	free(err);

	/* A frame out of time order: the schedule cannot place it. */
	s = load(HEADER DEV_B("") FRAME(5, DOWN) FRAME(2, MOVE(6)), &o, &rc, &err);
	check(s == NULL);
	check_int_eq(rc, -EINVAL);
	check_contains(err, ":4: error: ");
	check_contains(err, "[time-backwards]");
	free(err);

	/* A code replay cannot create: force feedback needs a driver
	 * (uinput-device.c leaves EV_FF out). */
	s = load(HEADER DEV_B("") FRAME(1, DOWN) FRAME(2, "[21,80,1],[0,0,0]"), &o, &rc, &err);
	check(s == NULL);
	check_int_eq(rc, -EINVAL);
	check_contains(err, ":4: error: ");
	check_contains(err, "the kernel cannot create it [unsupported-code]");
	free(err);

	/* A tracking ID active in two slots is an error for validate, but
	 * uinput delivers it as written: replayed, said once. */
	s = load(HEADER DEV_B("") FRAME(1, DOWN) FRAME(2, "[3,47,1],[3,57,7],[0,0,0]")
		 FRAME(3, "[3,57,-1],[3,47,0],[3,57,-1],[0,0,0]"), &o, &rc, &err);
	check_int_eq(rc, 0);
	check_contains(err, ":4: error: ");
	check_contains(err, "[tracking-id-reused] (1 in all): replayed anyway");
	check_int_eq(s ? s->nframes : 0, 3);
	rp_schedule_free(s);
	free(err);

	/* --device naming no device. */
	uint32_t id = 9;
	rp_options_init(&o);
	o.device_ids = &id;
	o.ndevice_ids = 1;
	s = load(recording, &o, &rc, &err);
	check_int_eq(rc, -ENOENT);
	check_contains(err, "no device with id 9");
	free(err);
}

/* Codes the frames use that the description lacks are added to the
 * device (the device delivered them), said once per device with where
 * each axis's range comes from; guarded keys only with --allow-keys. */
static void
test_undeclared(void)
{
	static const char text[] = HEADER DEV_B("") FRAME(1, DOWN)
		FRAME(2, "[1,272,1],[3,0,40],[3,58,30],[0,0,0]")	/* BTN_LEFT, ABS_X, ABS_MT_PRESSURE */
		FRAME(3, "[3,58,5],[1,30,1],[0,0,0]")			/* KEY_A */
		FRAME(4, "[1,272,0],[3,58,12],[1,30,0],[0,0,0]");
	struct rp_options o;
	struct rp_schedule *s;
	const struct tt_device *d;
	char *err = NULL;
	int rc;

	rp_options_init(&o);
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check_int_eq(count_of(err, "the description lacks"), 1);
	check_contains(err, "warning: device 3 \"ts\": the description lacks BTN_LEFT, "
		       "ABS_X (absinfo of ABS_MT_POSITION_X), ABS_MT_PRESSURE (range of the values "
		       "seen), used by the recording: added");
	check_contains(err, "2 events of keys that can type or act on your session, and that its "
		       "description lacks, dropped");
	d = s ? s->devices[0].dev : NULL;
	check(d && tt_device_has(d, EV_KEY, BTN_LEFT) && !tt_device_has(d, EV_KEY, KEY_A));
	check(d && tt_device_has(d, EV_ABS, ABS_X) && d->abs[ABS_X].maximum == 100 &&
	      d->abs[ABS_X].fuzz == 4);
	check(d && d->abs[ABS_MT_PRESSURE].minimum == 5 && d->abs[ABS_MT_PRESSURE].maximum == 30);
	/* The reader's device is left as described. */
	check(s && !tt_device_has(tt_reader_device(s->reader, 3), EV_KEY, BTN_LEFT));
	check_int_eq(s ? s->nframes : 0, 4);
	rp_schedule_free(s);
	free(err);

	o.allow_keys = true;
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check_contains(err, "lacks KEY_A, BTN_LEFT, ABS_X");
	check(s && tt_device_has(s->devices[0].dev, EV_KEY, KEY_A));
	rp_schedule_free(s);
	free(err);
}

/* Values outside absinfo are replayed as recorded (the kernel does not
 * clamp) and said once per device, with the axes and their counts. */
static void
test_outside_range(void)
{
	struct rp_options o;
	struct rp_schedule *s;
	char *err = NULL;
	int rc;

	rp_options_init(&o);
	s = load(HEADER DEV_B("") FRAME(1, DOWN) FRAME(2, MOVE(500)) FRAME(3, MOVE(-3))
		 FRAME(4, MOVE(60)), &o, &rc, &err);
	check_int_eq(rc, 0);
	check(s != NULL);
	if (!s) {
		free(err);
		return;
	}
	check_int_eq(s->nframes, 4);
	check_int_eq(s->devices[0].outside[ABS_MT_POSITION_X], 2);
	check_int_eq(count_of(err, "value-out-of-range"), 1);
	check_contains(err, "warning: device 3 \"ts\": 2 values outside the absinfo range of "
		       "ABS_MT_POSITION_X (2): replayed as recorded");
	/* Written as recorded. */
	check_int_eq(s->frames[1].events[0].value, 500);
	check_int_eq(s->frames[2].events[0].value, -3);
	rp_schedule_free(s);
	free(err);

	/* Only what is played counts: --to before the values. */
	o.to_us = 1;
	s = load(HEADER DEV_B("") FRAME(1, DOWN) FRAME(2, MOVE(500)), &o, &rc, &err);
	check_int_eq(rc, 0);
	check_int_eq(count_of(err, "value-out-of-range"), 0);
	rp_schedule_free(s);
	free(err);
}

/* An axis uinput refuses (a flat wider than its range): left out when
 * the recording does not use it, refused when it does. */
static void
test_uncreatable_axis(void)
{
	static const char dev[] = "{\"type\":\"device\",\"id\":3,\"name\":\"ts\",\"input_id\":{\"bustype\":3,"
		"\"vendor\":1,\"product\":2,\"version\":3},\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"],\"EV_ABS\":[]},"
		"\"absinfo\":{\"ABS_X\":{\"min\":0,\"max\":100},\"ABS_Y\":{\"min\":0,\"max\":10,\"flat\":20}}}\n";
	struct rp_options o;
	struct rp_schedule *s;
	char *err = NULL;
	int rc;

	char *text = NULL;

	rp_options_init(&o);
	check(asprintf(&text, HEADER "%s" FRAME(1, "[3,0,5],[1,330,1],[0,0,0]"), dev) > 0);
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check_contains(err, "replayed without its axes ABS_Y: uinput cannot create them");
	check(s && !tt_device_has(s->devices[0].dev, EV_ABS, ABS_Y));
	check(s && tt_device_has(s->devices[0].dev, EV_ABS, ABS_X));
	rp_schedule_free(s);
	free(err);
	free(text);
	check(asprintf(&text, HEADER "%s" FRAME(1, "[3,0,5],[0,0,0]") FRAME(2, "[3,1,5],[0,0,0]"), dev) > 0);
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, -EINVAL);
	check_contains(err, ":4: device 3 \"ts\": uinput cannot create its axes ABS_Y");
	check_contains(err, "nothing was created");
	free(err);
	free(text);
}

#define KBD "{\"type\":\"device\",\"id\":4,\"name\":\"kbd\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":3,\"version\":1}," \
	"\"codes\":{\"EV_KEY\":[\"KEY_A\",\"KEY_ENTER\",\"KEY_VOLUMEUP\"]}}\n"
#define KFRAME(t, ev) "{\"type\":\"frame\",\"dev\":4,\"t\":" #t ",\"ev\":[" ev "]}\n"

static bool
frame_has_key(const struct rp_frame *f, unsigned int code)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		if (f->events[i].type == EV_KEY && f->events[i].code == code)
			return true;
	}
	return false;
}

/* A touchscreen with KEY_WAKEUP and KEY_LEFTMETA, and a keyboard. */
static void
test_keys(void)
{
	static const char text[] = HEADER DEV_B(",\"KEY_WAKEUP\",\"KEY_LEFTMETA\"") KBD
		FRAME(1, DOWN)
		FRAME(2, "[1,125,1],[0,0,0]")		/* KEY_LEFTMETA alone: dropped */
		FRAME(3, "[3,53,51],[1,125,0],[0,0,0]")	/* the move stays */
		FRAME(4, "[1,143,1],[0,0,0]")		/* KEY_WAKEUP stays */
		KFRAME(5, "[1,30,1],[0,0,0]")
		FRAME(6, UP);
	struct rp_options o;
	struct rp_schedule *s;
	char *err = NULL;
	int rc;

	rp_options_init(&o);
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check(s != NULL);
	if (!s) {
		free(err);
		return;
	}
	check_int_eq(s->ndevices, 1);
	check_int_eq(s->nleft_out, 1);
	check_contains(err, "device 4 \"kbd\" is left out");
	check_contains(err, "KEY_ENTER, KEY_A (2 keys)");
	check_int_eq(count_of(err, "--allow-keys"), 2);
	check_contains(err, "device 3 \"ts\": replayed without its keys");
	check_contains(err, "KEY_LEFTMETA (1 key) not created, 2 events dropped");
	/* The device loses KEY_LEFTMETA only. */
	check(!tt_device_has(s->devices[0].dev, EV_KEY, KEY_LEFTMETA));
	check(tt_device_has(s->devices[0].dev, EV_KEY, KEY_WAKEUP));
	check(tt_device_has(s->devices[0].dev, EV_KEY, BTN_TOUCH));
	check_int_eq(s->nframes, 4);
	for (size_t i = 0; i < s->nframes; i++) {
		check(!frame_has_key(&s->frames[i], KEY_LEFTMETA));
		check(!frame_has_key(&s->frames[i], KEY_A));
	}
	check(frame_has_key(&s->frames[2], KEY_WAKEUP));
	check_int_eq(s->frames[1].events[0].code, ABS_MT_POSITION_X);
	rp_schedule_free(s);
	free(err);

	/* --device of the keyboard: said, not an error. */
	uint32_t id = 4;
	o.device_ids = &id;
	o.ndevice_ids = 1;
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check_int_eq(s ? s->ndevices : 1, 0);
	check_int_eq(s ? s->nframes : 1, 0);
	rp_schedule_free(s);
	free(err);

	/* --allow-keys: everything. */
	rp_options_init(&o);
	o.allow_keys = true;
	s = load(text, &o, &rc, &err);
	check_int_eq(rc, 0);
	check_int_eq(s ? s->ndevices : 0, 2);
	check_int_eq(s ? s->nframes : 0, 6);
	check_int_eq(count_of(err, "--allow-keys"), 0);
	rp_schedule_free(s);
	free(err);
}

static void
test_kernel_model(void)
{
	struct tt_device *dev = tt_device_new(0);
	struct input_absinfo abs[ABS_CNT] = { 0 };
	struct rp_kmodel m;
	struct rp_evbuf out = { 0 };
	size_t reasons[RP_R_COUNT] = { 0 };
	static const struct input_event f1[] = {
		{ .type = EV_ABS, .code = ABS_MT_SLOT, .value = 0 },	/* staged, same slot */
		{ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = 4 },
		{ .type = EV_ABS, .code = ABS_X, .value = 100 },
		{ .type = EV_KEY, .code = BTN_TOUCH, .value = 1 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	static const struct input_event f2[] = {
		{ .type = EV_ABS, .code = ABS_X, .value = 102 },	/* within fuzz/2 */
		{ .type = EV_KEY, .code = BTN_TOUCH, .value = 1 },	/* unchanged */
		{ .type = EV_SYN, .code = SYN_REPORT },			/* empty: dropped */
	};
	static const struct input_event f3[] = {
		{ .type = EV_ABS, .code = ABS_X, .value = 108 },	/* smoothed (100+108)/2 */
		{ .type = EV_ABS, .code = ABS_MT_SLOT, .value = 1 },
		{ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = 5 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};

	tt_device_enable(dev, EV_ABS, ABS_X);
	tt_device_enable(dev, EV_ABS, ABS_MT_SLOT);
	tt_device_enable(dev, EV_ABS, ABS_MT_TRACKING_ID);
	tt_device_enable(dev, EV_KEY, BTN_TOUCH);
	abs[ABS_X] = (struct input_absinfo){ .maximum = 1000, .fuzz = 8 };
	abs[ABS_MT_SLOT] = (struct input_absinfo){ .maximum = 1 };
	abs[ABS_MT_TRACKING_ID] = (struct input_absinfo){ .maximum = 100 };
	rp_kmodel_init(&m, dev, abs);
	rp_kmodel_feed(&m, f1, ARRAY_LENGTH(f1), &out, reasons);
	check_int_eq(out.n, 4);
	check_int_eq(out.ev[0].code, ABS_MT_TRACKING_ID);
	check_int_eq(reasons[RP_R_SLOT_STAGED], 1);
	rp_kmodel_feed(&m, f2, ARRAY_LENGTH(f2), &out, reasons);
	check_int_eq(out.n, 4);
	check_int_eq(reasons[RP_R_FUZZ_DROPPED], 1);
	check_int_eq(reasons[RP_R_STATE_UNCHANGED], 1);
	check_int_eq(reasons[RP_R_EMPTY_FRAME], 1);
	rp_kmodel_feed(&m, f3, ARRAY_LENGTH(f3), &out, reasons);
	check_int_eq(out.n, 8);
	check_int_eq(out.ev[4].code, ABS_X);
	check_int_eq(out.ev[4].value, 104);
	check_int_eq(reasons[RP_R_FUZZ_SMOOTHED], 1);
	check_int_eq(out.ev[5].code, ABS_MT_SLOT);
	check_int_eq(out.ev[5].value, 1);
	check_int_eq(out.ev[6].code, ABS_MT_TRACKING_ID);
	check_int_eq(reasons[RP_R_OUTSIDE_ABSINFO], 0);
	/* The kernel checks no range: delivered, and counted. */
	static const struct input_event f4[] = {
		{ .type = EV_ABS, .code = ABS_X, .value = 1200 },
		{ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = -1 },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	rp_kmodel_feed(&m, f4, ARRAY_LENGTH(f4), &out, reasons);
	check_int_eq(out.n, 11);
	check_int_eq(out.ev[8].value, 1200);
	check_int_eq(reasons[RP_R_OUTSIDE_ABSINFO], 1);
	rp_kmodel_release(&m);
	rp_evbuf_release(&out);
	tt_device_free(dev);
}

/* The production clock never returns before a deadline, whether it
 * spins the last stretch or sleeps on the timer alone, and a signal ends
 * a wait (no figure of lateness here: that is bench/'s job). */
static void
test_real_clock(void)
{
	static const int64_t spins[] = { 0, 300, TT_LOOP_DEFAULT_SPIN_US };

	for (size_t k = 0; k < ARRAY_LENGTH(spins); k++) {
		_cleanup_(rp_live_clock_freep) struct rp_live_clock *l = NULL;
		check_int_eq(rp_live_clock_new(spins[k], &l), 0);
		struct rp_clock c = rp_live_clock_get(l);
		int64_t deadline = c.now(c.data);
		unsigned int seed = 7;
		for (int i = 0; i < 60; i++) {
			deadline += rand_r(&seed) % 3000;
			check_int_eq(c.wait_until(c.data, deadline), 0);
			check(c.now(c.data) >= deadline);
		}
		/* A deadline in the past returns at once. */
		check_int_eq(c.wait_until(c.data, deadline - 1000000), 0);
		/* SIGTERM (blocked, read through the signalfd) ends a long wait. */
		kill(getpid(), SIGTERM);
		int64_t t0 = c.now(c.data);
		check_int_eq(c.wait_until(c.data, t0 + 10000000), 1);
		check(c.now(c.data) - t0 < 5000000);
		check_int_eq(rp_live_clock_stop_signal(l), SIGTERM);
	}
}

int
main(void)
{
	RUN(test_deadlines);
	RUN(test_play_loops);
	RUN(test_stop_releases);
	RUN(test_both_kinds_scheduled);
	RUN(test_hid_stop_lifts);
	RUN(test_mid_touch_start);
	RUN(test_neutral_type_a);
	RUN(test_neutral_type_b);
	RUN(test_refusals);
	RUN(test_undeclared);
	RUN(test_outside_range);
	RUN(test_keys);
	RUN(test_uncreatable_axis);
	RUN(test_kernel_model);
	RUN(test_real_clock);
	return tt_test_result();
}
