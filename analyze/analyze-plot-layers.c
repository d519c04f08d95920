/* SPDX-License-Identifier: MIT */
/* analyze --plot: what the layers above and beside the kernel give the
 * plot, as the stack hears them: HID contacts (their trajectories and a
 * track), and a track of touches down per XI device and client, per
 * libinput device and per Wayland client. The kernel's touches are
 * cmd-analyze.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analyze-private.h"
#include "model-plot.h"
#include "stack.h"

static void
on_hbegin(void *data, struct tt_htouch *t)
{
	struct analyze *a = data;
	struct tt_plot_path *path = tt_zalloc(sizeof(*path));

	t->user = path;
	tt_plot_hid_sample(a->plot, path, t, t->begin_us);
}

static void
on_hupdate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	struct analyze *a = data;

	if (t->user)
		tt_plot_hid_sample(a->plot, t->user, t, u->time_us);
}

static void
on_hend_plot(void *data, struct tt_htouch *t)
{
	struct analyze *a = data;
	struct tt_plot_path *path = t->user;

	if (!path)
		return;
	if (tt_read_options_overlaps(a->ro, t->begin_us, t->end_us)) {
		path->duration_us = t->end_us - t->begin_us;
		tt_plot_path_end(a->plot, TT_PLOT_HID, t->device, t->serial, path);
		tt_plot_span(a->plot, TT_PLOT_HID, t->device, NULL, t->begin_us, t->end_us);
	}
	tt_plot_path_release(path);
	free(path);
	t->user = NULL;
}

static void
on_xend_plot(void *data, struct tt_xtouch *t)
{
	struct analyze *a = data;
	char label[80];

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	if (t->flags & TT_XTOUCH_RAW)
		snprintf(label, sizeof(label), "XI device %d, raw events", t->sourceid);
	else
		snprintf(label, sizeof(label), "XI device %d, client \"%s\"", t->sourceid, t->client);
	tt_plot_span(a->plot, TT_PLOT_XI, (uint32_t)t->sourceid, label, t->begin_us, t->end_us);
}

static void
on_li_end(void *data, const struct tt_li_touch *t)
{
	struct analyze *a = data;
	char label[48];

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	snprintf(label, sizeof(label), "libinput device %u", t->device);
	tt_plot_span(a->plot, TT_PLOT_LIBINPUT, t->device, label, t->begin_us, t->end_us);
}

static void
on_wl_end(void *data, struct tt_wl_touch *t)
{
	struct analyze *a = data;
	char label[64];

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	snprintf(label, sizeof(label), "Wayland, client \"%s\"", t->client);
	tt_plot_span(a->plot, TT_PLOT_WAYLAND, 0, label, t->begin_us, t->end_us);
}

void
plot_layers_subscribe(struct analyze *a)
{
	static const struct tt_model_callbacks cb = {
		.hid_begin = on_hbegin,
		.hid_update = on_hupdate,
		.hid_end = on_hend_plot,
		.xi_end = on_xend_plot,
	};
	static const struct tt_li_callbacks li = { .touch_end = on_li_end };
	static const struct tt_wl_callbacks wl = { .touch_end = on_wl_end };

	/* Room: the stack holds TT_STACK_MAX_LISTENERS, of which analyze's
	 * three layers, its own subscriber and --grade's take five. */
	(void)tt_stack_subscribe(a->detect, &cb, a);
	(void)tt_stack_subscribe_li(a->detect, &li, a);
	(void)tt_stack_subscribe_wl(a->detect, &wl, a);
}
