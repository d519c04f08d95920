/* SPDX-License-Identifier: MIT */
/*
 * --hid: the hidraw nodes as a capture source of the recorder
 * (evdev/capture-source.h), added after the evdev source it reads
 * beside. One node per HID device, shared by the evdev devices that HID
 * device produced; its HID device record follows the evdev device
 * records in every file, and an evdev device without one gets a note
 * saying why. Reports are masked like the evdev keys unless
 * --show-keycodes. A node that fails ends its own source; evdev goes on.
 *
 * The evdev source reads a device's node just before its frames (the HID
 * core queues a report before the driver makes evdev events of it), so
 * the report is in the file before the frames it produced.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "capture-source.h"
#include "record/evdev-source.h"

struct tt_hid_source;

extern const struct tt_source_ops tt_hid_source_ops;

/* Finds and opens the hidraw node behind each device of @es and links
 * @es to it; a device without one is recorded all the same, with a note.
 * @capture_flags: TT_CAPTURE_SHOW_KEYCODES. */
void tt_hid_source_new(struct tt_evdev_source *es, unsigned int capture_flags, bool with_serials,
		       struct tt_hid_source **out);
void tt_hid_source_free(struct tt_hid_source *hs);

/* Reads and writes what the node behind evdev device @index holds; NULL
 * @hs or no node: nothing. */
void tt_hid_source_read_for(struct tt_hid_source *hs, size_t index);
/* Every node's. */
void tt_hid_source_read_all(struct tt_hid_source *hs);
