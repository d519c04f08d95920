/* SPDX-License-Identifier: MIT */
/*
 * Where the player waits and where it writes, as interfaces, so the
 * scheduler is tested on the host with a fake clock and a buffer sink.
 *
 * The live clock is a frame timer on the one event loop
 * (evdev/event-loop.h): armed at each absolute CLOCK_MONOTONIC deadline,
 * with a spin for the last stretch so the timer's wake-up delay does not
 * become lateness, and SIGINT, SIGTERM and SIGHUP through the loop's
 * signalfd, which end a wait at once. Whatever else the loop watches
 * (the --verify readers) is served while the player waits.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include "event-loop.h"
#include "util-mem.h"

struct rp_clock {
	/* Now, in microseconds on the clock deadlines are in. */
	int64_t (*now)(void *data);
	/* 0 once @deadline_us is reached, 1 when asked to stop (a signal),
	 * or a negative errno. */
	int (*wait_until)(void *data, int64_t deadline_us);
	void *data;
};

struct rp_sink {
	/* Writes one whole frame to device @dev (schedule index). @tag is
	 * the frame's index in rp_stats (write order of recorded frames), or
	 * -1 for a neutral or preparation frame. 0 or a negative errno. */
	int (*write)(void *data, uint32_t dev, const struct input_event *ev, size_t n,
		     int64_t tag);
	void *data;
};

struct rp_live_clock;

/* A loop with the frame timer (spinning at most @spin_max_us, see
 * tt_loop_timer_set_spin) and the stop signals. 0 or a negative errno. */
int rp_live_clock_new(int64_t spin_max_us, struct rp_live_clock **out);
void rp_live_clock_free(struct rp_live_clock *c);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_live_clock *, rp_live_clock_free);
/* The loop, for the sources served while the player waits. */
struct tt_loop *rp_live_clock_loop(struct rp_live_clock *c);
struct rp_clock rp_live_clock_get(struct rp_live_clock *c);
/* The signal that asked to stop (0 while none). */
int rp_live_clock_stop_signal(const struct rp_live_clock *c);
