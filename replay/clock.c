/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>

#include "clock.h"
#include "util-time.h"

struct rp_source {
	int fd;
	rp_fd_fn fn;
	void *data;
};

#define RP_MAX_SOURCES (2 + 256)

struct rp_loop {
	int epfd;
	int timerfd;
	int sigfd;
	int stop_signal;
	struct rp_source sources[RP_MAX_SOURCES];
	size_t nsources;
	sigset_t old_mask;
	/* Early wake-up: the timer fires @margin_us before a deadline and
	 * the rest is spun on the clock (see loop_wait_until). */
	int64_t spin_max_us;
	int64_t margin_us;
};

/* Below this, the margin does not shrink: the cost of reading the clock
 * and of epoll_wait's return is never zero. */
#define RP_MIN_MARGIN_US 20

void
rp_loop_free(struct rp_loop *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nsources; i++) {
		if (l->sources[i].fd == l->timerfd || l->sources[i].fd == l->sigfd)
			close(l->sources[i].fd);
	}
	if (l->epfd >= 0)
		close(l->epfd);
	sigprocmask(SIG_SETMASK, &l->old_mask, NULL);
	free(l);
}

static int
add_source(struct rp_loop *l, int fd, rp_fd_fn fn, void *data)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (l->nsources >= RP_MAX_SOURCES)
		return -EMFILE;
	l->sources[l->nsources] = (struct rp_source){ fd, fn, data };
	ev.data.ptr = &l->sources[l->nsources];
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	l->nsources++;
	return 0;
}

static void
on_signal(void *data, int fd)
{
	struct rp_loop *l = data;
	struct signalfd_siginfo si;

	if (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si) && !l->stop_signal)
		l->stop_signal = (int)si.ssi_signo;
}

static void
on_timer(void *data, int fd)
{
	uint64_t expirations;

	(void)data;
	if (read(fd, &expirations, sizeof(expirations)) < 0)
		return;	/* EAGAIN: already consumed */
}

int
rp_loop_new(struct rp_loop **out)
{
	struct rp_loop *l = tt_zalloc(sizeof(*l));
	sigset_t mask;
	int rc;

	l->epfd = l->timerfd = l->sigfd = -1;
	l->spin_max_us = RP_DEFAULT_SPIN_MAX_US;
	l->margin_us = RP_MIN_MARGIN_US;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &l->old_mask);
	/* The default 50 us timer slack would show as lateness. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	l->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	l->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (l->epfd < 0 || l->sigfd < 0 || l->timerfd < 0) {
		rc = -errno;
		if (l->sigfd >= 0)
			close(l->sigfd);
		if (l->timerfd >= 0)
			close(l->timerfd);
		l->sigfd = l->timerfd = -1;
		rp_loop_free(l);
		return rc;
	}
	if ((rc = add_source(l, l->sigfd, on_signal, l)) < 0 ||
	    (rc = add_source(l, l->timerfd, on_timer, l)) < 0) {
		rp_loop_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

int
rp_loop_add_fd(struct rp_loop *l, int fd, rp_fd_fn fn, void *data)
{
	return add_source(l, fd, fn, data);
}

void
rp_loop_remove_fd(struct rp_loop *l, int fd)
{
	/* The slot stays (epoll holds pointers into the array); a NULL
	 * callback marks it, should this round of events still name it. */
	for (size_t i = 0; i < l->nsources; i++) {
		if (l->sources[i].fd != fd || !l->sources[i].fn)
			continue;
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, NULL);
		l->sources[i].fn = NULL;
	}
}

int
rp_loop_stop_signal(const struct rp_loop *l)
{
	return l->stop_signal;
}

int
rp_loop_dispatch(struct rp_loop *l, int timeout_ms)
{
	struct epoll_event evs[16];
	int n = epoll_wait(l->epfd, evs, (int)ARRAY_LENGTH(evs), timeout_ms);

	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		struct rp_source *src = evs[i].data.ptr;
		if (src->fn)
			src->fn(src->data, src->fd);
	}
	return n;
}

static int64_t
loop_now(void *data)
{
	(void)data;
	return tt_now_us(CLOCK_MONOTONIC);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();	/* kinder to the sibling hyperthread */
#endif
}

void
rp_loop_set_spin_max(struct rp_loop *l, int64_t spin_max_us)
{
	l->spin_max_us = spin_max_us < 0 ? 0 : spin_max_us;
	if (l->margin_us > l->spin_max_us)
		l->margin_us = l->spin_max_us;
}

static int
sleep_until(struct rp_loop *l, int64_t deadline_us)
{
	struct itimerspec its = { .it_value = tt_us_to_timespec(deadline_us) };

	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;	/* zero would disarm the timer */
	if (timerfd_settime(l->timerfd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	for (;;) {
		if (l->stop_signal)
			return 1;
		if (tt_now_us(CLOCK_MONOTONIC) >= deadline_us)
			return 0;
		int rc = rp_loop_dispatch(l, -1);
		if (rc < 0)
			return rc;
	}
}

/*
 * A timer wakes the process some time after its deadline: tens of
 * microseconds on an idle machine, milliseconds in a busy or emulated
 * one, and that delay is what a replay's lateness would be. So the timer
 * is armed early by a margin that follows the wake-up delays seen so far
 * (it jumps up to a longer delay and decays slowly), and the last stretch
 * is spun on the clock. The spin costs at most spin_max_us of CPU per
 * frame; spin_max_us = 0 is the plain timer.
 */
static int
loop_wait_until(void *data, int64_t deadline_us)
{
	struct rp_loop *l = data;
	int64_t wake_us = deadline_us - l->margin_us;
	int rc;

	if (l->spin_max_us == 0)
		return sleep_until(l, deadline_us);
	if (tt_now_us(CLOCK_MONOTONIC) < wake_us) {
		rc = sleep_until(l, wake_us);
		if (rc != 0)
			return rc;
		int64_t late = tt_now_us(CLOCK_MONOTONIC) - wake_us;
		if (late > l->margin_us)
			l->margin_us = late;
		else
			l->margin_us -= (l->margin_us - late) / 64;
		if (l->margin_us > l->spin_max_us)
			l->margin_us = l->spin_max_us;
		if (l->margin_us < RP_MIN_MARGIN_US)
			l->margin_us = RP_MIN_MARGIN_US;
	}
	while (tt_now_us(CLOCK_MONOTONIC) < deadline_us) {
		if (l->stop_signal)
			return 1;
		cpu_relax();
	}
	return l->stop_signal ? 1 : 0;
}

struct rp_clock
rp_loop_clock(struct rp_loop *l)
{
	return (struct rp_clock){ .now = loop_now, .wait_until = loop_wait_until, .data = l };
}
