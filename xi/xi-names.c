/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "timeline.h"
#include "util-mem.h"
#include "xi-names.h"

static const struct {
	int32_t type;
	const char *name;
	enum tt_xi_class cls;
} events[] = {
	{ XI_DeviceChanged, "DeviceChanged", TT_XI_CLASS_HIERARCHY },
	{ XI_KeyPress, "KeyPress", TT_XI_CLASS_DEVICE },
	{ XI_KeyRelease, "KeyRelease", TT_XI_CLASS_DEVICE },
	{ XI_ButtonPress, "ButtonPress", TT_XI_CLASS_DEVICE },
	{ XI_ButtonRelease, "ButtonRelease", TT_XI_CLASS_DEVICE },
	{ XI_Motion, "Motion", TT_XI_CLASS_DEVICE },
	{ XI_HierarchyChanged, "HierarchyChanged", TT_XI_CLASS_HIERARCHY },
	{ XI_RawKeyPress, "RawKeyPress", TT_XI_CLASS_RAW },
	{ XI_RawKeyRelease, "RawKeyRelease", TT_XI_CLASS_RAW },
	{ XI_RawButtonPress, "RawButtonPress", TT_XI_CLASS_RAW },
	{ XI_RawButtonRelease, "RawButtonRelease", TT_XI_CLASS_RAW },
	{ XI_RawMotion, "RawMotion", TT_XI_CLASS_RAW },
	{ XI_TouchBegin, "TouchBegin", TT_XI_CLASS_DEVICE },
	{ XI_TouchUpdate, "TouchUpdate", TT_XI_CLASS_DEVICE },
	{ XI_TouchEnd, "TouchEnd", TT_XI_CLASS_DEVICE },
	{ XI_TouchOwnership, "TouchOwnership", TT_XI_CLASS_OWNERSHIP },
	{ XI_RawTouchBegin, "RawTouchBegin", TT_XI_CLASS_RAW },
	{ XI_RawTouchUpdate, "RawTouchUpdate", TT_XI_CLASS_RAW },
	{ XI_RawTouchEnd, "RawTouchEnd", TT_XI_CLASS_RAW },
	{ TT_XI_REQ_ACCEPT, "AcceptTouch", TT_XI_CLASS_REQUEST },
	{ TT_XI_REQ_REJECT, "RejectTouch", TT_XI_CLASS_REQUEST },
	{ TT_XI_REQ_GRAB_DEVICE, "GrabDevice", TT_XI_CLASS_REQUEST },
	{ TT_XI_REQ_UNGRAB_DEVICE, "UngrabDevice", TT_XI_CLASS_REQUEST },
	{ TT_XI_REQ_ALLOW_EVENTS, "AllowEvents", TT_XI_CLASS_REQUEST },
};

const char *
tt_xi_event_name(int32_t evtype)
{
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++) {
		if (events[i].type == evtype)
			return events[i].name;
	}
	return NULL;
}

int
tt_xi_event_from_name(const char *name, int32_t *out)
{
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++) {
		if (strcmp(events[i].name, name) == 0) {
			*out = events[i].type;
			return 0;
		}
	}
	return -EINVAL;
}

enum tt_xi_class
tt_xi_event_class(int32_t evtype)
{
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++) {
		if (events[i].type == evtype)
			return events[i].cls;
	}
	return TT_XI_CLASS_DEVICE;
}

static bool
is_touch(int32_t t)
{
	return t == XI_TouchBegin || t == XI_TouchUpdate || t == XI_TouchEnd;
}

static bool
is_raw(int32_t t)
{
	return tt_xi_event_class(t) == TT_XI_CLASS_RAW;
}

/* The same bit means different things per event type (XI2.h). */
const char *
tt_xi_flag_name(int32_t evtype, uint32_t mask)
{
	if (is_touch(evtype)) {
		if (mask == XITouchPendingEnd) return "pending_end";
		if (mask == XITouchEmulatingPointer) return "emulating_pointer";
	} else if (is_raw(evtype)) {
		if (mask == XIPointerEmulated) return "pointer_emulated";
	} else if (evtype == XI_KeyPress) {
		if (mask == XIKeyRepeat) return "key_repeat";
	} else if (evtype == XI_ButtonPress || evtype == XI_ButtonRelease || evtype == XI_Motion) {
		if (mask == XIPointerEmulated) return "pointer_emulated";
	} else if (evtype == XI_HierarchyChanged) {
		switch (mask) {
		case XIMasterAdded: return "master_added";
		case XIMasterRemoved: return "master_removed";
		case XISlaveAdded: return "slave_added";
		case XISlaveRemoved: return "slave_removed";
		case XISlaveAttached: return "slave_attached";
		case XISlaveDetached: return "slave_detached";
		case XIDeviceEnabled: return "device_enabled";
		case XIDeviceDisabled: return "device_disabled";
		}
	}
	return NULL;
}

int
tt_xi_flag_from_name(int32_t evtype, const char *name, uint32_t *mask)
{
	for (unsigned int bit = 0; bit < 32; bit++) {
		const char *n = tt_xi_flag_name(evtype, 1u << bit);
		if (n && strcmp(n, name) == 0) {
			*mask = 1u << bit;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *const uses[] = {
	[XIMasterPointer] = "master_pointer",
	[XIMasterKeyboard] = "master_keyboard",
	[XISlavePointer] = "slave_pointer",
	[XISlaveKeyboard] = "slave_keyboard",
	[XIFloatingSlave] = "floating_slave",
};

const char *
tt_xi_use_name(int32_t use)
{
	if (use < 0 || (size_t)use >= ARRAY_LENGTH(uses))
		return NULL;
	return uses[use];
}

int
tt_xi_use_from_name(const char *name, int32_t *out)
{
	for (size_t i = 0; i < ARRAY_LENGTH(uses); i++) {
		if (uses[i] && strcmp(uses[i], name) == 0) {
			*out = (int32_t)i;
			return 0;
		}
	}
	return -EINVAL;
}
