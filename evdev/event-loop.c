/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "event-loop.h"
#include "util-time.h"

struct tt_loop_source {
	struct tt_loop_source *next;
	int fd;
	bool owns_fd;
	bool removed;
	bool is_timer;		/* a timerfd: read before the callback */
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

int
tt_loop_timer_set(struct tt_loop_source *timer, int64_t when_us)
{
	struct itimerspec its = { 0 };

	if (when_us > 0)
		its.it_value = tt_us_to_timespec(when_us);
	if (timerfd_settime(timer->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	return 0;
}

int
tt_loop_run(struct tt_loop *loop)
{
	struct epoll_event events[32];

	loop->quit = false;
	while (!loop->quit) {
		int n = epoll_wait(loop->epfd, events, (int)ARRAY_LENGTH(events), -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		loop->dispatching = true;
		for (int i = 0; i < n && !loop->quit; i++) {
			struct tt_loop_source *s = events[i].data.ptr;
			if (s->removed)
				continue;
			if (s->is_timer) {
				uint64_t expirations;
				if (read(s->fd, &expirations, sizeof(expirations)) < 0)
					continue;	/* re-armed since it fired */
			}
			s->fn(loop, s, events[i].events, s->userdata);
		}
		loop->dispatching = false;
		reap(loop);
	}
	return loop->status;
}

void
tt_loop_quit(struct tt_loop *loop, int status)
{
	loop->quit = true;
	loop->status = status;
}
