/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader: one json-c parse per line, then every key checked
 * for presence, type and range and copied into plain structs. Nothing
 * outside formats/ sees json-c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "json-get.h"
#include "reader-private.h"
#include "timeline-fastpath.h"
#include "timeline-hid.h"
#include "timeline-wl.h"
#include "timeline-surroundings.h"
#include "util-mem.h"
#include "util-strings.h"
#include "xi-names.h"

struct timeline_priv {
	struct json_tokener *tok;
	bool header_seen;
	bool fastpath;	/* off with TT_READER_NO_FASTPATH=1, for tests */
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct json_object *, json_object_put);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_device *, tt_device_free);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_xi_device *, tt_xi_device_free);

#define TIME_MIN (-TT_MAX_TIME_US)
#define TIME_MAX TT_MAX_TIME_US

/* ---- header ---- */

/* A header being parsed is cleared on every early return. */
static void
header_clearp(struct tt_header *h)
{
	tt_header_clear(h);
}

/* The optional "x_server": {"vendor", "release"}. */
static int
parse_x_server(struct json_object *o, struct tt_header *h, struct jerr *err)
{
	struct json_object *xs;
	int64_t v;
	int rc;

	rc = jget_object(o, "x_server", false, &xs, err);
	if (rc <= 0)
		return rc;
	if ((rc = jget_string(xs, "vendor", false, &h->x_vendor, err)) < 0 ||
	    (rc = jget_int(xs, "release", false, INT32_MIN, INT32_MAX, &v, err)) < 0)
		return rc;
	if (rc > 0)
		h->x_release = (int32_t)v;
	return 0;
}

static int
parse_header(struct tt_reader *r, struct json_object *o, struct jerr *err)
{
	_cleanup_(header_clearp) struct tt_header h = { 0 };
	struct json_object *start;
	_cleanup_free_ char *format = NULL;
	int64_t v;
	int rc;

	if ((rc = jget_string(o, "format", true, &format, err)) < 0)
		return rc;
	if (strcmp(format, TT_FORMAT_NAME) != 0)
		return jerr_set(err, "\"format\" is \"%.64s\", expected \"%s\"", format, TT_FORMAT_NAME);
	if ((rc = jget_int(o, "version", true, 1, INT32_MAX, &v, err)) < 0)
		return rc;
	if (v > TT_FORMAT_VERSION)
		return jerr_set(err, "version %" PRId64 " is newer than this touchtape reads (%d); upgrade touchtape",
				v, TT_FORMAT_VERSION);
	h.version = (int)v;
	if ((rc = jget_object(o, "start", true, &start, err)) < 0 ||
	    (rc = jget_int(start, "monotonic_us", true, 0, TIME_MAX, &h.start_monotonic_us, err)) < 0 ||
	    (rc = jget_int(start, "realtime_us", true, 0, TIME_MAX, &h.start_realtime_us, err)) < 0 ||
	    (rc = jget_string(o, "tool", false, &h.tool, err)) < 0 ||
	    (rc = jget_string(o, "kernel", false, &h.kernel, err)) < 0 ||
	    (rc = jget_string(o, "source_format", false, &h.source_format, err)) < 0 ||
	    (rc = jget_bool(o, "keycodes_masked", false, &h.keycodes_masked, err)) < 0 ||
	    (rc = parse_x_server(o, &h, err)) < 0 ||
	    (rc = timeline_parse_system(o, &h, err)) < 0)
		return rc;
	tt_header_clear(&r->header);
	r->header = h;
	memset(&h, 0, sizeof(h));	/* r->header owns the strings now */
	r->have_header = true;
	return 0;
}

/* ---- evdev devices ---- */

static int
parse_code_list(struct json_object *arr, unsigned int type, uint8_t *bits,
		unsigned int nbits, const char *what, struct jerr *err)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		unsigned int code;
		int rc = jval_code(json_object_array_get_idx(arr, i), what, type, &code, err);
		if (rc < 0)
			return rc;
		if (code >= nbits)
			return jerr_set(err, "%s: code %u is out of range", what, code);
		set_bit(bits, code);
	}
	return 0;
}

static int
parse_codes(void *device, struct json_object *codes, struct jerr *err)
{
	struct tt_device *dev = device;

	json_object_object_foreach(codes, tkey, list) {
		unsigned int type;
		char what[64];
		int max;

		if (tt_type_from_string(tkey, &type) < 0)
			return jerr_set(err, "\"codes\": unknown event type \"%.64s\"", tkey);
		max = tt_code_max(type);
		if (max < 0)
			return jerr_set(err, "\"codes\": event type %.64s has no codes", tkey);
		if (!json_object_is_type(list, json_type_array))
			return jerr_set(err, "\"codes\".\"%.64s\" must be an array", tkey);
		snprintf(what, sizeof(what), "\"codes\".\"%.40s\"", tkey);
		set_bit(dev->types, type);
		int rc = parse_code_list(list, type, dev->codes[type], (unsigned int)max + 1, what, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
parse_absinfo(void *device, struct json_object *abs, struct jerr *err)
{
	struct tt_device *dev = device;

	json_object_object_foreach(abs, ckey, info) {
		unsigned int code;
		struct tt_absinfo a;
		int64_t v[6];
		static const char *const keys[] = { "value", "min", "max", "fuzz", "flat", "resolution" };
		int rc;

		if ((rc = jkey_code(ckey, EV_ABS, &code, err)) < 0)
			return rc;
		if (!json_object_is_type(info, json_type_object))
			return jerr_set(err, "\"absinfo\".\"%.64s\" must be an object", ckey);
		for (size_t i = 0; i < ARRAY_LENGTH(keys); i++) {
			v[i] = 0;
			rc = jget_int(info, keys[i], i == 1 || i == 2, INT32_MIN, INT32_MAX, &v[i], err);
			if (rc < 0)
				return rc;
		}
		a = (struct tt_absinfo){ (int32_t)v[0], (int32_t)v[1], (int32_t)v[2],
					 (int32_t)v[3], (int32_t)v[4], (int32_t)v[5] };
		if (a.minimum > a.maximum)
			return jerr_set(err, "\"absinfo\".\"%.64s\": min %d is above max %d", ckey, a.minimum, a.maximum);
		dev->abs[code] = a;
		tt_device_enable(dev, EV_ABS, code);
	}
	return 0;
}

static int
parse_slot_state(struct tt_device *dev, struct json_object *state, struct jerr *err)
{
	size_t n = json_object_array_length(state);

	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(state, i);
		int64_t slot;
		int rc;

		if (!json_object_is_type(s, json_type_object))
			return jerr_set(err, "\"mt\".\"state\" entries must be objects");
		if ((rc = jget_int(s, "slot", true, 0, (int64_t)dev->num_slots - 1, &slot, err)) < 0)
			return rc;
		json_object_object_foreach(s, k, val) {
			unsigned int code;
			int64_t v;
			if (strcmp(k, "slot") == 0)
				continue;
			if ((rc = jkey_code(k, EV_ABS, &code, err)) < 0)
				return rc;
			if (code < TT_MT_FIRST || code > TT_MT_LAST)
				return jerr_set(err, "\"mt\".\"state\": %.64s is not a per-slot axis", k);
			if ((rc = jval_int(val, k, INT32_MIN, INT32_MAX, &v, err)) < 0)
				return rc;
			dev->slots[slot].values[code - TT_MT_FIRST] = (int32_t)v;
		}
	}
	return 0;
}

static int
parse_mt(struct tt_device *dev, struct json_object *mt, struct jerr *err)
{
	_cleanup_free_ char *proto = NULL;
	struct json_object *state;
	int64_t v;
	int rc;

	if ((rc = jget_string(mt, "protocol", true, &proto, err)) < 0)
		return rc;
	if (strcmp(proto, "A") == 0) {
		dev->mt_protocol = TT_MT_A;
		return 0;
	}
	if (strcmp(proto, "B") != 0)
		return jerr_set(err, "\"mt\".\"protocol\" must be \"A\" or \"B\"");
	dev->mt_protocol = TT_MT_B;
	if ((rc = jget_int(mt, "slots", true, 1, TT_MAX_SLOTS, &v, err)) < 0)
		return rc;
	tt_device_set_slots(dev, (uint32_t)v);
	if ((rc = jget_int(mt, "current_slot", false, 0, v - 1, &v, err)) < 0)
		return rc;
	if (rc > 0)
		dev->current_slot = (int32_t)v;
	if ((rc = jget_array(mt, "state", false, &state, err)) < 0)
		return rc;
	if (rc > 0)
		return parse_slot_state(dev, state, err);
	return 0;
}

static int
parse_state(void *device, struct json_object *st, struct jerr *err)
{
	struct tt_device *dev = device;
	static const struct {
		const char *key;
		unsigned int type;
		unsigned int nbits;
		size_t offset;
	} lists[] = {
		{ "keys_down", EV_KEY, KEY_CNT, offsetof(struct tt_device, keys_down) },
		{ "leds_on", EV_LED, LED_CNT, offsetof(struct tt_device, leds_on) },
		{ "switches_on", EV_SW, SW_CNT, offsetof(struct tt_device, switches_on) },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(lists); i++) {
		struct json_object *arr;
		char what[48];
		int rc = jget_array(st, lists[i].key, false, &arr, err);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		snprintf(what, sizeof(what), "\"state\".\"%s\"", lists[i].key);
		rc = parse_code_list(arr, lists[i].type, (uint8_t *)dev + lists[i].offset,
				     lists[i].nbits, what, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
parse_input_id(void *device, struct json_object *id, struct jerr *err)
{
	struct tt_device *dev = device;
	int64_t v[4] = { 0 };
	static const char *const keys[] = { "bustype", "vendor", "product", "version" };

	for (size_t i = 0; i < ARRAY_LENGTH(keys); i++) {
		int rc = jget_int(id, keys[i], true, 0, UINT16_MAX, &v[i], err);
		if (rc < 0)
			return rc;
	}
	dev->bustype = (uint16_t)v[0];
	dev->vendor = (uint16_t)v[1];
	dev->product = (uint16_t)v[2];
	dev->version = (uint16_t)v[3];
	return 0;
}

static int
parse_props(void *device, struct json_object *props, struct jerr *err)
{
	struct tt_device *dev = device;
	size_t n = json_object_array_length(props);

	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(props, i);
		unsigned int prop;
		if (json_object_is_type(p, json_type_string)) {
			if (tt_prop_from_string(json_object_get_string(p), &prop) < 0)
				return jerr_set(err, "\"properties\": unknown property \"%.64s\"",
						json_object_get_string(p));
		} else {
			int64_t v;
			int rc = jval_int(p, "\"properties\" item", 0, INPUT_PROP_MAX, &v, err);
			if (rc < 0)
				return rc;
			prop = (unsigned int)v;
		}
		set_bit(dev->props, prop);
	}
	return 0;
}

static int
parse_rep(void *device, struct json_object *rep, struct jerr *err)
{
	static const struct jfield fields[] = {
		{ "delay", JF_INT32, true, 0, INT32_MAX, offsetof(struct tt_device, rep_delay), NULL },
		{ "period", JF_INT32, true, 0, INT32_MAX, offsetof(struct tt_device, rep_period), NULL },
	};

	return jget_fields(rep, fields, ARRAY_LENGTH(fields), device, err);
}

/* "mt", then whether the slot count agrees with the codes read before it. */
static int
parse_device_mt(void *device, struct json_object *mt, struct jerr *err)
{
	struct tt_device *dev = device;
	int rc = parse_mt(dev, mt, err);

	if (rc < 0 || dev->mt_protocol != TT_MT_B)
		return rc;
	if (!tt_device_has(dev, EV_ABS, ABS_MT_SLOT))
		return jerr_set(err, "\"mt\" says protocol B but the device has no ABS_MT_SLOT");
	if (dev->abs[ABS_MT_SLOT].maximum != (int32_t)dev->num_slots - 1)
		return jerr_set(err, "\"mt\".\"slots\" is %u but ABS_MT_SLOT's max is %d",
				dev->num_slots, dev->abs[ABS_MT_SLOT].maximum);
	return 0;
}

#define DEV_FIELD(key, kind, req, min, max, member, parse) \
	{ key, kind, req, min, max, offsetof(struct tt_device, member), parse }
#define DEV_SECTION(key, kind, req, parse) { key, kind, req, 0, 0, 0, parse }

/* A device record's keys after "id", in the order they are checked. */
static const struct jfield device_fields[] = {
	DEV_FIELD("name", JF_STRING, true, 0, 0, name, NULL),
	DEV_FIELD("node", JF_STRING, false, 0, 0, node, NULL),
	DEV_FIELD("phys", JF_STRING, false, 0, 0, phys, NULL),
	DEV_FIELD("uniq", JF_STRING, false, 0, 0, uniq, NULL),
	DEV_SECTION("input_id", JF_OBJECT, true, parse_input_id),
	DEV_FIELD("driver_version", JF_UINT32, false, 0, UINT32_MAX, driver_version, NULL),
	DEV_SECTION("properties", JF_ARRAY, false, parse_props),
	DEV_SECTION("codes", JF_OBJECT, true, parse_codes),
	DEV_SECTION("absinfo", JF_OBJECT, false, parse_absinfo),
	DEV_SECTION("rep", JF_OBJECT, false, parse_rep),
	DEV_SECTION("mt", JF_OBJECT, false, parse_device_mt),
	DEV_SECTION("state", JF_OBJECT, false, parse_state),
	DEV_FIELD("grabbed_by_other", JF_BOOL, false, 0, 0, grabbed_by_other, NULL),
};

static int
parse_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	_cleanup_(tt_device_freep) struct tt_device *dev = NULL;
	int64_t v;
	int rc;

	if ((rc = jget_int(o, "id", true, 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	dev = tt_device_new((uint32_t)v);
	if ((rc = jget_fields(o, device_fields, ARRAY_LENGTH(device_fields), dev, err)) < 0 ||
	    (rc = timeline_parse_surroundings(o, dev, err)) < 0)
		return rc;

	rec->device = dev;
	rc = reader_add_device(r, dev);
	if (rc < 0) {
		rec->device = NULL;
		if (rc == -EEXIST)
			return jerr_set(err, "device %u is declared again, and more than %u device records "
					"were replaced already", dev->id, TT_MAX_DEVICES);
		return jerr_set(err, "more than %u devices in one file", TT_MAX_DEVICES);
	}
	steal(&dev);
	return 0;
}

/* ---- frames ---- */

static int
parse_event(struct json_object *e, uint32_t idx, struct tt_event *out, struct jerr *err)
{
	size_t n;
	unsigned int type, code;
	int64_t value, dt = 0;
	char what[48];
	int rc;

	if (!json_object_is_type(e, json_type_array))
		return jerr_set(err, "event %u must be an array [type, code, value]", idx);
	n = json_object_array_length(e);
	if (n < 3 || n > 4)
		return jerr_set(err, "event %u must have 3 or 4 elements, not %zu", idx, n);
	snprintf(what, sizeof(what), "event %u type", idx);
	if ((rc = jval_type(json_object_array_get_idx(e, 0), what, &type, err)) < 0)
		return rc;
	snprintf(what, sizeof(what), "event %u code", idx);
	if ((rc = jval_code(json_object_array_get_idx(e, 1), what, type, &code, err)) < 0)
		return rc;
	snprintf(what, sizeof(what), "event %u value", idx);
	if ((rc = jval_int(json_object_array_get_idx(e, 2), what, INT32_MIN, INT32_MAX, &value, err)) < 0)
		return rc;
	if (n == 4) {
		snprintf(what, sizeof(what), "event %u time offset", idx);
		if ((rc = jval_int(json_object_array_get_idx(e, 3), what, INT32_MIN, INT32_MAX, &dt, err)) < 0)
			return rc;
	}
	*out = (struct tt_event){ (uint16_t)type, (uint16_t)code, (int32_t)value, (int32_t)dt };
	return 0;
}

static int
parse_frame(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_frame *f = &r->frame;
	struct json_object *ev;
	int64_t dev, t;
	bool flag;
	size_t n;
	int rc;

	if ((rc = jget_int(o, "dev", true, 0, UINT32_MAX, &dev, err)) < 0 ||
	    (rc = jget_int(o, "t", true, TIME_MIN, TIME_MAX, &t, err)) < 0 ||
	    (rc = jget_array(o, "ev", true, &ev, err)) < 0)
		return rc;
	if (!reader_find_device(r, (uint32_t)dev))
		return jerr_set(err, "frame for device %" PRId64 ", which no device record declared", dev);
	n = json_object_array_length(ev);
	if (n > TT_MAX_FRAME_EVENTS)
		return jerr_set(err, "a frame of %zu events is over the limit of %u", n, TT_MAX_FRAME_EVENTS);
	reader_frame_reserve(r, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		rc = parse_event(json_object_array_get_idx(ev, i), (uint32_t)i, &f->events[i], err);
		if (rc < 0)
			return rc;
	}
	f->device = (uint32_t)dev;
	f->time_us = t;
	f->nevents = (uint32_t)n;
	f->flags = 0;
	static const struct { const char *key; uint32_t flag; } flags[] = {
		{ "dropped", TT_FRAME_DROPPED },
		{ "resync", TT_FRAME_RESYNC },
		{ "incomplete", TT_FRAME_INCOMPLETE },
	};
	for (size_t i = 0; i < ARRAY_LENGTH(flags); i++) {
		flag = false;
		if ((rc = jget_bool(o, flags[i].key, false, &flag, err)) < 0)
			return rc;
		if (flag)
			f->flags |= flags[i].flag;
	}
	rec->frame = f;
	return 0;
}

/* ---- XI ---- */

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

static int
parse_xi_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
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

static int
parse_xi_event(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
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

/* ---- markers ---- */

static int
parse_marker(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_marker *m = &r->marker;
	int64_t v;
	int rc;

	tt_marker_clear(m);
	if ((rc = jget_int(o, "t", true, TIME_MIN, TIME_MAX, &m->time_us, err)) < 0 ||
	    (rc = jget_string(o, "kind", true, &m->kind_name, err)) < 0 ||
	    (rc = jget_string(o, "text", false, &m->text, err)) < 0)
		return rc;
	m->kind = tt_marker_kind_from_name(m->kind_name);
	if ((rc = jget_int(o, "dev", false, 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	if (rc > 0)
		m->device = v;
	rec->marker = m;
	return 0;
}

/* ---- the libinput layer ---- */

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

static int
parse_li_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
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

static int
parse_li_event(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
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

/* ---- line dispatch ---- */

static int
parse_record(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct timeline_priv *p = r->priv;
	_cleanup_free_ char *type = NULL;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return jerr_set(err, "a record must be a JSON object");

	if (!p->header_seen) {
		rc = parse_header(r, o, err);
		if (rc < 0)
			return rc;
		p->header_seen = true;
		rec->type = TT_RECORD_HEADER;
		rec->header = &r->header;
		return 0;
	}

	if ((rc = jget_string(o, "type", true, &type, err)) < 0)
		return rc;
	if (strcmp(type, "frame") == 0) {
		rec->type = TT_RECORD_FRAME;
		return parse_frame(r, o, rec, err);
	} else if (strcmp(type, "device") == 0) {
		rec->type = TT_RECORD_DEVICE;
		return parse_device(r, o, rec, err);
	} else if (strcmp(type, "xi") == 0) {
		rec->type = TT_RECORD_XI_EVENT;
		return parse_xi_event(r, o, rec, err);
	} else if (strcmp(type, "xi_device") == 0) {
		rec->type = TT_RECORD_XI_DEVICE;
		return parse_xi_device(r, o, rec, err);
	} else if (strcmp(type, "marker") == 0) {
		rec->type = TT_RECORD_MARKER;
		return parse_marker(r, o, rec, err);
	} else if (strcmp(type, "hid_device") == 0) {
		rec->type = TT_RECORD_HID_DEVICE;
		return timeline_parse_hid_device(r, o, rec, err);
	} else if (strcmp(type, "hid") == 0) {
		rec->type = TT_RECORD_HID_REPORT;
		return timeline_parse_hid_report(r, o, rec, err);
	} else if (strcmp(type, "li") == 0) {
		rec->type = TT_RECORD_LI_EVENT;
		return parse_li_event(r, o, rec, err);
	} else if (strcmp(type, "wl") == 0) {
		rec->type = TT_RECORD_WL_EVENT;
		return timeline_parse_wl_event(r, o, rec, err);
	} else if (strcmp(type, "li_device") == 0) {
		rec->type = TT_RECORD_LI_DEVICE;
		return parse_li_device(r, o, rec, err);
	}
	/* Newer writers may add record types; readers skip them. */
	return 1;
}

/* json-c builds the whole line's tree before anything can be checked,
 * and an empty [] or {} costs it a few hundred bytes: a 4 MiB line of
 * them would take a gigabyte. So count the values first (each '[', '{',
 * ',' and ':' outside strings starts at most one) and refuse a line with
 * more than any record needs. */
static const char *
too_many_values(const char *line, size_t len)
{
	size_t values = 1, objects = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		char c = line[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '[' || c == '{' || c == ',' || c == ':')
			values++;
		if (c == '{')
			objects++;
	}
	if (values > TT_MAX_JSON_VALUES)
		return "values";
	if (objects > TT_MAX_JSON_OBJECTS)
		return "objects";
	return NULL;
}

static const char *
tokener_message(struct json_tokener *tok)
{
	return json_tokener_error_desc(json_tokener_get_error(tok));
}

static bool
is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	}
	return true;
}

/* The next line that is not blank (a person may add blank lines): 1 with
 * the line, 0 at the end of the file, negative when it cannot be read. */
static int
next_line(struct tt_reader *r, char **line, size_t *len, bool *last)
{
	struct timeline_priv *p = r->priv;
	int status;

	do {
		status = linebuf_next(&r->lb, line, len);
		if (status < 0) {
			r->done = true;
			reader_fail(r, r->lb.lineno, "%s", linebuf_error(&r->lb, status));
			return -EIO;
		}
		if (status == LINEBUF_EOF) {
			r->done = true;
			if (!p->header_seen)
				return reader_fail(r, r->lb.lineno, "no header: the file holds no records");
			return 0;
		}
		if (status == LINEBUF_TOO_LONG)
			return reader_fail(r, r->lb.lineno, "line longer than %u bytes", TT_MAX_LINE_BYTES);
	} while (is_blank(*line, *len));
	if (*len > INT32_MAX)
		return reader_fail(r, r->lb.lineno, "line too long");
	*last = status == LINEBUF_LAST;
	return 1;
}

/* json-c stops at the end of the first value; only whitespace may follow it. */
static bool
value_ends_line(struct json_tokener *tok, const char *line, size_t len)
{
	size_t end = json_tokener_get_parse_end(tok);

	return end >= len || is_blank(line + end, len - end);
}

/* The line as one JSON value: 1 with it, 0 when the last line of the file
 * is cut short (ignored), negative when it is not one valid value. */
static int
parse_json_line(struct tt_reader *r, const char *line, size_t len, bool last,
		struct json_object **out)
{
	struct timeline_priv *p = r->priv;
	size_t lineno = r->lb.lineno;
	const char *what = too_many_values(line, len);

	if (what)
		return reader_fail(r, lineno, "more JSON %s on one line than a record can have (at most %u values, %u objects)",
				   what, TT_MAX_JSON_VALUES, TT_MAX_JSON_OBJECTS);
	json_tokener_reset(p->tok);
	_cleanup_(json_object_putp) struct json_object *o = json_tokener_parse_ex(p->tok, line, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(p->tok);
	bool fed_end = jerr == json_tokener_continue;

	if (fed_end) {
		/* A partial object: feed the end so the tokener decides (it
		 * may be a complete bare value). */
		o = json_tokener_parse_ex(p->tok, "", 1);
		jerr = json_tokener_get_error(p->tok);
		if (!o && last) {
			reader_warn(r, lineno, "the last line is cut short (recording interrupted?); ignored");
			r->done = true;
			return 0;
		}
	}
	if (jerr != json_tokener_success)
		return reader_fail(r, lineno, "invalid JSON: %s", tokener_message(p->tok));
	if (!o)
		return reader_fail(r, lineno, "a record must be a JSON object, not null");
	/* After the end was fed, the parse end counts in that buffer; the
	 * line itself was all read. */
	if (!fed_end && !value_ends_line(p->tok, line, len))
		return reader_fail(r, lineno, "invalid JSON: more than one value on the line");
	*out = steal(&o);
	return 1;
}

static int
next_record(struct tt_reader *r, struct tt_record *rec)
{
	struct timeline_priv *p = r->priv;

	for (;;) {
		_cleanup_(json_object_putp) struct json_object *o = NULL;
		struct jerr err = { { 0 } };
		char *line;
		size_t len;
		bool last = false;
		int rc = next_line(r, &line, &len, &last);

		if (rc <= 0)
			return rc;
		memset(rec, 0, sizeof(*rec));
		rec->line = r->lb.lineno;
		if (p->fastpath && p->header_seen &&
		    (timeline_fast_frame(r, line, len, rec) || timeline_fast_hid(r, line, len, rec)))
			return 1;
		rc = parse_json_line(r, line, len, last, &o);
		if (rc <= 0)
			return rc;
		rc = parse_record(r, o, rec, &err);
		if (rc < 0)
			return reader_fail(r, r->lb.lineno, "%s", err.msg);
		if (rc == 0)
			return 1;
		/* An unknown record type, skipped. */
	}
}

static int
timeline_next(struct tt_reader *r, struct tt_record *rec)
{
	struct timeline_priv *p = r->priv;
	int rc = next_record(r, rec);

	/* The header says what the lines after it mean: without one they
	 * cannot be read, and an error on each of them would only bury the
	 * one that matters. */
	if (rc < 0 && !p->header_seen && !r->done) {
		size_t n = strlen(r->error);
		snprintf(r->error + n, sizeof(r->error) - n, " (in the header; the rest of the file is not read)");
		r->done = true;
		return -EIO;
	}
	return rc;
}

static void
timeline_destroy(struct tt_reader *r)
{
	struct timeline_priv *p = r->priv;

	if (!p)
		return;
	json_tokener_free(p->tok);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops timeline_ops = {
	.next = timeline_next,
	.destroy = timeline_destroy,
};

int
timeline_reader_init(struct tt_reader *r)
{
	struct timeline_priv *p = tt_zalloc(sizeof(*p));

	p->tok = json_tokener_new_ex(TT_JSON_MAX_DEPTH);
	if (!p->tok) {
		free(p);
		return -ENOMEM;
	}
	/* Strict JSON and valid UTF-8 only: what the writer produces. */
	json_tokener_set_flags(p->tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	const char *nofast = getenv("TT_READER_NO_FASTPATH");
	p->fastpath = !(nofast && strcmp(nofast, "1") == 0);
	r->priv = p;
	r->ops = &timeline_ops;
	return 0;
}
