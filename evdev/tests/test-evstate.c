/* SPDX-License-Identifier: MIT */
/* The device state a recording starts from and resyncs to
 * (evdev/evdev-state.h), on the host: the consistency loop against a fake
 * device that moves while it is read, the events applied to a state, and
 * the resync frames between two states. Reading a real device is
 * tests/start-state-vm.sh's. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "evdev-state.h"
#include "test-common.h"

#define TID (ABS_MT_TRACKING_ID - TT_MT_FIRST)
#define PX (ABS_MT_POSITION_X - TT_MT_FIRST)

/* A touch that moves 10 to the right during each of the first @moving
 * reads: the read sees the slot's new position but ABS_X's old one (the
 * kernel's axes are read one by one), and the frame that moved it is
 * queued behind. @queued frames were queued before the first read (the
 * read holds them). */
struct fake {
	int moving;
	int queued;
	int reads;
	int drains;
	int fail_read_at;	/* 1-based read that fails, 0: none */
	int overflow_until;	/* drains up to this one find a SYN_DROPPED */
	int32_t x;
	int32_t frames[64];	/* the queue: each frame moves the touch to x */
	int nframes;
};

static int
fake_read(void *data, struct tt_device_state *out)
{
	struct fake *f = data;

	f->reads++;
	if (f->reads == f->fail_read_at)
		return -ENODEV;
	out->slots[0].values[TID] = 7;
	set_bit(out->keys, BTN_TOUCH);
	out->abs[ABS_X] = f->x;
	if (f->reads <= f->moving) {
		f->x += 10;
		f->frames[f->nframes++] = f->x;
	}
	out->slots[0].values[PX] = f->x;
	return 0;
}

static long
fake_drain(void *data, struct tt_device_state *s)
{
	struct fake *f = data;
	long n = 0;

	f->drains++;
	for (int i = 0; i < f->nframes; i++) {
		tt_device_state_apply_event(s, EV_ABS, ABS_MT_SLOT, 0);
		tt_device_state_apply_event(s, EV_ABS, ABS_MT_POSITION_X, f->frames[i]);
		tt_device_state_apply_event(s, EV_ABS, ABS_X, f->frames[i]);
		n += 3;
	}
	f->nframes = 0;
	return f->drains <= f->overflow_until ? -EOVERFLOW : n;
}

static struct fake
fake_new(int moving, int queued)
{
	struct fake f = { .moving = moving, .queued = queued };

	for (int i = 0; i < queued; i++) {
		f.x += 10;
		f.frames[f.nframes++] = f.x;
	}
	return f;
}

static void
test_settled(void)
{
	struct fake f = fake_new(0, 2);
	struct tt_evstate_source src = { fake_read, fake_drain, &f };
	struct tt_device_state s;
	size_t drained = 0;

	tt_device_state_init(&s, 2);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), 0);
	/* What was queued before the first read changes nothing it held. */
	check_int_eq(f.reads, 2);
	check_int_eq(drained, 6);
	check_int_eq(s.slots[0].values[TID], 7);
	check_int_eq(s.slots[0].values[PX], 20);
	check_int_eq(s.abs[ABS_X], 20);
	check_int_eq(s.slots[1].values[TID], -1);
	check(bit_is_set(s.keys, BTN_TOUCH));
	tt_device_state_release(&s);
}

static void
test_torn_then_still(void)
{
	struct fake f = fake_new(2, 0);
	struct tt_evstate_source src = { fake_read, fake_drain, &f };
	struct tt_device_state s;
	size_t drained = 0;

	tt_device_state_init(&s, 2);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), 0);
	/* Reads 1 and 2 were torn, the queue made them whole; read 3 agrees
	 * with read 2 and nothing came. */
	check_int_eq(f.reads, 3);
	check_int_eq(s.slots[0].values[PX], 20);
	check_int_eq(s.abs[ABS_X], 20);
	check_int_eq(drained, 6);
	tt_device_state_release(&s);
}

static void
test_never_still(void)
{
	struct fake f = fake_new(1000, 0);
	struct tt_evstate_source src = { fake_read, fake_drain, &f };
	struct tt_device_state s;
	size_t drained = 0;

	tt_device_state_init(&s, 1);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), -EAGAIN);
	check_int_eq(f.reads, TT_EVSTATE_MAX_TRIES);
	/* The last read made whole, for a caller that goes on with it. */
	check_int_eq(s.slots[0].values[PX], 10 * TT_EVSTATE_MAX_TRIES);
	check_int_eq(s.abs[ABS_X], 10 * TT_EVSTATE_MAX_TRIES);
	tt_device_state_release(&s);
}

static void
test_overflow(void)
{
	struct fake f = fake_new(0, 0);
	struct tt_evstate_source src = { fake_read, fake_drain, &f };
	struct tt_device_state s;
	size_t drained = 0;

	/* A SYN_DROPPED behind the first read voids it. */
	f.overflow_until = 1;
	f.x = 5;
	tt_device_state_init(&s, 1);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), 0);
	check_int_eq(f.reads, 3);
	check_int_eq(s.abs[ABS_X], 5);
	tt_device_state_release(&s);

	/* Behind every read: nothing to go on with. */
	f = fake_new(0, 0);
	f.overflow_until = 1000;
	tt_device_state_init(&s, 1);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), -EOVERFLOW);
	check_int_eq(f.reads, TT_EVSTATE_MAX_TRIES);
	check_int_eq(s.slots[0].values[TID], -1);
	tt_device_state_release(&s);
}

static void
test_read_error(void)
{
	struct fake f = fake_new(2, 0);
	struct tt_evstate_source src = { fake_read, fake_drain, &f };
	struct tt_device_state s;
	size_t drained = 0;

	f.fail_read_at = 2;
	tt_device_state_init(&s, 1);
	check_int_eq(tt_evstate_read_settled(&src, &s, &drained), -ENODEV);
	/* Untouched on failure. */
	check_int_eq(s.slots[0].values[TID], -1);
	check_int_eq(s.slots[0].values[PX], 0);
	tt_device_state_release(&s);
}

static void
test_apply(void)
{
	struct tt_device_state s;

	tt_device_state_init(&s, 2);
	tt_device_state_apply_event(&s, EV_ABS, ABS_MT_SLOT, 1);
	tt_device_state_apply_event(&s, EV_ABS, ABS_MT_TRACKING_ID, 4);
	tt_device_state_apply_event(&s, EV_ABS, ABS_MT_POSITION_X, 300);
	tt_device_state_apply_event(&s, EV_KEY, BTN_TOUCH, 1);
	tt_device_state_apply_event(&s, EV_ABS, ABS_X, 300);
	tt_device_state_apply_event(&s, EV_SYN, SYN_REPORT, 0);
	check_int_eq(s.abs[ABS_MT_SLOT], 1);
	check_int_eq(s.slots[1].values[TID], 4);
	check_int_eq(s.slots[1].values[PX], 300);
	check_int_eq(s.slots[0].values[TID], -1);
	check_int_eq(s.abs[ABS_X], 300);
	check(bit_is_set(s.keys, BTN_TOUCH));
	/* A slot beyond the device's is ignored, as the kernel ignores it:
	 * the current slot stays, and so does every other slot. */
	tt_device_state_apply_event(&s, EV_ABS, ABS_MT_SLOT, 5);
	check_int_eq(s.abs[ABS_MT_SLOT], 1);
	tt_device_state_apply_event(&s, EV_ABS, ABS_MT_POSITION_X, 301);
	check_int_eq(s.slots[1].values[PX], 301);
	check_int_eq(s.slots[0].values[PX], 0);
	/* A key repeat changes nothing. */
	tt_device_state_apply_event(&s, EV_KEY, KEY_A, 2);
	check(!bit_is_set(s.keys, KEY_A));
	tt_device_state_apply_event(&s, EV_KEY, BTN_TOUCH, 0);
	check(!bit_is_set(s.keys, BTN_TOUCH));
	tt_device_state_release(&s);
}

struct pushed {
	size_t n;
	struct input_event ev[32];
};

static void
collect(void *userdata, uint16_t type, uint16_t code, int32_t value)
{
	struct pushed *p = userdata;

	if (p->n < 32)
		p->ev[p->n] = (struct input_event){ .type = type, .code = code, .value = value };
	p->n++;
}

static void
check_events(const struct pushed *p, const int (*want)[3], size_t n)
{
	check_int_eq(p->n, n);
	for (size_t i = 0; i < n && i < p->n; i++) {
		check_int_eq(p->ev[i].type, want[i][0]);
		check_int_eq(p->ev[i].code, want[i][1]);
		check_int_eq(p->ev[i].value, want[i][2]);
	}
}

/* Slot 0's touch ended, slot 1's became another touch, slot 2's moved,
 * BTN_TOUCH stays down, ABS_X moved, the kernel's current slot is 2. */
static void
test_diff(void)
{
	static const int want[][3] = {
		{ EV_ABS, ABS_MT_TRACKING_ID, -1 },	/* the reader is on slot 0 */
		{ EV_ABS, ABS_MT_SLOT, 1 },
		{ EV_ABS, ABS_MT_TRACKING_ID, -1 },
		{ EV_SYN, SYN_REPORT, 0 },
		{ EV_ABS, ABS_X, 500 },
		{ EV_ABS, ABS_MT_SLOT, 0 },
		{ EV_ABS, ABS_MT_POSITION_X, 110 },
		{ EV_ABS, ABS_MT_SLOT, 1 },
		{ EV_ABS, ABS_MT_TRACKING_ID, 9 },
		{ EV_ABS, ABS_MT_POSITION_X, 500 },
		{ EV_ABS, ABS_MT_SLOT, 2 },
		{ EV_ABS, ABS_MT_POSITION_X, 70 },
		{ EV_SYN, SYN_REPORT, 0 },
	};
	struct tt_device_state old, now;
	struct pushed p = { 0 };

	tt_device_state_init(&old, 3);
	tt_device_state_init(&now, 3);
	old.slots[0].values[TID] = 5;
	old.slots[0].values[PX] = 100;
	old.slots[1].values[TID] = 6;
	old.slots[1].values[PX] = 200;
	old.slots[2].values[TID] = 8;
	old.slots[2].values[PX] = 60;
	old.abs[ABS_X] = 100;
	set_bit(old.keys, BTN_TOUCH);
	tt_device_state_copy(&now, &old);
	now.slots[0].values[TID] = -1;
	now.slots[0].values[PX] = 110;	/* not in use, but a touch there starts from it */
	now.slots[1].values[TID] = 9;
	now.slots[1].values[PX] = 500;
	now.slots[2].values[PX] = 70;
	now.abs[ABS_X] = 500;
	now.abs[ABS_MT_SLOT] = 2;
	tt_device_state_diff(&old, &now, collect, &p);
	check_events(&p, want, sizeof(want) / sizeof(want[0]));

	/* Equal states: nothing at all. */
	p.n = 0;
	tt_device_state_diff(&now, &now, collect, &p);
	check_int_eq(p.n, 0);
	tt_device_state_release(&old);
	tt_device_state_release(&now);
}

/* Keys only: one frame, no slot events on a device without slots. */
static void
test_diff_keys(void)
{
	static const int want[][3] = {
		{ EV_KEY, KEY_A, 0 },
		{ EV_KEY, BTN_LEFT, 1 },
		{ EV_LED, LED_CAPSL, 1 },
		{ EV_SYN, SYN_REPORT, 0 },
	};
	struct tt_device_state old, now;
	struct pushed p = { 0 };

	tt_device_state_init(&old, 0);
	tt_device_state_init(&now, 0);
	set_bit(old.keys, KEY_A);
	set_bit(now.keys, BTN_LEFT);
	set_bit(now.leds, LED_CAPSL);
	tt_device_state_diff(&old, &now, collect, &p);
	check_events(&p, want, sizeof(want) / sizeof(want[0]));
	tt_device_state_release(&old);
	tt_device_state_release(&now);
}

int
main(void)
{
	RUN(test_settled);
	RUN(test_torn_then_still);
	RUN(test_never_still);
	RUN(test_overflow);
	RUN(test_read_error);
	RUN(test_apply);
	RUN(test_diff);
	RUN(test_diff_keys);
	return tt_test_result();
}
