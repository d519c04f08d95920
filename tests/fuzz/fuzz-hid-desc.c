/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the HID report descriptor parser and the report
 * decoder (hid/hid-desc.h): both read what a device (or a file claiming to
 * be one) hands us.
 *
 * Input: a 2-byte little-endian descriptor length, the descriptor, then
 * reports, each a length byte and its bytes (cut short where the input
 * ends). Every report sits in a buffer of exactly its length, so ASan
 * sees any read past it. A parsed descriptor must be consistent (every
 * field inside its report, bounded counts, parents before children); a
 * refused one must say where ("item N at byte B: ..."). Every report is
 * also masked (hid/hid-keymask.h): a masked report masked again must not
 * change.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hid-desc.h"
#include "hid-keymask.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-hid-desc: %s\n", what);
	abort();
}

static void
check_desc(const struct tt_hid_desc *d)
{
	char buf[32];

	if (d->nfields > TT_HID_MAX_FIELDS || d->ncollections > TT_HID_MAX_COLLECTIONS)
		fail("a count past its limit");
	for (size_t i = 0; i < d->ncollections; i++) {
		if (d->collections[i].parent != UINT32_MAX && d->collections[i].parent >= i)
			fail("a collection's parent after it");
	}
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		const struct tt_hid_report_info *r = tt_hid_desc_report(d, f->kind, f->report_id);
		if (!r || (uint64_t)f->bit_offset + (uint64_t)f->count * f->bit_size > r->bits)
			fail("a field outside its report");
		if (r->bits > TT_HID_MAX_REPORT_BYTES * 8)
			fail("a report over the limit");
		if (f->collection != UINT32_MAX && f->collection >= d->ncollections)
			fail("a field in no collection");
		for (uint32_t u = 0; u < f->nusages; u++)
			tt_hid_usage_name(f->usages[u], buf, sizeof(buf));
	}
	uint8_t ids[256];
	size_t n = tt_hid_desc_feature_ids(d, ids, sizeof(ids));
	for (size_t i = 1; i < n; i++) {
		if (ids[i] <= ids[i - 1])
			fail("feature IDs not ascending");
	}
	(void)tt_hid_desc_is_touch(d);
}

static bool
count_value(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	uint64_t *sum = data;

	(void)f;
	*sum += usage ^ (uint32_t)value;
	return true;
}

#define TIP_SWITCH TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x42)

static bool
no_tip_down(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	(void)data;
	if ((f->flags & 0x3) == 0x2 && usage == TIP_SWITCH && value != 0)
		fail("a Tip Switch still on after tt_hid_report_set()");
	return true;
}

static void
decode_one(const struct tt_hid_desc *d, const uint8_t *bytes, size_t len)
{
	uint8_t *report = malloc(len ? len : 1);
	struct tt_hid_decoded out;
	uint64_t sum = 0;

	memcpy(report, bytes, len);
	int rc = tt_hid_decode(d, report, len, &out);
	if (rc == 0 && out.ncontacts > TT_HID_MAX_CONTACTS)
		fail("too many contacts");
	if (rc == 0 && out.declared && !out.short_report) {
		const struct tt_hid_report_info *r = tt_hid_desc_report(d, TT_HID_INPUT, out.report_id);
		if ((uint64_t)(len - (d->numbered ? 1 : 0)) * 8 < r->bits)
			fail("a short report not marked short");
	}
	tt_hid_report_fields(d, report, len, count_value, &sum);
	tt_hid_report_fields_kind(d, TT_HID_FEATURE, report, len, count_value, &sum);
	/* Masking keys: in place, within the report, and once is enough. */
	if (tt_hid_keymask_report(d, report, len) >= 0) {
		if (tt_hid_keymask_report(d, report, len) != 0)
			fail("a masked report changed when masked again");
	}
	/* A lift report written over it: no variable Tip Switch left on. */
	if (tt_hid_report_set(d, report, len, TIP_SWITCH, 0) > 0)
		tt_hid_report_fields(d, report, len, no_tip_down, NULL);
	free(report);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return -1;
	size_t dlen = (size_t)data[0] | (size_t)data[1] << 8;
	data += 2;
	size -= 2;
	if (dlen > size)
		dlen = size;

	struct tt_hid_desc *d = NULL;
	char *why = NULL;
	int rc = tt_hid_desc_parse(data, dlen, &d, &why);
	if (rc < 0) {
		if (!why || strncmp(why, "item ", 5) != 0 || d)
			fail("a refusal without its message, or with a descriptor");
		free(why);
		return 0;
	}
	check_desc(d);
	(void)tt_hid_desc_has_private_keys(d);
	for (size_t off = dlen; off < size;) {
		size_t len = data[off++];
		if (len > size - off)
			len = size - off;
		decode_one(d, data + off, len);
		off += len;
	}
	tt_hid_desc_free(d);
	return 0;
}
