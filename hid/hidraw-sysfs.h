/* SPDX-License-Identifier: MIT */
/*
 * Which HID device an evdev device came from, found in sysfs: the evdev
 * node's character device (/sys/dev/char/MAJ:MIN) is a directory below
 * its input device, which is below the HID device that created it
 * (hid-multitouch, hid-generic, wacom, ... all register their input
 * devices as children of the HID device). The HID device is the first
 * ancestor whose subsystem is "hid"; its hidraw/hidrawN child names the
 * /dev/hidrawN node. Devices of other buses (PS/2 serio, serial, uinput in
 * /sys/devices/virtual) have no such ancestor.
 *
 * The sysfs root is an argument so that tests can point it at a copy of a
 * real kernel's layout; touchtape passes "/sys".
 */
#pragma once

#include <stdint.h>
#include <sys/types.h>

struct tt_hidraw_location {
	char *hid_syspath;	/* the HID device's directory (links resolved) */
	char *hidraw_node;	/* "/dev/hidrawN" */
	uint32_t version;	/* the HID device's version (from its input device's
				   id/version, which the HID core copies), 0 if unknown */
	uint32_t country;	/* the HID device's "country" attribute, 0 if none */
};

/*
 * Finds the HID device above the evdev character device @rdev. 0, or
 * -ENOENT when the device has no HID parent, -ENXIO when it has one but
 * the parent has no hidraw node (hidraw not built or not loaded), -ENODEV
 * when sysfs has no entry for @rdev, another -errno when sysfs cannot be
 * read. *out is untouched on failure.
 */
int tt_hidraw_find(const char *sysfs_root, dev_t rdev, struct tt_hidraw_location *out);
void tt_hidraw_location_clear(struct tt_hidraw_location *loc);
char *tt_sysfs_link_base(const char *link);
