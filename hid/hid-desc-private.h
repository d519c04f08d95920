/* SPDX-License-Identifier: MIT */
/*
 * What the descriptor parser works out once for the decoder: the role of
 * each collection (a contact, a pen or nothing) and which collection a
 * contact is, so decoding a report never walks collection parents.
 * Shared by hid/hid-desc.c, hid/hid-decode.c and hid/hid-keymask.c only.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hid-desc.h"

enum tt_hid_role {
	TT_HID_ROLE_NONE = 0,
	TT_HID_ROLE_CONTACT,	/* inside a Digitizers/Finger collection */
	TT_HID_ROLE_SURFACE,	/* directly in a touch screen/pad application */
	TT_HID_ROLE_PEN,	/* inside a Stylus, Pen or Digitizer collection */
};

struct tt_hid_desc_priv {
	uint32_t *usages;	/* every field's usages, one block */
	uint8_t *roles;		/* per collection, enum tt_hid_role */
	uint32_t *roots;	/* per collection: the collection that gives the role */
};

/* Bits [@off, @off + @n) of @p, least significant bit first, the caller
 * having checked they are inside the buffer; wider than 32 bits gives the
 * low 32 bits. */
uint32_t tt_hid_get_bits(const uint8_t *p, size_t off, uint32_t n);
/* Writes @value into those bits (past 32, cleared or sign-filled). */
void tt_hid_put_bits(uint8_t *p, size_t off, uint32_t n, uint32_t value);
/* A raw value of @f as a logical value: sign-extended when logical_min < 0. */
int32_t tt_hid_field_value(const struct tt_hid_field *f, uint32_t raw);
