/* SPDX-License-Identifier: MIT */
/* The event loop's timers and signals, on the host: what record and
 * replay rely on (deadlines in the past, the order of two timers, a
 * signal ending a wait on an armed timer, a spinning timer never early).
 * How late a timer is on a busy machine is no assertion here: that is
 * replay/tests/vm-replay.sh's figure and bench/'s job. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "event-loop.h"
#include "test-common.h"
#include "util-time.h"

#define MS 1000

static int64_t
now_us(void)
{
	return tt_now_us(CLOCK_MONOTONIC);
}

/* What a timer callback saw: the order it ran in and when. */
struct firing {
	int *order;		/* shared counter of callbacks run */
	int rank;		/* the counter's value when this one ran, 0: never */
	int64_t deadline_us;
	int64_t ran_us;
	bool quit;		/* end tt_loop_run when it fires */
};

static void
on_timer(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct firing *f = userdata;

	(void)source;
	(void)events;
	f->ran_us = now_us();
	f->rank = ++*f->order;
	if (f->quit)
		tt_loop_quit(loop, 0);
}

static void
test_past_deadline(void)
{
	static const int64_t spins[] = { 0, TT_LOOP_DEFAULT_SPIN_US };

	for (size_t k = 0; k < ARRAY_LENGTH(spins); k++) {
		_cleanup_(tt_loop_freep) struct tt_loop *loop = tt_loop_new();
		int order = 0;
		struct firing f = { .order = &order, .quit = true };
		struct tt_loop_source *t = tt_loop_add_timer(loop, on_timer, &f);

		check(t != NULL);
		tt_loop_timer_set_spin(t, spins[k]);
		int64_t t0 = now_us();
		check_int_eq(tt_loop_timer_set(t, t0 - 1000 * MS), 0);
		check_int_eq(tt_loop_run(loop), 0);
		check_int_eq(f.rank, 1);
		check(f.ran_us - t0 < 500 * MS);
		/* Before the clock's zero: at once too, not disarmed. */
		check_int_eq(tt_loop_timer_set(t, -5), 0);
		check_int_eq(tt_loop_run(loop), 0);
		check_int_eq(f.rank, 2);
	}
}

/* Armed in the opposite order of their deadlines: they fire in deadline
 * order, each at or after its deadline. */
static void
test_two_timers(void)
{
	_cleanup_(tt_loop_freep) struct tt_loop *loop = tt_loop_new();
	int order = 0;
	struct firing late = { .order = &order, .quit = true };
	struct firing early = { .order = &order };
	struct tt_loop_source *tl = tt_loop_add_timer(loop, on_timer, &late);
	struct tt_loop_source *te = tt_loop_add_timer(loop, on_timer, &early);
	int64_t t0 = now_us();

	late.deadline_us = t0 + 60 * MS;
	early.deadline_us = t0 + 20 * MS;
	check_int_eq(tt_loop_timer_set(tl, late.deadline_us), 0);
	check_int_eq(tt_loop_timer_set(te, early.deadline_us), 0);
	check_int_eq(tt_loop_run(loop), 0);
	check_int_eq(early.rank, 1);
	check_int_eq(late.rank, 2);
	check(early.ran_us >= early.deadline_us);
	check(late.ran_us >= late.deadline_us);

	/* Disarmed (0), a timer does not fire: only the other one ends the run. */
	early.rank = late.rank = order = 0;
	check_int_eq(tt_loop_timer_set(te, now_us() + 10 * MS), 0);
	check_int_eq(tt_loop_timer_set(te, 0), 0);
	check_int_eq(tt_loop_timer_set(tl, now_us() + 30 * MS), 0);
	check_int_eq(tt_loop_run(loop), 0);
	check_int_eq(early.rank, 0);
	check_int_eq(late.rank, 1);
}

/* A spinning timer wakes early but runs its callback at the deadline,
 * never before, whatever margin it has learned. */
static void
test_spin_never_early(void)
{
	_cleanup_(tt_loop_freep) struct tt_loop *loop = tt_loop_new();
	int order = 0;
	struct firing f = { .order = &order, .quit = true };
	struct tt_loop_source *t = tt_loop_add_timer(loop, on_timer, &f);
	unsigned int seed = 19;

	tt_loop_timer_set_spin(t, TT_LOOP_DEFAULT_SPIN_US);
	f.deadline_us = now_us();
	for (int i = 0; i < 50; i++) {
		f.deadline_us += 200 + rand_r(&seed) % (3 * MS);
		check_int_eq(tt_loop_timer_set(t, f.deadline_us), 0);
		check_int_eq(tt_loop_run(loop), 0);
		check(f.ran_us >= f.deadline_us);
	}
	check_int_eq(f.rank, 50);
}

struct signalled {
	int signo;
	int calls;
};

static void
on_signal(struct tt_loop *loop, int signo, void *userdata)
{
	struct signalled *s = userdata;

	s->signo = signo;
	s->calls++;
	tt_loop_quit(loop, 7);
}

/* A signal (blocked, read through the signalfd) ends a run while a
 * timer is armed far ahead; the timer stays armed and silent. */
static void
test_signal_while_armed(void)
{
	_cleanup_(tt_loop_freep) struct tt_loop *loop = tt_loop_new();
	int order = 0;
	struct firing f = { .order = &order, .quit = true };
	struct tt_loop_source *t = tt_loop_add_timer(loop, on_timer, &f);
	struct signalled s = { 0 };
	static const int signals[] = { SIGUSR1 };

	check_int_eq(tt_loop_add_signals(loop, signals, 1, on_signal, &s), 0);
	tt_loop_timer_set_spin(t, TT_LOOP_DEFAULT_SPIN_US);
	int64_t t0 = now_us();
	check_int_eq(tt_loop_timer_set(t, t0 + 10 * 1000 * MS), 0);
	kill(getpid(), SIGUSR1);
	check_int_eq(tt_loop_run(loop), 7);
	check_int_eq(s.calls, 1);
	check_int_eq(s.signo, SIGUSR1);
	check_int_eq(f.rank, 0);
	check(now_us() - t0 < 5 * 1000 * MS);
	/* Nothing ready: a bounded dispatch times out with 0. */
	check_int_eq(tt_loop_dispatch(loop, 20), 0);
	check_int_eq(f.rank, 0);
}

int
main(void)
{
	RUN(test_past_deadline);
	RUN(test_two_timers);
	RUN(test_spin_never_early);
	RUN(test_signal_while_armed);
	return tt_test_result();
}
