/* SPDX-License-Identifier: MIT */
/* analyze --plot's timeline: a lane per device of each layer, the
 * touches down on it over time (plot-private.h). A lane's label sits in
 * its own row above its line, inside the lane: a long device name is cut
 * there rather than run past the picture's edge. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-private.h"
#include "plot-svg.h"
#include "util-mem.h"
#include "util-strings.h"

const char *
plot_layer_name(enum tt_plot_layer layer)
{
	static const char *const names[] = {
		[TT_PLOT_KERNEL] = "kernel", [TT_PLOT_HID] = "HID", [TT_PLOT_XI] = "XI",
		[TT_PLOT_LIBINPUT] = "libinput", [TT_PLOT_WAYLAND] = "Wayland",
	};

	return layer < TT_PLOT_LAYERS ? names[layer] : "?";
}

struct track *
plot_track(struct tt_plot *p, enum tt_plot_layer layer, uint32_t id, const char *label)
{
	for (size_t i = 0; i < p->ntracks; i++) {
		if (p->tracks[i].layer == layer && p->tracks[i].id == id &&
		    (!label || strcmp(p->tracks[i].label, label) == 0))
			return &p->tracks[i];
	}
	p->tracks = tt_reallocarray(p->tracks, p->ntracks + 1, sizeof(*p->tracks));
	struct track *t = &p->tracks[p->ntracks++];

	memset(t, 0, sizeof(*t));
	t->layer = layer;
	t->id = id;
	t->label = tt_strdup(label ? label : "");
	return t;
}

/* One change of a track's count: +1 at a touch's begin, -1 at its end. */
struct step {
	int64_t time_us;
	int delta;
};

static int
by_time(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->delta - y->delta;	/* an end before a begin at one time */
}

/* A track's touches as steps, in time order, clipped to [@t0, @t1];
 * its max_count set. Returns the steps (the caller frees), *@n their count. */
static struct step *
span_steps(struct tt_plot *p, struct track *t, int64_t t0, int64_t t1, size_t *n)
{
	uint32_t idx = (uint32_t)(t - p->tracks);
	struct step *steps = NULL;
	size_t cap = 0, k = 0;
	struct span_rec r;
	int count = 0;

	rewind(p->spans);
	while (fread(&r, sizeof(r), 1, p->spans) == 1) {
		if (r.track != idx || r.end_us < t0 || r.begin_us > t1)
			continue;
		steps = tt_grow(steps, k + 1, &cap, sizeof(*steps));
		steps[k++] = (struct step){ r.begin_us < t0 ? t0 : r.begin_us, 1 };
		steps[k++] = (struct step){ r.end_us > t1 ? t1 : r.end_us, -1 };
	}
	tt_sort(steps, k, sizeof(*steps), by_time);
	for (size_t i = 0; i < k; i++) {
		count += steps[i].delta;
		if (count > (int)t->max_count)
			t->max_count = (uint32_t)count;
	}
	*n = k;
	return steps;
}

/* The kernel's counts as steps (each a new count, not a change). */
static struct step *
count_steps(struct tt_plot *p, const struct track *t, size_t *n)
{
	uint32_t idx = (uint32_t)(t - p->tracks);
	struct step *steps = NULL;
	size_t cap = 0, k = 0;
	struct count_rec r;

	rewind(p->counts);
	while (fread(&r, sizeof(r), 1, p->counts) == 1) {
		if (r.track != idx)
			continue;
		steps = tt_grow(steps, k, &cap, sizeof(*steps));
		steps[k++] = (struct step){ r.time_us, (int)r.count };
	}
	*n = k;
	return steps;
}

static void
lane_head(FILE *out, const struct track *t, double top)
{
	/* The label's row holds PLOT_W of 10 px bold characters; the
	 * count after the name. */
	size_t room = (size_t)((PLOT_W - 8) / CHAR_W) - 24;

	fprintf(out, "<rect class=\"lane\" data-layer=\"%s\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\"/>\n"
		"<text class=\"lane-label\" x=\"%.0f\" y=\"%.1f\">", plot_layer_name(t->layer), LEFT, top, PLOT_W,
		LANE_H, LEFT + 4, top + LANE_HEAD - 4);
	plot_xml_text(out, t->label, room);
	fprintf(out, ": max %u down</text>\n", t->max_count);
}

static void
lane(struct tt_plot *p, FILE *out, struct track *t, double top, const struct plot_scale *ts, int64_t t0,
     int64_t t1)
{
	bool kernel = t->layer == TT_PLOT_KERNEL;
	size_t n = 0;
	_cleanup_free_ struct step *steps = kernel ? count_steps(p, t, &n) : span_steps(p, t, t0, t1, &n);
	double base = top + LANE_H;
	struct plot_scale cs = { base, top + LANE_HEAD + 4, 0, t->max_count ? t->max_count : 1 };
	double lasty = base;
	int count = 0;

	lane_head(out, t, top);
	/* Counts are whole: no 0.5 tick for a lane that reaches 1. */
	plot_ticks(out, "count", &cs, true, LEFT, false, t->max_count < 2 ? 1 : 2);
	fprintf(out, "<polyline class=\"count\" data-layer=\"%s\" data-device=\"%u\" points=\"%.1f,%.1f",
		plot_layer_name(t->layer), t->id, LEFT, base);
	for (size_t i = 0; i < n; i++) {
		count = kernel ? steps[i].delta : count + steps[i].delta;
		double x = plot_map(ts, (double)steps[i].time_us / 1e6), y = plot_map(&cs, count);
		if (y != lasty)
			fprintf(out, " %.1f,%.1f %.1f,%.1f", x, lasty, x, y);
		lasty = y;
	}
	fprintf(out, " %.1f,%.1f\"/>\n", LEFT + PLOT_W, lasty);
}

void
plot_write_timeline(struct tt_plot *p, FILE *out, double top, int64_t t0, int64_t t1)
{
	double span = t1 > t0 ? (double)(t1 - t0) / 1e6 : 1e-3;
	struct plot_scale ts = { LEFT, LEFT + PLOT_W, 0, span };
	struct plot_scale shifted = ts;
	double bottom = top + (double)p->ntracks * LANE_H;

	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" class=\"title\">touches down per device of each layer over time "
		"(%.3f s)</text>\n", LEFT, top - 8, span);
	/* Times run from the recording's first record, as print shows. */
	shifted.v0 += (double)t0 / 1e6;
	shifted.v1 += (double)t0 / 1e6;
	for (enum tt_plot_layer l = 0; l < TT_PLOT_LAYERS; l++) {
		for (size_t i = 0; i < p->ntracks; i++) {
			if (p->tracks[i].layer != l)
				continue;
			lane(p, out, &p->tracks[i], top, &shifted, t0, t1);
			top += LANE_H;
		}
	}
	plot_ticks(out, "time", &ts, false, bottom, false, 10);
	plot_axis_title(out, LEFT + PLOT_W / 2, bottom + 36, false, "time (s)");
}
