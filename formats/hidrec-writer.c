/* SPDX-License-Identifier: MIT */
/*
 * hid-recorder files as hid-tools' hid-recorder writes them today:
 *
 *	# NAME
 *	R: LEN 05 0d ...
 *	N: NAME
 *	P: PHYS			(when known; hid-replay reads it)
 *	I: BUS VENDOR PRODUCT	(hex: "%x %04x %04x")
 *	E: 000000.000000 LEN 01 02 ...
 *
 * With more than one HID device, "D: N" comes before each device's lines
 * and wherever the reports switch device, N counting the devices in the
 * order they appear. As that is only known at the end, the devices are
 * kept and the reports wait in an unlinked temporary file (memory stays
 * bounded); everything is written at finish. Times are the timeline's,
 * so a hid-recorder file read in comes back with its own clock. N: and I:
 * are written only when the device record had them: a descriptor-only
 * file stays one.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-private.h"

struct hidrec_out_dev {
	uint32_t id;		/* the timeline's HID device id */
	char *name;
	char *phys;
	uint16_t bus;
	uint32_t vendor;
	uint32_t product;
	uint32_t descriptor_len;
	uint8_t *descriptor;
};

/* A report as it waits in the temporary file, its bytes after it. */
struct hidrec_spooled {
	uint32_t index;
	uint32_t len;
	int64_t time_us;
};

struct hidrec_export {
	struct hidrec_out_dev devs[TT_MAX_DEVICES];
	uint32_t ndevs;
	FILE *reports;
};

static void
out_dev_clear(struct hidrec_out_dev *d)
{
	free(d->name);
	free(d->phys);
	free(d->descriptor);
	memset(d, 0, sizeof(*d));
}

/* The index for HID device @id, or -1 when it was never declared. */
static int
dev_index(const struct hidrec_export *h, uint32_t id)
{
	for (uint32_t i = 0; i < h->ndevs; i++) {
		if (h->devs[i].id == id)
			return (int)i;
	}
	return -1;
}

/* A device declared again (a replaced record) keeps its index and takes
 * the newer description: one file holds one description per device. */
static int
hidrec_hid_device(struct tt_export *e, const struct tt_hid_device *dev)
{
	struct hidrec_export *h = e->priv;
	int i = dev_index(h, dev->id);
	struct hidrec_out_dev *d;

	if (i < 0) {
		if (h->ndevs >= TT_MAX_DEVICES)
			return -ENOSPC;
		i = (int)h->ndevs++;
	}
	d = &h->devs[i];
	out_dev_clear(d);
	d->id = dev->id;
	d->name = tt_strdup(dev->name ? dev->name : "");
	d->phys = dev->phys && dev->phys[0] ? tt_strdup(dev->phys) : NULL;
	d->bus = dev->bus;
	d->vendor = dev->vendor;
	d->product = dev->product;
	d->descriptor_len = dev->descriptor_len;
	d->descriptor = tt_zalloc(dev->descriptor_len ? dev->descriptor_len : 1);
	memcpy(d->descriptor, dev->descriptor, dev->descriptor_len);
	e->stats.devices_written = h->ndevs;
	return 0;
}

static int
hidrec_hid_report(struct tt_export *e, const struct tt_hid_report *rep)
{
	struct hidrec_export *h = e->priv;
	int i = dev_index(h, rep->device);
	struct hidrec_spooled s;

	if (i < 0)
		return -EINVAL;	/* the reader refuses such a report */
	/* The timeline's own times: a hid-recorder file read in comes back
	 * with its clock. */
	s = (struct hidrec_spooled){ (uint32_t)i, rep->len, rep->time_us };
	if (s.time_us < 0) {
		e->stats.times_clamped++;
		s.time_us = 0;
	}
	if (fwrite(&s, sizeof(s), 1, h->reports) != 1 ||
	    fwrite(rep->data, 1, rep->len, h->reports) != rep->len)
		return errno ? -errno : -EIO;
	return 0;
}

static void
write_bytes(FILE *out, const uint8_t *data, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		fprintf(out, " %02x", data[i]);
	fputc('\n', out);
}

static void
write_device(struct tt_export *e, uint32_t index)
{
	struct hidrec_export *h = e->priv;
	const struct hidrec_out_dev *d = &h->devs[index];

	if (h->ndevs > 1)
		fprintf(e->out, "D: %u\n", index);
	/* What a descriptor-only file lacked (no name, no ids) stays out. */
	if (d->name[0])
		fprintf(e->out, "# %s\n", d->name);
	fprintf(e->out, "R: %u", d->descriptor_len);
	write_bytes(e->out, d->descriptor, d->descriptor_len);
	if (d->name[0])
		fprintf(e->out, "N: %s\n", d->name);
	if (d->phys)
		fprintf(e->out, "P: %s\n", d->phys);
	if (d->bus || d->vendor || d->product)
		fprintf(e->out, "I: %x %04x %04x\n", d->bus, d->vendor, d->product);
}

/* The spooled reports, in order, as E: lines. */
static int
write_reports(struct tt_export *e)
{
	struct hidrec_export *h = e->priv;
	uint8_t *buf = tt_zalloc(TT_MAX_HID_REPORT);
	struct hidrec_spooled s;
	uint32_t current = UINT32_MAX;	/* a D: line before the first report */
	int rc = 0;

	rewind(h->reports);
	while (fread(&s, sizeof(s), 1, h->reports) == 1) {
		if (s.len > TT_MAX_HID_REPORT || fread(buf, 1, s.len, h->reports) != s.len) {
			rc = -EIO;
			break;
		}
		if (h->ndevs > 1 && s.index != current)
			fprintf(e->out, "D: %u\n", s.index);
		current = s.index;
		fprintf(e->out, "E: %06" PRId64 ".%06" PRId64 " %u", s.time_us / 1000000,
			s.time_us % 1000000, s.len);
		write_bytes(e->out, buf, s.len);
	}
	if (rc == 0 && ferror(h->reports))
		rc = -EIO;
	free(buf);
	return rc;
}

static int
hidrec_finish(struct tt_export *e)
{
	struct hidrec_export *h = e->priv;

	for (uint32_t i = 0; i < h->ndevs; i++)
		write_device(e, i);
	return write_reports(e);
}

static void
hidrec_destroy(struct tt_export *e)
{
	struct hidrec_export *h = e->priv;

	if (!h)
		return;
	for (uint32_t i = 0; i < h->ndevs; i++)
		out_dev_clear(&h->devs[i]);
	if (h->reports)
		fclose(h->reports);
	free(h);
	e->priv = NULL;
}

static const struct tt_export_ops hidrec_export_ops = {
	.hid_device = hidrec_hid_device,
	.hid_report = hidrec_hid_report,
	.finish = hidrec_finish,
	.destroy = hidrec_destroy,
};

int
hidrec_export_init(struct tt_export *e)
{
	struct hidrec_export *h = tt_zalloc(sizeof(*h));

	h->reports = tmpfile();
	if (!h->reports) {
		int rc = errno ? -errno : -EIO;
		free(h);
		return rc;
	}
	e->priv = h;
	e->ops = &hidrec_export_ops;
	return 0;
}
