/* SPDX-License-Identifier: MIT */
/*
 * Masking keys in HID input reports (hid/hid-keymask.h), on a descriptor
 * built here: a touchscreen (report 1), a boot-style keyboard (report 3:
 * modifier bitmap, reserved byte, six key slots) and an n-key-rollover
 * bitmap of the letters a..z and 1 (report 4), as a combined device
 * declares them. record-hid-vm.sh creates the same device through uhid.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "hid-keymask.h"
#include "test-common.h"

static const uint8_t combined[] = {
	0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01,		/* Digitizers, Touch Screen, Application */
	0x85, 0x01, 0x09, 0x22, 0xa1, 0x02,		/* report 1, Finger, Logical */
	0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02, /* Tip */
	0x95, 0x07, 0x81, 0x03,				/* padding */
	0x09, 0x51, 0x25, 0x0f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, /* Contact Id */
	0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x26, 0xff, 0x0f, /* X, Y 0..4095 */
	0x75, 0x10, 0x95, 0x02, 0x81, 0x02, 0xc0,
	0x05, 0x0d, 0x09, 0x54, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, /* Contact Count */
	0x85, 0x02, 0x09, 0x55, 0x25, 0x0a, 0xb1, 0x02, 0xc0, /* report 2: Contact Max */
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x85, 0x03, /* Keyboard, Application, report 3 */
	0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25, 0x01, /* modifiers */
	0x75, 0x01, 0x95, 0x08, 0x81, 0x02,
	0x75, 0x08, 0x95, 0x01, 0x81, 0x03,		/* reserved */
	0x19, 0x00, 0x29, 0x65, 0x15, 0x00, 0x25, 0x65, /* six key slots, usages 0..0x65 */
	0x75, 0x08, 0x95, 0x06, 0x81, 0x00,
	0x85, 0x04, 0x19, 0x04, 0x29, 0x1e, 0x15, 0x00, 0x25, 0x01, /* report 4: a..z, 1 */
	0x75, 0x01, 0x95, 0x1b, 0x81, 0x02, 0x95, 0x05, 0x81, 0x03, 0xc0,
};

/* A keyboard without report IDs: reserved byte, four key slots. */
static const uint8_t keyboard[] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07,
	0x75, 0x08, 0x95, 0x01, 0x81, 0x03,
	0x19, 0x00, 0x29, 0x65, 0x15, 0x00, 0x25, 0x65, 0x75, 0x08, 0x95, 0x04, 0x81, 0x00,
	0xc0,
};

static struct tt_hid_desc *
parse_combined(void)
{
	struct tt_hid_desc *d = NULL;

	check_int_eq(tt_hid_desc_parse(combined, sizeof(combined), &d, NULL), 0);
	return d;
}

static void
test_private_usages(void)
{
	check(tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x04)));	/* a */
	check(tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x27)));	/* 0 */
	check(tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x2c)));	/* space */
	check(tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x59)));	/* keypad 1 */
	check(!tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x00)));	/* no key */
	check(!tt_hid_key_is_private(TT_HID_USAGE(0x07, 0x28)));	/* Enter */
	check(!tt_hid_key_is_private(TT_HID_USAGE(0x07, 0xe1)));	/* left shift */
	check(!tt_hid_key_is_private(TT_HID_USAGE(0x09, 0x04)));	/* a button */
	check(!tt_hid_key_is_private(TT_HID_USAGE(0x0c, 0x04)));
}

/* "h", "hi" with shift, then Enter and "i" together: the n-th letter held
 * becomes the n-th placeholder (a, b, ...), no key and Enter stay. */
static void
test_array(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_combined();
	if (!d)
		return;
	check(tt_hid_desc_has_private_keys(d));

	uint8_t one[] = { 0x03, 0x00, 0x00, 0x0b, 0, 0, 0, 0, 0 };
	check_int_eq(tt_hid_keymask_report(d, one, sizeof(one)), 1);
	const uint8_t one_masked[] = { 0x03, 0x00, 0x00, 0x04, 0, 0, 0, 0, 0 };
	check(memcmp(one, one_masked, sizeof(one)) == 0);

	uint8_t two[] = { 0x03, 0x02, 0xff, 0x0b, 0x0c, 0, 0, 0, 0 };
	check_int_eq(tt_hid_keymask_report(d, two, sizeof(two)), 2);
	const uint8_t two_masked[] = { 0x03, 0x02, 0xff, 0x04, 0x05, 0, 0, 0, 0 };
	check(memcmp(two, two_masked, sizeof(two)) == 0);

	uint8_t mixed[] = { 0x03, 0x00, 0x00, 0x28, 0x0c, 0, 0, 0, 0 };
	check_int_eq(tt_hid_keymask_report(d, mixed, sizeof(mixed)), 1);
	const uint8_t mixed_masked[] = { 0x03, 0x00, 0x00, 0x28, 0x04, 0, 0, 0, 0 };
	check(memcmp(mixed, mixed_masked, sizeof(mixed)) == 0);

	/* Masked once is masked: nothing changes the second time. */
	check_int_eq(tt_hid_keymask_report(d, two, sizeof(two)), 0);
	check(memcmp(two, two_masked, sizeof(two)) == 0);

	/* Nothing held. */
	uint8_t none[] = { 0x03, 0x00, 0x00, 0, 0, 0, 0, 0, 0 };
	check_int_eq(tt_hid_keymask_report(d, none, sizeof(none)), 0);
	check(none[3] == 0 && none[4] == 0);
}

/* Three letters of the bitmap become its first three bits. */
static void
test_bitmap(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_combined();
	if (!d)
		return;
	/* h (bit 7), i (bit 8), z (bit 25), 1 (bit 26) */
	uint8_t r[] = { 0x04, 0x80, 0x01, 0x00, 0x06 };
	check_int_eq(tt_hid_keymask_report(d, r, sizeof(r)), 8);
	const uint8_t masked[] = { 0x04, 0x0f, 0x00, 0x00, 0x00 };
	check(memcmp(r, masked, sizeof(r)) == 0);
	check_int_eq(tt_hid_keymask_report(d, r, sizeof(r)), 0);
}

static void
test_touch_untouched(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_combined();
	if (!d)
		return;
	uint8_t r[] = { 0x01, 0x01, 0x05, 0x0b, 0x0c, 0x78, 0x06, 0x01 };
	uint8_t copy[sizeof(r)];

	memcpy(copy, r, sizeof(r));
	check_int_eq(tt_hid_keymask_report(d, r, sizeof(r)), 0);
	check(memcmp(r, copy, sizeof(r)) == 0);
}

/* Report IDs: undeclared, empty, and a keyboard-only descriptor without
 * any; a short report masks the slots that fit and touches nothing past
 * its length. */
static void
test_ids_and_short(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_combined();
	if (!d)
		return;
	uint8_t undeclared[] = { 0x09, 0x0b, 0x0c };
	check_int_eq(tt_hid_keymask_report(d, undeclared, sizeof(undeclared)), -ENOENT);
	check(undeclared[1] == 0x0b);
	check_int_eq(tt_hid_keymask_report(d, undeclared, 0), -EINVAL);

	uint8_t buf[9] = { 0x03, 0x00, 0x00, 0x0b, 0x0c, 0x0d, 0xee, 0xee, 0xee };
	check_int_eq(tt_hid_keymask_report(d, buf, 5), 2);
	check(buf[3] == 0x04 && buf[4] == 0x05 && buf[5] == 0x0d && buf[6] == 0xee);
	check_int_eq(tt_hid_keymask_report(d, buf, 1), 0);

	/* A keyboard alone, unnumbered. */
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *k = NULL;
	check_int_eq(tt_hid_desc_parse(keyboard, sizeof(keyboard), &k, NULL), 0);
	if (!k)
		return;
	check(!k->numbered);
	uint8_t r[] = { 0x00, 0x1e, 0x00, 0x1f, 0, 0 };
	check_int_eq(tt_hid_keymask_report(k, r, sizeof(r)), 2);
	check(r[1] == 0x04 && r[2] == 0x00 && r[3] == 0x05);
}

static bool
collect(void *data, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	uint32_t *keys = data;

	(void)f;
	if (usage >> 16 == TT_HID_UP_KEYBOARD && usage < TT_HID_USAGE(0x07, 0xe0) && value)
		keys[keys[0]++ + 1] = usage & 0xffff;
	return keys[0] < 7;
}

/* An empty key slot holds index 0, "no event": not a key pressed. */
static void
test_fields_no_key(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_combined();
	if (!d)
		return;
	const uint8_t r[] = { 0x03, 0x00, 0x00, 0x28, 0x00, 0x0b, 0, 0, 0 };
	uint32_t keys[8] = { 0 };

	check_int_eq(tt_hid_report_fields(d, r, sizeof(r), collect, keys), 0);
	check_int_eq(keys[0], 2);
	check_int_eq(keys[1], 0x28);
	check_int_eq(keys[2], 0x0b);
}

int
main(void)
{
	RUN(test_private_usages);
	RUN(test_array);
	RUN(test_bitmap);
	RUN(test_touch_untouched);
	RUN(test_ids_and_short);
	RUN(test_fields_no_key);
	return tt_test_result();
}
