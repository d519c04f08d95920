/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model-plot.h"
#include "plot-private.h"
#include "plot-svg.h"
#include "util-mem.h"
#include "util-strings.h"

#define MAX_PATH_POINTS 4096
#define TOUCH_H 90.0

struct tt_plot *
tt_plot_new(void)
{
	struct tt_plot *p = tt_zalloc(sizeof(*p));

	p->paths = tmpfile();
	p->counts = tmpfile();
	p->spans = tmpfile();
	p->touches = tmpfile();
	if (!p->paths || !p->counts || !p->spans || !p->touches) {
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
	if (p->spans)
		fclose(p->spans);
	if (p->touches)
		fclose(p->touches);
	for (size_t i = 0; i < p->npanels; i++) {
		free(p->panels[i].name);
		free(p->panels[i].labels);
	}
	free(p->panels);
	for (size_t i = 0; i < p->ntracks; i++)
		free(p->tracks[i].label);
	free(p->tracks);
	for (size_t i = 0; i < p->nhid_names; i++)
		free(p->hid_names[i]);
	free(p->hid_names);
	free(p);
}

static struct panel *
find_panel(struct tt_plot *p, enum tt_plot_layer layer, uint32_t device)
{
	for (size_t i = 0; i < p->npanels; i++) {
		if (p->panels[i].layer == layer && p->panels[i].device == device)
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

/* A new surface below the others, keeping the device's aspect (in mm
 * when the axes have a resolution). */
static struct panel *
add_panel(struct tt_plot *p, enum tt_plot_layer layer, uint32_t device, const char *name)
{
	p->panels = tt_reallocarray(p->panels, p->npanels + 1, sizeof(*p->panels));
	struct panel *pn = &p->panels[p->npanels++];

	memset(pn, 0, sizeof(*pn));
	pn->layer = layer;
	pn->device = device;
	pn->name = tt_strdup(name ? name : "");
	return pn;
}

static void
lay_out(struct tt_plot *p, struct panel *pn)
{
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

/* "kernel device 2 \"name\"": a long name cut inside the quotes, so the
 * track's label keeps its end (": max 3 down"). */
static void
device_label(char *buf, size_t size, enum tt_plot_layer layer, uint32_t id, const char *name)
{
	size_t max = 64, n = plot_chars_bytes(name, max);

	snprintf(buf, size, "%s device %u \"%.*s%s\"", plot_layer_name(layer), id, (int)n, name,
		 name[n] ? "\u2026" : "");
}

void
tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev)
{
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	unsigned int cx = mt ? ABS_MT_POSITION_X : ABS_X, cy = mt ? ABS_MT_POSITION_Y : ABS_Y;
	unsigned int cp = mt ? ABS_MT_PRESSURE : ABS_PRESSURE;
	char label[300];

	if (!tt_device_has(dev, EV_ABS, cx) || !tt_device_has(dev, EV_ABS, cy) ||
	    find_panel(p, TT_PLOT_KERNEL, dev->id))
		return;
	struct panel *pn = add_panel(p, TT_PLOT_KERNEL, dev->id, dev->name);

	set_ranges(pn, dev, cx, cy, cp);
	lay_out(p, pn);
	device_label(label, sizeof(label), TT_PLOT_KERNEL, dev->id, pn->name);
	plot_track(p, TT_PLOT_KERNEL, dev->id, label);
}

static const char *
hid_name(const struct tt_plot *p, uint32_t id)
{
	return id < p->nhid_names && p->hid_names[id] ? p->hid_names[id] : "";
}

void
tt_plot_name_hid(struct tt_plot *p, const struct tt_hid_device *dev)
{
	if (dev->id >= TT_MAX_DEVICES)
		return;
	if (dev->id >= p->nhid_names) {
		p->hid_names = tt_reallocarray(p->hid_names, dev->id + 1, sizeof(*p->hid_names));
		memset(&p->hid_names[p->nhid_names], 0, (dev->id + 1 - p->nhid_names) * sizeof(*p->hid_names));
		p->nhid_names = dev->id + 1;
	}
	free(p->hid_names[dev->id]);
	p->hid_names[dev->id] = tt_strdup(dev->name ? dev->name : "");
}

/* A HID device's surface: the logical ranges of its contacts' X and Y
 * (the descriptor gives no resolution the model keeps). */
static void
add_hid_panel(struct tt_plot *p, const struct tt_htouch *t)
{
	if (t->x_max <= t->x_min || t->y_max <= t->y_min || find_panel(p, TT_PLOT_HID, t->device))
		return;
	struct panel *pn = add_panel(p, TT_PLOT_HID, t->device, hid_name(p, t->device));

	pn->xmin = t->x_min;
	pn->xmax = t->x_max;
	pn->ymin = t->y_min;
	pn->ymax = t->y_max;
	lay_out(p, pn);
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

static void
path_add(struct tt_plot_path *path, const struct tt_plot_point *pt, bool jump)
{
	if (jump)
		push_jump(path, pt->x, pt->y);
	if (!path->stride)
		path->stride = 1;
	if (!jump && path->skipped + 1 < path->stride && path->npoints) {
		path->skipped++;
		return;
	}
	path->skipped = 0;
	push_point(path, pt);
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
		path->layer = TT_PLOT_KERNEL;
		path->slot = t->slot;
		path->tracking_id = t->tracking_id;
		path->synthetic_id = t->flags & TT_KTOUCH_SYNTHETIC_ID;
	}
	path_add(path, &pt, jump);
}

void
tt_plot_hid_sample(struct tt_plot *p, struct tt_plot_path *path, const struct tt_htouch *t, int64_t time_us)
{
	struct tt_plot_point pt;

	memset(&pt, 0, sizeof(pt));
	pt.time_us = time_us;
	pt.x = t->x;
	pt.y = t->y;
	pt.pressure = t->pressure;
	if (!path->npoints) {
		add_hid_panel(p, t);
		path->layer = TT_PLOT_HID;
		path->slot = t->contact_id;
		path->tracking_id = -1;
	}
	path_add(path, &pt, false);
}

static double
sx(const struct panel *pn, int32_t x)
{
	struct plot_scale s = { LEFT, LEFT + PANEL_W, pn->xmin, pn->xmax };
	return plot_map(&s, x);
}

static double
sy(const struct panel *pn, int32_t y)
{
	struct plot_scale s = { pn->y0, pn->y0 + pn->h, pn->ymin, pn->ymax };
	return plot_map(&s, y);
}

static void
colour(char *buf, size_t size, uint64_t serial)
{
	snprintf(buf, size, "hsl(%u,75%%,40%%)", (unsigned)((serial * 137) % 360));
}

/* Slot and tracking ID, or for a touch the model numbered (Type A, no
 * tracking IDs) the slot and its number among all touches; a HID
 * contact by its number and Contact Identifier. */
static void
touch_label(char *buf, size_t size, uint64_t serial, const struct tt_plot_path *path)
{
	if (path->layer == TT_PLOT_HID && path->slot < 0)
		snprintf(buf, size, "contact %" PRIu64 " \u00b7 pen", serial);
	else if (path->layer == TT_PLOT_HID)
		snprintf(buf, size, "contact %" PRIu64 " \u00b7 ID %d", serial, path->slot);
	else if (path->synthetic_id)
		snprintf(buf, size, "touch %" PRIu64 " \u00b7 slot %d", serial, path->slot);
	else
		snprintf(buf, size, "slot %d \u00b7 ID %d", path->slot, path->tracking_id);
}

/* Whether a label @w wide at @x, @y covers none placed before it. */
static bool
label_clear(const struct panel *pn, double x, double y, double w)
{
	for (size_t i = 0; i < pn->nlabels; i++) {
		const double *l = pn->labels[i];
		if (x < l[0] + l[2] + 2 && l[0] < x + w + 2 && fabs(l[1] - y) < LABEL_H)
			return false;
	}
	return true;
}

/* Touches often start close together (two fingers put down at once):
 * move a label down until it covers none placed before it, back to the
 * top past the bottom, then over by a column; with no room left on the
 * surface, false: the label is left out (the title counts them). It
 * stays inside the surface (a touch at an edge would put it over the
 * axis or the next chart): @w is its width. */
static bool
place_label(struct panel *pn, double w, double *x, double *y)
{
	double top = pn->y0 + LABEL_H, bottom = pn->y0 + pn->h - 2;
	double left = LEFT + 2, right = LEFT + PANEL_W - w - 2;
	int rows = (int)((bottom - top) / LABEL_H) + 1, cols = (int)(PANEL_W / (w + 4)) + 1;
	bool clear = false;

	*x = fmax(left, fmin(*x, right));
	*y = fmax(top, fmin(*y, bottom));
	for (int moves = 0; moves < rows * cols && !(clear = label_clear(pn, *x, *y, w)); moves++) {
		*y += LABEL_H;
		if (*y > bottom)
			*y = top;
		if ((moves + 1) % rows == 0)	/* the column is full */
			*x = *x + w + 4 > right ? left : *x + w + 4;
	}
	if (!clear)
		return false;
	pn->labels = tt_grow(pn->labels, pn->nlabels, &pn->caplabels, sizeof(*pn->labels));
	pn->labels[pn->nlabels][0] = *x;
	pn->labels[pn->nlabels][1] = *y;
	pn->labels[pn->nlabels][2] = w;
	pn->nlabels++;
	return true;
}

static void
draw_path(FILE *out, struct panel *pn, uint64_t serial, const struct tt_plot_path *path)
{
	const struct tt_plot_point *pt = path->points;
	char c[32], label[64];

	colour(c, sizeof(c), serial);
	fprintf(out, "<polyline class=\"touch\" data-layer=\"%s\" data-serial=\"%" PRIu64 "\" stroke=\"%s\" points=\"",
		plot_layer_name(pn->layer), serial, c);
	for (size_t i = 0; i < path->npoints; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", sx(pn, pt[i].x), sy(pn, pt[i].y));
	fprintf(out, "\"/>\n<circle class=\"start\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
		sx(pn, pt[0].x), sy(pn, pt[0].y), c);
	for (size_t i = 0; i < path->njumps; i++)
		fprintf(out, "<circle class=\"jump\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\"/>\n",
			sx(pn, path->jumps[2 * i]), sy(pn, path->jumps[2 * i + 1]));
	/* At the start point, where the eye looks for "which touch". */
	touch_label(label, sizeof(label), serial, path);
	double lx = sx(pn, pt[0].x) + 5, ly = sy(pn, pt[0].y) - 5;

	if (!place_label(pn, CHAR_W * (double)plot_chars(label), &lx, &ly)) {
		pn->unlabelled++;
		return;
	}
	fprintf(out, "<text class=\"touch-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n", lx, ly, c,
		label);
}

/* Every touch goes to the file (not memory): the longest get the
 * panels, chosen when the picture is written. */
static void
save_touch(struct tt_plot *p, uint32_t device, uint64_t serial, const struct tt_plot_path *path)
{
	struct touch_rec tr;

	memset(&tr, 0, sizeof(tr));	/* written whole, padding included */
	tr.serial = serial;
	tr.layer = path->layer;
	tr.device = device;
	tr.slot = path->slot;
	tr.tracking_id = path->tracking_id;
	tr.synthetic_id = path->synthetic_id;
	tr.npoints = (uint32_t)path->npoints;
	tr.duration_us = path->duration_us;
	p->ntouches[path->layer]++;
	fwrite(&tr, sizeof(tr), 1, p->touches);
	fwrite(path->points, sizeof(*path->points), path->npoints, p->touches);
}

void
tt_plot_path_end(struct tt_plot *p, enum tt_plot_layer layer, uint32_t device, uint64_t serial,
		 struct tt_plot_path *path)
{
	struct panel *pn = p ? find_panel(p, layer, device) : NULL;

	if (pn && path->npoints && path->layer == layer) {
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
	struct track *t = find_panel(p, TT_PLOT_KERNEL, device) ? plot_track(p, TT_PLOT_KERNEL, device, NULL) : NULL;
	struct count_rec r;

	if (!t)
		return;
	memset(&r, 0, sizeof(r));
	r.track = (uint32_t)(t - p->tracks);
	r.count = count;
	r.time_us = time_us;
	if (count > t->max_count)
		t->max_count = count;
	fwrite(&r, sizeof(r), 1, p->counts);
}

void
tt_plot_span(struct tt_plot *p, enum tt_plot_layer layer, uint32_t id, const char *label, int64_t begin_us,
	     int64_t end_us)
{
	char named[300];
	struct span_rec r;

	if (!label) {
		device_label(named, sizeof(named), layer, id, layer == TT_PLOT_HID ? hid_name(p, id) : "");
		label = named;
	}
	struct track *t = plot_track(p, layer, id, label);

	memset(&r, 0, sizeof(r));
	r.track = (uint32_t)(t - p->tracks);
	r.begin_us = begin_us;
	r.end_us = end_us;
	fwrite(&r, sizeof(r), 1, p->spans);
}

/* ---- writing ---- */

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

static void
surface_title(FILE *out, const struct panel *pn, double w, double h)
{
	bool mm = pn->xres > 0;

	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"title\">%s device %u \"", LEFT, pn->y0 - 24,
		plot_layer_name(pn->layer), pn->device);
	plot_xml_text(out, pn->name, 60);
	fprintf(out, "\"</text>\n<text x=\"%.0f\" y=\"%.1f\">%s over the device's full range", LEFT,
		pn->y0 - 8, pn->layer == TT_PLOT_HID ? "contacts" : "trajectories");
	if (mm)
		fprintf(out, ", %.0f \u00d7 %.0f mm", w, h);
	else if (pn->layer == TT_PLOT_HID)
		fprintf(out, " (logical units)");
	else
		fprintf(out, " (no resolution: device units)");
	fprintf(out, "; dot: start, red circle: jump</text>\n");
	/* Beside the surface, where the picture has room. */
	if (pn->unlabelled)
		fprintf(out, "<text class=\"note\" x=\"%.0f\" y=\"%.1f\">%" PRIu64 " without a label (no room)</text>\n",
			LEFT + PANEL_W + 10, pn->y0 + 12, pn->unlabelled);
}

static void
write_surface(FILE *out, const struct panel *pn)
{
	bool mm = pn->xres > 0;
	double w = extent(pn->xmin, pn->xmax, pn->xres), h = extent(pn->ymin, pn->ymax, pn->yres);
	struct plot_scale xs = { LEFT, LEFT + PANEL_W, 0, w };
	struct plot_scale ys = { pn->y0, pn->y0 + pn->h, 0, h };
	const char *units = mm ? "mm" : pn->layer == TT_PLOT_HID ? "logical units" : "device units";
	char title[32];

	surface_title(out, pn, w, h);
	fprintf(out, "<rect class=\"surface\" data-layer=\"%s\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\"/>\n",
		plot_layer_name(pn->layer), LEFT, pn->y0, PANEL_W, pn->h);
	plot_ticks(out, "x", &xs, false, pn->y0 + pn->h, false, 8);
	plot_ticks(out, "y", &ys, true, LEFT, false, 6);
	snprintf(title, sizeof(title), "x (%s)", units);
	plot_axis_title(out, LEFT + PANEL_W / 2, pn->y0 + pn->h + 38, false, title);
	snprintf(title, sizeof(title), "y (%s)", units);
	plot_axis_title(out, LEFT - 50, pn->y0 + pn->h / 2, true, title);
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
       const struct plot_scale *ts, const struct plot_scale *vs, enum series which)
{
	static const char *const cls[] = { "series-x", "series-y", "series-pressure" };

	fprintf(out, "<polyline class=\"%s\" points=\"", cls[which]);
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", plot_map(ts, (double)(pts[i].time_us - t0) / 1e6),
			plot_map(vs, value_of(pn, &pts[i], which)));
	fprintf(out, "\"/>\n");
	/* A line needs two points: show a tap's single sample too. */
	for (uint32_t i = 0; n < 3 && i < n; i++)
		fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", cls[which],
			plot_map(ts, (double)(pts[i].time_us - t0) / 1e6), plot_map(vs, value_of(pn, &pts[i], which)));
}

static void
touch_panel_title(FILE *out, const struct panel *pn, const struct touch_rec *tr, double top)
{
	bool hid = tr->layer == TT_PLOT_HID;
	char label[64];
	char c[32];

	if (hid && tr->slot < 0)
		snprintf(label, sizeof(label), "pen");
	else if (hid)
		snprintf(label, sizeof(label), "Contact Identifier %d", tr->slot);
	else if (tr->synthetic_id)
		snprintf(label, sizeof(label), "slot %d, no tracking ID", tr->slot);
	else
		snprintf(label, sizeof(label), "slot %d, tracking ID %d", tr->slot, tr->tracking_id);
	colour(c, sizeof(c), tr->serial);
	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"title\"><tspan fill=\"%s\">%s %" PRIu64 " (%s)</tspan>"
		" on %sdevice %u: <tspan class=\"key-x\">x</tspan>, <tspan class=\"key-y\">y</tspan> (%s)%s"
		" over time (s)</text>\n",
		LEFT, top - 8, c, hid ? "contact" : "touch", tr->serial, label, hid ? "HID " : "", tr->device,
		pn->xres > 0 ? "mm" : hid ? "logical units" : "device units",
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
	struct plot_scale ts = { LEFT, LEFT + PLOT_W, (double)(b - pad - t0) / 1e6, (double)(e + pad - t0) / 1e6 };
	struct plot_scale vs = { top + TOUCH_H, top, 0, 0 };

	fit_positions(pn, pts, tr->npoints, &vs.v0, &vs.v1);
	struct plot_scale ps = { top + TOUCH_H, top, pn->pmin, pn->pmax };

	fprintf(out, "<g class=\"touch-panel\" data-serial=\"%" PRIu64 "\">\n", tr->serial);
	touch_panel_title(out, pn, tr, top);
	fprintf(out, "<rect class=\"frame\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\"/>\n", LEFT, top,
		PLOT_W, TOUCH_H);
	plot_ticks(out, "touch-time", &ts, false, top + TOUCH_H, false, 8);
	plot_ticks(out, "touch-position", &vs, true, LEFT, false, 3);
	series(out, pn, pts, tr->npoints, t0, &ts, &vs, SERIES_X);
	series(out, pn, pts, tr->npoints, t0, &ts, &vs, SERIES_Y);
	if (pn->has_pressure) {
		plot_ticks(out, "touch-pressure", &ps, true, LEFT + PLOT_W, true, 3);
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

/* The layer whose touches get the panels: the kernel's, the HID
 * contacts in a file without kernel touches. */
static enum tt_plot_layer
paneled_layer(const struct tt_plot *p)
{
	return p->ntouches[TT_PLOT_KERNEL] || !p->ntouches[TT_PLOT_HID] ? TT_PLOT_KERNEL : TT_PLOT_HID;
}

static uint64_t
npaneled(const struct tt_plot *p)
{
	uint64_t n = p->ntouches[paneled_layer(p)];

	return n < TT_PLOT_MAX_TOUCH_PANELS ? n : TT_PLOT_MAX_TOUCH_PANELS;
}

/* Touches are saved as they end; the longest get panels (the short taps
 * say least over time), drawn in begin order. */
static size_t
index_touches(struct tt_plot *p, struct saved_touch *saved)
{
	enum tt_plot_layer layer = paneled_layer(p);
	struct saved_touch t;
	size_t n = 0;

	rewind(p->touches);
	while (fread(&t.tr, sizeof(t.tr), 1, p->touches) == 1) {
		t.offset = ftell(p->touches);
		if (fseek(p->touches, (long)(t.tr.npoints * sizeof(struct tt_plot_point)), SEEK_CUR) != 0)
			break;
		if (t.tr.layer == layer)
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
	uint64_t all = p->ntouches[paneled_layer(p)], drawn = npaneled(p);
	const char *what = paneled_layer(p) == TT_PLOT_HID ? "contact" : "touch";
	size_t n;
	double y = top;

	if (all > drawn)
		fprintf(out, "<text class=\"note\" x=\"%.0f\" y=\"%.1f\">%" PRIu64 " more %s%s without a panel "
			"of x, y and pressure: the %" PRIu64 " longest of %" PRIu64 " are drawn</text>\n",
			LEFT, y - 30, all - drawn, what, all - drawn == 1 ? "" : what[0] == 't' ? "es" : "s", drawn, all);
	if (fflush(p->touches) != 0)
		return -errno;
	n = index_touches(p, saved);
	for (size_t i = 0; i < n; i++) {
		const struct touch_rec *tr = &saved[i].tr;
		const struct panel *pn = find_panel(p, tr->layer, tr->device);
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
		".lane { fill: none; stroke: #ddd; }\n"
		".lane-label { font-size: 10px; font-weight: bold; }\n"
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
	double shift = 20 + (double)p->ntracks * LANE_H + GAP;
	double panels_top = p->height + shift + (p->ntouches[paneled_layer(p)] > npaneled(p) ? 60 : 30);
	double height = panels_top + (double)npaneled(p) * TOUCH_STEP;
	int rc;

	if (fflush(p->counts) != 0 || fflush(p->spans) != 0)
		return -errno;
	write_head(out, WIDTH, height);
	plot_write_timeline(p, out, top, t0, t1);
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
