/* SPDX-License-Identifier: MIT */
/*
 * replay --hid --verify: a kernel HID regression check. The evdev devices
 * the kernel's driver made of the replayed reports are read back
 * (evdev/evdev-capture.h) and their frames compared, in order, with the
 * recording's evdev frames of the devices the hid_device lists, paired by
 * name (the driver names them from the HID device's name).
 *
 * Differences that do not mean the driver changed are explained, each
 * counted under its reason: tracking IDs (the kernel numbers contacts from
 * its own counter: compared by order of appearance), MSC_TIMESTAMP (counts
 * from the driver's creation), recorded frames older than the device's
 * first report (the evdev state before the HID recording began), and the
 * frames of replay's own lift at the end. Anything else is unexplained,
 * and fails the replay.
 */
#pragma once

#include <stdio.h>

#include "event-loop.h"
#include "hid-player.h"

struct rp_hid_verify;

enum rp_hid_reason {
	RP_HR_TRACKING_ID,	/* tracking id renumbered by the kernel */
	RP_HR_TIMESTAMP,	/* MSC_TIMESTAMP from the driver's own start */
	RP_HR_BEFORE_REPORTS,	/* recorded frame before the first HID report */
	RP_HR_LIFT,		/* delivered frame of replay's lift */
	RP_HR_COUNT,
};
const char *rp_hid_reason_name(enum rp_hid_reason r);

struct rp_hid_verify_result {
	size_t pairs;			/* evdev devices compared */
	size_t expected_frames;
	size_t received_frames;
	size_t unexplained;
	size_t reasons[RP_HR_COUNT];
};

struct rp_hid_verify *rp_hid_verify_new(const struct rp_hid_schedule *s);
void rp_hid_verify_free(struct rp_hid_verify *v);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_hid_verify *, rp_hid_verify_free);

/* Reads @node (named @name, made for HID device @hid, a schedule index)
 * from @loop when a recorded evdev device of that HID device has that
 * name. 1 attached, 0 nothing recorded to compare it with, or a negative
 * errno opening it. */
int rp_hid_verify_attach(struct rp_hid_verify *v, uint32_t hid, const char *node,
			 const char *name, struct tt_loop *loop);
/* True once a node was attached: something to compare. */
bool rp_hid_verify_any(const struct rp_hid_verify *v);
/* Just before the lift's reports: reads what is there, and counts every
 * frame after it as the lift's. */
void rp_hid_verify_lifting(struct rp_hid_verify *v, struct tt_loop *loop);
/* Reads until nothing more arrives for a while, at most @timeout_ms. */
void rp_hid_verify_drain(struct rp_hid_verify *v, struct tt_loop *loop, int timeout_ms);
/* Compares, prints the unexplained differences (at most @max_shown) to
 * @out, and fills @res. */
void rp_hid_verify_compare(struct rp_hid_verify *v, FILE *out, size_t max_shown,
			   struct rp_hid_verify_result *res);
void rp_hid_verify_print(FILE *out, const struct rp_hid_verify_result *res);
