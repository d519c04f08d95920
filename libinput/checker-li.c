/* SPDX-License-Identifier: MIT */
/* The semantic checker's libinput part (lib/analysis/checker-private.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/types.h>

#include "checker-private.h"
#include "model-li.h"
#include "util-mem.h"


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
		checker_report(c, TT_CHECK_LI_TOUCH_SEQUENCE, line, ev->time_us, ev->device,
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
		checker_report(c, TT_CHECK_LI_GESTURE_SEQUENCE, line, ev->time_us, ev->device,
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
