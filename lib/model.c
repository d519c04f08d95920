/* SPDX-License-Identifier: MIT */
/* The touch-sequence model: kernel slots and contacts, XI touch sequences
 * and their ownership. See model.h. The kernel-to-XI link lives in
 * model-link.c. */
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
	for (size_t i = 0; i < m->ndevs; i++)
		mdev_clear(&m->devs[i]);
	for (size_t i = 0; i < m->nxt; i++)
		free(m->xt[i]);
	free(m->xt);
	tt_model_hid_free(m);	/* first: it leaves the XI link's touches to it */
	for (size_t i = 0; i < m->npending; i++) {
		if (m->pending[i]->ended)	/* the others are still in their device */
			free_kt(m->pending[i]);
	}
	free(m->pending);
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

static struct kt *
new_touch(struct tt_model *m, struct mdev *d, int32_t slot, int64_t t, size_t line)
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

static void
emit_begin(struct tt_model *m, struct mdev *d, struct kt *k)
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
static void
end_touch(struct tt_model *m, struct kt *k, int64_t t, size_t line, uint32_t flags)
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
		for (uint32_t i = 0; i < d->nslots; i++)
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
				end_touch(m, d->slot_touch[i], t, line, flags);
			d->slot_touch[i] = NULL;
		}
	}
	for (uint32_t i = 0; i < d->nactive; i++)
		end_touch(m, d->active[i], t, line, flags);
	d->nactive = 0;
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
			d->slot_unknown |= id != -1;
			if (id != -1) {
				struct kt *k = new_touch(m, d, (int32_t)s, 0, rec->line);
				k->pub.tracking_id = id;
				k->pub.flags |= TT_KTOUCH_BEFORE_START;
				memcpy(k->pub.values, d->slot_vals[s], sizeof(k->pub.values));
				d->slot_touch[s] = k;
				emit_begin(m, d, k);
			}
		}
		d->keys_unsure = bit_is_set(d->keys, BTN_TOUCH) != d->slot_unknown;
	} else if (d->kind == MDEV_ST && bit_is_set(d->keys, BTN_TOUCH)) {
		struct kt *k = new_touch(m, d, 0, 0, rec->line);
		k->pub.tracking_id = (int32_t)++d->next_synthetic;
		k->pub.flags |= TT_KTOUCH_BEFORE_START | TT_KTOUCH_SYNTHETIC_ID;
		k->pub.values[TT_AXIS(ABS_MT_POSITION_X)] = d->abs_vals[ABS_X];
		k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)] = d->abs_vals[ABS_Y];
		k->pub.values[TT_AXIS(ABS_MT_PRESSURE)] = d->abs_vals[ABS_PRESSURE];
		d->active[d->nactive++] = k;
		emit_begin(m, d, k);
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

	for (uint32_t i = 0; i < d->nslots; i++) {
		struct kt *o = d->slot_touch[i];
		if (i == s || !o || o->pub.tracking_id != id || !(d->slot_stale[i] || unsure))
			continue;
		end_touch(m, o, f->time_us, line, TT_KTOUCH_CUT_BY_DROP);
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

	if (e->code == ABS_MT_TRACKING_ID) {
		/* The device itself set it: known again (libevdev's resync
		 * is a guess that may be stale). */
		if (regular_frame(f) && !d->slot_unknown)
			d->slot_stale[s] = false;
		if (e->value != -1)
			end_lost_duplicate(m, d, s, f, line, e->value);
		if (e->value == -1) {
			if (k)
				end_touch(m, k, f->time_us, line, 0);
			d->slot_touch[s] = NULL;
		} else if (!k || k->pub.tracking_id != e->value) {
			if (k)
				end_touch(m, k, f->time_us, line, TT_KTOUCH_REPLACED);
			k = new_touch(m, d, (int32_t)s, f->time_us, line);
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
static void
note_known(struct kt *k, uint32_t unknown)
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
	for (uint32_t s = 0; s < d->nslots; s++) {
		struct kt *k = d->slot_touch[s];
		uint32_t dirty = d->dirty[s];

		d->dirty[s] = 0;
		if (!k)
			continue;
		memcpy(k->pub.values, d->slot_vals[s], sizeof(k->pub.values));
		note_known(k, d->has_axes & ~d->slot_known[s]);
		if (f->flags & (TT_FRAME_RESYNC | TT_FRAME_DROPPED))
			k->pub.flags |= k->is_new ? TT_KTOUCH_CUT_BY_DROP : 0;
		if (k->is_new) {
			emit_begin(m, d, k);
		} else if (dirty) {
			struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = dirty };
			k->pub.nframes++;
			if (m->cb.kernel_update)
				m->cb.kernel_update(m->data, &k->pub, &u);
		}
	}
}

/* Type A: the contacts of one frame, paired with the active touches. */
struct contact {
	int32_t values[TT_MT_AXES];
	uint32_t set;	/* axes this frame gave */
	struct kt *match;
};

static int
lowest_free_slot(const struct mdev *d)
{
	for (int32_t s = 0;; s++) {
		bool used = false;
		for (uint32_t i = 0; i < d->nactive && !used; i++)
			used = d->active[i]->pub.slot == s;
		if (!used)
			return s;
	}
}

struct pair {
	double dist;
	uint32_t a, c;
};

static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return (x->dist > y->dist) - (x->dist < y->dist);
}

static void
pair_nearest(struct mdev *d, struct contact *cs, uint32_t n)
{
	const int ix = TT_AXIS(ABS_MT_POSITION_X), iy = TT_AXIS(ABS_MT_POSITION_Y);

	if (!n || !d->nactive)
		return;
	/* Greedy nearest pairs: good enough for fingers that move less
	 * between two frames than they are apart. */
	size_t np = (size_t)n * d->nactive;
	_cleanup_free_ struct pair *pairs = tt_reallocarray(NULL, np, sizeof(*pairs));
	_cleanup_free_ bool *taken = tt_zalloc(d->nactive * sizeof(bool));
	size_t k = 0;
	for (uint32_t a = 0; a < d->nactive; a++) {
		for (uint32_t c = 0; c < n; c++)
			taken[a] |= cs[c].match == d->active[a];
	}
	for (uint32_t c = 0; c < n; c++) {
		for (uint32_t a = 0; a < d->nactive; a++) {
			double dx = (double)cs[c].values[ix] - d->active[a]->pub.values[ix];
			double dy = (double)cs[c].values[iy] - d->active[a]->pub.values[iy];
			pairs[k++] = (struct pair){ hypot(dx, dy), a, c };
		}
	}
	qsort(pairs, np, sizeof(*pairs), cmp_pair);
	for (size_t i = 0; i < np; i++) {
		if (taken[pairs[i].a] || cs[pairs[i].c].match)
			continue;
		taken[pairs[i].a] = true;
		cs[pairs[i].c].match = d->active[pairs[i].a];
	}
}

/* By ABS_MT_TRACKING_ID where the contact has one; the others (devices
 * without IDs, or frames that leave the ID out) by nearest position. */
static void
pair_contacts(struct mdev *d, struct contact *cs, uint32_t n)
{
	const int iid = TT_AXIS(ABS_MT_TRACKING_ID);
	bool all = true;

	if (d->has_tracking) {
		for (uint32_t c = 0; c < n; c++) {
			if (!(cs[c].set & (1u << iid))) {
				all = false;
				continue;
			}
			for (uint32_t a = 0; a < d->nactive; a++) {
				if (d->active[a]->pub.tracking_id == cs[c].values[iid]) {
					cs[c].match = d->active[a];
					break;
				}
			}
		}
		if (all)
			return;
	}
	pair_nearest(d, cs, n);
}

static void
apply_contacts(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
	       struct contact *cs, uint32_t n)
{
	const int iid = TT_AXIS(ABS_MT_TRACKING_ID);
	struct kt *keep[TT_MAX_SLOTS];
	uint32_t nkeep = 0;

	pair_contacts(d, cs, n);
	/* Ends first, so their slots are free for the begins. */
	for (uint32_t a = 0; a < d->nactive; a++) {
		bool matched = false;
		for (uint32_t c = 0; c < n && !matched; c++)
			matched = cs[c].match == d->active[a];
		if (!matched)
			end_touch(m, d->active[a], f->time_us, line, 0);
		else
			keep[nkeep++] = d->active[a];
	}
	memcpy(d->active, keep, nkeep * sizeof(*keep));
	d->nactive = nkeep;

	for (uint32_t c = 0; c < n; c++) {
		struct kt *k = cs[c].match;
		uint32_t changed = 0;

		if (!k) {
			if (d->nactive >= TT_MAX_SLOTS)
				continue;
			k = new_touch(m, d, lowest_free_slot(d), f->time_us, line);
			if (d->has_tracking && (cs[c].set & (1u << iid))) {
				k->pub.tracking_id = cs[c].values[iid];
			} else {
				k->pub.tracking_id = (int32_t)++d->next_synthetic;
				k->pub.flags |= TT_KTOUCH_SYNTHETIC_ID;
			}
			d->active[d->nactive++] = k;
		}
		for (int i = 0; i < TT_MT_AXES; i++) {
			if (!(cs[c].set & (1u << i)) || i == iid)
				continue;
			if (k->pub.values[i] != cs[c].values[i] || k->is_new)
				changed |= 1u << i;
			k->pub.values[i] = cs[c].values[i];
		}
		note_known(k, (k->is_new ? d->has_axes : k->pub.unknown) & ~cs[c].set);
		if (k->is_new) {
			emit_begin(m, d, k);
		} else if (changed) {
			struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = changed };
			k->pub.nframes++;
			if (m->cb.kernel_update)
				m->cb.kernel_update(m->data, &k->pub, &u);
		}
	}
}

/* Some Type A drivers (bcm5974) keep reporting a lifted finger with
 * ABS_MT_TOUCH_MAJOR 0, others with ABS_MT_PRESSURE 0: not a contact. */
static bool
is_contact(const struct contact *c)
{
	if (!c->set)
		return false;
	if ((c->set & (1u << TT_AXIS(ABS_MT_TOUCH_MAJOR))) && c->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)] == 0)
		return false;
	if ((c->set & (1u << TT_AXIS(ABS_MT_PRESSURE))) && c->values[TT_AXIS(ABS_MT_PRESSURE)] == 0)
		return false;
	return true;
}

static void
frame_type_a(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line)
{
	struct contact cs[TT_MAX_SLOTS];
	struct contact cur = { .set = 0 };
	uint32_t n = 0;
	bool mt_content = false, touch_up = false;

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_SYN && e->code == SYN_MT_REPORT) {
			mt_content = true;
			if (is_contact(&cur) && n < TT_MAX_SLOTS)
				cs[n++] = cur;
			memset(&cur, 0, sizeof(cur));
		} else if (e->type == EV_ABS && e->code >= TT_MT_FIRST && e->code <= TT_MT_LAST) {
			mt_content = true;
			cur.values[TT_AXIS(e->code)] = e->value;
			cur.set |= 1u << TT_AXIS(e->code);
		} else if (e->type == EV_KEY && e->code == BTN_TOUCH && e->value == 0) {
			touch_up = true;
		}
	}
	if (is_contact(&cur) && n < TT_MAX_SLOTS)
		cs[n++] = cur;	/* a last contact without its SYN_MT_REPORT */
	if (!mt_content && !touch_up)
		return;	/* a frame about something else: contacts unchanged */
	apply_contacts(m, d, f, line, cs, n);
}

static void
frame_single(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
	     bool was_down)
{
	bool down = bit_is_set(d->keys, BTN_TOUCH);
	struct kt *k = d->nactive ? d->active[0] : NULL;
	int32_t v[3] = { d->abs_vals[ABS_X], d->abs_vals[ABS_Y], d->abs_vals[ABS_PRESSURE] };
	static const int axes[3] = { TT_AXIS(ABS_MT_POSITION_X), TT_AXIS(ABS_MT_POSITION_Y),
				     TT_AXIS(ABS_MT_PRESSURE) };

	if (k && !down) {
		d->nactive = 0;
		end_touch(m, k, f->time_us, line, 0);
		return;
	}
	if (!down)
		return;
	if (!k || !was_down) {
		k = new_touch(m, d, 0, f->time_us, line);
		k->pub.tracking_id = (int32_t)++d->next_synthetic;
		k->pub.flags |= TT_KTOUCH_SYNTHETIC_ID;
		for (int i = 0; i < 3; i++)
			k->pub.values[axes[i]] = v[i];
		d->active[0] = k;
		d->nactive = 1;
		emit_begin(m, d, k);
		return;
	}
	uint32_t changed = 0;
	for (int i = 0; i < 3; i++) {
		if (k->pub.values[axes[i]] != v[i])
			changed |= 1u << axes[i];
		k->pub.values[axes[i]] = v[i];
	}
	if (changed) {
		struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = changed };
		k->pub.nframes++;
		if (m->cb.kernel_update)
			m->cb.kernel_update(m->data, &k->pub, &u);
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
}

bool
tt_model_settled(const struct tt_model *m, uint32_t device)
{
	const struct mdev *d = tt_model_find_dev((struct tt_model *)m, device);

	if (!d || !d->slot_stale)
		return true;
	if (d->slot_unknown || d->keys_unsure)
		return false;
	for (uint32_t s = 0; s < d->nslots; s++) {
		if (d->slot_stale[s])
			return false;
	}
	return true;
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
	case MDEV_A: frame_type_a(m, d, f, rec->line); break;
	case MDEV_ST: frame_single(m, d, f, rec->line, was_down); break;
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

/* ---- XI touches ---- */

static struct xt *
find_xt(struct tt_model *m, const struct tt_xi_event *ev, uint32_t touchid, bool raw)
{
	const char *client = ev->client ? ev->client : "";

	for (size_t i = 0; i < m->nxt; i++) {
		struct xt *x = m->xt[i];
		if (x->pub.touchid != touchid || !!(x->pub.flags & TT_XTOUCH_RAW) != raw)
			continue;
		if (strncmp(x->pub.client, client, sizeof(x->pub.client) - 1) != 0)
			continue;
		if (x->pub.deviceid == ev->deviceid || (ev->sourceid && x->pub.sourceid == ev->sourceid))
			return x;
	}
	return NULL;
}

static void
remove_xt(struct tt_model *m, struct xt *x)
{
	for (size_t i = 0; i < m->nxt; i++) {
		if (m->xt[i] == x) {
			m->xt[i] = m->xt[--m->nxt];
			break;
		}
	}
	free(x);
}

static void
xt_end(struct tt_model *m, struct xt *x, int64_t t, size_t line)
{
	struct tt_xtouch *p = &x->pub;

	p->end_us = t;
	p->end_line = line;
	if (p->flags & TT_XTOUCH_RAW) {
		p->outcome = TT_OWN_NONE;
	} else if (p->outcome == TT_OWN_ACCEPTED || p->outcome == TT_OWN_REJECTED) {
		/* stays */
	} else if (p->flags & TT_XTOUCH_ACTIVE_AT_END) {
		if (p->flags & TT_XTOUCH_OWNED)
			p->outcome = TT_OWN_OWNED;
		else if (x->own_involved || x->accepted_elsewhere || (p->flags & TT_XTOUCH_PENDING_END))
			p->outcome = TT_OWN_UNRESOLVED;
		else
			p->outcome = TT_OWN_NONE;
	} else if (p->flags & TT_XTOUCH_OWNED) {
		p->outcome = TT_OWN_OWNED;
	} else if (x->accepted_elsewhere) {
		p->outcome = TT_OWN_LOST;
		if (p->resolved_us < 0) {
			p->resolved_us = t;
			p->resolved_line = line;
		}
	} else if (x->own_involved) {
		p->outcome = TT_OWN_ENDED_UNOWNED;
	} else {
		p->outcome = TT_OWN_NONE;
	}
	if (m->cb.xi_end)
		m->cb.xi_end(m->data, p);
	remove_xt(m, x);
}

static void
xi_position(struct tt_xtouch *p, const struct tt_xi_event *ev)
{
	p->root_x = ev->root_x;
	p->root_y = ev->root_y;
}

/* A sequence that begins after another client accepted or rejected its
 * touch is in that ownership contest all the same. */
static void
involve_early(struct tt_model *m, struct xt *x)
{
	size_t n = m->nresolved < ARRAY_LENGTH(m->resolved) ? m->nresolved : ARRAY_LENGTH(m->resolved);

	for (size_t i = 0; i < n; i++) {
		const struct xi_resolution *r = &m->resolved[i];
		if (r->touchid != x->pub.touchid || strcmp(r->client, x->pub.client) == 0)
			continue;
		x->own_involved = true;
		if (r->accept)
			x->accepted_elsewhere = true;
		else
			x->rejected_elsewhere = true;
	}
}

static void
remember_resolution(struct tt_model *m, uint32_t touchid, bool accept, const char *client)
{
	struct xi_resolution *r = &m->resolved[m->nresolved++ % ARRAY_LENGTH(m->resolved)];

	r->touchid = touchid;
	r->accept = accept;
	snprintf(r->client, sizeof(r->client), "%s", client);
}

static void
xi_touch_event(struct tt_model *m, const struct tt_xi_event *ev, size_t line)
{
	bool raw = ev->evtype >= XI_RawTouchBegin && ev->evtype <= XI_RawTouchEnd;
	int kind = raw ? ev->evtype - XI_RawTouchBegin : ev->evtype - XI_TouchBegin;
	struct xt *x = find_xt(m, ev, ev->detail, raw);

	if (kind == 0) {
		if (x)	/* begins twice: the checker says so; start over */
			xt_end(m, x, ev->time_us, line);
		x = tt_zalloc(sizeof(*x));
		struct tt_xtouch *p = &x->pub;
		p->serial = ++m->xserial;
		p->deviceid = ev->deviceid;
		p->sourceid = ev->sourceid;
		p->touchid = ev->detail;
		snprintf(p->client, sizeof(p->client), "%s", ev->client ? ev->client : "");
		p->flags = raw ? TT_XTOUCH_RAW : 0;
		if (ev->flags & XITouchEmulatingPointer)
			p->flags |= TT_XTOUCH_EMULATING_POINTER;
		p->begin_us = p->end_us = ev->time_us;
		p->begin_line = p->end_line = line;
		p->owned_us = -1;
		p->resolved_us = -1;
		xi_position(p, ev);
		p->begin_root_x = ev->root_x;
		p->begin_root_y = ev->root_y;
		if (m->nxt == m->capxt) {
			m->capxt = m->capxt ? m->capxt * 2 : 16;
			m->xt = tt_reallocarray(m->xt, m->capxt, sizeof(*m->xt));
		}
		m->xt[m->nxt++] = x;
		if (!raw)
			involve_early(m, x);
		if (m->cb.xi_begin)
			m->cb.xi_begin(m->data, p);
		tt_model_link_xi_touch(m, ev, line);
		return;
	}
	/* Before the check below: an update of a touch whose begin the
	 * recording lacks still carries the flags the link waits for. */
	if (kind == 1 && !raw)
		tt_model_link_xi_touch(m, ev, line);
	if (!x)
		return;	/* update or end without begin: the checker reports it */
	if (ev->flags & XITouchPendingEnd)
		x->pub.flags |= TT_XTOUCH_PENDING_END;
	if (ev->flags & XITouchEmulatingPointer)
		x->pub.flags |= TT_XTOUCH_EMULATING_POINTER;
	if (!raw)
		xi_position(&x->pub, ev);
	x->pub.end_us = ev->time_us;
	if (kind == 1) {
		x->pub.nupdates++;
		x->got_update = true;
		if (m->cb.xi_update)
			m->cb.xi_update(m->data, &x->pub, ev, line);
	} else {
		xt_end(m, x, ev->time_us, line);
	}
}

/* Every active regular sequence of @touchid: ownership is now in play. */
static void
mark_involved(struct tt_model *m, uint32_t touchid, const char *accepted_by, const char *rejected_by)
{
	for (size_t i = 0; i < m->nxt; i++) {
		struct xt *x = m->xt[i];
		if (x->pub.touchid != touchid || (x->pub.flags & TT_XTOUCH_RAW))
			continue;
		x->own_involved = true;
		if (accepted_by && strcmp(x->pub.client, accepted_by) != 0)
			x->accepted_elsewhere = true;
		if (rejected_by && strcmp(x->pub.client, rejected_by) != 0)
			x->rejected_elsewhere = true;
	}
}

static void
xi_ownership_event(struct tt_model *m, const struct tt_xi_event *ev, size_t line)
{
	const char *client = ev->client ? ev->client : "";

	if (ev->evtype == XI_TouchOwnership) {
		mark_involved(m, ev->touchid, NULL, NULL);
		struct xt *x = find_xt(m, ev, ev->touchid, false);
		if (!x)
			return;
		if (x->got_update || x->rejected_elsewhere)
			x->pub.flags |= TT_XTOUCH_BEGAN_UNOWNED;
		x->pub.flags |= TT_XTOUCH_OWNED;
		if (x->pub.owned_us < 0)
			x->pub.owned_us = ev->time_us;
		x->pub.outcome = TT_OWN_OWNED;
		if (m->cb.xi_ownership)
			m->cb.xi_ownership(m->data, &x->pub, ev, line);
		return;
	}
	bool accept = ev->evtype == TT_XI_REQ_ACCEPT;
	mark_involved(m, ev->touchid, accept ? client : NULL, accept ? NULL : client);
	remember_resolution(m, ev->touchid, accept, client);
	struct xt *x = find_xt(m, ev, ev->touchid, false);
	if (!x) {
		/* Requests name the master or the slave: try any device. */
		for (size_t i = 0; i < m->nxt && !x; i++) {
			struct xt *c = m->xt[i];
			if (c->pub.touchid == ev->touchid && !(c->pub.flags & TT_XTOUCH_RAW) &&
			    strcmp(c->pub.client, client) == 0)
				x = c;
		}
	}
	if (!x)
		return;
	x->pub.outcome = accept ? TT_OWN_ACCEPTED : TT_OWN_REJECTED;
	x->pub.resolved_us = ev->time_us;
	x->pub.resolved_line = line;
	if (m->cb.xi_ownership)
		m->cb.xi_ownership(m->data, &x->pub, ev, line);
}

static void
feed_xi(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_xi_event *ev = rec->xi_event;

	tt_model_link_advance(m, ev->time_us);
	switch (ev->evtype) {
	case XI_TouchBegin: case XI_TouchUpdate: case XI_TouchEnd:
	case XI_RawTouchBegin: case XI_RawTouchUpdate: case XI_RawTouchEnd:
		xi_touch_event(m, ev, rec->line);
		break;
	case XI_TouchOwnership: case TT_XI_REQ_ACCEPT: case TT_XI_REQ_REJECT:
		xi_ownership_event(m, ev, rec->line);
		break;
	default:
		break;
	}
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
	case TT_RECORD_XI_EVENT: feed_xi(m, rec); break;
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
		xt_end(m, x, x->pub.end_us, m->last_line);
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
