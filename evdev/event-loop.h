/* SPDX-License-Identifier: MIT */
/*
 * The one epoll loop of sources for long-running commands (record, replay
 * and its --verify readers): evdev fds, a signalfd, timers, and (for the
 * XI recorder) the X connection. Each source has a callback; nothing runs
 * in a signal handler. Sources may be removed from any callback,
 * including their own.
 *
 *	struct tt_loop *loop = tt_loop_new();
 *	tt_loop_add(loop, fd, on_readable, ctx);
 *	tt_loop_add_signals(loop, (int[]){ SIGINT, SIGTERM, SIGHUP }, 3, on_signal, ctx);
 *	int status = tt_loop_run(loop);	// until a callback calls tt_loop_quit()
 *
 * Timers fire at absolute CLOCK_MONOTONIC deadlines, so a sequence of
 * them never drifts. A timer given a spin (replay's frames) wakes a
 * little early and spins on the clock for the last stretch: its callback
 * runs at the deadline, not at the deadline plus the kernel's wake-up
 * delay.
 */
#pragma once

#include <stdint.h>

#include "util-mem.h"

struct tt_loop;
struct tt_loop_source;

/* @events: the epoll events (EPOLLIN, EPOLLHUP, EPOLLERR). */
typedef void (*tt_loop_fn)(struct tt_loop *loop, struct tt_loop_source *source,
			   uint32_t events, void *userdata);
/* @signo: the signal received. */
typedef void (*tt_loop_signal_fn)(struct tt_loop *loop, int signo, void *userdata);

struct tt_loop *tt_loop_new(void);
void tt_loop_free(struct tt_loop *loop);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_loop *, tt_loop_free);

/* Watches @fd (not taken over) for input. NULL on failure (errno set). */
struct tt_loop_source *tt_loop_add(struct tt_loop *loop, int fd, tt_loop_fn fn, void *userdata);
/* Stops watching; the source is freed once the current dispatch is done. */
void tt_loop_remove(struct tt_loop *loop, struct tt_loop_source *source);
int tt_loop_source_fd(const struct tt_loop_source *source);

/* Blocks @signals and delivers them through a signalfd source. 0 or -errno. */
int tt_loop_add_signals(struct tt_loop *loop, const int *signals, int nsignals,
			tt_loop_signal_fn fn, void *userdata);

/* A CLOCK_MONOTONIC timerfd source, disarmed; tt_loop_timer_set() arms it
 * to fire once at the absolute time @when_us (0 disarms; a time already
 * past fires at once). 0 or -errno. */
struct tt_loop_source *tt_loop_add_timer(struct tt_loop *loop, tt_loop_fn fn, void *userdata);
int tt_loop_timer_set(struct tt_loop_source *timer, int64_t when_us);

/* The most a timer with a spin wakes early, in microseconds, unless told. */
#define TT_LOOP_DEFAULT_SPIN_US 2000
/*
 * Makes @timer precise: it wakes up to @spin_max_us before each deadline
 * (by a margin that follows the wake-up delays seen so far) and spins on
 * the clock until the deadline before its callback, costing at most
 * @spin_max_us of CPU per firing; 0 sleeps on the timer alone. Either
 * way the process's timer slack drops to 1 ns (the default 50 us would
 * be lateness). Takes effect from the next tt_loop_timer_set().
 */
void tt_loop_timer_set_spin(struct tt_loop_source *timer, int64_t spin_max_us);

/* Runs until tt_loop_quit(); returns its status, or -errno when epoll
 * fails. */
int tt_loop_run(struct tt_loop *loop);
/* Dispatches the sources ready within @timeout_ms (-1: waits for one),
 * stopping early at tt_loop_quit(). The number of ready sources, 0 on
 * timeout or a signal handler's EINTR, or -errno. */
int tt_loop_dispatch(struct tt_loop *loop, int timeout_ms);
void tt_loop_quit(struct tt_loop *loop, int status);
