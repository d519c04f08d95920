/* SPDX-License-Identifier: MIT */
/* convert --format trace: the touches of every layer, as the stack hears
 * them, and the flows along their links (trace.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace-private.h"

/* ---- lanes ---- */

static struct trace_lanes *
lanes_of(struct tt_trace *t, int64_t pid, const char *name)
{
	struct trace_lanes *g;

	for (size_t i = 0; i < t->nlanes; i++) {
		if (t->lanes[i].pid == pid && strcmp(t->lanes[i].name, name) == 0)
			return &t->lanes[i];
	}
	t->lanes = tt_reallocarray(t->lanes, t->nlanes + 1, sizeof(*t->lanes));
	g = &t->lanes[t->nlanes];
	*g = (struct trace_lanes){ .pid = pid, .first_tid = (int64_t)(t->nlanes + 1) * 1000 };
	snprintf(g->name, sizeof(g->name), "%s", name);
	t->nlanes++;
	return g;
}

struct trace_track
trace_lane_take(struct tt_trace *t, int64_t pid, const char *name)
{
	struct trace_lanes *g = lanes_of(t, pid, name);
	size_t lane = 0;
	char tname[80];

	while (lane < g->n && g->busy[lane])
		lane++;
	if (lane == g->n) {
		g->busy = tt_reallocarray(g->busy, g->n + 1, sizeof(*g->busy));
		g->n++;
	}
	g->busy[lane] = true;
	struct trace_track track = { pid, g->first_tid + (int64_t)lane };

	snprintf(tname, sizeof(tname), "%s %zu", g->name, lane);
	trace_thread(&t->w, pid, track.tid, tname);
	return track;
}

void
trace_lane_free(struct tt_trace *t, const struct trace_track *track)
{
	for (size_t i = 0; i < t->nlanes; i++) {
		struct trace_lanes *g = &t->lanes[i];

		if (g->pid == track->pid && track->tid >= g->first_tid && track->tid < g->first_tid + (int64_t)g->n)
			g->busy[track->tid - g->first_tid] = false;
	}
}

void
trace_lanes_clear(struct tt_trace *t)
{
	for (size_t i = 0; i < t->nlanes; i++)
		free(t->lanes[i].busy);
	free(t->lanes);
	t->lanes = NULL;
	t->nlanes = 0;
}

/* A lane's tid rides on the touch's user pointer from begin to end. */
static void *
tid_user(int64_t tid)
{
	return (void *)(intptr_t)tid;
}

static int64_t
user_tid(const void *user)
{
	return (int64_t)(intptr_t)user;
}

/* ---- the kernel ---- */

/* A slot's track: one touch at a time, so no lanes. */
static struct trace_track
slot_track(struct tt_trace *t, enum trace_layer layer, uint32_t device, int32_t slot)
{
	struct trace_track track = { trace_pid(layer, device), slot >= 0 ? (int64_t)slot + 1 : 0 };
	char name[32];

	snprintf(name, sizeof(name), "slot %d", slot);
	trace_thread(&t->w, track.pid, track.tid, name);
	return track;
}

/* One counter track per series: the trace viewers draw the args of one
 * counter event stacked, as a sum, so x, y and pressure each get their
 * own track ("slot 0 x") to read as a line of their own. */
static void
counter_series(struct tt_trace *t, const struct trace_track *track, int32_t slot, const char *what,
	       int64_t value, int64_t ts)
{
	char name[48];

	snprintf(name, sizeof(name), "slot %d %s", slot, what);
	trace_event(&t->w, 'C', name, "position", ts, track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "value", value);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	t->w.ncounters++;
}

static void
counter(struct tt_trace *t, const struct tt_ktouch *k, int64_t ts)
{
	struct trace_track track = slot_track(t, TRACE_KERNEL, k->device, k->slot);

	counter_series(t, &track, k->slot, "x", k->values[TT_AXIS(ABS_MT_POSITION_X)], ts);
	counter_series(t, &track, k->slot, "y", k->values[TT_AXIS(ABS_MT_POSITION_Y)], ts);
	if (!(k->unknown & TT_AXIS_BIT(ABS_MT_PRESSURE)))
		counter_series(t, &track, k->slot, "pressure", k->values[TT_AXIS(ABS_MT_PRESSURE)], ts);
}

static void
on_kernel_begin(void *data, struct tt_ktouch *k)
{
	counter(data, k, k->begin_us);
}

static void
on_kernel_update(void *data, struct tt_ktouch *k, const struct tt_kupdate *u)
{
	const uint32_t shown = TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y) |
			       TT_AXIS_BIT(ABS_MT_PRESSURE);

	if (u->changed & shown)
		counter(data, k, u->time_us);
}

static void
lines_args(struct trace_writer *w, size_t begin_line, size_t end_line)
{
	tt_json_emit_member_int(&w->j, "begin_line", (int64_t)begin_line);
	tt_json_emit_member_int(&w->j, "end_line", (int64_t)end_line);
}

static const struct trace_xi_place *
xi_place(const struct tt_trace *t, size_t line)
{
	for (size_t i = 0; i < TRACE_XI_RING; i++) {
		if (t->ring[i].line == line && line)
			return &t->ring[i];
	}
	return NULL;
}

static void
on_kernel_end(void *data, struct tt_ktouch *k)
{
	struct tt_trace *t = data;
	struct trace_track track = slot_track(t, TRACE_KERNEL, k->device, k->slot);
	char name[48];

	snprintf(name, sizeof(name), "touch %d", k->tracking_id);
	trace_slice(&t->w, name, "kernel", k->begin_us, k->end_us, &track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "serial", (int64_t)k->serial);
	tt_json_emit_member_int(&t->w.j, "slot", k->slot);
	tt_json_emit_member_int(&t->w.j, "tracking_id", k->tracking_id);
	trace_member_point(&t->w, "first", k->begin_x, k->begin_y);
	trace_member_point(&t->w, "last", k->values[TT_AXIS(ABS_MT_POSITION_X)],
			   k->values[TT_AXIS(ABS_MT_POSITION_Y)]);
	tt_json_emit_member_int(&t->w.j, "frames", (int64_t)k->nframes);
	lines_args(&t->w, k->begin_line, k->end_line);
	tt_json_emit_member_bool(&t->w.j, "active_at_end", k->flags & TT_KTOUCH_ACTIVE_AT_END);
	trace_args_end(&t->w);
	trace_event_end(&t->w);

	const struct trace_xi_place *p = k->link == TT_LINK_LINKED ? xi_place(t, k->xi_begin_line) : NULL;

	if (p)
		trace_flow(&t->w, "kernel to XI", &track, k->begin_us, &p->track, k->xi_begin_us);
}

/* ---- XI ---- */

static void
on_xi_begin(void *data, struct tt_xtouch *x)
{
	struct tt_trace *t = data;
	char group[48];

	trace_name_xi(t, x->sourceid);
	snprintf(group, sizeof(group), "%s%s", x->client[0] ? x->client : "client",
		 x->flags & TT_XTOUCH_RAW ? " raw" : "");
	struct trace_track track = trace_lane_take(t, trace_pid(TRACE_XI, x->sourceid), group);

	x->user = tid_user(track.tid);
	t->ring[t->ring_next] = (struct trace_xi_place){ x->begin_line, track };
	t->ring_next = (t->ring_next + 1) % TRACE_XI_RING;
}

static void
on_xi_end(void *data, struct tt_xtouch *x)
{
	struct tt_trace *t = data;
	struct trace_track track = { trace_pid(TRACE_XI, x->sourceid), user_tid(x->user) };
	char name[48];

	snprintf(name, sizeof(name), "%s %u", x->flags & TT_XTOUCH_RAW ? "raw touch" : "touch", x->touchid);
	trace_slice(&t->w, name, "xi", x->begin_us, x->end_us, &track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "touchid", x->touchid);
	tt_json_emit_member_int(&t->w.j, "deviceid", x->deviceid);
	tt_json_emit_member_string(&t->w.j, "client", x->client);
	trace_member_point(&t->w, "first", x->begin_root_x, x->begin_root_y);
	trace_member_point(&t->w, "last", x->root_x, x->root_y);
	tt_json_emit_member_int(&t->w.j, "updates", (int64_t)x->nupdates);
	lines_args(&t->w, x->begin_line, x->end_line);
	tt_json_emit_member_bool(&t->w.j, "emulating_pointer", x->flags & TT_XTOUCH_EMULATING_POINTER);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	trace_lane_free(t, &track);
}

/* ---- HID ---- */

static void
on_hid_begin(void *data, struct tt_htouch *h)
{
	struct tt_trace *t = data;
	struct trace_track track = trace_lane_take(t, trace_pid(TRACE_HID, h->device),
						   h->kind == TT_HTOUCH_PEN ? "pen" : "contacts");

	h->user = tid_user(track.tid);
}

static void
on_hid_end(void *data, struct tt_htouch *h)
{
	struct tt_trace *t = data;
	struct trace_track track = { trace_pid(TRACE_HID, h->device), user_tid(h->user) };
	char name[48];

	if (h->kind == TT_HTOUCH_PEN)
		snprintf(name, sizeof(name), "pen");
	else
		snprintf(name, sizeof(name), "contact %d", h->contact_id);
	trace_slice(&t->w, name, "hid", h->begin_us, h->end_us, &track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "serial", (int64_t)h->serial);
	tt_json_emit_member_int(&t->w.j, "contact_id", h->contact_id);
	tt_json_emit_member_int(&t->w.j, "collection", h->collection);
	trace_member_point(&t->w, "first", h->begin_x, h->begin_y);
	trace_member_point(&t->w, "last", h->x, h->y);
	tt_json_emit_member_int(&t->w.j, "reports", (int64_t)h->nreports);
	lines_args(&t->w, h->begin_line, h->end_line);
	tt_json_emit_member_bool(&t->w.j, "vanished", h->flags & TT_HTOUCH_VANISHED);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	trace_lane_free(t, &track);
	if (h->link != TT_LINK_LINKED)
		return;

	struct trace_track k = slot_track(t, TRACE_KERNEL, h->evdev_device, h->slot);

	trace_flow(&t->w, "HID to kernel", &track, h->begin_us, &k, h->kernel_begin_us);
}

/* ---- libinput ---- */

static void
on_li_touch_end(void *data, const struct tt_li_touch *l)
{
	struct tt_trace *t = data;

	trace_name_li(t, l->device);
	struct trace_track track = slot_track(t, TRACE_LI, l->device, l->slot);
	char name[48];

	snprintf(name, sizeof(name), "touch seat slot %d", l->seat_slot);
	trace_slice(&t->w, name, "libinput", l->begin_us, l->end_us, &track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "slot", l->slot);
	tt_json_emit_member_int(&t->w.j, "seat_slot", l->seat_slot);
	tt_json_emit_member_int(&t->w.j, "motions", (int64_t)l->nmotions);
	lines_args(&t->w, l->begin_line, l->end_line);
	tt_json_emit_member_bool(&t->w.j, "cancelled", l->cancelled);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	if (!l->kernel_serial)
		return;

	struct trace_track k = slot_track(t, TRACE_KERNEL, l->device, l->slot);

	trace_flow(&t->w, "kernel to libinput", &k, l->begin_us - l->latency_us, &track, l->begin_us);
}

/* ---- Wayland ---- */

static void
on_wl_touch_begin(void *data, struct tt_wl_touch *w)
{
	struct tt_trace *t = data;

	trace_name_wl(t);
	w->user = tid_user(trace_lane_take(t, trace_pid(TRACE_WL, 0), w->client).tid);
}

static void
on_wl_touch_end(void *data, struct tt_wl_touch *w)
{
	struct tt_trace *t = data;
	struct trace_track track = { trace_pid(TRACE_WL, 0), user_tid(w->user) };
	char name[48];

	snprintf(name, sizeof(name), "touch %d", w->id);
	trace_slice(&t->w, name, "wayland", w->begin_us, w->end_us, &track);
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "id", w->id);
	tt_json_emit_member_string(&t->w.j, "client", w->client);
	trace_member_point(&t->w, "first", w->begin_x, w->begin_y);
	trace_member_point(&t->w, "last", w->x, w->y);
	tt_json_emit_member_int(&t->w.j, "motions", (int64_t)w->nmotions);
	tt_json_emit_member_int(&t->w.j, "frames", (int64_t)w->nframes);
	lines_args(&t->w, w->begin_line, w->end_line);
	tt_json_emit_member_bool(&t->w.j, "cancelled", w->cancelled);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	trace_lane_free(t, &track);
	if (w->link != TT_LINK_LINKED)
		return;

	struct trace_track k = slot_track(t, TRACE_KERNEL, w->kernel_device, w->kernel_slot);

	trace_flow(&t->w, "kernel to Wayland", &k, w->kernel_begin_us, &track, w->begin_us);
}

void
trace_touches_subscribe(struct tt_trace *t)
{
	static const struct tt_model_callbacks cb = {
		.kernel_begin = on_kernel_begin,
		.kernel_update = on_kernel_update,
		.kernel_end = on_kernel_end,
		.xi_begin = on_xi_begin,
		.xi_end = on_xi_end,
		.hid_begin = on_hid_begin,
		.hid_end = on_hid_end,
	};
	static const struct tt_li_callbacks li = { .touch_end = on_li_touch_end };
	static const struct tt_wl_callbacks wl = {
		.touch_begin = on_wl_touch_begin,
		.touch_end = on_wl_touch_end,
	};

	(void)tt_stack_subscribe(t->stack, &cb, t);	/* the first subscriber: room */
	tt_stack_subscribe_li(t->stack, &li, t);
	tt_stack_subscribe_wl(t->stack, &wl, t);
}
