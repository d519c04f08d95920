/* SPDX-License-Identifier: MIT */
/* touchtape diff: a multitouch device's own single-touch axes
 * (ABS_PRESSURE, ABS_TOOL_WIDTH, ABS_DISTANCE). Touchpads often report
 * pressure only there, not per slot (ABS_MT_PRESSURE): without this, a
 * replay that halves it would compare equal. Compared per device over
 * time, value by value, as the per-touch axes are (diff-axes.c). They
 * change in every frame of an hour: each value is compared as soon as
 * the other file has read past its time tolerance, and let go once the
 * other file's values have passed it too, so only a window of them is
 * held. See diff.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diff.h"

static const uint16_t device_axes[] = { ABS_PRESSURE, ABS_TOOL_WIDTH, ABS_DISTANCE };
#define NAXES ARRAY_LENGTH(device_axes)

/* One axis' changes on one side, numbered 0, 1, ... as they come; those
 * from @base on are held (v[head...]). */
struct dseries {
	struct dpt *v;
	size_t head, cap;
	uint64_t base, total;
	uint64_t pend;		/* the next of these to compare with the other's */
	uint64_t start;		/* where the other's current window begins here */
	struct diff_value_gap gap;	/* these to the other's */
	bool zero;		/* none in the file: a 0 held from the start */
};

/* A single-touch device's ABS_PRESSURE is its touch's already. */
static bool
compared(const struct tt_device *dev, uint16_t code)
{
	return tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) && tt_device_has(dev, EV_ABS, code);
}

static struct dpt *
at(const struct dseries *s, uint64_t i)
{
	return &s->v[s->head + (size_t)(i - s->base)];
}

static void
append(struct dseries *s, const struct dpt *p)
{
	size_t n = s->head + (size_t)(s->total - s->base);

	if (n == s->cap && s->head > 0) {
		/* What was let go makes room: the window slides. */
		memmove(s->v, s->v + s->head, (n - s->head) * sizeof(*s->v));
		n -= s->head;
		s->head = 0;
	}
	s->v = tt_grow(s->v, n, &s->cap, sizeof(*s->v));
	s->v[n] = *p;
	s->total++;
}

void
diff_devaxes_frame(struct side *s, size_t dev, int64_t t_us, const struct tt_frame *f, size_t line)
{
	struct ddev *d = &s->devs[dev];

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type != EV_ABS || e->code > ABS_MAX || !compared(d->dev, e->code))
			continue;
		for (size_t c = 0; c < NAXES; c++) {
			if (device_axes[c] != e->code)
				continue;
			if (!d->series)
				d->series = tt_zalloc(NAXES * sizeof(*d->series));
			append(&d->series[c], &(struct dpt){ .t = t_us, .line = line, .v = e->value });
			diff_stats_add(&s->st, 0, 0, 1);
		}
	}
}

/* Each value of @p not yet compared against the values of @q held
 * within the time tolerance of it (diff_points_at()'s window), as far as
 * @q has been read: to know the window's ends, @q's next value past each
 * end, or @q's end. */
static void
advance(const struct differ *df, struct dseries *p, struct dseries *q, bool q_done, bool p_is_a)
{
	int64_t w = df->o->time_tol;

	while (p->pend < p->total) {
		const struct dpt *x = at(p, p->pend);
		while (q->start + 1 < q->total && at(q, q->start + 1)->t < x->t - w)
			q->start++;
		if (q->start + 1 >= q->total && !q_done)
			return;
		uint64_t j = q->start;
		while (j + 1 < q->total && at(q, j + 1)->t <= x->t + w)
			j++;
		if (j + 1 >= q->total && !q_done)
			return;
		diff_value_gap_add(&p->gap, x, at(q, q->start), (size_t)(j - q->start + 1), p_is_a);
		p->pend++;
	}
}

/* Lets go what both directions are past. */
static void
trim(struct side *s, struct dseries *p)
{
	uint64_t keep = p->pend < p->start ? p->pend : p->start;

	if (keep <= p->base)
		return;
	diff_stats_add(&s->st, 0, 0, -(int64_t)(keep - p->base));
	p->head += (size_t)(keep - p->base);
	p->base = keep;
}

/* A side that ended without a value holds 0 from the start, as long as
 * the other has values. */
static void
zero_if_none(struct side *s, struct dseries *p, const struct dseries *q)
{
	if (s->eof && !p->total && q->total && !p->zero) {
		p->zero = true;
		append(p, &(struct dpt){ 0 });
		diff_stats_add(&s->st, 0, 0, 1);
	}
}

/* Whether device @i of @s compares @code, or never will (-1), or it is
 * not known yet (0). */
static int
takes(const struct side *s, size_t i, uint16_t code)
{
	if (i < s->ndevs)
		return compared(s->devs[i].dev, code) ? 1 : -1;
	return s->eof ? -1 : 0;
}

static struct dseries *
series_of(struct side *s, size_t i, size_t c)
{
	struct ddev *d = &s->devs[i];

	if (!d->series)
		d->series = tt_zalloc(NAXES * sizeof(*d->series));
	return &d->series[c];
}

/* Values never compared: nothing to hold. */
static void
drop(struct side *s, size_t i, size_t c)
{
	struct dseries *p;

	if (i >= s->ndevs)
		return;
	p = series_of(s, i, c);
	p->pend = p->start = p->total;
	trim(s, p);
}

static void
step_one(struct differ *df, size_t i, size_t c)
{
	struct side *a = df->a, *b = df->b;
	int ta = takes(a, i, device_axes[c]), tb = takes(b, i, device_axes[c]);

	if (ta < 0 || tb < 0) {
		drop(a, i, c);
		drop(b, i, c);
		return;
	}
	if (ta == 0 || tb == 0)
		return;
	struct dseries *sa = series_of(a, i, c), *sb = series_of(b, i, c);
	zero_if_none(a, sa, sb);
	zero_if_none(b, sb, sa);
	advance(df, sa, sb, b->eof, true);
	advance(df, sb, sa, a->eof, false);
	trim(a, sa);
	trim(b, sb);
}

void
diff_devaxes_step(struct differ *df)
{
	size_t n = df->a->ndevs > df->b->ndevs ? df->a->ndevs : df->b->ndevs;

	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < NAXES; c++)
			step_one(df, i, c);
	}
}

void
diff_compare_device_axes(struct differ *df)
{
	diff_devaxes_step(df);
	for (size_t i = 0; i < df->a->ndevs && i < df->b->ndevs; i++) {
		const struct tt_device *da = df->a->devs[i].dev, *db = df->b->devs[i].dev;
		for (size_t c = 0; c < NAXES; c++) {
			const struct dseries *sa = series_of(df->a, i, c), *sb = series_of(df->b, i, c);
			/* One side never moving it differs from the other
			 * moving it from 0 (zero_if_none()). */
			if (compared(da, device_axes[c]) && compared(db, device_axes[c]) && (sa->total || sb->total))
				diff_report_values(df, i, -1, 0, device_axes[c], &sa->gap, &sb->gap);
		}
	}
}

void
diff_devaxes_clear(struct ddev *d)
{
	if (d->series) {
		for (size_t c = 0; c < NAXES; c++)
			free(d->series[c].v);
	}
	free(d->series);
	d->series = NULL;
}
