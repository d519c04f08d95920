/* SPDX-License-Identifier: MIT */
/*
 * Privacy masking of keys in HID input reports: the HID layer's twin of
 * lib/tables/keymask.h.
 *
 * A combined device (a type cover with its touchpad, a touchscreen whose
 * descriptor also declares a keyboard) sends what is typed in its input
 * reports. Every value of an input field that selects or sets a private
 * key on the Keyboard/Keypad page (0x07: letters, digits, punctuation,
 * space, the keypad; the keys tt_keymask_is_private() masks in evdev)
 * loses its identity, report by report:
 * - array fields (the usual boot keyboard's six key slots): the n-th
 *   private key listed in the field becomes the n-th lowest private key
 *   the field can select; index 0 ("no key") and the other keys stay;
 * - variable fields (bitmaps, one bit per key): the private keys set are
 *   cleared and as many of the field's first private keys are set.
 * A report holds as many keys down after masking as before, so a replay
 * presses and releases as many keys, at the same times; what was typed is
 * gone. Masking a masked report changes nothing, which is how
 * validate --privacy tells a masked report from one in clear.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hid-desc.h"

#define TT_HID_UP_KEYBOARD 0x07

/* True for a Keyboard/Keypad page usage (full 32-bit) that types text. */
bool tt_hid_key_is_private(uint32_t usage);

/* True when an input field of @d can carry a private key. */
bool tt_hid_desc_has_private_keys(const struct tt_hid_desc *d);

/* Masks input report @data (@len bytes, ID byte first when the descriptor
 * is numbered) in place; values that do not fit in a short report are
 * left alone. Returns how many values changed (0: nothing private in
 * it), -EINVAL for an empty report, -ENOENT for an undeclared one. */
int tt_hid_keymask_report(const struct tt_hid_desc *d, uint8_t *data, size_t len);
