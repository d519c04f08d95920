/* SPDX-License-Identifier: MIT */
/*
 * The grade's measurements: a layer of the stack that follows every evdev
 * touch device's frames and touches and keeps, per device, the worst value
 * of each metric and where it was. A touch's samples live from its begin
 * to its end, so memory follows the longest touch.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "grade.h"
#include "grade-stroke.h"
#include "util-mem.h"
#include "util-stats.h"

/* Report rates are kept per number of contacts down up to this. */
#define GRADE_MAX_N 16
/* Without an edge exercise, an edge no touch came this near is not
 * graded: a person who never went there tells nothing about it. */
#define GRADE_EDGE_NEAR_MM 3.0

struct gtouch {
	uint64_t serial;	/* the kernel touch's */
	struct tt_grade_point *pts;	/* only when the device has mm */
	size_t n, cap;
	enum tt_guide_exercise ex;
	int32_t peak[TT_GRADE_RANGE_COUNT];	/* -1: never given */
};

struct gdev {
	const struct tt_device *dev;
	double upmm_x, upmm_y;	/* units per mm; 0: no resolution */
	uint64_t ntouches;
	bool have_prev;
	int64_t prev_us;
	uint32_t prev_n;
	struct tt_interval_hist rate, rate_n[GRADE_MAX_N + 1];
	int64_t touching_from, touching_to;
	/* The worst value of each metric; [1]: of touches in the guide's
	 * exercise for it. */
	struct tt_grade_value v[2][TT_GRADE_METRIC_COUNT];
	/* The touches down, by slot (the model's slot is unique among
	 * the touches down on a device, Type A's included). */
	struct gtouch *down[TT_MAX_SLOTS];
	struct tt_grade_range range[TT_GRADE_RANGE_COUNT];
	/* The samples of the touch that gave the worst stationary jitter
	 * (by the rule, [1]: in the guide's exercise). */
	struct tt_grade_point *still[2];
	size_t nstill[2];
	int64_t *hid_lat, *client_lat;	/* µs, one per linked touch */
	size_t nhid_lat, hid_cap, nclient_lat, client_cap;
};

struct tt_grade {
	struct tt_stack *stack;
	struct gdev *devs[TT_MAX_DEVICES];
	const struct tt_device *declared[TT_MAX_DEVICES];
	enum tt_guide_exercise ex;	/* the exercise under way */
	bool seen[TT_GUIDE_COUNT];	/* exercises the guide announced */
};

static void
gtouch_free(struct gtouch *gt)
{
	if (!gt)
		return;
	free(gt->pts);
	free(gt);
}

static struct gdev *
gdev_get(struct tt_grade *g, uint32_t id)
{
	struct gdev *d;

	if (id >= TT_MAX_DEVICES || !g->declared[id])
		return NULL;
	if (g->devs[id])
		return g->devs[id];
	d = g->devs[id] = tt_zalloc(sizeof(*d));
	d->dev = g->declared[id];
	d->upmm_x = d->dev->abs[ABS_MT_POSITION_X].resolution;
	d->upmm_y = d->dev->abs[ABS_MT_POSITION_Y].resolution;
	if (!bit_is_set(d->dev->codes[EV_ABS], ABS_MT_POSITION_X)) {
		d->upmm_x = d->dev->abs[ABS_X].resolution;
		d->upmm_y = d->dev->abs[ABS_Y].resolution;
	}
	d->touching_from = d->touching_to = -1;
	for (int r = 0; r < TT_GRADE_RANGE_COUNT; r++)
		d->range[r] = (struct tt_grade_range){ .min = INT32_MAX, .max = INT32_MIN,
						       .peak_min = INT32_MAX, .peak_max = INT32_MIN };
	for (int k = 0; k < 2; k++) {
		for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++)
			d->v[k][m] = (struct tt_grade_value){ .from_us = -1, .to_us = -1 };
	}
	return d;
}

static bool
has_mm(const struct gdev *d)
{
	return d->upmm_x > 0 && d->upmm_y > 0;
}

/* The axis a position is on: MT, or the single-touch axes. */
static const struct tt_absinfo *
axis(const struct tt_device *dev, bool y)
{
	int mt = y ? ABS_MT_POSITION_Y : ABS_MT_POSITION_X;

	if (bit_is_set(dev->codes[EV_ABS], mt))
		return &dev->abs[mt];
	return &dev->abs[y ? ABS_Y : ABS_X];
}

/* Keeps @value when it is worse than the one kept: true when it was. */
static bool
keep(struct tt_grade_value *v, bool larger, double value, int64_t from, int64_t to, size_t line)
{
	if (v->measured && (larger ? value <= v->value : value >= v->value))
		return false;
	*v = (struct tt_grade_value){ .measured = true, .value = value, .from_us = from, .to_us = to, .line = line };
	return true;
}

static void
keep_still(struct gdev *d, int k, const struct gtouch *gt)
{
	free(d->still[k]);
	d->still[k] = tt_zalloc(gt->n * sizeof(*gt->pts));
	memcpy(d->still[k], gt->pts, gt->n * sizeof(*gt->pts));
	d->nstill[k] = gt->n;
}

/* Edge reach: the nearest any sample came to each edge of the range. */
static void
keep_edges(struct gdev *d, const struct tt_ktouch *t, const struct tt_grade_point *p, size_t n)
{
	const struct tt_absinfo *ax = axis(d->dev, false), *ay = axis(d->dev, true);
	double w = (ax->maximum - ax->minimum) / d->upmm_x, h = (ay->maximum - ay->minimum) / d->upmm_y;

	for (size_t i = 0; i < n; i++) {
		const double dist[4] = { p[i].x, w - p[i].x, p[i].y, h - p[i].y };
		for (int e = 0; e < 4; e++)
			keep(&d->v[0][TT_GRADE_EDGE_LEFT + e], false, fmax(dist[e], 0.0), p[i].t_us, p[i].t_us,
			     t->begin_line);
	}
}

static void
measure_touch(struct gdev *d, const struct tt_ktouch *t, const struct gtouch *gt)
{
	const int k = 0, kg = 1;
	struct tt_grade_stroke s;
	int64_t from, to;
	double jitter;
	bool guided;

	keep_edges(d, t, gt->pts, gt->n);
	guided = gt->ex == TT_GUIDE_STATIONARY;
	if (tt_grade_stationary(gt->pts, gt->n, guided, &jitter, &from, &to) == 0 &&
	    keep(&d->v[guided ? kg : k][TT_GRADE_STATIONARY_JITTER], true, jitter, from, to, t->begin_line))
		keep_still(d, guided ? kg : k, gt);
	guided = gt->ex == TT_GUIDE_LINE;
	if (tt_grade_stroke(gt->pts, gt->n, guided, &s) == 0) {
		struct tt_grade_value *v = d->v[guided ? kg : k];
		keep(&v[TT_GRADE_LINEARITY_MAX], true, s.linearity_max, t->begin_us, t->end_us, t->begin_line);
		keep(&v[TT_GRADE_LINEARITY_RMS], true, s.linearity_rms, t->begin_us, t->end_us, t->begin_line);
		keep(&v[TT_GRADE_REVERSED_MOTION], true, s.reversed, t->begin_us, t->end_us, t->begin_line);
		if (s.gap_ratio > 0)
			keep(&v[TT_GRADE_GAP_RATIO], true, s.gap_ratio, t->begin_us, t->end_us, t->begin_line);
	}
}

static const int range_axis[TT_GRADE_RANGE_COUNT] = {
	[TT_GRADE_RANGE_PRESSURE] = ABS_MT_PRESSURE,
	[TT_GRADE_RANGE_TOUCH_MAJOR] = ABS_MT_TOUCH_MAJOR,
};

/* The pressure and size a touch gave, and the highest of each. */
static void
follow_ranges(struct gdev *d, struct gtouch *gt, const struct tt_ktouch *t)
{
	for (int r = 0; r < TT_GRADE_RANGE_COUNT; r++) {
		int code = range_axis[r];
		int32_t v = t->values[TT_AXIS(code)];

		if (!bit_is_set(d->dev->codes[EV_ABS], code) || (t->unknown & TT_AXIS_BIT(code)))
			continue;
		if (v < d->range[r].min)
			d->range[r].min = v;
		if (v > d->range[r].max)
			d->range[r].max = v;
		if (v > gt->peak[r])
			gt->peak[r] = v;
	}
}

static void
end_ranges(struct gdev *d, const struct gtouch *gt)
{
	for (int r = 0; r < TT_GRADE_RANGE_COUNT; r++) {
		if (gt->peak[r] < 0)
			continue;
		if (gt->peak[r] < d->range[r].peak_min)
			d->range[r].peak_min = gt->peak[r];
		if (gt->peak[r] > d->range[r].peak_max)
			d->range[r].peak_max = gt->peak[r];
		d->range[r].touches++;
	}
}

static void
add_point(struct gdev *d, struct gtouch *gt, const struct tt_ktouch *t, int64_t time_us)
{
	const struct tt_absinfo *ax = axis(d->dev, false), *ay = axis(d->dev, true);

	gt->pts = tt_grow(gt->pts, gt->n + 1, &gt->cap, sizeof(*gt->pts));
	gt->pts[gt->n++] = (struct tt_grade_point){
		.t_us = time_us,
		.x = (t->values[TT_AXIS(ABS_MT_POSITION_X)] - ax->minimum) / d->upmm_x,
		.y = (t->values[TT_AXIS(ABS_MT_POSITION_Y)] - ay->minimum) / d->upmm_y,
		.ux = t->values[TT_AXIS(ABS_MT_POSITION_X)],
		.uy = t->values[TT_AXIS(ABS_MT_POSITION_Y)],
	};
}

static void
on_begin(void *data, struct tt_ktouch *t)
{
	struct tt_grade *g = data;
	struct gdev *d = gdev_get(g, t->device);
	struct gtouch *gt;

	if (!d)
		return;
	d->ntouches++;
	if (t->slot < 0 || (uint32_t)t->slot >= TT_MAX_SLOTS)
		return;
	gtouch_free(d->down[t->slot]);
	gt = d->down[t->slot] = tt_zalloc(sizeof(*gt));
	gt->serial = t->serial;
	gt->ex = g->ex;
	for (int r = 0; r < TT_GRADE_RANGE_COUNT; r++)
		gt->peak[r] = -1;
	follow_ranges(d, gt, t);
}

static struct gtouch *
gtouch_of(struct tt_grade *g, const struct tt_ktouch *t, struct gdev **dev)
{
	struct gdev *d = t->device < TT_MAX_DEVICES ? g->devs[t->device] : NULL;

	if (!d || t->slot < 0 || (uint32_t)t->slot >= TT_MAX_SLOTS || !d->down[t->slot] ||
	    d->down[t->slot]->serial != t->serial)
		return NULL;
	*dev = d;
	return d->down[t->slot];
}

static void
on_update(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct gdev *d;
	struct gtouch *gt = gtouch_of(data, t, &d);

	(void)u;
	if (gt)
		follow_ranges(d, gt, t);
}

static void
push_latency(int64_t **arr, size_t *n, size_t *cap, int64_t us)
{
	*arr = tt_grow(*arr, *n + 1, cap, sizeof(**arr));
	(*arr)[(*n)++] = us;
}

static void
on_end(void *data, struct tt_ktouch *t)
{
	struct tt_grade *g = data;
	struct gdev *d = t->device < TT_MAX_DEVICES ? g->devs[t->device] : NULL;
	struct gtouch *gt;

	if (!d)
		return;
	if (t->hid_link == TT_LINK_LINKED)
		push_latency(&d->hid_lat, &d->nhid_lat, &d->hid_cap, t->begin_us - t->hid_begin_us);
	if (t->link == TT_LINK_LINKED)
		push_latency(&d->client_lat, &d->nclient_lat, &d->client_cap, t->xi_begin_us - t->begin_us);
	gt = gtouch_of(g, t, &d);
	if (!gt)
		return;
	end_ranges(d, gt);
	if (has_mm(d))
		measure_touch(d, t, gt);
	gtouch_free(gt);
	d->down[t->slot] = NULL;
}

/* Each touch down gets a sample of where the frame left it. */
static void
sample_touches(struct tt_grade *g, struct gdev *d, const struct tt_frame *f)
{
	const struct tt_ktouch *down[TT_MAX_SLOTS];
	size_t n = tt_model_active(tt_stack_model(g->stack), d->dev->id, down, TT_MAX_SLOTS);
	struct gdev *same;

	for (size_t i = 0; i < n; i++) {
		struct gtouch *gt = gtouch_of(g, down[i], &same);
		if (gt)
			add_point(d, gt, down[i], f->time_us);
	}
}

/* The smallest centre distance of two touches down together. */
static void
keep_separation(struct tt_grade *g, struct gdev *d, const struct tt_frame *f, size_t line)
{
	const struct tt_ktouch *down[GRADE_MAX_N + 1];
	size_t n = tt_model_active(tt_stack_model(g->stack), d->dev->id, down, GRADE_MAX_N + 1);

	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			double dx = (down[i]->values[TT_AXIS(ABS_MT_POSITION_X)] -
				     down[j]->values[TT_AXIS(ABS_MT_POSITION_X)]) / d->upmm_x;
			double dy = (down[i]->values[TT_AXIS(ABS_MT_POSITION_Y)] -
				     down[j]->values[TT_AXIS(ABS_MT_POSITION_Y)]) / d->upmm_y;
			keep(&d->v[0][TT_GRADE_FINGER_SEPARATION], false, hypot(dx, dy), f->time_us, f->time_us, line);
		}
	}
}

/* Report rate: the intervals between consecutive frames after each of
 * which a touch is down (by the number down, when it stayed the same). */
static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct tt_grade *g = data;
	struct gdev *d = n ? gdev_get(g, dev->id) : (dev->id < TT_MAX_DEVICES ? g->devs[dev->id] : NULL);

	if (!d)
		return;
	if (d->have_prev && d->prev_n && n) {
		int64_t dt = f->time_us - d->prev_us;
		tt_interval_hist_add(&d->rate, dt);
		if (n == d->prev_n && n <= GRADE_MAX_N)
			tt_interval_hist_add(&d->rate_n[n], dt);
	}
	if (n) {
		if (d->touching_from < 0)
			d->touching_from = f->time_us;
		d->touching_to = f->time_us;
		keep(&d->v[0][TT_GRADE_MAX_CONTACTS], true, n, f->time_us, f->time_us, line);
		if (has_mm(d))
			sample_touches(g, d, f);
		if (n >= 2 && has_mm(d))
			keep_separation(g, d, f, line);
	}
	d->have_prev = true;
	d->prev_us = f->time_us;
	d->prev_n = n;
}

/* Devices as they are declared; the guide's markers. */
static void
feed(void *self, const struct tt_record *rec)
{
	struct tt_grade *g = self;
	const struct tt_marker *m;

	if (rec->type == TT_RECORD_DEVICE && rec->device->id < TT_MAX_DEVICES) {
		g->declared[rec->device->id] = rec->device;
		return;
	}
	if (rec->type != TT_RECORD_MARKER)
		return;
	m = rec->marker;
	if (m->kind == TT_MARKER_GUIDE_BEGIN) {
		g->ex = tt_guide_exercise_from_name(m->text);
		g->seen[g->ex] = true;
	} else if (m->kind == TT_MARKER_GUIDE_END) {
		g->ex = TT_GUIDE_NONE;
	}
}

static const struct tt_layer_ops grade_layer = {
	.name = "grade",
	.feed = feed,
	.kernel = {
		.kernel_begin = on_begin,
		.kernel_update = on_update,
		.kernel_end = on_end,
		.frame = on_frame,
	},
};

/* A Wayland touch linked to its kernel touch: the kernel-to-client
 * latency, as an XI touch's. */
static void
on_wl_end(void *data, struct tt_wl_touch *t)
{
	struct tt_grade *g = data;
	struct gdev *d = t->kernel_device < TT_MAX_DEVICES ? g->devs[t->kernel_device] : NULL;

	if (d && t->link == TT_LINK_LINKED)
		push_latency(&d->client_lat, &d->nclient_lat, &d->client_cap, t->latency_us);
}

struct tt_grade *
tt_grade_new(struct tt_stack *stack)
{
	static const struct tt_wl_callbacks wl = { .touch_end = on_wl_end };
	struct tt_grade *g = tt_zalloc(sizeof(*g));

	g->stack = stack;
	if (tt_stack_add_layer(stack, &grade_layer, g) < 0) {
		free(g);
		return NULL;
	}
	/* Registered as a layer, it stays even if no Wayland subscriber fits
	 * any more: the latency is then the XI touches' alone. */
	(void)tt_stack_subscribe_wl(stack, &wl, g);
	return g;
}

void
tt_grade_free(struct tt_grade *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < TT_MAX_DEVICES; i++) {
		struct gdev *d = g->devs[i];
		if (!d)
			continue;
		for (size_t s = 0; s < TT_MAX_SLOTS; s++)
			gtouch_free(d->down[s]);
		tt_interval_hist_clear(&d->rate);
		for (size_t n = 0; n <= GRADE_MAX_N; n++)
			tt_interval_hist_clear(&d->rate_n[n]);
		free(d->hid_lat);
		free(d->client_lat);
		free(d->still[0]);
		free(d->still[1]);
		free(d);
	}
	free(g);
}

bool
tt_grade_guided(const struct tt_grade *g)
{
	for (int e = 1; e < TT_GUIDE_COUNT; e++) {
		if (g->seen[e])
			return true;
	}
	return false;
}

int
tt_grade_pick_device(const struct tt_grade *g, int64_t only, uint32_t *id)
{
	const struct gdev *best = NULL;

	for (size_t i = 0; i < TT_MAX_DEVICES; i++) {
		const struct gdev *d = g->devs[i];
		if (!d || !d->ntouches || (only >= 0 && (int64_t)i != only))
			continue;
		if (!best || d->ntouches > best->ntouches)
			best = d;
	}
	if (!best)
		return -ENODATA;
	*id = best->dev->id;
	return 0;
}

size_t
tt_grade_still_samples(const struct tt_grade *g, uint32_t id, const struct tt_grade_point **out)
{
	const struct gdev *d = id < TT_MAX_DEVICES ? g->devs[id] : NULL;
	int k = g->seen[TT_GUIDE_STATIONARY];

	if (!d)
		return 0;
	*out = d->still[k];
	return d->nstill[k];
}

int
tt_grade_ranges(const struct tt_grade *g, uint32_t id, struct tt_grade_range *out)
{
	const struct gdev *d = id < TT_MAX_DEVICES ? g->devs[id] : NULL;

	if (!d)
		return -ENODATA;
	memcpy(out, d->range, sizeof(d->range));
	return 0;
}

const struct tt_device *
tt_grade_device(const struct tt_grade *g, uint32_t id)
{
	return id < TT_MAX_DEVICES && g->devs[id] ? g->devs[id]->dev : NULL;
}

static struct tt_grade_value
not_measured(const char *why)
{
	return (struct tt_grade_value){ .why = why, .from_us = -1, .to_us = -1 };
}

static struct tt_grade_value
rate_value(const struct gdev *d, const struct tt_interval_hist *h, const char *why)
{
	struct tt_grade_value v;
	int64_t median;

	if (tt_interval_hist_percentile(h, 0.5, &median) < 0 || median <= 0)
		return not_measured(why);
	v = (struct tt_grade_value){ .measured = true, .value = 1e6 / (double)median,
				     .from_us = d->touching_from, .to_us = d->touching_to };
	return v;
}

static struct tt_grade_value
latency_value(int64_t *us, size_t n, const char *why)
{
	if (!n)
		return not_measured(why);
	tt_sort(us, n, sizeof(*us), tt_cmp_i64);
	return (struct tt_grade_value){ .measured = true, .value = (double)tt_median(us, n) / 1000.0,
					.from_us = -1, .to_us = -1 };
}

static void
rates(const struct gdev *d, struct tt_grade_value *out)
{
	int most = 0;

	out[TT_GRADE_REPORT_RATE] = rate_value(d, &d->rate, "no two frames in a row with a touch down");
	out[TT_GRADE_REPORT_RATE_ONE] = rate_value(d, &d->rate_n[1], "no two frames in a row with one touch down");
	for (int n = GRADE_MAX_N; n > 0 && !most; n--) {
		if (d->rate_n[n].n)
			most = n;
	}
	out[TT_GRADE_REPORT_RATE_MOST] = rate_value(d, &d->rate_n[most ? most : 1],
						    "no two frames in a row with the same touches down");
	if (most)
		out[TT_GRADE_REPORT_RATE_MOST].aux = most;
}

/* The metrics of one exercise: the guide's touches when it had one. */
static void
exercise(const struct tt_grade *g, const struct gdev *d, enum tt_guide_exercise e, enum tt_grade_metric m,
	 const char *why, struct tt_grade_value *out)
{
	bool guided = g->seen[e];

	out[m] = d->v[guided][m];
	if (!out[m].measured)
		out[m] = not_measured(guided ? "no touch in the guide's exercise for it" : why);
}

static void
positions(const struct tt_grade *g, const struct gdev *d, struct tt_grade_value *out)
{
	static const char *const no_stroke = "no straight stroke of 30 mm or more";

	exercise(g, d, TT_GUIDE_STATIONARY, TT_GRADE_STATIONARY_JITTER, "no touch held still for 2 s", out);
	exercise(g, d, TT_GUIDE_LINE, TT_GRADE_LINEARITY_MAX, no_stroke, out);
	exercise(g, d, TT_GUIDE_LINE, TT_GRADE_LINEARITY_RMS, no_stroke, out);
	exercise(g, d, TT_GUIDE_LINE, TT_GRADE_REVERSED_MOTION, no_stroke, out);
	exercise(g, d, TT_GUIDE_LINE, TT_GRADE_GAP_RATIO, no_stroke, out);
	for (int m = TT_GRADE_EDGE_LEFT; m <= TT_GRADE_EDGE_BOTTOM; m++) {
		out[m] = d->v[0][m];
		if (!out[m].measured || (!g->seen[TT_GUIDE_EDGE] && out[m].value > GRADE_EDGE_NEAR_MM))
			out[m] = not_measured("no touch came within 3 mm of this edge (no edge exercise)");
	}
	out[TT_GRADE_FINGER_SEPARATION] = d->v[0][TT_GRADE_FINGER_SEPARATION];
	if (!out[TT_GRADE_FINGER_SEPARATION].measured)
		out[TT_GRADE_FINGER_SEPARATION] = not_measured("never two touches down together");
}

int
tt_grade_values(const struct tt_grade *g, uint32_t id, struct tt_grade_value *out)
{
	struct gdev *d = id < TT_MAX_DEVICES ? g->devs[id] : NULL;

	if (!d)
		return -ENODATA;
	rates(d, out);
	if (has_mm(d)) {
		positions(g, d, out);
	} else {
		for (int m = TT_GRADE_STATIONARY_JITTER; m <= TT_GRADE_EDGE_BOTTOM; m++)
			out[m] = not_measured("the device gives no resolution: no position in mm");
		out[TT_GRADE_FINGER_SEPARATION] = out[TT_GRADE_STATIONARY_JITTER];
	}
	out[TT_GRADE_MAX_CONTACTS] = d->v[0][TT_GRADE_MAX_CONTACTS];
	out[TT_GRADE_MAX_CONTACTS].aux = d->dev->mt_protocol == TT_MT_B ? d->dev->num_slots : 0;
	out[TT_GRADE_HID_TO_KERNEL] = latency_value(d->hid_lat, d->nhid_lat, "no HID contact linked to a touch");
	out[TT_GRADE_KERNEL_TO_CLIENT] = latency_value(d->client_lat, d->nclient_lat,
						       "no XI or Wayland touch linked to a touch");
	return 0;
}
