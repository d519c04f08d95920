/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader's libinput records, "li_device" and "li"
 * (formats/timeline.md): libinput's view of a device and its events.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json-get.h"
#include "reader-private.h"
#include "timeline-reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* "KEY": [a, b], two numbers. */
static int
parse_pair(struct json_object *o, const char *k, double *a, double *b, struct jerr *err)
{
	struct json_object *arr;
	double v[2];
	int rc = jget_array(o, k, false, &arr, err);

	if (rc <= 0)
		return rc;
	if (json_object_array_length(arr) != 2)
		return jerr_set(err, "\"%s\" must be a pair of numbers", k);
	for (size_t i = 0; i < 2; i++) {
		if ((rc = jval_double(json_object_array_get_idx(arr, i), k, &v[i], err)) < 0)
			return rc;
	}
	*a = v[0];
	*b = v[1];
	return 1;
}

#define LI_PAIR(fn, k, type, a, b) \
	static int fn(void *rec, struct json_object *o, struct jerr *err) \
	{ type *x = rec; return parse_pair(o, k, &x->a, &x->b, err); }

LI_PAIR(parse_li_size, "size_mm", struct tt_li_device, width_mm, height_mm)
LI_PAIR(parse_li_mm, "mm", struct tt_li_event, x, y)
LI_PAIR(parse_li_norm, "norm", struct tt_li_event, x_norm, y_norm)
LI_PAIR(parse_li_delta, "delta", struct tt_li_event, dx, dy)
LI_PAIR(parse_li_unaccel, "unaccel", struct tt_li_event, dx_unaccel, dy_unaccel)
LI_PAIR(parse_li_tilt, "tilt", struct tt_li_event, tilt_x, tilt_y)

static int
parse_li_capabilities(void *li_device, struct json_object *arr, struct jerr *err)
{
	struct tt_li_device *d = li_device;

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		const char *name = json_object_get_string(v);
		if (!json_object_is_type(v, json_type_string))
			return jerr_set(err, "\"capabilities\" must be a list of names");
		/* A capability a newer libinput has is skipped, not an error. */
		for (unsigned int bit = 0; bit < 32; bit++) {
			const char *n = tt_li_capability_name(1u << bit);
			if (n && strcmp(n, name) == 0)
				d->capabilities |= 1u << bit;
		}
	}
	return 1;
}

/* A setting name is written as a JSON key: only what --libinput-config
 * can spell is kept. */
static bool
is_setting_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-_") == strlen(s);
}

static int
parse_li_config(void *li_device, struct json_object *map, struct jerr *err)
{
	struct tt_li_device *d = li_device;
	size_t n = (size_t)json_object_object_length(map);

	if (n > TT_MAX_LI_SETTINGS)
		return jerr_set(err, "\"config\": more than %u settings", TT_MAX_LI_SETTINGS);
	d->settings = tt_zalloc((n ? n : 1) * sizeof(*d->settings));
	json_object_object_foreach(map, name, val) {
		struct tt_li_setting *st = &d->settings[d->nsettings];
		if (!is_setting_name(name))
			return jerr_set(err, "\"config\": \"%.32s\" is not a setting name", name);
		if (!json_object_is_type(val, json_type_string))
			return jerr_set(err, "\"config\".\"%.32s\" must be a string", name);
		st->name = tt_strdup(name);
		st->value = tt_str_sanitize(json_object_get_string(val),
					    (size_t)json_object_get_string_len(val), TT_MAX_STRING_BYTES);
		d->nsettings++;
	}
	return 1;
}

#define LID_FIELD(key, kind, member) \
	{ key, kind, false, 0, 0, offsetof(struct tt_li_device, member), NULL }

static const struct jfield li_device_fields[] = {
	{ "dev", JF_UINT32, true, 0, UINT32_MAX, offsetof(struct tt_li_device, device), NULL },
	LID_FIELD("sysname", JF_STRING, sysname),
	LID_FIELD("name", JF_STRING, name),
	{ "tap_fingers", JF_INT32, false, 0, 64, offsetof(struct tt_li_device, tap_fingers), NULL },
	{ "capabilities", JF_ARRAY, false, 0, 0, 0, parse_li_capabilities },
	{ "size_mm", JF_CUSTOM, false, 0, 0, 0, parse_li_size },
	{ "config", JF_OBJECT, false, 0, 0, 0, parse_li_config },
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_li_device *, tt_li_device_free);

int
timeline_parse_li_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	_cleanup_(tt_li_device_freep) struct tt_li_device *d = tt_zalloc(sizeof(*d));
	int rc;

	if ((rc = jget_fields(o, li_device_fields, ARRAY_LENGTH(li_device_fields), d, err)) < 0)
		return rc;
	d->has_size = json_object_object_get_ex(o, "size_mm", NULL);
	rec->li_device = d;
	if (reader_add_li_device(r, d) < 0) {
		rec->li_device = NULL;
		return jerr_set(err, "more than %u libinput devices in one file", TT_MAX_DEVICES);
	}
	steal(&d);
	return 0;
}

/* "state", "proximity" or "tip": whichever the event's type has. */
static int
parse_li_state(void *li_event, struct json_object *o, struct jerr *err)
{
	static const struct { const char *key, *yes, *no; } states[] = {
		{ "state", "pressed", "released" },
		{ "state", "on", "off" },
		{ "proximity", "in", "out" },
		{ "tip", "down", "up" },
	};
	struct tt_li_event *ev = li_event;

	for (size_t i = 0; i < ARRAY_LENGTH(states); i++) {
		struct json_object *v;
		const char *s;
		if (!json_object_object_get_ex(o, states[i].key, &v))
			continue;
		s = json_object_get_string(v);
		if (json_object_is_type(v, json_type_string) && strcmp(s, states[i].yes) == 0) {
			ev->pressed = true;
			return 1;
		}
		if (json_object_is_type(v, json_type_string) && strcmp(s, states[i].no) == 0)
			return 1;
	}
	for (size_t i = 0; i < ARRAY_LENGTH(states); i++) {
		if (json_object_object_get_ex(o, states[i].key, NULL))
			return jerr_set(err, "\"%s\" is not one of its names", states[i].key);
	}
	return 0;
}

static int
parse_li_tool(void *tool, struct json_object *o, struct jerr *err)
{
	_cleanup_free_ char *name = NULL;
	int rc = jget_string(o, "tool", false, &name, err);

	if (rc > 0)
		*(enum tt_li_tool_type *)tool = tt_li_tool_from_name(name);
	return rc;
}

#define LIE_FIELD(key, kind, min, max, member) \
	{ key, kind, false, min, max, offsetof(struct tt_li_event, member), NULL }
#define LIE_PART(key, parse) { key, JF_CUSTOM, false, 0, 0, 0, parse }

/* An li record's keys after "li", in the order they are checked. */
static const struct jfield li_event_fields[] = {
	{ "t", JF_INT64, true, TIME_MIN, TIME_MAX, offsetof(struct tt_li_event, time_us), NULL },
	{ "dev", JF_UINT32, true, 0, UINT32_MAX, offsetof(struct tt_li_event, device), NULL },
	LIE_FIELD("slot", JF_INT32, -1, INT32_MAX, slot),
	LIE_FIELD("seat_slot", JF_INT32, -1, INT32_MAX, seat_slot),
	LIE_FIELD("key", JF_UINT32, 0, UINT32_MAX, code),
	LIE_FIELD("button", JF_UINT32, 0, UINT32_MAX, code),
	LIE_FIELD("number", JF_UINT32, 0, UINT32_MAX, code),
	LIE_FIELD("switch", JF_UINT32, 0, UINT32_MAX, code),
	LIE_FIELD("seat_count", JF_UINT32, 0, UINT32_MAX, seat_count),
	LIE_FIELD("fingers", JF_INT32, 0, 64, fingers),
	LIE_FIELD("scale", JF_DOUBLE, 0, 0, scale),
	LIE_FIELD("angle", JF_DOUBLE, 0, 0, angle),
	LIE_FIELD("cancelled", JF_BOOL, 0, 0, cancelled),
	LIE_FIELD("position", JF_DOUBLE, 0, 0, position),
	LIE_FIELD("serial", JF_INT64, 0, INT64_MAX, tool_serial),
	{ "tool", JF_CUSTOM, false, 0, 0, offsetof(struct tt_li_event, tool), parse_li_tool },
	LIE_PART("state", parse_li_state),
	LIE_PART("mm", parse_li_mm),
	LIE_PART("norm", parse_li_norm),
	LIE_PART("delta", parse_li_delta),
	LIE_PART("unaccel", parse_li_unaccel),
	LIE_PART("tilt", parse_li_tilt),
};

/* Optional numbers whose presence the event records: scroll axes and
 * the tablet axes a tool has. */
static int
parse_li_present(struct json_object *o, struct tt_li_event *ev, struct jerr *err)
{
	static const struct { const char *key; size_t offset; uint32_t axis; } nums[] = {
		{ "vert", offsetof(struct tt_li_event, vert), 0 },
		{ "horiz", offsetof(struct tt_li_event, horiz), 0 },
		{ "vert_v120", offsetof(struct tt_li_event, vert_v120), 0 },
		{ "horiz_v120", offsetof(struct tt_li_event, horiz_v120), 0 },
		{ "pressure", offsetof(struct tt_li_event, pressure), TT_LI_AXIS_PRESSURE },
		{ "distance", offsetof(struct tt_li_event, distance), TT_LI_AXIS_DISTANCE },
		{ "rotation", offsetof(struct tt_li_event, rotation), TT_LI_AXIS_ROTATION },
		{ "slider", offsetof(struct tt_li_event, slider), TT_LI_AXIS_SLIDER },
		{ "wheel", offsetof(struct tt_li_event, wheel), TT_LI_AXIS_WHEEL },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(nums); i++) {
		int rc = jget_double(o, nums[i].key, false, (double *)((char *)ev + nums[i].offset), err);
		if (rc < 0)
			return rc;
		if (rc > 0)
			ev->tablet_axes |= nums[i].axis;
	}
	ev->has_vert = json_object_object_get_ex(o, "vert", NULL);
	ev->has_horiz = json_object_object_get_ex(o, "horiz", NULL);
	if (json_object_object_get_ex(o, "tilt", NULL))
		ev->tablet_axes |= TT_LI_AXIS_TILT;
	return 0;
}

int
timeline_parse_li_event(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_li_event *ev = &r->li;
	int rc;

	tt_li_event_clear(ev);
	if ((rc = jget_string(o, "li", true, &ev->kind_name, err)) < 0)
		return rc;
	/* A type a newer libinput has is kept by name (TT_LI_OTHER). */
	ev->kind = tt_li_event_from_name(ev->kind_name);
	if ((rc = jget_fields(o, li_event_fields, ARRAY_LENGTH(li_event_fields), ev, err)) < 0 ||
	    (rc = parse_li_present(o, ev, err)) < 0)
		return rc;
	rec->li_event = ev;
	return 0;
}
