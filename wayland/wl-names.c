/* SPDX-License-Identifier: MIT */
/*
 * The Wayland layer's names and the freeing of its records. The names are
 * the protocols' own (interface and event as in the XML, as WAYLAND_DEBUG
 * prints them), so a compositor developer reads a timeline without a
 * glossary.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "util-mem.h"

struct wl_name {
	const char *interface;
	const char *event;
};

#define TOUCH "wl_touch"
#define POINTER "wl_pointer"
#define SWIPE "zwp_pointer_gesture_swipe_v1"
#define PINCH "zwp_pointer_gesture_pinch_v1"
#define HOLD "zwp_pointer_gesture_hold_v1"

static const struct wl_name wl_names[] = {
	[TT_WL_OTHER] = { NULL, NULL },
	[TT_WL_TOUCH_DOWN] = { TOUCH, "down" },
	[TT_WL_TOUCH_UP] = { TOUCH, "up" },
	[TT_WL_TOUCH_MOTION] = { TOUCH, "motion" },
	[TT_WL_TOUCH_FRAME] = { TOUCH, "frame" },
	[TT_WL_TOUCH_CANCEL] = { TOUCH, "cancel" },
	[TT_WL_TOUCH_SHAPE] = { TOUCH, "shape" },
	[TT_WL_TOUCH_ORIENTATION] = { TOUCH, "orientation" },
	[TT_WL_POINTER_ENTER] = { POINTER, "enter" },
	[TT_WL_POINTER_LEAVE] = { POINTER, "leave" },
	[TT_WL_POINTER_MOTION] = { POINTER, "motion" },
	[TT_WL_POINTER_BUTTON] = { POINTER, "button" },
	[TT_WL_POINTER_AXIS] = { POINTER, "axis" },
	[TT_WL_POINTER_FRAME] = { POINTER, "frame" },
	[TT_WL_POINTER_AXIS_SOURCE] = { POINTER, "axis_source" },
	[TT_WL_POINTER_AXIS_STOP] = { POINTER, "axis_stop" },
	[TT_WL_POINTER_AXIS_DISCRETE] = { POINTER, "axis_discrete" },
	[TT_WL_POINTER_AXIS_VALUE120] = { POINTER, "axis_value120" },
	[TT_WL_POINTER_AXIS_RELATIVE_DIRECTION] = { POINTER, "axis_relative_direction" },
	[TT_WL_SWIPE_BEGIN] = { SWIPE, "begin" },
	[TT_WL_SWIPE_UPDATE] = { SWIPE, "update" },
	[TT_WL_SWIPE_END] = { SWIPE, "end" },
	[TT_WL_PINCH_BEGIN] = { PINCH, "begin" },
	[TT_WL_PINCH_UPDATE] = { PINCH, "update" },
	[TT_WL_PINCH_END] = { PINCH, "end" },
	[TT_WL_HOLD_BEGIN] = { HOLD, "begin" },
	[TT_WL_HOLD_END] = { HOLD, "end" },
	[TT_WL_SEAT_CAPABILITIES] = { "wl_seat", "capabilities" },
	[TT_WL_SEAT_NAME] = { "wl_seat", "name" },
	[TT_WL_OUTPUT_GEOMETRY] = { "wl_output", "geometry" },
	[TT_WL_OUTPUT_MODE] = { "wl_output", "mode" },
	[TT_WL_OUTPUT_DONE] = { "wl_output", "done" },
	[TT_WL_OUTPUT_SCALE] = { "wl_output", "scale" },
	[TT_WL_OUTPUT_NAME] = { "wl_output", "name" },
	[TT_WL_OUTPUT_DESCRIPTION] = { "wl_output", "description" },
	[TT_WL_TOPLEVEL_CONFIGURE] = { "xdg_toplevel", "configure" },
	[TT_WL_TOPLEVEL_CLOSE] = { "xdg_toplevel", "close" },
	[TT_WL_LAYER_CONFIGURE] = { "zwlr_layer_surface_v1", "configure" },
	[TT_WL_LAYER_CLOSED] = { "zwlr_layer_surface_v1", "closed" },
};

const char *
tt_wl_interface_name(enum tt_wl_event_type kind)
{
	if ((size_t)kind >= ARRAY_LENGTH(wl_names) || !wl_names[kind].interface)
		return "unknown";
	return wl_names[kind].interface;
}

const char *
tt_wl_event_name(enum tt_wl_event_type kind)
{
	if ((size_t)kind >= ARRAY_LENGTH(wl_names) || !wl_names[kind].event)
		return "unknown";
	return wl_names[kind].event;
}

enum tt_wl_event_type
tt_wl_event_from_names(const char *interface, const char *event)
{
	for (size_t i = 1; i < ARRAY_LENGTH(wl_names); i++) {
		if (strcmp(wl_names[i].interface, interface) == 0 &&
		    strcmp(wl_names[i].event, event) == 0)
			return (enum tt_wl_event_type)i;
	}
	return TT_WL_OTHER;
}

const char *
tt_wl_capability_name(enum tt_wl_capability cap)
{
	switch (cap) {
	case TT_WL_CAP_POINTER: return "pointer";
	case TT_WL_CAP_KEYBOARD: return "keyboard";
	case TT_WL_CAP_TOUCH: return "touch";
	}
	return NULL;
}

void
tt_wl_event_clear(struct tt_wl_event *ev)
{
	if (!ev)
		return;
	free(ev->client);
	free(ev->interface);
	free(ev->event);
	free(ev->name);
	free(ev->make);
	free(ev->model);
	memset(ev, 0, sizeof(*ev));
}
