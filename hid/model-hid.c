/* SPDX-License-Identifier: MIT */
/* The HID layer of the touch-sequence model: HID contact sequences
 * assembled from the reports, and the link from each to the kernel touch
 * it became. See model.h.
 *
 * Frames are assembled per application collection the way hid-multitouch
 * does (mt_touch_report): a report with a non-zero Contact Count begins a
 * frame of that many contacts, and so does one with a zero count when no
 * frame is in progress and its Scan Time moved (or it has none); in
 * hybrid mode the following reports carry a zero count and the rest of
 * the contacts. Contacts are counted until the count is reached (those
 * past it are not looked at, as with MT_QUIRK_CONTACT_CNT_ACCURATE, which
 * Windows 8 devices get), and a frame cut short by a new first report
 * still counts what it received, as the kernel does. When
 * the frame has all its contacts, the kernel syncs its evdev frame and
 * releases every slot the frame did not mention: a contact down that a
 * complete frame leaves out ends there, flagged TT_HTOUCH_VANISHED. A
 * report without a Contact Count is a frame of its own contacts. A pen is
 * one sequence per tip down.
 *
 * The link: a HID contact and a kernel touch of one of the evdev devices
 * its hid_device lists pair when the kernel touch began from
 * hid_before_us before to hid_after_us after the HID contact, positions
 * agreeing within the XI link's tolerance once both are normalized to
 * their ranges (hid-multitouch gives evdev the logical range as is). The
 * records come in either order (the recorder reads hidraw and evdev as
 * they wake it), so either side waits for the other within the window. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hid-desc.h"
#include "model-private.h"

#define HID_COLLECTION_APPLICATION 1
#define USAGE_X TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x30)
#define USAGE_Y TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x31)

void
tt_model_set_hid_link(struct tt_model *m, int64_t before_us, int64_t after_us)
{
	if (before_us > 0)
		m->hid_before_us = before_us;
	if (after_us > 0)
		m->hid_after_us = after_us;
}

static double
norm(double v, double min, double max)
{
	return max > min ? (v - min) / (max - min) : -1.0;
}

/* ---- the descriptor's answers ---- */

/* The application collection the report's input fields are in. */
static uint32_t
report_application(const struct tt_hid_desc *d, uint8_t id)
{
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind != TT_HID_INPUT || f->report_id != id || f->collection == UINT32_MAX)
			continue;
		uint32_t c = f->collection;
		for (size_t depth = 0; c < d->ncollections && depth < d->ncollections; depth++) {
			if (d->collections[c].type == HID_COLLECTION_APPLICATION)
				return c;
			c = d->collections[c].parent;
		}
	}
	return UINT32_MAX;
}

static bool
field_has(const struct tt_hid_field *f, uint32_t usage)
{
	for (uint32_t u = 0; u < f->nusages; u++) {
		if (f->usages[u] == usage)
			return true;
	}
	return false;
}

/* The logical range of the report's first input field of @usage. */
static bool
report_range(const struct tt_hid_desc *d, uint8_t id, uint32_t usage, int32_t *min, int32_t *max)
{
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind == TT_HID_INPUT && f->report_id == id && (f->flags & 2) && field_has(f, usage)) {
			*min = f->logical_min;
			*max = f->logical_max;
			return true;
		}
	}
	return false;
}

/* ---- devices ---- */

static struct hdev *
find_hdev(struct tt_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->nhdevs; i++) {
		if (m->hdevs[i].id == id)
			return &m->hdevs[i];
	}
	return NULL;
}

static struct hcoll *
find_coll(struct hdev *h, uint32_t collection)
{
	for (size_t i = 0; i < h->ncolls; i++) {
		if (h->colls[i].collection == collection)
			return &h->colls[i];
	}
	if (h->ncolls >= TT_HID_MAX_COLLECTIONS)
		return NULL;
	h->colls = tt_reallocarray(h->colls, h->ncolls + 1, sizeof(*h->colls));
	struct hcoll *c = &h->colls[h->ncolls++];
	memset(c, 0, sizeof(*c));
	c->collection = collection;
	return c;
}

static bool
lists_evdev(const struct tt_hid_device *d, uint32_t evdev)
{
	for (uint32_t i = 0; i < d->nevdev; i++) {
		if (d->evdev_devices[i] == evdev)
			return true;
	}
	return false;
}

/* ---- pending lists ---- */

static void
push(void ***list, size_t *n, size_t *cap, void *item)
{
	*list = tt_grow(*list, *n, cap, sizeof(**list));
	(*list)[(*n)++] = item;
}

static void
remove_at(void **list, size_t *n, size_t i)
{
	memmove(&list[i], &list[i + 1], (*n - i - 1) * sizeof(*list));
	(*n)--;
}

static void
remove_item(void **list, size_t *n, const void *item)
{
	for (size_t i = 0; i < *n; i++) {
		if (list[i] == item) {
			remove_at(list, n, i);
			return;
		}
	}
}

/* hid_end runs once the link is known. */
static void
emit_hend(struct tt_model *m, struct ht *t)
{
	if (!t->ended || t->pub.link == TT_LINK_PENDING)
		return;
	if (m->cb.hid_end)
		m->cb.hid_end(m->data, &t->pub);
	free(t);
}

/* ---- the link ---- */

static void
pair(struct tt_model *m, struct ht *t, struct kt *k)
{
	struct tt_htouch *h = &t->pub;

	h->link = TT_LINK_LINKED;
	h->evdev_device = k->pub.device;
	h->ktouch_serial = k->pub.serial;
	h->slot = k->pub.slot;
	h->tracking_id = k->pub.tracking_id;
	h->kernel_begin_us = k->pub.begin_us;
	h->kernel_begin_line = k->pub.begin_line;
	k->pub.hid_link = TT_LINK_LINKED;
	k->pub.hid_device = h->device;
	k->pub.hid_contact_id = h->contact_id;
	k->pub.hid_serial = h->serial;
	k->pub.hid_begin_us = h->begin_us;
	k->pub.hid_begin_line = h->begin_line;
	remove_item((void **)m->hpending, &m->nhpending, t);
	remove_item((void **)m->kpending, &m->nkpending, k);
	emit_hend(m, t);
	if (k->ended)
		tt_model_emit_end(m, k);
}

/* How well @t and @k pair: false when they cannot; else *dist (position,
 * 0 when a side has none) and *dt (time apart). */
static bool
pair_score(const struct tt_model *m, const struct ht *t, const struct kt *k, double *dist, int64_t *dt)
{
	int64_t d = k->pub.begin_us - t->pub.begin_us;

	if (d < -m->hid_before_us || d > m->hid_after_us)
		return false;
	*dist = 0;
	if (t->link_x >= 0 && t->link_y >= 0 && k->hid_x >= 0 && k->hid_y >= 0) {
		*dist = hypot(t->link_x - k->hid_x, t->link_y - k->hid_y);
		if (*dist > m->link_tolerance)
			return false;
	}
	*dt = d < 0 ? -d : d;
	return true;
}

static bool
better(double dist, int64_t dt, double best_dist, int64_t best_dt)
{
	return dist < best_dist || (dist == best_dist && dt < best_dt);
}

static void
link_hid_begin(struct tt_model *m, const struct hdev *h, struct ht *t)
{
	struct kt *best = NULL;
	double best_dist = INFINITY;
	int64_t best_dt = INT64_MAX;

	t->pub.link = TT_LINK_NONE;
	if (!m->link_on || !h->dev->nevdev)
		return;
	for (size_t i = 0; i < m->nkpending; i++) {
		struct kt *k = m->kpending[i];
		double dist;
		int64_t dt;
		if (lists_evdev(h->dev, k->pub.device) && pair_score(m, t, k, &dist, &dt) &&
		    better(dist, dt, best_dist, best_dt)) {
			best = k;
			best_dist = dist;
			best_dt = dt;
		}
	}
	t->pub.link = TT_LINK_PENDING;
	push((void ***)&m->hpending, &m->nhpending, &m->caphpending, t);
	if (best)
		pair(m, t, best);
}

void
tt_model_hid_kernel_begin(struct tt_model *m, struct mdev *d, struct kt *k)
{
	struct ht *best = NULL;
	double best_dist = INFINITY;
	int64_t best_dt = INT64_MAX;
	bool listed = false;

	k->pub.hid_link = TT_LINK_NONE;
	for (size_t i = 0; i < m->nhdevs && !listed; i++)
		listed = lists_evdev(m->hdevs[i].dev, d->id);
	if (!m->link_on || !listed)
		return;
	bool st = d->kind == MDEV_ST;
	const struct tt_absinfo *ax = &d->dev->abs[st ? ABS_X : ABS_MT_POSITION_X];
	const struct tt_absinfo *ay = &d->dev->abs[st ? ABS_Y : ABS_MT_POSITION_Y];
	k->hid_x = norm(k->pub.values[TT_AXIS(ABS_MT_POSITION_X)], ax->minimum, ax->maximum);
	k->hid_y = norm(k->pub.values[TT_AXIS(ABS_MT_POSITION_Y)], ay->minimum, ay->maximum);
	for (size_t i = 0; i < m->nhpending; i++) {
		struct ht *t = m->hpending[i];
		const struct hdev *h = find_hdev(m, t->pub.device);
		double dist;
		int64_t dt;
		if (h && lists_evdev(h->dev, d->id) && pair_score(m, t, k, &dist, &dt) &&
		    better(dist, dt, best_dist, best_dt)) {
			best = t;
			best_dist = dist;
			best_dt = dt;
		}
	}
	k->pub.hid_link = TT_LINK_PENDING;
	push((void ***)&m->kpending, &m->nkpending, &m->capkpending, k);
	if (best)
		pair(m, best, k);
}

static void
give_up_hid(struct tt_model *m, size_t i)
{
	struct ht *t = m->hpending[i];

	remove_at((void **)m->hpending, &m->nhpending, i);
	t->pub.link = TT_LINK_NOT_DELIVERED;
	emit_hend(m, t);
}

static void
give_up_kernel(struct tt_model *m, size_t i)
{
	struct kt *k = m->kpending[i];

	remove_at((void **)m->kpending, &m->nkpending, i);
	k->pub.hid_link = TT_LINK_NOT_DELIVERED;
	if (k->ended)
		tt_model_emit_end(m, k);
}

void
tt_model_hid_advance(struct tt_model *m, int64_t now)
{
	tt_model_hid_frames_advance(m, now);
	for (size_t i = 0; i < m->nhpending;) {
		if (now - m->hpending[i]->pub.begin_us > m->hid_after_us)
			give_up_hid(m, i);
		else
			i++;
	}
	for (size_t i = 0; i < m->nkpending;) {
		if (now - m->kpending[i]->pub.begin_us > m->hid_before_us)
			give_up_kernel(m, i);
		else
			i++;
	}
}

/* ---- HID contact sequences ---- */

/* What one contact (or the pen) of a report says. */
struct hcontact {
	uint8_t report_id;
	uint32_t collection;
	enum tt_htouch_kind kind;
	int32_t id;
	bool down;
	int32_t x, y, pressure;
	uint32_t state, state_known;	/* enum tt_hstate */
};

static struct ht *
find_active(const struct hdev *h, const struct hcontact *c)
{
	for (size_t i = 0; i < h->nactive; i++) {
		struct ht *t = h->active[i];
		if (t->pub.collection == c->collection && t->pub.kind == c->kind && t->pub.contact_id == c->id)
			return t;
	}
	return NULL;
}

static void
begin_ht(struct tt_model *m, struct hdev *h, const struct hcontact *c, int64_t us, size_t line)
{
	struct ht *t = tt_zalloc(sizeof(*t));
	struct tt_htouch *p = &t->pub;

	p->serial = ++m->hserial;
	p->device = h->id;
	p->report_id = c->report_id;
	p->collection = c->collection;
	p->kind = c->kind;
	p->contact_id = c->id;
	p->begin_us = p->end_us = us;
	p->begin_line = p->end_line = line;
	p->nreports = 1;
	p->x = p->begin_x = c->x;
	p->y = p->begin_y = c->y;
	p->pressure = c->pressure;
	p->state = c->state;
	p->state_known = c->state_known;
	p->x_max = p->y_max = -1;
	if (h->desc) {
		report_range(h->desc, c->report_id, USAGE_X, &p->x_min, &p->x_max);
		report_range(h->desc, c->report_id, USAGE_Y, &p->y_min, &p->y_max);
	}
	p->slot = p->tracking_id = -1;
	p->kernel_begin_us = -1;
	t->link_x = norm(c->x, p->x_min, p->x_max);
	t->link_y = norm(c->y, p->y_min, p->y_max);
	t->seen = true;
	push((void ***)&h->active, &h->nactive, &h->capactive, t);
	link_hid_begin(m, h, t);
	if (m->cb.hid_begin)
		m->cb.hid_begin(m->data, p);
}

/* A change of In Range or Confidence is its own callback: the position
 * consumers see no update where nothing moved. */
static void
update_state(struct tt_model *m, struct ht *t, const struct hcontact *c, int64_t us, size_t line)
{
	struct tt_htouch *p = &t->pub;

	if (p->state == c->state && p->state_known == c->state_known)
		return;
	p->state = c->state;
	p->state_known = c->state_known;
	if (m->cb.hid_state) {
		struct tt_hupdate u = { .time_us = us, .line = line };
		m->cb.hid_state(m->data, p, &u);
	}
}

static void
update_ht(struct tt_model *m, struct ht *t, const struct hcontact *c, int64_t us, size_t line)
{
	struct tt_htouch *p = &t->pub;
	bool changed = p->x != c->x || p->y != c->y || p->pressure != c->pressure;

	p->nreports++;
	p->end_us = us;
	p->end_line = line;
	update_state(m, t, c, us, line);
	if (!changed)
		return;
	p->x = c->x;
	p->y = c->y;
	p->pressure = c->pressure;
	if (m->cb.hid_update) {
		struct tt_hupdate u = { .time_us = us, .line = line };
		m->cb.hid_update(m->data, p, &u);
	}
}

static void
end_ht(struct tt_model *m, struct hdev *h, struct ht *t, int64_t us, size_t line, uint32_t flags)
{
	remove_item((void **)h->active, &h->nactive, t);
	t->pub.end_us = us;
	t->pub.end_line = line;
	t->pub.flags |= flags;
	t->ended = true;
	emit_hend(m, t);
}

static void
apply_contact(struct tt_model *m, struct hdev *h, const struct hcontact *c, int64_t us, size_t line)
{
	struct ht *t = find_active(h, c);

	if (!c->down) {
		if (t) {
			t->pub.nreports++;
			end_ht(m, h, t, us, line, 0);
		}
		return;
	}
	if (!t) {
		begin_ht(m, h, c, us, line);
		return;
	}
	t->seen = true;
	update_ht(m, t, c, us, line);
}

static void
end_all_hid(struct tt_model *m, struct hdev *h, int64_t us, size_t line, uint32_t flags)
{
	while (h->nactive)
		end_ht(m, h, h->active[h->nactive - 1], us, line, flags);
}

/* A complete frame: what it did not mention is released. */
static void
commit_frame(struct tt_model *m, struct hdev *h, uint32_t collection, int64_t us, size_t line)
{
	for (size_t i = 0; i < h->nactive;) {
		struct ht *t = h->active[i];
		if (t->pub.collection != collection || t->pub.kind != TT_HTOUCH_FINGER) {
			i++;
		} else if (!t->seen) {
			end_ht(m, h, t, us, line, TT_HTOUCH_VANISHED);
		} else {
			t->seen = false;
			i++;
		}
	}
}

/* hid-multitouch's rule for the first report of a frame. */
static void
frame_start(struct hcoll *c, const struct tt_hid_decoded *dec, struct tt_hreport *r)
{
	uint32_t cc = dec->contact_count > 0 ? (uint32_t)dec->contact_count : 0;
	bool new_scan = !dec->has_scan_time || !c->have_scan || dec->scan_time != c->prev_scan;

	c->have_scan = dec->has_scan_time;
	c->prev_scan = dec->scan_time;
	if (cc == 0 && (c->received > 0 || !new_scan))
		return;	/* a continuation */
	/* hid-multitouch counts on: what the cut frame received counts
	 * against the new one's contacts, so it may sync early and drop
	 * contacts (reported as what they become). */
	if (c->received > 0) {
		r->frame_cut = true;
		r->cut_expected = c->expected;
		r->cut_received = c->received;
	}
	c->expected = cc;
}

static struct hcontact
finger(const struct tt_hid_decoded *dec, uint32_t collection, uint32_t i)
{
	const struct tt_hid_contact *ct = &dec->contacts[i];

	return (struct hcontact){
		.report_id = dec->report_id, .collection = collection, .kind = TT_HTOUCH_FINGER,
		.id = ct->has_id ? ct->contact_id : (int32_t)i, .down = ct->has_tip ? ct->tip : true,
		.x = ct->x, .y = ct->y, .pressure = ct->pressure,
		.state = (ct->in_range ? TT_HSTATE_IN_RANGE : 0u) | (ct->confidence ? TT_HSTATE_CONFIDENCE : 0u),
		.state_known = (ct->has_in_range ? TT_HSTATE_IN_RANGE : 0u) |
			       (ct->has_confidence ? TT_HSTATE_CONFIDENCE : 0u),
	};
}

/* Contacts past the count: hid-multitouch does not look at them, and
 * releases what the frame left out. One with Tip Switch set is a contact
 * the count denies. One with its tip up and Confidence set lifts a
 * contact the frame did not mention: its tip up, only not counted
 * (ELAN1206 sends its last tip up with Contact Count 0). Others are the
 * report's unused collections (zeros, or all ones), whose Contact
 * Identifier means nothing. */
static void
beyond_count(struct tt_model *m, struct hdev *h, const struct hcoll *c, const struct tt_hid_decoded *dec,
	     uint32_t i, const struct tt_record *rec, struct tt_hreport *r)
{
	for (; i < dec->ncontacts; i++) {
		const struct tt_hid_contact *ct = &dec->contacts[i];
		struct hcontact hc = finger(dec, c->collection, i);
		struct ht *t = find_active(h, &hc);
		if (hc.down)
			r->beyond_count++;
		else if (t && !t->seen && ct->has_confidence && ct->confidence)
			apply_contact(m, h, &hc, rec->hid_report->time_us, rec->line);
	}
}

static void
assemble_fingers(struct tt_model *m, struct hdev *h, struct hcoll *c, const struct tt_hid_decoded *dec,
		 const struct tt_record *rec, struct tt_hreport *r)
{
	int64_t us = rec->hid_report->time_us;
	uint32_t i = 0;

	if (dec->has_contact_count) {
		frame_start(c, dec, r);
	} else {
		c->expected = dec->ncontacts;
		c->received = 0;
	}
	for (; i < dec->ncontacts && c->received < c->expected; i++, c->received++) {
		struct hcontact hc = finger(dec, c->collection, i);
		apply_contact(m, h, &hc, us, rec->line);
	}
	beyond_count(m, h, c, dec, i, rec, r);
	if (c->received >= c->expected) {
		commit_frame(m, h, c->collection, us, rec->line);
		c->received = 0;
		r->frame_done = true;
	}
}

static void
apply_pen(struct tt_model *m, struct hdev *h, uint32_t collection, const struct tt_hid_decoded *dec,
	  const struct tt_record *rec)
{
	struct hcontact hc = {
		.report_id = dec->report_id, .collection = collection, .kind = TT_HTOUCH_PEN, .id = -1,
		.down = dec->pen.tip, .x = dec->pen.x, .y = dec->pen.y, .pressure = dec->pen.pressure,
		.state = dec->pen.in_range ? TT_HSTATE_IN_RANGE : 0u, .state_known = TT_HSTATE_IN_RANGE,
	};

	apply_contact(m, h, &hc, rec->hid_report->time_us, rec->line);
}

static void
decode_report(struct tt_model *m, struct hdev *h, const struct tt_record *rec, struct tt_hreport *r)
{
	const struct tt_hid_report *rep = rec->hid_report;
	struct tt_hid_decoded dec;

	if (tt_hid_decode(h->desc, rep->data, rep->len, &dec) < 0 || !dec.declared) {
		r->report_id = h->desc->numbered && rep->len ? rep->data[0] : 0;
		return;
	}
	const struct tt_hid_report_info *info = tt_hid_desc_report(h->desc, TT_HID_INPUT, dec.report_id);
	r->report_id = dec.report_id;
	r->declared = true;
	r->short_report = dec.short_report;
	r->declared_bytes = info ? (info->bits + 7) / 8 + (h->desc->numbered ? 1 : 0) : 0;
	r->has_contact_count = dec.has_contact_count;
	r->contact_count = dec.contact_count;
	r->touch = dec.ncontacts || dec.has_contact_count || dec.pen.present;
	if (!r->touch)
		return;
	uint32_t app = report_application(h->desc, dec.report_id);
	r->collection = app;
	if (dec.pen.present)
		apply_pen(m, h, app, &dec, rec);
	struct hcoll *c = find_coll(h, app);
	if (c && (dec.ncontacts || dec.has_contact_count))
		assemble_fingers(m, h, c, &dec, rec, r);
}

void
tt_model_hid_report(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_hid_report *rep = rec->hid_report;
	struct hdev *h = find_hdev(m, rep->device);

	if (!h)
		return;	/* the checker reports it */
	struct tt_hreport r = {
		.device = h->dev, .report = rep, .line = rec->line, .parsed = h->desc != NULL,
	};
	h->last_us = rep->time_us;
	if (h->desc)
		decode_report(m, h, rec, &r);
	r.nactive = (uint32_t)h->nactive;
	if (r.frame_done)
		tt_model_hid_frames_report(m, h, rec, r.report_id, r.collection);
	if (m->cb.hid_report)
		m->cb.hid_report(m->data, &r);
}

static void
hdev_clear(struct tt_model *m, struct hdev *h, size_t line, uint32_t flags)
{
	end_all_hid(m, h, h->last_us, line, flags);
	tt_hid_desc_free(h->desc);
	free(h->colls);
	free(h->active);
	memset(h, 0, sizeof(*h));
}

static void
parsed_clear(struct tt_model *m)
{
	tt_hid_desc_free(m->hparsed.desc);
	free(m->hparsed.why);
	m->hparsed = (struct hid_parsed){ 0 };
}

int
tt_model_hid_parse(struct tt_model *m, const struct tt_hid_device *dev, const char **why)
{
	int rc = 0;

	if (m->hparsed.dev != dev) {
		parsed_clear(m);
		m->hparsed.dev = dev;
		if (tt_hid_desc_parse(dev->descriptor, dev->descriptor_len, &m->hparsed.desc, &m->hparsed.why) < 0)
			m->hparsed.desc = NULL;
	}
	if (!m->hparsed.desc) {
		rc = -EINVAL;
		if (why)
			*why = m->hparsed.why;
	}
	return rc;
}

void
tt_model_hid_device(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_hid_device *dev = rec->hid_device;
	struct hdev *h = find_hdev(m, dev->id);
	/* A descriptor that does not parse: the checker says why; its
	 * reports are counted but not decoded. The parse the checker asked
	 * for is this record's alone: taken or dropped here. */
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *desc = NULL;

	tt_model_hid_parse(m, dev, NULL);
	desc = m->hparsed.desc;
	m->hparsed.desc = NULL;
	parsed_clear(m);
	if (h) {
		hdev_clear(m, h, rec->line, TT_HTOUCH_DEVICE_GONE);
	} else {
		if (m->nhdevs >= TT_MAX_DEVICES)
			return;
		m->hdevs = tt_reallocarray(m->hdevs, m->nhdevs + 1, sizeof(*m->hdevs));
		h = &m->hdevs[m->nhdevs++];
		memset(h, 0, sizeof(*h));
	}
	h->id = dev->id;
	h->dev = dev;
	h->desc = desc;
	desc = NULL;
}

void
tt_model_hid_finish(struct tt_model *m)
{
	for (size_t i = 0; i < m->nhdevs; i++)
		end_all_hid(m, &m->hdevs[i], m->hdevs[i].last_us, m->last_line, TT_HTOUCH_ACTIVE_AT_END);
	while (m->nhpending)
		give_up_hid(m, 0);
	while (m->nkpending)
		give_up_kernel(m, 0);
	tt_model_hid_frames_finish(m);
}

void
tt_model_hid_free(struct tt_model *m)
{
	parsed_clear(m);
	/* Ended ones live only here; the others are in h->active, freed
	 * below (so asked before). */
	for (size_t i = 0; i < m->nhpending; i++) {
		if (m->hpending[i]->ended)
			free(m->hpending[i]);
	}
	free(m->hpending);
	for (size_t i = 0; i < m->nhdevs; i++) {
		struct hdev *h = &m->hdevs[i];
		for (size_t a = 0; a < h->nactive; a++)
			free(h->active[a]);
		tt_hid_desc_free(h->desc);
		free(h->colls);
		free(h->active);
	}
	free(m->hdevs);
	/* Ended kernel touches still waiting for XI are the XI link's to
	 * free; those not ended are their device's. */
	for (size_t i = 0; i < m->nkpending; i++) {
		struct kt *k = m->kpending[i];
		if (k->ended && k->pub.link != TT_LINK_PENDING)
			tt_model_free_kt(k);
	}
	free(m->kpending);
	tt_model_hid_frames_free(m);
}
