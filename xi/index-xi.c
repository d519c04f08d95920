/* SPDX-License-Identifier: MIT */
/* The XI layer of the index: a lane per XI touch sequence with its
 * updates and ownership. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "inspect/index.h"
#include "inspect/index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

void
ti_add_xupd(struct tt_index *ix, struct ti_lane *l, int64_t t, double x, double y)
{
	size_t cap = l->capupd;

	if (ix->lean)
		return;
	l->xupd = ti_grow(l->xupd, &cap, (size_t)l->nupd + 1, sizeof(*l->xupd));
	l->capupd = (uint32_t)cap;
	l->xupd[l->nupd++] = (struct ti_xupd){ t, (float)x, (float)y };
}

void
on_xi_begin(void *data, struct tt_xtouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = ti_add_lane(ix, (t->flags & TT_XTOUCH_RAW) ? TI_LANE_XI_RAW : TI_LANE_XI);

	t->user = l;
	l->device = (uint32_t)t->deviceid;
	l->sourceid = t->sourceid;
	l->id = (int32_t)t->touchid;
	snprintf(l->client, sizeof(l->client), "%s", t->client);
	l->flags = t->flags;
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	l->slot = -1;
	ti_add_xupd(ix, l, t->begin_us, t->root_x, t->root_y);
	if (t->flags & TT_XTOUCH_EMULATING_POINTER)
		ti_add_marker(ix, TI_MARK_EMULATING, t->begin_us, t->begin_line, l->index, t->deviceid);
}

void
on_xi_update(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	ti_add_xupd(ix, l, ev->time_us, ev->root_x, ev->root_y);
	if (l->kind == TI_LANE_XI && l->nupd >= 2) {
		double dx = t->root_x - l->xupd[l->nupd - 2].x, dy = t->root_y - l->xupd[l->nupd - 2].y;
		l->distance += __builtin_sqrt(dx * dx + dy * dy);
	}
	if ((ev->flags & XITouchPendingEnd) && !(l->flags & TT_XTOUCH_PENDING_END))
		ti_add_marker(ix, TI_MARK_PENDING_END, ev->time_us, line, l->index, ev->deviceid);
	if ((ev->flags & XITouchEmulatingPointer) && !(l->flags & TT_XTOUCH_EMULATING_POINTER))
		ti_add_marker(ix, TI_MARK_EMULATING, ev->time_us, line, l->index, ev->deviceid);
	l->flags = t->flags;
	l->end_us = ev->time_us;
	l->end_line = line;
}

void
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
	ti_add_marker(ix, k, ev->time_us, line, l->index, ev->deviceid);
	ti_lane_ownership(l, t);
}

void
on_xi_end(void *data, struct tt_xtouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	ti_lane_ownership(l, t);
	ti_lane_end_at(l, t->flags, t->end_us, t->end_line);
	if (t->flags & TT_XTOUCH_PENDING_END)
		l->flags |= TT_XTOUCH_PENDING_END;
	ti_release_lane(ix, l);
}
