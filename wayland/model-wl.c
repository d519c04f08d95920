/* SPDX-License-Identifier: MIT */
/* The Wayland layer's model: wl_touch sequences per client, wl_touch's
 * protocol rules, and the link to the kernel (and libinput) touches.
 * See model-wl.h for what it promises. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model-krefs.h"
#include "model-wl.h"
#include "stack.h"

/* The recorder reads the evdev fd and the Wayland socket in one loop:
 * a kernel frame's record may come a little after the wl event it
 * caused, and the two clocks are read at slightly different moments. */
#define WL_LINK_SLACK_US 2000
/* Ids remembered after their up or cancel, per client, to tell an event
 * after the up from one for an id never down. */
#define WL_RECENT_ENDS 64
#define WL_MAX_OPEN 256
/* A compositor timestamp further than this from the kernel's time is on
 * another clock or base (not CLOCK_MONOTONIC): it says nothing of the
 * latency. */
#define WL_STAMP_MAX_US 10000000
/* wl_touch and wl_pointer times are 32-bit milliseconds. */
#define WL_MS_WRAP_US ((int64_t)1 << 32) * 1000

/* A libinput TOUCH_DOWN, for the libinput touch of a kernel touch. */
struct lidown {
	uint32_t device;
	int32_t slot, seat_slot;
	int64_t time_us;
	size_t line;
};

struct wdev {
	uint32_t id;
	bool has_pos;
	double xmin, xmax, ymin, ymax;
};

enum end_kind { ENDED_UP, ENDED_CANCEL };

struct wclient {
	char name[32];
	struct tt_wl_touch **open;
	size_t nopen, capopen;
	struct { int32_t id; enum end_kind how; } ends[WL_RECENT_ENDS];
	size_t nends;		/* ring: total seen */
	/* The group of touch events not yet closed by a frame. */
	bool group;
	bool group_timed;
	uint32_t group_ms;
	size_t group_line;
	int64_t group_us;
	int32_t group_id;
};

struct tt_wl_model {
	struct tt_wl_callbacks cb;
	void *data;
	tt_diag_fn fn;
	void *diag_data;
	bool link_on;
	int64_t window_us;
	double tolerance;
	bool has_layer;
	bool has_touch_device;
	int64_t start_monotonic_us;
	uint64_t serial;

	/* The surface: the toplevel's configured size, else the first
	 * output's mode in surface coordinates. */
	int32_t surf_width, surf_height;
	bool have_output;
	bool output_seen;
	uint32_t output_obj;	/* the first output's object id (0: unknown) */
	int32_t out_width, out_height, out_scale, out_transform;

	struct wdev *devs;
	size_t ndevs;
	struct tt_krefs krefs;	/* nx/ny: begin position normalized to 0..1 */
	struct lidown *lidowns;
	size_t nlidowns, caplidowns;
	struct wclient *clients;
	size_t nclients;
	int64_t now;
};

/* ---- diagnostics ---- */

static void
report(struct tt_wl_model *m, enum tt_check check, const struct wclient *c, int32_t id,
       size_t line, int64_t t, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
report(struct tt_wl_model *m, enum tt_check check, const struct wclient *c, int32_t id,
       size_t line, int64_t t, const char *fmt, ...)
{
	struct tt_diag d;
	va_list ap;

	if (!m->fn)
		return;
	tt_diag_init(&d, check, line, t, -1);
	d.touchid = id;
	snprintf(d.client, sizeof(d.client), "%s", c->name);
	va_start(ap, fmt);
	vsnprintf(d.message, sizeof(d.message), fmt, ap);
	va_end(ap);
	m->fn(m->diag_data, &d);
}

/* ---- kernel touches ---- */

static struct wdev *
find_dev(struct tt_wl_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->ndevs; i++) {
		if (m->devs[i].id == id)
			return &m->devs[i];
	}
	return NULL;
}

static void
feed_device(struct tt_wl_model *m, const struct tt_device *dev)
{
	const struct tt_absinfo *ax = &dev->abs[ABS_MT_POSITION_X], *ay = &dev->abs[ABS_MT_POSITION_Y];
	struct wdev *d = find_dev(m, dev->id);
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) && tt_device_has(dev, EV_ABS, ABS_MT_POSITION_Y);

	if (!tt_device_is_touch(dev))
		return;
	m->has_touch_device = true;
	if (!d) {
		if (m->ndevs >= TT_MAX_DEVICES)
			return;
		m->devs = tt_reallocarray(m->devs, m->ndevs + 1, sizeof(*m->devs));
		d = &m->devs[m->ndevs++];
	}
	/* Single-touch devices: the model maps ABS_X/Y onto the MT axes. */
	if (!mt) {
		ax = &dev->abs[ABS_X];
		ay = &dev->abs[ABS_Y];
	}
	*d = (struct wdev){
		.id = dev->id, .xmin = ax->minimum, .xmax = ax->maximum, .ymin = ay->minimum, .ymax = ay->maximum,
	};
	d->has_pos = d->xmax > d->xmin && d->ymax > d->ymin;
}

static void
on_kbegin(void *data, struct tt_ktouch *t);

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct tt_wl_model *m = data;

	if (m->link_on)
		tt_krefs_end(&m->krefs, t);
}

/* Forgets the kernel touches and libinput downs no Wayland touch can
 * still link to. */
static void
prune(struct tt_wl_model *m)
{
	int64_t keep_after = m->now - m->window_us - WL_LINK_SLACK_US;
	size_t j = 0;

	tt_krefs_prune(&m->krefs, keep_after);
	for (size_t i = 0; i < m->nlidowns; i++) {
		if (m->lidowns[i].time_us >= keep_after)
			m->lidowns[j++] = m->lidowns[i];
	}
	m->nlidowns = j;
}

/* ---- the link ---- */

/* The surface size a fullscreen surface on the first output has. */
static bool
surface_size(const struct tt_wl_model *m, double *w, double *h)
{
	int32_t scale = m->out_scale > 0 ? m->out_scale : 1;

	if (m->surf_width > 0 && m->surf_height > 0) {
		*w = m->surf_width;
		*h = m->surf_height;
		return true;
	}
	if (!m->have_output || m->out_width <= 0 || m->out_height <= 0)
		return false;
	*w = (double)m->out_width / scale;
	*h = (double)m->out_height / scale;
	/* WL_OUTPUT_TRANSFORM_90, _270 and their flipped forms turn it. */
	if (m->out_transform & 1) {
		double s = *w;
		*w = *h;
		*h = s;
	}
	return true;
}

/* How far the kernel touch @k is from @t's down, as a fraction of the
 * surface: 0 when either position is unknown (time alone decides), a
 * negative number when beyond the tolerance. */
static double
position_score(const struct tt_wl_model *m, const struct tt_kref *k, const struct tt_wl_touch *t)
{
	double w, h;

	if (k->nx < 0 || !surface_size(m, &w, &h))
		return 0;
	double dx = fabs(k->nx - t->begin_x / w), dy = fabs(k->ny - t->begin_y / h);
	if (dx > m->tolerance || dy > m->tolerance)
		return -1;
	return hypot(dx, dy);
}

static void
link_li(struct tt_wl_model *m, struct tt_wl_touch *t, const struct tt_kref *k)
{
	for (size_t i = 0; i < m->nlidowns; i++) {
		const struct lidown *l = &m->lidowns[i];
		if (l->device != k->device || (l->slot >= 0 && l->slot != k->slot) ||
		    l->time_us + WL_LINK_SLACK_US < k->begin_us || l->time_us > t->begin_us + WL_LINK_SLACK_US)
			continue;
		t->li_seat_slot = l->seat_slot;
		t->li_begin_us = l->time_us;
		t->li_begin_line = l->line;
	}
}

static void
claim(struct tt_wl_model *m, struct tt_wl_touch *t, struct tt_kref *k)
{
	k->claimed = true;
	t->link = TT_LINK_LINKED;
	t->kernel_serial = k->serial;
	t->kernel_device = k->device;
	t->kernel_slot = k->slot;
	t->kernel_tracking_id = k->tracking_id;
	t->kernel_begin_us = k->begin_us;
	t->kernel_begin_line = k->begin_line;
	t->latency_us = t->begin_us - k->begin_us;
	t->stamp_latency_us = t->has_stamp ? t->stamp_us - k->begin_us : 0;
	if (t->stamp_latency_us > WL_STAMP_MAX_US || t->stamp_latency_us < -WL_STAMP_MAX_US) {
		t->has_stamp = false;
		t->stamp_latency_us = 0;
	}
	link_li(m, t, k);
}

static void
try_link(struct tt_wl_model *m, struct tt_wl_touch *t)
{
	struct tt_kref *best = NULL;
	double best_score = 0;

	if (t->link == TT_LINK_LINKED)
		return;
	for (size_t i = 0; i < m->krefs.n; i++) {
		struct tt_kref *k = &m->krefs.v[i];
		if (k->claimed || k->begin_us > t->begin_us + WL_LINK_SLACK_US ||
		    t->begin_us - k->begin_us > m->window_us)
			continue;
		double score = position_score(m, k, t);
		if (score < 0)
			continue;
		/* The nearest; of equals, the latest begun. */
		if (!best || score < best_score || (score == best_score && k->begin_us > best->begin_us)) {
			best = k;
			best_score = score;
		}
	}
	if (best)
		claim(m, t, best);
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct tt_wl_model *m = data;
	const struct wdev *d = find_dev(m, t->device);
	struct tt_kref *k;

	if (!m->link_on)
		return;
	if (t->begin_us > m->now)
		m->now = t->begin_us;
	prune(m);
	k = tt_krefs_begin(&m->krefs, t);
	if (d && d->has_pos && !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)))) {
		k->nx = (t->begin_x - d->xmin) / (d->xmax - d->xmin);
		k->ny = (t->begin_y - d->ymin) / (d->ymax - d->ymin);
	}
	/* The Wayland touch may have come first in the file. */
	for (size_t i = 0; i < m->nclients; i++) {
		for (size_t j = 0; j < m->clients[i].nopen; j++)
			try_link(m, m->clients[i].open[j]);
	}
}

/* ---- clients and their touches ---- */

static struct wclient *
find_client(struct tt_wl_model *m, const char *name)
{
	const char *n = name ? name : "";

	for (size_t i = 0; i < m->nclients; i++) {
		if (strncmp(m->clients[i].name, n, sizeof(m->clients[i].name) - 1) == 0)
			return &m->clients[i];
	}
	if (m->nclients >= 16)
		return NULL;
	m->clients = tt_reallocarray(m->clients, m->nclients + 1, sizeof(*m->clients));
	struct wclient *c = &m->clients[m->nclients++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", n);
	return c;
}

static ssize_t
find_open(const struct wclient *c, int32_t id)
{
	for (size_t i = 0; i < c->nopen; i++) {
		if (c->open[i]->id == id)
			return (ssize_t)i;
	}
	return -1;
}

/* How @id of @c last ended, if it is among the recent ends. */
static bool
recent_end(const struct wclient *c, int32_t id, enum end_kind *how)
{
	size_t n = c->nends < WL_RECENT_ENDS ? c->nends : WL_RECENT_ENDS;

	for (size_t k = 0; k < n; k++) {
		size_t i = (c->nends - 1 - k) % WL_RECENT_ENDS;
		if (c->ends[i].id == id) {
			*how = c->ends[i].how;
			return true;
		}
	}
	return false;
}

static void
forget_end(struct wclient *c, int32_t id)
{
	size_t n = c->nends < WL_RECENT_ENDS ? c->nends : WL_RECENT_ENDS;

	for (size_t i = 0; i < n; i++) {
		if (c->ends[i].id == id)
			c->ends[i].id = INT32_MIN;
	}
}

static void
end_touch(struct tt_wl_model *m, struct wclient *c, size_t index, enum end_kind how)
{
	_cleanup_free_ struct tt_wl_touch *t = c->open[index];

	c->open[index] = c->open[--c->nopen];
	if (!t->active_at_end) {
		c->ends[c->nends % WL_RECENT_ENDS].id = t->id;
		c->ends[c->nends % WL_RECENT_ENDS].how = how;
		c->nends++;
	}
	t->cancelled = how == ENDED_CANCEL && !t->active_at_end;
	try_link(m, t);
	if (t->link != TT_LINK_LINKED)
		t->link = m->link_on && m->has_touch_device ? TT_LINK_NOT_DELIVERED : TT_LINK_NONE;
	if (m->cb.touch_end)
		m->cb.touch_end(m->data, t);
}

/* ---- the records ---- */

enum wk {
	WK_OTHER,
	WK_DOWN,
	WK_UP,
	WK_MOTION,
	WK_FRAME,
	WK_CANCEL,
	WK_SHAPE,
	WK_ORIENTATION,
	WK_OUTPUT_MODE,
	WK_OUTPUT_SCALE,
	WK_OUTPUT_GEOMETRY,
	WK_CONFIGURE,
};

/* A wl record as the model needs it: the one place that knows the
 * record's fields (lib/model/timeline.h). */
struct wlev {
	enum wk kind;
	int32_t id;
	double x, y;
	bool timed;		/* the compositor's ms time is given */
	uint32_t ms;
	bool has_us;		/* its microsecond timestamp (input-timestamps) */
	int64_t us;		/* CLOCK_MONOTONIC */
	bool has_size;
	int32_t width, height;	/* output mode or toplevel configure */
	bool current;		/* output mode: the current one */
	int32_t scale;		/* output scale, 0: not given */
	int32_t transform;	/* output transform, -1: not given */
};

static void
classify(const struct tt_wl_event *ev, struct wlev *w)
{
	static const struct { enum tt_wl_event_type type; enum wk kind; } map[] = {
		{ TT_WL_TOUCH_DOWN, WK_DOWN },
		{ TT_WL_TOUCH_UP, WK_UP },
		{ TT_WL_TOUCH_MOTION, WK_MOTION },
		{ TT_WL_TOUCH_FRAME, WK_FRAME },
		{ TT_WL_TOUCH_CANCEL, WK_CANCEL },
		{ TT_WL_TOUCH_SHAPE, WK_SHAPE },
		{ TT_WL_TOUCH_ORIENTATION, WK_ORIENTATION },
		{ TT_WL_OUTPUT_MODE, WK_OUTPUT_MODE },
		{ TT_WL_OUTPUT_SCALE, WK_OUTPUT_SCALE },
		{ TT_WL_OUTPUT_GEOMETRY, WK_OUTPUT_GEOMETRY },
		{ TT_WL_TOPLEVEL_CONFIGURE, WK_CONFIGURE },
		{ TT_WL_LAYER_CONFIGURE, WK_CONFIGURE },
	};

	*w = (struct wlev){
		.kind = WK_OTHER, .id = ev->id, .x = ev->x, .y = ev->y,
		.timed = ev->fields & TT_WL_F_TIME_MS, .ms = ev->time_ms,
		.has_us = ev->fields & TT_WL_F_TIME_COMPOSITOR_US, .us = ev->time_compositor_us,
		.has_size = ev->fields & TT_WL_F_SIZE, .width = ev->width, .height = ev->height,
		.current = !(ev->fields & TT_WL_F_MODE_FLAGS) || (ev->mode_flags & 1),
		.scale = (ev->fields & TT_WL_F_SCALE) ? (int32_t)ev->scale : 0,
		.transform = (ev->fields & TT_WL_F_TRANSFORM) ? ev->transform : -1,
	};
	for (size_t i = 0; i < ARRAY_LENGTH(map); i++) {
		if (map[i].type == ev->kind)
			w->kind = map[i].kind;
	}
}

void
tt_wl_event_label(const struct tt_wl_event *ev, char *buf, size_t size)
{
	/* Kept by name for an event this touchtape does not know. */
	snprintf(buf, size, "%s.%s", ev->interface ? ev->interface : tt_wl_interface_name(ev->kind),
		 ev->event ? ev->event : tt_wl_event_name(ev->kind));
}

bool
tt_wl_event_touch_id(const struct tt_wl_event *ev, int32_t *id)
{
	struct wlev w;

	classify(ev, &w);
	switch (w.kind) {
	case WK_DOWN:
	case WK_UP:
	case WK_MOTION:
	case WK_SHAPE:
	case WK_ORIENTATION:
		*id = w.id;
		return true;
	default:
		return false;
	}
}

/* The compositor's ms time nearest the receive time @t, unwrapped, on
 * the recording's clock. */
static int64_t
unwrap_ms(const struct tt_wl_model *m, uint32_t ms, int64_t t)
{
	int64_t us = (int64_t)ms * 1000 - m->start_monotonic_us;

	while (us + WL_MS_WRAP_US / 2 < t)
		us += WL_MS_WRAP_US;
	return us;
}

/* A frame closes the group; events of another compositor time while
 * it is open mean its frame never came. */
static void
group_event(struct tt_wl_model *m, struct wclient *c, const struct wlev *w, size_t line, int64_t t)
{
	if (c->group && w->timed && c->group_timed && w->ms != c->group_ms) {
		report(m, TT_CHECK_WL_FRAME_MISSING, c, c->group_id, c->group_line, c->group_us,
		       "touch events of time %" PRIu32 " ms not closed by a frame before those of %" PRIu32 " ms",
		       c->group_ms, w->ms);
		c->group = false;
	}
	if (!c->group) {
		c->group = true;
		c->group_timed = false;
		c->group_line = line;
		c->group_us = t;
		c->group_id = w->id;
	}
	if (w->timed && !c->group_timed) {
		c->group_timed = true;
		c->group_ms = w->ms;
	}
}

static void
frame_event(struct wclient *c)
{
	if (!c->group)
		return;
	c->group = false;
	for (size_t i = 0; i < c->nopen; i++)
		c->open[i]->nframes++;
}

static void
cancel_event(struct tt_wl_model *m, struct wclient *c)
{
	/* A cancel ends the whole set of touches: no frame follows it. */
	c->group = false;
	while (c->nopen)
		end_touch(m, c, 0, ENDED_CANCEL);
}

static void
down_event(struct tt_wl_model *m, struct wclient *c, const struct wlev *w, size_t line, int64_t t)
{
	ssize_t i = find_open(c, w->id);
	struct tt_wl_touch *n;

	if (i >= 0) {
		report(m, TT_CHECK_WL_TOUCH_ID_REUSED, c, w->id, line, t,
		       "down for touch id %" PRId32 ", already down since line %zu", w->id, c->open[i]->begin_line);
		end_touch(m, c, (size_t)i, ENDED_UP);
	}
	forget_end(c, w->id);
	if (c->nopen >= WL_MAX_OPEN)
		return;
	n = tt_zalloc(sizeof(*n));
	*n = (struct tt_wl_touch){
		.serial = ++m->serial, .id = w->id, .begin_us = t, .end_us = t, .begin_line = line,
		.end_line = line, .begin_x = w->x, .begin_y = w->y, .x = w->x, .y = w->y, .li_seat_slot = -1,
	};
	snprintf(n->client, sizeof(n->client), "%s", c->name);
	if (w->has_us || w->timed) {
		n->has_stamp = true;
		n->stamp_us = w->has_us ? w->us - m->start_monotonic_us : unwrap_ms(m, w->ms, t);
	}
	c->open = tt_grow(c->open, c->nopen, &c->capopen, sizeof(*c->open));
	c->open[c->nopen++] = n;
	try_link(m, n);
	if (m->cb.touch_begin)
		m->cb.touch_begin(m->data, n);
}

/* Motion, up, shape or orientation of an id not down: which rule. */
static void
not_down(struct tt_wl_model *m, struct wclient *c, const char *what, int32_t id, size_t line, int64_t t)
{
	enum end_kind how;

	if (!recent_end(c, id, &how))
		report(m, TT_CHECK_WL_TOUCH_NOT_DOWN, c, id, line, t, "%s for touch id %" PRId32 ", which is not down",
		       what, id);
	else if (how == ENDED_UP)
		report(m, TT_CHECK_WL_EVENT_AFTER_UP, c, id, line, t, "%s for touch id %" PRId32 " after its up",
		       what, id);
	else
		report(m, TT_CHECK_WL_EVENT_AFTER_CANCEL, c, id, line, t,
		       "%s for touch id %" PRId32 " after a cancel ended it", what, id);
}

static const char *
kind_name(enum wk kind)
{
	switch (kind) {
	case WK_UP: return "up";
	case WK_MOTION: return "motion";
	case WK_SHAPE: return "shape";
	case WK_ORIENTATION: return "orientation";
	default: return "event";
	}
}

static void
touch_event(struct tt_wl_model *m, struct wclient *c, const struct tt_wl_event *ev, const struct wlev *w,
	    size_t line)
{
	int64_t t = ev->time_us;
	ssize_t i;

	if (w->kind == WK_FRAME) {
		frame_event(c);
		return;
	}
	if (w->kind == WK_CANCEL) {
		cancel_event(m, c);
		return;
	}
	group_event(m, c, w, line, t);
	if (w->kind == WK_DOWN) {
		down_event(m, c, w, line, t);
		return;
	}
	if ((i = find_open(c, w->id)) < 0) {
		not_down(m, c, kind_name(w->kind), w->id, line, t);
		return;
	}
	struct tt_wl_touch *o = c->open[i];
	o->end_us = t;
	o->end_line = line;
	if (w->kind == WK_MOTION) {
		o->nmotions++;
		o->x = w->x;
		o->y = w->y;
	}
	if (m->cb.touch_update)
		m->cb.touch_update(m->data, o, ev, line);
	if (w->kind == WK_UP)
		end_touch(m, c, (size_t)i, ENDED_UP);
}

/* The surface's size: the toplevel's configure where it gave one, else
 * the first output's current mode, scale and transform (the output the
 * recorder's fullscreen surface is on when there is one). */
static void
output_event(struct tt_wl_model *m, const struct wlev *w)
{
	switch (w->kind) {
	case WK_CONFIGURE:
		/* 0x0: the client chooses; the output decides then. */
		if (w->has_size && w->width > 0 && w->height > 0) {
			m->surf_width = w->width;
			m->surf_height = w->height;
		}
		break;
	case WK_OUTPUT_MODE:
		if (!w->has_size || !w->current)
			break;
		m->have_output = true;
		m->out_width = w->width;
		m->out_height = w->height;
		break;
	case WK_OUTPUT_SCALE:
		if (w->scale > 0)
			m->out_scale = w->scale;
		break;
	case WK_OUTPUT_GEOMETRY:
		if (w->transform >= 0)
			m->out_transform = w->transform;
		break;
	default:
		break;
	}
}

/* Whether @ev is about the first output the file names (other outputs'
 * events are left alone), or the toplevel. */
static bool
first_output(struct tt_wl_model *m, const struct tt_wl_event *ev, const struct wlev *w)
{
	if (w->kind == WK_CONFIGURE)
		return true;
	if (!m->output_seen) {
		m->output_seen = true;
		m->output_obj = ev->object;
	}
	return ev->object == m->output_obj;
}

static void
feed_wl(struct tt_wl_model *m, const struct tt_wl_event *ev, size_t line)
{
	struct wlev w;
	struct wclient *c;

	m->has_layer = true;
	if (ev->time_us > m->now)
		m->now = ev->time_us;
	classify(ev, &w);
	if (w.kind >= WK_OUTPUT_MODE) {
		if (first_output(m, ev, &w))
			output_event(m, &w);
		return;
	}
	if (w.kind == WK_OTHER || !(c = find_client(m, ev->client)))
		return;
	touch_event(m, c, ev, &w, line);
	prune(m);
}

static void
feed_li(struct tt_wl_model *m, const struct tt_li_event *ev, size_t line)
{
	if (ev->kind != TT_LI_TOUCH_DOWN)
		return;
	if (ev->time_us > m->now)
		m->now = ev->time_us;
	prune(m);
	m->lidowns = tt_grow(m->lidowns, m->nlidowns, &m->caplidowns, sizeof(*m->lidowns));
	m->lidowns[m->nlidowns++] = (struct lidown){
		.device = ev->device, .slot = ev->slot, .seat_slot = ev->seat_slot, .time_us = ev->time_us,
		.line = line,
	};
}

/* The compositor went away (or the recorder's connection ended): what
 * was open stays open, without a rule broken; nothing more can come. */
static void
lost(struct tt_wl_model *m)
{
	for (size_t i = 0; i < m->nclients; i++) {
		struct wclient *c = &m->clients[i];
		c->group = false;
		while (c->nopen) {
			c->open[0]->active_at_end = true;
			end_touch(m, c, 0, ENDED_UP);
		}
	}
}

void
tt_wl_model_feed(struct tt_wl_model *m, const struct tt_record *rec)
{
	switch (rec->type) {
	case TT_RECORD_MARKER:
		if (rec->marker->kind == TT_MARKER_WL_LOST)
			lost(m);
		break;
	case TT_RECORD_HEADER:
		m->start_monotonic_us = rec->header->start_monotonic_us;
		break;
	case TT_RECORD_DEVICE:
		feed_device(m, rec->device);
		break;
	case TT_RECORD_WL_EVENT:
		feed_wl(m, rec->wl_event, rec->line);
		return;
	case TT_RECORD_LI_EVENT:
		feed_li(m, rec->li_event, rec->line);
		return;
	default:
		break;
	}
}

/* ---- life ---- */

struct tt_wl_model *
tt_wl_model_new(const struct tt_wl_callbacks *cb, void *data, tt_diag_fn fn, void *diag_data)
{
	struct tt_wl_model *m = tt_zalloc(sizeof(*m));

	tt_wl_model_set_callbacks(m, cb, data);
	m->fn = fn;
	m->diag_data = diag_data;
	m->link_on = true;
	m->window_us = TT_WL_DEFAULT_WINDOW_US;
	m->tolerance = TT_WL_DEFAULT_TOLERANCE;
	return m;
}

void
tt_wl_model_set_callbacks(struct tt_wl_model *m, const struct tt_wl_callbacks *cb, void *data)
{
	static const struct tt_wl_callbacks none;

	m->cb = cb ? *cb : none;
	m->data = data;
}

static void
layer_feed(void *self, const struct tt_record *rec)
{
	tt_wl_model_feed(self, rec);
}

static void
layer_finish(void *self)
{
	tt_wl_model_finish(self);
}

const struct tt_layer_ops *
tt_wl_model_layer(void)
{
	static const struct tt_layer_ops ops = {
		.name = "wayland",
		.feed = layer_feed,
		.finish = layer_finish,
		.kernel = { .kernel_begin = on_kbegin, .kernel_end = on_kend },
	};
	return &ops;
}

void
tt_wl_model_free(struct tt_wl_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nclients; i++) {
		for (size_t j = 0; j < m->clients[i].nopen; j++)
			free(m->clients[i].open[j]);
		free(m->clients[i].open);
	}
	free(m->clients);
	free(m->devs);
	tt_krefs_clear(&m->krefs);
	free(m->lidowns);
	free(m);
}

void
tt_wl_model_set_link(struct tt_wl_model *m, bool on, int64_t window_us, double tolerance)
{
	m->link_on = on;
	m->window_us = window_us > 0 ? window_us : TT_WL_DEFAULT_WINDOW_US;
	m->tolerance = tolerance > 0 ? tolerance : TT_WL_DEFAULT_TOLERANCE;
}

void
tt_wl_model_finish(struct tt_wl_model *m)
{
	for (size_t i = 0; i < m->nclients; i++) {
		struct wclient *c = &m->clients[i];
		if (c->group)
			report(m, TT_CHECK_WL_FRAME_MISSING, c, c->group_id, c->group_line, c->group_us,
			       "touch events not closed by a frame when the recording ends");
	}
	lost(m);
}

bool
tt_wl_model_has_layer(const struct tt_wl_model *m)
{
	return m->has_layer;
}

const struct tt_wl_touch *
tt_wl_model_touch(const struct tt_wl_model *m, const char *client, int32_t id)
{
	for (size_t i = 0; i < m->nclients; i++) {
		const struct wclient *c = &m->clients[i];
		if (strcmp(c->name, client ? client : "") != 0)
			continue;
		ssize_t k = find_open(c, id);
		return k >= 0 ? c->open[k] : NULL;
	}
	return NULL;
}
