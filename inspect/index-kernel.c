/* SPDX-License-Identifier: MIT */
/* The kernel layer of the index: devices, frames and marker records, and
 * a lane per kernel touch with its updates, linked to the XI lanes it
 * became. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

static int16_t
clamp16(int32_t v)
{
	return v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : (int16_t)v;
}

static void
add_kupd(struct tt_index *ix, struct ti_lane *l, const struct tt_ktouch *t)
{
	struct ti_kupd *u;
	size_t cap = l->capupd;

	if (ix->lean)
		return;
	l->kupd = ti_grow(l->kupd, &cap, (size_t)l->nupd + 1, sizeof(*l->kupd));
	l->capupd = (uint32_t)cap;
	u = &l->kupd[l->nupd++];
	/* Within a frame record, the model calls back for that frame, which
	 * on_record() appended already; a touch down in a device's state at
	 * time 0 begins with the device record. */
	u->frame = ix->in_frame && ix->nframes ? (uint32_t)(ix->nframes - 1) : TI_NO_FRAME;
	u->x = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	u->y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	u->pressure = clamp16(t->values[TT_AXIS(ABS_MT_PRESSURE)]);
	u->major = clamp16(t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)]);
	l->tool = t->values[TT_AXIS(ABS_MT_TOOL_TYPE)];
}

static void
copy_ktouch(struct tt_index *ix, struct ti_lane *l, const struct tt_ktouch *t)
{
	const struct ti_device *d = tt_index_device(ix, t->device);

	l->device = t->device;
	l->slot = t->slot;
	l->id = t->tracking_id;
	l->serial = t->serial;
	l->flags = t->flags;
	l->begin_us = t->begin_us;
	l->end_us = t->end_us;
	l->begin_line = t->begin_line;
	l->end_line = t->end_line;
	l->distance_mm = d && d->has_mm;
}

void
on_kernel_begin(void *data, struct tt_ktouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = ti_add_lane(ix, TI_LANE_KERNEL);

	t->user = l;
	copy_ktouch(ix, l, t);
	add_kupd(ix, l, t);
}

void
on_kernel_update(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;
	const struct ti_device *d = tt_index_device(ix, t->device);

	if (!l)
		return;
	if (l->nupd && d && d->copy &&
	    (u->changed & ((1u << TT_AXIS(ABS_MT_POSITION_X)) | (1u << TT_AXIS(ABS_MT_POSITION_Y))))) {
		const struct ti_kupd *p = &l->kupd[l->nupd - 1];
		l->distance += tt_model_distance(d->copy,
						 (double)t->values[TT_AXIS(ABS_MT_POSITION_X)] - p->x,
						 (double)t->values[TT_AXIS(ABS_MT_POSITION_Y)] - p->y);
	}
	l->end_us = u->time_us;
	l->end_line = u->line;
	add_kupd(ix, l, t);
}

void
ti_lane_end_at(struct ti_lane *l, uint32_t flags, int64_t end_us, size_t end_line)
{
	l->flags = flags;
	l->end_us = end_us;
	l->end_line = end_line;
	l->ended = true;
}

struct ti_lane *
ti_kernel_lane(const struct tt_index *ix, uint64_t serial, int64_t begin_us)
{
	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *k = ix->lanes[i];
		if (k->kind != TI_LANE_KERNEL)
			continue;
		if (k->begin_us < begin_us)
			break;
		if (k->serial == serial)
			return k;
	}
	return NULL;
}

void
ti_lane_ownership(struct ti_lane *l, const struct tt_xtouch *t)
{
	l->outcome = t->outcome;
	l->owned_us = t->owned_us;
	l->resolved_us = t->resolved_us;
	l->flags = t->flags;
}

/* The XI lanes of kernel lane @l's touch, one per client (and raw): same
 * touch id and device, begun with the XI touch the model paired. Lanes
 * are in begin order. */
static void
link_xi_lanes(struct tt_index *ix, struct ti_lane *l, const struct tt_ktouch *t)
{
	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *x = ix->lanes[i];
		if (x->begin_us < t->begin_us)
			break;
		if (x->kind == TI_LANE_KERNEL || x->linked >= 0 ||
		    x->id != (int32_t)t->xi_touchid ||
		    (x->sourceid != t->xi_deviceid && (int32_t)x->device != t->xi_deviceid) ||
		    x->begin_us < t->xi_begin_us || x->begin_us > t->xi_begin_us + 250000)
			continue;
		x->linked = l->index;
		if (l->linked < 0 || x->begin_line == t->xi_begin_line)
			l->linked = x->index;
	}
}

void
on_kernel_end(void *data, struct tt_ktouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	ti_lane_end_at(l, t->flags, t->end_us, t->end_line);
	l->link = t->link;
	l->xi_deviceid = t->xi_deviceid;
	l->xi_touchid = t->xi_touchid;
	l->xi_begin_us = t->xi_begin_us;
	l->hid_link = t->hid_link;
	l->hid_begin_us = t->hid_begin_us;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_xi_lanes(ix, l, t);
	ti_release_lane(ix, l);
}

void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line,
	 uint32_t nactive)
{
	struct tt_index *ix = data;

	(void)dev;
	(void)f;
	(void)line;
	if (ix->nframes) {
		struct ti_frame *fr = &ix->frames[ix->nframes - 1];
		fr->nactive = nactive > 255 ? 255 : (uint8_t)nactive;
	}
}

static void
pos_axes(const struct tt_device *dev, struct tt_absinfo *ax, struct tt_absinfo *ay)
{
	if (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X)) {
		*ax = dev->abs[ABS_MT_POSITION_X];
		*ay = dev->abs[ABS_MT_POSITION_Y];
	} else {
		*ax = dev->abs[ABS_X];
		*ay = dev->abs[ABS_Y];
	}
}

bool
ti_chosen_device(const struct tt_index *ix, const struct tt_record *rec)
{
	return ti_device_chosen(ix, rec->device->id);
}

bool
ti_chosen_frame(const struct tt_index *ix, const struct tt_record *rec)
{
	return ti_device_chosen(ix, rec->frame->device);
}

bool
ti_chosen_marker(const struct tt_index *ix, const struct tt_record *rec)
{
	return ti_device_chosen(ix, rec->marker->device);
}

void
index_device(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_device *dev = rec->device;
	struct ti_device *d = ti_find_dev(ix, dev->id, NULL);

	if (!d) {
		if (ix->ndevs >= TT_MAX_DEVICES)
			return;
		ix->devs = tt_reallocarray(ix->devs, ix->ndevs + 1, sizeof(*ix->devs));
		d = &ix->devs[ix->ndevs++];
		memset(d, 0, sizeof(*d));
	} else {
		free(d->name);
		tt_device_free(d->copy);
	}
	d->id = dev->id;
	d->name = strdup(dev->name ? dev->name : "");
	if (!d->name)
		abort();
	d->mt = dev->mt_protocol;
	d->num_slots = dev->num_slots;
	d->touch = tt_device_is_touch(dev);
	d->has_mm = tt_model_has_mm(dev);
	pos_axes(dev, &d->ax, &d->ay);
	d->copy = tt_device_new(dev->id);
	memcpy(d->copy->types, dev->types, sizeof(dev->types));
	memcpy(d->copy->codes, dev->codes, sizeof(dev->codes));
	memcpy(d->copy->abs, dev->abs, sizeof(dev->abs));
	memcpy(d->copy->props, dev->props, sizeof(dev->props));
	d->copy->mt_protocol = dev->mt_protocol;
	tt_sur_device_copy(d->copy, dev);	/* for inspect --summary */
}

static void count_frame(struct tt_index *ix, struct ti_device *d, const struct tt_frame *f, size_t line);

void
index_frame(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	size_t line = rec->line;
	size_t pos = 0;
	struct ti_device *d = ti_find_dev(ix, f->device, &pos);
	struct ti_frame *fr;

	if (!d)
		return;	/* the checker reports frames of undeclared devices */
	if (ix->lean) {
		/* Counted, not kept. */
		ix->nevents += f->nevents;
		count_frame(ix, d, f, line);
		return;
	}
	if (ix->nevents + f->nevents > UINT32_MAX || ix->nframes >= UINT32_MAX)
		return;	/* beyond what the index addresses: 4G events */
	ix->frames = ti_grow(ix->frames, &ix->capframes, ix->nframes + 1, sizeof(*ix->frames));
	fr = &ix->frames[ix->nframes++];
	fr->time_us = f->time_us;
	fr->first = (uint32_t)ix->nevents;
	fr->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	fr->device = (uint16_t)pos;
	fr->flags = (uint8_t)f->flags;
	fr->nactive = 0;

	size_t need = ix->nevents + f->nevents;
	size_t cap = ix->capevents;
	ix->ev_tc = ti_grow(ix->ev_tc, &cap, need, sizeof(*ix->ev_tc));
	cap = ix->capevents;
	ix->ev_val = ti_grow(ix->ev_val, &cap, need, sizeof(*ix->ev_val));
	ix->capevents = cap;
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		ix->ev_tc[ix->nevents] = (uint16_t)(((e->type & 0x3f) << 10) | (e->code & 0x3ff));
		ix->ev_val[ix->nevents] = e->value;
		ix->nevents++;
	}
	count_frame(ix, d, f, line);
}

/* The markers of lost events. */
static void
count_frame(struct tt_index *ix, struct ti_device *d, const struct tt_frame *f, size_t line)
{
	(void)d;
	if (f->flags & TT_FRAME_DROPPED) {
		ti_add_marker(ix, TI_MARK_DROPPED, f->time_us, line, -1, f->device);
	} else if (f->flags & TT_FRAME_RESYNC) {
		ti_add_marker(ix, TI_MARK_RESYNC, f->time_us, line, -1, f->device);
	}
}

void
index_marker(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_marker *mk = rec->marker;
	size_t line = rec->line;
	struct ti_marker *m;
	char buf[512];

	if (mk->kind == TT_MARKER_DEVICE_REMOVED) {
		struct ti_device *d = mk->device >= 0 ? ti_find_dev(ix, (uint32_t)mk->device, NULL) : NULL;
		m = ti_add_marker(ix, TI_MARK_DEVICE_REMOVED, mk->time_us, line, -1, mk->device);
		if (d) {
			d->removed = true;
			d->removed_us = mk->time_us;
		}
		return;
	}
	m = ti_add_marker(ix, TI_MARK_RECORD, mk->time_us, line, -1, mk->device);
	_cleanup_free_ char *clean = mk->text ? tt_str_sanitize(mk->text, strlen(mk->text), 200) : NULL;
	_cleanup_free_ char *kind = mk->kind_name ? tt_str_sanitize(mk->kind_name, strlen(mk->kind_name), 64) : NULL;
	snprintf(buf, sizeof(buf), "%s%s%s", kind ? kind : tt_marker_kind_name(mk->kind),
		 clean ? ": " : "", clean ? clean : "");
	m->text = ti_add_text(ix, buf);
}
