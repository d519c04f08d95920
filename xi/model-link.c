/* SPDX-License-Identifier: MIT */
/* The kernel-to-XI link: which XI touch each kernel touch became.
 *
 * An XI device names the evdev device it reads (the recorder's "evdev"
 * record id, or its "Device Node"); Xwayland's touch device is the file's
 * one touchscreen. A kernel touch on such a device waits
 * in a window (default 250 ms) for an XI touch begin from that device;
 * the pair must agree in position (both normalized to their axis ranges:
 * XI valuators of the X drivers are device coordinates, or a scaled copy
 * of them) within a tolerance. The first begin that pairs, raw or not,
 * gives the latency: the X server sends the RawTouchBegin first.
 *
 * Raw events carry no XITouchEmulatingPointer flag (it belongs to the
 * touch sequence as clients get it), so a kernel touch paired on a
 * RawTouchBegin stays pending until a regular TouchBegin or TouchUpdate
 * of the same touch (same source device and touch id, any client) says
 * whether it emulates the pointer, or until the window has passed since
 * the XI begin (raw events only: not known). The lookahead is bounded by
 * the window, twice at most. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/types.h>
#include <X11/extensions/XI2.h>

#include "bitmap.h"
#include "model-private.h"

/* The X server receives the kernel event after the kernel stamped it;
 * a little slack covers clocks read at slightly different points. */
#define LINK_SLACK_US 2000

static struct xidev *
find_xidev(struct tt_model *m, int32_t deviceid)
{
	for (size_t i = 0; i < m->nxidevs; i++) {
		if (m->xidevs[i].deviceid == deviceid)
			return &m->xidevs[i];
	}
	return NULL;
}

static bool
label_is(const char *label, const char *a, const char *b)
{
	return label && (strcmp(label, a) == 0 || strcmp(label, b) == 0);
}

/* Xwayland's touch device ("xwayland-touch:N") has no device node: it
 * passes on what the compositor's seat delivers, its valuators the
 * surface position over 0..0xFFFF. With one touchscreen in the file, that
 * is where its touches came from; with several, nothing says which. */
static int64_t
xwayland_evdev(const struct tt_model *m, const struct tt_xi_device *xd)
{
	int64_t found = -1;

	if (!xd->name || strncmp(xd->name, "xwayland-touch", 14) != 0)
		return -1;
	for (size_t i = 0; i < m->ndevs; i++) {
		const struct tt_device *dev = m->devs[i].dev;
		if (!m->devs[i].used || m->devs[i].kind == MDEV_NONE ||
		    !bit_is_set(dev->props, INPUT_PROP_DIRECT))
			continue;
		if (found >= 0)
			return -1;
		found = dev->id;
	}
	return found;
}

void
tt_model_link_xi_device(struct tt_model *m, const struct tt_xi_device *xd)
{
	struct xidev *x = find_xidev(m, xd->deviceid);

	if (!x) {
		if (m->nxidevs >= 1024)
			return;
		m->xidevs = tt_reallocarray(m->xidevs, m->nxidevs + 1, sizeof(*m->xidevs));
		x = &m->xidevs[m->nxidevs++];
	}
	memset(x, 0, sizeof(*x));
	m->xi_gone = false;	/* declared again: the X side is back */
	x->deviceid = xd->deviceid;
	x->evdev = xd->evdev_device;
	x->touch = xd->touch_mode != TT_XI_TOUCH_NONE;
	x->vx = x->vy = -1;
	if (x->evdev < 0 && xd->device_node) {
		for (size_t i = 0; i < m->ndevs; i++) {
			const struct tt_device *dev = m->devs[i].dev;
			if (m->devs[i].used && dev->node && strcmp(dev->node, xd->device_node) == 0)
				x->evdev = dev->id;
		}
	}
	if (x->evdev < 0) {
		x->evdev = xwayland_evdev(m, xd);
		x->xwayland = x->evdev >= 0;
	}
	/* By label first; else the first two valuators, as X drivers order them. */
	for (uint32_t i = 0; i < xd->nvaluators; i++) {
		const struct tt_xi_valuator *v = &xd->valuators[i];
		if (x->vx < 0 && label_is(v->label, "Abs MT Position X", "Abs X")) {
			x->vx = v->number; x->xmin = v->min; x->xmax = v->max;
		} else if (x->vy < 0 && label_is(v->label, "Abs MT Position Y", "Abs Y")) {
			x->vy = v->number; x->ymin = v->min; x->ymax = v->max;
		}
	}
	for (uint32_t i = 0; i < xd->nvaluators && (x->vx < 0 || x->vy < 0); i++) {
		const struct tt_xi_valuator *v = &xd->valuators[i];
		if (v->number == 0 && x->vx < 0) {
			x->vx = 0; x->xmin = v->min; x->xmax = v->max;
		} else if (v->number == 1 && x->vy < 0) {
			x->vy = 1; x->ymin = v->min; x->ymax = v->max;
		}
	}
}

static double
norm(double v, double min, double max)
{
	return max > min ? (v - min) / (max - min) : -1.0;
}

void
tt_model_link_kernel_begin(struct tt_model *m, struct mdev *d, struct kt *k)
{
	k->pub.link = TT_LINK_NONE;
	if (!m->link_on || m->xi_gone)
		return;
	bool linked = false;
	for (size_t i = 0; i < m->nxidevs && !linked; i++)
		linked = m->xidevs[i].touch && m->xidevs[i].evdev == (int64_t)d->id;
	if (!linked)
		return;

	unsigned int cx = ABS_MT_POSITION_X, cy = ABS_MT_POSITION_Y;
	if (d->kind == MDEV_ST) {
		cx = ABS_X;
		cy = ABS_Y;
	}
	const struct tt_absinfo *ax = &d->dev->abs[cx], *ay = &d->dev->abs[cy];
	k->link_x = norm(k->pub.values[TT_AXIS(ABS_MT_POSITION_X)], ax->minimum, ax->maximum);
	k->link_y = norm(k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)], ay->minimum, ay->maximum);
	k->pub.link = TT_LINK_PENDING;
	m->pending = tt_grow(m->pending, m->npending, &m->cappending, sizeof(*m->pending));
	m->pending[m->npending++] = k;
}

static void
drop_pending(struct tt_model *m, size_t i)
{
	struct kt *k = m->pending[i];

	memmove(&m->pending[i], &m->pending[i + 1], (m->npending - i - 1) * sizeof(*m->pending));
	m->npending--;
	if (k->ended)
		tt_model_emit_end(m, k);
}

static bool
value_of(const struct tt_xi_event *ev, int number, double *out)
{
	const double *vals = ev->raw_values ? ev->raw_values : ev->valuator_values;

	if (number < 0 || !vals)
		return false;
	for (uint32_t i = 0; i < ev->nvaluators; i++) {
		if (ev->valuator_numbers[i] == number) {
			*out = vals[i];
			return true;
		}
	}
	return false;
}

static bool
is_raw(const struct tt_xi_event *ev)
{
	return ev->evtype >= XI_RawTouchBegin && ev->evtype <= XI_RawTouchEnd;
}

/* The paired kernel touch @i has the flags of its XI touch now (@known),
 * or never will. */
static void
resolve(struct tt_model *m, size_t i, bool known, uint32_t flags)
{
	struct kt *k = m->pending[i];

	k->pub.link = TT_LINK_LINKED;
	k->pub.xi_emulating_known = known;
	k->pub.xi_emulating_pointer = known && (flags & XITouchEmulatingPointer);
	drop_pending(m, i);
}

/* A regular event of an XI touch already paired: its flags. */
static bool
resolve_matched(struct tt_model *m, const struct tt_xi_event *ev, int32_t src)
{
	for (size_t i = 0; i < m->npending; i++) {
		struct kt *k = m->pending[i];
		if (k->xi_matched && k->pub.xi_deviceid == src && k->pub.xi_touchid == ev->detail) {
			resolve(m, i, true, ev->flags);
			return true;
		}
	}
	return false;
}

void
tt_model_link_xi_touch(struct tt_model *m, const struct tt_xi_event *ev, size_t line)
{
	if (!m->link_on || !m->npending)
		return;
	int32_t src = ev->sourceid ? ev->sourceid : ev->deviceid;
	bool raw = is_raw(ev);
	if (!raw && resolve_matched(m, ev, src))
		return;
	if (ev->evtype != XI_TouchBegin && ev->evtype != XI_RawTouchBegin)
		return;
	struct xidev *x = find_xidev(m, src);
	if (!x || x->evdev < 0)
		return;
	size_t nrecent = m->nrecent < ARRAY_LENGTH(m->recent) ? m->nrecent : ARRAY_LENGTH(m->recent);
	for (size_t i = 0; i < nrecent; i++) {
		if (m->recent[i].sourceid == src && m->recent[i].touchid == ev->detail)
			return;	/* another client's copy of a touch already linked */
	}

	double vx, vy, px = -1, py = -1;
	if (value_of(ev, x->vx, &vx) && value_of(ev, x->vy, &vy)) {
		px = norm(vx, x->xmin, x->xmax);
		py = norm(vy, x->ymin, x->ymax);
	}
	bool have_pos = px >= 0 && py >= 0;

	ssize_t best = -1;
	double best_dist = INFINITY;
	for (size_t i = 0; i < m->npending; i++) {
		struct kt *k = m->pending[i];
		if (k->xi_matched || k->pub.device != (uint32_t)x->evdev)
			continue;
		if (k->pub.begin_us > ev->time_us + LINK_SLACK_US ||
		    ev->time_us - k->pub.begin_us > m->link_window_us)
			continue;
		double dist = 0;
		if (have_pos && k->link_x >= 0 && k->link_y >= 0) {
			dist = hypot(px - k->link_x, py - k->link_y);
			if (dist > m->link_tolerance)
				continue;
		}
		/* Equal distances: the earliest kernel begin wins. */
		if (dist < best_dist) {
			best = (ssize_t)i;
			best_dist = dist;
		}
	}
	if (best < 0)
		return;
	struct kt *k = m->pending[best];
	k->xi_matched = true;
	k->pub.xi_deviceid = src;
	k->pub.xi_touchid = ev->detail;
	k->pub.xi_begin_us = ev->time_us;
	k->pub.xi_begin_line = line;
	size_t r = m->nrecent++ % ARRAY_LENGTH(m->recent);
	m->recent[r].sourceid = src;
	m->recent[r].touchid = ev->detail;
	if (!raw)
		resolve(m, (size_t)best, true, ev->flags);
}

/* Whether X had to get @k: Xwayland gets only the touches that began on
 * an X window; the rest went to Wayland clients, not lost. */
static bool
x_must_get(const struct tt_model *m, const struct kt *k)
{
	for (size_t i = 0; i < m->nxidevs; i++) {
		const struct xidev *x = &m->xidevs[i];
		if (x->touch && x->evdev == (int64_t)k->pub.device && !x->xwayland)
			return true;
	}
	return false;
}

/* Gives up on pending touch @i: paired but without flags, or never paired. */
static void
give_up(struct tt_model *m, size_t i)
{
	struct kt *k = m->pending[i];

	if (k->xi_matched) {
		resolve(m, i, false, 0);
	} else {
		k->pub.link = x_must_get(m, k) ? TT_LINK_NOT_DELIVERED : TT_LINK_NONE;
		drop_pending(m, i);
	}
}

void
tt_model_link_xi_lost(struct tt_model *m)
{
	m->xi_gone = true;
	while (m->npending) {
		size_t i = m->npending - 1;
		struct kt *k = m->pending[i];

		if (k->xi_matched) {
			resolve(m, i, false, 0);
		} else {
			k->pub.link = TT_LINK_NONE;
			drop_pending(m, i);
		}
	}
}

void
tt_model_link_advance(struct tt_model *m, int64_t now)
{
	for (size_t i = 0; i < m->npending;) {
		struct kt *k = m->pending[i];
		int64_t since = k->xi_matched ? k->pub.xi_begin_us : k->pub.begin_us;
		if (now - since > m->link_window_us)
			give_up(m, i);
		else
			i++;
	}
}

void
tt_model_link_flush(struct tt_model *m)
{
	while (m->npending)
		give_up(m, 0);
}
