/* SPDX-License-Identifier: MIT */
/* The privacy check and redaction of the HID layer's records: addresses
 * and serials of its devices, keys typed in its reports
 * (lib/analysis/privacy-private.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "hid-desc.h"
#include "hid-keymask.h"
#include "privacy-private.h"
#include "util-mem.h"

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
	privacy_found(f, "keys typed in clear in the reports of HID device %s", id);
}

void
privacy_check_hid_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	privacy_check_strings(f, rec->hid_device->phys, rec->hid_device->uniq, rec->hid_device->node);
	add_hid(p, rec->hid_device);
}

bool
privacy_redact_hid_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	const struct tt_hid_device *in = rec->hid_device;

	add_hid(p, in);
	p->hid = *in;
	p->hid.uniq = NULL;
	p->hid.node = NULL;
	p->hid.phys = (char *)privacy_masked_phys(p, in->phys);
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
