/* SPDX-License-Identifier: MIT */
/* The libinput layer's model: libinput touches and gestures linked to the
 * kernel touches under them, and libinput's events counted per device.
 * See model-li.h for what it promises. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/types.h>

#include "model.h"
#include "model-krefs.h"
#include "model-li.h"
#include "stack.h"

/* libinput and the recorder read the same kernel event at slightly
 * different moments; a libinput touch may come a little before the
 * kernel touch in the file. */
#define LI_LINK_SLACK_US 2000
#define LI_UNSEEN_KEEP_US 10000000

struct ldev {
	struct tt_li_counts c;
};

struct tt_li_model {
	struct tt_li_callbacks cb;
	void *data;
	const struct tt_model *kernel;	/* the stack's: its keys down */
	int64_t window_us;
	bool has_layer;
	bool seen;		/* an li record came: the kernel touches matter */
	int64_t now;
	uint64_t tserial, gserial;

	struct tt_krefs krefs;	/* claimed: linked to a libinput touch */
	struct tt_li_touch *touches;	/* open */
	size_t ntouches, captouches;
	struct tt_li_gesture *gestures;	/* open: one per device at most */
	size_t ngestures, capgestures;
	struct ldev *devs;
	struct tt_li_counts *counts;	/* handed out: a copy of devs[].c */
	size_t ndevs;
};

static struct ldev *
ldev_get(struct tt_li_model *m, uint32_t device)
{
	for (size_t i = 0; i < m->ndevs; i++) {
		if (m->devs[i].c.device == device)
			return &m->devs[i];
	}
	if (m->ndevs >= TT_MAX_DEVICES)
		return NULL;
	m->devs = tt_reallocarray(m->devs, m->ndevs + 1, sizeof(*m->devs));
	m->counts = tt_reallocarray(m->counts, m->ndevs + 1, sizeof(*m->counts));
	struct ldev *d = &m->devs[m->ndevs++];
	memset(d, 0, sizeof(*d));
	d->c.device = device;
	return d;
}

/* The kernel touch @t came from: same device and slot, begun within the
 * window before it, not yet taken; the latest such. */
static void
try_link(struct tt_li_model *m, struct tt_li_touch *t)
{
	struct tt_kref *best = NULL;

	if (t->kernel_serial)
		return;
	for (size_t i = 0; i < m->krefs.n; i++) {
		struct tt_kref *k = &m->krefs.v[i];
		if (k->claimed || k->device != t->device || (t->slot >= 0 && k->slot != t->slot))
			continue;
		if (k->begin_us > t->begin_us + LI_LINK_SLACK_US || t->begin_us - k->begin_us > m->window_us)
			continue;
		if (!best || k->begin_us > best->begin_us)
			best = k;
	}
	if (!best)
		return;
	best->claimed = true;
	t->kernel_serial = best->serial;
	t->kernel_tracking_id = best->tracking_id;
	t->latency_us = t->begin_us - best->begin_us;
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct tt_li_model *m = data;

	/* Until an li record comes, only li events of the last seconds
	 * can still link (the recorder writes them as they come): memory
	 * stays bounded in a file without a libinput layer. */
	if (!m->seen)
		tt_krefs_prune(&m->krefs, t->begin_us - LI_UNSEEN_KEEP_US);
	tt_krefs_begin(&m->krefs, t);
	/* libinput's touch may have come first in the file. */
	for (size_t i = 0; i < m->ntouches; i++)
		try_link(m, &m->touches[i]);
}

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct tt_li_model *m = data;

	tt_krefs_end(&m->krefs, t);
}

/* Forgets the kernel touches no libinput touch or open gesture can still
 * need. */
static void
prune_krefs(struct tt_li_model *m)
{
	int64_t keep_after = m->now - m->window_us;

	for (size_t i = 0; i < m->ngestures; i++) {
		if (m->gestures[i].begin_us < keep_after)
			keep_after = m->gestures[i].begin_us;
	}
	tt_krefs_prune(&m->krefs, keep_after);
}

struct tt_li_model *
tt_li_model_new(const struct tt_model *kernel)
{
	struct tt_li_model *m = tt_zalloc(sizeof(*m));

	m->kernel = kernel;
	m->window_us = TT_LI_DEFAULT_WINDOW_US;
	return m;
}

void
tt_li_model_set_callbacks(struct tt_li_model *m, const struct tt_li_callbacks *cb, void *data)
{
	static const struct tt_li_callbacks none;

	m->cb = cb ? *cb : none;
	m->data = data;
}

void
tt_li_model_free(struct tt_li_model *m)
{
	if (!m)
		return;
	tt_krefs_clear(&m->krefs);
	free(m->touches);
	free(m->gestures);
	free(m->devs);
	free(m->counts);
	free(m);
}

void
tt_li_model_set_window(struct tt_li_model *m, int64_t window_us)
{
	m->window_us = window_us > 0 ? window_us : TT_LI_DEFAULT_WINDOW_US;
}

static uint32_t
button_bit(uint16_t code)
{
	switch (code) {
	case BTN_LEFT: return 1u << 0;
	case BTN_RIGHT: return 1u << 1;
	case BTN_MIDDLE: return 1u << 2;
	default: return 0;
	}
}

/* ---- touches ---- */

static struct tt_li_touch *
find_touch(struct tt_li_model *m, const struct tt_li_event *ev, size_t *index)
{
	for (size_t i = 0; i < m->ntouches; i++) {
		struct tt_li_touch *t = &m->touches[i];
		if (t->device == ev->device && t->seat_slot == ev->seat_slot) {
			*index = i;
			return t;
		}
	}
	return NULL;
}

static void
end_touch(struct tt_li_model *m, size_t index, struct ldev *d)
{
	struct tt_li_touch t = m->touches[index];

	try_link(m, &t);
	memmove(&m->touches[index], &m->touches[index + 1], (m->ntouches - index - 1) * sizeof(t));
	m->ntouches--;
	if (d) {
		d->c.touches++;
		d->c.touches_cancelled += t.cancelled;
		d->c.touches_linked += t.kernel_serial != 0;
	}
	if (m->cb.touch_end)
		m->cb.touch_end(m->data, &t);
}

static void
touch_event(struct tt_li_model *m, const struct tt_li_event *ev, size_t line, struct ldev *d)
{
	size_t i;
	struct tt_li_touch *t = find_touch(m, ev, &i);

	if (ev->kind == TT_LI_TOUCH_DOWN) {
		if (t)	/* a down without an up: libinput never does that */
			end_touch(m, i, d);
		m->touches = tt_grow(m->touches, m->ntouches, &m->captouches, sizeof(*m->touches));
		t = &m->touches[m->ntouches++];
		*t = (struct tt_li_touch){
			.serial = ++m->tserial, .device = ev->device, .slot = ev->slot,
			.seat_slot = ev->seat_slot, .begin_us = ev->time_us, .end_us = ev->time_us,
			.begin_line = line, .end_line = line,
		};
		try_link(m, t);
		return;
	}
	if (!t)
		return;
	t->end_us = ev->time_us;
	t->end_line = line;
	if (ev->kind == TT_LI_TOUCH_MOTION) {
		t->nmotions++;
		return;
	}
	t->cancelled = ev->kind == TT_LI_TOUCH_CANCEL;
	end_touch(m, i, d);
}

/* ---- gestures ---- */

bool
tt_li_gesture_phase(enum tt_li_event_type type, enum tt_li_gesture_kind *kind, int *phase)
{
	static const struct { enum tt_li_event_type type; enum tt_li_gesture_kind kind; int phase; } map[] = {
		{ TT_LI_GESTURE_SWIPE_BEGIN, TT_LI_GESTURE_SWIPE, 0 },
		{ TT_LI_GESTURE_SWIPE_UPDATE, TT_LI_GESTURE_SWIPE, 1 },
		{ TT_LI_GESTURE_SWIPE_END, TT_LI_GESTURE_SWIPE, 2 },
		{ TT_LI_GESTURE_PINCH_BEGIN, TT_LI_GESTURE_PINCH, 0 },
		{ TT_LI_GESTURE_PINCH_UPDATE, TT_LI_GESTURE_PINCH, 1 },
		{ TT_LI_GESTURE_PINCH_END, TT_LI_GESTURE_PINCH, 2 },
		{ TT_LI_GESTURE_HOLD_BEGIN, TT_LI_GESTURE_HOLD, 0 },
		{ TT_LI_GESTURE_HOLD_END, TT_LI_GESTURE_HOLD, 2 },
	};
	for (size_t i = 0; i < ARRAY_LENGTH(map); i++) {
		if (map[i].type == type) {
			*kind = map[i].kind;
			*phase = map[i].phase;
			return true;
		}
	}
	return false;
}

/* The kernel touches under gesture @g, and how long after the last
 * of them landed libinput began it. */
static void
gesture_kernel(const struct tt_li_model *m, struct tt_li_gesture *g)
{
	int64_t last_down = INT64_MIN;

	g->nkernel = 0;
	for (size_t i = 0; i < m->krefs.n; i++) {
		const struct tt_kref *k = &m->krefs.v[i];
		if (k->device != g->device || k->begin_us > g->end_us || k->end_us < g->begin_us)
			continue;
		g->nkernel++;
		if (k->begin_us <= g->begin_us && k->begin_us > last_down)
			last_down = k->begin_us;
	}
	g->latency_us = last_down == INT64_MIN ? -1 : g->begin_us - last_down;
}

static void
end_gesture(struct tt_li_model *m, size_t index, struct ldev *d)
{
	struct tt_li_gesture g = m->gestures[index];

	memmove(&m->gestures[index], &m->gestures[index + 1], (m->ngestures - index - 1) * sizeof(g));
	m->ngestures--;
	gesture_kernel(m, &g);
	if (d) {
		int32_t f = g.fingers < 0 ? 0 : g.fingers > TT_LI_MAX_FINGERS ? TT_LI_MAX_FINGERS : g.fingers;
		d->c.gestures[g.kind][f]++;
		d->c.gestures_cancelled += g.cancelled;
	}
	if (m->cb.gesture_end)
		m->cb.gesture_end(m->data, &g);
}

static ssize_t
find_gesture(const struct tt_li_model *m, uint32_t device)
{
	for (size_t i = 0; i < m->ngestures; i++) {
		if (m->gestures[i].device == device)
			return (ssize_t)i;
	}
	return -1;
}

static void
gesture_begin(struct tt_li_model *m, const struct tt_li_event *ev, size_t line,
	      enum tt_li_gesture_kind kind, struct ldev *d)
{
	ssize_t i = find_gesture(m, ev->device);

	if (i >= 0)	/* a BEGIN without an END: libinput never does that */
		end_gesture(m, (size_t)i, d);
	m->gestures = tt_grow(m->gestures, m->ngestures, &m->capgestures, sizeof(*m->gestures));
	m->gestures[m->ngestures++] = (struct tt_li_gesture){
		.serial = ++m->gserial, .device = ev->device, .kind = kind, .fingers = ev->fingers,
		.begin_us = ev->time_us, .end_us = ev->time_us, .begin_line = line, .end_line = line,
		.scale = 1.0, .latency_us = -1,
	};
}

static void
gesture_event(struct tt_li_model *m, const struct tt_li_event *ev, size_t line,
	      enum tt_li_gesture_kind kind, int phase, struct ldev *d)
{
	ssize_t i;
	struct tt_li_gesture *g;

	if (phase == 0) {
		gesture_begin(m, ev, line, kind, d);
		return;
	}
	if ((i = find_gesture(m, ev->device)) < 0)
		return;
	g = &m->gestures[i];
	g->end_us = ev->time_us;
	g->end_line = line;
	if (phase == 2) {
		g->cancelled = ev->cancelled;
		end_gesture(m, (size_t)i, d);
		return;
	}
	g->nupdates++;
	g->dx += ev->dx_unaccel;
	g->dy += ev->dy_unaccel;
	if (kind == TT_LI_GESTURE_PINCH) {
		g->scale = ev->scale;
		g->angle += ev->angle;
	}
}

/* ---- pointer ---- */

static void
scroll_event(struct tt_li_counts *c, const struct tt_li_event *ev)
{
	int source = ev->kind == TT_LI_POINTER_SCROLL_FINGER ? 0 :
		     ev->kind == TT_LI_POINTER_SCROLL_CONTINUOUS ? 1 : 2;

	c->scroll_events[source]++;
	if (source == 2) {
		c->wheel_v120_vert += ev->has_vert ? ev->vert_v120 : 0;
		c->wheel_v120_horiz += ev->has_horiz ? ev->horiz_v120 : 0;
		return;
	}
	c->scroll_vert += ev->has_vert ? ev->vert : 0;
	c->scroll_horiz += ev->has_horiz ? ev->horiz : 0;
}

/* A kernel button down on the device, as the kernel model has it when the
 * libinput event comes: a click, not a tap. */
static bool
kernel_button_down(const struct tt_li_model *m, uint32_t device)
{
	const uint8_t *keys = m->kernel ? tt_model_keys(m->kernel, device) : NULL;

	return keys && (bit_is_set(keys, BTN_LEFT) || bit_is_set(keys, BTN_RIGHT) || bit_is_set(keys, BTN_MIDDLE));
}

static void
button_event(const struct tt_li_model *m, struct ldev *d, const struct tt_li_event *ev)
{
	uint32_t bit = button_bit((uint16_t)ev->code);

	if (!ev->pressed)
		return;
	d->c.button_presses++;
	/* A tap has no kernel button under it. */
	if (!bit || kernel_button_down(m, d->c.device))
		return;
	d->c.taps++;
	d->c.tap_buttons[bit == 1 ? 0 : bit == 2 ? 1 : 2]++;
}

static void pointer_event(const struct tt_li_model *m, struct ldev *d, const struct tt_li_event *ev);

/* A pointer event; a press the counts took for a tap is told. */
static void
pointer_and_tap(struct tt_li_model *m, struct ldev *d, const struct tt_li_event *ev, size_t line)
{
	uint64_t before[3];

	memcpy(before, d->c.tap_buttons, sizeof(before));
	pointer_event(m, d, ev);
	for (uint32_t b = 0; b < 3 && m->cb.tap; b++) {
		if (d->c.tap_buttons[b] != before[b])
			m->cb.tap(m->data, d->c.device, ev->time_us, b, line);
	}
}

static void
pointer_event(const struct tt_li_model *m, struct ldev *d, const struct tt_li_event *ev)
{
	switch (ev->kind) {
	case TT_LI_POINTER_MOTION:
		d->c.motions++;
		d->c.motion_accel += hypot(ev->dx, ev->dy);
		d->c.motion_unaccel += hypot(ev->dx_unaccel, ev->dy_unaccel);
		break;
	case TT_LI_POINTER_BUTTON:
		button_event(m, d, ev);
		break;
	case TT_LI_POINTER_SCROLL_WHEEL:
	case TT_LI_POINTER_SCROLL_FINGER:
	case TT_LI_POINTER_SCROLL_CONTINUOUS:
		scroll_event(&d->c, ev);
		break;
	case TT_LI_OTHER:
		d->c.unknown_events++;
		break;
	default:
		break;
	}
}

static void
feed_li(struct tt_li_model *m, const struct tt_li_event *ev, size_t line)
{
	struct ldev *d = ldev_get(m, ev->device);
	enum tt_li_gesture_kind kind;
	int phase;

	m->has_layer = true;
	if (d)
		d->c.li_seen = true;
	if (ev->time_us > m->now)
		m->now = ev->time_us;
	switch (ev->kind) {
	case TT_LI_TOUCH_DOWN:
	case TT_LI_TOUCH_MOTION:
	case TT_LI_TOUCH_UP:
	case TT_LI_TOUCH_CANCEL:
		touch_event(m, ev, line, d);
		return;
	default:
		break;
	}
	if (tt_li_gesture_phase(ev->kind, &kind, &phase))
		gesture_event(m, ev, line, kind, phase, d);
	else if (d)
		pointer_and_tap(m, d, ev, line);
	prune_krefs(m);
}

void
tt_li_model_feed(struct tt_li_model *m, const struct tt_record *rec)
{
	struct ldev *d;

	switch (rec->type) {
	case TT_RECORD_FRAME:
		m->now = rec->frame->time_us;
		break;
	case TT_RECORD_LI_DEVICE:
		m->has_layer = m->seen = true;
		if ((d = ldev_get(m, rec->li_device->device)))
			d->c.li_seen = true;
		break;
	case TT_RECORD_LI_EVENT:
		m->seen = true;
		feed_li(m, rec->li_event, rec->line);
		break;
	default:
		break;
	}
}

void
tt_li_model_finish(struct tt_li_model *m)
{
	while (m->ntouches) {
		m->touches[0].active_at_end = true;
		end_touch(m, 0, ldev_get(m, m->touches[0].device));
	}
	while (m->ngestures) {
		m->gestures[0].active_at_end = true;
		end_gesture(m, 0, ldev_get(m, m->gestures[0].device));
	}
}

static void
layer_feed(void *self, const struct tt_record *rec)
{
	tt_li_model_feed(self, rec);
}

static void
layer_finish(void *self)
{
	tt_li_model_finish(self);
}

const struct tt_layer_ops *
tt_li_model_layer(void)
{
	static const struct tt_layer_ops ops = {
		.name = "libinput",
		.feed = layer_feed,
		.finish = layer_finish,
		.kernel = { .kernel_begin = on_kbegin, .kernel_end = on_kend },
	};
	return &ops;
}

const struct tt_li_counts *
tt_li_model_counts(const struct tt_li_model *m, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < m->ndevs; i++) {
		if (m->devs[i].c.li_seen)
			m->counts[k++] = m->devs[i].c;
	}
	*n = k;
	return m->counts;
}

bool
tt_li_model_has_layer(const struct tt_li_model *m)
{
	return m->has_layer;
}

const char *
tt_li_gesture_kind_name(enum tt_li_gesture_kind kind)
{
	switch (kind) {
	case TT_LI_GESTURE_SWIPE: return "swipe";
	case TT_LI_GESTURE_PINCH: return "pinch";
	case TT_LI_GESTURE_HOLD: return "hold";
	default: return "?";
	}
}

double
tt_li_counts_accel_ratio(const struct tt_li_counts *c)
{
	return c->motion_unaccel > 0 ? c->motion_accel / c->motion_unaccel : NAN;
}
