/* SPDX-License-Identifier: MIT */
/*
 * What a failing grade suggests, as libinput measure gives it: for
 * stationary jitter, the hwdb entry that sets the fuzz the kernel filters
 * with (EVDEV_ABS_35/36, applied by udev's evdev builtin); for touchpads,
 * the pressure and touch-size ranges seen with the quirk lines libinput
 * would take. Definitions in touchtape-analyze(1), GRADING.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bitmap.h"
#include "grade.h"
#include "util-mem.h"

/* A name as a glob of hwdb and quirks match it: anything that would
 * be a pattern, a line break or a separator becomes '?'. */
static void
match_name(const char *name, char *out, size_t size)
{
	size_t n = 0;

	for (const char *c = name ? name : ""; *c && n + 1 < size; c++)
		out[n++] = strchr("*?[]:\\\n\r", *c) || (unsigned char)*c < 0x20 ? '?' : *c;
	out[n] = '\0';
}

/* The kernel's filter of an absolute axis with fuzz (drivers/input/
 * input.c, input_defuzz_abs_event): a change under half the fuzz is
 * dropped, one under the fuzz moves a quarter of the way, one under twice
 * the fuzz half of it; C's integer division. */
static int32_t
defuzz(int32_t value, int32_t old, int32_t fuzz)
{
	if (fuzz) {
		if (value > old - fuzz / 2 && value < old + fuzz / 2)
			return old;
		if (value > old - fuzz && value < old + fuzz)
			return (old * 3 + value) / 4;
		if (value > old - fuzz * 2 && value < old + fuzz * 2)
			return (old + value) / 2;
	}
	return value;
}

/* The stationary jitter of the still touch had the kernel filtered its
 * recorded positions with fuzz @fx, @fy. 0 and *@out, or -ENODATA. */
static int
jitter_with(const struct tt_grade_outcome *o, int32_t fx, int32_t fy, double *out)
{
	const struct tt_absinfo *ax = &o->device->abs[ABS_MT_POSITION_X], *ay = &o->device->abs[ABS_MT_POSITION_Y];
	_cleanup_free_ struct tt_grade_point *p = tt_zalloc((o->nstill ? o->nstill : 1) * sizeof(*p));
	int64_t from, to;

	for (size_t i = 0; i < o->nstill; i++) {
		p[i] = o->still[i];
		if (i == 0)
			continue;
		p[i].ux = defuzz(o->still[i].ux, p[i - 1].ux, fx);
		p[i].uy = defuzz(o->still[i].uy, p[i - 1].uy, fy);
		p[i].x = (double)(p[i].ux - ax->minimum) / ax->resolution;
		p[i].y = (double)(p[i].uy - ay->minimum) / ay->resolution;
	}
	return tt_grade_stationary(p, o->nstill, true, out, &from, &to);
}

static bool
is_touchpad(const struct tt_device *dev)
{
	return !bit_is_set(dev->props, INPUT_PROP_DIRECT) && bit_is_set(dev->codes[EV_KEY], BTN_TOOL_FINGER);
}

/* The smallest fuzz (in steps of half the measured jitter, up to four
 * times it) with which the still touch would be within the limit. */
static bool
pick_fuzz(const struct tt_grade_outcome *o, int32_t *fx, int32_t *fy, double *jitter)
{
	const struct tt_grade_result *j = &o->res[TT_GRADE_STATIONARY_JITTER];
	const struct tt_device *dev = o->device;

	for (int half = 2; half <= 8; half++) {
		*fx = (int32_t)ceil(half * 0.5 * j->v.value * dev->abs[ABS_MT_POSITION_X].resolution);
		*fy = (int32_t)ceil(half * 0.5 * j->v.value * dev->abs[ABS_MT_POSITION_Y].resolution);
		if (jitter_with(o, *fx, *fy, jitter) < 0)
			return false;
		if (*jitter <= j->limit.max)
			return true;
	}
	return false;
}

static bool
suggest_fuzz(const struct tt_grade_outcome *o, const char *name, struct tt_grade_suggestion *s)
{
	const struct tt_grade_result *j = &o->res[TT_GRADE_STATIONARY_JITTER];
	int32_t fx, fy;
	double after;
	bool within;

	if (j->verdict != TT_VERDICT_FAIL || !j->limit.has_max || !o->nstill)
		return false;
	within = pick_fuzz(o, &fx, &fy, &after);
	s->kind = "hwdb";
	s->expected = after;
	snprintf(s->why, sizeof(s->why), "stationary jitter %.2f mm; with this fuzz the kernel's filter would make "
		 "it %.2f mm%s", j->v.value, after, within ? "" : ", still over the limit");
	snprintf(s->text, sizeof(s->text), "evdev:name:%s:*\n EVDEV_ABS_35=:::%d\n EVDEV_ABS_36=:::%d\n", name, fx, fy);
	return true;
}

/* D:U, the thresholds of a touch down and up: D is 5% of the axis
 * range below the lowest any touch of the recording peaked at (so each
 * of them is down, with room to spare), U another 5% below. */
static int
range_line(const struct tt_grade_range *g, const struct tt_absinfo *a, const char *attr, char *buf, size_t size)
{
	int32_t step = (a->maximum - a->minimum) / 20, down, up;

	if (!g->touches)
		return 0;
	step = step > 1 ? step : 1;
	down = g->peak_min - step > a->minimum ? g->peak_min - step : a->minimum + 1;
	up = down - step > a->minimum ? down - step : a->minimum;
	return snprintf(buf, size, "%s=%d:%d\n", attr, down, up);
}

static bool
suggest_quirk(const struct tt_grade_outcome *o, const char *name, struct tt_grade_suggestion *s)
{
	const struct tt_grade_range *p = &o->range[TT_GRADE_RANGE_PRESSURE];
	const struct tt_grade_range *t = &o->range[TT_GRADE_RANGE_TOUCH_MAJOR];
	const struct tt_device *dev = o->device;
	size_t len;

	if (!is_touchpad(dev) || (!p->touches && !t->touches))
		return false;
	s->kind = "quirk";
	s->expected = -1;
	snprintf(s->why, sizeof(s->why), "pressure seen %d..%d (each touch's highest %d..%d); touch size %d..%d",
		 p->touches ? p->min : 0, p->touches ? p->max : 0, p->touches ? p->peak_min : 0,
		 p->touches ? p->peak_max : 0, t->touches ? t->min : 0, t->touches ? t->max : 0);
	snprintf(s->text, sizeof(s->text), "[touchtape %s]\nMatchUdevType=touchpad\nMatchName=%s\n", name, name);
	len = strlen(s->text);
	range_line(p, &dev->abs[ABS_MT_PRESSURE], "AttrPressureRange", s->text + len, sizeof(s->text) - len);
	len = strlen(s->text);
	range_line(t, &dev->abs[ABS_MT_TOUCH_MAJOR], "AttrTouchSizeRange", s->text + len, sizeof(s->text) - len);
	return true;
}

size_t
tt_grade_suggest(const struct tt_grade_outcome *o, struct tt_grade_suggestion *out, size_t max)
{
	char name[160];
	size_t n = 0;

	if (!o->graded || max < 2)
		return 0;
	match_name(o->device->name, name, sizeof(name));
	n += suggest_fuzz(o, name, &out[n]);
	n += suggest_quirk(o, name, &out[n]);
	return n;
}
