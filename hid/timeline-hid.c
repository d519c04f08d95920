/* SPDX-License-Identifier: MIT */
/*
 * "hid_device" and "hid" records. Descriptors and reports are bytes from
 * a device, written as hex: every string is checked for its length, its
 * digits and the kernel's size limits before anything is decoded.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "json-get.h"
#include "reader-private.h"
#include "timeline-hid.h"
#include "util-mem.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_hid_device *, tt_hid_device_free);

/* A hex string of 1 to @max bytes under @key: 1 with it, 0 when an
 * optional key is absent, -EINVAL with the reason. */
static int
jget_hex(struct json_object *o, const char *key, bool required, size_t max,
	 uint8_t **data, uint32_t *len, struct jerr *err)
{
	struct json_object *v;
	size_t bad = 0;
	const char *s;
	size_t n;
	int rc;

	if (!json_object_object_get_ex(o, key, &v))
		return required ? jerr_set(err, "missing key \"%s\"", key) : 0;
	if (!json_object_is_type(v, json_type_string))
		return jerr_set(err, "\"%s\" must be a string of hex digits", key);
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	rc = tt_hex_decode(s, n, max, data, len, &bad);
	switch (rc) {
	case 0:
		return 1;
	case -EINVAL:
		return jerr_set(err, "\"%s\": character %zu is not a hex digit", key, bad + 1);
	case -EMSGSIZE:
		return jerr_set(err, "\"%s\": an odd number of hex digits (%zu); each byte takes two", key, n);
	case -ENODATA:
		return jerr_set(err, "\"%s\" is empty; it must hold at least one byte", key);
	default:
		return jerr_set(err, "\"%s\" holds %zu bytes, over the limit of %zu", key, n / 2, max);
	}
}

int
timeline_errno_from_name(const char *name)
{
	/* Linux errno values stay below 256; the names are glibc's. */
	for (int e = 1; e < 256; e++) {
		const char *n = strerrorname_np(e);
		if (n && strcmp(n, name) == 0)
			return e;
	}
	return 0;
}

/* ---- hid_device ---- */

static int
parse_hid_feature(struct json_object *o, struct tt_hid_feature *f, struct jerr *err)
{
	_cleanup_free_ char *error = NULL;
	int64_t id;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return jerr_set(err, "\"features\" entries must be objects");
	if ((rc = jget_int(o, "report_id", true, 0, UINT8_MAX, &id, err)) < 0 ||
	    (rc = jget_string(o, "error", false, &error, err)) < 0)
		return rc;
	f->report_id = (uint8_t)id;
	rc = jget_hex(o, "data", false, TT_MAX_HID_REPORT, &f->data, &f->len, err);
	if (rc < 0)
		return rc;
	if ((rc > 0) == (error != NULL))
		return jerr_set(err, "feature report %u must have either \"data\" or \"error\"", f->report_id);
	if (error) {
		int e = timeline_errno_from_name(error);
		if (e == 0)
			return jerr_set(err, "feature report %u: \"error\": \"%.64s\" is not an errno name",
					f->report_id, error);
		f->error = -e;
	}
	return 0;
}

static int
parse_hid_features(void *device, struct json_object *arr, struct jerr *err)
{
	struct tt_hid_device *d = device;
	size_t n = json_object_array_length(arr);

	if (n > TT_MAX_HID_FEATURES)
		return jerr_set(err, "more than %u feature reports", TT_MAX_HID_FEATURES);
	/* Owned by the device from here, so a bad entry frees what came before. */
	d->features = tt_zalloc((n ? n : 1) * sizeof(*d->features));
	for (size_t i = 0; i < n; i++) {
		d->nfeatures = (uint32_t)i + 1;
		int rc = parse_hid_feature(json_object_array_get_idx(arr, i), &d->features[i], err);
		if (rc < 0)
			return rc;
	}
	return 1;
}

static int
parse_hid_evdev(void *device, struct json_object *arr, struct jerr *err)
{
	struct tt_hid_device *d = device;
	size_t n = json_object_array_length(arr);

	if (n > TT_MAX_DEVICES)
		return jerr_set(err, "\"evdev\": more than %u devices", TT_MAX_DEVICES);
	d->evdev_devices = tt_reallocarray(NULL, n ? n : 1, sizeof(uint32_t));
	d->nevdev = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		int64_t v;
		int rc = jval_int(json_object_array_get_idx(arr, i), "\"evdev\" item", 0, UINT32_MAX, &v, err);
		if (rc < 0)
			return rc;
		d->evdev_devices[i] = (uint32_t)v;
	}
	return 1;
}

static int
parse_hid_descriptor(void *device, struct json_object *o, struct jerr *err)
{
	struct tt_hid_device *d = device;

	return jget_hex(o, "descriptor", true, TT_MAX_HID_DESCRIPTOR, &d->descriptor,
			&d->descriptor_len, err);
}

static int
parse_hid_bus(void *device, struct json_object *o, struct jerr *err)
{
	struct tt_hid_device *d = device;
	int64_t v;
	int rc = jget_int(o, "bus", true, 0, UINT16_MAX, &v, err);

	if (rc > 0)
		d->bus = (uint16_t)v;
	return rc;
}

#define HID_FIELD(key, kind, req, max, member) \
	{ key, kind, req, 0, max, offsetof(struct tt_hid_device, member), NULL }
#define HID_PART(key, kind, parse) { key, kind, false, 0, 0, 0, parse }

/* A hid_device record's keys after "id", in the order they are checked. */
static const struct jfield hid_device_fields[] = {
	HID_FIELD("name", JF_STRING, true, 0, name),
	HID_FIELD("phys", JF_STRING, false, 0, phys),
	HID_FIELD("uniq", JF_STRING, false, 0, uniq),
	HID_FIELD("node", JF_STRING, false, 0, node),
	HID_PART("bus", JF_CUSTOM, parse_hid_bus),
	HID_FIELD("vendor", JF_UINT32, true, UINT32_MAX, vendor),
	HID_FIELD("product", JF_UINT32, true, UINT32_MAX, product),
	HID_FIELD("version", JF_UINT32, true, UINT32_MAX, version),
	HID_FIELD("country", JF_UINT32, false, UINT32_MAX, country),
	HID_PART("descriptor", JF_CUSTOM, parse_hid_descriptor),
	HID_PART("evdev", JF_ARRAY, parse_hid_evdev),
	HID_PART("features", JF_ARRAY, parse_hid_features),
};

int
timeline_parse_hid_device(struct tt_reader *r, struct json_object *o, struct tt_record *rec,
			  struct jerr *err)
{
	_cleanup_(tt_hid_device_freep) struct tt_hid_device *d = tt_zalloc(sizeof(*d));
	int64_t v;
	int rc;

	if ((rc = jget_int(o, "id", true, 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	d->id = (uint32_t)v;
	if ((rc = jget_fields(o, hid_device_fields, ARRAY_LENGTH(hid_device_fields), d, err)) < 0)
		return rc;
	rc = reader_add_hid_device(r, d);
	if (rc == -EEXIST)
		return jerr_set(err, "HID device %u is declared again, and more than %u hid_device records "
				"were replaced already", d->id, TT_MAX_DEVICES);
	if (rc < 0)
		return jerr_set(err, "more than %u HID devices in one file", TT_MAX_DEVICES);
	rec->hid_device = steal(&d);
	return 0;
}

/* ---- hid ---- */

int
timeline_parse_hid_report(struct tt_reader *r, struct json_object *o, struct tt_record *rec,
			  struct jerr *err)
{
	struct tt_hid_report *h = &r->hid_report;
	int64_t dev;
	int rc;

	tt_hid_report_clear(h);
	if ((rc = jget_int(o, "dev", true, 0, UINT32_MAX, &dev, err)) < 0 ||
	    (rc = jget_int(o, "t", true, -TT_MAX_TIME_US, TT_MAX_TIME_US, &h->time_us, err)) < 0)
		return rc;
	if (!reader_find_hid_device(r, (uint32_t)dev))
		return jerr_set(err, "hid report for HID device %" PRId64 ", which no hid_device record declared",
				dev);
	h->device = (uint32_t)dev;
	if ((rc = jget_hex(o, "data", true, TT_MAX_HID_REPORT, &h->data, &h->len, err)) < 0)
		return rc;
	rec->hid_report = h;
	return 0;
}
