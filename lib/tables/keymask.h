/* SPDX-License-Identifier: MIT */
/*
 * Privacy masking of keyboard input.
 *
 * On a device that has any of the private keys (letters, digits,
 * punctuation, space and the keypad: the keys that type text), those keys
 * lose their identity: the n-th private key held at the same time is
 * written as the device's n-th lowest private code (KEY_1, KEY_2, ... on a
 * full keyboard), so presses, repeats and releases still pair up and the
 * timing and rollover stay visible, but what was typed does not. MSC_SCAN
 * values of such a device become 0. Every other key (Esc, Tab, Enter,
 * Backspace, modifiers, function and navigation keys) and every button
 * (BTN_*: touch, tools, mouse, tablet) is written unchanged, and devices
 * without private keys are never touched.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "timeline.h"

#define TT_KEYMASK_PLACEHOLDERS 8

struct tt_keymask {
	bool active;
	unsigned int nplaceholders;
	uint16_t placeholders[TT_KEYMASK_PLACEHOLDERS];
	/* held[i]: the real code behind placeholders[i], 0 when free */
	uint16_t held[TT_KEYMASK_PLACEHOLDERS];
};

/* True for the codes that are masked. */
bool tt_keymask_is_private(unsigned int code);

/* True for the keys a replay must not press on the user's session unless
 * asked: the private keys above (they type text) and the keys that
 * command it (Enter, Tab, Backspace, Delete, Escape, modifiers and locks,
 * function keys, SysRq, power, sleep, suspend, log off). Buttons (BTN_*)
 * and the other keys a touch device has (KEY_WAKEUP, volume, brightness)
 * are not guarded. */
bool tt_keymask_is_guarded(unsigned int code);

/* Prepares masking for @dev; inactive when @enabled is false or the device
 * has no private keys. */
void tt_keymask_init(struct tt_keymask *m, const struct tt_device *dev, bool enabled);

/* Masks @dev->keys_down, and remembers those keys as held. */
void tt_keymask_device(struct tt_keymask *m, struct tt_device *dev);

/* Masks one event in place (EV_KEY codes, EV_MSC MSC_SCAN values). */
void tt_keymask_event(struct tt_keymask *m, struct tt_event *e);
