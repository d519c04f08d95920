/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model-plot.h"
#include "util-mem.h"
#include "util-strings.h"

#define LEFT 80.0		/* room for the y tick labels */
#define TOP 30.0
#define PANEL_W 480.0
#define GAP 70.0		/* below a frame: tick labels and the axis title */
#define LANE_H 60.0
#define PLOT_W 800.0
#define WIDTH (LEFT + PLOT_W + 110.0)
#define TOUCH_H 90.0
#define MAX_PATH_POINTS 4096
#define MAX_LABELS 64
#define LABEL_W 90.0
#define LABEL_H 12.0
#define LABEL_CHAR_W 6.5	/* of the 10 px bold label font, wide enough */

struct panel {
	uint32_t device;
	char *name;
	double y0, h;		/* SVG position and height of the surface */
	int32_t xmin, xmax, ymin, ymax;
	int32_t xres, yres;	/* units per mm, 0 without a resolution */
	int32_t pmin, pmax;
	bool has_pressure;
	uint32_t max_count;
	/* Where touch labels went, so the next one does not cover them. */
	double labels[MAX_LABELS][2];
	size_t nlabels;
};

struct count_rec {
	uint32_t device;
	uint32_t count;
	int64_t time_us;
};

/* A touch panel in the temporary file: this, then npoints points. */
struct touch_rec {
	uint64_t serial;
	uint32_t device;
	int32_t slot, tracking_id;
	bool synthetic_id;
	uint32_t npoints;
	int64_t duration_us;	/* what picks the panels */
};

struct tt_plot {
	FILE *paths;		/* finished SVG elements of the panels */
	FILE *counts;		/* struct count_rec */
	FILE *touches;		/* struct touch_rec + points */
	struct panel *panels;
	size_t npanels;
	double height;		/* of the panels so far */
	uint64_t ntouches, npaneled;
};

/* A linear map from values (mm, seconds, units) to SVG pixels. */
struct scale {
	double p0, p1;
	double v0, v1;
};

static double
map(const struct scale *s, double v)
{
	if (s->v1 == s->v0)
		return (s->p0 + s->p1) / 2;
	return s->p0 + (v - s->v0) / (s->v1 - s->v0) * (s->p1 - s->p0);
}

struct tt_plot *
tt_plot_new(void)
{
	struct tt_plot *p = tt_zalloc(sizeof(*p));

	p->paths = tmpfile();
	p->counts = tmpfile();
	p->touches = tmpfile();
	if (!p->paths || !p->counts || !p->touches) {
		tt_plot_free(p);
		return NULL;
	}
	p->height = TOP;
	return p;
}

void
tt_plot_free(struct tt_plot *p)
{
	if (!p)
		return;
	if (p->paths)
		fclose(p->paths);
	if (p->counts)
		fclose(p->counts);
	if (p->touches)
		fclose(p->touches);
	for (size_t i = 0; i < p->npanels; i++)
		free(p->panels[i].name);
	free(p->panels);
	free(p);
}

static struct panel *
find_panel(struct tt_plot *p, uint32_t device)
{
	for (size_t i = 0; i < p->npanels; i++) {
		if (p->panels[i].device == device)
			return &p->panels[i];
	}
	return NULL;
}

/* The surface's extent in mm, or in units without a resolution. */
static double
extent(int32_t lo, int32_t hi, int32_t res)
{
	double r = (double)hi - lo;
	return res > 0 ? r / res : r;
}

static void
set_ranges(struct panel *pn, const struct tt_device *dev, unsigned int cx, unsigned int cy, unsigned int cp)
{
	pn->xmin = dev->abs[cx].minimum;
	pn->xmax = dev->abs[cx].maximum;
	pn->ymin = dev->abs[cy].minimum;
	pn->ymax = dev->abs[cy].maximum;
	/* mm only when both axes have a resolution: mixed units would
	 * distort the surface. */
	if (dev->abs[cx].resolution > 0 && dev->abs[cy].resolution > 0) {
		pn->xres = dev->abs[cx].resolution;
		pn->yres = dev->abs[cy].resolution;
	}
	pn->has_pressure = tt_device_has(dev, EV_ABS, cp) && dev->abs[cp].maximum > dev->abs[cp].minimum;
	pn->pmin = dev->abs[cp].minimum;
	pn->pmax = dev->abs[cp].maximum;
}

void
tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev)
{
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	unsigned int cx = mt ? ABS_MT_POSITION_X : ABS_X, cy = mt ? ABS_MT_POSITION_Y : ABS_Y;
	unsigned int cp = mt ? ABS_MT_PRESSURE : ABS_PRESSURE;

	if (!tt_device_has(dev, EV_ABS, cx) || !tt_device_has(dev, EV_ABS, cy) || find_panel(p, dev->id))
		return;
	p->panels = tt_reallocarray(p->panels, p->npanels + 1, sizeof(*p->panels));
	struct panel *pn = &p->panels[p->npanels++];
	memset(pn, 0, sizeof(*pn));
	pn->device = dev->id;
	pn->name = tt_strdup(dev->name ? dev->name : "");
	set_ranges(pn, dev, cx, cy, cp);
	/* Keep the surface's aspect, in mm when the axes have a resolution. */
	double w = extent(pn->xmin, pn->xmax, pn->xres), h = extent(pn->ymin, pn->ymax, pn->yres);
	double aspect = (w > 0 && h > 0) ? h / w : 0.75;
	if (aspect < 0.2)
		aspect = 0.2;
	if (aspect > 1.5)
		aspect = 1.5;
	pn->y0 = p->height + 40;	/* room for the title */
	pn->h = PANEL_W * aspect;
	p->height = pn->y0 + pn->h + GAP;
}

static void
push_jump(struct tt_plot_path *path, int32_t x, int32_t y)
{
	path->jumps = tt_grow(path->jumps, path->njumps, &path->capjumps, 2 * sizeof(int32_t));
	path->jumps[2 * path->njumps] = x;
	path->jumps[2 * path->njumps + 1] = y;
	path->njumps++;
}

static void
push_point(struct tt_plot_path *path, const struct tt_plot_point *pt)
{
	if (path->npoints >= MAX_PATH_POINTS) {
		/* Halve: keep every other point, and from now on every
		 * stride-th, so a long touch costs bounded memory. */
		for (size_t i = 0; i < path->npoints / 2; i++)
			path->points[i] = path->points[2 * i];
		path->npoints /= 2;
		path->stride *= 2;
	}
	path->points = tt_grow(path->points, path->npoints, &path->cap, sizeof(*path->points));
	path->points[path->npoints++] = *pt;
}

void
tt_plot_path_sample(struct tt_plot_path *path, const struct tt_ktouch *t, int64_t time_us, bool jump)
{
	struct tt_plot_point pt;

	/* Points go to a file whole, padding included: no stack garbage. */
	memset(&pt, 0, sizeof(pt));
	pt.time_us = time_us;
	pt.x = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	pt.y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	pt.pressure = t->values[TT_AXIS(ABS_MT_PRESSURE)];

	if (!path->npoints) {
		path->slot = t->slot;
		path->tracking_id = t->tracking_id;
		path->synthetic_id = t->flags & TT_KTOUCH_SYNTHETIC_ID;
	}
	if (jump)
		push_jump(path, pt.x, pt.y);
	if (!path->stride)
		path->stride = 1;
	if (!jump && path->skipped + 1 < path->stride && path->npoints) {
		path->skipped++;
		return;
	}
	path->skipped = 0;
	push_point(path, &pt);
}

static double
sx(const struct panel *pn, int32_t x)
{
	struct scale s = { LEFT, LEFT + PANEL_W, pn->xmin, pn->xmax };
	return map(&s, x);
}

static double
sy(const struct panel *pn, int32_t y)
{
	struct scale s = { pn->y0, pn->y0 + pn->h, pn->ymin, pn->ymax };
	return map(&s, y);
}

static void
colour(char *buf, size_t size, uint64_t serial)
{
	snprintf(buf, size, "hsl(%u,75%%,40%%)", (unsigned)((serial * 137) % 360));
}

/* Slot and tracking ID, or for a touch the model numbered (Type A, no
 * tracking IDs) the slot and its number among all touches. */
static void
touch_label(char *buf, size_t size, uint64_t serial, int32_t slot, int32_t tracking_id, bool synthetic)
{
	if (synthetic)
		snprintf(buf, size, "touch %" PRIu64 " \u00b7 slot %d", serial, slot);
	else
		snprintf(buf, size, "slot %d \u00b7 ID %d", slot, tracking_id);
}

/* Touches often start close together (two fingers put down at once):
 * move a label down until it covers none placed before it, back to the
 * top past the bottom. It stays inside the surface (a touch at an edge
 * would put it over the axis or the next chart): @w is its width. */
static void
place_label(struct panel *pn, double w, double *x, double *y)
{
	double top = pn->y0 + LABEL_H, bottom = pn->y0 + pn->h - 2;

	*x = fmax(LEFT + 2, fmin(*x, LEFT + PANEL_W - w - 2));
	*y = fmax(top, fmin(*y, bottom));
	for (int moves = 0; moves < 40; moves++) {
		bool clear = true;
		for (size_t i = 0; i < pn->nlabels && clear; i++)
			clear = fabs(pn->labels[i][0] - *x) >= LABEL_W || fabs(pn->labels[i][1] - *y) >= LABEL_H;
		if (clear)
			break;
		*y += LABEL_H;
		if (*y > bottom)
			*y = top;
	}
	if (pn->nlabels < MAX_LABELS) {
		pn->labels[pn->nlabels][0] = *x;
		pn->labels[pn->nlabels][1] = *y;
		pn->nlabels++;
	}
}

/* Characters, not bytes: the label's "\u00b7" is two. */
static size_t
label_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void
draw_path(FILE *out, struct panel *pn, uint64_t serial, const struct tt_plot_path *path)
{
	const struct tt_plot_point *pt = path->points;
	char c[32], label[64];

	colour(c, sizeof(c), serial);
	fprintf(out, "<polyline class=\"touch\" data-serial=\"%" PRIu64 "\" stroke=\"%s\" points=\"", serial, c);
	for (size_t i = 0; i < path->npoints; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", sx(pn, pt[i].x), sy(pn, pt[i].y));
	fprintf(out, "\"/>\n<circle class=\"start\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
		sx(pn, pt[0].x), sy(pn, pt[0].y), c);
	for (size_t i = 0; i < path->njumps; i++)
		fprintf(out, "<circle class=\"jump\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\"/>\n",
			sx(pn, path->jumps[2 * i]), sy(pn, path->jumps[2 * i + 1]));
	/* At the start point, where the eye looks for "which touch". */
	touch_label(label, sizeof(label), serial, path->slot, path->tracking_id, path->synthetic_id);
	double lx = sx(pn, pt[0].x) + 5, ly = sy(pn, pt[0].y) - 5;

	place_label(pn, LABEL_CHAR_W * (double)label_chars(label), &lx, &ly);
	fprintf(out, "<text class=\"touch-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n", lx, ly, c,
		label);
}

/* Keeps the points for the touch's own panel, while there is room. */
static void
save_touch(struct tt_plot *p, uint32_t device, uint64_t serial, const struct tt_plot_path *path)
{
	struct touch_rec tr;

	memset(&tr, 0, sizeof(tr));	/* written whole, padding included */
	tr.serial = serial;
	tr.device = device;
	tr.slot = path->slot;
	tr.tracking_id = path->tracking_id;
	tr.synthetic_id = path->synthetic_id;
	tr.npoints = (uint32_t)path->npoints;
	tr.duration_us = path->duration_us;
	p->ntouches++;
	if (p->npaneled < TT_PLOT_MAX_TOUCH_PANELS)
		p->npaneled++;
	/* Every touch goes to the file (not memory): the longest get the
	 * panels, chosen when the picture is written. */
	fwrite(&tr, sizeof(tr), 1, p->touches);
	fwrite(path->points, sizeof(*path->points), path->npoints, p->touches);
}

void
tt_plot_path_end(struct tt_plot *p, uint32_t device, uint64_t serial, struct tt_plot_path *path)
{
	struct panel *pn = p ? find_panel(p, device) : NULL;

	if (pn && path->npoints) {
		draw_path(p->paths, pn, serial, path);
		save_touch(p, device, serial, path);
	}
	tt_plot_path_release(path);
}

void
tt_plot_path_release(struct tt_plot_path *path)
{
	free(path->points);
	free(path->jumps);
	memset(path, 0, sizeof(*path));
}

void
tt_plot_count(struct tt_plot *p, uint32_t device, int64_t time_us, uint32_t count)
{
	struct panel *pn = find_panel(p, device);
	struct count_rec r = { .device = device, .count = count, .time_us = time_us };

	if (!pn)
		return;
	if (count > pn->max_count)
		pn->max_count = count;
	fwrite(&r, sizeof(r), 1, p->counts);
}

/* ---- writing ---- */

static void
xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out); break;
		}
	}
}

static int
copy_file(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, n, to);
	return ferror(from) ? -EIO : 0;
}

/* 1, 2 or 5 times a power of ten: some @want ticks over @span. */
static double
tick_step(double span, int want)
{
	double raw = span / want;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

/* Tick marks and labels along a scale: below a horizontal axis at
 * @at, or left (right when @right) of a vertical one. */
static void
ticks(FILE *out, const char *axis, const struct scale *s, bool vertical, double at, bool right, int want)
{
	double lo = fmin(s->v0, s->v1), hi = fmax(s->v0, s->v1);
	double step = hi > lo ? tick_step(hi - lo, want) : 1;
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
		double p = map(s, v);
		double d = right ? 5 : -5;
		if (vertical)
			fprintf(out, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<text class=\"tick\" data-axis=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%.*f</text>\n",
				at, p, at + d, p, axis, at + 1.6 * d, p + 4, right ? "start" : "end", decimals, fabs(v) < step / 2 ? 0.0 : v);
		else
			fprintf(out, "<line class=\"tickmark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<text class=\"tick\" data-axis=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
				p, at, p, at + 5, axis, p, at + 18, decimals, fabs(v) < step / 2 ? 0.0 : v);
	}
}

static void
axis_title(FILE *out, double x, double y, bool vertical, const char *text)
{
	if (vertical)
		fprintf(out, "<text class=\"axis-title\" transform=\"translate(%.1f,%.1f) rotate(-90)\" "
			"text-anchor=\"middle\">%s</text>\n", x, y, text);
	else
		fprintf(out, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, y, text);
}

static void
write_surface(FILE *out, const struct panel *pn)
{
	bool mm = pn->xres > 0;
	double w = extent(pn->xmin, pn->xmax, pn->xres), h = extent(pn->ymin, pn->ymax, pn->yres);
	struct scale xs = { LEFT, LEFT + PANEL_W, 0, w };
	struct scale ys = { pn->y0, pn->y0 + pn->h, 0, h };

	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"title\">device %u \"", LEFT, pn->y0 - 24, pn->device);
	xml_text(out, pn->name);
	fprintf(out, "\"</text>\n<text x=\"%.0f\" y=\"%.1f\">trajectories over the device's full range", LEFT,
		pn->y0 - 8);
	if (mm)
		fprintf(out, ", %.0f \u00d7 %.0f mm", w, h);
	else
		fprintf(out, " (no resolution: device units)");
	fprintf(out, "; dot: start, red circle: jump</text>\n"
		"<rect class=\"surface\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\"/>\n",
		LEFT, pn->y0, PANEL_W, pn->h);
	ticks(out, "x", &xs, false, pn->y0 + pn->h, false, 8);
	ticks(out, "y", &ys, true, LEFT, false, 6);
	axis_title(out, LEFT + PANEL_W / 2, pn->y0 + pn->h + 38, false, mm ? "x (mm)" : "x (device units)");
	axis_title(out, LEFT - 50, pn->y0 + pn->h / 2, true, mm ? "y (mm)" : "y (device units)");
}

static void
count_lane(struct tt_plot *p, FILE *out, const struct panel *pn, double base, const struct scale *ts)
{
	struct scale cs = { base, base - (LANE_H - 10), 0, pn->max_count ? pn->max_count : 1 };
	struct count_rec r;
	double lasty = base;

	fprintf(out, "<line class=\"axis\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>\n",
		LEFT, base, LEFT + PLOT_W, base);
	ticks(out, "count", &cs, true, LEFT, false, 2);
	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\">device %u: max %u</text>\n", LEFT + PLOT_W + 6, base - 4,
		pn->device, pn->max_count);
	fprintf(out, "<polyline class=\"count\" data-device=\"%u\" points=\"%.1f,%.1f", pn->device, LEFT, base);
	rewind(p->counts);
	while (fread(&r, sizeof(r), 1, p->counts) == 1) {
		if (r.device != pn->device)
			continue;
		double x = map(ts, (double)r.time_us / 1e6), y = map(&cs, r.count);
		if (y != lasty)
			fprintf(out, " %.1f,%.1f %.1f,%.1f", x, lasty, x, y);
		lasty = y;
	}
	fprintf(out, " %.1f,%.1f\"/>\n", LEFT + PLOT_W, lasty);
}

static void
write_timeline(struct tt_plot *p, FILE *out, double top, int64_t t0, int64_t t1)
{
	double span = t1 > t0 ? (double)(t1 - t0) / 1e6 : 1e-3;
	struct scale ts = { LEFT, LEFT + PLOT_W, 0, span };
	double bottom = top + (double)p->npanels * LANE_H;

	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" class=\"title\">touches down per device over time (%.3f s)</text>\n",
		LEFT, top - 8, span);
	/* Times run from the recording's first record, as print shows. */
	for (size_t i = 0; i < p->npanels; i++) {
		struct scale shifted = ts;
		shifted.v0 += (double)t0 / 1e6;
		shifted.v1 += (double)t0 / 1e6;
		count_lane(p, out, &p->panels[i], top + (double)(i + 1) * LANE_H, &shifted);
	}
	ticks(out, "time", &ts, false, bottom, false, 10);
	axis_title(out, LEFT + PLOT_W / 2, bottom + 36, false, "time (s)");
}

enum series { SERIES_X, SERIES_Y, SERIES_PRESSURE };

static double
value_of(const struct panel *pn, const struct tt_plot_point *pt, enum series which)
{
	switch (which) {
	case SERIES_X: return extent(pn->xmin, pt->x, pn->xres);
	case SERIES_Y: return extent(pn->ymin, pt->y, pn->yres);
	case SERIES_PRESSURE: break;
	}
	return pt->pressure;
}

static void
series(FILE *out, const struct panel *pn, const struct tt_plot_point *pts, uint32_t n, int64_t t0,
       const struct scale *ts, const struct scale *vs, enum series which)
{
	static const char *const cls[] = { "series-x", "series-y", "series-pressure" };

	fprintf(out, "<polyline class=\"%s\" points=\"", cls[which]);
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", map(ts, (double)(pts[i].time_us - t0) / 1e6),
			map(vs, value_of(pn, &pts[i], which)));
	fprintf(out, "\"/>\n");
	/* A line needs two points: show a tap's single sample too. */
	for (uint32_t i = 0; n < 3 && i < n; i++)
		fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", cls[which],
			map(ts, (double)(pts[i].time_us - t0) / 1e6), map(vs, value_of(pn, &pts[i], which)));
}

static void
touch_panel_title(FILE *out, const struct panel *pn, const struct touch_rec *tr, double top)
{
	char label[64];
	char c[32];

	if (tr->synthetic_id)
		snprintf(label, sizeof(label), "slot %d, no tracking ID", tr->slot);
	else
		snprintf(label, sizeof(label), "slot %d, tracking ID %d", tr->slot, tr->tracking_id);
	colour(c, sizeof(c), tr->serial);
	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"title\"><tspan fill=\"%s\">touch %" PRIu64 " (%s)</tspan>"
		" on device %u: <tspan class=\"key-x\">x</tspan>, <tspan class=\"key-y\">y</tspan> (%s)%s"
		" over time (s)</text>\n",
		LEFT, top - 8, c, tr->serial, label, tr->device, pn->xres > 0 ? "mm" : "device units",
		pn->has_pressure ? " and <tspan class=\"key-pressure\">pressure</tspan> (right axis, device units)" : "");
}

/* The position axis of one touch's panel: fitted to what its x and y
 * cover (the device's whole range flattens every trace), one axis for
 * both so x and y keep one scale, and no narrower than 1/50 of the
 * device (a finger held still would show its noise as motion). */
static void
fit_positions(const struct panel *pn, const struct tt_plot_point *pts, uint32_t n, double *lo, double *hi)
{
	double ext = fmax(extent(pn->xmin, pn->xmax, pn->xres), extent(pn->ymin, pn->ymax, pn->yres));
	double a = INFINITY, b = -INFINITY;

	for (uint32_t i = 0; i < n; i++) {
		double x = value_of(pn, &pts[i], SERIES_X), y = value_of(pn, &pts[i], SERIES_Y);

		a = fmin(a, fmin(x, y));
		b = fmax(b, fmax(x, y));
	}
	double span = fmax(b - a, ext / 50);
	double mid = (a + b) / 2;

	*lo = mid - span * 0.55;
	*hi = mid + span * 0.55;
}

static void
write_touch_panel(FILE *out, const struct panel *pn, const struct touch_rec *tr,
		  const struct tt_plot_point *pts, double top, int64_t t0)
{
	int64_t b = pts[0].time_us, e = pts[tr->npoints - 1].time_us;
	/* A touch with one sample gets a millisecond around it. */
	int64_t pad = e > b ? 0 : 500;
	struct scale ts = { LEFT, LEFT + PLOT_W, (double)(b - pad - t0) / 1e6, (double)(e + pad - t0) / 1e6 };
	struct scale vs = { top + TOUCH_H, top, 0, 0 };

	fit_positions(pn, pts, tr->npoints, &vs.v0, &vs.v1);
	struct scale ps = { top + TOUCH_H, top, pn->pmin, pn->pmax };

	fprintf(out, "<g class=\"touch-panel\" data-serial=\"%" PRIu64 "\">\n", tr->serial);
	touch_panel_title(out, pn, tr, top);
	fprintf(out, "<rect class=\"frame\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\"/>\n", LEFT, top,
		PLOT_W, TOUCH_H);
	ticks(out, "touch-time", &ts, false, top + TOUCH_H, false, 8);
	ticks(out, "touch-position", &vs, true, LEFT, false, 3);
	series(out, pn, pts, tr->npoints, t0, &ts, &vs, SERIES_X);
	series(out, pn, pts, tr->npoints, t0, &ts, &vs, SERIES_Y);
	if (pn->has_pressure) {
		ticks(out, "touch-pressure", &ps, true, LEFT + PLOT_W, true, 3);
		series(out, pn, pts, tr->npoints, t0, &ts, &ps, SERIES_PRESSURE);
	}
	fprintf(out, "</g>\n");
}

#define TOUCH_STEP (TOUCH_H + 60)

struct saved_touch {
	struct touch_rec tr;
	long offset;		/* of its points in p->touches */
};

static int
by_serial(const void *a, const void *b)
{
	const struct saved_touch *x = a, *y = b;

	return x->tr.serial < y->tr.serial ? -1 : x->tr.serial > y->tr.serial;
}

/* Whether @a matters more than @b: longer, or as long and begun first. */
static bool
longer(const struct touch_rec *a, const struct touch_rec *b)
{
	return a->duration_us > b->duration_us || (a->duration_us == b->duration_us && a->serial < b->serial);
}

/* Keeps @t among the @n saved if it is longer than the shortest of a
 * full set; returns the new count. */
static size_t
keep_longest(struct saved_touch *saved, size_t n, const struct saved_touch *t)
{
	size_t worst = 0;

	if (n < TT_PLOT_MAX_TOUCH_PANELS) {
		saved[n] = *t;
		return n + 1;
	}
	for (size_t i = 1; i < n; i++) {
		if (longer(&saved[worst].tr, &saved[i].tr))
			worst = i;
	}
	if (longer(&t->tr, &saved[worst].tr))
		saved[worst] = *t;
	return n;
}

/* Touches are saved as they end; the longest get panels (the short taps
 * say least over time), drawn in begin order. */
static size_t
index_touches(struct tt_plot *p, struct saved_touch *saved)
{
	struct saved_touch t;
	size_t n = 0;

	rewind(p->touches);
	while (fread(&t.tr, sizeof(t.tr), 1, p->touches) == 1) {
		t.offset = ftell(p->touches);
		if (fseek(p->touches, (long)(t.tr.npoints * sizeof(struct tt_plot_point)), SEEK_CUR) != 0)
			break;
		n = keep_longest(saved, n, &t);
	}
	qsort(saved, n, sizeof(*saved), by_serial);
	return n;
}

/* Returns 0 or a negative errno. */
static int
write_touch_panels(struct tt_plot *p, FILE *out, double top, int64_t t0)
{
	struct saved_touch saved[TT_PLOT_MAX_TOUCH_PANELS];
	size_t n;
	double y = top;

	if (p->ntouches > p->npaneled)
		fprintf(out, "<text class=\"note\" x=\"%.0f\" y=\"%.1f\">%" PRIu64 " more touch%s without a panel "
			"of x, y and pressure: the %" PRIu64 " longest of %" PRIu64 " are drawn</text>\n",
			LEFT, y - 30, p->ntouches - p->npaneled, p->ntouches - p->npaneled == 1 ? "" : "es",
			p->npaneled, p->ntouches);
	if (fflush(p->touches) != 0)
		return -errno;
	n = index_touches(p, saved);
	for (size_t i = 0; i < n; i++) {
		const struct touch_rec *tr = &saved[i].tr;
		const struct panel *pn = find_panel(p, tr->device);
		_cleanup_free_ struct tt_plot_point *pts =
			tt_reallocarray(NULL, tr->npoints ? tr->npoints : 1, sizeof(*pts));
		if (fseek(p->touches, saved[i].offset, SEEK_SET) != 0 ||
		    fread(pts, sizeof(*pts), tr->npoints, p->touches) != tr->npoints)
			return -EIO;
		if (!pn || !tr->npoints)
			continue;
		write_touch_panel(out, pn, tr, pts, y, t0);
		y += TOUCH_STEP;
	}
	return 0;
}

static void
write_head(FILE *out, double width, double height)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
		"<style>\n"
		"text { font: 12px sans-serif; fill: #222; }\n"
		".title { font-weight: bold; }\n"
		".tick { font-size: 10px; fill: #444; }\n"
		".touch-label { font-size: 10px; font-weight: bold; paint-order: stroke; stroke: white; stroke-width: 3px; }\n"
		".note { fill: #a00; }\n"
		".surface { fill: #f6f6f6; stroke: #666; }\n"
		".frame { fill: #fafafa; stroke: #999; }\n"
		".tickmark, .axis { stroke: #666; }\n"
		".touch { fill: none; stroke-width: 1.5; stroke-linejoin: round; }\n"
		".jump { fill: none; stroke: red; stroke-width: 2; }\n"
		".count { fill: none; stroke: #1565c0; stroke-width: 1.5; }\n"
		".series-x, .series-y, .series-pressure { fill: none; stroke-width: 1.5; }\n"
		".series-x { stroke: #1565c0; } .key-x { fill: #1565c0; }\n"
		".series-y { stroke: #e65100; } .key-y { fill: #e65100; }\n"
		".series-pressure { stroke: #555; stroke-dasharray: 4 3; } .key-pressure { fill: #555; }\n"
		"</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		width, height, width, height);
}

int
tt_plot_write(struct tt_plot *p, FILE *out, int64_t t0, int64_t t1)
{
	/* The timeline first: it answers "what happened when" before the
	 * surfaces say where. The surfaces and trajectories were laid out
	 * from the top as the devices came; they move down below it. */
	double top = TOP + 20;
	double shift = 20 + (double)p->npanels * LANE_H + GAP;
	double panels_top = p->height + shift + (p->ntouches > p->npaneled ? 60 : 30);
	double height = panels_top + (double)p->npaneled * TOUCH_STEP;
	int rc;

	if (fflush(p->counts) != 0)
		return -errno;
	write_head(out, WIDTH, height);
	write_timeline(p, out, top, t0, t1);
	fprintf(out, "<g class=\"surfaces\" transform=\"translate(0 %.1f)\">\n", shift);
	for (size_t i = 0; i < p->npanels; i++)
		write_surface(out, &p->panels[i]);
	if ((rc = copy_file(p->paths, out)) < 0)
		return rc;
	fprintf(out, "</g>\n");
	if ((rc = write_touch_panels(p, out, panels_top, t0)) < 0)
		return rc;
	fprintf(out, "</svg>\n");
	return ferror(out) ? -EIO : 0;
}
