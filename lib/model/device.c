/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "timeline.h"
#include "util-mem.h"

struct tt_device *
tt_device_new(uint32_t id)
{
	struct tt_device *dev = tt_zalloc(sizeof(*dev));

	dev->id = id;
	dev->current_slot = 0;
	/* EV_SYN is implied by every evdev device. */
	tt_device_enable(dev, EV_SYN, SYN_REPORT);
	return dev;
}

void
tt_device_free(struct tt_device *dev)
{
	if (!dev)
		return;
	free(dev->name);
	free(dev->node);
	free(dev->phys);
	free(dev->uniq);
	free(dev->slots);
	tt_device_clear_surroundings(dev);
	free(dev);
}

int
tt_device_set_slots(struct tt_device *dev, uint32_t num_slots)
{
	if (num_slots > TT_MAX_SLOTS)
		return -ERANGE;

	struct tt_slot_state *slots = NULL;
	if (num_slots) {
		slots = tt_reallocarray(NULL, num_slots, sizeof(*slots));
		for (uint32_t s = 0; s < num_slots; s++) {
			memset(&slots[s], 0, sizeof(slots[s]));
			slots[s].values[ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
		}
	}
	free(dev->slots);
	dev->slots = slots;
	dev->num_slots = num_slots;
	return 0;
}

bool
tt_device_has(const struct tt_device *dev, unsigned int type, unsigned int code)
{
	if (type >= EV_CNT || code >= KEY_CNT)
		return false;
	if (!bit_is_set(dev->types, type))
		return false;
	return bit_is_set(dev->codes[type], code);
}

void
tt_device_enable(struct tt_device *dev, unsigned int type, unsigned int code)
{
	if (type >= EV_CNT || code >= KEY_CNT)
		return;
	set_bit(dev->types, type);
	set_bit(dev->codes[type], code);
}

bool
tt_device_is_touch(const struct tt_device *dev)
{
	if (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X))
		return true;
	if (tt_device_has(dev, EV_KEY, BTN_TOOL_FINGER))
		return true;
	/* Single-touch screens: absolute axes and BTN_TOUCH, but no pen. */
	return tt_device_has(dev, EV_ABS, ABS_X) &&
	       tt_device_has(dev, EV_KEY, BTN_TOUCH) &&
	       !tt_device_has(dev, EV_KEY, BTN_TOOL_PEN);
}

/* Key codes outside the kernel's button ranges are keys that type or
 * trigger actions; buttons (mouse, joystick, digitizer, gamepad) are not. */
static bool
is_typing_key(unsigned int code)
{
	if (code >= BTN_MISC && code <= BTN_GEAR_UP)
		return false;
	if (code >= BTN_DPAD_UP && code <= BTN_DPAD_RIGHT)
		return false;
	if (code >= BTN_TRIGGER_HAPPY && code <= BTN_TRIGGER_HAPPY40)
		return false;
	return code != KEY_RESERVED;
}

bool
tt_device_has_typing_keys(const struct tt_device *dev)
{
	if (!bit_is_set(dev->types, EV_KEY))
		return false;
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (bit_is_set(dev->codes[EV_KEY], code) && is_typing_key(code))
			return true;
	}
	return false;
}

void
tt_header_clear(struct tt_header *h)
{
	if (!h)
		return;
	free(h->tool);
	free(h->kernel);
	free(h->x_vendor);
	free(h->source_format);
	free(h->dmi_modalias);
	free(h->os_id);
	free(h->os_version_id);
	free(h->libinput_version);
	free(h->libevdev_version);
	memset(h, 0, sizeof(*h));
}

void
tt_xi_device_free(struct tt_xi_device *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->device_node);
	for (uint32_t i = 0; i < d->nvaluators; i++)
		free(d->valuators[i].label);
	free(d->valuators);
	free(d);
}

void
tt_xi_event_clear(struct tt_xi_event *ev)
{
	if (!ev)
		return;
	free(ev->client);
	free(ev->valuator_numbers);
	free(ev->valuator_values);
	free(ev->raw_values);
	free(ev->buttons);
	free(ev->changes);
	memset(ev, 0, sizeof(*ev));
}

void
tt_marker_clear(struct tt_marker *m)
{
	if (!m)
		return;
	free(m->kind_name);
	free(m->text);
	memset(m, 0, sizeof(*m));
	m->device = -1;
}

void
tt_hid_device_free(struct tt_hid_device *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->phys);
	free(d->uniq);
	free(d->node);
	free(d->descriptor);
	free(d->evdev_devices);
	for (uint32_t i = 0; i < d->nfeatures; i++)
		free(d->features[i].data);
	free(d->features);
	free(d);
}

void
tt_hid_report_clear(struct tt_hid_report *r)
{
	if (!r)
		return;
	free(r->data);
	memset(r, 0, sizeof(*r));
}

static const char *const marker_names[] = {
	[TT_MARKER_OTHER] = "other",
	[TT_MARKER_START] = "start",
	[TT_MARKER_STOP] = "stop",
	[TT_MARKER_DEVICE_ADDED] = "device-added",
	[TT_MARKER_DEVICE_REMOVED] = "device-removed",
	[TT_MARKER_X_CONNECTED] = "x-connected",
	[TT_MARKER_X_LOST] = "x-lost",
	[TT_MARKER_XI_SELECT_DENIED] = "xi-select-denied",
	[TT_MARKER_NOTE] = "note",
	[TT_MARKER_REPLAY_BEGIN] = "replay-begin",
	[TT_MARKER_REPLAY_END] = "replay-end",
	[TT_MARKER_DROPS] = "drops",
	[TT_MARKER_LI_LOG] = "libinput-log",
	[TT_MARKER_WL_CONNECTED] = "wayland-connected",
	[TT_MARKER_WL_LOST] = "wayland-lost",
	[TT_MARKER_GUIDE_BEGIN] = "guide-begin",
	[TT_MARKER_GUIDE_END] = "guide-end",
};

const char *
tt_marker_kind_name(enum tt_marker_kind kind)
{
	if ((size_t)kind >= ARRAY_LENGTH(marker_names))
		return "other";
	return marker_names[kind];
}

enum tt_marker_kind
tt_marker_kind_from_name(const char *name)
{
	for (size_t i = 1; i < ARRAY_LENGTH(marker_names); i++) {
		if (strcmp(marker_names[i], name) == 0)
			return (enum tt_marker_kind)i;
	}
	return TT_MARKER_OTHER;
}
