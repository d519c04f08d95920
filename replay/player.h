/* SPDX-License-Identifier: MIT */
/*
 * Plays a schedule through a clock and a sink: every frame at its absolute
 * deadline (start + loop base + offset), one write each; the neutral-state
 * release before each loop and at the end whatever ends the replay; the
 * initial state (a recording that starts mid-touch, or --from in the
 * middle of a gesture) prepared at the start of each loop. Loops are
 * RP_LOOP_PAUSE_US apart. Records each write's lateness.
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

/* Returns 0 when every loop played, 1 when the clock was asked to stop,
 * a negative errno on a write error (the release was still attempted).
 * @start_us is the instant of offset 0 (the caller adds --start-delay). */
int rp_play(const struct rp_schedule *s, const struct rp_options *o, int64_t start_us,
	    struct rp_clock *clock, struct rp_sink *sink, struct rp_stats *stats);
