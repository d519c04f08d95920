/* SPDX-License-Identifier: MIT */
/*
 * The one step-level player, for every kind of step (evdev frames,
 * frame-steps.h; HID reports, hid-player.h): every step at its absolute
 * deadline (start + loop base + offset, never a sum of delays), one write
 * each, through a clock (clock.h) that a stop request ends; the kind's
 * release (every touch, key or contact still down) before each loop and
 * at the end whatever ends the replay; the kind's preparation of the
 * initial state at the start of each loop. Loops are RP_LOOP_PAUSE_US
 * apart. Records each step's lateness for the summary and --report.
 */
#pragma once

#include "clock.h"
#include "schedule.h"

#define RP_LOOP_PAUSE_US 200000

struct rp_stats {
	size_t frames_written;		/* recorded frames */
	size_t extra_frames;		/* neutral and preparation frames */
	uint32_t loops_started;
	uint32_t loops_done;
	int64_t *lateness_us;		/* per recorded frame, write order */
	size_t nlateness;
	size_t cap;
	int64_t *deadlines_us;		/* same order */
};

void rp_stats_release(struct rp_stats *st);
/* One recorded frame (or HID report) written @late_us after @deadline_us. */
void rp_stats_note(struct rp_stats *st, int64_t deadline_us, int64_t late_us);

struct rp_summary {
	int64_t median_us;
	int64_t p99_us;
	int64_t max_us;
	int64_t drift_us;	/* last lateness minus first */
};
void rp_stats_summary(const struct rp_stats *st, struct rp_summary *out);
/* Median, p99 and max (util-stats.h's rule) of the @n values @v, and
 * drift, the last minus the first; all 0 when @n is 0. */
void rp_summarize(const int64_t *v, size_t n, struct rp_summary *out);

/* One kind of step, as the player sees it: callbacks on @data. */
struct rp_steps {
	size_t n;		/* steps in a loop, in deadline order */
	int64_t span_us;	/* the last step's offset: a loop's length */
	/* Step @i's deadline, from the start of a loop. */
	int64_t (*offset)(void *data, size_t i);
	/* Writes step @i; @tag is its index in rp_stats. 0 or a negative
	 * errno. */
	int (*write)(void *data, size_t i, int64_t tag);
	/* Writes what lifts everything still down (tagged -1), each write
	 * counted in *@extra; tries every device: 0 or the last negative
	 * errno. */
	int (*release)(void *data, size_t *extra);
	/* Optional, at each loop's base: writes the initial state (tagged
	 * -1), counted in *@extra. 0 or a negative errno. */
	int (*prepare)(void *data, size_t *extra);
	void *data;
};

/* Returns 0 when every loop played, 1 when the clock was asked to stop,
 * a negative errno on a write error (the release was still attempted).
 * @start_us is the instant of offset 0 (the caller adds --start-delay). */
int rp_play_steps(const struct rp_steps *k, const struct rp_options *o, int64_t start_us,
		  struct rp_clock *clock, struct rp_stats *stats);
