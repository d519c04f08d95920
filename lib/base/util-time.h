/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdint.h>
#include <time.h>

static inline int64_t
tt_timespec_to_us(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000 + ts->tv_nsec / 1000;
}

static inline struct timespec
tt_us_to_timespec(int64_t us)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(us / 1000000);
	ts.tv_nsec = (long)(us % 1000000) * 1000;
	if (ts.tv_nsec < 0) {
		ts.tv_sec -= 1;
		ts.tv_nsec += 1000000000L;
	}
	return ts;
}

static inline int64_t
tt_now_us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return tt_timespec_to_us(&ts);
}
