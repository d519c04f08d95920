/* SPDX-License-Identifier: MIT */
/* The jump and stall rules of the diagnostics layer. See detect-motion.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect-motion.h"
#include "model.h"
#include "util-mem.h"

void
tt_motion_dev_init(struct tt_motion_dev *m, const struct tt_device *dev, double jump_mm, double jump_units)
{
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	const struct tt_absinfo *ax = &dev->abs[mt ? ABS_MT_POSITION_X : ABS_X];
	const struct tt_absinfo *ay = &dev->abs[mt ? ABS_MT_POSITION_Y : ABS_Y];
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	m->mm = tt_model_has_mm(dev);
	m->res_x = ax->resolution;
	m->res_y = ay->resolution;
	/* A device without a range still gets a scale: its units. */
	m->rx = ax->maximum > ax->minimum ? (double)ax->maximum - ax->minimum : 1.0;
	m->ry = ay->maximum > ay->minimum ? (double)ay->maximum - ay->minimum : 1.0;
	m->jump_limit = m->mm ? jump_mm : jump_units;
	m->iv.max_us = -1;
	m->median_us = -1;
}

void
tt_motion_dev_release(struct tt_motion_dev *m)
{
	tt_interval_hist_clear(&m->iv);
}

void
tt_motion_frame(struct tt_motion_dev *m, int64_t time_us, uint32_t nactive)
{
	if (m->have_last && m->prev_active && nactive && time_us >= m->last_us) {
		tt_interval_hist_add(&m->iv, time_us - m->last_us);
		if (m->iv.n >= TT_MOTION_MEDIAN_MIN &&
		    (m->iv.n < TT_MOTION_MEDIAN_EVERY || m->iv.n - m->median_n >= TT_MOTION_MEDIAN_EVERY)) {
			int64_t v;
			if (tt_interval_hist_percentile(&m->iv, 0.5, &v) == 0)
				m->median_us = v;
			m->median_n = m->iv.n;
		}
	}
	m->last_us = time_us;
	m->have_last = true;
	m->prev_active = nactive;
}

int64_t
tt_motion_median_us(const struct tt_motion_dev *m)
{
	return m->median_us;
}

void
tt_motion_touch_init(struct tt_motion_touch *mt, int32_t x, int32_t y, bool known, uint64_t drop_gen,
		     int64_t time_us)
{
	memset(mt, 0, sizeof(*mt));
	mt->x = x;
	mt->y = y;
	mt->known = known;
	mt->drop_gen = drop_gen;
	mt->last_us = time_us;
	mt->have_last = true;
}

/* ---- one step ---- */

/* What tt_motion_update works on. */
struct step {
	struct tt_motion_dev *m;
	struct tt_motion_touch *mt;
	double dx, dy;		/* units */
	double size;		/* of the range */
	double dist;		/* mm, or units without resolution; < 0 until
				 * step_dist() needs it */
	int64_t gap_us;		/* since the touch's last update */
	size_t line;
	int64_t time_us;
	struct tt_motion_find *out;
	size_t max, n;
	bool jump;		/* this step is reported as a jump */
};

static struct tt_motion_find *
find(struct step *s, enum tt_motion_kind kind, size_t line, int64_t time_us)
{
	struct tt_motion_find *f;

	if (s->n >= s->max)
		return NULL;
	f = &s->out[s->n++];
	f->kind = kind;
	f->line = line;
	f->time_us = time_us;
	return f;
}

static const char *
unit(const struct step *s)
{
	return s->m->mm ? "mm" : "units";
}

/* sqrt() of the sum of squares rather than hypot(): steps are fractions
 * of the range, so nothing overflows, and hypot()'s care costs a fifth of
 * a long file's validation. */
static double
norm(const struct tt_motion_dev *m, double dx, double dy)
{
	double a = dx / m->rx, b = dy / m->ry;

	return sqrt(a * a + b * b);
}

/* tt_model_distance() with the device's resolutions looked up once: the
 * same divisions, so the same value, without the lookup per step. */
static void
distance_parts(const struct tt_motion_dev *m, double dx, double dy, double *a, double *b)
{
	*a = m->mm ? dx / m->res_x : dx;
	*b = m->mm ? dy / m->res_y : dy;
}

static double
distance(const struct tt_motion_dev *m, double dx, double dy)
{
	double a, b;

	distance_parts(m, dx, dy, &a, &b);
	return hypot(a, b);
}

/* The step's distance, computed the first time it is needed: most steps
 * are judged by their size alone, and hypot() is the costliest part of a
 * step. */
static double
step_dist(struct step *s)
{
	if (s->dist < 0)
		s->dist = distance(s->m, s->dx, s->dy);
	return s->dist;
}

/* step_dist(s) <= limit, without the hypot() unless the step is within a
 * hair of the limit: the sum of squares is off by a few ulps at most, so
 * outside a margin of 1e-9 its verdict is hypot()'s, and the rule keeps
 * one definition. */
static bool
step_within(struct step *s, double limit)
{
	double a, b, sq, lsq = limit * limit;

	distance_parts(s->m, s->dx, s->dy, &a, &b);
	sq = a * a + b * b;

	if (sq < lsq * (1 - 1e-9))
		return true;
	if (sq > lsq * (1 + 1e-9))
		return false;
	return step_dist(s) <= limit;
}

/* The largest of the touch's recent steps, per update and not per time:
 * the same positions give the same verdict however the frames were
 * spaced. 0 without enough history. */
static double
expected_step(const struct step *s)
{
	const struct tt_motion_touch *mt = s->mt;
	double pace = 0;

	if (mt->npace < 2)
		return 0;
	/* fmax() without the call: no step is NaN. */
	for (unsigned int i = 0; i < mt->npace && i < TT_MOTION_PACE; i++)
		pace = mt->pace[i] > pace ? mt->pace[i] : pace;
	return pace;
}

static void
check_absolute(struct step *s)
{
	struct tt_motion_find *f;
	double limit = s->m->jump_limit;

	if (limit > 0 ? step_within(s, limit) : s->size <= TT_MOTION_JUMP_RANGE)
		return;
	s->jump = true;
	if (!(f = find(s, TT_MOTION_JUMP, s->line, s->time_us)))
		return;
	if (limit > 0)
		snprintf(f->message, sizeof(f->message), "moved %.1f %s in one frame (threshold %.1f)", step_dist(s),
			 unit(s), limit);
	else
		snprintf(f->message, sizeof(f->message),
			 "moved %.1f units (%.1f%% of the axis range) in one frame (threshold %.0f%%)", step_dist(s),
			 s->size * 100.0, TT_MOTION_JUMP_RANGE * 100.0);
}

static void
check_sudden(struct step *s, double expected)
{
	struct tt_motion_find *f;

	if (s->jump || expected <= 0 || s->size < TT_MOTION_SUDDEN_MIN || s->size <= TT_MOTION_SUDDEN * expected)
		return;
	s->jump = true;
	if ((f = find(s, TT_MOTION_JUMP, s->line, s->time_us)))
		snprintf(f->message, sizeof(f->message),
			 "moved %.1f %s (%.1f%% of the axis range) in one frame, %.0fx its recent steps", step_dist(s),
			 unit(s), s->size * 100.0, s->size / expected);
}

/* Steps in nearly opposite directions (in range units): a way back, not a
 * swipe turning. */
static bool
opposed(const struct tt_motion_dev *m, double ax, double ay, double bx, double by)
{
	double dot = (ax / m->rx) * (bx / m->rx) + (ay / m->ry) * (by / m->ry);

	return dot < -TT_MOTION_BACK_COS * norm(m, ax, ay) * norm(m, bx, by);
}

static void
push_pace(struct tt_motion_touch *mt, double size)
{
	mt->pace[mt->npace % TT_MOTION_PACE] = size;
	mt->npace++;
}

/* A step that undoes the pending one, give or take the touch's own
 * motion meanwhile: both are jumps, the first one reported now if it
 * was not already. A touch that moves on with steps half as large (a
 * swipe) is no longer out. */
static void
check_back(struct step *s, double expected)
{
	struct tt_motion_touch *mt = s->mt;
	struct tt_motion_find *f;

	if (!mt->out)
		return;

	double out_size = norm(s->m, mt->out_dx, mt->out_dy);
	double ms = (double)(s->time_us - mt->out_us) / 1000.0;
	double slack = TT_MOTION_BACK_SLACK * out_size + 2 * expected;

	if (++mt->out_updates > TT_MOTION_BACK_UPDATES) {
		mt->out = false;
		return;
	}
	if (s->size < TT_MOTION_STEP_MIN || !opposed(s->m, mt->out_dx, mt->out_dy, s->dx, s->dy) ||
	    norm(s->m, mt->out_dx + s->dx, mt->out_dy + s->dy) > slack) {
		/* Moving on: the step was the touch's own motion. */
		if (s->size >= out_size / 2) {
			mt->out = false;
			if (!mt->out_reported)
				push_pace(mt, out_size);
		}
		return;
	}
	mt->out = false;
	if (!mt->out_reported && (f = find(s, TT_MOTION_JUMP, mt->out_line, mt->out_us)))
		snprintf(f->message, sizeof(f->message),
			 "moved %.1f %s (%.1f%% of the axis range) in one frame and back %.0f ms later",
			 distance(s->m, mt->out_dx, mt->out_dy),
			 unit(s), out_size * 100.0, ms);
	if (s->jump)
		return;
	s->jump = true;
	if ((f = find(s, TT_MOTION_JUMP, s->line, s->time_us)))
		snprintf(f->message, sizeof(f->message),
			 "moved %.1f %s (%.1f%% of the axis range) in one frame, back to where it was %.0f ms before",
			 step_dist(s), unit(s), s->size * 100.0, ms);
}

/* true when the step was a stall: it is reported as that, not as a
 * jump, the gap explaining the distance. */
static bool
check_stall(struct step *s, int64_t last_us)
{
	const struct tt_motion_touch *mt = s->mt;
	int64_t median = tt_motion_median_us(s->m);
	int64_t limit = median * TT_MOTION_STALL_FACTOR;
	struct tt_motion_find *f;

	if (median < 0)
		return false;
	if (limit < TT_MOTION_STALL_MIN_US)
		limit = TT_MOTION_STALL_MIN_US;
	/* Moving: its last update before the gap moved it. */
	if (s->gap_us <= limit || mt->last_step <= 0 || last_us != mt->last_move_us)
		return false;
	if (s->size < TT_MOTION_STALL_DIST || s->size < TT_MOTION_STALL_STEPS * mt->last_step)
		return false;
	if ((f = find(s, TT_MOTION_STALL, s->line, s->time_us)))
		snprintf(f->message, sizeof(f->message),
			 "no frame for %.1f ms while moving (median interval %.2f ms), then %.1f %s "
			 "(%.1f%% of the axis range) away", (double)s->gap_us / 1000.0, (double)median / 1000.0,
			 step_dist(s), unit(s), s->size * 100.0);
	return true;
}

/* Remember the step: as a step a later one may undo, or else (unless it
 * was a jump) as the pace. */
static void
remember(struct step *s, double expected)
{
	struct tt_motion_touch *mt = s->mt;
	bool out = false;

	if (s->size >= TT_MOTION_STEP_MIN && (expected <= 0 || s->size > 2 * expected || s->jump) &&
	    (!mt->out || mt->out_updates >= TT_MOTION_BACK_UPDATES)) {
		mt->out = true;
		mt->out_reported = s->jump;
		mt->out_dx = s->dx;
		mt->out_dy = s->dy;
		mt->out_line = s->line;
		mt->out_us = s->time_us;
		mt->out_updates = 0;
		out = true;
	}
	if (!s->jump && !out)
		push_pace(mt, s->size);
	mt->last_step = s->size;
}

static void
forget_motion(struct tt_motion_touch *mt)
{
	mt->npace = 0;
	mt->last_step = 0;
	mt->out = false;
}

size_t
tt_motion_update(struct tt_motion_dev *m, struct tt_motion_touch *mt, int32_t x, int32_t y, bool known,
		 bool comparable, uint64_t drop_gen, size_t line, int64_t time_us, struct tt_motion_find *out,
		 size_t max)
{
	struct step s = { .m = m, .mt = mt, .line = line, .time_us = time_us, .out = out, .max = max };
	int64_t last_us = mt->last_us;
	double expected;

	s.gap_us = mt->have_last ? time_us - mt->last_us : 0;
	mt->last_us = time_us;
	mt->have_last = true;
	if (x == mt->x && y == mt->y && mt->known == known)
		return 0;
	if (!comparable || !mt->known || !known) {
		forget_motion(mt);
	} else {
		s.dx = (double)x - mt->x;
		s.dy = (double)y - mt->y;
		s.size = norm(m, s.dx, s.dy);
		s.dist = -1;
		if (check_stall(&s, last_us)) {
			forget_motion(mt);
		} else {
			expected = expected_step(&s);
			check_absolute(&s);
			check_sudden(&s, expected);
			check_back(&s, expected);
			remember(&s, expected);
		}
		mt->last_move_us = time_us;
	}
	mt->x = x;
	mt->y = y;
	mt->known = known;
	mt->drop_gen = drop_gen;
	return s.n;
}
