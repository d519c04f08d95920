/* SPDX-License-Identifier: MIT */
/*
 * One streaming pass: the reader feeds lib/detect.h (the checker, the
 * detectors and the model), whose callbacks append to compact arrays.
 * See index.h.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

/* Texts of anomalies beyond this are counted, not kept. */
#define TEXT_POOL_MAX (4u * 1024 * 1024)

struct tt_index {
	pthread_mutex_t lock;
	char *name;

	struct ti_device *devs;
	size_t ndevs;

	struct ti_frame *frames;
	size_t nframes, capframes;
	/* Events packed: type << 10 | code, and the value. */
	uint16_t *ev_tc;
	int32_t *ev_val;
	size_t nevents, capevents;

	struct ti_lane **lanes;	/* in begin order */
	size_t nlanes, caplanes;

	struct ti_marker *markers;	/* in time order as read */
	size_t nmarkers, capmarkers;
	char *text;		/* marker texts, NUL-separated */
	size_t ntext, captext;
	size_t text_dropped;	/* texts left out once the pool was full */

	/* The numbers: the detector's, kept current as records are fed. */
	const struct tt_stats *stats;
	size_t nerrors;		/* lines the reader refused */
	bool read_stopped;	/* a read error ended the file early (-EIO) */
	char *first_error;
	size_t nwarnings;	/* the reader's warnings (truncated last line...) */
	char *first_warning;
	bool quiet_warnings;
	/* tt_index_set_lean(): counts and live lanes only, for --summary.
	 * Ended lanes wait in @spare for the next touch to reuse them. */
	bool lean;
	struct ti_lane **spare;
	size_t nspare, capspare;
	struct ti_marker scratch;	/* lean: where markers not kept go */

	uint32_t *devices;	/* tt_index_set_devices() */
	size_t ndevices;
	uint32_t *hid_choice;	/* tt_index_set_hid_devices() */
	size_t nhid_choice;
	bool choosing;		/* either was given: the others are left out */

	struct ti_hid_device *hdevs;
	size_t nhdevs;

	uint64_t wl_touches, wl_linked, wl_cancelled;
	struct ti_li_device *lidevs;
	size_t nlidevs;

	uint64_t generation;	/* bumped whenever something was added */
	bool done;		/* the whole input was read */

	/* Building. */
	struct tt_reader *reader;
	struct tt_stack *detect;
	bool in_frame;
	bool stop;		/* tt_index_request_stop(): step returns early */
};

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n += n / 2 + 16;
	*cap = n;
	return tt_reallocarray(p, n, size);
}

static struct ti_device *
find_dev(struct tt_index *ix, uint32_t id, size_t *pos)
{
	for (size_t i = 0; i < ix->ndevs; i++) {
		if (ix->devs[i].id == id) {
			if (pos)
				*pos = i;
			return &ix->devs[i];
		}
	}
	return NULL;
}

const struct ti_device *
tt_index_device(const struct tt_index *ix, uint32_t id)
{
	return find_dev((struct tt_index *)ix, id, NULL);
}

static uint32_t
add_text(struct tt_index *ix, const char *s)
{
	size_t len = strlen(s) + 1;

	if (ix->ntext + len > TEXT_POOL_MAX) {
		ix->text_dropped++;
		return 0;
	}
	ix->text = grow(ix->text, &ix->captext, ix->ntext + len, 1);
	memcpy(ix->text + ix->ntext, s, len);
	ix->ntext += len;
	return (uint32_t)(ix->ntext - len + 1);
}

static struct ti_marker *
add_marker(struct tt_index *ix, enum ti_marker_kind kind, int64_t t, size_t line, int64_t lane,
	   int64_t device)
{
	struct ti_marker *m;

	/* A summary shows the first few anomalies and nothing else of the
	 * markers; the rest would only grow with the file. */
	if (ix->lean && ((kind != TI_MARK_ANOMALY && kind != TI_MARK_DROPPED) ||
			 ix->nmarkers >= TI_LEAN_MARKERS)) {
		m = &ix->scratch;
		memset(m, 0, sizeof(*m));
		return m;
	}
	ix->markers = grow(ix->markers, &ix->capmarkers, ix->nmarkers + 1, sizeof(*ix->markers));
	m = &ix->markers[ix->nmarkers++];
	memset(m, 0, sizeof(*m));
	m->time_us = t;
	m->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	m->kind = (uint8_t)kind;
	m->lane = lane;
	m->device = device;
	return m;
}

static struct ti_lane *
add_lane(struct tt_index *ix, enum ti_lane_kind kind)
{
	struct ti_lane *l;

	if (ix->nspare) {
		/* Lean: a lane that ended keeps its place in the array. */
		l = ix->spare[--ix->nspare];
		uint32_t index = l->index;
		memset(l, 0, sizeof(*l));
		l->index = index;
	} else {
		l = tt_zalloc(sizeof(*l));
		ix->lanes = grow(ix->lanes, &ix->caplanes, ix->nlanes + 1, sizeof(*ix->lanes));
		l->index = (uint32_t)ix->nlanes;
		ix->lanes[ix->nlanes++] = l;
	}
	l->kind = kind;
	l->linked = -1;
	l->tool = -1;
	l->owned_us = -1;
	l->resolved_us = -1;
	l->xi_begin_us = -1;
	l->hid_linked = -1;
	l->hid_begin_us = -1;
	l->li_latency_us = -1;
	l->li_linked = -1;
	l->wl_linked = -1;
	return l;
}

/* Lean: the summary needs nothing more of an ended lane. */
static void
release_lane(struct tt_index *ix, struct ti_lane *l)
{
	if (!ix->lean)
		return;
	ix->spare = grow(ix->spare, &ix->capspare, ix->nspare + 1, sizeof(*ix->spare));
	ix->spare[ix->nspare++] = l;
}

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
	l->kupd = grow(l->kupd, &cap, (size_t)l->nupd + 1, sizeof(*l->kupd));
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

static void
on_kernel_begin(void *data, struct tt_ktouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = add_lane(ix, TI_LANE_KERNEL);

	t->user = l;
	copy_ktouch(ix, l, t);
	add_kupd(ix, l, t);
}

static void
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

static void
lane_end_at(struct ti_lane *l, uint32_t flags, int64_t end_us, size_t end_line)
{
	l->flags = flags;
	l->end_us = end_us;
	l->end_line = end_line;
	l->ended = true;
}

static void
lane_ownership(struct ti_lane *l, const struct tt_xtouch *t)
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

static void
on_kernel_end(void *data, struct tt_ktouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	lane_end_at(l, t->flags, t->end_us, t->end_line);
	l->link = t->link;
	l->xi_deviceid = t->xi_deviceid;
	l->xi_touchid = t->xi_touchid;
	l->xi_begin_us = t->xi_begin_us;
	l->hid_link = t->hid_link;
	l->hid_begin_us = t->hid_begin_us;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_xi_lanes(ix, l, t);
	release_lane(ix, l);
}

static void
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
add_xupd(struct tt_index *ix, struct ti_lane *l, int64_t t, double x, double y)
{
	size_t cap = l->capupd;

	if (ix->lean)
		return;
	l->xupd = grow(l->xupd, &cap, (size_t)l->nupd + 1, sizeof(*l->xupd));
	l->capupd = (uint32_t)cap;
	l->xupd[l->nupd++] = (struct ti_xupd){ t, (float)x, (float)y };
}

static void
on_xi_begin(void *data, struct tt_xtouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = add_lane(ix, (t->flags & TT_XTOUCH_RAW) ? TI_LANE_XI_RAW : TI_LANE_XI);

	t->user = l;
	l->device = (uint32_t)t->deviceid;
	l->sourceid = t->sourceid;
	l->id = (int32_t)t->touchid;
	snprintf(l->client, sizeof(l->client), "%s", t->client);
	l->flags = t->flags;
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	l->slot = -1;
	add_xupd(ix, l, t->begin_us, t->root_x, t->root_y);
	if (t->flags & TT_XTOUCH_EMULATING_POINTER)
		add_marker(ix, TI_MARK_EMULATING, t->begin_us, t->begin_line, l->index, t->deviceid);
}

static void
on_xi_update(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	add_xupd(ix, l, ev->time_us, ev->root_x, ev->root_y);
	if (l->kind == TI_LANE_XI && l->nupd >= 2) {
		double dx = t->root_x - l->xupd[l->nupd - 2].x, dy = t->root_y - l->xupd[l->nupd - 2].y;
		l->distance += __builtin_sqrt(dx * dx + dy * dy);
	}
	if ((ev->flags & XITouchPendingEnd) && !(l->flags & TT_XTOUCH_PENDING_END))
		add_marker(ix, TI_MARK_PENDING_END, ev->time_us, line, l->index, ev->deviceid);
	if ((ev->flags & XITouchEmulatingPointer) && !(l->flags & TT_XTOUCH_EMULATING_POINTER))
		add_marker(ix, TI_MARK_EMULATING, ev->time_us, line, l->index, ev->deviceid);
	l->flags = t->flags;
	l->end_us = ev->time_us;
	l->end_line = line;
}

static void
on_xi_ownership(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;
	enum ti_marker_kind k;

	if (!l)
		return;
	if (ev->evtype == XI_TouchOwnership)
		k = TI_MARK_OWNERSHIP;
	else if (ev->evtype == TT_XI_REQ_ACCEPT)
		k = TI_MARK_ACCEPT;
	else
		k = TI_MARK_REJECT;
	add_marker(ix, k, ev->time_us, line, l->index, ev->deviceid);
	lane_ownership(l, t);
}

static void
on_xi_end(void *data, struct tt_xtouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	lane_ownership(l, t);
	lane_end_at(l, t->flags, t->end_us, t->end_line);
	if (t->flags & TT_XTOUCH_PENDING_END)
		l->flags |= TT_XTOUCH_PENDING_END;
	release_lane(ix, l);
}

static void
on_diag(void *userdata, const struct tt_diag *diag)
{
	struct tt_index *ix = userdata;
	struct ti_marker *m;

	/* SYN_DROPPED has its own marker (added with its frame, just
	 * before): it carries the diagnostic. */
	m = ix->nmarkers ? &ix->markers[ix->nmarkers - 1] : NULL;
	if (diag->check != TT_CHECK_SYN_DROPPED || !m || m->kind != TI_MARK_DROPPED ||
	    m->line != diag->line || m->text)
		m = add_marker(ix, TI_MARK_ANOMALY, diag->time_us, diag->line, -1, diag->device);
	m->check = (uint8_t)diag->check;
	m->severity = (uint8_t)diag->severity;
	m->text = add_text(ix, diag->message);
	m->lane = -1;
}

static struct ti_hid_device *
find_hdev(const struct tt_index *ix, uint32_t id)
{
	for (size_t i = 0; i < ix->nhdevs; i++) {
		if (ix->hdevs[i].id == id)
			return &ix->hdevs[i];
	}
	return NULL;
}

static void
on_hid_begin(void *data, struct tt_htouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = add_lane(ix, TI_LANE_HID);

	t->user = l;
	l->device = t->device;
	l->id = t->contact_id;
	l->slot = -1;
	l->serial = t->serial;
	l->flags = t->flags;
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	add_xupd(ix, l, t->begin_us, t->x, t->y);
}

static void
on_hid_update(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	add_xupd(ix, l, u->time_us, t->x, t->y);
	l->end_us = u->time_us;
	l->end_line = u->line;
}

/* The kernel lane of the touch the model paired with HID lane @l: begun
 * at kernel_begin_us, so at most a few lanes back from the end. */
static void
link_hid_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_htouch *t)
{
	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *k = ix->lanes[i];
		if (k->begin_us < t->kernel_begin_us)
			break;
		if (k->kind != TI_LANE_KERNEL || k->serial != t->ktouch_serial)
			continue;
		l->linked = k->index;
		k->hid_linked = l->index;
		return;
	}
}

static void
on_hid_end(void *data, struct tt_htouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	lane_end_at(l, t->flags, t->end_us, t->end_line);
	l->link = t->link;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_hid_lane(ix, l, t);
	release_lane(ix, l);
}

static void
on_hid_report(void *data, const struct tt_hreport *r)
{
	struct tt_index *ix = data;
	struct ti_hid_device *h = find_hdev(ix, r->device->id);

	if (h && r->nactive > h->max_simultaneous)
		h->max_simultaneous = r->nactive;
}

static const struct tt_model_callbacks callbacks = {
	.kernel_begin = on_kernel_begin,
	.kernel_update = on_kernel_update,
	.kernel_end = on_kernel_end,
	.frame = on_frame,
	.xi_begin = on_xi_begin,
	.xi_update = on_xi_update,
	.xi_ownership = on_xi_ownership,
	.xi_end = on_xi_end,
	.hid_begin = on_hid_begin,
	.hid_update = on_hid_update,
	.hid_end = on_hid_end,
	.hid_report = on_hid_report,
};

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

static void
index_device(struct tt_index *ix, const struct tt_device *dev)
{
	struct ti_device *d = find_dev(ix, dev->id, NULL);

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

static void
index_frame(struct tt_index *ix, const struct tt_frame *f, size_t line)
{
	size_t pos = 0;
	struct ti_device *d = find_dev(ix, f->device, &pos);
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
	ix->frames = grow(ix->frames, &ix->capframes, ix->nframes + 1, sizeof(*ix->frames));
	fr = &ix->frames[ix->nframes++];
	fr->time_us = f->time_us;
	fr->first = (uint32_t)ix->nevents;
	fr->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	fr->device = (uint16_t)pos;
	fr->flags = (uint8_t)f->flags;
	fr->nactive = 0;

	size_t need = ix->nevents + f->nevents;
	size_t cap = ix->capevents;
	ix->ev_tc = grow(ix->ev_tc, &cap, need, sizeof(*ix->ev_tc));
	cap = ix->capevents;
	ix->ev_val = grow(ix->ev_val, &cap, need, sizeof(*ix->ev_val));
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
		add_marker(ix, TI_MARK_DROPPED, f->time_us, line, -1, f->device);
	} else if (f->flags & TT_FRAME_RESYNC) {
		add_marker(ix, TI_MARK_RESYNC, f->time_us, line, -1, f->device);
	}
}

static void
index_marker(struct tt_index *ix, const struct tt_marker *mk, size_t line)
{
	struct ti_marker *m;
	char buf[512];

	if (mk->kind == TT_MARKER_DEVICE_REMOVED) {
		struct ti_device *d = mk->device >= 0 ? find_dev(ix, (uint32_t)mk->device, NULL) : NULL;
		m = add_marker(ix, TI_MARK_DEVICE_REMOVED, mk->time_us, line, -1, mk->device);
		if (d) {
			d->removed = true;
			d->removed_us = mk->time_us;
		}
		return;
	}
	m = add_marker(ix, TI_MARK_RECORD, mk->time_us, line, -1, mk->device);
	_cleanup_free_ char *clean = mk->text ? tt_str_sanitize(mk->text, strlen(mk->text), 200) : NULL;
	_cleanup_free_ char *kind = mk->kind_name ? tt_str_sanitize(mk->kind_name, strlen(mk->kind_name), 64) : NULL;
	snprintf(buf, sizeof(buf), "%s%s%s", kind ? kind : tt_marker_kind_name(mk->kind),
		 clean ? ": " : "", clean ? clean : "");
	m->text = add_text(ix, buf);
}

static bool
id_in(const uint32_t *ids, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

static bool
device_chosen(const struct tt_index *ix, int64_t id)
{
	return !ix->choosing || id < 0 || id_in(ix->devices, ix->ndevices, id);
}

/* Chosen by its own id, or for an evdev device it produced. */
static bool
hid_device_chosen(const struct tt_index *ix, const struct tt_hid_device *d)
{
	if (!ix->choosing || id_in(ix->hid_choice, ix->nhid_choice, d->id))
		return true;
	for (uint32_t i = 0; i < d->nevdev; i++) {
		if (id_in(ix->devices, ix->ndevices, d->evdev_devices[i]))
			return true;
	}
	return false;
}

/* --device: what is of another device is skipped whole; a HID report
 * follows its HID device, indexed only when chosen. */
static bool
record_chosen(const struct tt_index *ix, const struct tt_record *rec)
{
	switch (rec->type) {
	case TT_RECORD_DEVICE: return device_chosen(ix, rec->device->id);
	case TT_RECORD_FRAME: return device_chosen(ix, rec->frame->device);
	case TT_RECORD_MARKER: return device_chosen(ix, rec->marker->device);
	case TT_RECORD_HID_DEVICE: return hid_device_chosen(ix, rec->hid_device);
	case TT_RECORD_HID_REPORT: return !ix->choosing || find_hdev(ix, rec->hid_report->device);
	case TT_RECORD_LI_DEVICE: return device_chosen(ix, rec->li_device->device);
	case TT_RECORD_LI_EVENT: return device_chosen(ix, rec->li_event->device);
	default: return true;
	}
}

static void
index_hid_device(struct tt_index *ix, const struct tt_hid_device *d)
{
	struct ti_hid_device *h = find_hdev(ix, d->id);
	const char *name = d->name ? d->name : "";

	if (!h) {
		ix->hdevs = tt_reallocarray(ix->hdevs, ix->nhdevs + 1, sizeof(*ix->hdevs));
		h = &ix->hdevs[ix->nhdevs++];
	} else {
		free(h->name);
		free(h->evdev);
	}
	*h = (struct ti_hid_device){ .id = d->id, .bus = d->bus, .vendor = d->vendor, .product = d->product };
	h->name = tt_str_sanitize(name, strlen(name), 256);
	h->nevdev = d->nevdev;
	h->evdev = tt_reallocarray(NULL, d->nevdev + 1, sizeof(*h->evdev));
	if (d->nevdev)
		memcpy(h->evdev, d->evdev_devices, d->nevdev * sizeof(*h->evdev));
}

/* ---- the libinput layer ---- */

/* The open libinput lane of @kind on @device begun at @begin_us (any
 * time: -1) with seat slot @seat_slot (gestures: -1). The lanes of one
 * kind are in begin order, so the search stops at the first begun before
 * it (the layers of a file need not be in time order with each other). */
static struct ti_lane *
find_li_lane(struct tt_index *ix, enum ti_lane_kind kind, uint32_t device, int32_t seat_slot, int64_t begin_us)
{
	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *l = ix->lanes[i];
		if (l->kind != kind)
			continue;
		if (begin_us >= 0 && l->begin_us < begin_us)
			break;
		if ( l->ended || l->device != device || l->li_seat_slot != seat_slot)
			continue;
		if (begin_us < 0 || l->begin_us == begin_us)
			return l;
	}
	return NULL;
}

static void
li_lane_begin(struct tt_index *ix, const struct tt_li_event *ev, size_t line, enum ti_lane_kind kind)
{
	struct ti_lane *l = add_lane(ix, kind);

	l->device = ev->device;
	l->slot = kind == TI_LANE_LI ? ev->slot : -1;
	l->li_seat_slot = kind == TI_LANE_LI ? ev->seat_slot : -1;
	l->id = l->li_seat_slot;
	l->li_fingers = ev->fingers;
	l->begin_us = l->end_us = ev->time_us;
	l->begin_line = l->end_line = line;
	add_xupd(ix, l, ev->time_us, ev->x, ev->y);
}

static void
li_lane_update(struct tt_index *ix, const struct tt_li_event *ev, size_t line, enum ti_lane_kind kind)
{
	struct ti_lane *l = find_li_lane(ix, kind, ev->device, kind == TI_LANE_LI ? ev->seat_slot : -1, -1);

	if (!l)
		return;
	add_xupd(ix, l, ev->time_us, kind == TI_LANE_LI ? ev->x : ev->dx_unaccel,
		 kind == TI_LANE_LI ? ev->y : ev->dy_unaccel);
	l->end_us = ev->time_us;
	l->end_line = line;
}

/* Lanes open at the records that begin and update libinput's sequences;
 * they end with the model's touch_end and gesture_end, which say what
 * the sequence was. */
static void
index_li_event(struct tt_index *ix, const struct tt_li_event *ev, size_t line)
{
	enum tt_li_gesture_kind gk;
	int phase;

	if (ev->kind == TT_LI_TOUCH_DOWN)
		li_lane_begin(ix, ev, line, TI_LANE_LI);
	else if (ev->kind == TT_LI_TOUCH_MOTION)
		li_lane_update(ix, ev, line, TI_LANE_LI);
	else if (tt_li_gesture_phase(ev->kind, &gk, &phase) && phase == 0)
		li_lane_begin(ix, ev, line, TI_LANE_LI_GESTURE);
	else if (tt_li_gesture_phase(ev->kind, &gk, &phase) && phase == 1)
		li_lane_update(ix, ev, line, TI_LANE_LI_GESTURE);
}

static uint32_t
li_flags(bool cancelled, bool active_at_end)
{
	return (cancelled ? TI_LI_CANCELLED : 0) | (active_at_end ? TI_LI_ACTIVE_AT_END : 0);
}

/* The kernel lane of the touch the libinput model paired with @t: same
 * device, slot and tracking ID, begun latency_us before it. Only kernel
 * lanes are in begin order with each other. */
static void
link_li_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_li_touch *t)
{
	int64_t kbegin = t->begin_us - t->latency_us;

	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *k = ix->lanes[i];
		if (k->kind != TI_LANE_KERNEL)
			continue;
		if (k->begin_us < kbegin)
			break;
		if (k->device != t->device || (t->slot >= 0 && k->slot != t->slot) ||
		    k->id != t->kernel_tracking_id || k->begin_us != kbegin)
			continue;
		l->linked = k->index;
		k->li_linked = l->index;
		return;
	}
}

static void
on_li_touch_end(void *data, const struct tt_li_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = find_li_lane(ix, TI_LANE_LI, t->device, t->seat_slot, t->begin_us);

	if (!l)
		return;
	lane_end_at(l, li_flags(t->cancelled, t->active_at_end), t->active_at_end ? l->end_us : t->end_us,
		    t->active_at_end ? l->end_line : t->end_line);
	l->ended = !t->active_at_end;
	l->link = t->kernel_serial ? TT_LINK_LINKED : TT_LINK_NOT_DELIVERED;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->kernel_serial && !ix->lean)
		link_li_lane(ix, l, t);
	release_lane(ix, l);
}

static void
on_li_gesture_end(void *data, const struct tt_li_gesture *g)
{
	struct tt_index *ix = data;
	struct ti_lane *l = find_li_lane(ix, TI_LANE_LI_GESTURE, g->device, -1, g->begin_us);

	if (!l)
		return;
	lane_end_at(l, li_flags(g->cancelled, g->active_at_end), g->active_at_end ? l->end_us : g->end_us,
		    g->active_at_end ? l->end_line : g->end_line);
	l->ended = !g->active_at_end;
	l->li_gesture = (int32_t)g->kind;
	l->li_fingers = g->fingers;
	l->li_latency_us = g->latency_us;
	l->li_nkernel = g->nkernel;
	release_lane(ix, l);
}

static const struct tt_li_callbacks li_callbacks = {
	.touch_end = on_li_touch_end,
	.gesture_end = on_li_gesture_end,
};

/* ---- the Wayland layer ---- */

static void
on_wl_begin(void *data, struct tt_wl_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = add_lane(ix, TI_LANE_WL);

	l->id = t->id;
	l->slot = -1;
	snprintf(l->client, sizeof(l->client), "%s", t->client);
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	add_xupd(ix, l, t->begin_us, t->begin_x, t->begin_y);
	t->user = l;
}

static void
on_wl_update(void *data, struct tt_wl_touch *t, const struct tt_wl_event *ev, size_t line)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	(void)ev;
	(void)line;
	if (!l)
		return;
	/* Motion moves it; up, shape and orientation only lengthen it. */
	if (l->nupd && ((float)t->x != l->xupd[l->nupd - 1].x || (float)t->y != l->xupd[l->nupd - 1].y))
		add_xupd(ix, l, t->end_us, t->x, t->y);
	l->end_us = t->end_us;
	l->end_line = t->end_line;
}

/* The kernel lane of the touch the Wayland model paired with @t: the
 * one with its serial (kernel lanes are in begin order). */
static void
link_wl_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_wl_touch *t)
{
	for (size_t i = ix->nlanes; i-- > 0;) {
		struct ti_lane *k = ix->lanes[i];
		if (k->kind != TI_LANE_KERNEL)
			continue;
		if (k->begin_us < t->kernel_begin_us)
			break;
		if (k->serial != t->kernel_serial)
			continue;
		l->linked = k->index;
		l->device = k->device;
		if (k->wl_linked < 0)
			k->wl_linked = l->index;
		return;
	}
}

static void
on_wl_end(void *data, struct tt_wl_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	ix->wl_touches++;
	ix->wl_linked += t->link == TT_LINK_LINKED;
	ix->wl_cancelled += t->cancelled;
	if (!l)
		return;
	lane_end_at(l, li_flags(t->cancelled, t->active_at_end), t->end_us, t->end_line);
	l->ended = !t->active_at_end;
	l->link = t->link;
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_wl_lane(ix, l, t);
	release_lane(ix, l);
}

static const struct tt_wl_callbacks wl_callbacks = {
	.touch_begin = on_wl_begin,
	.touch_update = on_wl_update,
	.touch_end = on_wl_end,
};

/* The settings as one line: few, and shown as they were recorded. */
static char *
li_config_text(const struct tt_li_device *d)
{
	char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < d->nsettings && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s=%s", i ? " " : "", d->settings[i].name,
				      d->settings[i].value ? d->settings[i].value : "");
	return tt_str_sanitize(buf, strnlen(buf, sizeof(buf)), sizeof(buf));
}

static void
li_device_free(struct ti_li_device *d)
{
	free(d->sysname);
	free(d->name);
	free(d->config);
}

static void
index_li_device(struct tt_index *ix, const struct tt_li_device *d)
{
	struct ti_li_device *ld = NULL;
	const char *sysname = d->sysname ? d->sysname : "";
	const char *name = d->name ? d->name : "";

	for (size_t i = 0; i < ix->nlidevs && !ld; i++) {
		if (ix->lidevs[i].device == d->device)
			ld = &ix->lidevs[i];
	}
	if (!ld) {
		ix->lidevs = tt_reallocarray(ix->lidevs, ix->nlidevs + 1, sizeof(*ix->lidevs));
		ld = &ix->lidevs[ix->nlidevs++];
	} else {
		li_device_free(ld);
	}
	*ld = (struct ti_li_device){
		.device = d->device, .capabilities = d->capabilities, .has_size = d->has_size,
		.width_mm = d->width_mm, .height_mm = d->height_mm, .tap_fingers = d->tap_fingers,
	};
	ld->sysname = tt_str_sanitize(sysname, strlen(sysname), 64);
	ld->name = tt_str_sanitize(name, strlen(name), 256);
	ld->config = li_config_text(d);
}

static void
on_record(struct tt_index *ix, const struct tt_record *rec)
{
	if (!record_chosen(ix, rec))
		return;
	switch (rec->type) {
	case TT_RECORD_DEVICE:
		index_device(ix, rec->device);
		break;
	case TT_RECORD_FRAME:
		/* First the frame, so model callbacks see it as the last one. */
		index_frame(ix, rec->frame, rec->line);
		ix->in_frame = true;
		break;
	case TT_RECORD_MARKER:
		index_marker(ix, rec->marker, rec->line);
		break;
	case TT_RECORD_HID_DEVICE:
		index_hid_device(ix, rec->hid_device);
		break;
	case TT_RECORD_LI_DEVICE:
		index_li_device(ix, rec->li_device);
		break;
	case TT_RECORD_LI_EVENT:
		index_li_event(ix, rec->li_event, rec->line);
		break;
	default:
		break;
	}
	tt_stack_feed(ix->detect, rec);
	ix->in_frame = false;
}

static void
on_warning(void *userdata, const char *message)
{
	struct tt_index *ix = userdata;

	ix->nwarnings++;
	if (!ix->first_warning)
		ix->first_warning = strdup(message);
	tt_stack_reader_warning(ix->detect, ix->name, message);
	if (!__atomic_load_n(&ix->quiet_warnings, __ATOMIC_RELAXED))
		fprintf(stderr, "%s\n", message);	/* "FILE:LINE: warning: ..." */
}

int
tt_index_open(const char *path, struct tt_index **out, char **why)
{
	_cleanup_(tt_index_freep) struct tt_index *ix = tt_zalloc(sizeof(*ix));
	int rc;

	pthread_mutex_init(&ix->lock, NULL);
	ix->name = strdup(path);
	if (!ix->name)
		abort();
	rc = tt_reader_open_why(path, &ix->reader, why);
	if (rc < 0)
		return rc;
	tt_reader_set_warn(ix->reader, on_warning, ix);
	ix->detect = tt_stack_new(NULL, on_diag, ix);
	tt_stack_subscribe(ix->detect, &callbacks, ix);
	tt_stack_subscribe_li(ix->detect, &li_callbacks, ix);
	tt_stack_subscribe_wl(ix->detect, &wl_callbacks, ix);
	ix->stats = tt_stack_stats(ix->detect);
	*out = steal(&ix);
	return 0;
}

/* ---- ownership chains as lane markers ---- */

static int
cmp_xi_lane(const void *a, const void *b)
{
	const struct ti_lane *x = *(struct ti_lane *const *)a, *y = *(struct ti_lane *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->sourceid < y->sourceid ? -1 : x->sourceid > y->sourceid;
}

/* The lane of @st's client in the touch of @c, in @xl sorted by
 * cmp_xi_lane; NULL when its lane was not kept. */
static const struct ti_lane *
stage_lane(struct ti_lane **xl, size_t n, const struct tt_xi_chain *c, const struct tt_xi_stage *st)
{
	struct ti_lane key = { .id = (int32_t)c->touchid, .sourceid = c->sourceid };
	const struct ti_lane *kp = &key;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_xi_lane(&xl[mid], &kp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && cmp_xi_lane(&xl[lo], &kp) == 0; lo++)
		if (strcmp(xl[lo]->client, st->client) == 0)
			return xl[lo];
	return NULL;
}

/* The markers the events did not give, so every client's lane shows its
 * stage of the chain: the ownership of the owner from the start (at its
 * TouchBegin) and of a grab that learnt of it only by the previous
 * reject, and a decision sent after the grab's own TouchEnd. */
static size_t
stage_markers(const struct ti_lane *l, const struct tt_xi_chain *c, const struct tt_xi_stage *st,
	      struct ti_marker *out)
{
	size_t n = 0;

	if (st->owned_by != TT_XI_OWNED_BY_OWNERSHIP)
		out[n++] = (struct ti_marker){ .time_us = st->owned_us, .line = (uint32_t)st->owned_line,
					       .kind = TI_MARK_OWNERSHIP, .lane = l->index, .device = c->sourceid };
	if (st->decided_us >= 0 && l->outcome != TT_OWN_ACCEPTED && l->outcome != TT_OWN_REJECTED)
		out[n++] = (struct ti_marker){ .time_us = st->decided_us, .line = (uint32_t)st->decided_line,
					       .kind = st->decision == TT_XI_DECIDED_ACCEPT ? TI_MARK_ACCEPT :
						       TI_MARK_REJECT, .lane = l->index, .device = c->sourceid };
	return n;
}

static int
cmp_marker_time(const void *a, const void *b)
{
	const struct ti_marker *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Merges @add (sorted) into the markers, each before the first marker
 * later than it: the markers read keep their order. */
static void
merge_markers(struct tt_index *ix, struct ti_marker *add, size_t nadd)
{
	struct ti_marker *all = tt_reallocarray(NULL, ix->nmarkers + nadd + 1, sizeof(*all));
	size_t i = 0, j = 0, k = 0;

	qsort(add, nadd, sizeof(*add), cmp_marker_time);
	while (i < ix->nmarkers || j < nadd)
		all[k++] = j < nadd && (i == ix->nmarkers || add[j].time_us < ix->markers[i].time_us) ? add[j++] :
			   ix->markers[i++];
	free(ix->markers);
	ix->markers = all;
	ix->nmarkers = ix->capmarkers = k;
}

static void
chain_markers(struct tt_index *ix)
{
	size_t nchains, nxl = 0, nadd = 0, nstages = 0;
	const struct tt_xi_chain *c = tt_xi_own_chains(tt_stack_xi_own(ix->detect), &nchains);

	if (ix->lean || !nchains)
		return;
	for (size_t i = 0; i < nchains; i++)
		nstages += c[i].nstages;
	_cleanup_free_ struct ti_lane **xl = tt_reallocarray(NULL, ix->nlanes + 1, sizeof(*xl));
	_cleanup_free_ struct ti_marker *add = tt_reallocarray(NULL, 2 * nstages, sizeof(*add));
	for (size_t i = 0; i < ix->nlanes; i++)
		if (ix->lanes[i]->kind == TI_LANE_XI)
			xl[nxl++] = ix->lanes[i];
	qsort(xl, nxl, sizeof(*xl), cmp_xi_lane);
	for (size_t i = 0; i < nchains; i++) {
		for (size_t k = 0; k < c[i].nstages; k++) {
			const struct ti_lane *l = stage_lane(xl, nxl, &c[i], &c[i].stages[k]);
			if (l)
				nadd += stage_markers(l, &c[i], &c[i].stages[k], &add[nadd]);
		}
	}
	if (nadd)
		merge_markers(ix, add, nadd);
}

static void
finish(struct tt_index *ix)
{
	tt_stack_finish(ix->detect);
	chain_markers(ix);
	/* A sequence still open at the end keeps its lane as it was. */
	ix->done = true;
	ix->generation++;
}

int
tt_index_step(struct tt_index *ix, size_t max)
{
	struct tt_record rec;
	size_t n = 0;
	int rc;

	if (ix->done)
		return 0;
	while ((max == 0 || n < max) && !__atomic_load_n(&ix->stop, __ATOMIC_RELAXED)) {
		rc = tt_reader_next(ix->reader, &rec);
		tt_index_lock(ix);
		if (rc == 0 || rc == -EIO) {
			ix->read_stopped = rc == -EIO;
			finish(ix);
			tt_index_unlock(ix);
			return rc;
		}
		if (rc < 0) {
			ix->nerrors++;
			if (!ix->first_error)
				ix->first_error = strdup(tt_reader_error(ix->reader));
			tt_stack_reader_error(ix->detect, ix->name, tt_reader_error(ix->reader));
		} else {
			on_record(ix, &rec);
		}
		ix->generation++;
		tt_index_unlock(ix);
		n++;
	}
	return 1;
}

void
tt_index_set_lean(struct tt_index *ix, bool lean)
{
	ix->lean = lean;
}

static void
set_ids(uint32_t **dst, size_t *ndst, const uint32_t *ids, size_t n)
{
	free(*dst);
	*dst = NULL;
	*ndst = 0;
	if (!n)
		return;
	*dst = tt_reallocarray(NULL, n, sizeof(*ids));
	memcpy(*dst, ids, n * sizeof(*ids));
	*ndst = n;
}

void
tt_index_set_devices(struct tt_index *ix, const uint32_t *ids, size_t n)
{
	set_ids(&ix->devices, &ix->ndevices, ids, n);
	ix->choosing = ix->ndevices || ix->nhid_choice;
}

void
tt_index_set_hid_devices(struct tt_index *ix, const uint32_t *ids, size_t n)
{
	set_ids(&ix->hid_choice, &ix->nhid_choice, ids, n);
	ix->choosing = ix->ndevices || ix->nhid_choice;
}

/* HID and libinput lanes are of chosen devices only: the index has no
 * others. */
bool
tt_index_lane_chosen(const struct tt_index *ix, const struct ti_lane *l)
{
	return !ix->choosing || l->kind == TI_LANE_KERNEL || l->kind == TI_LANE_HID || l->kind == TI_LANE_LI ||
	       l->kind == TI_LANE_LI_GESTURE || l->linked >= 0;
}

void
tt_index_request_stop(struct tt_index *ix)
{
	__atomic_store_n(&ix->stop, true, __ATOMIC_RELAXED);
}

void
tt_index_free(struct tt_index *ix)
{
	if (!ix)
		return;
	tt_stack_free(ix->detect);
	tt_reader_free(ix->reader);
	for (size_t i = 0; i < ix->ndevs; i++) {
		free(ix->devs[i].name);
		tt_device_free(ix->devs[i].copy);
	}
	free(ix->devs);
	for (size_t i = 0; i < ix->nlanes; i++) {
		free(ix->lanes[i]->kupd);
		free(ix->lanes[i]);
	}
	free(ix->lanes);
	free(ix->frames);
	free(ix->ev_tc);
	free(ix->ev_val);
	free(ix->spare);
	free(ix->markers);
	free(ix->text);
	free(ix->first_error);
	free(ix->first_warning);
	free(ix->devices);
	free(ix->hid_choice);
	for (size_t i = 0; i < ix->nhdevs; i++) {
		free(ix->hdevs[i].name);
		free(ix->hdevs[i].evdev);
	}
	free(ix->hdevs);
	for (size_t i = 0; i < ix->nlidevs; i++)
		li_device_free(&ix->lidevs[i]);
	free(ix->lidevs);
	free(ix->name);
	pthread_mutex_destroy(&ix->lock);
	free(ix);
}

int64_t
tt_index_frame_at(const struct tt_index *ix, int64_t t, int64_t device)
{
	size_t lo = 0, hi = ix->nframes;

	/* Frames are in file order, which is time order in any valid file. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->frames[mid].time_us <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		if (device < 0 || ix->devs[ix->frames[i].device].id == (uint32_t)device)
			return (int64_t)i;
		if (lo - i > 100000)
			break;
	}
	return -1;
}

uint32_t
tt_index_frame_nevents(const struct tt_index *ix, size_t f)
{
	uint32_t end = f + 1 < ix->nframes ? ix->frames[f + 1].first : (uint32_t)ix->nevents;
	return end - ix->frames[f].first;
}

int64_t
tt_index_kupd_at(const struct ti_lane *l, size_t f)
{
	size_t lo = 0, hi = l->nupd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->kupd[mid].frame == TI_NO_FRAME || l->kupd[mid].frame <= f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

int64_t
tt_index_xupd_at(const struct ti_lane *l, int64_t t)
{
	size_t lo = 0, hi = l->nupd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->xupd[mid].time_us <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

int64_t
tt_index_upd_time(const struct tt_index *ix, const struct ti_lane *l, size_t i)
{
	if (l->kind == TI_LANE_KERNEL)
		return l->kupd[i].frame == TI_NO_FRAME ? l->begin_us : ix->frames[l->kupd[i].frame].time_us;
	return l->xupd[i].time_us;
}

const char *
tt_index_marker_text(const struct tt_index *ix, const struct ti_marker *m)
{
	if (!m->text || m->text > ix->ntext)
		return NULL;
	return ix->text + m->text - 1;
}

bool
tt_index_marker_is_diag(const struct tt_index *ix, const struct ti_marker *m)
{
	return (m->kind == TI_MARK_ANOMALY || m->kind == TI_MARK_DROPPED) && tt_index_marker_text(ix, m);
}

const char *
ti_marker_kind_name(enum ti_marker_kind k)
{
	static const char *names[TI_MARK_COUNT] = {
		[TI_MARK_OWNERSHIP] = "ownership",
		[TI_MARK_ACCEPT] = "accept",
		[TI_MARK_REJECT] = "reject",
		[TI_MARK_PENDING_END] = "pending-end",
		[TI_MARK_EMULATING] = "emulating-pointer",
		[TI_MARK_DROPPED] = "SYN_DROPPED",
		[TI_MARK_RESYNC] = "resync",
		[TI_MARK_DEVICE_REMOVED] = "device-removed",
		[TI_MARK_ANOMALY] = "anomaly",
		[TI_MARK_RECORD] = "marker",
	};
	return (unsigned)k < TI_MARK_COUNT ? names[k] : "?";
}

const char *
tt_index_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size)
{
	(void)ix;
	switch (l->kind) {
	case TI_LANE_KERNEL:
		snprintf(buf, size, "dev%u s%d #%d%s", l->device, l->slot, l->id,
			 (l->flags & TT_KTOUCH_SYNTHETIC_ID) ? "*" : "");
		break;
	case TI_LANE_XI:
		snprintf(buf, size, "xi%d t%d %s", l->sourceid ? l->sourceid : (int32_t)l->device,
			 l->id, l->client[0] ? l->client : "-");
		break;
	case TI_LANE_XI_RAW:
		snprintf(buf, size, "raw%d t%d %s", l->sourceid ? l->sourceid : (int32_t)l->device,
			 l->id, l->client[0] ? l->client : "-");
		break;
	case TI_LANE_HID:
		if (l->id < 0)
			snprintf(buf, size, "hid%u pen", l->device);
		else
			snprintf(buf, size, "hid%u c%d", l->device, l->id);
		break;
	case TI_LANE_LI:
		snprintf(buf, size, "li%u s%d", l->device, l->slot);
		break;
	case TI_LANE_LI_GESTURE:
		snprintf(buf, size, "li%u %s %df", l->device,
			 l->ended ? tt_li_gesture_kind_name((enum tt_li_gesture_kind)l->li_gesture) : "gesture",
			 l->li_fingers);
		break;
	case TI_LANE_WL:
		snprintf(buf, size, "wl t%d %s", l->id, l->client[0] ? l->client : "-");
		break;
	}
	return buf;
}

size_t
tt_index_memory(const struct tt_index *ix)
{
	size_t n = sizeof(*ix);

	n += ix->capframes * sizeof(*ix->frames);
	n += ix->capevents * (sizeof(*ix->ev_tc) + sizeof(*ix->ev_val));
	n += ix->caplanes * sizeof(*ix->lanes);
	for (size_t i = 0; i < ix->nlanes; i++) {
		const struct ti_lane *l = ix->lanes[i];
		n += sizeof(*l) + (size_t)l->capupd * 16;
	}
	n += ix->capmarkers * sizeof(*ix->markers);
	n += ix->captext;
	n += ix->ndevs * (sizeof(*ix->devs) + sizeof(struct tt_device));
	return n;
}

void
tt_index_lock(struct tt_index *ix)
{
	pthread_mutex_lock(&ix->lock);
}

void
tt_index_unlock(struct tt_index *ix)
{
	pthread_mutex_unlock(&ix->lock);
}

const char *
tt_index_name(const struct tt_index *ix)
{
	return ix->name;
}

const struct tt_stats *
tt_index_stats(const struct tt_index *ix)
{
	return ix->stats;
}

const struct tt_xi_own *
tt_index_xi_own(const struct tt_index *ix)
{
	return tt_stack_xi_own(ix->detect);
}

int64_t
tt_index_first_us(const struct tt_index *ix)
{
	return ix->stats->have_time ? ix->stats->first_us : 0;
}

int64_t
tt_index_last_us(const struct tt_index *ix)
{
	return ix->stats->have_time ? ix->stats->last_us : 0;
}

size_t
tt_index_nhid_devices(const struct tt_index *ix)
{
	return ix->nhdevs;
}

const struct ti_hid_device *
tt_index_hid_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->hdevs[i];
}

const struct ti_hid_device *
tt_index_hid_device(const struct tt_index *ix, uint32_t id)
{
	return find_hdev(ix, id);
}

size_t
tt_index_nli_devices(const struct tt_index *ix)
{
	return ix->nlidevs;
}

const struct ti_li_device *
tt_index_li_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->lidevs[i];
}

const struct tt_li_counts *
tt_index_li_counts(const struct tt_index *ix, size_t *n)
{
	return tt_li_model_counts(tt_stack_li_const(ix->detect), n);
}

bool
tt_index_has_li(const struct tt_index *ix)
{
	return tt_li_model_has_layer(tt_stack_li_const(ix->detect));
}

bool
tt_index_has_wl(const struct tt_index *ix)
{
	return tt_wl_model_has_layer(tt_stack_wl_const(ix->detect));
}

void
tt_index_wl_counts(const struct tt_index *ix, uint64_t *touches, uint64_t *linked, uint64_t *cancelled)
{
	*touches = ix->wl_touches;
	*linked = ix->wl_linked;
	*cancelled = ix->wl_cancelled;
}

bool
tt_index_done(const struct tt_index *ix)
{
	return ix->done;
}

uint64_t
tt_index_generation(const struct tt_index *ix)
{
	return ix->generation;
}

size_t
tt_index_ndevices(const struct tt_index *ix)
{
	return ix->ndevs;
}

const struct ti_device *
tt_index_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->devs[i];
}

size_t
tt_index_nframes(const struct tt_index *ix)
{
	return ix->nframes;
}

const struct ti_frame *
tt_index_frame(const struct tt_index *ix, size_t f)
{
	return &ix->frames[f];
}

size_t
tt_index_nevents(const struct tt_index *ix)
{
	return ix->nevents;
}

struct tt_event
tt_index_frame_event(const struct tt_index *ix, size_t f, uint32_t i)
{
	uint32_t e = ix->frames[f].first + i;

	return (struct tt_event){
		.type = ix->ev_tc[e] >> 10,
		.code = ix->ev_tc[e] & 0x3ff,
		.value = ix->ev_val[e],
	};
}

size_t
tt_index_nlanes(const struct tt_index *ix)
{
	return ix->nlanes;
}

const struct ti_lane *
tt_index_lane(const struct tt_index *ix, size_t i)
{
	return ix->lanes[i];
}

size_t
tt_index_nmarkers(const struct tt_index *ix)
{
	return ix->nmarkers;
}

const struct ti_marker *
tt_index_marker(const struct tt_index *ix, size_t i)
{
	return &ix->markers[i];
}

void
tt_index_read_status(const struct tt_index *ix, struct ti_read_status *out)
{
	*out = (struct ti_read_status){
		.nerrors = ix->nerrors,
		.first_error = ix->first_error,
		.stopped = ix->read_stopped,
		.nwarnings = ix->nwarnings,
		.first_warning = ix->first_warning,
	};
}

const struct tt_header *
tt_index_header(const struct tt_index *ix)
{
	return ix->reader ? tt_reader_header(ix->reader) : NULL;
}

struct tt_reader *
tt_index_reader(struct tt_index *ix)
{
	return ix->reader;
}

void
tt_index_quiet_warnings(struct tt_index *ix)
{
	__atomic_store_n(&ix->quiet_warnings, true, __ATOMIC_RELAXED);
}
