/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdbool.h>

#include "hid-desc-private.h"
#include "hid-keymask.h"

bool
tt_hid_key_is_private(uint32_t usage)
{
	if (usage >> 16 != TT_HID_UP_KEYBOARD)
		return false;
	switch (usage & 0xffff) {
	case 0x04 ... 0x27:	/* letters, digits */
	case 0x2c ... 0x38:	/* space, - = [ ] \ # ; ' ` , . / */
	case 0x54 ... 0x64:	/* the keypad, non-US \ */
	case 0x67:		/* keypad = */
	case 0x85 ... 0x87:	/* keypad comma and equal sign, RO */
	case 0x89:		/* Yen */
	case 0xb6 ... 0xb7:	/* keypad ( ) */
		return true;
	default:
		return false;
	}
}

/* The usage of value @i of a variable field, as tt_hid_report_fields()
 * names it (the last usage repeats). */
static uint32_t
variable_usage(const struct tt_hid_field *f, uint32_t i)
{
	return f->usages[i < f->nusages ? i : f->nusages - 1];
}

static bool
field_has_private(const struct tt_hid_field *f)
{
	if (f->kind != TT_HID_INPUT || (f->flags & 0x1))
		return false;
	for (uint32_t i = 0; i < f->nusages; i++)
		if (tt_hid_key_is_private(f->usages[i]))
			return true;
	return false;
}

bool
tt_hid_desc_has_private_keys(const struct tt_hid_desc *d)
{
	for (size_t i = 0; i < d->nfields; i++)
		if (field_has_private(&d->fields[i]))
			return true;
	return false;
}

/* True when @value, written into @f's bits, reads back as @value. */
static bool
fits(const struct tt_hid_field *f, int64_t value)
{
	if (f->bit_size >= 32)
		return value >= INT32_MIN && value <= INT32_MAX;
	if (f->logical_min < 0)
		return value >= -(INT64_C(1) << (f->bit_size - 1)) &&
		       value < (INT64_C(1) << (f->bit_size - 1));
	return value >= 0 && value < (INT64_C(1) << f->bit_size);
}

/* The value of the @n-th (from 0) private usage of @f that its bits can
 * hold, the last one when there are fewer; 0 when there is none (a
 * descriptor too odd to mask otherwise: the key is gone either way). */
static int64_t
placeholder(const struct tt_hid_field *f, uint32_t n)
{
	int64_t last = 0;

	for (uint32_t i = 0; i < f->nusages; i++) {
		int64_t value = (int64_t)f->logical_min + i;
		if (!tt_hid_key_is_private(f->usages[i]) || !fits(f, value))
			continue;
		last = value;
		if (n-- == 0)
			break;
	}
	return last;
}

/* The array's slots in order: each selecting a private key gets the next
 * placeholder. */
static int
mask_array(const struct tt_hid_field *f, uint8_t *bytes, size_t nbits)
{
	uint32_t held = 0;
	int changed = 0;

	for (uint32_t i = 0; i < f->count; i++) {
		size_t off = (size_t)f->bit_offset + (size_t)i * f->bit_size;
		if (off + f->bit_size > nbits)
			break;
		int32_t value = tt_hid_field_value(f, tt_hid_get_bits(bytes, off, f->bit_size));
		int64_t index = (int64_t)value - f->logical_min;
		if (index < 0 || index >= f->nusages || !tt_hid_key_is_private(f->usages[index]))
			continue;
		int64_t to = placeholder(f, held++);
		if (to == value)
			continue;
		tt_hid_put_bits(bytes, off, f->bit_size, (uint32_t)to);
		changed++;
	}
	return changed;
}

/* The private values set, cleared; then as many of the first private
 * values set, in the field's order. */
static int
mask_variable(const struct tt_hid_field *f, uint8_t *bytes, size_t nbits)
{
	uint32_t fit = 0;
	uint32_t down = 0;
	int changed = 0;

	for (uint32_t i = 0; i < f->count; i++) {
		size_t off = (size_t)f->bit_offset + (size_t)i * f->bit_size;
		if (off + f->bit_size > nbits)
			break;
		fit = i + 1;
		if (tt_hid_key_is_private(variable_usage(f, i)) &&
		    tt_hid_get_bits(bytes, off, f->bit_size))
			down++;
	}
	for (uint32_t i = 0; i < fit; i++) {
		size_t off = (size_t)f->bit_offset + (size_t)i * f->bit_size;
		if (!tt_hid_key_is_private(variable_usage(f, i)))
			continue;
		uint32_t was = tt_hid_get_bits(bytes, off, f->bit_size);
		uint32_t now = down ? 1 : 0;
		if (down)
			down--;
		if ((was != 0) == (now != 0))
			continue;
		tt_hid_put_bits(bytes, off, f->bit_size, now);
		changed++;
	}
	return changed;
}

int
tt_hid_keymask_report(const struct tt_hid_desc *d, uint8_t *data, size_t len)
{
	if (!data || len == 0)
		return -EINVAL;
	uint8_t id = d->numbered ? data[0] : 0;
	uint8_t *bytes = d->numbered ? data + 1 : data;
	size_t nbits = (d->numbered ? len - 1 : len) * 8;
	int changed = 0;

	if (!tt_hid_desc_report(d, TT_HID_INPUT, id))
		return -ENOENT;
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->report_id != id || !field_has_private(f))
			continue;
		if (f->flags & 0x2)
			changed += mask_variable(f, bytes, nbits);
		else
			changed += mask_array(f, bytes, nbits);
	}
	return changed;
}
