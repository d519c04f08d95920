/* SPDX-License-Identifier: MIT */
/*
 * --verify, for evdev frames and HID reports alike: every evdev device the
 * replay made is read back (evdev/evdev-capture.h) while the player
 * writes, and what it delivered is compared, frame by frame and in order,
 * with what was expected of it. Differences with a known cause are
 * explained (counted under their reason); anything else is an
 * unexplained difference, and the replay fails. What is expected:
 *
 *  - RP_VERIFY_WRITTEN (replayed evdev frames, uinput): what the kernel
 *    must deliver for each write, predicted by kernel-model.h, which
 *    explains what its filtering changes (verify-written.c). Both streams
 *    also go through the pass validate and analyze run (lib/analysis/detect.h): an
 *    anomaly the delivery has more of than expected (a jump, a flicker, a
 *    SYN_DROPPED...) fails the replay too, under the catalog's name; the
 *    kernel's timestamps are timed against the deadlines.
 *  - RP_VERIFY_RECORDED (replayed HID reports, uhid): the recording's own
 *    evdev frames of the device the kernel's driver made, paired by name
 *    (hid-verify.h). Explained: tracking ids (compared by order of
 *    appearance: the kernel numbers contacts from its own counter),
 *    MSC_TIMESTAMP (counts from the driver's creation), recorded frames
 *    older than the device's first report (the evdev state before the
 *    HID recording began), the frames of replay's lift at the end.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "diag-tally.h"
#include "event-loop.h"
#include "kernel-model.h"
#include "player.h"
#include "schedule.h"
#include "side.h"

enum rp_verify_kind {
	RP_VERIFY_WRITTEN,
	RP_VERIFY_RECORDED,
};

struct rp_verify_result {
	enum rp_verify_kind kind;
	size_t readers;			/* evdev devices compared */
	size_t expected_frames;
	size_t received_frames;
	size_t unexplained;
	/* Per reason: enum rp_reason (WRITTEN), enum rp_hid_reason
	 * (RECORDED). */
	size_t reasons[RP_R_COUNT];
	const char *(*reason_name)(int r);
	/* WRITTEN: anomalies per kind the delivery has beyond what was
	 * expected, and the kernel's timestamps against the deadlines, per
	 * recorded frame. */
	uint64_t new_anomalies[TT_CHECK_COUNT];
	uint64_t anomalies;
	size_t ntimed;
	struct rp_summary kernel;
};

struct rp_verify;

/* WRITTEN, of @s's devices: rp_verify_attach() each. */
struct rp_verify *rp_verify_new(const struct rp_schedule *s);
void rp_verify_free(struct rp_verify *v);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_verify *, rp_verify_free);

/* WRITTEN: opens @node for device @dev (created with @abs, ABS_CNT
 * entries) and reads it from @loop. 0 or a negative errno. */
int rp_verify_attach(struct rp_verify *v, uint32_t dev, const char *node,
		     const struct input_absinfo *abs, struct tt_loop *loop);
/* WRITTEN: just before a frame is written to device @dev: what the
 * kernel will filter it with (its fuzz may change under the replay). */
void rp_verify_writing(struct rp_verify *v, uint32_t dev);
/* WRITTEN: every frame written to device @dev, with the player's tag. */
void rp_verify_written(struct rp_verify *v, uint32_t dev, const struct input_event *ev,
		       size_t n, int64_t tag);
/* RECORDED: just before the lift's reports: reads what is there, and
 * counts every frame after it as the lift's. */
void rp_verify_lifting(struct rp_verify *v, struct tt_loop *loop);
/* True once a device was attached: something to compare. */
bool rp_verify_any(const struct rp_verify *v);
/* Reads until every expected frame arrived (WRITTEN) or nothing more
 * arrives for a while (RECORDED), at most @timeout_ms. */
void rp_verify_drain(struct rp_verify *v, struct tt_loop *loop, int timeout_ms);
/* Compares, prints every unexplained difference (at most @max_shown) to
 * @out, and fills @res. @stats gives the deadlines. */
void rp_verify_compare(struct rp_verify *v, const struct rp_stats *stats, FILE *out,
		       size_t max_shown, struct rp_verify_result *res);

/* The pipeline's --verify (side.h) on a struct rp_verify, for every
 * side: drain, compare and print the verdict, the --report member. */
extern const struct rp_verify_ops rp_verify_ops;
