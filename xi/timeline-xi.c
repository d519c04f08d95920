/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader's XI records, "xi_device" and "xi"
 * (formats/timeline.md): the X devices and their events as the server
 * sent them, flags and modifiers by name or number.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "json-get.h"
#include "reader-private.h"
#include "timeline-reader-private.h"
#include "util-mem.h"
#include "util-strings.h"
#include "xi-names.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_xi_device *, tt_xi_device_free);

static int
parse_xi_flags(struct json_object *o, const char *k, int32_t evtype, uint32_t *out, struct jerr *err)
{
	struct json_object *arr;
	uint32_t flags = 0;
	int rc = jget_array(o, k, false, &arr, err);

	if (rc <= 0)
		return rc;
	for (size_t i = 0, n = json_object_array_length(arr); i < n; i++) {
		struct json_object *f = json_object_array_get_idx(arr, i);
		uint32_t mask;
		if (json_object_is_type(f, json_type_string)) {
			if (tt_xi_flag_from_name(evtype, json_object_get_string(f), &mask) < 0)
				return jerr_set(err, "\"%s\": unknown flag \"%.64s\"", k, json_object_get_string(f));
		} else {
			int64_t v;
			if ((rc = jval_int(f, "flag", 1, UINT32_MAX, &v, err)) < 0)
				return rc;
			mask = (uint32_t)v;
		}
		flags |= mask;
	}
	*out = flags;
	return 1;
}

static int
parse_use(void *use, struct json_object *o, struct jerr *err)
{
	_cleanup_free_ char *s = NULL;
	int rc = jget_string(o, "use", false, &s, err);

	if (rc <= 0)
		return rc;
	if (tt_xi_use_from_name(s, use) < 0)
		return jerr_set(err, "\"use\": unknown device use \"%.64s\"", s);
	return 1;
}

static int
parse_xi_touch(void *xi_device, struct json_object *touch, struct jerr *err)
{
	struct tt_xi_device *d = xi_device;
	_cleanup_free_ char *mode = NULL;
	int64_t v;
	int rc;

	if ((rc = jget_string(touch, "mode", true, &mode, err)) < 0)
		return rc;
	if (strcmp(mode, "direct") == 0)
		d->touch_mode = TT_XI_TOUCH_DIRECT;
	else if (strcmp(mode, "dependent") == 0)
		d->touch_mode = TT_XI_TOUCH_DEPENDENT;
	else
		return jerr_set(err, "\"touch\".\"mode\" must be \"direct\" or \"dependent\"");
	if ((rc = jget_int(touch, "num_touches", true, 0, UINT16_MAX, &v, err)) < 0)
		return rc;
	d->num_touches = (int32_t)v;
	return 0;
}

#define VAL_FIELD(key, kind, req, min, max, member, parse) \
	{ key, kind, req, min, max, offsetof(struct tt_xi_valuator, member), parse }

/* Absolute unless it says "relative", as XI's own default. */
static int
parse_valuator_mode(void *mode, struct json_object *o, struct jerr *err)
{
	_cleanup_free_ char *s = NULL;
	int rc = jget_string(o, "mode", false, &s, err);

	if (rc < 0)
		return rc;
	*(int32_t *)mode = (s && strcmp(s, "relative") == 0) ? XIModeRelative : XIModeAbsolute;
	return 1;
}

static const struct jfield valuator_fields[] = {
	VAL_FIELD("number", JF_INT32, true, 0, UINT16_MAX, number, NULL),
	VAL_FIELD("label", JF_STRING, false, 0, 0, label, NULL),
	VAL_FIELD("min", JF_DOUBLE, false, 0, 0, min, NULL),
	VAL_FIELD("max", JF_DOUBLE, false, 0, 0, max, NULL),
	VAL_FIELD("value", JF_DOUBLE, false, 0, 0, value, NULL),
	VAL_FIELD("mode", JF_CUSTOM, false, 0, 0, mode, parse_valuator_mode),
	VAL_FIELD("resolution", JF_INT32, false, INT32_MIN, INT32_MAX, resolution, NULL),
};

static int
parse_xi_valuators(void *xi_device, struct json_object *arr, struct jerr *err)
{
	struct tt_xi_device *d = xi_device;
	size_t n = json_object_array_length(arr);

	if (n > TT_MAX_XI_VALUATORS)
		return jerr_set(err, "more than %u valuators", TT_MAX_XI_VALUATORS);
	/* Owned by the device from here, so a bad entry frees what came before. */
	d->valuators = tt_zalloc((n ? n : 1) * sizeof(*d->valuators));
	d->nvaluators = (uint32_t)n;
	return jval_objects(arr, "\"valuators\"", valuator_fields, ARRAY_LENGTH(valuator_fields),
			    d->valuators, sizeof(*d->valuators), err);
}

#define XID_FIELD(key, kind, min, max, member, parse) \
	{ key, kind, false, min, max, offsetof(struct tt_xi_device, member), parse }

/* An xi_device record's keys after "deviceid", in the order they are checked. */
static const struct jfield xi_device_fields[] = {
	{ "name", JF_STRING, true, 0, 0, offsetof(struct tt_xi_device, name), NULL },
	XID_FIELD("use", JF_CUSTOM, 0, 0, use, parse_use),
	XID_FIELD("enabled", JF_BOOL, 0, 0, enabled, NULL),
	XID_FIELD("device_node", JF_STRING, 0, 0, device_node, NULL),
	XID_FIELD("attachment", JF_INT32, 0, UINT16_MAX, attachment, NULL),
	XID_FIELD("buttons", JF_INT32, 0, TT_MAX_XI_BUTTONS, num_buttons, NULL),
	XID_FIELD("evdev", JF_INT64, 0, UINT32_MAX, evdev_device, NULL),
	{ "touch", JF_OBJECT, false, 0, 0, 0, parse_xi_touch },
	{ "valuators", JF_ARRAY, false, 0, 0, 0, parse_xi_valuators },
};

int
timeline_parse_xi_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	_cleanup_(tt_xi_device_freep) struct tt_xi_device *d = tt_zalloc(sizeof(*d));
	int64_t v;
	int rc;

	d->evdev_device = -1;
	if ((rc = jget_int(o, "deviceid", true, 0, UINT16_MAX, &v, err)) < 0)
		return rc;
	d->id = (uint32_t)v;
	d->deviceid = (int32_t)v;
	if ((rc = jget_fields(o, xi_device_fields, ARRAY_LENGTH(xi_device_fields), d, err)) < 0)
		return rc;
	rec->xi_device = d;
	if (reader_add_xi_device(r, d) < 0) {
		rec->xi_device = NULL;
		return jerr_set(err, "more than %u X devices in one file", TT_MAX_DEVICES);
	}
	steal(&d);
	return 0;
}

static int
parse_pair_int(struct json_object *o, const char *k, int32_t *a, int32_t *b, int32_t *c, int32_t *d,
	       struct jerr *err)
{
	struct json_object *arr;
	int32_t *outs[4] = { a, b, c, d };
	int rc = jget_array(o, k, false, &arr, err);

	if (rc <= 0)
		return rc;
	if (json_object_array_length(arr) != 4)
		return jerr_set(err, "\"%s\" must be [base, latched, locked, effective]", k);
	for (size_t i = 0; i < 4; i++) {
		int64_t v;
		if ((rc = jval_int(json_object_array_get_idx(arr, i), k, INT32_MIN, INT32_MAX, &v, err)) < 0)
			return rc;
		*outs[i] = (int32_t)v;
	}
	return 1;
}

static int
parse_valuator_map(struct json_object *o, const char *k, struct tt_xi_event *ev,
		   double **values, struct jerr *err)
{
	struct json_object *map;
	size_t n, i = 0;
	int rc = jget_object(o, k, false, &map, err);

	if (rc <= 0)
		return rc;
	n = (size_t)json_object_object_length(map);
	if (n > TT_MAX_XI_VALUATORS)
		return jerr_set(err, "\"%s\": more than %u valuators", k, TT_MAX_XI_VALUATORS);
	/* "raw" must list the same valuators as "valuators". */
	bool is_raw = ev->valuator_numbers != NULL;
	if (is_raw && n != ev->nvaluators)
		return jerr_set(err, "\"%s\" must list the same valuators as \"valuators\"", k);
	*values = tt_reallocarray(NULL, n ? n : 1, sizeof(double));
	if (!is_raw)
		ev->valuator_numbers = tt_reallocarray(NULL, n ? n : 1, sizeof(int32_t));
	json_object_object_foreach(map, num, val) {
		int64_t number;
		char what[64];
		if (tt_parse_int64(num, &number) < 0 || number < 0 || number >= TT_MAX_XI_VALUATORS * 4)
			return jerr_set(err, "\"%s\": \"%.32s\" is not a valuator number", k, num);
		if (is_raw && ev->valuator_numbers[i] != number)
			return jerr_set(err, "\"%s\" must list the same valuators as \"valuators\"", k);
		ev->valuator_numbers[i] = (int32_t)number;
		snprintf(what, sizeof(what), "\"%s\".\"%.32s\"", k, num);
		if ((rc = jval_double(val, what, &(*values)[i], err)) < 0)
			return rc;
		i++;
	}
	if (!is_raw)
		ev->nvaluators = (uint32_t)n;
	return 1;
}

static int
parse_change_flags(void *flags, struct json_object *o, struct jerr *err)
{
	return parse_xi_flags(o, "flags", XI_HierarchyChanged, flags, err);
}

#define CHANGE_FIELD(key, kind, req, max, member, parse) \
	{ key, kind, req, 0, max, offsetof(struct tt_xi_change, member), parse }

static const struct jfield change_fields[] = {
	CHANGE_FIELD("deviceid", JF_INT32, true, UINT16_MAX, deviceid, NULL),
	CHANGE_FIELD("attachment", JF_INT32, false, UINT16_MAX, attachment, NULL),
	CHANGE_FIELD("use", JF_CUSTOM, false, 0, use, parse_use),
	CHANGE_FIELD("enabled", JF_BOOL, false, 0, enabled, NULL),
	CHANGE_FIELD("flags", JF_CUSTOM, false, 0, flags, parse_change_flags),
};

static int
parse_xi_changes(void *xi_event, struct json_object *arr, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;
	size_t n = json_object_array_length(arr);

	if (n > TT_MAX_XI_CHANGES)
		return jerr_set(err, "more than %u hierarchy changes", TT_MAX_XI_CHANGES);
	ev->changes = tt_zalloc((n ? n : 1) * sizeof(*ev->changes));
	ev->nchanges = (uint32_t)n;
	return jval_objects(arr, "\"changes\"", change_fields, ARRAY_LENGTH(change_fields),
			    ev->changes, sizeof(*ev->changes), err);
}

static int
parse_xi_buttons(void *xi_event, struct json_object *arr, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;
	size_t n = json_object_array_length(arr);

	if (n > TT_MAX_XI_BUTTONS)
		return jerr_set(err, "more than %u buttons", TT_MAX_XI_BUTTONS);
	ev->buttons = tt_reallocarray(NULL, n ? n : 1, sizeof(int32_t));
	ev->nbuttons = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		int64_t v;
		int rc = jval_int(json_object_array_get_idx(arr, i), "button", 0, UINT16_MAX, &v, err);
		if (rc < 0)
			return rc;
		ev->buttons[i] = (int32_t)v;
	}
	return 1;
}

static int
parse_event_flags(void *xi_event, struct json_object *o, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;

	return parse_xi_flags(o, "flags", ev->evtype, &ev->flags, err);
}

static int
parse_valuators(void *xi_event, struct json_object *o, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;

	return parse_valuator_map(o, "valuators", ev, &ev->valuator_values, err);
}

static int
parse_raw(void *xi_event, struct json_object *o, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;

	/* "raw" must list the same valuators as "valuators". */
	if (ev->valuator_numbers == NULL && json_object_object_get_ex(o, "raw", NULL))
		return jerr_set(err, "\"raw\" given without \"valuators\"");
	return parse_valuator_map(o, "raw", ev, &ev->raw_values, err);
}

static int
parse_mods(void *xi_event, struct json_object *o, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;

	return parse_pair_int(o, "mods", &ev->mods_base, &ev->mods_latched, &ev->mods_locked,
			      &ev->mods_effective, err);
}

static int
parse_group(void *xi_event, struct json_object *o, struct jerr *err)
{
	struct tt_xi_event *ev = xi_event;

	return parse_pair_int(o, "group", &ev->group_base, &ev->group_latched, &ev->group_locked,
			      &ev->group_effective, err);
}

#define XIE_FIELD(key, kind, min, max, member) \
	{ key, kind, false, min, max, offsetof(struct tt_xi_event, member), NULL }
#define XIE_PART(key, kind, parse) { key, kind, false, 0, 0, 0, parse }

/* An xi record's keys after "xi", in the order they are checked. */
static const struct jfield xi_event_fields[] = {
	{ "t", JF_INT64, true, TIME_MIN, TIME_MAX, offsetof(struct tt_xi_event, time_us), NULL },
	XIE_FIELD("server_time", JF_UINT32, 0, UINT32_MAX, server_time),
	XIE_FIELD("client", JF_STRING, 0, 0, client),
	XIE_FIELD("deviceid", JF_INT32, 0, UINT16_MAX, deviceid),
	XIE_FIELD("sourceid", JF_INT32, 0, UINT16_MAX, sourceid),
	XIE_FIELD("detail", JF_UINT32, 0, UINT32_MAX, detail),
	XIE_FIELD("touchid", JF_UINT32, 0, UINT32_MAX, touchid),
	XIE_FIELD("root_win", JF_UINT32, 0, UINT32_MAX, root),
	XIE_FIELD("event_win", JF_UINT32, 0, UINT32_MAX, event),
	XIE_FIELD("child_win", JF_UINT32, 0, UINT32_MAX, child),
	XIE_FIELD("reason", JF_INT32, 0, INT32_MAX, reason),
	XIE_FIELD("root_x", JF_DOUBLE, 0, 0, root_x),
	XIE_FIELD("root_y", JF_DOUBLE, 0, 0, root_y),
	XIE_FIELD("event_x", JF_DOUBLE, 0, 0, event_x),
	XIE_FIELD("event_y", JF_DOUBLE, 0, 0, event_y),
	XIE_PART("flags", JF_CUSTOM, parse_event_flags),
	XIE_PART("valuators", JF_CUSTOM, parse_valuators),
	XIE_PART("raw", JF_CUSTOM, parse_raw),
	XIE_PART("mods", JF_CUSTOM, parse_mods),
	XIE_PART("group", JF_CUSTOM, parse_group),
	XIE_PART("changes", JF_ARRAY, parse_xi_changes),
	XIE_PART("buttons", JF_ARRAY, parse_xi_buttons),
};

int
timeline_parse_xi_event(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_xi_event *ev = &r->xi;
	_cleanup_free_ char *name = NULL;
	int rc;

	tt_xi_event_clear(ev);
	if ((rc = jget_string(o, "xi", true, &name, err)) < 0)
		return rc;
	if (tt_xi_event_from_name(name, &ev->evtype) < 0)
		return jerr_set(err, "\"xi\": unknown XI event \"%.64s\"", name);
	if ((rc = jget_fields(o, xi_event_fields, ARRAY_LENGTH(xi_event_fields), ev, err)) < 0)
		return rc;
	rec->xi_event = ev;
	return 0;
}
