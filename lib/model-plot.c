/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model-plot.h"
#include "util-mem.h"
#include "util-strings.h"

#define PANEL_W 480.0
#define MARGIN 40.0
#define LANE_H 60.0
#define TIMELINE_W 800.0
#define MAX_PATH_POINTS 4096

struct panel {
	uint32_t device;
	char *name;
	double y0, h;		/* SVG position and height of the surface */
	int32_t xmin, xmax, ymin, ymax;
	uint32_t max_count;
};

struct count_rec {
	uint32_t device;
	uint32_t count;
	int64_t time_us;
};

struct tt_plot {
	FILE *paths;		/* finished SVG elements of the panels */
	FILE *counts;		/* struct count_rec */
	struct panel *panels;
	size_t npanels;
	double height;		/* of the panels so far */
};

struct tt_plot *
tt_plot_new(void)
{
	struct tt_plot *p = tt_zalloc(sizeof(*p));

	p->paths = tmpfile();
	p->counts = tmpfile();
	if (!p->paths || !p->counts) {
		tt_plot_free(p);
		return NULL;
	}
	p->height = MARGIN;
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

void
tt_plot_add_device(struct tt_plot *p, const struct tt_device *dev)
{
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	unsigned int cx = mt ? ABS_MT_POSITION_X : ABS_X, cy = mt ? ABS_MT_POSITION_Y : ABS_Y;

	if (!tt_device_has(dev, EV_ABS, cx) || !tt_device_has(dev, EV_ABS, cy) || find_panel(p, dev->id))
		return;
	p->panels = tt_reallocarray(p->panels, p->npanels + 1, sizeof(*p->panels));
	struct panel *pn = &p->panels[p->npanels++];
	memset(pn, 0, sizeof(*pn));
	pn->device = dev->id;
	pn->name = tt_strdup(dev->name ? dev->name : "");
	pn->xmin = dev->abs[cx].minimum;
	pn->xmax = dev->abs[cx].maximum;
	pn->ymin = dev->abs[cy].minimum;
	pn->ymax = dev->abs[cy].maximum;
	/* Keep the surface's aspect, in mm when both axes have a resolution. */
	double w = (double)pn->xmax - pn->xmin, h = (double)pn->ymax - pn->ymin;
	if (dev->abs[cx].resolution > 0 && dev->abs[cy].resolution > 0) {
		w /= dev->abs[cx].resolution;
		h /= dev->abs[cy].resolution;
	}
	double aspect = (w > 0 && h > 0) ? h / w : 0.75;
	if (aspect < 0.2)
		aspect = 0.2;
	if (aspect > 1.5)
		aspect = 1.5;
	pn->y0 = p->height + 20;	/* room for the title */
	pn->h = PANEL_W * aspect;
	p->height = pn->y0 + pn->h + MARGIN;
}

static void
push(int32_t **arr, size_t *n, size_t *cap, int32_t x, int32_t y)
{
	if (*n + 1 > *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*arr = tt_reallocarray(*arr, *cap, 2 * sizeof(int32_t));
	}
	(*arr)[2 * *n] = x;
	(*arr)[2 * *n + 1] = y;
	(*n)++;
}

void
tt_plot_path_add(struct tt_plot_path *path, int32_t x, int32_t y, bool jump)
{
	if (jump)
		push(&path->jumps, &path->njumps, &path->capjumps, x, y);
	if (!path->stride)
		path->stride = 1;
	if (!jump && path->skipped + 1 < path->stride && path->npoints) {
		path->skipped++;
		return;
	}
	path->skipped = 0;
	if (path->npoints >= MAX_PATH_POINTS) {
		/* Halve: keep every other point, and from now on every
		 * stride-th, so a long touch costs bounded memory. */
		for (size_t i = 0; i < path->npoints / 2; i++) {
			path->xy[2 * i] = path->xy[4 * i];
			path->xy[2 * i + 1] = path->xy[4 * i + 1];
		}
		path->npoints /= 2;
		path->stride *= 2;
	}
	push(&path->xy, &path->npoints, &path->cap, x, y);
}

static double
sx(const struct panel *pn, int32_t x)
{
	double r = (double)pn->xmax - pn->xmin;
	return MARGIN + (r > 0 ? ((double)x - pn->xmin) / r : 0.5) * PANEL_W;
}

static double
sy(const struct panel *pn, int32_t y)
{
	double r = (double)pn->ymax - pn->ymin;
	return pn->y0 + (r > 0 ? ((double)y - pn->ymin) / r : 0.5) * pn->h;
}

static void
colour(char *buf, size_t size, uint64_t serial)
{
	snprintf(buf, size, "hsl(%u,75%%,42%%)", (unsigned)((serial * 137) % 360));
}

void
tt_plot_path_end(struct tt_plot *p, uint32_t device, uint64_t serial, struct tt_plot_path *path)
{
	struct panel *pn = p ? find_panel(p, device) : NULL;
	char c[32];

	if (pn && path->npoints) {
		colour(c, sizeof(c), serial);
		fprintf(p->paths, "<polyline class=\"touch\" data-serial=\"%" PRIu64 "\" stroke=\"%s\" points=\"",
			serial, c);
		for (size_t i = 0; i < path->npoints; i++)
			fprintf(p->paths, "%s%.1f,%.1f", i ? " " : "", sx(pn, path->xy[2 * i]),
				sy(pn, path->xy[2 * i + 1]));
		fprintf(p->paths, "\"/>\n");
		fprintf(p->paths, "<circle class=\"start\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			sx(pn, path->xy[0]), sy(pn, path->xy[1]), c);
		for (size_t i = 0; i < path->njumps; i++)
			fprintf(p->paths, "<circle class=\"jump\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\"/>\n",
				sx(pn, path->jumps[2 * i]), sy(pn, path->jumps[2 * i + 1]));
	}
	free(path->xy);
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

static void
write_timeline(struct tt_plot *p, FILE *out, double top, int64_t t0, int64_t t1)
{
	double span = t1 > t0 ? (double)(t1 - t0) : 1.0;

	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" class=\"title\">touches down per device over time (%.3f s)</text>\n",
		MARGIN, top - 8, span / 1e6);
	for (size_t i = 0; i < p->npanels; i++) {
		struct panel *pn = &p->panels[i];
		double base = top + (double)(i + 1) * LANE_H;
		double scale = pn->max_count ? (LANE_H - 10) / pn->max_count : 0;
		struct count_rec r;
		double lasty = base;
		bool first = true;

		fprintf(out, "<line class=\"axis\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>\n",
			MARGIN, base, MARGIN + TIMELINE_W, base);
		fprintf(out, "<text x=\"%.0f\" y=\"%.1f\">device %u: max %u</text>\n",
			MARGIN + TIMELINE_W + 6, base - 4, pn->device, pn->max_count);
		fprintf(out, "<polyline class=\"count\" data-device=\"%u\" points=\"%.1f,%.1f", pn->device,
			MARGIN, base);
		rewind(p->counts);
		while (fread(&r, sizeof(r), 1, p->counts) == 1) {
			if (r.device != pn->device)
				continue;
			double x = MARGIN + (double)(r.time_us - t0) / span * TIMELINE_W;
			double y = base - r.count * scale;
			if (!first || y != lasty)
				fprintf(out, " %.1f,%.1f %.1f,%.1f", x, lasty, x, y);
			first = false;
			lasty = y;
		}
		fprintf(out, " %.1f,%.1f\"/>\n", MARGIN + TIMELINE_W, lasty);
	}
}

int
tt_plot_write(struct tt_plot *p, FILE *out, int64_t t0, int64_t t1)
{
	double top = p->height + 20;
	double height = top + (double)p->npanels * LANE_H + MARGIN;
	double width = MARGIN + TIMELINE_W + 160;
	int rc;

	if (fflush(p->counts) != 0)
		return -errno;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
		"<style>\n"
		"text { font: 12px sans-serif; fill: #222; }\n"
		".title { font-weight: bold; }\n"
		".surface { fill: #f6f6f6; stroke: #999; }\n"
		".touch { fill: none; stroke-width: 1.5; stroke-linejoin: round; }\n"
		".jump { fill: none; stroke: red; stroke-width: 2; }\n"
		".axis { stroke: #999; }\n"
		".count { fill: none; stroke: #1565c0; stroke-width: 1.5; }\n"
		"</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		width, height, width, height);
	for (size_t i = 0; i < p->npanels; i++) {
		struct panel *pn = &p->panels[i];
		fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"title\">device %u \"", MARGIN, pn->y0 - 6,
			pn->device);
		xml_text(out, pn->name);
		fprintf(out, "\": trajectories (red circles: jumps)</text>\n"
			"<rect class=\"surface\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\"/>\n",
			MARGIN, pn->y0, PANEL_W, pn->h);
	}
	if ((rc = copy_file(p->paths, out)) < 0)
		return rc;
	write_timeline(p, out, top, t0, t1);
	fprintf(out, "</svg>\n");
	return ferror(out) ? -EIO : 0;
}
