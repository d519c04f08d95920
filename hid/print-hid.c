/* SPDX-License-Identifier: MIT */
/* print's HID layer: see print-hid.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hid-desc.h"
#include "print-hid.h"
#include "print/print-private.h"
#include "util-plural.h"
#include "util-strings.h"

/* Generic fields shown of a report that is not a touch or pen report,
 * before "...". */
#define PH_MAX_GENERIC 16

struct ph_device {
	uint32_t id;
	struct tt_hid_desc *desc;	/* NULL when the descriptor did not parse */
};

struct print_hid {
	FILE *out;
	struct ph_device *devs;
	size_t ndevs;
};

struct print_hid *
print_hid_new(FILE *out)
{
	struct print_hid *ph = tt_zalloc(sizeof(*ph));

	ph->out = out;
	return ph;
}

void
print_hid_free(struct print_hid *ph)
{
	if (!ph)
		return;
	for (size_t i = 0; i < ph->ndevs; i++)
		tt_hid_desc_free(ph->devs[i].desc);
	free(ph->devs);
	free(ph);
}

static struct ph_device *
find_device(struct print_hid *ph, uint32_t id)
{
	for (size_t i = 0; i < ph->ndevs; i++) {
		if (ph->devs[i].id == id)
			return &ph->devs[i];
	}
	return NULL;
}

/* A device declared again replaces its descriptor. */
static struct ph_device *
add_device(struct print_hid *ph, uint32_t id)
{
	struct ph_device *pd = find_device(ph, id);

	if (pd) {
		tt_hid_desc_free(pd->desc);
	} else {
		ph->devs = tt_reallocarray(ph->devs, ph->ndevs + 1, sizeof(*ph->devs));
		pd = &ph->devs[ph->ndevs++];
	}
	*pd = (struct ph_device){ .id = id };
	return pd;
}

/* hid-tools' names for the buses a HID device sits on. */
static const char *
bus_name(uint16_t bus)
{
	switch (bus) {
	case 0x03: return "USB";
	case 0x05: return "Bluetooth";
	case 0x06: return "virtual";
	case 0x18: return "I2C";
	case 0x19: return "host";
	case 0x1c: return "SPI";
	default: return "other";
	}
}

/* Device strings are untrusted: the reader sanitizes names, and this
 * the rest before a terminal sees them. */
static void
print_string(FILE *out, const char *label, const char *s)
{
	if (!s || !*s)
		return;
	_cleanup_free_ char *clean = tt_str_sanitize(s, strlen(s), 256);
	fprintf(out, "#   %s %s\n", label, clean);
}

static void
print_hex(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%s%02x", i ? " " : "", data[i]);
}

static void
print_feature(FILE *out, const struct tt_hid_feature *f)
{
	fprintf(out, "#   feature report %u: ", f->report_id);
	if (f->error) {
		const char *name = strerrorname_np(-f->error);
		fprintf(out, "error %s (%s)\n", name ? name : "?", strerror(-f->error));
		return;
	}
	print_hex(out, f->data, f->len);
	fputc('\n', out);
}

static void
print_applications(FILE *out, const struct tt_hid_desc *desc)
{
	char ub[32];
	size_t n = 0;

	fprintf(out, "#   application collections:");
	for (size_t i = 0; i < desc->ncollections; i++) {
		if (desc->collections[i].type != 1)
			continue;
		fprintf(out, "%s %s", n++ ? "," : "",
			tt_hid_usage_name(desc->collections[i].usage, ub, sizeof(ub)));
	}
	fprintf(out, "%s\n", n ? "" : " none");
}

static void
print_input_reports(FILE *out, const struct tt_hid_desc *desc)
{
	size_t n = 0;

	fprintf(out, "#   input reports:");
	for (size_t i = 0; i < desc->nreports; i++) {
		const struct tt_hid_report_info *ri = &desc->reports[i];
		uint32_t bytes = (ri->bits + 7) / 8 + (desc->numbered ? 1 : 0);
		if (ri->kind != TT_HID_INPUT)
			continue;
		if (desc->numbered)
			fprintf(out, "%s ID %u (%u bytes)", n ? "," : "", ri->id, bytes);
		else
			fprintf(out, " %u bytes, unnumbered", bytes);
		n++;
	}
	fprintf(out, "%s\n", n ? "" : " none");
}

/* The descriptor parsed for the reports to come, and what it declares. */
static void
print_descriptor(struct print_hid *ph, struct ph_device *pd, const struct tt_hid_device *d)
{
	_cleanup_free_ char *why = NULL;
	int rc;

	fprintf(ph->out, "#   report descriptor: %u byte%s", d->descriptor_len, tt_plural_s(d->descriptor_len));
	rc = tt_hid_desc_parse(d->descriptor, d->descriptor_len, &pd->desc, &why);
	if (rc < 0) {
		_cleanup_free_ char *clean = why ? tt_str_sanitize(why, strlen(why), 256) : NULL;
		fprintf(ph->out, ", not decoded: %s\n", clean ? clean : strerror(-rc));
		return;
	}
	fputc('\n', ph->out);
	print_applications(ph->out, pd->desc);
	print_input_reports(ph->out, pd->desc);
}

void
print_hid_device(struct print_hid *ph, const struct tt_hid_device *d)
{
	struct ph_device *pd = add_device(ph, d->id);
	_cleanup_free_ char *name = tt_str_sanitize(d->name ? d->name : "", d->name ? strlen(d->name) : 0, 256);
	_cleanup_free_ char *node = d->node ? tt_str_sanitize(d->node, strlen(d->node), 256) : NULL;

	fprintf(ph->out, "# HID device %u: \"%s\"%s%s\n", d->id, name, node ? " at " : "", node ? node : "");
	/* hid-recorder's I: line: bus in hex, vendor and product 4 digits. */
	fprintf(ph->out, "#   I: %x %04x %04x (bus %s, version 0x%x, country %u)\n", d->bus, d->vendor,
		d->product, bus_name(d->bus), d->version, d->country);
	print_string(ph->out, "phys", d->phys);
	print_string(ph->out, "uniq", d->uniq);
	print_descriptor(ph, pd, d);
	if (d->nevdev) {
		fprintf(ph->out, "#   evdev device%s:", tt_plural_s(d->nevdev));
		for (uint32_t i = 0; i < d->nevdev; i++)
			fprintf(ph->out, " %u", d->evdev_devices[i]);
		fputc('\n', ph->out);
	}
	for (uint32_t i = 0; i < d->nfeatures; i++)
		print_feature(ph->out, &d->features[i]);
}

static void
print_contact(FILE *out, const struct tt_hid_contact *c)
{
	fprintf(out, " | contact");
	if (c->has_id)
		fprintf(out, "=%d", c->contact_id);
	if (c->has_tip)
		fprintf(out, " tip=%d", c->tip);
	if (c->has_x)
		fprintf(out, " x=%d", c->x);
	if (c->has_y)
		fprintf(out, " y=%d", c->y);
	if (c->has_confidence)
		fprintf(out, " conf=%d", c->confidence);
	if (c->has_pressure)
		fprintf(out, " pressure=%d", c->pressure);
	if (c->width || c->height)
		fprintf(out, " w=%d h=%d", c->width, c->height);
}

static void
print_pen(FILE *out, const struct tt_hid_pen *p)
{
	fprintf(out, " | pen in_range=%d tip=%d barrel=%d eraser=%d invert=%d x=%d y=%d pressure=%d",
		p->in_range, p->tip, p->barrel, p->eraser, p->invert, p->x, p->y, p->pressure);
}

static bool
contact_is_empty(const struct tt_hid_contact *c)
{
	return !c->tip && !c->contact_id && !c->x && !c->y;
}

/* The contacts hid-multitouch reads: the first Contact Count ones; the
 * rest are the report's empty slots. A count of 0 (a later report of a
 * hybrid-mode frame, or a device that sends its tip-up so) counts
 * nothing: then every contact that is not all zeros. */
static bool
contact_shown(const struct tt_hid_decoded *dec, uint32_t i)
{
	if (!dec->has_contact_count || dec->contact_count < 0)
		return true;
	if (dec->contact_count == 0)
		return !contact_is_empty(&dec->contacts[i]);
	return i < (uint32_t)dec->contact_count;
}

static void
print_touch_fields(FILE *out, const struct tt_hid_decoded *dec)
{
	uint32_t shown = 0;

	for (uint32_t i = 0; i < dec->ncontacts; i++) {
		if (!contact_shown(dec, i))
			continue;
		print_contact(out, &dec->contacts[i]);
		shown++;
	}
	if (shown < dec->ncontacts)
		fprintf(out, " | %u empty slot%s", dec->ncontacts - shown, tt_plural_s(dec->ncontacts - shown));
	if (dec->has_contact_count)
		fprintf(out, " | count=%d", dec->contact_count);
	if (dec->has_scan_time)
		fprintf(out, " scan_time=%d", dec->scan_time);
	if (dec->pen.present)
		print_pen(out, &dec->pen);
}

struct generic_walk {
	FILE *out;
	int n;
};

static bool
print_generic_field(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	struct generic_walk *w = data;
	char ub[32];

	if (!usage || (f->flags & 1))
		return true;	/* padding and constants say nothing */
	if (w->n++ == PH_MAX_GENERIC) {
		fprintf(w->out, " ...");
		return false;
	}
	fprintf(w->out, "%s %s=%d", w->n == 1 ? " |" : "", tt_hid_usage_name(usage, ub, sizeof(ub)), value);
	return true;
}

static bool
find_touch_usage(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	bool *found = data;

	(void)f;
	(void)value;
	*found = usage >> 16 == TT_HID_UP_DIGITIZER || usage == TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x30) ||
		 usage == TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x31);
	return !*found;
}

/* Decoded as contacts or a pen only when the report has one of their
 * fields: a vendor-defined report inside a Digitizer collection (old
 * Wacom tablets) decodes to nothing but zeros, its fields say more. */
static bool
is_touch_report(const struct tt_hid_desc *desc, const struct tt_hid_report *r, const struct tt_hid_decoded *dec)
{
	bool found = false;

	if (!dec->ncontacts && !dec->has_contact_count && !dec->pen.present)
		return false;
	tt_hid_report_fields(desc, r->data, r->len, find_touch_usage, &found);
	return found;
}

static void
print_decoded(FILE *out, const struct tt_hid_desc *desc, const struct tt_hid_report *r)
{
	struct tt_hid_decoded dec;
	const struct tt_hid_report_info *ri;

	if (tt_hid_decode(desc, r->data, r->len, &dec) < 0) {
		fprintf(out, "  | not decoded");
		return;
	}
	fprintf(out, "  | id=%u", dec.report_id);
	if (!dec.declared) {
		fprintf(out, ": not an input report of the descriptor");
		return;
	}
	ri = tt_hid_desc_report(desc, TT_HID_INPUT, dec.report_id);
	if (dec.short_report && ri)
		fprintf(out, " short: %u of %u bytes", r->len, (ri->bits + 7) / 8 + (desc->numbered ? 1 : 0));
	if (is_touch_report(desc, r, &dec)) {
		print_touch_fields(out, &dec);
		if (dec.buttons)
			fprintf(out, " | buttons=0x%x", dec.buttons);
		return;
	}
	struct generic_walk w = { .out = out };
	tt_hid_report_fields(desc, r->data, r->len, print_generic_field, &w);
}

void
print_hid_report(struct print_hid *ph, const struct tt_hid_report *r)
{
	struct ph_device *pd = find_device(ph, r->device);
	uint32_t shown = r->len > PH_HEX_BYTES ? PH_HEX_BYTES : r->len;
	char ts[32];

	fprintf(ph->out, "%s hid%u  ", tt_format_time(ts, sizeof(ts), r->time_us), r->device);
	print_hex(ph->out, r->data, shown);
	if (shown < r->len)
		fprintf(ph->out, " ...(%u bytes)", r->len);
	if (pd && pd->desc)
		print_decoded(ph->out, pd->desc, r);
	fputc('\n', ph->out);
}

/* print's table (print/print-private.h). */
void
print_hid_device_record(struct printer *p, const struct tt_record *rec)
{
	print_hid_device(p->hid, rec->hid_device);
}

void
print_hid_report_record(struct printer *p, const struct tt_record *rec)
{
	print_hid_report(p->hid, rec->hid_report);
}
