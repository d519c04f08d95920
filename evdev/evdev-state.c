/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "evdev-state.h"
#include "util-mem.h"

#define NLONGS(bits) (((bits) + sizeof(unsigned long) * CHAR_BIT - 1) / (sizeof(unsigned long) * CHAR_BIT))
/* The buffer every bitmap ioctl gets: the kernel copies what it has. */
#define BITS_LEN (NLONGS(KEY_CNT) * sizeof(unsigned long))

static bool
is_slot_axis(unsigned int code)
{
	return code >= TT_MT_FIRST && code <= TT_MT_LAST;
}

void
tt_evstate_init(struct tt_evstate *s, uint32_t num_slots)
{
	memset(s, 0, sizeof(*s));
	s->num_slots = num_slots;
	if (!num_slots)
		return;
	s->slots = tt_reallocarray(NULL, num_slots, sizeof(*s->slots));
	memset(s->slots, 0, num_slots * sizeof(*s->slots));
	for (uint32_t i = 0; i < num_slots; i++)
		s->slots[i][ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
}

void
tt_evstate_release(struct tt_evstate *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

void
tt_evstate_copy(struct tt_evstate *dst, const struct tt_evstate *src)
{
	int32_t (*slots)[TT_MT_AXES] = dst->slots;

	/* Same number of slots: the caller initialised both from one device. */
	*dst = *src;
	dst->slots = slots;
	if (src->num_slots)
		memcpy(dst->slots, src->slots, src->num_slots * sizeof(*src->slots));
}

bool
tt_evstate_equal(const struct tt_evstate *a, const struct tt_evstate *b)
{
	return a->num_slots == b->num_slots &&
	       memcmp(a->abs, b->abs, sizeof(a->abs)) == 0 &&
	       memcmp(a->keys, b->keys, sizeof(a->keys)) == 0 &&
	       memcmp(a->leds, b->leds, sizeof(a->leds)) == 0 &&
	       memcmp(a->sw, b->sw, sizeof(a->sw)) == 0 &&
	       (!a->num_slots || memcmp(a->slots, b->slots, a->num_slots * sizeof(*a->slots)) == 0);
}

static void
set_bit_to(uint8_t *map, unsigned int bit, bool on)
{
	if (on)
		set_bit(map, bit);
	else
		clear_bit(map, bit);
}

void
tt_evstate_apply(struct tt_evstate *s, uint16_t type, uint16_t code, int32_t value)
{
	switch (type) {
	case EV_ABS:
		if (code >= ABS_CNT)
			return;
		if (is_slot_axis(code)) {
			int32_t slot = s->abs[ABS_MT_SLOT];
			/* Type A contacts are no state. */
			if (s->num_slots && slot >= 0 && (uint32_t)slot < s->num_slots)
				s->slots[slot][code - TT_MT_FIRST] = value;
			return;
		}
		s->abs[code] = value;
		return;
	case EV_KEY:
		if (code < KEY_CNT)
			set_bit_to(s->keys, code, value != 0);
		return;
	case EV_LED:
		if (code < LED_CNT)
			set_bit_to(s->leds, code, value != 0);
		return;
	case EV_SW:
		if (code < SW_CNT)
			set_bit_to(s->sw, code, value != 0);
		return;
	default:
		return;
	}
}

/* evdev takes its lock interruptibly: a signal (SIGSTOP, SIGCONT) makes
 * an ioctl fail with EINTR, which says nothing about the device. */
static int
ioctl_retry(int fd, unsigned long request, void *arg)
{
	int rc;

	do {
		rc = ioctl(fd, request, arg);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : 0;
}

/* The kernel's bitmap (unsigned longs) of one of EVIOCGKEY, EVIOCGLED,
 * EVIOCGSW, whose request @request is for KEY_CNT bits, into a byte bitmap
 * of @bits. */
static int
read_bits(int fd, unsigned long request, unsigned int bits, uint8_t *out)
{
	unsigned long words[NLONGS(KEY_CNT)] = { 0 };
	int rc = ioctl_retry(fd, request, words);

	if (rc < 0)
		return rc;
	memset(out, 0, TT_BITMAP_BYTES(bits));
	for (unsigned int b = 0; b < bits; b++) {
		unsigned long w = words[b / (sizeof(unsigned long) * CHAR_BIT)];
		if (w & (1UL << (b % (sizeof(unsigned long) * CHAR_BIT))))
			set_bit(out, b);
	}
	return 0;
}

static int
read_slots(int fd, const struct tt_device *dev, struct tt_evstate *s)
{
	_cleanup_free_ int32_t *buf = tt_reallocarray(NULL, s->num_slots + 1, sizeof(*buf));
	size_t len = (s->num_slots + 1) * sizeof(*buf);

	for (unsigned int code = TT_MT_FIRST; code <= TT_MT_LAST; code++) {
		if (!bit_is_set(dev->codes[EV_ABS], code))
			continue;
		buf[0] = (int32_t)code;
		int rc = ioctl_retry(fd, EVIOCGMTSLOTS(len), buf);
		if (rc < 0)
			return rc;
		for (uint32_t i = 0; i < s->num_slots; i++)
			s->slots[i][code - TT_MT_FIRST] = buf[1 + i];
	}
	return 0;
}

static int
read_axes(int fd, const struct tt_device *dev, struct tt_evstate *s)
{
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		struct input_absinfo ai;

		if (is_slot_axis(code) || !bit_is_set(dev->codes[EV_ABS], code))
			continue;
		int rc = ioctl_retry(fd, EVIOCGABS(code), &ai);
		if (rc < 0)
			return rc;
		s->abs[code] = ai.value;
	}
	return 0;
}

int
tt_evstate_read_fd(int fd, const struct tt_device *dev, struct tt_evstate *out)
{
	struct tt_evstate s;
	int rc;

	tt_evstate_init(&s, out->num_slots);
	/* Keys, LEDs and switches first: each of these ioctls drops the
	 * queued events of its type, so it holds still for the axes. */
	rc = bit_is_set(dev->types, EV_KEY) ? read_bits(fd, EVIOCGKEY(BITS_LEN), KEY_CNT, s.keys) : 0;
	if (rc == 0 && bit_is_set(dev->types, EV_LED))
		rc = read_bits(fd, EVIOCGLED(BITS_LEN), LED_CNT, s.leds);
	if (rc == 0 && bit_is_set(dev->types, EV_SW))
		rc = read_bits(fd, EVIOCGSW(BITS_LEN), SW_CNT, s.sw);
	if (rc == 0 && bit_is_set(dev->types, EV_ABS))
		rc = read_axes(fd, dev, &s);
	if (rc == 0 && s.num_slots)
		rc = read_slots(fd, dev, &s);
	if (rc == 0)
		tt_evstate_copy(out, &s);
	tt_evstate_release(&s);
	return rc;
}

/* One read with what was queued applied. 1: @cur agrees with @prev
 * (when @have_prev) and nothing was queued; 0: not settled; -EOVERFLOW:
 * @cur is void; or a negative errno. */
static int
try_once(const struct tt_evstate_source *src, struct tt_evstate *cur,
	 const struct tt_evstate *prev, bool have_prev, size_t *drained)
{
	long n;
	int rc;

	rc = src->read(src->data, cur);
	if (rc < 0)
		return rc;
	n = src->drain(src->data, cur);
	if (n < 0)
		return (int)n;
	*drained += (size_t)n;
	return have_prev && n == 0 && tt_evstate_equal(cur, prev);
}

int
tt_evstate_read_settled(const struct tt_evstate_source *src, struct tt_evstate *out,
			size_t *drained)
{
	struct tt_evstate a, b;
	struct tt_evstate *prev = &a, *cur = &b;
	bool have_prev = false;
	int rc = 0;

	tt_evstate_init(&a, out->num_slots);
	tt_evstate_init(&b, out->num_slots);
	for (int tries = 0; tries < TT_EVSTATE_MAX_TRIES && rc != 1; tries++) {
		rc = try_once(src, cur, prev, have_prev, drained);
		if (rc == -EOVERFLOW)
			continue;
		if (rc < 0)
			break;
		struct tt_evstate *t = prev;
		prev = cur;	/* the newest read */
		cur = t;
		have_prev = true;
	}
	if (rc >= 0 || rc == -EOVERFLOW) {
		if (have_prev)
			tt_evstate_copy(out, prev);
		rc = !have_prev ? -EOVERFLOW : rc == 1 ? 0 : -EAGAIN;
	}
	tt_evstate_release(&a);
	tt_evstate_release(&b);
	return rc;
}

struct diff {
	tt_evstate_push_fn push;
	void *userdata;
	int32_t slot;		/* the slot the reader was last told of */
	size_t pushed;		/* in the current frame */
};

static void
emit(struct diff *d, uint16_t type, uint16_t code, int32_t value)
{
	d->push(d->userdata, type, code, value);
	d->pushed++;
}

static void
select_slot(struct diff *d, int32_t slot)
{
	if (d->slot != slot)
		emit(d, EV_ABS, ABS_MT_SLOT, slot);
	d->slot = slot;
}

static void
end_frame(struct diff *d)
{
	if (d->pushed)
		d->push(d->userdata, EV_SYN, SYN_REPORT, 0);
	d->pushed = 0;
}

static int32_t
tracking_id(const struct tt_evstate *s, uint32_t slot)
{
	return s->slots[slot][ABS_MT_TRACKING_ID - TT_MT_FIRST];
}

/* The touches that ended or became another touch: a reader must see them
 * end before anything else. Marks them ended in @ended. */
static void
end_touches(struct diff *d, const struct tt_evstate *old, const struct tt_evstate *now,
	    bool *ended)
{
	for (uint32_t s = 0; s < old->num_slots; s++) {
		int32_t was = tracking_id(old, s);
		ended[s] = was != -1 && tracking_id(now, s) != was;
		if (!ended[s])
			continue;
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	end_frame(d);
}

static void
diff_bits(struct diff *d, uint16_t type, const uint8_t *old, const uint8_t *now, unsigned int bits)
{
	for (unsigned int b = 0; b < bits; b++)
		if (bit_is_set(old, b) != bit_is_set(now, b))
			emit(d, type, (uint16_t)b, bit_is_set(now, b));
}

/* A slot's new tracking ID first, then its other axes that changed:
 * those of a slot not in use too, since the kernel sends a touch that
 * begins there only the values that differ from them. */
static void
diff_slot(struct diff *d, const struct tt_evstate *old, const struct tt_evstate *now,
	  uint32_t s, bool ended)
{
	const unsigned int tid = ABS_MT_TRACKING_ID - TT_MT_FIRST;
	int32_t was = ended ? -1 : old->slots[s][tid];
	int32_t is = now->slots[s][tid];

	if (is != was) {
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, ABS_MT_TRACKING_ID, is);
	}
	for (unsigned int a = 0; a < TT_MT_AXES; a++) {
		if (a == tid || old->slots[s][a] == now->slots[s][a])
			continue;
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, (uint16_t)(TT_MT_FIRST + a), now->slots[s][a]);
	}
}

void
tt_evstate_diff(const struct tt_evstate *old, const struct tt_evstate *now,
		tt_evstate_push_fn push, void *userdata)
{
	struct diff d = { push, userdata, old->abs[ABS_MT_SLOT], 0 };
	_cleanup_free_ bool *ended = tt_zalloc((old->num_slots ? old->num_slots : 1) * sizeof(*ended));

	end_touches(&d, old, now, ended);
	diff_bits(&d, EV_KEY, old->keys, now->keys, KEY_CNT);
	diff_bits(&d, EV_LED, old->leds, now->leds, LED_CNT);
	diff_bits(&d, EV_SW, old->sw, now->sw, SW_CNT);
	for (unsigned int code = 0; code < ABS_CNT; code++)
		if (code != ABS_MT_SLOT && old->abs[code] != now->abs[code])
			emit(&d, EV_ABS, (uint16_t)code, now->abs[code]);
	for (uint32_t s = 0; s < old->num_slots && s < now->num_slots; s++)
		diff_slot(&d, old, now, s, ended[s]);
	if (old->num_slots)
		select_slot(&d, now->abs[ABS_MT_SLOT]);
	end_frame(&d);
}

void
tt_evstate_to_device(const struct tt_evstate *s, struct tt_device *dev)
{
	for (unsigned int code = 0; code < ABS_CNT; code++)
		if (bit_is_set(dev->codes[EV_ABS], code) && !is_slot_axis(code))
			dev->abs[code].value = s->abs[code];
	if (s->num_slots && tt_device_set_slots(dev, s->num_slots) == 0) {
		for (uint32_t i = 0; i < dev->num_slots; i++)
			for (unsigned int code = TT_MT_FIRST; code <= TT_MT_LAST; code++)
				if (bit_is_set(dev->codes[EV_ABS], code))
					dev->slots[i].values[code - TT_MT_FIRST] =
						s->slots[i][code - TT_MT_FIRST];
		dev->current_slot = s->abs[ABS_MT_SLOT];
	}
	memcpy(dev->keys_down, s->keys, sizeof(dev->keys_down));
	memcpy(dev->leds_on, s->leds, sizeof(dev->leds_on));
	memcpy(dev->switches_on, s->sw, sizeof(dev->switches_on));
}
