/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <X11/extensions/XI2.h>

#include "checker.h"
#include "checker-private.h"
#include "evnames.h"
#include "hid-desc.h"
#include "model-li.h"
#include "record-layer.h"
#include "util-mem.h"

struct dev_state {
	bool used;
	uint32_t id;
	bool declared;
	int64_t last_time;
	bool have_time;
	int32_t slot;
	uint32_t num_slots;
	int32_t *tracking;	/* per slot, -1 when empty */
	bool *unknown;		/* per slot: not set since a SYN_DROPPED */
	bool slot_unknown;	/* the current slot, since a SYN_DROPPED */
	const struct tt_device *dev;
};

struct xi_touch {
	int32_t deviceid;
	uint32_t detail;
	char client[16];
	bool active;
	bool early;	/* began before the recording */
	bool ended;	/* ... and ended */
};

/* The first touch id that began in the recording, per device and client:
 * the server hands out touch ids in increasing order, so an unknown touch
 * with a lower id (or before any begin) was down when recording began. */
struct xi_first_begin {
	int32_t deviceid;
	char client[16];
	uint32_t detail;
};

/* A HID device: its reports' times, and the evdev devices it lists,
 * checked against the evdev devices declared by the end. */
struct hid_state {
	uint32_t id;
	size_t line;
	int64_t last_time;
	bool have_time;
	uint32_t nevdev;
	uint32_t *evdev;
};

/* Touches that began before the recording and ended are kept, so that a
 * later event of theirs is still an error; beyond this many, hostile
 * input could grow the table without bound, so they are forgotten. */
#define TT_MAX_ENDED_EARLY 1024

struct tt_checker {
	tt_diag_fn fn;
	void *userdata;
	tt_checker_hid_parse_fn hid_parse;
	void *hid_parse_data;
	size_t counts[2];
	struct dev_state devs[TT_MAX_DEVICES];
	size_t ndevs;
	int64_t last_xi_time;
	bool have_xi_time;
	struct xi_touch *touches;
	size_t ntouches;
	size_t cap_touches;
	size_t nended_early;
	struct xi_first_begin *first;
	size_t nfirst, cap_first;
	bool saw_frames;
	bool saw_xi;
	struct hid_state hids[TT_MAX_DEVICES];
	size_t nhids;
	/* The libinput layer: touches down and gestures active. */
	struct li_open { uint32_t device; int32_t id; } *li_open;
	size_t nli_open, cap_li_open;
};

static void
report(struct tt_checker *c, enum tt_check check, size_t line, int64_t t, int64_t dev,
       const char *fmt, ...) _printf_(6, 7);

static void
report(struct tt_checker *c, enum tt_check check, size_t line, int64_t t, int64_t dev,
       const char *fmt, ...)
{
	struct tt_diag d;
	va_list ap;

	tt_diag_init(&d, check, line, t, dev);
	va_start(ap, fmt);
	vsnprintf(d.message, sizeof(d.message), fmt, ap);
	va_end(ap);
	c->counts[d.severity]++;
	if (c->fn)
		c->fn(c->userdata, &d);
}

struct tt_checker *
tt_checker_new(tt_diag_fn fn, void *userdata)
{
	struct tt_checker *c = tt_zalloc(sizeof(*c));

	c->fn = fn;
	c->userdata = userdata;
	return c;
}

void
tt_checker_free(struct tt_checker *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ndevs; i++) {
		free(c->devs[i].tracking);
		free(c->devs[i].unknown);
	}
	for (size_t i = 0; i < c->nhids; i++)
		free(c->hids[i].evdev);
	free(c->touches);
	free(c->first);
	free(c->li_open);
	free(c);
}

size_t
tt_checker_count(const struct tt_checker *c, enum tt_severity sev)
{
	return c->counts[sev];
}

static struct dev_state *
find_dev(struct tt_checker *c, uint32_t id)
{
	for (size_t i = 0; i < c->ndevs; i++) {
		if (c->devs[i].id == id)
			return &c->devs[i];
	}
	return NULL;
}

void
checker_device(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_device *dev = rec->device;
	struct dev_state *s = find_dev(c, dev->id);

	if (s) {
		report(c, TT_CHECK_DUPLICATE_DEVICE, rec->line, 0, dev->id,
		       "device %u is declared a second time", dev->id);
		free(s->tracking);
		free(s->unknown);
	} else {
		if (c->ndevs >= TT_MAX_DEVICES)
			return;
		s = &c->devs[c->ndevs++];
	}
	memset(s, 0, sizeof(*s));
	s->id = dev->id;
	s->dev = dev;
	s->slot = dev->current_slot;
	s->num_slots = dev->num_slots;
	if (dev->mt_protocol == TT_MT_B && dev->num_slots) {
		s->tracking = tt_reallocarray(NULL, dev->num_slots, sizeof(int32_t));
		s->unknown = tt_zalloc(dev->num_slots * sizeof(bool));
		/* The state at start is read from the device after the
		 * first events were queued: a touch down in it is a guess
		 * until the device sets its slot, like after a drop. */
		for (uint32_t i = 0; i < dev->num_slots; i++) {
			s->tracking[i] = dev->slots[i].values[ABS_MT_TRACKING_ID - TT_MT_FIRST];
			s->unknown[i] = s->tracking[i] != -1;
			s->slot_unknown |= s->unknown[i];
		}
	}
}

/* After a SYN_DROPPED, neither the slots nor the current slot are known
 * until the device itself sets them again: libevdev's resync frames are
 * a guess of the state (they can be stale by the time the next events
 * arrive), so they are applied without checks and settle nothing. A
 * tracking ID event settles its slot once the current slot is known. */
static void
check_tracking(struct tt_checker *c, struct dev_state *s, const struct tt_record *rec,
	       int64_t t, int32_t value)
{
	if (s->slot < 0 || (uint32_t)s->slot >= s->num_slots || !s->tracking)
		return;
	int32_t old = s->tracking[s->slot];
	bool regular = !(rec->frame->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC));
	bool slot_unknown = s->slot_unknown || !regular;
	bool unknown = s->unknown[s->slot] || slot_unknown;

	if (regular && !s->slot_unknown)
		s->unknown[s->slot] = false;
	if (value != -1) {
		for (uint32_t i = 0; i < s->num_slots; i++) {
			if ((int32_t)i == s->slot || s->tracking[i] != value)
				continue;
			if (slot_unknown || s->unknown[i]) {
				/* Its release was lost with the dropped events. */
				s->tracking[i] = -1;
				continue;
			}
			report(c, TT_CHECK_TRACKING_ID_REUSED, rec->line, t, s->id,
			       "tracking ID %d set in slot %d while still active in slot %u",
			       value, s->slot, i);
			break;
		}
		if (old != -1 && old != value && !unknown)
			report(c, TT_CHECK_TRACKING_ID_REPLACED, rec->line, t, s->id,
			       "slot %d: tracking ID %d replaced by %d without a release",
			       s->slot, old, value);
	}
	s->tracking[s->slot] = value;
}

static void
forget_slots(struct dev_state *s)
{
	s->slot_unknown = true;
	for (uint32_t i = 0; s->unknown && i < s->num_slots; i++)
		s->unknown[i] = true;
}

void
checker_frame(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	struct dev_state *s = find_dev(c, f->device);
	char tb[16], cb[16];

	c->saw_frames = true;
	if (!s || !s->dev)
		return;	/* the reader guarantees the device exists */

	if (s->have_time && f->time_us < s->last_time)
		report(c, TT_CHECK_TIME_BACKWARDS, rec->line, f->time_us, s->id,
		       "frame time %" PRId64 " us is before the previous frame's %" PRId64 " us",
		       f->time_us, s->last_time);
	s->last_time = f->time_us;
	s->have_time = true;

	if (f->flags & TT_FRAME_DROPPED) {
		report(c, TT_CHECK_SYN_DROPPED, rec->line, f->time_us, s->id,
		       "the kernel dropped events here (SYN_DROPPED)");
		forget_slots(s);
	} else if (!(f->flags & TT_FRAME_INCOMPLETE)) {
		const struct tt_event *last = f->nevents ? &f->events[f->nevents - 1] : NULL;
		if (!last || last->type != EV_SYN || last->code != SYN_REPORT)
			report(c, TT_CHECK_NO_SYN_REPORT, rec->line, f->time_us, s->id,
			       "frame does not end with SYN_REPORT");
	}

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type != EV_SYN && !tt_device_has(s->dev, e->type, e->code)) {
			report(c, TT_CHECK_UNSUPPORTED_CODE, rec->line, f->time_us, s->id,
			       "the device does not have %s %s",
			       tt_type_label(tb, sizeof(tb), e->type),
			       tt_code_label(cb, sizeof(cb), e->type, e->code));
			continue;
		}
		if (e->type != EV_ABS)
			continue;
		const struct tt_absinfo *a = &s->dev->abs[e->code];
		if (e->code == ABS_MT_SLOT) {
			if (s->dev->mt_protocol == TT_MT_B &&
			    (e->value < 0 || (uint32_t)e->value >= s->num_slots)) {
				report(c, TT_CHECK_SLOT_RANGE, rec->line, f->time_us, s->id,
				       "slot %d is beyond its %u slots", e->value, s->num_slots);
				s->slot = -1;
			} else {
				s->slot = e->value;
				if (!(f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC)))
					s->slot_unknown = false;
			}
			continue;
		}
		if (e->code == ABS_MT_TRACKING_ID) {
			check_tracking(c, s, rec, f->time_us, e->value);
			if (e->value == -1)
				continue;	/* -1 is a release, outside any range */
		}
		if (e->value < a->minimum || e->value > a->maximum)
			report(c, TT_CHECK_VALUE_RANGE, rec->line, f->time_us, s->id,
			       "%s value %d is outside its range [%d, %d]",
			       tt_code_label(cb, sizeof(cb), EV_ABS, e->code), e->value,
			       a->minimum, a->maximum);
	}
}

static struct xi_touch *
find_touch(struct tt_checker *c, const struct tt_xi_event *ev)
{
	const char *client = ev->client ? ev->client : "";

	for (size_t i = 0; i < c->ntouches; i++) {
		struct xi_touch *t = &c->touches[i];
		if (t->deviceid == ev->deviceid && t->detail == ev->detail &&
		    strncmp(t->client, client, sizeof(t->client) - 1) == 0)
			return t;
	}
	c->touches = tt_grow(c->touches, c->ntouches, &c->cap_touches, sizeof(*c->touches));
	struct xi_touch *t = &c->touches[c->ntouches++];
	memset(t, 0, sizeof(*t));
	t->deviceid = ev->deviceid;
	t->detail = ev->detail;
	snprintf(t->client, sizeof(t->client), "%s", client);
	return t;
}

static void
forget_touch(struct tt_checker *c, struct xi_touch *t)
{
	if (t->ended)
		c->nended_early--;
	*t = c->touches[--c->ntouches];
}

static struct xi_first_begin *
first_begin(struct tt_checker *c, const struct xi_touch *t)
{
	for (size_t i = 0; i < c->nfirst; i++) {
		struct xi_first_begin *f = &c->first[i];
		if (f->deviceid == t->deviceid && strcmp(f->client, t->client) == 0)
			return f;
	}
	return NULL;
}

static void
note_begin(struct tt_checker *c, const struct xi_touch *t)
{
	if (first_begin(c, t))
		return;
	c->first = tt_grow(c->first, c->nfirst, &c->cap_first, sizeof(*c->first));
	struct xi_first_begin *f = &c->first[c->nfirst++];
	f->deviceid = t->deviceid;
	memcpy(f->client, t->client, sizeof(f->client));
	f->detail = t->detail;
}

/* An update or end of a touch never seen: was it down when the recording
 * began (fine), or did it lose its begin (an error)? */
static bool
began_before_recording(struct tt_checker *c, const struct xi_touch *t)
{
	const struct xi_first_begin *f = first_begin(c, t);

	return !t->ended && (!f || t->detail < f->detail);
}

void
checker_xi_event(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_xi_event *ev = rec->xi_event;
	int begin, update, end;
	struct xi_touch *t;

	c->saw_xi = true;
	if (c->have_xi_time && ev->time_us < c->last_xi_time)
		report(c, TT_CHECK_TIME_BACKWARDS, rec->line, ev->time_us, ev->deviceid,
		       "XI event received at %" PRId64 " us, before the previous one at %" PRId64 " us",
		       ev->time_us, c->last_xi_time);
	c->last_xi_time = ev->time_us;
	c->have_xi_time = true;

	/* Raw and regular touch events are separate sequences. */
	if (ev->evtype == XI_TouchBegin || ev->evtype == XI_RawTouchBegin) {
		begin = 1; update = 0; end = 0;
	} else if (ev->evtype == XI_TouchUpdate || ev->evtype == XI_RawTouchUpdate) {
		begin = 0; update = 1; end = 0;
	} else if (ev->evtype == XI_TouchEnd || ev->evtype == XI_RawTouchEnd) {
		begin = 0; update = 0; end = 1;
	} else {
		return;
	}
	/* Distinguish raw from regular by a client suffix-free key: use a
	 * negative device id for raw sequences. */
	struct tt_xi_event key = *ev;
	if (ev->evtype >= XI_RawTouchBegin)
		key.deviceid = -ev->deviceid - 1;
	t = find_touch(c, &key);
	if (begin) {
		if (t->active)
			report(c, TT_CHECK_XI_BEGIN_TWICE, rec->line, ev->time_us, ev->deviceid,
			       "XI device %d: touch %u begins again while active", ev->deviceid, ev->detail);
		if (t->ended)
			c->nended_early--;
		t->active = true;
		t->early = t->ended = false;
		note_begin(c, t);
	} else if (update && !t->active) {
		if (began_before_recording(c, t)) {
			t->active = t->early = true;
			return;
		}
		report(c, TT_CHECK_XI_UPDATE_BEFORE_BEGIN, rec->line, ev->time_us, ev->deviceid,
		       "XI device %d: touch %u updates before it began", ev->deviceid, ev->detail);
		forget_touch(c, t);
	} else if (end) {
		if ((t->active && t->early) || (!t->active && began_before_recording(c, t))) {
			t->active = false;
			if (c->nended_early < TT_MAX_ENDED_EARLY) {
				t->ended = true;
				c->nended_early++;
			} else {
				forget_touch(c, t);
			}
			return;
		}
		if (!t->active)
			report(c, TT_CHECK_XI_END_TWICE, rec->line, ev->time_us, ev->deviceid,
			       "XI device %d: touch %u ends without being active", ev->deviceid, ev->detail);
		forget_touch(c, t);
	}
}

/* ---- HID ---- */

static struct hid_state *
find_hid(struct tt_checker *c, uint32_t id)
{
	for (size_t i = 0; i < c->nhids; i++) {
		if (c->hids[i].id == id)
			return &c->hids[i];
	}
	return NULL;
}

void
tt_checker_set_hid_parse(struct tt_checker *c, tt_checker_hid_parse_fn fn, void *data)
{
	c->hid_parse = fn;
	c->hid_parse_data = data;
}

static void
check_descriptor(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_hid_device *d = rec->hid_device;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *desc = NULL;
	_cleanup_free_ char *own = NULL;
	const char *why = NULL;
	int rc;

	if (c->hid_parse) {
		rc = c->hid_parse(c->hid_parse_data, d, &why);
	} else {
		rc = tt_hid_desc_parse(d->descriptor, d->descriptor_len, &desc, &own);
		why = own;
	}
	if (rc < 0)
		report(c, TT_CHECK_HID_BAD_DESCRIPTOR, rec->line, 0, -1,
		       "HID device %u: the report descriptor does not parse: %s", d->id,
		       why ? why : "malformed");
}

void
checker_hid_device(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_hid_device *d = rec->hid_device;
	struct hid_state *h = find_hid(c, d->id);

	if (h) {
		report(c, TT_CHECK_DUPLICATE_DEVICE, rec->line, 0, -1,
		       "HID device %u is declared a second time", d->id);
		free(h->evdev);
	} else {
		if (c->nhids >= TT_MAX_DEVICES)
			return;
		h = &c->hids[c->nhids++];
	}
	memset(h, 0, sizeof(*h));
	h->id = d->id;
	h->line = rec->line;
	h->nevdev = d->nevdev;
	if (d->nevdev) {
		h->evdev = tt_reallocarray(NULL, d->nevdev, sizeof(*h->evdev));
		memcpy(h->evdev, d->evdev_devices, d->nevdev * sizeof(*h->evdev));
	}
	check_descriptor(c, rec);
}

void
checker_hid_report(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_hid_report *r = rec->hid_report;
	struct hid_state *h = find_hid(c, r->device);

	if (!h) {
		report(c, TT_CHECK_HID_UNKNOWN_DEVICE, rec->line, r->time_us, -1,
		       "HID report of HID device %u, which is not declared", r->device);
		return;
	}
	if (h->have_time && r->time_us < h->last_time)
		report(c, TT_CHECK_TIME_BACKWARDS, rec->line, r->time_us, -1,
		       "HID device %u: report time %" PRId64 " us is before the previous report's %" PRId64 " us",
		       h->id, r->time_us, h->last_time);
	h->last_time = r->time_us;
	h->have_time = true;
}

/* The evdev devices a HID device lists: declared anywhere in the file
 * (the recorder may write the HID device before or after them). */
static void
check_hid_evdev(struct tt_checker *c)
{
	for (size_t i = 0; i < c->nhids; i++) {
		const struct hid_state *h = &c->hids[i];
		for (uint32_t e = 0; e < h->nevdev; e++) {
			if (!find_dev(c, h->evdev[e]))
				report(c, TT_CHECK_HID_UNKNOWN_EVDEV, h->line, 0, -1,
				       "HID device %u lists evdev device %u, which is not declared",
				       h->id, h->evdev[e]);
		}
	}
}

/* ---- the libinput layer ---- */

/* Open touches (id = seat slot) and gestures (id = -1 - kind): without
 * bound, hostile input could grow the table; past this, the rules stop
 * looking (nothing is reported that is not certain). */
#define TT_MAX_LI_OPEN 1024

static ssize_t
li_find(const struct tt_checker *c, uint32_t device, int32_t id)
{
	for (size_t i = 0; i < c->nli_open; i++) {
		if (c->li_open[i].device == device && c->li_open[i].id == id)
			return (ssize_t)i;
	}
	return -1;
}

/* Opens (@open) or closes the touch or gesture @id of @device: false
 * when it already was (open) or was not (close). */
static bool
li_toggle(struct tt_checker *c, uint32_t device, int32_t id, bool open)
{
	ssize_t i = li_find(c, device, id);

	if (open && i < 0) {
		c->li_open = tt_grow(c->li_open, c->nli_open, &c->cap_li_open, sizeof(*c->li_open));
		if (c->nli_open < TT_MAX_LI_OPEN)
			c->li_open[c->nli_open++] = (struct li_open){ device, id };
		return true;
	}
	if (!open && i >= 0) {
		c->li_open[i] = c->li_open[--c->nli_open];
		return true;
	}
	/* A table full: not known. */
	return c->nli_open >= TT_MAX_LI_OPEN;
}

static void
li_touch(struct tt_checker *c, const struct tt_li_event *ev, size_t line)
{
	bool down = ev->kind == TT_LI_TOUCH_DOWN;
	bool ok;

	if (ev->kind == TT_LI_TOUCH_MOTION)
		ok = li_find(c, ev->device, ev->seat_slot) >= 0 || c->nli_open >= TT_MAX_LI_OPEN;
	else
		ok = li_toggle(c, ev->device, ev->seat_slot, down);
	if (!ok)
		report(c, TT_CHECK_LI_TOUCH_SEQUENCE, line, ev->time_us, ev->device,
		       "libinput %s of seat slot %" PRId32 " %s", tt_li_event_name(ev->kind), ev->seat_slot, down ? "while it is down" : "without a TOUCH_DOWN");
}

static void
li_gesture(struct tt_checker *c, const struct tt_li_event *ev, size_t line,
	   enum tt_li_gesture_kind kind, int phase)
{
	int32_t id = -1 - (int32_t)kind;
	bool ok;

	if (phase == 1)
		ok = li_find(c, ev->device, id) >= 0 || c->nli_open >= TT_MAX_LI_OPEN;
	else
		ok = li_toggle(c, ev->device, id, phase == 0);
	if (!ok)
		report(c, TT_CHECK_LI_GESTURE_SEQUENCE, line, ev->time_us, ev->device,
		       "libinput %s %s", tt_li_event_name(ev->kind),
		       phase == 0 ? "while that gesture is active" : "without its BEGIN");
}

void
checker_li_event(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_li_event *ev = rec->li_event;
	enum tt_li_gesture_kind kind;
	int phase;

	switch (ev->kind) {
	case TT_LI_TOUCH_DOWN:
	case TT_LI_TOUCH_MOTION:
	case TT_LI_TOUCH_UP:
	case TT_LI_TOUCH_CANCEL:
		li_touch(c, ev, rec->line);
		return;
	default:
		break;
	}
	if (tt_li_gesture_phase(ev->kind, &kind, &phase))
		li_gesture(c, ev, rec->line, kind, phase);
}

void
checker_xi_device(struct tt_checker *c, const struct tt_record *rec)
{
	(void)rec;
	c->saw_xi = true;
}

void
tt_checker_feed(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_record_kind *kind = tt_record_kind(rec->type);

	if (kind && kind->check)
		kind->check(c, rec);
}

void
tt_checker_finish(struct tt_checker *c)
{
	check_hid_evdev(c);
	if (c->ndevs == 0 && c->nhids == 0 && !c->saw_frames && !c->saw_xi)
		report(c, TT_CHECK_NO_DEVICES, 0, 0, -1, "the recording declares no devices");
}
