/* SPDX-License-Identifier: MIT */
/* The touch-sequence model: kernel slots and contacts. See model.h. Type A
 * and single-touch frames, XI touch sequences and the kernel-to-XI link
 * live in files of their own (model-private.h names them). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "model-private.h"

const char *
tt_own_outcome_name(enum tt_own_outcome o)
{
	static const char *const names[] = {
		[TT_OWN_NONE] = "none",
		[TT_OWN_OWNED] = "owned",
		[TT_OWN_ACCEPTED] = "accepted",
		[TT_OWN_REJECTED] = "rejected",
		[TT_OWN_LOST] = "lost",
		[TT_OWN_ENDED_UNOWNED] = "ended-unowned",
		[TT_OWN_UNRESOLVED] = "unresolved",
	};
	return (unsigned)o < ARRAY_LENGTH(names) ? names[o] : "unknown";
}

const char *
tt_link_status_name(enum tt_link_status s)
{
	static const char *const names[] = {
		[TT_LINK_NONE] = "none",
		[TT_LINK_PENDING] = "pending",
		[TT_LINK_LINKED] = "linked",
		[TT_LINK_NOT_DELIVERED] = "not-delivered",
	};
	return (unsigned)s < ARRAY_LENGTH(names) ? names[s] : "unknown";
}

/* The axes positions are read from: MT, or ABS_X/Y on single-touch devices. */
static void
pos_axes(const struct tt_device *dev, const struct tt_absinfo **ax, const struct tt_absinfo **ay)
{
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);

	*ax = &dev->abs[mt ? ABS_MT_POSITION_X : ABS_X];
	*ay = &dev->abs[mt ? ABS_MT_POSITION_Y : ABS_Y];
}

bool
tt_model_has_mm(const struct tt_device *dev)
{
	const struct tt_absinfo *ax, *ay;

	pos_axes(dev, &ax, &ay);
	return ax->resolution > 0 && ay->resolution > 0;
}

double
tt_model_distance(const struct tt_device *dev, double dx, double dy)
{
	const struct tt_absinfo *ax, *ay;

	pos_axes(dev, &ax, &ay);
	if (ax->resolution > 0 && ay->resolution > 0) {
		dx /= ax->resolution;
		dy /= ay->resolution;
	}
	return hypot(dx, dy);
}

/* ---- lifetime ---- */

struct tt_model *
tt_model_new(const struct tt_model_callbacks *cb, void *data)
{
	struct tt_model *m = tt_zalloc(sizeof(*m));

	if (cb)
		m->cb = *cb;
	m->data = data;
	m->link_window_us = 250000;
	m->link_tolerance = 0.03;
	m->hid_before_us = 100000;
	m->hid_after_us = 100000;
	return m;
}

static void
free_kt(struct kt *k)
{
	free(k);
}

static void
mdev_clear(struct mdev *d)
{
	if (d->slot_touch) {
		for (uint32_t i = 0; i < d->nslots; i++)
			free_kt(d->slot_touch[i]);
	}
	for (uint32_t i = 0; i < d->nactive; i++)
		free_kt(d->active[i]);
	free(d->slot_touch);
	free(d->slot_vals);
	free(d->dirty);
	free(d->slot_known);
	free(d->slot_stale);
	free(d->active);
	memset(d, 0, sizeof(*d));
}

void
tt_model_free(struct tt_model *m)
{
	if (!m)
		return;
	tt_model_hid_free(m);	/* first: it leaves the XI link's touches to it */
	/* The ended touches waiting for a link, before the devices free the
	 * ones still down (a model freed unfinished has both). */
	for (size_t i = 0; i < m->npending; i++) {
		if (m->pending[i]->ended)	/* the others are still in their device */
			free_kt(m->pending[i]);
	}
	free(m->pending);
	for (size_t i = 0; i < m->ndevs; i++)
		mdev_clear(&m->devs[i]);
	for (size_t i = 0; i < m->nxt; i++)
		free(m->xt[i]);
	free(m->xt);
	free(m->xidevs);
	free(m);
}

void
tt_model_set_link(struct tt_model *m, bool on, int64_t window_us, double tolerance)
{
	m->link_on = on;
	if (window_us > 0)
		m->link_window_us = window_us;
	if (tolerance > 0)
		m->link_tolerance = tolerance;
}

struct mdev *
tt_model_find_dev(struct tt_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->ndevs; i++) {
		if (m->devs[i].used && m->devs[i].id == id)
			return &m->devs[i];
	}
	return NULL;
}

/* ---- kernel touches ---- */

struct kt *
tt_model_new_touch(struct tt_model *m, struct mdev *d, int32_t slot, int64_t t, size_t line)
{
	struct kt *k = tt_zalloc(sizeof(*k));

	k->pub.serial = ++m->kserial;
	k->pub.device = d->id;
	k->pub.slot = slot;
	k->pub.begin_us = t;
	k->pub.end_us = t;
	k->pub.begin_line = line;
	k->pub.end_line = line;
	k->pub.xi_deviceid = -1;
	k->pub.xi_begin_us = -1;
	k->pub.hid_contact_id = -1;
	k->pub.hid_begin_us = -1;
	k->is_new = true;
	return k;
}

void
tt_model_emit_begin(struct tt_model *m, struct mdev *d, struct kt *k)
{
	k->is_new = false;
	k->pub.begin_x = k->pub.values[TT_AXIS(ABS_MT_POSITION_X)];
	k->pub.begin_y = k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)];
	k->pub.nframes = 1;
	tt_model_link_kernel_begin(m, d, k);
	tt_model_hid_kernel_begin(m, d, k);
	if (m->cb.kernel_begin)
		m->cb.kernel_begin(m->data, &k->pub);
}

/* Ends @k: the end callback runs now, or once its link is known. */
void
tt_model_end_touch(struct tt_model *m, struct kt *k, int64_t t, size_t line, uint32_t flags)
{
	k->pub.end_us = t;
	k->pub.end_line = line;
	k->pub.flags |= flags;
	if (k->is_new) {
		/* Begun and ended within one frame: it never became visible. */
		free_kt(k);
		return;
	}
	k->ended = true;
	tt_model_emit_end(m, k);
}

/* The end callback runs once both links are known: model-link.c and
 * model-hid.c call back when they resolve. */
void
tt_model_emit_end(struct tt_model *m, struct kt *k)
{
	if (k->pub.link == TT_LINK_PENDING || k->pub.hid_link == TT_LINK_PENDING)
		return;
	if (m->cb.kernel_end)
		m->cb.kernel_end(m->data, &k->pub);
	free_kt(k);
}

void
tt_model_free_kt(struct kt *k)
{
	free_kt(k);
}

static uint32_t
count_active(const struct mdev *d)
{
	uint32_t n = 0;

	if (d->kind == MDEV_B) {
		for (uint32_t i = 0; i < d->slot_hi; i++)
			n += d->slot_touch[i] != NULL;
		return n;
	}
	return d->nactive;
}

static void
end_all(struct tt_model *m, struct mdev *d, int64_t t, size_t line, uint32_t flags)
{
	if (d->slot_touch) {
		for (uint32_t i = 0; i < d->nslots; i++) {
			if (d->slot_touch[i])
				tt_model_end_touch(m, d->slot_touch[i], t, line, flags);
			d->slot_touch[i] = NULL;
		}
	}
	for (uint32_t i = 0; i < d->nactive; i++)
		tt_model_end_touch(m, d->active[i], t, line, flags);
	d->nactive = 0;
}

/* A Type B device's slots as its record gives them: the touches down at
 * start begin here. */
static void
start_slots_b(struct tt_model *m, struct mdev *d, const struct tt_device *dev, size_t line)
{
	d->nslots = dev->num_slots;
	d->cur_slot = dev->current_slot;
	d->slot_touch = tt_reallocarray(NULL, d->nslots, sizeof(*d->slot_touch));
	d->slot_vals = tt_reallocarray(NULL, d->nslots, sizeof(*d->slot_vals));
	d->dirty = tt_reallocarray(NULL, d->nslots, sizeof(*d->dirty));
	d->slot_known = tt_reallocarray(NULL, d->nslots, sizeof(*d->slot_known));
	d->slot_stale = tt_zalloc(d->nslots * sizeof(*d->slot_stale));
	for (uint32_t s = 0; s < d->nslots; s++) {
		memcpy(d->slot_vals[s], dev->slots[s].values, sizeof(d->slot_vals[s]));
		d->dirty[s] = 0;
		d->slot_touch[s] = NULL;
		int32_t id = d->slot_vals[s][TT_AXIS(ABS_MT_TRACKING_ID)];
		/* An empty slot's values at start are not the device's
		 * (evemu does not record them): unknown until set. */
		d->slot_known[s] = id != -1 ? d->has_axes : 0;
		/* The state at start is read from the device after the
		 * first events were queued: a touch down in it is a
		 * guess until the device sets its slot, like after a
		 * drop. */
		d->slot_stale[s] = id != -1;
		d->nstale += id != -1;
		d->slot_unknown |= id != -1;
		if (id != -1) {
			struct kt *k = tt_model_new_touch(m, d, (int32_t)s, 0, line);
			k->pub.tracking_id = id;
			k->pub.flags |= TT_KTOUCH_BEFORE_START;
			memcpy(k->pub.values, d->slot_vals[s], sizeof(k->pub.values));
			d->slot_touch[s] = k;
			d->slot_hi = s + 1;
			tt_model_emit_begin(m, d, k);
		}
	}
}

static void
feed_device(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_device *dev = rec->device;
	struct mdev *d = tt_model_find_dev(m, dev->id);

	if (d) {
		end_all(m, d, d->last_time, rec->line, TT_KTOUCH_DEVICE_GONE);
		mdev_clear(d);
	} else {
		if (m->ndevs >= TT_MAX_DEVICES)
			return;
		d = &m->devs[m->ndevs++];
	}
	d->used = true;
	d->id = dev->id;
	d->dev = dev;
	d->has_tracking = tt_device_has(dev, EV_ABS, ABS_MT_TRACKING_ID);
	if (dev->mt_protocol == TT_MT_B && dev->num_slots) {
		d->kind = MDEV_B;
	} else if (dev->mt_protocol == TT_MT_A ||
		   (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) && !tt_device_has(dev, EV_ABS, ABS_MT_SLOT))) {
		d->kind = MDEV_A;
	} else if (tt_device_has(dev, EV_KEY, BTN_TOUCH) && tt_device_has(dev, EV_ABS, ABS_X)) {
		d->kind = MDEV_ST;
	} else {
		d->kind = MDEV_NONE;
	}
	memcpy(d->keys, dev->keys_down, sizeof(d->keys));
	for (unsigned int c = 0; c < ABS_CNT; c++)
		d->abs_vals[c] = dev->abs[c].value;
	for (unsigned int c = TT_MT_FIRST; c <= TT_MT_LAST; c++) {
		if (c != ABS_MT_TRACKING_ID && tt_device_has(dev, EV_ABS, c))
			d->has_axes |= TT_AXIS_BIT(c);
	}
	d->active = tt_reallocarray(NULL, TT_MAX_SLOTS, sizeof(*d->active));

	if (d->kind == MDEV_B) {
		start_slots_b(m, d, dev, rec->line);
		d->keys_unsure = bit_is_set(d->keys, BTN_TOUCH) != d->slot_unknown;
	} else if (d->kind == MDEV_ST && bit_is_set(d->keys, BTN_TOUCH)) {
		struct kt *k = tt_model_new_touch(m, d, 0, 0, rec->line);
		k->pub.tracking_id = (int32_t)++d->next_synthetic;
		k->pub.flags |= TT_KTOUCH_BEFORE_START | TT_KTOUCH_SYNTHETIC_ID;
		k->pub.values[TT_AXIS(ABS_MT_POSITION_X)] = d->abs_vals[ABS_X];
		k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)] = d->abs_vals[ABS_Y];
		k->pub.values[TT_AXIS(ABS_MT_PRESSURE)] = d->abs_vals[ABS_PRESSURE];
		d->active[d->nactive++] = k;
		tt_model_emit_begin(m, d, k);
	}
}

static bool
regular_frame(const struct tt_frame *f)
{
	return !(f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC));
}

/* Tracking ID @id set in slot @s while a slot whose state is unknown
 * since a SYN_DROPPED still holds it (or while we cannot be sure which
 * slot is current): that touch's release was among the lost events. */
static void
end_lost_duplicate(struct tt_model *m, struct mdev *d, uint32_t s, const struct tt_frame *f,
		   size_t line, int32_t id)
{
	bool unsure = d->slot_unknown || !regular_frame(f);

	for (uint32_t i = 0; i < d->slot_hi; i++) {
		struct kt *o = d->slot_touch[i];
		if (i == s || !o || o->pub.tracking_id != id || !(d->slot_stale[i] || unsure))
			continue;
		tt_model_end_touch(m, o, f->time_us, line, TT_KTOUCH_CUT_BY_DROP);
		d->slot_touch[i] = NULL;
	}
}

/* Type B: one event. */
static void
slot_event(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
	   const struct tt_event *e)
{
	if (e->code == ABS_MT_SLOT) {
		d->cur_slot = (e->value >= 0 && (uint32_t)e->value < d->nslots) ? e->value : -1;
		if (d->cur_slot >= 0 && regular_frame(f))
			d->slot_unknown = false;
		return;
	}
	if (d->cur_slot < 0 || e->code < TT_MT_FIRST || e->code > TT_MT_LAST)
		return;
	uint32_t s = (uint32_t)d->cur_slot;
	struct kt *k = d->slot_touch[s];

	if (s >= d->slot_hi)
		d->slot_hi = s + 1;
	if (e->code == ABS_MT_TRACKING_ID) {
		/* The device itself set it: known again (libevdev's resync
		 * is a guess that may be stale). */
		if (regular_frame(f) && !d->slot_unknown && d->slot_stale[s]) {
			d->slot_stale[s] = false;
			d->nstale--;
		}
		if (e->value != -1)
			end_lost_duplicate(m, d, s, f, line, e->value);
		if (e->value == -1) {
			if (k)
				tt_model_end_touch(m, k, f->time_us, line, 0);
			d->slot_touch[s] = NULL;
		} else if (!k || k->pub.tracking_id != e->value) {
			if (k)
				tt_model_end_touch(m, k, f->time_us, line, TT_KTOUCH_REPLACED);
			k = tt_model_new_touch(m, d, (int32_t)s, f->time_us, line);
			k->pub.tracking_id = e->value;
			d->slot_touch[s] = k;
		}
	}
	d->slot_vals[s][TT_AXIS(e->code)] = e->value;
	d->slot_known[s] |= TT_AXIS_BIT(e->code);
	d->dirty[s] |= 1u << TT_AXIS(e->code);
}

/* The touch's unknown axes are now @unknown: an axis that became known
 * gives the begin position its first value. */
void
tt_model_note_known(struct kt *k, uint32_t unknown)
{
	uint32_t now_known = k->pub.unknown & ~unknown;

	if (!k->is_new && (now_known & TT_AXIS_BIT(ABS_MT_POSITION_X)))
		k->pub.begin_x = k->pub.values[TT_AXIS(ABS_MT_POSITION_X)];
	if (!k->is_new && (now_known & TT_AXIS_BIT(ABS_MT_POSITION_Y)))
		k->pub.begin_y = k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)];
	k->pub.unknown = unknown;
}

static void
finish_frame_b(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line)
{
	for (uint32_t s = 0; s < d->slot_hi; s++) {
		struct kt *k = d->slot_touch[s];
		uint32_t dirty = d->dirty[s];

		d->dirty[s] = 0;
		if (!k)
			continue;
		memcpy(k->pub.values, d->slot_vals[s], sizeof(k->pub.values));
		tt_model_note_known(k, d->has_axes & ~d->slot_known[s]);
		if (f->flags & (TT_FRAME_RESYNC | TT_FRAME_DROPPED))
			k->pub.flags |= k->is_new ? TT_KTOUCH_CUT_BY_DROP : 0;
		if (k->is_new) {
			tt_model_emit_begin(m, d, k);
		} else if (dirty) {
			struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = dirty };
			k->pub.nframes++;
			if (m->cb.kernel_update)
				m->cb.kernel_update(m->data, &k->pub, &u);
		}
	}
}

/* After a SYN_DROPPED the slots and the current slot are unknown until
 * the device sets them again. */
static void
note_drop(struct mdev *d, const struct tt_frame *f)
{
	if (!(f->flags & TT_FRAME_DROPPED) || !d->slot_stale)
		return;
	d->slot_unknown = true;
	for (uint32_t s = 0; s < d->nslots; s++)
		d->slot_stale[s] = true;
	d->nstale = d->nslots;
}

const uint8_t *
tt_model_keys(const struct tt_model *m, uint32_t device)
{
	const struct mdev *d = tt_model_find_dev((struct tt_model *)m, device);

	return d ? d->keys : NULL;
}

bool
tt_model_settled(const struct tt_model *m, uint32_t device)
{
	const struct mdev *d = tt_model_find_dev((struct tt_model *)m, device);

	if (!d || !d->slot_stale)
		return true;
	return !d->slot_unknown && !d->keys_unsure && d->nstale == 0;
}

static void
feed_frame(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	struct mdev *d = tt_model_find_dev(m, f->device);

	tt_model_link_advance(m, f->time_us);
	if (!d)
		return;
	d->last_time = f->time_us;
	bool was_down = bit_is_set(d->keys, BTN_TOUCH);

	note_drop(d, f);
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_KEY && e->code < KEY_CNT) {
			if (e->code == BTN_TOUCH && regular_frame(f))
				d->keys_unsure = false;
			if (e->value)
				set_bit(d->keys, e->code);
			else
				clear_bit(d->keys, e->code);
		} else if (e->type == EV_ABS && e->code < ABS_CNT) {
			d->abs_vals[e->code] = e->value;
			if (d->kind == MDEV_B)
				slot_event(m, d, f, rec->line, e);
		}
	}
	switch (d->kind) {
	case MDEV_B: finish_frame_b(m, d, f, rec->line); break;
	case MDEV_A: tt_model_frame_type_a(m, d, f, rec->line); break;
	case MDEV_ST: tt_model_frame_single(m, d, f, rec->line, was_down); break;
	case MDEV_NONE: break;
	}
	tt_model_hid_frames_evdev(m, d, rec);
	if (m->cb.frame)
		m->cb.frame(m->data, d->dev, f, rec->line, count_active(d));
}

size_t
tt_model_active(const struct tt_model *m, uint32_t device, const struct tt_ktouch **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->ndevs; i++) {
		const struct mdev *d = &m->devs[i];
		if (!d->used || d->id != device)
			continue;
		if (d->slot_touch) {
			for (uint32_t s = 0; s < d->nslots && n < max; s++) {
				if (d->slot_touch[s])
					out[n++] = &d->slot_touch[s]->pub;
			}
		}
		for (uint32_t a = 0; a < d->nactive && n < max; a++)
			out[n++] = &d->active[a]->pub;
	}
	return n;
}

static void
feed_marker(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_marker *mk = rec->marker;

	if (mk->kind == TT_MARKER_X_LOST) {
		tt_model_link_xi_lost(m);
		return;
	}
	if (mk->kind != TT_MARKER_DEVICE_REMOVED || mk->device < 0)
		return;
	struct mdev *d = tt_model_find_dev(m, (uint32_t)mk->device);
	if (d)
		end_all(m, d, mk->time_us, rec->line, TT_KTOUCH_DEVICE_GONE);
}

void
tt_model_feed(struct tt_model *m, const struct tt_record *rec)
{
	int64_t t;

	m->last_line = rec->line;
	if (tt_record_time(rec, &t))
		tt_model_hid_advance(m, t);
	switch (rec->type) {
	case TT_RECORD_DEVICE: feed_device(m, rec); break;
	case TT_RECORD_FRAME: feed_frame(m, rec); break;
	case TT_RECORD_XI_DEVICE: tt_model_link_xi_device(m, rec->xi_device); break;
	case TT_RECORD_XI_EVENT: tt_model_feed_xi(m, rec); break;
	case TT_RECORD_MARKER: feed_marker(m, rec); break;
	case TT_RECORD_HID_DEVICE: tt_model_hid_device(m, rec); break;
	case TT_RECORD_HID_REPORT: tt_model_hid_report(m, rec); break;
	default: break;
	}
}

void
tt_model_finish(struct tt_model *m)
{
	for (size_t i = 0; i < m->ndevs; i++) {
		struct mdev *d = &m->devs[i];
		if (d->used)
			end_all(m, d, d->last_time, m->last_line, TT_KTOUCH_ACTIVE_AT_END);
	}
	tt_model_hid_finish(m);
	tt_model_link_flush(m);
	while (m->nxt) {
		struct xt *x = m->xt[m->nxt - 1];
		x->pub.flags |= TT_XTOUCH_ACTIVE_AT_END;
		tt_model_xt_end(m, x, x->pub.end_us, m->last_line);
	}
}

bool
tt_model_position(const struct tt_device *dev, int32_t x, int32_t y, double *ox, double *oy)
{
	const struct tt_absinfo *ax, *ay;

	pos_axes(dev, &ax, &ay);
	if (ax->resolution > 0 && ay->resolution > 0) {
		*ox = (double)((int64_t)x - ax->minimum) / ax->resolution;
		*oy = (double)((int64_t)y - ay->minimum) / ay->resolution;
		return true;
	}
	*ox = x;
	*oy = y;
	return false;
}
