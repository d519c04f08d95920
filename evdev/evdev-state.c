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
read_slots(int fd, const struct tt_device *dev, struct tt_device_state *s)
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
			s->slots[i].values[code - TT_MT_FIRST] = buf[1 + i];
	}
	return 0;
}

static int
read_axes(int fd, const struct tt_device *dev, struct tt_device_state *s)
{
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		struct input_absinfo ai;

		if (tt_is_slot_axis(code) || !bit_is_set(dev->codes[EV_ABS], code))
			continue;
		int rc = ioctl_retry(fd, EVIOCGABS(code), &ai);
		if (rc < 0)
			return rc;
		s->abs[code] = ai.value;
	}
	return 0;
}

int
tt_evstate_read_fd(int fd, const struct tt_device *dev, struct tt_device_state *out)
{
	struct tt_device_state s;
	int rc;

	tt_device_state_init(&s, out->num_slots);
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
		tt_device_state_copy(out, &s);
	tt_device_state_release(&s);
	return rc;
}

/* One read with what was queued applied. 1: @cur agrees with @prev
 * (when @have_prev) and nothing was queued; 0: not settled; -EOVERFLOW:
 * @cur is void; or a negative errno. */
static int
try_once(const struct tt_evstate_source *src, struct tt_device_state *cur,
	 const struct tt_device_state *prev, bool have_prev, size_t *drained)
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
	return have_prev && n == 0 && tt_device_state_equal(cur, prev);
}

int
tt_evstate_read_settled(const struct tt_evstate_source *src, struct tt_device_state *out,
			size_t *drained)
{
	struct tt_device_state a, b;
	struct tt_device_state *prev = &a, *cur = &b;
	bool have_prev = false;
	int rc = 0;

	tt_device_state_init(&a, out->num_slots);
	tt_device_state_init(&b, out->num_slots);
	for (int tries = 0; tries < TT_EVSTATE_MAX_TRIES && rc != 1; tries++) {
		rc = try_once(src, cur, prev, have_prev, drained);
		if (rc == -EOVERFLOW)
			continue;
		if (rc < 0)
			break;
		struct tt_device_state *t = prev;
		prev = cur;	/* the newest read */
		cur = t;
		have_prev = true;
	}
	if (rc >= 0 || rc == -EOVERFLOW) {
		if (have_prev)
			tt_device_state_copy(out, prev);
		rc = !have_prev ? -EOVERFLOW : rc == 1 ? 0 : -EAGAIN;
	}
	tt_device_state_release(&a);
	tt_device_state_release(&b);
	return rc;
}
