/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer's libinput records, "li_device" and "li"
 * (formats/timeline.md).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "hex.h"
#include "json-emit.h"
#include "util-mem.h"
#include "util-strings.h"
#include "writer.h"
#include "writer-private.h"
#include "xi-names.h"

static void
kv_double(struct tt_writer *w, const char *k, double v)
{
	writer_key(w, k);
	writer_put_double(w, v);
}

static void
kv_pair(struct tt_writer *w, const char *k, double a, double b)
{
	writer_key(w, k);
	writer_put(w, "[", 1);
	writer_put_double(w, a);
	writer_put(w, ",", 1);
	writer_put_double(w, b);
	writer_put(w, "]", 1);
}

static void
put_li_capabilities(struct tt_writer *w, uint32_t caps)
{
	bool first = true;

	writer_key(w, "capabilities");
	writer_put(w, "[", 1);
	for (unsigned int bit = 0; bit < 32; bit++) {
		const char *name = tt_li_capability_name(1u << bit);
		if (!(caps & (1u << bit)) || !name)
			continue;
		if (!first)
			writer_put(w, ",", 1);
		first = false;
		writer_put_string(w, name);
	}
	writer_put(w, "]", 1);
}

int
tt_writer_li_device(struct tt_writer *w, const struct tt_li_device *d)
{
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "li_device");
	writer_kv_int(w, "dev", d->device);
	writer_kv_str(w, "sysname", d->sysname);
	writer_kv_str(w, "name", d->name);
	put_li_capabilities(w, d->capabilities);
	if (d->has_size)
		kv_pair(w, "size_mm", d->width_mm, d->height_mm);
	if (d->tap_fingers > 0)
		writer_kv_int(w, "tap_fingers", d->tap_fingers);
	writer_key(w, "config");
	writer_put(w, "{", 1);
	for (uint32_t i = 0; i < d->nsettings; i++)
		writer_kv_str(w, d->settings[i].name, d->settings[i].value);
	writer_put(w, "}", 1);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

static void
put_li_tablet(struct tt_writer *w, const struct tt_li_event *ev)
{
	writer_kv_str(w, "tool", tt_li_tool_name(ev->tool));
	if (ev->tool_serial)
		writer_kv_int(w, "serial", (int64_t)ev->tool_serial);
	kv_pair(w, "mm", ev->x, ev->y);
	kv_pair(w, "norm", ev->x_norm, ev->y_norm);
	if (ev->tablet_axes & TT_LI_AXIS_PRESSURE)
		kv_double(w, "pressure", ev->pressure);
	if (ev->tablet_axes & TT_LI_AXIS_DISTANCE)
		kv_double(w, "distance", ev->distance);
	if (ev->tablet_axes & TT_LI_AXIS_TILT)
		kv_pair(w, "tilt", ev->tilt_x, ev->tilt_y);
	if (ev->tablet_axes & TT_LI_AXIS_ROTATION)
		kv_double(w, "rotation", ev->rotation);
	if (ev->tablet_axes & TT_LI_AXIS_SLIDER)
		kv_double(w, "slider", ev->slider);
	if (ev->tablet_axes & TT_LI_AXIS_WHEEL)
		kv_double(w, "wheel", ev->wheel);
	switch (ev->kind) {
	case TT_LI_TABLET_TOOL_PROXIMITY: writer_kv_str(w, "proximity", ev->pressed ? "in" : "out"); break;
	case TT_LI_TABLET_TOOL_TIP: writer_kv_str(w, "tip", ev->pressed ? "down" : "up"); break;
	case TT_LI_TABLET_TOOL_BUTTON:
		writer_kv_int(w, "button", ev->code);
		writer_kv_str(w, "state", ev->pressed ? "pressed" : "released");
		break;
	default: break;
	}
}

static void
put_li_scroll(struct tt_writer *w, const struct tt_li_event *ev)
{
	if (ev->has_vert)
		kv_double(w, "vert", ev->vert);
	if (ev->has_horiz)
		kv_double(w, "horiz", ev->horiz);
	if (ev->kind != TT_LI_POINTER_SCROLL_WHEEL)
		return;
	if (ev->has_vert)
		kv_double(w, "vert_v120", ev->vert_v120);
	if (ev->has_horiz)
		kv_double(w, "horiz_v120", ev->horiz_v120);
}

static void
put_li_gesture(struct tt_writer *w, const struct tt_li_event *ev)
{
	bool pinch = ev->kind >= TT_LI_GESTURE_PINCH_BEGIN && ev->kind <= TT_LI_GESTURE_PINCH_END;

	writer_kv_int(w, "fingers", ev->fingers);
	if (ev->kind == TT_LI_GESTURE_SWIPE_UPDATE || ev->kind == TT_LI_GESTURE_PINCH_UPDATE) {
		kv_pair(w, "delta", ev->dx, ev->dy);
		kv_pair(w, "unaccel", ev->dx_unaccel, ev->dy_unaccel);
	}
	if (pinch) {
		kv_double(w, "scale", ev->scale);
		if (ev->kind == TT_LI_GESTURE_PINCH_UPDATE)
			kv_double(w, "angle", ev->angle);
	}
	if (ev->cancelled)
		writer_kv_bool(w, "cancelled", true);
}

static void
put_li_touch(struct tt_writer *w, const struct tt_li_event *ev)
{
	writer_kv_int(w, "slot", ev->slot);
	writer_kv_int(w, "seat_slot", ev->seat_slot);
	if (ev->kind == TT_LI_TOUCH_DOWN || ev->kind == TT_LI_TOUCH_MOTION) {
		kv_pair(w, "mm", ev->x, ev->y);
		kv_pair(w, "norm", ev->x_norm, ev->y_norm);
	}
}

/* The fields of @ev's class; see formats/timeline.md, "li". */
static void
put_li_fields(struct tt_writer *w, const struct tt_li_event *ev)
{
	switch (tt_li_event_class(ev->kind)) {
	case TT_LI_CLASS_DEVICE:
	case TT_LI_CLASS_TOUCH_FRAME:
		break;
	case TT_LI_CLASS_KEY:
		writer_kv_int(w, "key", ev->code);
		writer_kv_str(w, "state", ev->pressed ? "pressed" : "released");
		writer_kv_int(w, "seat_count", ev->seat_count);
		break;
	case TT_LI_CLASS_BUTTON:
		writer_kv_int(w, "button", ev->code);
		writer_kv_str(w, "state", ev->pressed ? "pressed" : "released");
		writer_kv_int(w, "seat_count", ev->seat_count);
		break;
	case TT_LI_CLASS_MOTION:
		kv_pair(w, "delta", ev->dx, ev->dy);
		kv_pair(w, "unaccel", ev->dx_unaccel, ev->dy_unaccel);
		break;
	case TT_LI_CLASS_ABSOLUTE:
		kv_pair(w, "mm", ev->x, ev->y);
		kv_pair(w, "norm", ev->x_norm, ev->y_norm);
		break;
	case TT_LI_CLASS_SCROLL: put_li_scroll(w, ev); break;
	case TT_LI_CLASS_TOUCH: put_li_touch(w, ev); break;
	case TT_LI_CLASS_TABLET: put_li_tablet(w, ev); break;
	case TT_LI_CLASS_GESTURE: put_li_gesture(w, ev); break;
	case TT_LI_CLASS_PAD:
		writer_kv_int(w, "number", ev->code);
		if (ev->kind == TT_LI_TABLET_PAD_BUTTON)
			writer_kv_str(w, "state", ev->pressed ? "pressed" : "released");
		else
			kv_double(w, "position", ev->position);
		break;
	case TT_LI_CLASS_SWITCH:
		writer_kv_int(w, "switch", ev->code);
		writer_kv_str(w, "state", ev->pressed ? "on" : "off");
		break;
	}
}

int
tt_writer_li_event(struct tt_writer *w, const struct tt_li_event *ev)
{
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "li");
	writer_kv_str(w, "li", ev->kind == TT_LI_OTHER && ev->kind_name ?
			ev->kind_name : tt_li_event_name(ev->kind));
	writer_kv_int(w, "t", ev->time_us);
	writer_kv_int(w, "dev", ev->device);
	put_li_fields(w, ev);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}
