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

struct player {
	const struct rp_schedule *s;
	struct rp_clock *clock;
	struct rp_sink *sink;
	struct rp_stats *stats;
	struct rp_state *states;	/* what each created device is in now */
	struct rp_evbuf buf;
};

static int
write_frame(struct player *p, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	int rc = p->sink->write(p->sink->data, dev, ev, n, tag);

	if (rc < 0)
		return rc;
	rp_state_apply(&p->states[dev], ev, n);
	return 0;
}

/* The release frame for every device not neutral (@always: every device). */
static int
release_all(struct player *p, bool always)
{
	int status = 0;

	for (uint32_t d = 0; d < p->s->ndevices; d++) {
		rp_evbuf_reset(&p->buf);
		if (!rp_state_neutral_frame(&p->states[d], always, &p->buf))
			continue;
		int rc = write_frame(p, d, p->buf.ev, p->buf.n, -1);
		if (rc < 0)
			status = rc;	/* try the others all the same */
		else
			p->stats->extra_frames++;
	}
	return status;
}

static int
prepare_all(struct player *p)
{
	for (uint32_t d = 0; d < p->s->ndevices; d++) {
		rp_evbuf_reset(&p->buf);
		if (!rp_state_prepare_frame(&p->states[d], &p->s->devices[d].start, &p->buf))
			continue;
		int rc = write_frame(p, d, p->buf.ev, p->buf.n, -1);
		if (rc < 0)
			return rc;
		p->stats->extra_frames++;
	}
	return 0;
}

static int
play_loop(struct player *p, int64_t base)
{
	int rc = release_all(p, false);

	if (rc < 0)
		return rc;
	rc = p->clock->wait_until(p->clock->data, base);
	if (rc != 0)
		return rc;
	if ((rc = prepare_all(p)) < 0)
		return rc;
	for (size_t i = 0; i < p->s->nframes; i++) {
		const struct rp_frame *f = &p->s->frames[i];
		int64_t deadline = base + f->offset_us;

		rc = p->clock->wait_until(p->clock->data, deadline);
		if (rc != 0)
			return rc;
		if ((rc = write_frame(p, f->dev, f->events, f->nevents, (int64_t)p->stats->nlateness)) < 0)
			return rc;
		rp_stats_note(p->stats, deadline, p->clock->now(p->clock->data) - deadline);
		p->stats->frames_written++;
	}
	return 0;
}

int
rp_play(const struct rp_schedule *s, const struct rp_options *o, int64_t start_us,
	struct rp_clock *clock, struct rp_sink *sink, struct rp_stats *stats)
{
	struct player p = { .s = s, .clock = clock, .sink = sink, .stats = stats };
	int rc = 0, rc2;

	p.states = tt_reallocarray(NULL, s->ndevices ? s->ndevices : 1, sizeof(*p.states));
	for (size_t d = 0; d < s->ndevices; d++)
		rp_state_init_created(&p.states[d], s->devices[d].dev);

	for (uint32_t k = 0; o->loops == 0 || k < o->loops; k++) {
		int64_t base = start_us + (int64_t)k * (s->span_us + RP_LOOP_PAUSE_US);
		stats->loops_started++;
		rc = play_loop(&p, base);
		if (rc != 0)
			break;
		stats->loops_done++;
	}
	/* Whatever ended it: lift everything before the devices go away. */
	rc2 = release_all(&p, false);
	if (rc == 0 && rc2 < 0)
		rc = rc2;
	for (size_t d = 0; d < s->ndevices; d++)
		rp_state_release(&p.states[d]);
	free(p.states);
	rp_evbuf_release(&p.buf);
	return rc;
}
