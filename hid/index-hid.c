/* SPDX-License-Identifier: MIT */
/* The HID layer of the index: its devices and a lane per HID contact,
 * linked to the kernel lane it became. */
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

struct ti_hid_device *
ti_find_hdev(const struct tt_index *ix, uint32_t id)
{
	for (size_t i = 0; i < ix->nhdevs; i++) {
		if (ix->hdevs[i].id == id)
			return &ix->hdevs[i];
	}
	return NULL;
}

void
on_hid_begin(void *data, struct tt_htouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = ti_add_lane(ix, TI_LANE_HID);

	t->user = l;
	l->device = t->device;
	l->id = t->contact_id;
	l->slot = -1;
	l->serial = t->serial;
	l->flags = t->flags;
	l->begin_us = l->end_us = t->begin_us;
	l->begin_line = l->end_line = t->begin_line;
	ti_add_xupd(ix, l, t->begin_us, t->x, t->y);
}

void
on_hid_update(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	ti_add_xupd(ix, l, u->time_us, t->x, t->y);
	l->end_us = u->time_us;
	l->end_line = u->line;
}

/* The kernel lane of the touch the model paired with HID lane @l. */
static void
link_hid_lane(struct tt_index *ix, struct ti_lane *l, const struct tt_htouch *t)
{
	struct ti_lane *k = ti_kernel_lane(ix, t->ktouch_serial, t->kernel_begin_us);

	if (!k)
		return;
	l->linked = k->index;
	k->hid_linked = l->index;
}

void
on_hid_end(void *data, struct tt_htouch *t)
{
	struct tt_index *ix = data;
	struct ti_lane *l = t->user;

	if (!l)
		return;
	ti_lane_end_at(l, t->flags, t->end_us, t->end_line);
	l->link = t->link;
	/* A lean index reuses ended lanes: nothing to point at. */
	if (t->link == TT_LINK_LINKED && !ix->lean)
		link_hid_lane(ix, l, t);
	ti_release_lane(ix, l);
}

void
on_hid_report(void *data, const struct tt_hreport *r)
{
	struct tt_index *ix = data;
	struct ti_hid_device *h = ti_find_hdev(ix, r->device->id);

	if (h && r->nactive > h->max_simultaneous)
		h->max_simultaneous = r->nactive;
}

/* --device: chosen by its own id, or for an evdev device it produced. */
bool
ti_chosen_hid_device(const struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_hid_device *d = rec->hid_device;

	if (!ix->choosing || ti_id_in(ix->hid_choice, ix->nhid_choice, d->id))
		return true;
	for (uint32_t i = 0; i < d->nevdev; i++) {
		if (ti_id_in(ix->devices, ix->ndevices, d->evdev_devices[i]))
			return true;
	}
	return false;
}

/* A report follows its HID device, indexed only when chosen. */
bool
ti_chosen_hid_report(const struct tt_index *ix, const struct tt_record *rec)
{
	return !ix->choosing || ti_find_hdev(ix, rec->hid_report->device);
}

void
index_hid_device(struct tt_index *ix, const struct tt_record *rec)
{
	const struct tt_hid_device *d = rec->hid_device;
	struct ti_hid_device *h = ti_find_hdev(ix, d->id);
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
