/* SPDX-License-Identifier: MIT */
/*
 * Keeps a replay from typing into the user's session: the keys
 * lib/tables/keymask.h guards (letters, digits, Enter, modifiers, function and
 * power keys...) are left out of the devices replay creates, unless the
 * user allows them. A touch device, a mouse or a tablet is replayed
 * without those keys (they are not enabled on the uinput device, their
 * events are dropped); a device with nothing else to replay (a keyboard)
 * is left out whole. Buttons and the other keys a touch device has
 * (KEY_WAKEUP) are replayed. Pure: host-tested.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <linux/input.h>

#include "timeline.h"

enum rp_keyguard {
	RP_KEYS_NONE,		/* no guarded key: replayed as it is */
	RP_KEYS_FILTERED,	/* replayed without its guarded keys */
	RP_KEYS_LEAVE_OUT,	/* nothing but keys, some guarded: left out */
};

/* What becomes of @dev. For RP_KEYS_FILTERED, *out is a shallow copy of
 * @dev (its strings and slots stay @dev's: free() it, not
 * tt_device_free()) without the guarded keys; otherwise *out is untouched. */
enum rp_keyguard rp_keyguard_device(const struct tt_device *dev, struct tt_device **out);

/* Drops the guarded EV_KEY events from @ev (@n events) in place. Returns
 * how many are left. */
size_t rp_keyguard_events(struct input_event *ev, size_t n);

/* "KEY_A, KEY_B, ... (N keys)": the guarded keys @dev has, for messages. */
void rp_keyguard_list(const struct tt_device *dev, char *buf, size_t size);
