/* SPDX-License-Identifier: MIT */
/*
 * What the system says about a device and the machine (formats/timeline.md,
 * "Surroundings"), gathered for record: the event node's syspath, the
 * driver of its nearest parent that has one, its udev properties (from
 * udevd's database when there is an entry, else the kernel's uevent), the
 * hwdb overrides among them, the libinput quirks that match it; and the
 * host's DMI modalias, os-release ID/VERSION_ID and library versions.
 *
 * Never the hostname; no serial numbers (tt_property_is_serial(), the
 * device's uniq) and no MAC-like addresses in property values (a Bluetooth
 * device's PHYS) unless TT_SUR_WITH_SERIALS.
 *
 * The roots are arguments so that tests can point them at fake trees
 * shaped like a real system's; record passes tt_sur_host_roots.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "timeline.h"

struct tt_sur_roots {
	const char *sysfs;	/* "/sys" */
	const char *udev_data;	/* "/run/udev/data" */
	const char *etc;	/* "/etc": os-release */
	const char *usr_lib;	/* "/usr/lib": os-release when /etc has none */
};

extern const struct tt_sur_roots tt_sur_host_roots;

enum tt_sur_flags {
	TT_SUR_WITH_SERIALS = 1 << 0,
};

/*
 * Fills @dev's syspath, driver, udev and hwdb (dev's absinfo must be
 * filled: the hwdb rule compares against it) for the evdev character
 * device @rdev. What cannot be found stays unknown; uniq is cleared unless
 * TT_SUR_WITH_SERIALS. 0, or -ENODEV when sysfs has no entry for @rdev
 * (@dev then untouched).
 */
int tt_sur_gather_device(const struct tt_sur_roots *roots, dev_t rdev, unsigned int flags,
			 struct tt_device *dev);

/* Fills the header's "system": DMI modalias, os-release, versions. */
void tt_sur_gather_system(const struct tt_sur_roots *roots, struct tt_header *h);

/*
 * The quirks libinput matches for @node: `@tool quirks list @node` (@tool
 * "libinput"), each line one quirk. 0 (dev->has_quirks set, maybe none),
 * -ENOENT when the tool is not installed, -EIO when it failed for the
 * device; @dev untouched on failure.
 */
int tt_sur_gather_quirks(const char *tool, const char *node, struct tt_device *dev);

/* What record keeps per device: a device holding only the surroundings,
 * with @dev's codes and axes (the hwdb rule compares against them). */
struct tt_device *tt_sur_holder_new(const struct tt_device *dev);

/* @out (a shallow copy of the captured device, about to be written)
 * borrows @holder's surroundings; its uniq is dropped unless
 * TT_SUR_WITH_SERIALS. Nothing in @out is to be freed. */
void tt_sur_lend(struct tt_device *out, const struct tt_device *holder, unsigned int flags);

/* A Bluetooth phys is the adapter's address: like a serial, kept only
 * @with_serials. Points *@phys at a masked copy, returned to be freed,
 * when it holds one; else NULL. */
char *tt_sur_private_phys(bool with_serials, char **phys);
