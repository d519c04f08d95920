/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "evnames.h"
#include "hid-keymask.h"
#include "keymask.h"
#include "privacy.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "util-strings.h"

struct priv_dev {
	uint32_t id;
	bool keys_told;
	struct tt_keymask mask;	/* redact: active when the file was not masked */
};

struct priv_hid {
	uint32_t id;
	bool keys_told;
	bool unparsed;
	struct tt_hid_desc *desc;	/* NULL unless it declares private keys */
};

struct tt_privacy {
	bool keycodes_masked;	/* the header says so */
	size_t ndevs;
	struct priv_dev *devs;
	size_t nhids;
	struct priv_hid *hids;

	/* tt_privacy_redact()'s copies, replaced by each call */
	struct tt_header header;
	struct tt_device device;
	struct tt_frame frame;
	struct tt_hid_device hid;
	struct tt_hid_report report;
	struct tt_xi_device xi;
	char *phys;
	uint32_t nudev, nhwdb;
	struct tt_property *udev, *hwdb;
	uint32_t nevents;
	struct tt_event *events;
	uint8_t bytes[TT_MAX_HID_REPORT];
};

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

/* ---- the devices, as their records come ---- */

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

static struct priv_hid *
find_hid(struct tt_privacy *p, uint32_t id)
{
	for (size_t i = 0; i < p->nhids; i++)
		if (p->hids[i].id == id)
			return &p->hids[i];
	return NULL;
}

static struct priv_hid *
add_hid(struct tt_privacy *p, const struct tt_hid_device *dev)
{
	struct priv_hid *h = find_hid(p, dev->id);
	struct tt_hid_desc *d = NULL;

	if (!h) {
		p->hids = tt_reallocarray(p->hids, p->nhids + 1, sizeof(*p->hids));
		h = &p->hids[p->nhids++];
	} else {
		tt_hid_desc_free(h->desc);
	}
	memset(h, 0, sizeof(*h));
	h->id = dev->id;
	if (tt_hid_desc_parse(dev->descriptor, dev->descriptor_len, &d, NULL) < 0)
		h->unparsed = true;
	else if (tt_hid_desc_has_private_keys(d))
		h->desc = steal(&d);
	tt_hid_desc_free(d);
	return h;
}

/* ---- what identifies ---- */

/* udev properties that are paths on the recording host. */
static bool
is_path_property(const char *name)
{
	return strcmp(name, "DEVNAME") == 0 || strcmp(name, "DEVPATH") == 0 ||
	       strncmp(name, "ID_PATH", 7) == 0;
}

struct privacy_finder {
	const struct tt_record *rec;
	tt_privacy_fn fn;
	void *userdata;
	size_t n;
};

static void
found(struct privacy_finder *f, const char *fmt, const char *arg)
{
	char what[160];

	snprintf(what, sizeof(what), fmt, arg);
	f->fn(f->userdata, f->rec, what);
	f->n++;
}

static void
check_strings(struct privacy_finder *f, const char *phys, const char *uniq, const char *node)
{
	if (uniq && *uniq)
		found(f, "serial in uniq: %s", uniq);
	if (tt_str_count_addresses(phys))
		found(f, "address in phys: %s", phys);
	if (node && *node)
		found(f, "node path: %s", node);
}

static void
check_properties(struct privacy_finder *f, const struct tt_property *list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (tt_property_is_serial(list[i].name))
			found(f, "serial in udev %s", list[i].name);
		else if (is_path_property(list[i].name))
			found(f, "node path in udev %s", list[i].name);
		else if (tt_str_count_addresses(list[i].value))
			found(f, "address in udev %s", list[i].name);
	}
}

void
privacy_check_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	const struct tt_device *dev = rec->device;

	check_strings(f, dev->phys, dev->uniq, dev->node);
	if (dev->syspath)
		found(f, "node path: %s", dev->syspath);
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
		found(f, "keys typed in clear (%s first; keycodes_masked is false)",
		      tt_code_label(name, sizeof(name), EV_KEY, e->code));
		return;
	}
}

/* A report masking would change was not masked. */
void
privacy_check_hid_report(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	const struct tt_hid_report *r = rec->hid_report;
	struct priv_hid *h = find_hid(p, r->device);

	if (!h || h->keys_told || !h->desc || r->len > sizeof(p->bytes))
		return;
	memcpy(p->bytes, r->data, r->len);
	if (tt_hid_keymask_report(h->desc, p->bytes, r->len) <= 0)
		return;
	char id[16];
	h->keys_told = true;
	snprintf(id, sizeof(id), "%u", r->device);
	found(f, "keys typed in clear in the reports of HID device %s", id);
}

void
privacy_check_header(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	p->keycodes_masked = rec->header->keycodes_masked;
	if (rec->header->dmi_modalias)
		found(f, "DMI strings: %s", rec->header->dmi_modalias);
}

void
privacy_check_hid_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	check_strings(f, rec->hid_device->phys, rec->hid_device->uniq, rec->hid_device->node);
	add_hid(p, rec->hid_device);
}

void
privacy_check_xi_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	(void)p;
	if (rec->xi_device->device_node)
		found(f, "node path: %s", rec->xi_device->device_node);
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

static const char *
masked_phys(struct tt_privacy *p, const char *phys)
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
	p->device.phys = (char *)masked_phys(p, in->phys);
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
privacy_redact_hid_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	const struct tt_hid_device *in = rec->hid_device;

	add_hid(p, in);
	p->hid = *in;
	p->hid.uniq = NULL;
	p->hid.node = NULL;
	p->hid.phys = (char *)masked_phys(p, in->phys);
	out->hid_device = &p->hid;
	return true;
}

/* False when the report is to be left out. */
bool
privacy_redact_hid_report(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	const struct tt_hid_report *in = rec->hid_report;
	struct priv_hid *h = find_hid(p, in->device);

	if (h && h->unparsed)
		return false;
	if (!h || !h->desc || in->len > sizeof(p->bytes))
		return true;
	p->report = *in;
	memcpy(p->bytes, in->data, in->len);
	tt_hid_keymask_report(h->desc, p->bytes, in->len);
	p->report.data = p->bytes;
	out->hid_report = &p->report;
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
privacy_redact_xi_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	p->xi = *rec->xi_device;
	p->xi.device_node = NULL;
	out->xi_device = &p->xi;
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
