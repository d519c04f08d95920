/* SPDX-License-Identifier: MIT */
/* The semantic checker's HID part (lib/analysis/checker-private.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker-private.h"
#include "hid-desc.h"
#include "util-mem.h"


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
		checker_report(c, TT_CHECK_HID_BAD_DESCRIPTOR, rec->line, 0, -1,
		       "HID device %u: the report descriptor does not parse: %s", d->id,
		       why ? why : "malformed");
}

void
checker_hid_device(struct tt_checker *c, const struct tt_record *rec)
{
	const struct tt_hid_device *d = rec->hid_device;
	struct hid_state *h = find_hid(c, d->id);

	if (h) {
		checker_report(c, TT_CHECK_DUPLICATE_DEVICE, rec->line, 0, -1,
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
		checker_report(c, TT_CHECK_HID_UNKNOWN_DEVICE, rec->line, r->time_us, -1,
		       "HID report of HID device %u, which is not declared", r->device);
		return;
	}
	if (h->have_time && r->time_us < h->last_time)
		checker_report(c, TT_CHECK_TIME_BACKWARDS, rec->line, r->time_us, -1,
		       "HID device %u: report time %" PRId64 " us is before the previous report's %" PRId64 " us",
		       h->id, r->time_us, h->last_time);
	h->last_time = r->time_us;
	h->have_time = true;
}

/* The evdev devices a HID device lists: declared anywhere in the file
 * (the recorder may write the HID device before or after them). */
void
checker_hid_finish(struct tt_checker *c)
{
	for (size_t i = 0; i < c->nhids; i++) {
		const struct hid_state *h = &c->hids[i];
		for (uint32_t e = 0; e < h->nevdev; e++) {
			if (!checker_find_dev(c, h->evdev[e]))
				checker_report(c, TT_CHECK_HID_UNKNOWN_EVDEV, h->line, 0, -1,
				       "HID device %u lists evdev device %u, which is not declared",
				       h->id, h->evdev[e]);
		}
	}
}
