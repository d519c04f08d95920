/* SPDX-License-Identifier: MIT */
/* record --wayland: the Wayland client as a source of the recorder. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "wl-source.h"

/* How long the end of a recording waits for the compositor to deliver
 * the ends of the touches it gave the client: the replay's devices are
 * gone, but Weston under emulation has lagged the kernel by over a
 * second. A finger held down through Ctrl-C costs this much once. */
#define WL_DRAIN_MS 3000

struct tt_wl_source {
	struct tt_wl_capture *cap;
	bool alone;		/* the Wayland client is all that is recorded */
	const struct tt_source_ctx *ctx;
};

static void
poll_kernel(void *userdata)
{
	struct tt_wl_source *ws = userdata;

	ws->ctx->poll(ws->ctx->host);
}

static void
write_error(void *userdata, int error)
{
	struct tt_wl_source *ws = userdata;

	tt_error("writing the Wayland events: %s; stopping", strerror(-error));
	ws->ctx->stop(ws->ctx->host, "write error", 1);
}

static void
lost(void *userdata, const char *why)
{
	struct tt_wl_source *ws = userdata;

	if (!ws->alone) {
		tt_warning("%s; the other layers keep recording", why);
		return;
	}
	tt_error("%s", why);
	ws->ctx->stop(ws->ctx->host, "Wayland connection lost", 1);
}

static int
start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_wl_source *ws = data;
	const struct tt_wl_capture_options o = {
		.loop = ctx->loop,
		.writer = ctx->writer,
		.start_us = ctx->start_us,
		.before_write = poll_kernel,
		.on_error = write_error,
		.on_lost = lost,
		.userdata = ws,
	};

	ws->ctx = ctx;
	return tt_wl_capture_start(ws->cap, &o);
}

static void
drain(void *data)
{
	struct tt_wl_source *ws = data;

	/* The devices went (the replay ended) or the user stopped: what the
	 * compositor still delivers of the touches belongs to them. */
	tt_wl_capture_drain(ws->cap, WL_DRAIN_MS);
}

static void
summary(const void *data)
{
	const struct tt_wl_source *ws = data;

	fprintf(stderr, "  wayland: %zu events\n", tt_wl_capture_nevents(ws->cap));
}

static void
source_free(void *data)
{
	struct tt_wl_source *ws = data;

	tt_wl_capture_free(ws->cap);
	free(ws);
}

const struct tt_source_ops tt_wl_source_ops = {
	.name = "wayland",
	.start = start,
	.drain = drain,
	.summary = summary,
	.free = source_free,
};

struct tt_wl_source *
tt_wl_source_new(struct tt_wl_capture *cap, bool alone)
{
	struct tt_wl_source *ws = tt_zalloc(sizeof(*ws));

	ws->cap = cap;
	ws->alone = alone;
	return ws;
}
