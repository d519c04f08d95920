/* SPDX-License-Identifier: MIT */
/*
 * libinput record's "libinput:" entries into li records (libinput-li.h).
 * The entry keys are those tools/libinput-record.c prints; entries from
 * a libinput older than the scroll events (POINTER_AXIS with a source)
 * become the POINTER_SCROLL_* event of that source.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libinput-li.h"
#include "util-mem.h"
#include "util-strings.h"

static const struct li_entry_value *
find(const struct li_entry_value *v, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].key, key) == 0)
			return &v[i];
	}
	return NULL;
}

/* "1.234567": seconds and microseconds, as libinput record prints them. */
static int
parse_time(const char *s, int64_t *out)
{
	const char *dot = strchr(s, '.');
	char sec[24];
	int64_t whole, frac = 0;
	size_t digits = dot ? strlen(dot + 1) : 0;

	if ((dot ? (size_t)(dot - s) : strlen(s)) >= sizeof(sec) || digits > 6)
		return -EINVAL;
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot ? dot - s : (int)strlen(s)), s);
	if (tt_parse_int64(sec, &whole) < 0 || whole < 0 || whole > TT_MAX_TIME_US / 1000000)
		return -EINVAL;
	if (digits && (tt_parse_int64(dot + 1, &frac) < 0 || frac < 0))
		return -EINVAL;
	for (size_t i = digits; i < 6; i++)
		frac *= 10;
	*out = whole * 1000000 + frac;
	return 0;
}

static double
num(const struct li_entry_value *v, size_t n, const char *key, double def)
{
	const struct li_entry_value *e = find(v, n, key);
	char *end;
	double d;

	if (!e || !e->text[0])
		return def;
	d = strtod(e->text, &end);
	return *end ? def : d;
}

/* A [a, b] list into @a, @b; false when the entry has none. */
static bool
pair(const struct li_entry_value *v, size_t n, const char *key, double *a, double *b)
{
	const struct li_entry_value *e = find(v, n, key);

	if (!e || e->nnum < 2)
		return false;
	*a = e->num[0];
	*b = e->num[1];
	return true;
}

static bool
text_is(const struct li_entry_value *v, size_t n, const char *key, const char *want)
{
	const struct li_entry_value *e = find(v, n, key);

	return e && strcmp(e->text, want) == 0;
}

/* POINTER_AXIS (libinput before 1.19): axes [h, v], discrete [h, v],
 * source: the scroll event of that source. */
static void
legacy_axis(const struct li_entry_value *v, size_t n, struct tt_li_event *ev)
{
	double dh = 0, dv = 0;

	if (text_is(v, n, "source", "wheel") || text_is(v, n, "source", "wheel-tilt"))
		ev->kind = TT_LI_POINTER_SCROLL_WHEEL;
	else if (text_is(v, n, "source", "finger"))
		ev->kind = TT_LI_POINTER_SCROLL_FINGER;
	else if (text_is(v, n, "source", "continuous"))
		ev->kind = TT_LI_POINTER_SCROLL_CONTINUOUS;
	else
		return;
	pair(v, n, "axes", &ev->horiz, &ev->vert);
	if (pair(v, n, "discrete", &dh, &dv)) {
		ev->horiz_v120 = dh * 120;
		ev->vert_v120 = dv * 120;
	}
	/* The file does not say which axes the event had: a zero axis is
	 * taken as absent, unless both are zero (a finger scroll's end). */
	ev->has_vert = ev->vert != 0 || ev->horiz == 0;
	ev->has_horiz = ev->horiz != 0 || ev->vert == 0;
}

static void
scroll_fields(const struct li_entry_value *v, size_t n, struct tt_li_event *ev)
{
	if (pair(v, n, "axes", &ev->horiz, &ev->vert)) {
		ev->has_vert = ev->vert != 0 || ev->horiz == 0;
		ev->has_horiz = ev->horiz != 0 || ev->vert == 0;
	}
	pair(v, n, "v120", &ev->horiz_v120, &ev->vert_v120);
}

static void
tablet_fields(const struct li_entry_value *v, size_t n, struct tt_li_event *ev)
{
	const struct li_entry_value *tool = find(v, n, "tool-type");
	static const struct { const char *key; uint32_t axis; size_t offset; } axes[] = {
		{ "pressure", TT_LI_AXIS_PRESSURE, offsetof(struct tt_li_event, pressure) },
		{ "distance", TT_LI_AXIS_DISTANCE, offsetof(struct tt_li_event, distance) },
		{ "rotation", TT_LI_AXIS_ROTATION, offsetof(struct tt_li_event, rotation) },
		{ "slider", TT_LI_AXIS_SLIDER, offsetof(struct tt_li_event, slider) },
		{ "wheel", TT_LI_AXIS_WHEEL, offsetof(struct tt_li_event, wheel) },
	};

	if (tool)
		ev->tool = tt_li_tool_from_name(tool->text);
	ev->tool_serial = (uint64_t)num(v, n, "serial", 0);
	pair(v, n, "point", &ev->x, &ev->y);
	if (pair(v, n, "tilt", &ev->tilt_x, &ev->tilt_y))
		ev->tablet_axes |= TT_LI_AXIS_TILT;
	for (size_t i = 0; i < ARRAY_LENGTH(axes); i++) {
		if (find(v, n, axes[i].key)) {
			ev->tablet_axes |= axes[i].axis;
			*(double *)((char *)ev + axes[i].offset) = num(v, n, axes[i].key, 0);
		}
	}
	if (ev->kind == TT_LI_TABLET_TOOL_PROXIMITY)
		ev->pressed = text_is(v, n, "proximity", "in");
	else if (ev->kind == TT_LI_TABLET_TOOL_TIP)
		ev->pressed = text_is(v, n, "tip", "down");
}

/* The keys every other kind of entry has, read where present. */
static void
common_fields(const struct li_entry_value *v, size_t n, struct tt_li_event *ev)
{
	ev->slot = (int32_t)num(v, n, "slot", -1);
	ev->seat_slot = (int32_t)num(v, n, "seat_slot", -1);
	if (pair(v, n, "point", &ev->x, &ev->y) && pair(v, n, "transformed", &ev->x_norm, &ev->y_norm)) {
		/* libinput record transforms to a size of 100. */
		ev->x_norm /= 100;
		ev->y_norm /= 100;
	}
	pair(v, n, "delta", &ev->dx, &ev->dy);
	pair(v, n, "unaccel", &ev->dx_unaccel, &ev->dy_unaccel);
	ev->code = (uint32_t)num(v, n, find(v, n, "key") ? "key" : find(v, n, "switch") ? "switch" :
				 find(v, n, "number") ? "number" : "button", 0);
	ev->pressed = text_is(v, n, "state", "pressed") || text_is(v, n, "state", "on");
	ev->seat_count = (uint32_t)num(v, n, "seat_count", 0);
	ev->fingers = (int32_t)num(v, n, "nfingers", 0);
	ev->scale = num(v, n, "scale", 0);
	ev->angle = num(v, n, "angle_delta", 0);
	ev->cancelled = text_is(v, n, "cancelled", "true");
	ev->position = num(v, n, "position", 0);
}

int
li_entry_to_event(const struct li_entry_value *v, size_t n, int64_t default_time,
		  struct tt_li_event *ev, char *error, size_t size)
{
	const struct li_entry_value *type = find(v, n, "type");
	const struct li_entry_value *time = find(v, n, "time");

	tt_li_event_clear(ev);
	if (!type || !type->text[0]) {
		snprintf(error, size, "a libinput: entry without a type");
		return -EINVAL;
	}
	ev->time_us = default_time;
	if (time && parse_time(time->text, &ev->time_us) < 0) {
		snprintf(error, size, "libinput: %s: time '%s' is not seconds.microseconds", type->text,
			 time->text);
		return -EINVAL;
	}
	ev->kind_name = tt_str_sanitize(type->text, strlen(type->text), 64);
	ev->kind = tt_li_event_from_name(type->text);
	common_fields(v, n, ev);
	if (strcmp(type->text, "POINTER_AXIS") == 0)
		legacy_axis(v, n, ev);
	else if (tt_li_event_class(ev->kind) == TT_LI_CLASS_SCROLL)
		scroll_fields(v, n, ev);
	else if (tt_li_event_class(ev->kind) == TT_LI_CLASS_TABLET)
		tablet_fields(v, n, ev);
	return 0;
}
