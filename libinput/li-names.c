/* SPDX-License-Identifier: MIT */
/*
 * The libinput layer's names and the freeing of its records. The names
 * are libinput's own (debug-events and libinput record print the same),
 * so a libinput developer reads a timeline without a glossary.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "util-mem.h"

struct li_type_info {
	const char *name;
	enum tt_li_event_class class;
};

static const struct li_type_info li_types[] = {
	[TT_LI_OTHER] = { NULL, TT_LI_CLASS_DEVICE },
	[TT_LI_DEVICE_ADDED] = { "DEVICE_ADDED", TT_LI_CLASS_DEVICE },
	[TT_LI_DEVICE_REMOVED] = { "DEVICE_REMOVED", TT_LI_CLASS_DEVICE },
	[TT_LI_KEYBOARD_KEY] = { "KEYBOARD_KEY", TT_LI_CLASS_KEY },
	[TT_LI_POINTER_MOTION] = { "POINTER_MOTION", TT_LI_CLASS_MOTION },
	[TT_LI_POINTER_MOTION_ABSOLUTE] = { "POINTER_MOTION_ABSOLUTE", TT_LI_CLASS_ABSOLUTE },
	[TT_LI_POINTER_BUTTON] = { "POINTER_BUTTON", TT_LI_CLASS_BUTTON },
	[TT_LI_POINTER_SCROLL_WHEEL] = { "POINTER_SCROLL_WHEEL", TT_LI_CLASS_SCROLL },
	[TT_LI_POINTER_SCROLL_FINGER] = { "POINTER_SCROLL_FINGER", TT_LI_CLASS_SCROLL },
	[TT_LI_POINTER_SCROLL_CONTINUOUS] = { "POINTER_SCROLL_CONTINUOUS", TT_LI_CLASS_SCROLL },
	[TT_LI_TOUCH_DOWN] = { "TOUCH_DOWN", TT_LI_CLASS_TOUCH },
	[TT_LI_TOUCH_UP] = { "TOUCH_UP", TT_LI_CLASS_TOUCH },
	[TT_LI_TOUCH_MOTION] = { "TOUCH_MOTION", TT_LI_CLASS_TOUCH },
	[TT_LI_TOUCH_CANCEL] = { "TOUCH_CANCEL", TT_LI_CLASS_TOUCH },
	[TT_LI_TOUCH_FRAME] = { "TOUCH_FRAME", TT_LI_CLASS_TOUCH_FRAME },
	[TT_LI_TABLET_TOOL_AXIS] = { "TABLET_TOOL_AXIS", TT_LI_CLASS_TABLET },
	[TT_LI_TABLET_TOOL_PROXIMITY] = { "TABLET_TOOL_PROXIMITY", TT_LI_CLASS_TABLET },
	[TT_LI_TABLET_TOOL_TIP] = { "TABLET_TOOL_TIP", TT_LI_CLASS_TABLET },
	[TT_LI_TABLET_TOOL_BUTTON] = { "TABLET_TOOL_BUTTON", TT_LI_CLASS_TABLET },
	[TT_LI_TABLET_PAD_BUTTON] = { "TABLET_PAD_BUTTON", TT_LI_CLASS_PAD },
	[TT_LI_TABLET_PAD_RING] = { "TABLET_PAD_RING", TT_LI_CLASS_PAD },
	[TT_LI_TABLET_PAD_STRIP] = { "TABLET_PAD_STRIP", TT_LI_CLASS_PAD },
	[TT_LI_GESTURE_SWIPE_BEGIN] = { "GESTURE_SWIPE_BEGIN", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_SWIPE_UPDATE] = { "GESTURE_SWIPE_UPDATE", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_SWIPE_END] = { "GESTURE_SWIPE_END", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_PINCH_BEGIN] = { "GESTURE_PINCH_BEGIN", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_PINCH_UPDATE] = { "GESTURE_PINCH_UPDATE", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_PINCH_END] = { "GESTURE_PINCH_END", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_HOLD_BEGIN] = { "GESTURE_HOLD_BEGIN", TT_LI_CLASS_GESTURE },
	[TT_LI_GESTURE_HOLD_END] = { "GESTURE_HOLD_END", TT_LI_CLASS_GESTURE },
	[TT_LI_SWITCH_TOGGLE] = { "SWITCH_TOGGLE", TT_LI_CLASS_SWITCH },
};

const char *
tt_li_event_name(enum tt_li_event_type kind)
{
	if ((size_t)kind >= ARRAY_LENGTH(li_types) || !li_types[kind].name)
		return "OTHER";
	return li_types[kind].name;
}

enum tt_li_event_type
tt_li_event_from_name(const char *name)
{
	for (size_t i = 1; i < ARRAY_LENGTH(li_types); i++) {
		if (strcmp(li_types[i].name, name) == 0)
			return (enum tt_li_event_type)i;
	}
	return TT_LI_OTHER;
}

enum tt_li_event_class
tt_li_event_class(enum tt_li_event_type kind)
{
	if ((size_t)kind >= ARRAY_LENGTH(li_types))
		return TT_LI_CLASS_DEVICE;
	return li_types[kind].class;
}

static const char *const tool_names[] = {
	[TT_LI_TOOL_NONE] = "none",
	[TT_LI_TOOL_PEN] = "pen",
	[TT_LI_TOOL_ERASER] = "eraser",
	[TT_LI_TOOL_BRUSH] = "brush",
	[TT_LI_TOOL_PENCIL] = "pencil",
	[TT_LI_TOOL_AIRBRUSH] = "airbrush",
	[TT_LI_TOOL_MOUSE] = "mouse",
	[TT_LI_TOOL_LENS] = "lens",
	[TT_LI_TOOL_TOTEM] = "totem",
};

const char *
tt_li_tool_name(enum tt_li_tool_type tool)
{
	if ((size_t)tool >= ARRAY_LENGTH(tool_names))
		return "none";
	return tool_names[tool];
}

enum tt_li_tool_type
tt_li_tool_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_LENGTH(tool_names); i++) {
		if (strcmp(tool_names[i], name) == 0)
			return (enum tt_li_tool_type)i;
	}
	return TT_LI_TOOL_NONE;
}

static const char *const cap_names[] = {
	"keyboard", "pointer", "touch", "tablet-tool", "tablet-pad", "gesture", "switch",
};

const char *
tt_li_capability_name(enum tt_li_capability cap)
{
	for (size_t i = 0; i < ARRAY_LENGTH(cap_names); i++) {
		if ((uint32_t)cap == 1u << i)
			return cap_names[i];
	}
	return NULL;
}

const char *
tt_li_device_setting(const struct tt_li_device *d, const char *name)
{
	for (uint32_t i = 0; i < d->nsettings; i++) {
		if (strcmp(d->settings[i].name, name) == 0)
			return d->settings[i].value;
	}
	return NULL;
}

void
tt_li_device_free(struct tt_li_device *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nsettings; i++) {
		free(d->settings[i].name);
		free(d->settings[i].value);
	}
	free(d->settings);
	free(d->sysname);
	free(d->name);
	free(d);
}

void
tt_li_event_clear(struct tt_li_event *ev)
{
	if (!ev)
		return;
	free(ev->kind_name);
	memset(ev, 0, sizeof(*ev));
	ev->slot = -1;
	ev->seat_slot = -1;
}
