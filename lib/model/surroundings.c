/* SPDX-License-Identifier: MIT */
/*
 * A device's surroundings in memory: udev properties, the hwdb overrides
 * among them, libinput quirk lines. Every string that enters goes through
 * here, so the bounds and the sanitizing are the same whether it came
 * from sysfs, a timeline or a libinput-record file.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "util-mem.h"
#include "util-strings.h"

bool
tt_property_name_is_valid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > TT_MAX_PROPERTY_NAME)
		return false;
	/* Names go into udev rules on replay: nothing that could quote,
	 * assign or separate there. */
	return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == len;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s);
	size_t m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool
tt_property_is_serial(const char *name)
{
	/* ID_SERIAL, ID_SERIAL_SHORT, ID_USB_SERIAL...; UNIQ and HID_UNIQ
	 * (often a serial or a Bluetooth address); DEVLINKS holds the by-id
	 * links, which are built from ID_SERIAL. */
	return strstr(name, "SERIAL") || ends_with(name, "UNIQ") || strcmp(name, "DEVLINKS") == 0;
}

static char *
clean_copy(const char *s)
{
	return tt_str_sanitize(s, strlen(s), TT_MAX_STRING_BYTES);
}

int
tt_properties_add(struct tt_property **list, uint32_t *n, const char *name, const char *value)
{
	struct tt_property *p;

	if (!tt_property_name_is_valid(name))
		return -EINVAL;
	for (uint32_t i = 0; i < *n; i++) {
		if (strcmp((*list)[i].name, name) == 0) {
			free((*list)[i].value);
			(*list)[i].value = clean_copy(value);
			return 0;
		}
	}
	if (*n >= TT_MAX_PROPERTIES)
		return -E2BIG;
	*list = tt_reallocarray(*list, *n + 1, sizeof(**list));
	p = &(*list)[*n];
	p->name = tt_strdup(name);
	p->value = clean_copy(value);
	(*n)++;
	return 0;
}

const char *
tt_properties_get(const struct tt_property *list, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(list[i].name, name) == 0)
			return list[i].value;
	}
	return NULL;
}

void
tt_properties_free(struct tt_property *list, uint32_t n)
{
	if (!list)
		return;
	for (uint32_t i = 0; i < n; i++) {
		free(list[i].name);
		free(list[i].value);
	}
	free(list);
}

int
tt_device_add_quirk(struct tt_device *dev, const char *line)
{
	if (dev->nquirks >= TT_MAX_QUIRKS)
		return -E2BIG;
	dev->quirks = tt_reallocarray(dev->quirks, dev->nquirks + 1, sizeof(*dev->quirks));
	dev->quirks[dev->nquirks++] = clean_copy(line);
	dev->has_quirks = true;
	return 0;
}

/* Property names only hwdb entries set: systemd's 60-evdev, 60-keyboard,
 * 70-mouse and 70-pointingstick hwdb, and libinput's model and attribute
 * properties, which libinput itself has not shipped in hwdb form since
 * 1.12 (local or distribution entries). */
static const char *const hwdb_prefixes[] = {
	"EVDEV_ABS_",
	"KEYBOARD_KEY_",
	"MOUSE_DPI",
	"MOUSE_WHEEL_",
	"POINTINGSTICK_",
	"LIBINPUT_MODEL_",
	"LIBINPUT_ATTR_",
};

/* udev's input_id builtin sets ID_INPUT_WIDTH_MM and _HEIGHT_MM from
 * ABS_X/ABS_Y as (max - min) / resolution; a value that differs (or one
 * on a device without resolutions) was set by an hwdb entry. */
static bool
size_is_from_hwdb(const struct tt_device *dev, unsigned int axis, const char *value)
{
	const struct tt_absinfo *x = &dev->abs[ABS_X];
	const struct tt_absinfo *y = &dev->abs[ABS_Y];
	const struct tt_absinfo *a = &dev->abs[axis];
	int64_t v;

	if (!tt_device_has(dev, EV_ABS, ABS_X) || !tt_device_has(dev, EV_ABS, ABS_Y) ||
	    x->resolution <= 0 || y->resolution <= 0)
		return true;
	if (tt_parse_int64(value, &v) < 0)
		return true;
	return v != ((int64_t)a->maximum - a->minimum) / a->resolution;
}

static bool
is_from_hwdb(const struct tt_device *dev, const struct tt_property *p)
{
	for (size_t i = 0; i < ARRAY_LENGTH(hwdb_prefixes); i++) {
		if (strncmp(p->name, hwdb_prefixes[i], strlen(hwdb_prefixes[i])) == 0)
			return true;
	}
	if (strcmp(p->name, "ID_INPUT_WIDTH_MM") == 0)
		return size_is_from_hwdb(dev, ABS_X, p->value);
	if (strcmp(p->name, "ID_INPUT_HEIGHT_MM") == 0)
		return size_is_from_hwdb(dev, ABS_Y, p->value);
	return false;
}

void
tt_device_find_hwdb(struct tt_device *dev)
{
	tt_properties_free(dev->hwdb, dev->nhwdb);
	dev->hwdb = NULL;
	dev->nhwdb = 0;
	for (uint32_t i = 0; i < dev->nudev; i++) {
		const struct tt_property *p = &dev->udev[i];
		if (is_from_hwdb(dev, p))
			tt_properties_add(&dev->hwdb, &dev->nhwdb, p->name, p->value);
	}
}

bool
tt_device_has_surroundings(const struct tt_device *dev)
{
	return dev->syspath || dev->driver || dev->has_udev || dev->nhwdb || dev->has_quirks;
}

bool
tt_header_has_system(const struct tt_header *h)
{
	return h->dmi_modalias || h->os_id || h->os_version_id || h->libinput_version ||
	       h->libevdev_version;
}

static struct tt_property *
copy_properties(const struct tt_property *list, uint32_t n)
{
	struct tt_property *out = n ? tt_reallocarray(NULL, n, sizeof(*out)) : NULL;

	for (uint32_t i = 0; i < n; i++) {
		out[i].name = tt_strdup(list[i].name);
		out[i].value = tt_strdup(list[i].value);
	}
	return out;
}

void
tt_device_copy_surroundings(struct tt_device *dst, const struct tt_device *src)
{
	dst->syspath = src->syspath ? tt_strdup(src->syspath) : NULL;
	dst->driver = src->driver ? tt_strdup(src->driver) : NULL;
	dst->has_udev = src->has_udev;
	dst->udev = copy_properties(src->udev, src->nudev);
	dst->nudev = src->nudev;
	dst->hwdb = copy_properties(src->hwdb, src->nhwdb);
	dst->nhwdb = src->nhwdb;
	dst->has_quirks = src->has_quirks;
	dst->quirks = src->nquirks ? tt_reallocarray(NULL, src->nquirks, sizeof(char *)) : NULL;
	for (uint32_t i = 0; i < src->nquirks; i++)
		dst->quirks[i] = tt_strdup(src->quirks[i]);
	dst->nquirks = src->nquirks;
}

void
tt_device_clear_surroundings(struct tt_device *dev)
{
	free(dev->syspath);
	free(dev->driver);
	tt_properties_free(dev->udev, dev->nudev);
	tt_properties_free(dev->hwdb, dev->nhwdb);
	for (uint32_t i = 0; i < dev->nquirks; i++)
		free(dev->quirks[i]);
	free(dev->quirks);
	dev->syspath = NULL;
	dev->driver = NULL;
	dev->has_udev = false;
	dev->udev = NULL;
	dev->nudev = 0;
	dev->hwdb = NULL;
	dev->nhwdb = 0;
	dev->has_quirks = false;
	dev->quirks = NULL;
	dev->nquirks = 0;
}
