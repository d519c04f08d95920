/* SPDX-License-Identifier: MIT */
/* The semantic checker's XI part (lib/analysis/checker-private.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "checker-private.h"
#include "util-mem.h"


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
		checker_report(c, TT_CHECK_TIME_BACKWARDS, rec->line, ev->time_us, ev->deviceid,
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
			checker_report(c, TT_CHECK_XI_BEGIN_TWICE, rec->line, ev->time_us, ev->deviceid,
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
		checker_report(c, TT_CHECK_XI_UPDATE_BEFORE_BEGIN, rec->line, ev->time_us, ev->deviceid,
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
			checker_report(c, TT_CHECK_XI_END_TWICE, rec->line, ev->time_us, ev->deviceid,
			       "XI device %d: touch %u ends without being active", ev->deviceid, ev->detail);
		forget_touch(c, t);
	}
}

/* ---- HID ---- */

void
checker_xi_device(struct tt_checker *c, const struct tt_record *rec)
{
	(void)rec;
	c->saw_xi = true;
}
