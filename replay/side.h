/* SPDX-License-Identifier: MIT */
/*
 * What carries a replay, behind two small interfaces, so one pipeline
 * (pipeline.h) runs --dry-run, --report, --verify, --from/--to, --loop and
 * the release the same way whatever the devices are:
 *
 *  - the device side (struct rp_side_ops): uinput devices playing evdev
 *    frames (side-uinput.h), or uhid devices playing HID reports through
 *    the kernel's drivers (side-uhid.h). It plays its schedule through the
 *    clock with the one player (player.h), its steps evdev frames
 *    (frame-steps.h) or HID reports (hid-player.h): the player keeps the
 *    absolute deadlines and releases every touch whatever ends the replay;
 *    before create() (--dry-run) the side prints each step instead of
 *    writing it.
 *  - its --verify: the side attaches a reader to every device it made
 *    (verify_attach), and the one --verify (verify.h, struct
 *    rp_verify_ops) reads them back while the player writes and compares
 *    what the kernel delivered with what was expected.
 *
 * Every side op takes the side's data pointer, every verify op the
 * verifier verify_attach() gave; the side owns both.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "event-loop.h"
#include "player.h"
#include "schedule.h"

struct rp_verify_ops {
	/* After the last write: reads what is still coming, at most
	 * @timeout_ms. False when nothing was attached (nothing waited). */
	bool (*drain)(void *verifier, struct tt_loop *loop, int timeout_ms);
	/* Compares, prints the differences and the verdict to @out; true
	 * when the replay fails (unexplained differences, new anomalies). */
	bool (*conclude)(void *verifier, const struct rp_stats *st, FILE *out);
	/* The --report's ",\"verify\":{...}" member, after conclude(). */
	void (*report)(void *verifier, FILE *f);
};

struct rp_side_ops {
	/* Plays the schedule from @start_us through @clock: to the devices
	 * once create()d, printed to stdout before. As rp_play(): 0, 1 when
	 * asked to stop, or a negative errno (everything was released). */
	int (*play)(void *side, const struct rp_options *o, int64_t start_us, struct rp_clock *clock,
		    struct rp_stats *st);
	/* Creates every device on @loop and waits until the kernel made its
	 * nodes; says which unless @quiet. 0 or a negative errno (said). */
	int (*create)(void *side, struct tt_loop *loop, bool quiet);
	/* Optional: after the --verify readers, before the first write. */
	int (*start)(void *side, struct tt_loop *loop);
	/* Optional: after the last write (and --verify's drain), before the
	 * devices go: 1 when it waited for their readers, 0 when not, or a
	 * negative errno (trouble, said). */
	int (*finish)(void *side, struct tt_loop *loop, bool quiet);
	/* Frees what reads the devices from the loop (the --verify readers,
	 * libinput) before the loop goes, after the verdict; again is a no-op. */
	void (*detach)(void *side);
	/* Destroys every device (and what was set up for them); again is a
	 * no-op. */
	void (*destroy)(void *side);
	/* The count line of the summary ("replayed N frames in L loops ..."). */
	void (*print_counts)(void *side, const struct rp_stats *st, bool dry);
	/* This side's members of the --report object, each after a comma. */
	void (*report_fields)(void *side, FILE *f);
	/* For the messages: what a write error and a stop signal left. */
	const char *writing;	/* "writing to the replayed device" */
	const char *lifted;	/* "touches were released" */
	const char *released;	/* "touches and keys were released" */
	/* --verify: reads every created device back from @loop; *@verifier
	 * is the side's, for @verify's ops, until detach(). 0 or a negative
	 * errno (said). */
	int (*verify_attach)(void *side, struct tt_loop *loop, void **verifier);
	const struct rp_verify_ops *verify;
};

struct rp_side {
	const struct rp_side_ops *ops;
	void *data;
	/* The schedule's steps left after --from (none: --from is past the
	 * end) and where they came from, for the messages. */
	size_t nsteps;
	const char *source;
};
