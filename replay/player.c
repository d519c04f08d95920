/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "player.h"
#include "util-mem.h"
#include "util-stats.h"

void
rp_stats_release(struct rp_stats *st)
{
	free(st->lateness_us);
	free(st->deadlines_us);
	memset(st, 0, sizeof(*st));
}

void
rp_stats_note(struct rp_stats *st, int64_t deadline, int64_t late)
{
	size_t cap = st->cap;	/* the two arrays grow in step */

	st->lateness_us = tt_grow(st->lateness_us, st->nlateness, &st->cap, sizeof(int64_t));
	st->deadlines_us = tt_grow(st->deadlines_us, st->nlateness, &cap, sizeof(int64_t));
	st->deadlines_us[st->nlateness] = deadline;
	st->lateness_us[st->nlateness++] = late;
}

void
rp_summarize(const int64_t *v, size_t n, struct rp_summary *out)
{
	_cleanup_free_ int64_t *sorted = NULL;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	sorted = tt_reallocarray(NULL, n, sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*sorted));
	tt_sort(sorted, n, sizeof(*sorted), tt_cmp_i64);
	out->median_us = tt_median(sorted, n);
	out->p99_us = tt_percentile(sorted, n, 0.99);
	out->max_us = sorted[n - 1];
	out->drift_us = v[n - 1] - v[0];
}

void
rp_stats_summary(const struct rp_stats *st, struct rp_summary *out)
{
	rp_summarize(st->lateness_us, st->nlateness, out);
}

/* A loop: the release of the previous one's end, the initial state at
 * the loop's base, then every step at its deadline. */
static int
play_loop(const struct rp_steps *k, int64_t base, struct rp_clock *clock, struct rp_stats *st)
{
	int rc = k->release(k->data, &st->extra_frames);

	if (rc < 0)
		return rc;
	rc = clock->wait_until(clock->data, base);
	if (rc != 0)
		return rc;
	if (k->prepare && (rc = k->prepare(k->data, &st->extra_frames)) < 0)
		return rc;
	for (size_t i = 0; i < k->n; i++) {
		int64_t deadline = base + k->offset(k->data, i);

		rc = clock->wait_until(clock->data, deadline);
		if (rc != 0)
			return rc;
		if ((rc = k->write(k->data, i, (int64_t)st->nlateness)) < 0)
			return rc;
		rp_stats_note(st, deadline, clock->now(clock->data) - deadline);
		st->frames_written++;
	}
	return 0;
}

int
rp_play_steps(const struct rp_steps *k, const struct rp_options *o, int64_t start_us,
	      struct rp_clock *clock, struct rp_stats *stats)
{
	int rc = 0, rc2;

	for (uint32_t loop = 0; o->loops == 0 || loop < o->loops; loop++) {
		int64_t base = start_us + (int64_t)loop * (k->span_us + RP_LOOP_PAUSE_US);
		stats->loops_started++;
		rc = play_loop(k, base, clock, stats);
		if (rc != 0)
			break;
		stats->loops_done++;
	}
	/* Whatever ended it: lift everything before the devices go away. */
	rc2 = k->release(k->data, &stats->extra_frames);
	if (rc == 0 && rc2 < 0)
		rc = rc2;
	return rc;
}
