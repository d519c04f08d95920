/* SPDX-License-Identifier: MIT */
/*
 * The HID report descriptor parser and report decoder (hid/hid-desc.h) on
 * descriptors from public test suites, cited where they are used, and on
 * malformed descriptors built here, byte by byte, each with the exact
 * message it must give. The corpus's hid-recorder files are read in
 * test-hid-desc-corpus.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hid-desc.h"
#include "test-common.h"
#include "test-hid-desc.h"

struct tt_hid_desc *
parse_ok(const uint8_t *data, size_t len)
{
	struct tt_hid_desc *d = NULL;
	_cleanup_free_ char *why = NULL;
	int rc = tt_hid_desc_parse(data, len, &d, &why);

	check_int_eq(rc, 0);
	if (why)
		fprintf(stderr, "parse failed: %s\n", why);
	return d;
}

static bool
collect(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	struct values *v = data;

	(void)f;
	if (v->n < ARRAY_LENGTH(v->usage)) {
		v->usage[v->n] = usage;
		v->value[v->n++] = value;
	}
	return true;
}

struct values
values_of(const struct tt_hid_desc *d, const uint8_t *report, size_t len)
{
	struct values v = { 0 };

	check_int_eq(tt_hid_report_fields(d, report, len, collect, &v), 0);
	return v;
}

/* ---- hid-tools' multitouch descriptors ---- */

/* The top-level collection of field @f's collection, or NULL. */
static const struct tt_hid_collection *
application_of(const struct tt_hid_desc *d, const struct tt_hid_field *f)
{
	uint32_t c = f->collection;

	if (c == UINT32_MAX)
		return NULL;
	while (d->collections[c].parent != UINT32_MAX)
		c = d->collections[c].parent;
	return &d->collections[c];
}

static void
set_bits(uint8_t *buf, uint32_t off, uint32_t size, uint32_t value)
{
	for (uint32_t i = 0; i < size && i < 32; i++) {
		uint32_t bit = off + i;
		if (value & (1u << i))
			buf[bit / 8] |= (uint8_t)(1u << (bit % 8));
	}
}

/* The value of the @k-th occurrence (from 1) of a contact usage, kept
 * within the field's logical range. */
static int32_t
nth_value(const struct tt_hid_field *f, uint32_t usage, uint32_t k)
{
	int64_t range = (int64_t)f->logical_max - f->logical_min + 1;
	uint32_t step = usage == DIG(0x51) ? 1 : usage == GD(0x31) ? 11 : 7;

	if (usage == DIG(0x42))
		return 1;
	return (int32_t)(f->logical_min + (int64_t)(k * step) % (range > 0 ? range : 1));
}

/* Builds input report @id of @d with every touch application's contact
 * usages numbered in order (the k-th Contact Id is k, the k-th X is 7k,
 * ...), decodes it and checks the k-th contact has the k-th values: the
 * contacts are split where hid-multitouch splits them. Returns how many
 * contacts the report carries. */
static uint32_t
check_numbered_contacts(const struct tt_hid_desc *d, uint8_t id, const char *name)
{
	static const uint32_t usages[] = { DIG(0x51), DIG(0x42), GD(0x30), GD(0x31) };
	uint32_t seen[ARRAY_LENGTH(usages)] = { 0 };
	int32_t want[ARRAY_LENGTH(usages)][TT_HID_MAX_CONTACTS];
	const struct tt_hid_report_info *r = tt_hid_desc_report(d, TT_HID_INPUT, id);
	uint8_t buf[TT_HID_MAX_REPORT_BYTES + 1] = { id };
	size_t off = d->numbered ? 8 : 0;

	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		const struct tt_hid_collection *app = application_of(d, f);
		if (f->kind != TT_HID_INPUT || f->report_id != id || (f->flags & 0x3) != 0x2 || !app ||
		    (app->usage != DIG(0x04) && app->usage != DIG(0x05)))
			continue;
		for (uint32_t v = 0; v < f->count && v < f->nusages; v++) {
			for (size_t u = 0; u < ARRAY_LENGTH(usages); u++) {
				if (f->usages[v] != usages[u] || seen[u] == TT_HID_MAX_CONTACTS)
					continue;
				int32_t value = nth_value(f, usages[u], seen[u] + 1);
				want[u][seen[u]++] = value;
				set_bits(buf, (uint32_t)off + f->bit_offset + v * f->bit_size, f->bit_size,
					 (uint32_t)value);
			}
		}
	}
	if (seen[0] == 0)
		return 0;

	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, buf, off / 8 + (r->bits + 7) / 8, &out), 0);
	check(!out.short_report);
	check_int_eq(out.ncontacts, seen[0]);
	if (out.ncontacts != seen[0])
		fprintf(stderr, "  in %s, report %u\n", name, id);
	for (uint32_t k = 0; k < out.ncontacts && k < seen[0]; k++) {
		const struct tt_hid_contact *c = &out.contacts[k];
		check(c->has_id && c->contact_id == want[0][k]);
		check(k >= seen[1] || (c->has_tip && c->tip));
		check(k >= seen[2] || (c->has_x && c->x == want[2][k]));
		check(k >= seen[3] || (c->has_y && c->y == want[3][k]));
	}
	return seen[0];
}

/* "0/16=62 2/17=3": each report's size, from hid-tools, against ours. */
static void
check_sizes(const struct tt_hid_desc *d, const char *sizes, const char *name)
{
	size_t n = 0;

	for (const char *s = sizes; *s;) {
		unsigned kind, id, size;
		int used;
		if (sscanf(s, "%u/%u=%u%n", &kind, &id, &size, &used) != 3)
			break;
		s += used;
		while (*s == ' ')
			s++;
		n++;
		const struct tt_hid_report_info *r = tt_hid_desc_report(d, (enum tt_hid_report_kind)kind, (uint8_t)id);
		check(r != NULL);
		if (!r)
			continue;
		if ((d->numbered ? 1u : 0u) + (r->bits + 7) / 8 != size)
			fprintf(stderr, "  %s: report %u/%u is %u bits, hid-tools says %u bytes\n",
				name, kind, id, r->bits, size);
		check_int_eq((d->numbered ? 1u : 0u) + (r->bits + 7) / 8, size);
	}
	check_int_eq(n, d->nreports);
}

/* Every descriptor of hid/tests/data/hid-tools-multitouch.hid parses, has
 * the report sizes hid-tools computes, and decodes its contacts. */
static void
test_hid_tools_multitouch(void)
{
	char path[4096];
	int devices = 0;
	uint32_t contacts = 0;

	snprintf(path, sizeof(path), "%s/hid/tests/data/hid-tools-multitouch.hid", tt_test_srcdir());
	_cleanup_free_ char *text = tt_test_slurp(path, NULL);
	check(text != NULL);
	if (!text)
		return;
	static uint8_t desc[16384];
	const char *name = "?";
	long len = -1;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "N: ", 3) == 0) {
			name = line + 3;
		} else if (strncmp(line, "R: ", 3) == 0) {
			len = parse_hex(line + 3, desc, sizeof(desc));
			check(len > 0);
		} else if (strncmp(line, "S: ", 3) == 0 && len > 0) {
			_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_ok(desc, (size_t)len);
			if (!d) {
				fprintf(stderr, "  in %s\n", name);
				continue;
			}
			devices++;
			check(tt_hid_desc_is_touch(d));
			check_sizes(d, line + 3, name);
			for (size_t i = 0; i < d->nreports; i++) {
				if (d->reports[i].kind == TT_HID_INPUT)
					contacts += check_numbered_contacts(d, d->reports[i].id, name);
			}
			len = -1;
		}
	}
	check_int_eq(devices, 93);
	check(contacts > 300);
	fprintf(stderr, "  %d devices, %u contacts\n", devices, contacts);
}

/* ---- hand-built descriptors ---- */

/* A one-finger touchscreen: report 1 = Tip Switch, 7 bits padding,
 * Contact Id (8), X and Y (16, 0..4095), Contact Count (8). */
static const uint8_t touchscreen[] = {
	0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01,
	0x09, 0x22, 0xa1, 0x02,
	0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02,
	0x95, 0x07, 0x81, 0x03,
	0x09, 0x51, 0x25, 0x0f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	0x05, 0x01, 0x26, 0xff, 0x0f, 0x75, 0x10, 0x09, 0x30, 0x09, 0x31, 0x95, 0x02, 0x81, 0x02,
	0xc0,
	0x05, 0x0d, 0x09, 0x54, 0x25, 0x0a, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	0x85, 0x02, 0x09, 0x55, 0xb1, 0x02,
	0xc0,
};

static void
test_short_report(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_ok(touchscreen, sizeof(touchscreen));
	if (!d)
		return;
	const uint8_t full[] = { 0x01, 0x01, 0x05, 0x34, 0x12, 0x78, 0x06, 0x01 };
	struct tt_hid_decoded out;

	check_int_eq(tt_hid_decode(d, full, sizeof(full), &out), 0);
	check(out.declared && !out.short_report);
	check_int_eq(out.ncontacts, 1);
	check(out.contacts[0].tip && out.contacts[0].contact_id == 5);
	check_int_eq(out.contacts[0].x, 0x1234);
	check_int_eq(out.contacts[0].y, 0x0678);
	check(out.has_contact_count && out.contact_count == 1);

	/* Cut inside Y: tip, ID and X decode, Y and the count do not. */
	check_int_eq(tt_hid_decode(d, full, 6, &out), 0);
	check(out.declared && out.short_report);
	check(out.contacts[0].tip && out.contacts[0].has_x && out.contacts[0].x == 0x1234);
	check(!out.contacts[0].has_y);
	check(!out.has_contact_count);

	/* Only the ID byte. */
	check_int_eq(tt_hid_decode(d, full, 1, &out), 0);
	check(out.declared && out.short_report && out.ncontacts == 0);

	/* Empty and undeclared. */
	check_int_eq(tt_hid_decode(d, full, 0, &out), -EINVAL);
	const uint8_t other[] = { 0x07, 0xff };
	check_int_eq(tt_hid_decode(d, other, sizeof(other), &out), 0);
	check(!out.declared && out.report_id == 7 && out.ncontacts == 0);
	check_int_eq(tt_hid_report_fields(d, other, sizeof(other), NULL, NULL), -ENOENT);
}

#define PARSE(name, ...)							\
	static const uint8_t name##_bytes[] = { __VA_ARGS__ };			\
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *name = parse_ok(name##_bytes, sizeof(name##_bytes)); \
	if (!name)								\
		return

/* Logical ranges: signed when the minimum is negative, else unsigned. */
static void
test_signed_ranges(void)
{
	PARSE(rel, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15, 0x81, 0x25, 0x7f,
	      0x75, 0x08, 0x95, 0x02, 0x81, 0x06,
	      0x09, 0x38, 0x15, 0x00, 0x25, 0xff, 0x95, 0x01, 0x81, 0x02,
	      0x09, 0x32, 0x16, 0x00, 0x80, 0x26, 0xff, 0x7f, 0x75, 0x10, 0x81, 0x02);
	check(!rel->numbered);
	check_int_eq(rel->nfields, 3);
	check_int_eq(rel->fields[0].logical_min, -127);
	check_int_eq(rel->fields[0].logical_max, 127);
	check_int_eq(rel->fields[0].flags, 0x06);
	check_int_eq(rel->fields[1].logical_max, 255);	/* 0xff after a minimum of 0 */
	check_int_eq(rel->fields[2].logical_min, -32768);
	check_int_eq(rel->fields[2].logical_max, 32767);
	check_int_eq(rel->fields[2].bit_offset, 24);

	const uint8_t report[] = { 0xff, 0x05, 0xf0, 0x00, 0x80 };
	struct values v = values_of(rel, report, sizeof(report));
	check_int_eq(v.n, 4);
	check_int_eq(v.usage[0], GD(0x30));
	check_int_eq(v.value[0], -1);
	check_int_eq(v.value[1], 5);
	check_int_eq(v.usage[2], GD(0x38));
	check_int_eq(v.value[2], 240);			/* unsigned field */
	check_int_eq(v.value[3], -32768);
}

/* Usage pages: a short usage takes the page in force, even one given
 * after it but before the main item (hid-core's rule); a 4-byte usage
 * carries its own; Push/Pop keep the globals; long items and reserved
 * item types are skipped. */
static void
test_usage_pages(void)
{
	PARSE(d, 0xfe, 0x02, 0x10, 0xb4, 0xb4,	/* a long item (of two Pops), skipped */
	      0x0c,				/* a reserved item type, ignored */
	      0x09, 0x30, 0x05, 0x01, 0x75, 0x08, 0x95, 0x01, 0x15, 0x00, 0x25, 0x01, 0x81, 0x02,
	      0x05, 0x0d, 0x09, 0x42, 0x05, 0x01, 0x09, 0x31, 0x95, 0x02, 0x81, 0x02,
	      0x0b, 0x56, 0x00, 0x0d, 0x00, 0x95, 0x01, 0x81, 0x02,
	      0xa4, 0x75, 0x10, 0x25, 0x7f, 0x55, 0x0e, 0x65, 0x11, 0xb4,
	      0x09, 0x33, 0x81, 0x02,
	      0x55, 0xfe, 0x09, 0x34, 0x81, 0x02);
	check_int_eq(d->nfields, 5);
	check_int_eq(d->fields[0].usages[0], GD(0x30));	/* page after usage */
	check_int_eq(d->fields[1].nusages, 2);
	check_int_eq(d->fields[1].usages[0], DIG(0x42));	/* earlier page kept */
	check_int_eq(d->fields[1].usages[1], GD(0x31));
	check_int_eq(d->fields[2].usages[0], DIG(0x56));	/* extended usage */
	check_int_eq(d->fields[3].bit_size, 8);		/* popped */
	check_int_eq(d->fields[3].logical_max, 1);
	check_int_eq(d->fields[3].unit_exponent, 0);
	check_int_eq(d->fields[3].unit, 0);
	check_int_eq(d->fields[4].unit_exponent, -2);	/* a whole signed byte */
}

/* Usage Minimum/Maximum in either order, delimiters, arrays. */
static void
test_usage_lists(void)
{
	PARSE(d, 0x05, 0x09, 0x29, 0x03, 0x19, 0x01, 0x15, 0x00, 0x25, 0x01,
	      0x75, 0x01, 0x95, 0x03, 0x81, 0x02, 0x95, 0x05, 0x81, 0x01,
	      0x05, 0x01, 0xa9, 0x01, 0x09, 0x30, 0xa9, 0x00, 0xa9, 0x01, 0x09, 0x31, 0xa9, 0x00,
	      0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	      0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x25, 0x65, 0x95, 0x02, 0x81, 0x00);
	check_int_eq(d->nfields, 4);
	check_int_eq(d->fields[0].nusages, 3);
	check_int_eq(d->fields[0].usages[2], TT_HID_USAGE(TT_HID_UP_BUTTON, 3));
	check_int_eq(d->fields[1].nusages, 0);			/* constant padding */
	check_int_eq(d->fields[2].nusages, 1);			/* the second set is an alternative */
	check_int_eq(d->fields[2].usages[0], GD(0x30));
	check_int_eq(d->fields[3].nusages, 0x66);		/* array: one per index */

	const uint8_t report[] = { 0x05, 0x7f, 0x04, 0x70 };
	struct values v = values_of(d, report, sizeof(report));
	check_int_eq(v.n, 3 + 5 + 1 + 1);			/* 0x70 selects nothing */
	check_int_eq(v.value[0], 1);
	check_int_eq(v.value[1], 0);
	check_int_eq(v.value[2], 1);
	check_int_eq(v.usage[3], 0);				/* padding */
	check_int_eq(v.usage[8], GD(0x30));
	check_int_eq(v.value[8], 0x7f);
	check_int_eq(v.usage[9], TT_HID_USAGE(0x07, 0x04));
	check_int_eq(v.value[9], 1);

	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, report, sizeof(report), &out), 0);
	check_int_eq(out.buttons, 0x5);
}

/* A 32-bit value at an odd bit offset, and a value past a variable
 * field's usages: the walk repeats the last usage, the decoder does not. */
static void
test_wide_values(void)
{
	PARSE(d, 0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x75, 0x03, 0x95, 0x01, 0x81, 0x03,
	      0x09, 0x56, 0x15, 0x00, 0x27, 0xff, 0xff, 0xff, 0x7f, 0x75, 0x20, 0x81, 0x02,
	      0x09, 0x22, 0xa1, 0x02, 0x09, 0x42, 0x25, 0x01, 0x75, 0x01, 0x95, 0x05, 0x81, 0x02,
	      0xc0, 0xc0);
	/* 0x12345678 << 3, then the tip and four more bits set. */
	const uint8_t report[] = { 0xc0, 0xb3, 0xa2, 0x91, 0xf8 };
	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, report, sizeof(report), &out), 0);
	check(out.declared && !out.short_report);
	check(out.has_scan_time && out.scan_time == 0x12345678);
	check_int_eq(out.ncontacts, 1);
	check(out.contacts[0].tip);
	/* The four bits past the one Tip Switch usage are no more tips. */
	const uint8_t up[] = { 0xc0, 0xb3, 0xa2, 0x91, 0xf0 };
	check_int_eq(tt_hid_decode(d, up, sizeof(up), &out), 0);
	check(out.contacts[0].has_tip && !out.contacts[0].tip);
	struct values v = values_of(d, report, sizeof(report));
	check_int_eq(v.n, 1 + 1 + 5);
	check_int_eq(v.usage[6], DIG(0x42));
	/* Report Size 64 (a USI pen's serial number): the low 32 bits. */
	PARSE(serial, 0x05, 0x0d, 0x09, 0x5b, 0x75, 0x40, 0x95, 0x01, 0x81, 0x02);
	const uint8_t sn[] = { 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff };
	v = values_of(serial, sn, sizeof(sn));
	check_int_eq(v.n, 1);
	check_int_eq(v.value[0], 0x12345678);
}

/* A pen, and styli that hid-multitouch counts as fingers. */
static void
test_pen_and_styli(void)
{
	PARSE(pen, 0x05, 0x0d, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x02, 0x09, 0x20, 0xa1, 0x00,
	      0x09, 0x42, 0x09, 0x44, 0x09, 0x45, 0x09, 0x3c, 0x09, 0x32, 0x15, 0x00, 0x25, 0x01,
	      0x75, 0x01, 0x95, 0x05, 0x81, 0x02, 0x95, 0x03, 0x81, 0x03,
	      0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x26, 0xff, 0x7f, 0x75, 0x10, 0x95, 0x02, 0x81, 0x02,
	      0x05, 0x0d, 0x09, 0x30, 0x26, 0xff, 0x0f, 0x95, 0x01, 0x81, 0x02, 0xc0, 0xc0);
	check(tt_hid_desc_is_touch(pen));
	check_int_eq(pen->application, DIG(0x02));
	const uint8_t report[] = { 0x02, 0x13, 0x34, 0x12, 0x78, 0x56, 0xff, 0x0f };
	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(pen, report, sizeof(report), &out), 0);
	check(out.pen.present && out.ncontacts == 0);
	check(out.pen.tip && out.pen.barrel && !out.pen.eraser && !out.pen.invert && out.pen.in_range);
	check_int_eq(out.pen.x, 0x1234);
	check_int_eq(out.pen.y, 0x5678);
	check_int_eq(out.pen.pressure, 0x0fff);

	/* A touch screen whose contacts are Stylus collections with a
	 * Contact Identifier (as SMART boards have). */
	PARSE(smart, 0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x05,
	      0x09, 0x20, 0xa1, 0x00, 0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02,
	      0x95, 0x07, 0x81, 0x03, 0x09, 0x51, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0,
	      0x09, 0x20, 0xa1, 0x00, 0x09, 0x42, 0x25, 0x01, 0x75, 0x01, 0x81, 0x02,
	      0x95, 0x07, 0x81, 0x03, 0x09, 0x51, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0,
	      0x09, 0x54, 0x81, 0x02, 0xc0);
	const uint8_t two[] = { 0x05, 0x01, 0x03, 0x01, 0x04, 0x02 };
	check_int_eq(tt_hid_decode(smart, two, sizeof(two), &out), 0);
	check(!out.pen.present);
	check_int_eq(out.ncontacts, 2);
	check(out.contacts[0].tip && out.contacts[0].contact_id == 3);
	check(out.contacts[1].tip && out.contacts[1].contact_id == 4);
	check(out.has_contact_count && out.contact_count == 2);
}

/* Feature reports of an unnumbered descriptor are report 0. */
static void
test_unnumbered_features(void)
{
	PARSE(d, 0x05, 0x0d, 0x09, 0x0e, 0xa1, 0x01, 0x09, 0x52, 0x15, 0x00, 0x25, 0x0a,
	      0x75, 0x08, 0x95, 0x01, 0xb1, 0x02, 0xc0);
	uint8_t ids[4];
	check(!tt_hid_desc_is_touch(d));
	check_int_eq(tt_hid_desc_feature_ids(d, ids, ARRAY_LENGTH(ids)), 1);
	check_int_eq(ids[0], 0);
	const struct tt_hid_report_info *r = tt_hid_desc_report(d, TT_HID_FEATURE, 0);
	check(r && r->bits == 8);
	const uint8_t feature[] = { 0x03 };
	struct values v = { 0 };
	check_int_eq(tt_hid_report_fields_kind(d, TT_HID_FEATURE, feature, 1, collect, &v), 0);
	check(v.n == 1 && v.usage[0] == DIG(0x52) && v.value[0] == 3);
	check_int_eq(tt_hid_report_fields(d, feature, 1, collect, &v), -ENOENT);
}

struct bad {
	const char *what;
	const uint8_t *bytes;
	size_t len;
	const char *message;
};

#define B(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

static void
test_malformed(void)
{
	const struct bad cases[] = {
		{ "truncated item", B(0x05, 0x0d, 0x26, 0xff),
		  "item 2 at byte 2: item of 2 data bytes past the end (1 left)" },
		{ "long item past the end", B(0x05, 0x0d, 0xfe, 0x10, 0x00, 0x01),
		  "item 2 at byte 2: long item of 16 data bytes past the end (1 left)" },
		{ "long item header cut", B(0xfe, 0x01),
		  "item 1 at byte 0: long item header past the end (2 of 3 bytes)" },
		{ "Pop without Push", B(0x05, 0x01, 0xb4),
		  "item 2 at byte 2: Pop without Push" },
		{ "Push 17 deep", B(0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4,
				    0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4),
		  "item 17 at byte 16: Push deeper than 16" },
		{ "End Collection alone", B(0x09, 0x01, 0xc0),
		  "item 2 at byte 2: End Collection without a Collection" },
		{ "unclosed collection", B(0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0xa1, 0x02, 0xc0),
		  "item 6 at byte 9: the descriptor ends inside 1 open collection" },
		{ "Report Size 0", B(0x75, 0x00),
		  "item 1 at byte 0: Report Size 0 (1..256)" },
		{ "Report Size 257", B(0x76, 0x01, 0x01),
		  "item 1 at byte 0: Report Size 257 (1..256)" },
		{ "Report Count huge", B(0x97, 0x00, 0x00, 0x00, 0x01),
		  "item 1 at byte 0: Report Count 16777216 over 131072" },
		{ "report past 16384 bytes", B(0x75, 0x20, 0x96, 0x00, 0x10, 0x81, 0x02, 0x81, 0x02),
		  "item 4 at byte 7: Input report 0 over 16384 bytes" },
		{ "Input without Report Size", B(0x95, 0x01, 0x81, 0x02),
		  "item 2 at byte 2: Input without a Report Size" },
		{ "Report ID 0", B(0x85, 0x00),
		  "item 1 at byte 0: Report ID 0 (1..255)" },
		{ "Report ID 256", B(0x86, 0x00, 0x01),
		  "item 1 at byte 0: Report ID 256 (1..255)" },
		{ "usage min > max", B(0x05, 0x09, 0x19, 0x05, 0x29, 0x02),
		  "item 3 at byte 4: Usage Minimum 0x5 over Usage Maximum 0x2" },
		{ "usage range across pages", B(0x05, 0x09, 0x1b, 0x01, 0x00, 0x01, 0x00, 0x29, 0x02),
		  "item 3 at byte 7: Usage Minimum 0x00010001 and Maximum 0x00090002 on different pages" },
		{ "nested Delimiter", B(0xa9, 0x01, 0xa9, 0x01),
		  "item 2 at byte 2: nested Delimiter" },
		{ "Delimiter close alone", B(0xa9, 0x00),
		  "item 1 at byte 0: Delimiter close without an open" },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(cases); i++) {
		struct tt_hid_desc sentinel;
		struct tt_hid_desc *d = &sentinel;	/* untouched on failure */
		_cleanup_free_ char *why = NULL;
		fprintf(stderr, "   %s\n", cases[i].what);
		check_int_eq(tt_hid_desc_parse(cases[i].bytes, cases[i].len, &d, &why), -EINVAL);
		check(d == &sentinel);
		check_str_eq(why, cases[i].message);
		/* A NULL @why is allowed. */
		check_int_eq(tt_hid_desc_parse(cases[i].bytes, cases[i].len, &d, NULL), -EINVAL);
	}
}

/* Counts past TT_HID_MAX_*: built in a buffer. */
static void
test_limits(void)
{
	uint8_t buf[8200];
	size_t n = 0;
	_cleanup_free_ char *why = NULL;
	struct tt_hid_desc *d = NULL;

	/* 513 nested collections. */
	for (unsigned i = 0; i < TT_HID_MAX_COLLECTIONS + 1; i++) {
		buf[n++] = 0xa1;
		buf[n++] = 0x02;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 513 at byte 1024: more than 512 collections");
	free(steal(&why));

	/* 1025 one-bit fields. */
	n = 0;
	buf[n++] = 0x75; buf[n++] = 0x01; buf[n++] = 0x95; buf[n++] = 0x01;
	for (unsigned i = 0; i < TT_HID_MAX_FIELDS + 1; i++) {
		buf[n++] = 0x81;
		buf[n++] = 0x02;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 1027 at byte 2052: more than 1024 fields");
	free(steal(&why));

	/* 4097 usages before a main item. */
	n = 0;
	for (unsigned i = 0; i < TT_HID_MAX_USAGES + 1 && n + 2 <= sizeof(buf); i++) {
		buf[n++] = 0x09;
		buf[n++] = 0x01;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 4097 at byte 8192: more than 4096 usages before a main item");
	check(d == NULL);
}

static void
test_usage_names(void)
{
	char buf[32];

	check_str_eq(tt_hid_usage_name(DIG(0x42), buf, sizeof(buf)), "Digitizers/Tip Switch");
	check_str_eq(tt_hid_usage_name(GD(0x30), buf, sizeof(buf)), "Generic Desktop/X");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(TT_HID_UP_BUTTON, 3), buf, sizeof(buf)), "Button/3");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(0xff00, 1), buf, sizeof(buf)), "0xff00/0x0001");
	check_str_eq(tt_hid_usage_name(DIG(0xff), buf, sizeof(buf)), "Digitizers/0x00ff");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(0x0c, 0x238), buf, sizeof(buf)), "Consumer/0x0238");
	/* hid-decode's spelling, as in hid-recorder files' comments. */
	check_str_eq(tt_hid_usage_name(DIG(0x51), buf, sizeof(buf)), "Digitizers/Contact Id");
	check_str_eq(tt_hid_usage_name(DIG(0x55), buf, sizeof(buf)), "Digitizers/Contact Max");
	/* The longest number form still fits in 32 bytes. */
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(0x06, 0xffff), buf, sizeof(buf)),
		     "Generic Device Controls/0xffff");
}

int
main(void)
{
	test_corpus_recordings();
	RUN(test_hid_tools_multitouch);
	RUN(test_short_report);
	RUN(test_signed_ranges);
	RUN(test_usage_pages);
	RUN(test_usage_lists);
	RUN(test_wide_values);
	RUN(test_pen_and_styli);
	RUN(test_unnumbered_features);
	RUN(test_malformed);
	RUN(test_limits);
	RUN(test_usage_names);
	return tt_test_result();
}
