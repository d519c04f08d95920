/* SPDX-License-Identifier: MIT */
/*
 * The kernel's input devices: /dev/input/event* opened and described, for
 * `touchtape list`, the device picker and name patterns of `record`.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "evdev-capture.h"

struct tt_input_entry {
	char *node;			/* /dev/input/eventN */
	unsigned int number;		/* N */
	struct tt_capture *capture;	/* NULL when it could not be opened */
	int error;			/* -errno of the failed open, else 0 */
};

struct tt_input_list {
	struct tt_input_entry *entries;
	size_t n;
	size_t nerrors;			/* entries that could not be opened */
	size_t naccess;			/* ... for lack of permission */
};

/* Opens every /dev/input/eventN (read-only, tt_capture_open() with
 * @capture_flags besides TT_CAPTURE_SHOW_KEYCODES) and sorts them:
 * touch-capable first, then by N. 0 or -errno (-ENOENT when /dev/input
 * does not exist). */
int tt_input_scan(struct tt_input_list *list, unsigned int capture_flags);
void tt_input_list_clear(struct tt_input_list *list);

/* "touchscreen", "touchpad", "tablet", "touch", "keyboard", "pointer" or
 * "other". */
const char *tt_device_kind(const struct tt_device *dev);
/* What --all-touch records: touch devices and pens (a tablet, or the
 * stylus of a touchscreen, a device of its own). */
bool tt_device_is_touch_input(const struct tt_device *dev);
/* The sysfs directory of the HID device that made the evdev device at
 * @node (hidraw-sysfs.h), or NULL when it has none: evdev devices with
 * the same one are one HID device's children (a touchscreen and its pen,
 * a keyboard and its touchpad). */
char *tt_input_hid_syspath(const char *node);

/* "direct" (INPUT_PROP_DIRECT) or "pointer" for touch devices, else "". */
const char *tt_device_touch_mode(const struct tt_device *dev);
const char *tt_mt_protocol_name(enum tt_mt_protocol p);

/* True when @pattern names @dev: a glob (with * ? [) matched against the
 * whole name, otherwise a case-insensitive substring of the name. */
bool tt_device_name_matches(const struct tt_device *dev, const char *pattern);

/* The message for a device that could not be opened, with what to do
 * about permissions. */
void tt_input_open_error(const char *node, int error);
