/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "frame-steps.h"
#include "neutral.h"
#include "util-mem.h"

struct frame_steps {
	const struct rp_schedule *s;
	struct rp_sink *sink;
	struct rp_state *states;	/* what each created device is in now */
	struct rp_evbuf buf;
};

static int
write_frame(struct frame_steps *p, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	int rc = p->sink->write(p->sink->data, dev, ev, n, tag);

	if (rc < 0)
		return rc;
	rp_state_apply(&p->states[dev], ev, n);
	return 0;
}

static int64_t
frame_offset(void *data, size_t i)
{
	return ((struct frame_steps *)data)->s->frames[i].offset_us;
}

static int
frame_write(void *data, size_t i, int64_t tag)
{
	struct frame_steps *p = data;
	const struct rp_frame *f = &p->s->frames[i];

	return write_frame(p, f->dev, f->events, f->nevents, tag);
}

/* The release frame for every device not neutral. */
static int
frame_release(void *data, size_t *extra)
{
	struct frame_steps *p = data;
	int status = 0;

	for (uint32_t d = 0; d < p->s->ndevices; d++) {
		rp_evbuf_reset(&p->buf);
		if (!rp_state_neutral_frame(&p->states[d], false, &p->buf))
			continue;
		int rc = write_frame(p, d, p->buf.ev, p->buf.n, -1);
		if (rc < 0)
			status = rc;	/* try the others all the same */
		else
			(*extra)++;
	}
	return status;
}

static int
frame_prepare(void *data, size_t *extra)
{
	struct frame_steps *p = data;

	for (uint32_t d = 0; d < p->s->ndevices; d++) {
		rp_evbuf_reset(&p->buf);
		if (!rp_state_prepare_frame(&p->states[d], &p->s->devices[d].start, &p->buf))
			continue;
		int rc = write_frame(p, d, p->buf.ev, p->buf.n, -1);
		if (rc < 0)
			return rc;
		(*extra)++;
	}
	return 0;
}

int
rp_play(const struct rp_schedule *s, const struct rp_options *o, int64_t start_us,
	struct rp_clock *clock, struct rp_sink *sink, struct rp_stats *stats)
{
	struct frame_steps p = { .s = s, .sink = sink };
	struct rp_steps k = {
		.n = s->nframes, .span_us = s->span_us, .offset = frame_offset, .write = frame_write,
		.release = frame_release, .prepare = frame_prepare, .data = &p,
	};
	int rc;

	p.states = tt_reallocarray(NULL, s->ndevices ? s->ndevices : 1, sizeof(*p.states));
	for (size_t d = 0; d < s->ndevices; d++)
		rp_state_init_created(&p.states[d], s->devices[d].dev);
	rc = rp_play_steps(&k, o, start_us, clock, stats);
	for (size_t d = 0; d < s->ndevices; d++)
		rp_state_release(&p.states[d]);
	free(p.states);
	rp_evbuf_release(&p.buf);
	return rc;
}
