/* SPDX-License-Identifier: MIT */
/*
 * The surroundings keys of the header ("system") and of device records
 * ("syspath", "driver", "udev", "hwdb", "quirks"), formats/timeline.md
 * "Surroundings". All optional: files from before them read as before.
 * Property names are checked against what udev spells (replay puts them
 * into a udev rule); values and quirk lines are sanitized and bounded
 * like every other string.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json-get.h"
#include "timeline-surroundings.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- header "system" ---- */

int
timeline_parse_system(struct json_object *o, struct tt_header *h, struct jerr *err)
{
	struct json_object *sys;
	int rc;

	rc = jget_object(o, "system", false, &sys, err);
	if (rc <= 0)
		return rc;
	if ((rc = jget_string(sys, "dmi_modalias", false, &h->dmi_modalias, err)) < 0 ||
	    (rc = jget_string(sys, "os_id", false, &h->os_id, err)) < 0 ||
	    (rc = jget_string(sys, "os_version_id", false, &h->os_version_id, err)) < 0 ||
	    (rc = jget_string(sys, "libinput_version", false, &h->libinput_version, err)) < 0 ||
	    (rc = jget_string(sys, "libevdev_version", false, &h->libevdev_version, err)) < 0)
		return rc;
	return 0;
}

/* ---- device ---- */

/* An object of NAME: "value" under @key into @list: 1 when there, 0 when
 * absent, -EINVAL naming the first bad entry. */
static int
parse_property_map(struct json_object *o, const char *key, struct tt_property **list,
		   uint32_t *n, struct jerr *err)
{
	struct json_object *map;
	int rc = jget_object(o, key, false, &map, err);

	if (rc <= 0)
		return rc;
	if ((size_t)json_object_object_length(map) > TT_MAX_PROPERTIES)
		return jerr_set(err, "\"%s\" holds more than %u properties", key, TT_MAX_PROPERTIES);
	json_object_object_foreach(map, name, unused) {
		_cleanup_free_ char *value = NULL;

		(void)unused;
		if (!tt_property_name_is_valid(name)) {
			_cleanup_free_ char *shown = tt_str_sanitize(name, strlen(name), 64);
			return jerr_set(err, "\"%s\": \"%s\" is not a property name "
					"(1 to %u of A-Z a-z 0-9 _ . -)", key, shown, TT_MAX_PROPERTY_NAME);
		}
		if ((rc = jget_string(map, name, true, &value, err)) < 0)
			return rc;
		tt_properties_add(list, n, name, value);
	}
	return 1;
}

static int
parse_quirks(struct json_object *o, struct tt_device *dev, struct jerr *err)
{
	struct json_object *arr;
	size_t n;
	int rc = jget_array(o, "quirks", false, &arr, err);

	if (rc <= 0)
		return rc;
	n = json_object_array_length(arr);
	if (n > TT_MAX_QUIRKS)
		return jerr_set(err, "\"quirks\" holds more than %u lines", TT_MAX_QUIRKS);
	dev->has_quirks = true;
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		int len;

		if (!json_object_is_type(v, json_type_string))
			return jerr_set(err, "\"quirks\" item %zu must be a string", i);
		len = json_object_get_string_len(v);
		if (len < 0 || (size_t)len > TT_MAX_STRING_BYTES)
			return jerr_set(err, "\"quirks\" item %zu is longer than %u bytes", i, TT_MAX_STRING_BYTES);
		tt_device_add_quirk(dev, json_object_get_string(v));
	}
	return 1;
}

int
timeline_parse_surroundings(struct json_object *o, struct tt_device *dev, struct jerr *err)
{
	int rc;

	if ((rc = jget_string(o, "syspath", false, &dev->syspath, err)) < 0 ||
	    (rc = jget_string(o, "driver", false, &dev->driver, err)) < 0)
		return rc;
	rc = parse_property_map(o, "udev", &dev->udev, &dev->nudev, err);
	if (rc < 0)
		return rc;
	dev->has_udev = rc > 0;
	if ((rc = parse_property_map(o, "hwdb", &dev->hwdb, &dev->nhwdb, err)) < 0 ||
	    (rc = parse_quirks(o, dev, err)) < 0)
		return rc;
	return 0;
}
