/* SPDX-License-Identifier: MIT */
/* record --libinput: the libinput capture as a source of the recorder. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "li-source.h"
#include "log.h"
#include "util-strings.h"

struct tt_li_source {
	const struct tt_li_config *config;
	bool mask_keys;
	char **nodes;
	size_t nnodes;
	const struct tt_source_ctx *ctx;
	struct tt_li_capture *cap;
};

static void
poll_kernel(void *userdata)
{
	const struct tt_source_ctx *ctx = userdata;

	ctx->poll(ctx->host);
}

static void
write_error(void *userdata, int error)
{
	const struct tt_source_ctx *ctx = userdata;

	tt_error("writing libinput's events: %s; stopping", strerror(-error));
	ctx->stop(ctx->host, "write error", 1);
}

static int
start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_li_source *ls = data;
	const struct tt_li_capture_options o = {
		.loop = ctx->loop,
		.writer = ctx->writer,
		.config = ls->config,
		.start_us = ctx->start_us,
		.mask_keys = ls->mask_keys,
		.before_write = poll_kernel,
		.on_error = write_error,
		.userdata = (void *)ctx,
	};
	int rc;

	ls->ctx = ctx;
	rc = tt_li_capture_new(&o, &ls->cap);
	/* The evdev source gave device i the record id i. */
	for (size_t i = 0; rc >= 0 && i < ls->nnodes; i++)
		rc = tt_li_capture_add(ls->cap, ls->nodes[i], (uint32_t)i);
	if (rc >= 0)
		rc = tt_li_capture_check_config(ls->cap);
	return rc;
}

static void
drain(void *data)
{
	struct tt_li_source *ls = data;

	tt_li_capture_dispatch(ls->cap);
}

static void
summary(const void *data)
{
	const struct tt_li_source *ls = data;

	fprintf(stderr, "  libinput: %zu events\n", tt_li_capture_nevents(ls->cap));
}

static void
source_free(void *data)
{
	tt_li_source_free(data);
}

const struct tt_source_ops tt_li_source_ops = {
	.name = "libinput",
	.start = start,
	.drain = drain,
	.summary = summary,
	.free = source_free,
};

struct tt_li_source *
tt_li_source_new(const struct tt_li_source_options *opts)
{
	struct tt_li_source *ls = tt_zalloc(sizeof(*ls));

	ls->config = opts->config;
	ls->mask_keys = opts->mask_keys;
	ls->nodes = tt_reallocarray(NULL, opts->nnodes ? opts->nnodes : 1, sizeof(*ls->nodes));
	for (size_t i = 0; i < opts->nnodes; i++)
		ls->nodes[i] = tt_strdup(opts->nodes[i]);
	ls->nnodes = opts->nnodes;
	return ls;
}

void
tt_li_source_free(struct tt_li_source *ls)
{
	if (!ls)
		return;
	tt_li_capture_free(ls->cap);
	for (size_t i = 0; i < ls->nnodes; i++)
		free(ls->nodes[i]);
	free(ls->nodes);
	free(ls);
}
