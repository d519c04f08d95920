/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <time.h>

#include "clock.h"
#include "util-time.h"

struct rp_live_clock {
	struct tt_loop *loop;
	struct tt_loop_source *timer;
	int stop_signal;
};

/* tt_loop_run's status in a wait: the deadline came, or a stop. */
enum { WAIT_DUE = 0, WAIT_STOPPED = 1 };

static void
on_timer(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)source;
	(void)events;
	(void)userdata;
	tt_loop_quit(loop, WAIT_DUE);
}

static void
on_signal(struct tt_loop *loop, int signo, void *userdata)
{
	struct rp_live_clock *c = userdata;

	if (!c->stop_signal)
		c->stop_signal = signo;
	tt_loop_quit(loop, WAIT_STOPPED);
}

void
rp_live_clock_free(struct rp_live_clock *c)
{
	if (!c)
		return;
	tt_loop_free(c->loop);
	free(c);
}

int
rp_live_clock_new(int64_t spin_max_us, struct rp_live_clock **out)
{
	_cleanup_(rp_live_clock_freep) struct rp_live_clock *c = tt_zalloc(sizeof(*c));
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	int rc;

	c->loop = tt_loop_new();
	if (!c->loop)
		return -errno;
	rc = tt_loop_add_signals(c->loop, signals, (int)ARRAY_LENGTH(signals), on_signal, c);
	if (rc < 0)
		return rc;
	c->timer = tt_loop_add_timer(c->loop, on_timer, c);
	if (!c->timer)
		return -errno;
	tt_loop_timer_set_spin(c->timer, spin_max_us);
	*out = steal(&c);
	return 0;
}

struct tt_loop *
rp_live_clock_loop(struct rp_live_clock *c)
{
	return c->loop;
}

int
rp_live_clock_stop_signal(const struct rp_live_clock *c)
{
	return c->stop_signal;
}

static int64_t
live_now(void *data)
{
	(void)data;
	return tt_now_us(CLOCK_MONOTONIC);
}

static int
live_wait_until(void *data, int64_t deadline_us)
{
	struct rp_live_clock *c = data;
	int rc;

	/* A stop is final: the player's release must not wait again. */
	if (c->stop_signal)
		return WAIT_STOPPED;
	rc = tt_loop_timer_set(c->timer, deadline_us);
	if (rc < 0)
		return rc;
	return tt_loop_run(c->loop);
}

struct rp_clock
rp_live_clock_get(struct rp_live_clock *c)
{
	return (struct rp_clock){ .now = live_now, .wait_until = live_wait_until, .data = c };
}
