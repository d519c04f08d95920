/* SPDX-License-Identifier: MIT */
/*
 * Where the player waits and where it writes, as interfaces, so the
 * scheduler is tested on the host with a fake clock and a buffer sink.
 *
 * Production clock (rp_loop): one epoll holding a timerfd armed at each
 * absolute CLOCK_MONOTONIC deadline (TFD_TIMER_ABSTIME), a signalfd for
 * SIGINT, SIGTERM and SIGHUP, and any extra fds (the --verify readers)
 * with their callbacks. A signal ends the wait at once; no work happens in
 * a signal handler. The timer is armed a little early and the last
 * stretch spun, so the timer's wake-up delay does not become lateness.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

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

struct rp_loop;
typedef void (*rp_fd_fn)(void *data, int fd);

/* Blocks SIGINT, SIGTERM and SIGHUP and receives them through a signalfd. */
int rp_loop_new(struct rp_loop **out);
void rp_loop_free(struct rp_loop *l);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_loop *, rp_loop_free);
int rp_loop_add_fd(struct rp_loop *l, int fd, rp_fd_fn fn, void *data);
/* Stops watching @fd: its callback is not called again. */
void rp_loop_remove_fd(struct rp_loop *l, int fd);
/* The signal that asked to stop (0 while none). */
int rp_loop_stop_signal(const struct rp_loop *l);
/* Dispatches ready fds for at most @timeout_ms (no deadline). */
int rp_loop_dispatch(struct rp_loop *l, int timeout_ms);
/* The most a wait spins on the clock before a deadline after an early
 * timer wake-up, in microseconds (0: never spin). */
#define RP_DEFAULT_SPIN_MAX_US 2000
void rp_loop_set_spin_max(struct rp_loop *l, int64_t spin_max_us);
/* A clock backed by @l: CLOCK_MONOTONIC, the timerfd and the signalfd. */
struct rp_clock rp_loop_clock(struct rp_loop *l);
