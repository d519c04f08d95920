/* SPDX-License-Identifier: MIT */
/* The semantic checker (checker.h): its life, the evdev records' checks,
 * and the dispatch to every record kind's part (checker-private.h). */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checker.h"
#include "checker-private.h"
#include "evnames.h"
#include "record-layer.h"
#include "util-mem.h"

void
checker_report(struct tt_checker *c, enum tt_check check, size_t line, int64_t t, int64_t dev,
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

struct dev_state *
checker_find_dev(struct tt_checker *c, uint32_t id)
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
	struct dev_state *s = checker_find_dev(c, dev->id);

	if (s) {
		checker_report(c, TT_CHECK_DUPLICATE_DEVICE, rec->line, 0, dev->id,
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
			checker_report(c, TT_CHECK_TRACKING_ID_REUSED, rec->line, t, s->id,
			       "tracking ID %d set in slot %d while still active in slot %u",
			       value, s->slot, i);
			break;
		}
		if (old != -1 && old != value && !unknown)
			checker_report(c, TT_CHECK_TRACKING_ID_REPLACED, rec->line, t, s->id,
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
	struct dev_state *s = checker_find_dev(c, f->device);
	char tb[16], cb[16];

	c->saw_frames = true;
	if (!s || !s->dev)
		return;	/* the reader guarantees the device exists */

	if (s->have_time && f->time_us < s->last_time)
		checker_report(c, TT_CHECK_TIME_BACKWARDS, rec->line, f->time_us, s->id,
		       "frame time %" PRId64 " us is before the previous frame's %" PRId64 " us",
		       f->time_us, s->last_time);
	s->last_time = f->time_us;
	s->have_time = true;

	if (f->flags & TT_FRAME_DROPPED) {
		checker_report(c, TT_CHECK_SYN_DROPPED, rec->line, f->time_us, s->id,
		       "the kernel dropped events here (SYN_DROPPED)");
		forget_slots(s);
	} else if (!(f->flags & TT_FRAME_INCOMPLETE)) {
		const struct tt_event *last = f->nevents ? &f->events[f->nevents - 1] : NULL;
		if (!last || last->type != EV_SYN || last->code != SYN_REPORT)
			checker_report(c, TT_CHECK_NO_SYN_REPORT, rec->line, f->time_us, s->id,
			       "frame does not end with SYN_REPORT");
	}

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type != EV_SYN && !tt_device_has(s->dev, e->type, e->code)) {
			checker_report(c, TT_CHECK_UNSUPPORTED_CODE, rec->line, f->time_us, s->id,
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
				checker_report(c, TT_CHECK_SLOT_RANGE, rec->line, f->time_us, s->id,
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
			checker_report(c, TT_CHECK_VALUE_RANGE, rec->line, f->time_us, s->id,
			       "%s value %d is outside its range [%d, %d]",
			       tt_code_label(cb, sizeof(cb), EV_ABS, e->code), e->value,
			       a->minimum, a->maximum);
	}
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
	checker_hid_finish(c);
	if (c->ndevs == 0 && c->nhids == 0 && !c->saw_frames && !c->saw_xi)
		checker_report(c, TT_CHECK_NO_DEVICES, 0, 0, -1, "the recording declares no devices");
}
