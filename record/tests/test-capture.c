/* SPDX-License-Identifier: MIT */
/* tt_capture fed through a pipe2() fd, as libevdev's own tests fake what a
 * kernel cannot be made to produce on demand: split reads, a SYN_DROPPED at
 * a chosen point, a writer that vanishes mid-frame. Keyboard masking too.
 * The resync after SYN_DROPPED needs a real evdev fd (libevdev's ioctls)
 * and is tested in the VM (record/tests/vm-record.sh). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "evdev-capture.h"
#include "keymask.h"
#include "test-common.h"

#define MAX_FRAMES 16

struct got {
	size_t n;
	struct tt_frame frames[MAX_FRAMES];
	struct tt_event events[MAX_FRAMES][64];
	int fail_at;	/* return -EPIPE on this frame number (1-based), 0: never */
};

static int
collect(void *userdata, const struct tt_frame *f)
{
	struct got *g = userdata;

	if (g->fail_at && (int)g->n + 1 == g->fail_at)
		return -EPIPE;
	if (g->n == MAX_FRAMES || f->nevents > 64)
		return -E2BIG;
	g->frames[g->n] = *f;
	memcpy(g->events[g->n], f->events, f->nevents * sizeof(*f->events));
	g->frames[g->n].events = g->events[g->n];
	g->n++;
	return 0;
}

static struct input_event
ev(int64_t us, uint16_t type, uint16_t code, int32_t value)
{
	struct input_event e = { .type = type, .code = code, .value = value };

	e.input_event_sec = us / 1000000;
	e.input_event_usec = us % 1000000;
	return e;
}

static void
put(int fd, const struct input_event *evs, size_t n)
{
	ssize_t len = write(fd, evs, n * sizeof(*evs));
	if (len != (ssize_t)(n * sizeof(*evs)))
		abort();
}

static struct tt_device *
touch_device(void)
{
	struct tt_device *d = tt_device_new(3);

	d->name = tt_strdup("test touchscreen");
	tt_device_enable(d, EV_KEY, BTN_TOUCH);
	tt_device_enable(d, EV_ABS, ABS_MT_SLOT);
	tt_device_enable(d, EV_ABS, ABS_MT_POSITION_X);
	tt_device_enable(d, EV_ABS, ABS_MT_TRACKING_ID);
	d->mt_protocol = TT_MT_B;
	tt_device_set_slots(d, 2);
	return d;
}

static struct tt_device *
keyboard_device(void)
{
	struct tt_device *d = tt_device_new(1);

	d->name = tt_strdup("test keyboard");
	for (unsigned int code = KEY_ESC; code <= KEY_KPDOT; code++)
		tt_device_enable(d, EV_KEY, code);
	tt_device_enable(d, EV_KEY, BTN_LEFT);
	tt_device_enable(d, EV_MSC, MSC_SCAN);
	return d;
}

static struct tt_capture *
open_pipe(struct tt_device *dev, unsigned int flags, int *wfd)
{
	int fds[2];
	struct tt_capture *c = NULL;

	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) < 0)
		abort();
	check_int_eq(tt_capture_new_from_fd(fds[0], dev, flags, &c), 0);
	*wfd = fds[1];
	return c;
}

static void
test_frames_and_times(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);
	struct got g = { 0 };
	const int64_t start = 5000000;
	struct input_event in[] = {
		ev(5000100, EV_ABS, ABS_MT_TRACKING_ID, 7),
		ev(5000100, EV_ABS, ABS_MT_POSITION_X, 100),
		ev(5000100, EV_KEY, BTN_TOUCH, 1),
		ev(5000100, EV_SYN, SYN_REPORT, 0),
		ev(5000150, EV_ABS, ABS_MT_POSITION_X, 110),
		ev(5000170, EV_SYN, SYN_REPORT, 0),
	};

	put(wfd, in, ARRAY_LENGTH(in));
	check_int_eq(tt_capture_dispatch(c, start, collect, &g), 0);
	check_int_eq(g.n, 2);
	check_int_eq(g.frames[0].device, 3);
	check_int_eq(g.frames[0].time_us, 100);
	check_int_eq(g.frames[0].flags, 0);
	check_int_eq(g.frames[0].nevents, 4);
	check_int_eq(g.events[0][0].code, ABS_MT_TRACKING_ID);
	check_int_eq(g.events[0][0].value, 7);
	check_int_eq(g.events[0][2].code, BTN_TOUCH);
	check_int_eq(g.events[0][3].type, EV_SYN);
	check_int_eq(g.events[0][0].dt_us, 0);
	/* The frame is timed at its SYN_REPORT; the earlier event keeps its
	 * own kernel time as an offset. */
	check_int_eq(g.frames[1].time_us, 170);
	check_int_eq(g.events[1][0].dt_us, -20);
	check_int_eq(g.events[1][1].dt_us, 0);
	check_int_eq(tt_capture_nframes(c), 2);
	check_int_eq(tt_capture_nevents(c), 6);
	check_int_eq(tt_capture_drops(c), 0);
	close(wfd);
	tt_capture_free(c);
}

static void
test_split_reads(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);
	struct got g = { 0 };
	struct input_event in[] = {
		ev(10, EV_ABS, ABS_MT_POSITION_X, 5),
		ev(10, EV_SYN, SYN_REPORT, 0),
	};
	const char *bytes = (const char *)in;
	size_t half = sizeof(in[0]) / 2;

	/* Half an event, then the rest: no frame until it is whole. */
	check(write(wfd, bytes, half) == (ssize_t)half);
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 0);
	check(write(wfd, bytes + half, sizeof(in) - half) == (ssize_t)(sizeof(in) - half));
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 1);
	check_int_eq(g.frames[0].nevents, 2);
	check_int_eq(g.events[0][0].value, 5);
	close(wfd);
	tt_capture_free(c);
}

static void
test_syn_dropped(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);
	struct got g = { 0 };
	struct input_event in[] = {
		ev(10, EV_ABS, ABS_MT_POSITION_X, 5),
		ev(10, EV_SYN, SYN_REPORT, 0),
		ev(20, EV_ABS, ABS_MT_POSITION_X, 6),	/* partial: cut by the drop */
		ev(30, EV_SYN, SYN_DROPPED, 0),
		ev(40, EV_ABS, ABS_MT_POSITION_X, 7),	/* queued behind: discarded */
		ev(40, EV_SYN, SYN_REPORT, 0),
	};

	put(wfd, in, ARRAY_LENGTH(in));
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 3);
	check_int_eq(g.frames[0].flags, 0);
	check_int_eq(g.frames[1].flags, TT_FRAME_INCOMPLETE);
	check_int_eq(g.frames[1].nevents, 1);
	check_int_eq(g.frames[1].time_us, 20);
	check_int_eq(g.frames[2].flags, TT_FRAME_DROPPED);
	check_int_eq(g.frames[2].nevents, 1);
	check_int_eq(g.events[2][0].code, SYN_DROPPED);
	check_int_eq(g.frames[2].time_us, 30);
	check_int_eq(tt_capture_drops(c), 1);
	check_int_eq(tt_capture_discarded(c), 2);

	/* Recording continues normally afterwards. */
	struct input_event more[] = {
		ev(50, EV_ABS, ABS_MT_POSITION_X, 8),
		ev(50, EV_SYN, SYN_REPORT, 0),
	};
	put(wfd, more, ARRAY_LENGTH(more));
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 4);
	check_int_eq(g.frames[3].flags, 0);
	check_int_eq(g.events[3][0].value, 8);
	close(wfd);
	tt_capture_free(c);
}

static void
test_vanished_mid_frame(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);
	struct got g = { 0 };
	struct input_event in[] = {
		ev(10, EV_ABS, ABS_MT_POSITION_X, 5),
		ev(10, EV_SYN, SYN_REPORT, 0),
		ev(20, EV_ABS, ABS_MT_POSITION_X, 6),
	};

	put(wfd, in, ARRAY_LENGTH(in));
	close(wfd);
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), -ENODEV);
	check_int_eq(g.n, 2);
	check_int_eq(g.frames[1].flags, TT_FRAME_INCOMPLETE);
	check_int_eq(g.frames[1].nevents, 1);
	tt_capture_free(c);
}

static void
test_callback_error(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);
	struct got g = { .fail_at = 2 };
	struct input_event in[] = {
		ev(10, EV_SYN, SYN_REPORT, 0),
		ev(20, EV_SYN, SYN_REPORT, 0),
		ev(30, EV_SYN, SYN_REPORT, 0),
	};

	put(wfd, in, ARRAY_LENGTH(in));
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), -EPIPE);
	check_int_eq(g.n, 1);
	close(wfd);
	tt_capture_free(c);
}

/* Types "hi", with the second key pressed before the first is released;
 * plus Enter and a mouse button, which are never masked. */
static size_t
type_hi(int wfd)
{
	struct input_event in[] = {
		ev(10, EV_MSC, MSC_SCAN, 0x23), ev(10, EV_KEY, KEY_H, 1), ev(10, EV_SYN, SYN_REPORT, 0),
		ev(20, EV_MSC, MSC_SCAN, 0x17), ev(20, EV_KEY, KEY_I, 1), ev(20, EV_SYN, SYN_REPORT, 0),
		ev(30, EV_KEY, KEY_H, 0), ev(30, EV_SYN, SYN_REPORT, 0),
		ev(35, EV_KEY, KEY_I, 2), ev(35, EV_SYN, SYN_REPORT, 0),
		ev(40, EV_KEY, KEY_I, 0), ev(40, EV_SYN, SYN_REPORT, 0),
		ev(50, EV_KEY, KEY_ENTER, 1), ev(50, EV_KEY, BTN_LEFT, 1), ev(50, EV_SYN, SYN_REPORT, 0),
	};
	put(wfd, in, ARRAY_LENGTH(in));
	return ARRAY_LENGTH(in);
}

static void
test_masking(void)
{
	int wfd;
	struct tt_device *dev = keyboard_device();
	set_bit(dev->keys_down, KEY_Z);	/* held when the recording starts */
	struct tt_capture *c = open_pipe(dev, 0, &wfd);
	struct got g = { 0 };
	const struct tt_device *d = tt_capture_device(c);

	check(tt_capture_masking(c));
	/* The placeholders are the keyboard's lowest private codes: KEY_1, KEY_2. */
	check(!bit_is_set(d->keys_down, KEY_Z));
	check(bit_is_set(d->keys_down, KEY_1));

	type_hi(wfd);
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 6);
	check_int_eq(g.events[0][0].code, MSC_SCAN);
	check_int_eq(g.events[0][0].value, 0);
	/* KEY_Z holds KEY_1, so H is the second key held: KEY_2; I the third. */
	check_int_eq(g.events[0][1].code, KEY_2);
	check_int_eq(g.events[0][1].value, 1);
	check_int_eq(g.events[1][0].value, 0);
	check_int_eq(g.events[1][1].code, KEY_3);
	check_int_eq(g.events[2][0].code, KEY_2);	/* H released */
	check_int_eq(g.events[2][0].value, 0);
	check_int_eq(g.events[3][0].code, KEY_3);	/* I repeats */
	check_int_eq(g.events[3][0].value, 2);
	check_int_eq(g.events[4][0].code, KEY_3);	/* I released */
	check_int_eq(g.events[5][0].code, KEY_ENTER);
	check_int_eq(g.events[5][1].code, BTN_LEFT);
	for (size_t f = 0; f < g.n; f++)
		for (uint32_t i = 0; i < g.frames[f].nevents; i++)
			check(g.events[f][i].type != EV_KEY ||
			      (g.events[f][i].code != KEY_H && g.events[f][i].code != KEY_I));
	close(wfd);
	tt_capture_free(c);
}

static void
test_show_keycodes(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(keyboard_device(), TT_CAPTURE_SHOW_KEYCODES, &wfd);
	struct got g = { 0 };

	check(!tt_capture_masking(c));
	type_hi(wfd);
	check_int_eq(tt_capture_dispatch(c, 0, collect, &g), 0);
	check_int_eq(g.n, 6);
	check_int_eq(g.events[0][0].value, 0x23);
	check_int_eq(g.events[0][1].code, KEY_H);
	check_int_eq(g.events[1][1].code, KEY_I);
	close(wfd);
	tt_capture_free(c);
}

static void
test_touch_never_masked(void)
{
	int wfd;
	struct tt_capture *c = open_pipe(touch_device(), 0, &wfd);

	check(!tt_capture_masking(c));
	close(wfd);
	tt_capture_free(c);
	check(!tt_keymask_is_private(BTN_TOUCH));
	check(!tt_keymask_is_private(BTN_TOOL_FINGER));
	check(!tt_keymask_is_private(BTN_LEFT));
	check(!tt_keymask_is_private(BTN_STYLUS));
	check(!tt_keymask_is_private(KEY_LEFTSHIFT));
	check(!tt_keymask_is_private(KEY_BACKSPACE));
	check(tt_keymask_is_private(KEY_A));
	check(tt_keymask_is_private(KEY_0));
	check(tt_keymask_is_private(KEY_KP5));
	check(tt_keymask_is_private(KEY_SPACE));
	check(tt_keymask_is_private(KEY_SEMICOLON));
}

int
main(void)
{
	RUN(test_frames_and_times);
	RUN(test_split_reads);
	RUN(test_syn_dropped);
	RUN(test_vanished_mid_frame);
	RUN(test_callback_error);
	RUN(test_masking);
	RUN(test_show_keycodes);
	RUN(test_touch_never_masked);
	return tt_test_result();
}
