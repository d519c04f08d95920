/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

#include "evdev-capture.h"
#include "evdev-state.h"
#include "keymask.h"
#include "util-strings.h"

/* One read(2) takes at most this many events; evdev's own client buffer
 * is usually 64..2048 events, so a few reads drain it. */
#define READ_BATCH 256
/* Reads of the fd (to drain what follows a SYN_DROPPED) before giving up
 * on a device that floods faster than we read. */
#define MAX_DISCARD_READS 64
/* Reads in one tt_capture_dispatch(): a device that floods faster than
 * its frames are written must not keep the caller from its other sources
 * (a SIGINT that stops the recording). More than a full evdev buffer. */
#define MAX_DISPATCH_READS 256

struct tt_capture {
	int fd;
	struct libevdev *evdev;	/* NULL for tt_capture_new_from_fd() */
	struct tt_device *dev;
	struct tt_keymask mask;
	int num_slots;		/* libevdev's view of the slots, or -1 */
	/* What a reader of the frames handed out so far knows of the
	 * device: the state read at the start, then every event applied. */
	struct tt_device_state state;

	/* Raw bytes read but not yet a whole struct input_event (only a pipe
	 * can split one). */
	union {
		struct input_event events[READ_BATCH];
		char bytes[READ_BATCH * sizeof(struct input_event)];
	} rbuf;
	size_t rbytes;

	/* The frame being assembled; grows to the largest frame seen, so the
	 * steady state allocates nothing. */
	struct tt_event *events;
	int64_t *times;		/* kernel time of each event, us */
	uint32_t nevents;
	size_t capacity;
	int64_t last_time;	/* kernel time of the last event read */

	size_t drops;
	size_t discarded;
	size_t nframes;
	size_t nevents_total;
};

static int64_t
event_time_us(const struct input_event *ev)
{
	return (int64_t)ev->input_event_sec * 1000000 + ev->input_event_usec;
}

static int32_t
clamp_dt(int64_t dt)
{
	if (dt > INT32_MAX)
		return INT32_MAX;
	if (dt < INT32_MIN)
		return INT32_MIN;
	return (int32_t)dt;
}

static void
push_event(struct tt_capture *c, uint16_t type, uint16_t code, int32_t value, int64_t time)
{
	size_t cap = c->capacity;	/* the two arrays grow in step */

	c->events = tt_grow(c->events, c->nevents, &c->capacity, sizeof(*c->events));
	c->times = tt_grow(c->times, c->nevents, &cap, sizeof(*c->times));
	struct tt_event *e = &c->events[c->nevents];
	e->type = type;
	e->code = code;
	e->value = value;
	e->dt_us = 0;
	tt_keymask_event(&c->mask, e);
	c->times[c->nevents] = time;
	c->nevents++;
}

/* Hands the assembled events out as one frame timed at @time. */
static int
flush_frame(struct tt_capture *c, int64_t time, uint32_t flags, int64_t start_us,
	    tt_frame_fn fn, void *userdata)
{
	struct tt_frame f = {
		.device = c->dev->id,
		.time_us = time - start_us,
		.flags = flags,
		.nevents = c->nevents,
		.events = c->events,
	};

	if (c->nevents == 0)
		return 0;
	for (uint32_t i = 0; i < c->nevents; i++)
		c->events[i].dt_us = clamp_dt(c->times[i] - time);
	c->nframes++;
	c->nevents_total += c->nevents;
	c->nevents = 0;
	return fn(userdata, &f);
}

/* Discards the rest of the read buffer, behind a SYN_DROPPED,
 * remembering the newest kernel time. */
static void
discard_buffered(struct tt_capture *c, size_t from, size_t count)
{
	for (size_t i = from; i < count; i++) {
		c->discarded++;
		c->last_time = event_time_us(&c->rbuf.events[i]);
	}
	c->rbytes = 0;
}

/* Reads what the fd has queued into a state read just before
 * (evdev-state.h), remembering the newest kernel time. */
static long
drain_fd(void *data, struct tt_device_state *s)
{
	struct tt_capture *c = data;
	bool overflow = false;
	long n = 0;

	c->rbytes = 0;
	for (int r = 0; r < MAX_DISCARD_READS; r++) {
		ssize_t len = read(c->fd, c->rbuf.bytes, sizeof(c->rbuf.bytes));
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0 && errno == EAGAIN)
			break;
		if (len < 0)
			return -errno;
		size_t got = (size_t)len / sizeof(struct input_event);
		for (size_t i = 0; i < got; i++) {
			const struct input_event *ev = &c->rbuf.events[i];
			overflow |= ev->type == EV_SYN && ev->code == SYN_DROPPED;
			if (s)
				tt_device_state_apply_event(s, ev->type, ev->code, ev->value);
			c->last_time = event_time_us(ev);
		}
		n += (long)got;
		if (got < READ_BATCH)
			break;
	}
	return overflow ? -EOVERFLOW : n;
}

static int
read_state_fd(void *data, struct tt_device_state *out)
{
	struct tt_capture *c = data;

	return tt_evstate_read_fd(c->fd, c->dev, out);
}

/* The device's state now (evdev-state.h), what the fd queued folded in:
 * the recording goes on with what is queued after it. A device that
 * never holds still gets its last read, right unless the kernel was
 * taking in a frame at that moment; one whose queue overflows at every
 * read gets a plain read. */
static int
read_state_settled(struct tt_capture *c, struct tt_device_state *out)
{
	const struct tt_evstate_source src = { read_state_fd, drain_fd, c };
	size_t drained = 0;
	int rc = tt_evstate_read_settled(&src, out, &drained);

	c->discarded += drained;
	if (rc == -EOVERFLOW)
		rc = tt_evstate_read_fd(c->fd, c->dev, out);
	return rc == -EAGAIN ? 0 : rc;
}

struct resync_ctx {
	struct tt_capture *c;
	int64_t start_us;
	tt_frame_fn fn;
	void *userdata;
	int rc;
};

static void
push_resync(void *data, uint16_t type, uint16_t code, int32_t value)
{
	struct resync_ctx *x = data;
	int rc;

	push_event(x->c, type, code, value, x->c->last_time);
	if (type != EV_SYN || code != SYN_REPORT)
		return;
	rc = flush_frame(x->c, x->c->last_time, TT_FRAME_RESYNC, x->start_us, x->fn, x->userdata);
	if (rc < 0 && x->rc == 0)
		x->rc = rc;
}

/* After a SYN_DROPPED: the state now, read until consistent (what the
 * fd queued behind the drop is folded into it, not handed out), and the
 * frames that take a reader from what it knew to it, flagged
 * TT_FRAME_RESYNC and timed at the last event folded in. Not libevdev's
 * resync: libevdev reads the fd itself during it, and what it read past
 * its own sync events stayed in its queue, lost to a raw reader. */
static int
resync(struct tt_capture *c, int64_t start_us, tt_frame_fn fn, void *userdata)
{
	struct resync_ctx x = { c, start_us, fn, userdata, 0 };
	struct tt_device_state now;
	int rc;

	tt_device_state_init(&now, c->state.num_slots);
	rc = read_state_settled(c, &now);
	if (rc == 0) {
		tt_device_state_diff(&c->state, &now, push_resync, &x);
		tt_device_state_copy(&c->state, &now);
		rc = x.rc;
	}
	tt_device_state_release(&now);
	return rc;
}

static int
handle_dropped(struct tt_capture *c, const struct input_event *ev, size_t index, size_t count,
	       int64_t start_us, tt_frame_fn fn, void *userdata)
{
	int64_t t = event_time_us(ev);
	int rc;

	rc = flush_frame(c, c->last_time, TT_FRAME_INCOMPLETE, start_us, fn, userdata);
	if (rc < 0)
		return rc;
	c->drops++;
	c->last_time = t;
	push_event(c, ev->type, ev->code, ev->value, t);
	rc = flush_frame(c, t, TT_FRAME_DROPPED, start_us, fn, userdata);
	if (rc < 0)
		return rc;
	discard_buffered(c, index + 1, count);
	if (!c->evdev) {
		/* A pipe: no state to read, the drop is all there is. */
		long n = drain_fd(c, NULL);
		c->discarded += n > 0 ? (size_t)n : 0;
		return 0;
	}
	return resync(c, start_us, fn, userdata);
}

/* Processes @count whole events from the read buffer. Returns 1 when a
 * SYN_DROPPED consumed the rest of the buffer. */
static int
process_batch(struct tt_capture *c, size_t count, int64_t start_us, tt_frame_fn fn, void *userdata)
{
	for (size_t i = 0; i < count; i++) {
		const struct input_event *ev = &c->rbuf.events[i];
		int64_t t = event_time_us(ev);
		int rc;

		if (ev->type == EV_SYN && ev->code == SYN_DROPPED) {
			rc = handle_dropped(c, ev, i, count, start_us, fn, userdata);
			return rc < 0 ? rc : 1;
		}
		tt_device_state_apply_event(&c->state, ev->type, ev->code, ev->value);
		c->last_time = t;
		push_event(c, ev->type, ev->code, ev->value, t);
		if (ev->type == EV_SYN && ev->code == SYN_REPORT)
			rc = flush_frame(c, t, 0, start_us, fn, userdata);
		else if (c->nevents >= TT_MAX_FRAME_EVENTS)
			/* Only a pipe can make a frame this long: the kernel
			 * splits packets long before. */
			rc = flush_frame(c, t, TT_FRAME_INCOMPLETE, start_us, fn, userdata);
		else
			rc = 0;
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The device is gone: evdev answers ENODEV before it hands out what it
 * still queued for us, and drops it with the device. poll() still says
 * whether there was any: then frames are missing, marked as the kernel
 * marks a loss, with a frame flagged TT_FRAME_DROPPED. Any partial frame
 * goes first, flagged TT_FRAME_INCOMPLETE. */
static int
device_gone(struct tt_capture *c, int64_t start_us, tt_frame_fn fn, void *userdata)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int rc = flush_frame(c, c->last_time, TT_FRAME_INCOMPLETE, start_us, fn, userdata);

	if (rc < 0 || poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
		return rc;
	c->drops++;
	push_event(c, EV_SYN, SYN_DROPPED, 0, c->last_time);
	return flush_frame(c, c->last_time, TT_FRAME_DROPPED, start_us, fn, userdata);
}

int
tt_capture_dispatch(struct tt_capture *c, int64_t start_us, tt_frame_fn fn, void *userdata)
{
	for (int reads = 0; reads < MAX_DISPATCH_READS; reads++) {
		ssize_t len = read(c->fd, c->rbuf.bytes + c->rbytes, sizeof(c->rbuf.bytes) - c->rbytes);
		int rc;

		if (len < 0) {
			rc = -errno;
			if (rc == -EINTR)
				continue;
			if (rc == -EAGAIN)
				return 0;
			if (rc == -ENODEV) {
				int frc = device_gone(c, start_us, fn, userdata);
				return frc < 0 ? frc : -ENODEV;
			}
			return rc;
		}
		if (len == 0) {
			/* End of a pipe: the writer is gone, like a device. */
			int frc = flush_frame(c, c->last_time, TT_FRAME_INCOMPLETE, start_us, fn, userdata);
			return frc < 0 ? frc : -ENODEV;
		}
		c->rbytes += (size_t)len;
		size_t count = c->rbytes / sizeof(struct input_event);
		size_t used = count * sizeof(struct input_event);

		rc = process_batch(c, count, start_us, fn, userdata);
		if (rc < 0)
			return rc;
		if (rc == 1)
			continue;	/* the buffer was discarded */
		memmove(c->rbuf.bytes, c->rbuf.bytes + used, c->rbytes - used);
		c->rbytes -= used;
	}
	return 0;
}

static char *
sanitized(const char *s)
{
	return s ? tt_str_sanitize(s, strlen(s), TT_MAX_STRING_BYTES) : NULL;
}

/* Fills the device record from libevdev: description and current state. */
static void
describe(struct tt_capture *c, const char *path)
{
	struct libevdev *e = c->evdev;
	struct tt_device *dev = c->dev;

	dev->name = sanitized(libevdev_get_name(e));
	dev->node = sanitized(path);
	dev->phys = sanitized(libevdev_get_phys(e));
	dev->uniq = sanitized(libevdev_get_uniq(e));
	dev->bustype = (uint16_t)libevdev_get_id_bustype(e);
	dev->vendor = (uint16_t)libevdev_get_id_vendor(e);
	dev->product = (uint16_t)libevdev_get_id_product(e);
	dev->version = (uint16_t)libevdev_get_id_version(e);
	dev->driver_version = (uint32_t)libevdev_get_driver_version(e);

	for (unsigned int p = 0; p < INPUT_PROP_CNT; p++)
		if (libevdev_has_property(e, p))
			set_bit(dev->props, p);
	for (unsigned int type = EV_KEY; type < EV_CNT; type++) {
		int max = libevdev_event_type_get_max(type);
		if (max < 0 || !libevdev_has_event_type(e, type))
			continue;
		set_bit(dev->types, type);
		for (unsigned int code = 0; code <= (unsigned int)max && code < KEY_CNT; code++)
			if (libevdev_has_event_code(e, type, code))
				tt_device_enable(dev, type, code);
	}
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		const struct input_absinfo *a = libevdev_get_abs_info(e, code);
		if (!a)
			continue;
		dev->abs[code] = (struct tt_absinfo){ a->value, a->minimum, a->maximum,
						      a->fuzz, a->flat, a->resolution };
	}
	int delay, period;
	if (libevdev_get_repeat(e, &delay, &period) == 0) {
		dev->rep_delay = delay;
		dev->rep_period = period;
	}

	c->num_slots = libevdev_get_num_slots(e);
	if (libevdev_has_event_code(e, EV_ABS, ABS_MT_SLOT) && c->num_slots > 0)
		dev->mt_protocol = TT_MT_B;
	else if (libevdev_has_event_code(e, EV_ABS, ABS_MT_POSITION_X))
		dev->mt_protocol = TT_MT_A;
	if (dev->mt_protocol == TT_MT_A)
		tt_device_enable(dev, EV_SYN, SYN_MT_REPORT);
	tt_device_enable(dev, EV_SYN, SYN_DROPPED);
}

/* The state at the start, read until consistent: libevdev's own read at
 * its creation is several ioctls that a frame arriving between them tears
 * (a tracking ID without its position, a touch both in the state and in
 * the first frame). */
static int
read_start_state(struct tt_capture *c)
{
	int slots = c->num_slots;
	int rc;

	tt_device_state_init(&c->state, slots > 0 && (unsigned int)slots <= TT_MAX_SLOTS ? (uint32_t)slots : 0);
	rc = read_state_settled(c, &c->state);
	if (rc < 0)
		return rc;
	tt_device_state_to_device(&c->state, c->dev);
	return 0;
}

/* Grabs when asked; with TT_CAPTURE_PROBE_GRAB finds out whether someone
 * else holds a grab by trying one and letting go at once. Nothing else:
 * the kernel hands a grabbing client every event and the others none, so
 * even a probe's moment (longer when the prober is preempted between the
 * two ioctls) leaves a gap, unmarked, in every other reader's stream. */
static int
check_grab(struct tt_capture *c, unsigned int flags)
{
	if (!(flags & (TT_CAPTURE_GRAB | TT_CAPTURE_PROBE_GRAB)))
		return 0;
	if (ioctl(c->fd, EVIOCGRAB, (void *)1) < 0) {
		int rc = -errno;
		if (rc != -EBUSY)
			return (flags & TT_CAPTURE_GRAB) ? rc : 0;
		c->dev->grabbed_by_other = true;
		return (flags & TT_CAPTURE_GRAB) ? -EBUSY : 0;
	}
	if (!(flags & TT_CAPTURE_GRAB))
		ioctl(c->fd, EVIOCGRAB, (void *)0);
	return 0;
}

static struct tt_capture *
capture_new(int fd, struct tt_device *dev)
{
	struct tt_capture *c = tt_zalloc(sizeof(*c));

	c->fd = fd;
	c->dev = dev;
	c->num_slots = -1;
	return c;
}

int
tt_capture_open(const char *path, uint32_t id, unsigned int flags, struct tt_capture **out)
{
	_cleanup_(tt_capture_freep) struct tt_capture *c = NULL;
	_cleanup_close_ int fd = -1;
	int clk = CLOCK_MONOTONIC;
	int rc;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, EVIOCSCLOCKID, &clk) < 0)
		return errno == EINVAL ? -ENOTTY : -errno;

	c = capture_new(steal_fd(&fd), tt_device_new(id));
	rc = libevdev_new_from_fd(c->fd, &c->evdev);
	if (rc < 0)
		return rc;
	describe(c, path);
	rc = read_start_state(c);
	if (rc < 0)
		return rc;
	rc = check_grab(c, flags);
	if (rc < 0)
		return rc;
	tt_keymask_init(&c->mask, c->dev, !(flags & TT_CAPTURE_SHOW_KEYCODES));
	tt_keymask_device(&c->mask, c->dev);
	*out = steal(&c);
	return 0;
}

int
tt_capture_new_from_fd(int fd, struct tt_device *dev, unsigned int flags, struct tt_capture **out)
{
	struct tt_capture *c = capture_new(fd, dev);

	tt_keymask_init(&c->mask, c->dev, !(flags & TT_CAPTURE_SHOW_KEYCODES));
	tt_keymask_device(&c->mask, c->dev);
	*out = c;
	return 0;
}

void
tt_capture_refresh(struct tt_capture *c)
{
	if (!c->evdev)
		return;
	tt_device_state_to_device(&c->state, c->dev);
	tt_keymask_device(&c->mask, c->dev);
}

const struct tt_device *
tt_capture_device(const struct tt_capture *c)
{
	return c->dev;
}

int
tt_capture_fd(const struct tt_capture *c)
{
	return c->fd;
}

bool
tt_capture_masking(const struct tt_capture *c)
{
	return c->mask.active;
}

size_t
tt_capture_drops(const struct tt_capture *c)
{
	return c->drops;
}

size_t
tt_capture_discarded(const struct tt_capture *c)
{
	return c->discarded;
}

size_t
tt_capture_nframes(const struct tt_capture *c)
{
	return c->nframes;
}

size_t
tt_capture_nevents(const struct tt_capture *c)
{
	return c->nevents_total;
}

void
tt_capture_free(struct tt_capture *c)
{
	if (!c)
		return;
	libevdev_free(c->evdev);
	tt_device_state_release(&c->state);
	if (c->fd >= 0)
		close(c->fd);
	tt_device_free(c->dev);
	free(c->events);
	free(c->times);
	free(c);
}
