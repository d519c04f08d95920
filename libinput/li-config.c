/* SPDX-License-Identifier: MIT */
/*
 * --libinput-config: the settings a user has in their compositor, parsed
 * from "tap=on,natural-scroll=on,...", applied to each libinput device
 * that supports them, and read back as the configuration in effect for
 * the li_device record. One table row per setting; names and values are
 * those of libinput's own tools (libinput debug-events --set-*, and
 * libinput list-devices' output), lowercase with dashes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libinput.h>

#include "li-private.h"
#include "util-strings.h"

typedef struct libinput_device li_dev;

enum li_value_kind {
	LI_BOOL,	/* on / off */
	LI_ENUM,	/* one of the names */
	LI_NUMBER,	/* a number within [min, max] */
};

struct li_name {
	const char *name;
	int value;
};

struct li_setting {
	const char *name;
	enum li_value_kind kind;
	const struct li_name *names;	/* LI_ENUM, ended by a NULL name */
	double min, max;		/* LI_NUMBER */
	bool (*available)(li_dev *d);
	enum libinput_config_status (*set)(li_dev *d, double v);
	double (*get)(li_dev *d);
};

/* ---- availability ---- */

static bool
has_tap(li_dev *d)
{
	return libinput_device_config_tap_get_finger_count(d) > 0;
}

static bool
has_natural(li_dev *d)
{
	return libinput_device_config_scroll_has_natural_scroll(d);
}

static bool
has_scroll(li_dev *d)
{
	return libinput_device_config_scroll_get_methods(d) != 0;
}

static bool
has_scroll_button(li_dev *d)
{
	return libinput_device_config_scroll_get_methods(d) & LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN;
}

static bool
has_click(li_dev *d)
{
	return libinput_device_config_click_get_methods(d) != 0;
}

static bool
has_dwt(li_dev *d)
{
	return libinput_device_config_dwt_is_available(d);
}

static bool
has_dwtp(li_dev *d)
{
	return libinput_device_config_dwtp_is_available(d);
}

static bool
has_left(li_dev *d)
{
	return libinput_device_config_left_handed_is_available(d);
}

static bool
has_middle(li_dev *d)
{
	return libinput_device_config_middle_emulation_is_available(d);
}

static bool
has_accel(li_dev *d)
{
	return libinput_device_config_accel_is_available(d);
}

static bool
has_profiles(li_dev *d)
{
	return libinput_device_config_accel_get_profiles(d) != 0;
}

static bool
has_send_events(li_dev *d)
{
	(void)d;
	return true;	/* every device can be enabled */
}

static bool
has_rotation(li_dev *d)
{
	return libinput_device_config_rotation_is_available(d);
}

/* ---- set and get, as doubles so one table row fits every setting ---- */

#define LI_ACCESSORS(id, setter, getter, type) \
	static enum libinput_config_status set_##id(li_dev *d, double v) \
	{ return setter(d, (type)v); } \
	static double get_##id(li_dev *d) { return (double)getter(d); }

LI_ACCESSORS(tap, libinput_device_config_tap_set_enabled,
	     libinput_device_config_tap_get_enabled, enum libinput_config_tap_state)
LI_ACCESSORS(tap_drag, libinput_device_config_tap_set_drag_enabled,
	     libinput_device_config_tap_get_drag_enabled, enum libinput_config_drag_state)
LI_ACCESSORS(drag_lock, libinput_device_config_tap_set_drag_lock_enabled,
	     libinput_device_config_tap_get_drag_lock_enabled, enum libinput_config_drag_lock_state)
LI_ACCESSORS(tap_map, libinput_device_config_tap_set_button_map,
	     libinput_device_config_tap_get_button_map, enum libinput_config_tap_button_map)
LI_ACCESSORS(natural, libinput_device_config_scroll_set_natural_scroll_enabled,
	     libinput_device_config_scroll_get_natural_scroll_enabled, int)
LI_ACCESSORS(scroll, libinput_device_config_scroll_set_method,
	     libinput_device_config_scroll_get_method, enum libinput_config_scroll_method)
LI_ACCESSORS(scroll_button, libinput_device_config_scroll_set_button,
	     libinput_device_config_scroll_get_button, uint32_t)
LI_ACCESSORS(click, libinput_device_config_click_set_method,
	     libinput_device_config_click_get_method, enum libinput_config_click_method)
LI_ACCESSORS(dwt, libinput_device_config_dwt_set_enabled,
	     libinput_device_config_dwt_get_enabled, enum libinput_config_dwt_state)
LI_ACCESSORS(dwtp, libinput_device_config_dwtp_set_enabled,
	     libinput_device_config_dwtp_get_enabled, enum libinput_config_dwtp_state)
LI_ACCESSORS(left, libinput_device_config_left_handed_set,
	     libinput_device_config_left_handed_get, int)
LI_ACCESSORS(middle, libinput_device_config_middle_emulation_set_enabled,
	     libinput_device_config_middle_emulation_get_enabled,
	     enum libinput_config_middle_emulation_state)
LI_ACCESSORS(accel, libinput_device_config_accel_set_speed,
	     libinput_device_config_accel_get_speed, double)
LI_ACCESSORS(profile, libinput_device_config_accel_set_profile,
	     libinput_device_config_accel_get_profile, enum libinput_config_accel_profile)
LI_ACCESSORS(send_events, libinput_device_config_send_events_set_mode,
	     libinput_device_config_send_events_get_mode, uint32_t)
LI_ACCESSORS(rotation, libinput_device_config_rotation_set_angle,
	     libinput_device_config_rotation_get_angle, unsigned int)

static const struct li_name tap_maps[] = {
	{ "lrm", LIBINPUT_CONFIG_TAP_MAP_LRM }, { "lmr", LIBINPUT_CONFIG_TAP_MAP_LMR }, { NULL, 0 },
};
static const struct li_name scroll_methods[] = {
	{ "none", LIBINPUT_CONFIG_SCROLL_NO_SCROLL },
	{ "two-finger", LIBINPUT_CONFIG_SCROLL_2FG },
	{ "edge", LIBINPUT_CONFIG_SCROLL_EDGE },
	{ "button", LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN },
	{ NULL, 0 },
};
static const struct li_name click_methods[] = {
	{ "none", LIBINPUT_CONFIG_CLICK_METHOD_NONE },
	{ "button-areas", LIBINPUT_CONFIG_CLICK_METHOD_BUTTON_AREAS },
	{ "clickfinger", LIBINPUT_CONFIG_CLICK_METHOD_CLICKFINGER },
	{ NULL, 0 },
};
static const struct li_name accel_profiles[] = {
	{ "none", LIBINPUT_CONFIG_ACCEL_PROFILE_NONE },
	{ "flat", LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT },
	{ "adaptive", LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE },
	{ NULL, 0 },
};
static const struct li_name send_events_modes[] = {
	{ "enabled", LIBINPUT_CONFIG_SEND_EVENTS_ENABLED },
	{ "disabled", LIBINPUT_CONFIG_SEND_EVENTS_DISABLED },
	{ "disabled-on-external-mouse", LIBINPUT_CONFIG_SEND_EVENTS_DISABLED_ON_EXTERNAL_MOUSE },
	{ NULL, 0 },
};

#define BOOL_SETTING(n, id, avail) { n, LI_BOOL, NULL, 0, 1, avail, set_##id, get_##id }
#define ENUM_SETTING(n, id, avail, names) { n, LI_ENUM, names, 0, 0, avail, set_##id, get_##id }
#define NUM_SETTING(n, id, avail, lo, hi) { n, LI_NUMBER, NULL, lo, hi, avail, set_##id, get_##id }

static const struct li_setting settings[] = {
	BOOL_SETTING("tap", tap, has_tap),
	BOOL_SETTING("tap-drag", tap_drag, has_tap),
	BOOL_SETTING("drag-lock", drag_lock, has_tap),
	ENUM_SETTING("tap-button-map", tap_map, has_tap, tap_maps),
	BOOL_SETTING("natural-scroll", natural, has_natural),
	ENUM_SETTING("scroll-method", scroll, has_scroll, scroll_methods),
	NUM_SETTING("scroll-button", scroll_button, has_scroll_button, 0, 0x2ff),
	ENUM_SETTING("click-method", click, has_click, click_methods),
	BOOL_SETTING("dwt", dwt, has_dwt),
	BOOL_SETTING("dwtp", dwtp, has_dwtp),
	BOOL_SETTING("left-handed", left, has_left),
	BOOL_SETTING("middle-emulation", middle, has_middle),
	NUM_SETTING("accel-speed", accel, has_accel, -1, 1),
	ENUM_SETTING("accel-profile", profile, has_profiles, accel_profiles),
	ENUM_SETTING("send-events", send_events, has_send_events, send_events_modes),
	NUM_SETTING("rotation", rotation, has_rotation, 0, 359),
};

#define NSETTINGS ARRAY_LENGTH(settings)

static void li_format_value(const struct li_setting *s, double v, char *buf, size_t size);

struct tt_li_config {
	bool given[NSETTINGS];
	double value[NSETTINGS];
};

const char *
tt_li_config_names(void)
{
	static char names[512];

	if (!names[0]) {
		for (size_t i = 0; i < NSETTINGS; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", settings[i].name);
	}
	return names;
}

static const struct li_setting *
find_setting(const char *name, size_t len)
{
	for (size_t i = 0; i < NSETTINGS; i++) {
		if (strlen(settings[i].name) == len && strncmp(settings[i].name, name, len) == 0)
			return &settings[i];
	}
	return NULL;
}

static int
parse_bool(const char *v, double *out)
{
	static const char *const on[] = { "on", "1", "yes", "true", "enabled" };
	static const char *const off[] = { "off", "0", "no", "false", "disabled" };

	for (size_t i = 0; i < ARRAY_LENGTH(on); i++) {
		if (strcmp(v, on[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcmp(v, off[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int
parse_value(const struct li_setting *s, const char *v, double *out)
{
	char *end;
	double d;

	switch (s->kind) {
	case LI_BOOL:
		return parse_bool(v, out);
	case LI_ENUM:
		for (const struct li_name *n = s->names; n->name; n++) {
			if (strcmp(n->name, v) == 0) {
				*out = n->value;
				return 0;
			}
		}
		return -EINVAL;
	case LI_NUMBER:
		errno = 0;
		d = strtod(v, &end);
		if (errno || end == v || *end || !isfinite(d) || d < s->min || d > s->max)
			return -EINVAL;
		*out = d;
		return 0;
	}
	return -EINVAL;
}

/* What a setting accepts, for the error message. */
static void
describe_values(const struct li_setting *s, char *buf, size_t size)
{
	buf[0] = '\0';
	switch (s->kind) {
	case LI_BOOL:
		snprintf(buf, size, "on or off");
		break;
	case LI_ENUM:
		for (const struct li_name *n = s->names; n->name; n++)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
				 n == s->names ? "" : ", ", n->name);
		break;
	case LI_NUMBER:
		snprintf(buf, size, "a number from %g to %g", s->min, s->max);
		break;
	}
}

/* One "name=value" of @len bytes. */
static int
parse_item(struct tt_li_config *cfg, const char *item, size_t len, char *error, size_t size)
{
	const char *eq = memchr(item, '=', len);
	const struct li_setting *s = find_setting(item, eq ? (size_t)(eq - item) : len);
	char value[64], accepted[160];

	if (!s) {
		snprintf(error, size, "unknown setting '%.*s' (known: %s)", (int)(eq ? eq - item : (int)len),
			 item, tt_li_config_names());
		return -EINVAL;
	}
	if (!eq || (size_t)(item + len - eq - 1) >= sizeof(value)) {
		snprintf(error, size, "%s needs a value: %s=VALUE", s->name, s->name);
		return -EINVAL;
	}
	snprintf(value, sizeof(value), "%.*s", (int)(item + len - eq - 1), eq + 1);
	size_t idx = (size_t)(s - settings);
	if (parse_value(s, value, &cfg->value[idx]) < 0) {
		describe_values(s, accepted, sizeof(accepted));
		snprintf(error, size, "%s takes %s, not '%s'", s->name, accepted, value);
		return -EINVAL;
	}
	cfg->given[idx] = true;
	return 0;
}

int
tt_li_config_parse(const char *spec, struct tt_li_config **out, char *error, size_t size)
{
	_cleanup_(tt_li_config_freep) struct tt_li_config *cfg = tt_zalloc(sizeof(*cfg));
	const char *p = spec;

	while (*p) {
		size_t len = strcspn(p, ",");
		int rc = len ? parse_item(cfg, p, len, error, size) : 0;
		if (rc < 0)
			return rc;
		p += len;
		if (*p == ',')
			p++;
	}
	*out = steal(&cfg);
	return 0;
}

void
tt_li_config_free(struct tt_li_config *cfg)
{
	free(cfg);
}

static const char *
status_name(enum libinput_config_status st)
{
	return st == LIBINPUT_CONFIG_STATUS_UNSUPPORTED ? "not supported by this device" :
	       st == LIBINPUT_CONFIG_STATUS_INVALID ? "an invalid value for this device" : "refused";
}

int
li_config_apply(const struct tt_li_config *cfg, struct libinput_device *dev, bool *applied,
		const char *node)
{
	for (size_t i = 0; cfg && i < NSETTINGS; i++) {
		enum libinput_config_status st;
		if (!cfg->given[i] || !settings[i].available(dev))
			continue;
		st = settings[i].set(dev, cfg->value[i]);
		if (st != LIBINPUT_CONFIG_STATUS_SUCCESS) {
			char v[64];
			li_format_value(&settings[i], cfg->value[i], v, sizeof(v));
			tt_error("%s: libinput: %s=%s is %s", node, settings[i].name, v, status_name(st));
			return -EINVAL;
		}
		applied[i] = true;
	}
	return 0;
}

int
li_config_check_applied(const struct tt_li_config *cfg, const bool *applied)
{
	for (size_t i = 0; cfg && i < NSETTINGS; i++) {
		if (cfg->given[i] && !applied[i]) {
			tt_error("--libinput-config: %s: none of the recorded devices has this setting",
				 settings[i].name);
			return -ENOTSUP;
		}
	}
	return 0;
}

size_t
li_config_nsettings(void)
{
	return NSETTINGS;
}

static void
li_format_value(const struct li_setting *s, double v, char *buf, size_t size)
{
	switch (s->kind) {
	case LI_BOOL:
		snprintf(buf, size, "%s", v != 0 ? "on" : "off");
		return;
	case LI_ENUM:
		for (const struct li_name *n = s->names; n->name; n++) {
			if (n->value == (int)v) {
				snprintf(buf, size, "%s", n->name);
				return;
			}
		}
		snprintf(buf, size, "%d", (int)v);
		return;
	case LI_NUMBER:
		snprintf(buf, size, "%g", v);
		return;
	}
}

void
li_config_describe(struct libinput_device *dev, struct tt_li_device *out)
{
	out->settings = tt_zalloc(NSETTINGS * sizeof(*out->settings));
	for (size_t i = 0; i < NSETTINGS; i++) {
		char v[64];
		if (!settings[i].available(dev))
			continue;
		li_format_value(&settings[i], settings[i].get(dev), v, sizeof(v));
		out->settings[out->nsettings].name = tt_strdup(settings[i].name);
		out->settings[out->nsettings].value = tt_strdup(v);
		out->nsettings++;
	}
}
