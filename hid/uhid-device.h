/* SPDX-License-Identifier: MIT */
/*
 * A HID device recreated through /dev/uhid from a recorded struct
 * tt_hid_device (UHID_CREATE2: descriptor, bus, vendor, product, version,
 * country, name, phys), so the kernel binds its own driver
 * (hid-multitouch, hid-generic, wacom) and that driver makes the evdev
 * devices. Its uniq is RP_UHID_UNIQ_PREFIX plus the process id and an
 * index: two replays never collide, and a desktop can ignore replayed
 * devices (a udev rule matching ATTRS{uniq}=="touchtape-replay:*").
 *
 * The uhid fd is a source of the caller's event loop: the driver's
 * requests arrive there, while the device binds and during the replay.
 * GET_REPORT of a feature report is answered with the recorded bytes, or
 * EIO where the recording has none or recorded an error (what the device
 * answered); SET_REPORT is acknowledged; output reports are dropped.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "event-loop.h"
#include "timeline.h"
#include "util-mem.h"

#define RP_UHID_UNIQ_PREFIX "touchtape-replay:"

struct rp_uhid;

/* Opens /dev/uhid, creates the device as @dev (index @index of this
 * replay, for its uniq) and watches the fd on @loop. 0 or a negative
 * errno; on failure @why (of @whysize) says what to do. */
int rp_uhid_create(const struct tt_hid_device *dev, uint32_t index, struct tt_loop *loop,
		   struct rp_uhid **out, char *why, size_t whysize);
/* Serves @loop until the kernel's driver is bound and each evdev device it
 * made has its /dev/input node, at most @timeout_ms. 0, -ETIMEDOUT (@why
 * says what was missing), or another negative errno. */
int rp_uhid_wait_bound(struct rp_uhid *u, struct tt_loop *loop, int timeout_ms, char *why,
		       size_t whysize);
/* The driver bound (empty before), the hidraw node (or NULL), and the
 * /dev/input/eventN nodes the driver made, in input device order. */
const char *rp_uhid_driver(const struct rp_uhid *u);
const char *rp_uhid_hidraw(const struct rp_uhid *u);
size_t rp_uhid_nnodes(const struct rp_uhid *u);
const char *rp_uhid_node(const struct rp_uhid *u, size_t i);
/* The evdev device name of node @i ("ELAN1206:00 04F3:30F1 Touchpad"). */
const char *rp_uhid_node_name(const struct rp_uhid *u, size_t i);
/* One input report (UHID_INPUT2), report ID byte first when numbered.
 * 0, -EMSGSIZE over UHID_DATA_MAX, or a negative errno. */
int rp_uhid_input(struct rp_uhid *u, const uint8_t *data, size_t len);

struct rp_uhid_counts {
	size_t get_answered;	/* GET_REPORT answered from the recording */
	size_t get_refused;	/* answered EIO */
	size_t set_acked;	/* SET_REPORT acknowledged */
	size_t outputs;		/* output reports dropped */
};
const struct rp_uhid_counts *rp_uhid_counts(const struct rp_uhid *u);

/* UHID_DESTROY (the kernel removes the evdev devices) and close. NULL-safe. */
void rp_uhid_destroy(struct rp_uhid *u);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_uhid *, rp_uhid_destroy);
