/* SPDX-License-Identifier: MIT */
/*
 * --verify: reads every created device back through evdev while replaying
 * (evdev/evdev-capture.h), predicts what the kernel must deliver for what
 * was written (kernel-model.h), and compares the two frame by frame.
 * Differences between the recording and the delivery that the model
 * predicts are explained (with their reason); anything else is an
 * unexplained difference, and the replay fails.
 *
 * Both streams, what the kernel must deliver and what it delivered, also
 * go through the pass validate and analyze run (lib/detect.h): an anomaly
 * the delivery has more of than expected (a jump, a flicker, a
 * SYN_DROPPED...) fails the replay too, under the catalog's name. What
 * the recording itself has is expected as well, so it is never blamed on
 * the replay.
 */
#pragma once

#include <stdio.h>

#include "diag-tally.h"
#include "event-loop.h"
#include "kernel-model.h"
#include "player.h"
#include "schedule.h"

struct rp_verify;

struct rp_verify *rp_verify_new(const struct rp_schedule *s);
void rp_verify_free(struct rp_verify *v);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_verify *, rp_verify_free);

/* Opens @node for device @dev (created with @abs, ABS_CNT entries) and
 * reads it from @loop. 0 or a negative errno. */
int rp_verify_attach(struct rp_verify *v, uint32_t dev, const char *node,
		     const struct input_absinfo *abs, struct tt_loop *loop);
/* Just before a frame is written to device @dev: what the kernel will
 * filter it with (its fuzz may change under the replay). */
void rp_verify_writing(struct rp_verify *v, uint32_t dev);
/* Every frame written to device @dev, with the player's tag. */
void rp_verify_written(struct rp_verify *v, uint32_t dev, const struct input_event *ev,
		       size_t n, int64_t tag);
/* Reads until every expected frame arrived or @timeout_ms passed. */
void rp_verify_drain(struct rp_verify *v, struct tt_loop *loop, int timeout_ms);

struct rp_verify_result {
	size_t expected_frames;
	size_t received_frames;
	size_t unexplained;
	size_t reasons[RP_R_COUNT];
	/* Anomalies per kind the delivery has beyond what was expected. */
	uint64_t new_anomalies[TT_CHECK_COUNT];
	uint64_t anomalies;
	/* Kernel timestamps against the deadlines, per recorded frame. */
	size_t ntimed;
	struct rp_summary kernel;
};

/* Compares, prints every unexplained difference (at most @max_shown) to
 * @out, and fills @res. @stats gives the deadlines. */
void rp_verify_compare(struct rp_verify *v, const struct rp_stats *stats, FILE *out,
		       size_t max_shown, struct rp_verify_result *res);
