/* SPDX-License-Identifier: MIT */
/*
 * What the descriptor parser works out once for the decoder: the role of
 * each collection (a contact, a pen or nothing) and which collection a
 * contact is, so decoding a report never walks collection parents.
 * Shared by lib/hid-desc.c and lib/hid-decode.c only.
 */
#pragma once

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
