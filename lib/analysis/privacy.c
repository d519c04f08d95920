/* SPDX-License-Identifier: MIT */
/* What in a recording may identify someone (privacy.h): the check and the
 * redaction, the header's and evdev's parts, and the dispatch to every
 * record kind's part (privacy-private.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "evnames.h"
#include "hid-desc.h"
#include "keymask.h"
#include "privacy.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "util-strings.h"

struct tt_privacy *
tt_privacy_new(void)
{
	return tt_zalloc(sizeof(struct tt_privacy));
}

static void
clear_copies(struct tt_privacy *p)
{
	free(p->phys);
	p->phys = NULL;
	tt_properties_free(p->udev, p->nudev);
	tt_properties_free(p->hwdb, p->nhwdb);
	p->udev = p->hwdb = NULL;
	p->nudev = p->nhwdb = 0;
}

void
tt_privacy_free(struct tt_privacy *p)
{
	if (!p)
		return;
	clear_copies(p);
	for (size_t i = 0; i < p->nhids; i++)
		tt_hid_desc_free(p->hids[i].desc);
	free(p->hids);
	free(p->devs);
	free(p->events);
	free(p);
}

/* ---- the evdev devices, as their records come ---- */

static struct priv_dev *
find_dev(struct tt_privacy *p, uint32_t id)
{
	for (size_t i = 0; i < p->ndevs; i++)
		if (p->devs[i].id == id)
			return &p->devs[i];
	return NULL;
}

static struct priv_dev *
add_dev(struct tt_privacy *p, const struct tt_device *dev)
{
	struct priv_dev *d = find_dev(p, dev->id);

	if (!d) {
		p->devs = tt_reallocarray(p->devs, p->ndevs + 1, sizeof(*p->devs));
		d = &p->devs[p->ndevs++];
	}
	memset(d, 0, sizeof(*d));
	d->id = dev->id;
	tt_keymask_init(&d->mask, dev, !p->keycodes_masked);
	return d;
}

/* ---- what identifies ---- */

/* udev properties that are paths on the recording host. */
static bool
is_path_property(const char *name)
{
	return strcmp(name, "DEVNAME") == 0 || strcmp(name, "DEVPATH") == 0 ||
	       strncmp(name, "ID_PATH", 7) == 0;
}

void
privacy_found(struct privacy_finder *f, const char *fmt, const char *arg)
{
	char what[160];

	snprintf(what, sizeof(what), fmt, arg);
	f->fn(f->userdata, f->rec, what);
	f->n++;
}

void
privacy_check_strings(struct privacy_finder *f, const char *phys, const char *uniq, const char *node)
{
	if (uniq && *uniq)
		privacy_found(f, "serial in uniq: %s", uniq);
	if (tt_str_count_addresses(phys))
		privacy_found(f, "address in phys: %s", phys);
	if (node && *node)
		privacy_found(f, "node path: %s", node);
}

static void
check_properties(struct privacy_finder *f, const struct tt_property *list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (tt_property_is_serial(list[i].name))
			privacy_found(f, "serial in udev %s", list[i].name);
		else if (is_path_property(list[i].name))
			privacy_found(f, "node path in udev %s", list[i].name);
		else if (tt_str_count_addresses(list[i].value))
			privacy_found(f, "address in udev %s", list[i].name);
	}
}

void
privacy_check_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	const struct tt_device *dev = rec->device;

	privacy_check_strings(f, dev->phys, dev->uniq, dev->node);
	if (dev->syspath)
		privacy_found(f, "node path: %s", dev->syspath);
	check_properties(f, dev->udev, dev->nudev);
	add_dev(p, dev);
}

void
privacy_check_frame(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	const struct tt_frame *fr = rec->frame;
	struct priv_dev *d = find_dev(p, fr->device);

	if (p->keycodes_masked || !d || d->keys_told)
		return;
	for (uint32_t i = 0; i < fr->nevents; i++) {
		const struct tt_event *e = &fr->events[i];
		if (e->type != EV_KEY || !e->value || !tt_keymask_is_private(e->code))
			continue;
		char name[32];
		d->keys_told = true;
		privacy_found(f, "keys typed in clear (%s first; keycodes_masked is false)",
		      tt_code_label(name, sizeof(name), EV_KEY, e->code));
		return;
	}
}

void
privacy_check_header(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	p->keycodes_masked = rec->header->keycodes_masked;
	if (rec->header->dmi_modalias)
		privacy_found(f, "DMI strings: %s", rec->header->dmi_modalias);
}

size_t
tt_privacy_check(struct tt_privacy *p, const struct tt_record *rec, tt_privacy_fn fn,
		 void *userdata)
{
	struct privacy_finder f = { .rec = rec, .fn = fn, .userdata = userdata };
	const struct tt_record_kind *kind = tt_record_kind(rec->type);

	if (kind && kind->privacy_check)
		kind->privacy_check(p, &f, rec);
	return f.n;
}

/* ---- the copy without it ---- */

const char *
privacy_masked_phys(struct tt_privacy *p, const char *phys)
{
	if (!tt_str_count_addresses(phys))
		return phys;
	p->phys = tt_strdup(phys);
	tt_str_mask_addresses(p->phys);
	return p->phys;
}

static void
redact_properties(const struct tt_property *in, uint32_t n, struct tt_property **out,
		  uint32_t *nout)
{
	for (uint32_t i = 0; i < n; i++) {
		if (tt_property_is_serial(in[i].name) || is_path_property(in[i].name))
			continue;
		_cleanup_free_ char *value = tt_strdup(in[i].value);
		tt_str_mask_addresses(value);
		tt_properties_add(out, nout, in[i].name, value);
	}
}

bool
privacy_redact_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	const struct tt_device *in = rec->device;
	struct priv_dev *d = add_dev(p, in);

	p->device = *in;
	p->device.uniq = NULL;
	p->device.node = NULL;
	p->device.syspath = NULL;
	p->device.phys = (char *)privacy_masked_phys(p, in->phys);
	redact_properties(in->udev, in->nudev, &p->udev, &p->nudev);
	redact_properties(in->hwdb, in->nhwdb, &p->hwdb, &p->nhwdb);
	p->device.udev = p->udev;
	p->device.nudev = p->nudev;
	p->device.hwdb = p->hwdb;
	p->device.nhwdb = p->nhwdb;
	tt_keymask_device(&d->mask, &p->device);
	out->device = &p->device;
	return true;
}

bool
privacy_redact_frame(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	const struct tt_frame *in = rec->frame;
	struct priv_dev *d = find_dev(p, in->device);

	if (!d || !d->mask.active)
		return true;
	if (in->nevents > p->nevents) {
		p->events = tt_reallocarray(p->events, in->nevents, sizeof(*p->events));
		p->nevents = in->nevents;
	}
	p->frame = *in;
	memcpy(p->events, in->events, in->nevents * sizeof(*p->events));
	for (uint32_t i = 0; i < in->nevents; i++)
		tt_keymask_event(&d->mask, &p->events[i]);
	p->frame.events = p->events;
	out->frame = &p->frame;
	return true;
}

bool
privacy_redact_header(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	p->keycodes_masked = rec->header->keycodes_masked;
	p->header = *rec->header;
	p->header.dmi_modalias = NULL;
	p->header.keycodes_masked = true;
	out->header = &p->header;
	return true;
}

bool
tt_privacy_redact(struct tt_privacy *p, const struct tt_record *in, struct tt_record *out)
{
	const struct tt_record_kind *kind = tt_record_kind(in->type);

	clear_copies(p);
	*out = *in;
	return !kind || !kind->privacy_redact || kind->privacy_redact(p, in, out);
}
