/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "keymask.h"
#include "evnames.h"
#include "keyguard.h"
#include "util-mem.h"

static bool
has_guarded_keys(const struct tt_device *dev)
{
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (tt_device_has(dev, EV_KEY, code) && tt_keymask_is_guarded(code))
			return true;
	}
	return false;
}

/* Buttons: mouse, joystick, gamepad, digitizer (touch, tools, stylus)
 * and wheel; the codes a keyboard does not have. */
static bool
is_button(unsigned int code)
{
	return (code >= BTN_MISC && code <= BTN_GEAR_UP) ||
	       (code >= BTN_DPAD_UP && code <= BTN_DPAD_RIGHT) ||
	       (code >= BTN_TRIGGER_HAPPY && code <= BTN_TRIGGER_HAPPY40);
}

/* Whether @dev is more than a keyboard: an axis, a switch or a button. */
static bool
has_more_than_keys(const struct tt_device *dev)
{
	static const unsigned int types[] = { EV_ABS, EV_REL, EV_SW };

	for (size_t i = 0; i < ARRAY_LENGTH(types); i++) {
		unsigned int type = types[i];
		if (!bit_is_set(dev->types, type))
			continue;
		for (unsigned int code = 0; code < KEY_CNT; code++) {
			if (bit_is_set(dev->codes[type], code))
				return true;
		}
	}
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (is_button(code) && tt_device_has(dev, EV_KEY, code))
			return true;
	}
	return false;
}

enum rp_keyguard
rp_keyguard_device(const struct tt_device *dev, struct tt_device **out)
{
	struct tt_device *own;

	if (!has_guarded_keys(dev))
		return RP_KEYS_NONE;
	if (!has_more_than_keys(dev))
		return RP_KEYS_LEAVE_OUT;
	own = tt_zalloc(sizeof(*own));
	*own = *dev;
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (!tt_keymask_is_guarded(code))
			continue;
		clear_bit(own->codes[EV_KEY], code);
		clear_bit(own->keys_down, code);
	}
	*out = own;
	return RP_KEYS_FILTERED;
}

size_t
rp_keyguard_events(struct input_event *ev, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (ev[i].type == EV_KEY && tt_keymask_is_guarded(ev[i].code))
			continue;
		ev[kept++] = ev[i];
	}
	return kept;
}

void
rp_keyguard_list(const struct tt_device *dev, char *buf, size_t size)
{
	size_t used = 0, count = 0;

	buf[0] = '\0';
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		char cb[24];

		if (!tt_device_has(dev, EV_KEY, code) || !tt_keymask_is_guarded(code))
			continue;
		/* The first few by name: enough to tell a keyboard from a
		 * power button. */
		if (count++ < 6 && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", count > 1 ? ", " : "",
						 tt_code_label(cb, sizeof(cb), EV_KEY, code));
	}
	if (used < size)
		snprintf(buf + used, size - used, "%s (%zu key%s)", count > 6 ? ", ..." : "", count,
			 count == 1 ? "" : "s");
}
