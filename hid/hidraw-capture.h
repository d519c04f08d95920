/* SPDX-License-Identifier: MIT */
/*
 * One hidraw node captured: the HID device it belongs to described as a
 * struct tt_hid_device (report descriptor, bus/vendor/product, name, phys,
 * uniq, and the feature reports its descriptor declares, read once at the
 * start), then every input report as the kernel queued it.
 *
 *	struct tt_hidraw *h;
 *	int rc = tt_hidraw_open("/dev/hidraw0", 0, &loc, &h);
 *	tt_hidraw_add_evdev(h, 3);	// the evdev devices it produced
 *	tt_hidraw_read_features(h);
 *	...
 *	// whenever tt_hidraw_fd(h) is readable:
 *	rc = tt_hidraw_dispatch(h, start_us, on_report, userdata);
 *	// rc == -ENODEV: the device is gone (what it queued was handed out)
 *
 * hidraw has no timestamps: a report is stamped with CLOCK_MONOTONIC (the
 * evdev timestamps' clock) right after read(2) returns it, so it is later
 * than the evdev events the kernel made of it by the reading latency.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hidraw-sysfs.h"
#include "timeline.h"
#include "util-mem.h"

struct tt_hidraw;

/* Opens @node (O_RDONLY|O_NONBLOCK|O_CLOEXEC) and describes it as HID
 * device @id; version and country come from @loc (sysfs), the rest from
 * hidraw's ioctls. 0 or -errno (-EACCES/-EPERM without permission). */
int tt_hidraw_open(const char *node, uint32_t id, const struct tt_hidraw_location *loc,
		   struct tt_hidraw **out);

/* Names one more evdev device record (by id) this HID device produced. */
void tt_hidraw_add_evdev(struct tt_hidraw *h, uint32_t evdev_id);

/* Reads, with HIDIOCGFEATURE, every feature report the descriptor
 * declares, into the device record; a report the device refuses is kept
 * with its error. 0, or -EINVAL when the descriptor does not parse (no
 * feature is read then; *why says what is wrong, caller frees). */
int tt_hidraw_read_features(struct tt_hidraw *h, char **why);

const struct tt_hid_device *tt_hidraw_device(const struct tt_hidraw *h);
int tt_hidraw_fd(const struct tt_hidraw *h);
/* Input reports handed out so far. */
size_t tt_hidraw_nreports(const struct tt_hidraw *h);

/* Called once per report; @rep is valid during the call only. A negative
 * return stops tt_hidraw_dispatch() and is returned by it. */
typedef int (*tt_hid_report_fn)(void *userdata, const struct tt_hid_report *rep);

/* Reads every report queued (non-blocking), each stamped right after its
 * read(2) with CLOCK_MONOTONIC minus @start_us. 0 when drained, -ENODEV
 * when the device is gone, another -errno, or @fn's negative return. */
int tt_hidraw_dispatch(struct tt_hidraw *h, int64_t start_us, tt_hid_report_fn fn,
		       void *userdata);

void tt_hidraw_free(struct tt_hidraw *h);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_hidraw *, tt_hidraw_free);
