/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader's evdev "device" record (formats/timeline.md): the
 * codes, axes, properties, multitouch state and surroundings of a kernel
 * device.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "json-get.h"
#include "reader-private.h"
#include "timeline-reader-private.h"
#include "timeline-surroundings.h"
#include "util-mem.h"
#include "util-strings.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_device *, tt_device_free);

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

int
timeline_parse_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
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
