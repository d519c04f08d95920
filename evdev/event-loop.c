/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "event-loop.h"
#include "util-time.h"

/* A timer's early wake-up (tt_loop_timer_set_spin). */
struct timer_spin {
	int64_t max_us;		/* 0: no spin, the callback runs when the timer fires */
	int64_t margin_us;	/* how early it wakes now */
	int64_t deadline_us;	/* when the callback is due */
	int64_t wake_us;	/* when the timerfd was armed for */
	bool slept;		/* armed in the future: its wake-up delay teaches the margin */
};

/* Below this, the margin does not shrink: the cost of reading the clock
 * and of epoll_wait's return is never zero. */
#define MIN_MARGIN_US 20

struct tt_loop_source {
	struct tt_loop_source *next;
	int fd;
	bool owns_fd;
	bool removed;
	bool is_timer;		/* a timerfd: read before the callback */
	struct timer_spin spin;
	tt_loop_fn fn;
	tt_loop_signal_fn signal_fn;
	void *userdata;
};

struct tt_loop {
	int epfd;
	struct tt_loop_source *sources;
	bool quit;
	int status;
	bool dispatching;
};

struct tt_loop *
tt_loop_new(void)
{
	struct tt_loop *loop = tt_zalloc(sizeof(*loop));

	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0) {
		int saved = errno;
		free(loop);
		errno = saved;
		return NULL;
	}
	return loop;
}

static void
source_free(struct tt_loop_source *s)
{
	if (s->owns_fd && s->fd >= 0)
		close(s->fd);
	free(s);
}

/* Frees the sources removed during a dispatch, now that no pointer to them
 * is left in the epoll batch. */
static void
reap(struct tt_loop *loop)
{
	struct tt_loop_source **pp = &loop->sources;

	while (*pp) {
		struct tt_loop_source *s = *pp;
		if (s->removed) {
			*pp = s->next;
			source_free(s);
		} else {
			pp = &s->next;
		}
	}
}

void
tt_loop_free(struct tt_loop *loop)
{
	if (!loop)
		return;
	for (struct tt_loop_source *s = loop->sources; s; s = s->next)
		s->removed = true;
	reap(loop);
	close(loop->epfd);
	free(loop);
}

static struct tt_loop_source *
add_source(struct tt_loop *loop, int fd, bool owns_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct tt_loop_source *s = tt_zalloc(sizeof(*s));

	s->fd = fd;
	s->owns_fd = owns_fd;
	ev.data.ptr = s;
	if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int saved = errno;
		free(s);
		errno = saved;
		return NULL;
	}
	s->next = loop->sources;
	loop->sources = s;
	return s;
}

struct tt_loop_source *
tt_loop_add(struct tt_loop *loop, int fd, tt_loop_fn fn, void *userdata)
{
	struct tt_loop_source *s = add_source(loop, fd, false);

	if (s) {
		s->fn = fn;
		s->userdata = userdata;
	}
	return s;
}

void
tt_loop_remove(struct tt_loop *loop, struct tt_loop_source *source)
{
	if (!source || source->removed)
		return;
	epoll_ctl(loop->epfd, EPOLL_CTL_DEL, source->fd, NULL);
	source->removed = true;
	if (!loop->dispatching)
		reap(loop);
}

int
tt_loop_source_fd(const struct tt_loop_source *source)
{
	return source->fd;
}

static void
dispatch_signal(struct tt_loop *loop, struct tt_loop_source *s, uint32_t events, void *userdata)
{
	struct signalfd_siginfo si;

	(void)events;
	(void)userdata;
	while (read(s->fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		s->signal_fn(loop, (int)si.ssi_signo, s->userdata);
		if (s->removed)
			break;
	}
}

int
tt_loop_add_signals(struct tt_loop *loop, const int *signals, int nsignals,
		    tt_loop_signal_fn fn, void *userdata)
{
	sigset_t mask;
	int fd;

	sigemptyset(&mask);
	for (int i = 0; i < nsignals; i++)
		sigaddset(&mask, signals[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return -errno;

	struct tt_loop_source *s = add_source(loop, fd, true);
	if (!s) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	s->fn = dispatch_signal;
	s->signal_fn = fn;
	s->userdata = userdata;
	return 0;
}

struct tt_loop_source *
tt_loop_add_timer(struct tt_loop *loop, tt_loop_fn fn, void *userdata)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct tt_loop_source *s;

	if (fd < 0)
		return NULL;
	s = add_source(loop, fd, true);
	if (!s) {
		int saved = errno;
		close(fd);
		errno = saved;
		return NULL;
	}
	s->fn = fn;
	s->userdata = userdata;
	s->is_timer = true;
	return s;
}

static int
arm_timerfd(int fd, int64_t when_us)
{
	struct itimerspec its = { .it_value = tt_us_to_timespec(when_us) };

	if (when_us <= 0)	/* past already; zero would disarm */
		its.it_value = (struct timespec){ .tv_nsec = 1 };
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	return 0;
}

int
tt_loop_timer_set(struct tt_loop_source *timer, int64_t when_us)
{
	struct timer_spin *sp = &timer->spin;

	if (when_us == 0) {
		struct itimerspec off = { 0 };
		sp->deadline_us = 0;
		return timerfd_settime(timer->fd, TFD_TIMER_ABSTIME, &off, NULL) < 0 ? -errno : 0;
	}
	sp->deadline_us = when_us;
	sp->wake_us = when_us;
	sp->slept = false;
	if (sp->max_us > 0) {
		sp->wake_us = when_us - sp->margin_us;
		sp->slept = tt_now_us(CLOCK_MONOTONIC) < sp->wake_us;
	}
	return arm_timerfd(timer->fd, sp->wake_us);
}

static int64_t
min_margin(const struct timer_spin *sp)
{
	return sp->max_us < MIN_MARGIN_US ? sp->max_us : MIN_MARGIN_US;
}

void
tt_loop_timer_set_spin(struct tt_loop_source *timer, int64_t spin_max_us)
{
	struct timer_spin *sp = &timer->spin;

	sp->max_us = spin_max_us < 0 ? 0 : spin_max_us;
	sp->margin_us = min_margin(sp);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();	/* kinder to the sibling hyperthread */
#endif
}

/*
 * A timer wakes the process some time after its deadline: tens of
 * microseconds on an idle machine, milliseconds in a busy or emulated
 * one, and for replay that delay would be lateness. So a timer with a
 * spin is armed early by a margin that follows the wake-up delays seen so
 * far (it jumps up to a longer delay and decays slowly), and the last
 * stretch is spun on the clock. Signals wait meanwhile: at most max_us.
 */
static void
spin_to_deadline(struct timer_spin *sp)
{
	if (sp->max_us == 0)
		return;
	if (sp->slept) {
		int64_t late = tt_now_us(CLOCK_MONOTONIC) - sp->wake_us;
		if (late > sp->margin_us)
			sp->margin_us = late;
		else
			sp->margin_us -= (sp->margin_us - late) / 64;
		if (sp->margin_us > sp->max_us)
			sp->margin_us = sp->max_us;
		if (sp->margin_us < min_margin(sp))
			sp->margin_us = min_margin(sp);
	}
	while (tt_now_us(CLOCK_MONOTONIC) < sp->deadline_us)
		cpu_relax();
}

/* False when the timer was re-armed (or disarmed) since it fired. */
static bool
timer_expired(struct tt_loop_source *s)
{
	uint64_t expirations;

	if (read(s->fd, &expirations, sizeof(expirations)) < 0)
		return false;
	spin_to_deadline(&s->spin);
	return true;
}

static void
dispatch_one(struct tt_loop *loop, struct tt_loop_source *s, uint32_t events)
{
	if (s->removed)
		return;
	if (s->is_timer && !timer_expired(s))
		return;
	s->fn(loop, s, events, s->userdata);
}

static int
dispatch(struct tt_loop *loop, int timeout_ms)
{
	struct epoll_event events[32];
	int n = epoll_wait(loop->epfd, events, (int)ARRAY_LENGTH(events), timeout_ms);

	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	loop->dispatching = true;
	for (int i = 0; i < n && !loop->quit; i++)
		dispatch_one(loop, events[i].data.ptr, events[i].events);
	loop->dispatching = false;
	reap(loop);
	return n;
}

int
tt_loop_dispatch(struct tt_loop *loop, int timeout_ms)
{
	loop->quit = false;
	return dispatch(loop, timeout_ms);
}

int
tt_loop_run(struct tt_loop *loop)
{
	loop->quit = false;
	while (!loop->quit) {
		int rc = dispatch(loop, -1);
		if (rc < 0)
			return rc;
	}
	return loop->status;
}

void
tt_loop_quit(struct tt_loop *loop, int status)
{
	loop->quit = true;
	loop->status = status;
}
