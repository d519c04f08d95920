/* SPDX-License-Identifier: MIT */
/*
 * replay --hid --verify: a kernel HID regression check, the one --verify
 * (verify.h) with the recording's evdev frames as what is expected
 * (RP_VERIFY_RECORDED). Each evdev device the kernel's driver made of a
 * replayed HID device is read back and paired, by name (the driver names
 * them from the HID device's name), with a recorded evdev device the
 * hid_device lists; its expected frames are that device's recorded
 * frames from the HID device's first report on.
 */
#pragma once

#include "event-loop.h"
#include "hid-player.h"
#include "replay/verify.h"

enum rp_hid_reason {
	RP_HR_TRACKING_ID,	/* tracking id renumbered by the kernel */
	RP_HR_TIMESTAMP,	/* MSC_TIMESTAMP from the driver's own start */
	RP_HR_BEFORE_REPORTS,	/* recorded frame before the first HID report */
	RP_HR_LIFT,		/* delivered frame of replay's lift */
	RP_HR_COUNT,
};
const char *rp_hid_reason_name(enum rp_hid_reason r);

/* RECORDED, of @s's HID devices: rp_hid_verify_attach() their nodes. */
struct rp_verify *rp_hid_verify_new(const struct rp_hid_schedule *s);

/* Reads @node (named @name, made for HID device @hid, a schedule index)
 * from @loop when a recorded evdev device of that HID device has that
 * name. 1 attached, 0 nothing recorded to compare it with, or a negative
 * errno opening it. */
int rp_hid_verify_attach(struct rp_verify *v, uint32_t hid, const char *node,
			 const char *name, struct tt_loop *loop);
