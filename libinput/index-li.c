/* SPDX-License-Identifier: MIT */
/* The libinput layer of the index: its devices and a lane per libinput
 * touch or gesture, linked to the kernel lanes. */
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
	struct ti_lane *l = ti_add_lane(ix, kind);

	l->device = ev->device;
	l->slot = kind == TI_LANE_LI ? ev->slot : -1;
	l->li_seat_slot = kind == TI_LANE_LI ? ev->seat_slot : -1;
	l->id = l->li_seat_slot;
	l->li_fingers = ev->fingers;
	l->begin_us = l->end_us = ev->time_us;
	l->begin_line = l->end_line = line;
	ti_add_xupd(ix, l, ev->time_us, ev->x, ev->y);
}

static void
li_lane_update(struct tt_index *ix, const struct tt_li_event *ev, size_t line, enum ti_lane_kind kind)
{
	struct ti_lane *l = find_li_lane(ix, kind, ev->device, kind == TI_LANE_LI ? ev->seat_slot : -1, -1);

	if (!l)
		return;
	ti_add_xupd(ix, l, ev->time_us, kind == TI_LANE_LI ? ev->x : ev->dx_unaccel,
		    kind == TI_LANE_LI ? ev->y : ev->dy_unaccel);
	l->end_us = ev->time_us;
	l->end_line = line;
}

/* Lanes open at the records that begin and update libinput's sequences;
 * they end with the model's touch_end and gesture_end, which say what
 * the sequence was. */
bool
ti_chosen_li_device(const struct tt_index *ix, const struct tt_record *rec)
{
	return ti_device_chosen(ix, rec->li_device->device);
}

bool
ti_chosen_li_event(const struct tt_index *ix, const struct tt_record *rec)
{
	return ti_device_chosen(ix, rec->li_event->device);
}

void
index_li_event(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_li_event *ev = rec->li_event;
	size_t line = rec->line;
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

uint32_t
ti_li_flags(bool cancelled, bool active_at_end)
{
	return (cancelled ? TI_LI_CANCELLED : 0) | (active_at_end ? TI_LI_ACTIVE_AT_END : 0);
}

/* The kernel lane of the touch the libinput model paired with @t, by
 * its serial, like the HID and Wayland links. */
static void
link_li_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_li_touch *t)
{
	struct ti_lane *k = ti_kernel_lane(ix, t->kernel_serial, t->begin_us - t->latency_us);

	if (!k)
		return;
	l->linked = k->index;
	k->li_linked = l->index;
}

void
on_li_touch_end(void *data, const struct tt_li_touch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = find_li_lane(ix, TI_LANE_LI, t->device, t->seat_slot, t->begin_us);

	if (!l)
		return;
	ti_lane_end_at(l, ti_li_flags(t->cancelled, t->active_at_end), t->active_at_end ? l->end_us : t->end_us,
		       t->active_at_end ? l->end_line : t->end_line);
	l->ended = !t->active_at_end;
	l->link = t->kernel_serial ? TT_LINK_LINKED : TT_LINK_NOT_DELIVERED;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->kernel_serial && !ix->lean)
		link_li_lane(ix, l, t);
	ti_release_lane(ix, l);
}

void
on_li_gesture_end(void *data, const struct tt_li_gesture *g)
{
	struct tt_index *ix = data;
	struct ti_lane *l = find_li_lane(ix, TI_LANE_LI_GESTURE, g->device, -1, g->begin_us);

	if (!l)
		return;
	ti_lane_end_at(l, ti_li_flags(g->cancelled, g->active_at_end), g->active_at_end ? l->end_us : g->end_us,
		       g->active_at_end ? l->end_line : g->end_line);
	l->ended = !g->active_at_end;
	l->li_gesture = (int32_t)g->kind;
	l->li_fingers = g->fingers;
	l->li_latency_us = g->latency_us;
	l->li_nkernel = g->nkernel;
	ti_release_lane(ix, l);
}

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

void
li_device_free(struct ti_li_device *d)
{
	free(d->sysname);
	free(d->name);
	free(d->config);
}

void
index_li_device(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_li_device *d = rec->li_device;
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
