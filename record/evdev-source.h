/* SPDX-License-Identifier: MIT */
/*
 * The evdev devices as the recorder's first capture source
 * (evdev/capture-source.h): each device's capture (evdev/evdev-capture.h)
 * on the loop, its device record with its surroundings in every file,
 * its frames written one by one, its SYN_DROPPED counted into a drops
 * marker, its removal a device-removed marker (the last one's ends the
 * recording). With --hid, each device's HID reports are read just
 * before its frames (hid/hidraw-source.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture-source.h"
#include "evdev-capture.h"

struct tt_evdev_source_options {
	unsigned int capture_flags;	/* TT_CAPTURE_GRAB, TT_CAPTURE_SHOW_KEYCODES */
	bool with_serials;	/* keep serial numbers (uniq, ID_SERIAL, ...) */
	bool quirks;		/* ask libinput which quirks match (--libinput) */
	bool quiet;
};

struct tt_evdev_source;
struct tt_hid_source;

extern const struct tt_source_ops tt_evdev_source_ops;

/* Opens @paths (device i gets the record id i) and gathers what the
 * system says of each. Errors are reported here. 0 or -errno. */
int tt_evdev_source_new(const struct tt_evdev_source_options *opts, char *const *paths,
			size_t npaths, struct tt_evdev_source **out);
void tt_evdev_source_free(struct tt_evdev_source *es);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_evdev_source *, tt_evdev_source_free);

/* For the hidraw source: the devices, and whether each still records. */
size_t tt_evdev_source_count(const struct tt_evdev_source *es);
const struct tt_capture *tt_evdev_source_capture(const struct tt_evdev_source *es, size_t i);
const char *tt_evdev_source_node(const struct tt_evdev_source *es, size_t i);
bool tt_evdev_source_active(const struct tt_evdev_source *es, size_t i);
/* Device i's HID reports are read from @hid just before its frames. */
void tt_evdev_source_set_hid(struct tt_evdev_source *es, struct tt_hid_source *hid);
