/* SPDX-License-Identifier: MIT */
/* The registry of touchtape record's capture sources, walked in the order
 * they were added. */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "capture-source.h"
#include "util-mem.h"
#include "util-time.h"

int
tt_source_marker(const struct tt_source_ctx *ctx, enum tt_marker_kind kind, int64_t device,
		 const char *text)
{
	struct tt_marker m = {
		.time_us = tt_now_us(CLOCK_MONOTONIC) - ctx->start_us,
		.kind = kind,
		.device = device,
		.text = (char *)text,
	};

	if (ctx->write_error)
		return ctx->write_error;
	return ctx->check(ctx->host, tt_writer_marker(ctx->writer, &m));
}

int
tt_sources_add(struct tt_sources *s, const struct tt_source_ops *ops, void *data,
	       const struct tt_source_ctx *ctx)
{
	int rc = ops->start ? ops->start(data, ctx) : 0;

	if (rc < 0) {
		ops->free(data);
		return rc;
	}
	s->v = tt_reallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = (struct tt_source){ .ops = ops, .data = data };
	return 0;
}

size_t
tt_sources_ndevices(const struct tt_sources *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ops->ndevices)
			n += s->v[i].ops->ndevices(s->v[i].data);
	return n;
}

/* Each source's @member, those that have one, in order. */
#define EACH(s, member) \
	for (size_t i_ = 0; i_ < (s)->n; i_++) \
		if ((s)->v[i_].ops->member)

#define CALL(s, member) (s)->v[i_].ops->member((s)->v[i_].data)

void
tt_sources_refresh(const struct tt_sources *s)
{
	EACH(s, refresh)
		CALL(s, refresh);
}

int
tt_sources_begin_file(const struct tt_sources *s)
{
	EACH(s, begin_file) {
		int rc = CALL(s, begin_file);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
tt_sources_notes(const struct tt_sources *s)
{
	EACH(s, notes) {
		int rc = CALL(s, notes);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
tt_sources_end_file(const struct tt_sources *s)
{
	EACH(s, end_file)
		CALL(s, end_file);
}

void
tt_sources_poll(const struct tt_sources *s)
{
	EACH(s, poll)
		CALL(s, poll);
}

void
tt_sources_drain(const struct tt_sources *s, const struct tt_source_ctx *ctx)
{
	EACH(s, drain) {
		if (ctx->write_error)
			return;
		CALL(s, drain);
	}
}

void
tt_sources_summary(const struct tt_sources *s)
{
	EACH(s, summary)
		CALL(s, summary);
}

void
tt_sources_frame_written(const struct tt_sources *s, const struct tt_frame *frame)
{
	EACH(s, frame_written)
		s->v[i_].ops->frame_written(s->v[i_].data, frame);
}

void
tt_sources_clear(struct tt_sources *s)
{
	while (s->n > 0) {
		struct tt_source *src = &s->v[--s->n];
		src->ops->free(src->data);
	}
	free(s->v);
	s->v = NULL;
}
