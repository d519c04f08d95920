/* SPDX-License-Identifier: MIT */
/* The Wayland layer of the index: a lane per wl_touch sequence, linked
 * to the libinput lane it came from. */
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
on_wl_begin(void *data, struct tt_wl_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = ti_add_lane(ix, TI_LANE_WL);

	l->id = t->id;
	l->slot = -1;
	snprintf(l->client, sizeof(l->client), "%s", t->client);
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	ti_add_xupd(ix, l, t->begin_us, t->begin_x, t->begin_y);
	t->user = l;
}

void
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
		ti_add_xupd(ix, l, t->end_us, t->x, t->y);
	l->end_us = t->end_us;
	l->end_line = t->end_line;
}

/* The kernel lane of the touch the Wayland model paired with @t: the
 * one with its serial (kernel lanes are in begin order). */
static void
link_wl_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_wl_touch *t)
{
	struct ti_lane *k = ti_kernel_lane(ix, t->kernel_serial, t->kernel_begin_us);

	if (!k)
		return;
	l->linked = k->index;
	l->device = k->device;
	if (k->wl_linked < 0)
		k->wl_linked = l->index;
}

void
on_wl_end(void *data, struct tt_wl_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	ix->wl_touches++;
	ix->wl_linked += t->link == TT_LINK_LINKED;
	ix->wl_cancelled += t->cancelled;
	if (!l)
		return;
	ti_lane_end_at(l, ti_li_flags(t->cancelled, t->active_at_end), t->end_us, t->end_line);
	l->ended = !t->active_at_end;
	l->link = t->link;
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_wl_lane(ix, l, t);
	ti_release_lane(ix, l);
}
