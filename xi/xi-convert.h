/* SPDX-License-Identifier: MIT */
/*
 * XInput 2 structs (as libXi hands them out) to timeline records. Pure:
 * no X connection, so tests feed hand-built structs. The X server is
 * trusted no more than a file: masks are bounded (TT_MAX_XI_VALUATORS,
 * TT_MAX_XI_BUTTONS, TT_MAX_XI_CHANGES), strings sanitized.
 *
 * Every tt_xi_convert_* event function fills @out from scratch (anything
 * in it before is overwritten, not freed); the caller frees it with
 * tt_xi_event_clear(). @time_us is the receive time the record gets,
 * @client the recorder client that received the event ("observer",
 * "grab" or "grab1", "grab2"..., "window", "pointer"; copied, may be NULL).
 */
#pragma once

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

#include "timeline.h"

void tt_xi_convert_device_event(const XIDeviceEvent *ev, int64_t time_us, const char *client,
				struct tt_xi_event *out);
void tt_xi_convert_raw_event(const XIRawEvent *ev, int64_t time_us, const char *client,
			     struct tt_xi_event *out);
void tt_xi_convert_ownership(const XITouchOwnershipEvent *ev, int64_t time_us, const char *client,
			     struct tt_xi_event *out);
void tt_xi_convert_hierarchy(const XIHierarchyEvent *ev, int64_t time_us, const char *client,
			     struct tt_xi_event *out);
/* No changes list: deviceid, sourceid and reason (XISlaveSwitch,
 * XIDeviceChange) say what changed; the recorder writes the device's new
 * description as an xi_device record. */
void tt_xi_convert_device_changed(const XIDeviceChangedEvent *ev, int64_t time_us,
				  const char *client, struct tt_xi_event *out);

/* Any of the above from the data of a GenericEvent cookie of the XI
 * extension (@evtype = cookie->evtype, @data = cookie->data). 0, or
 * -ENOTSUP for an event type the timeline has no record for. */
int tt_xi_convert_cookie(int evtype, const void *data, int64_t time_us, const char *client,
			 struct tt_xi_event *out);

/* The recorder's own XIAllowTouchEvents request, as a record:
 * @accept true for XIAcceptTouch, false for XIRejectTouch. */
void tt_xi_convert_request(bool accept, int32_t deviceid, uint32_t touchid, uint32_t window,
			   int64_t time_us, const char *client, struct tt_xi_event *out);

/* The pointer client's own request (@evtype TT_XI_REQ_GRAB_DEVICE,
 * TT_XI_REQ_UNGRAB_DEVICE or TT_XI_REQ_ALLOW_EVENTS) on the master
 * pointer @deviceid: @mode is XIGrabDevice's grab_mode or XIAllowEvents'
 * event_mode, @window the grab window. */
void tt_xi_convert_pointer_request(int32_t evtype, int32_t deviceid, uint32_t mode, uint32_t window,
				   int64_t time_us, const char *client, struct tt_xi_event *out);

/* Names an atom (a valuator label): a malloc'd string or NULL. The
 * recorder passes XGetAtomName; tests a table. */
typedef char *(*tt_xi_atom_name_fn)(void *data, Atom atom);

/* A device from XIQueryDevice. @device_node is the "Device Node" property
 * (tt_xi_device_node() of it; may be NULL), @evdev_device the record id of
 * the evdev device it links to, or -1. Returns a new device (free it with
 * tt_xi_device_free()). */
struct tt_xi_device *tt_xi_convert_device_info(const XIDeviceInfo *info, tt_xi_atom_name_fn atom_name,
					       void *atom_data, const char *device_node,
					       int64_t evdev_device);

/* The "Device Node" property value as XIGetProperty returned it: a
 * sanitized, malloc'd string, or NULL when it is not an 8-bit string. */
char *tt_xi_device_node(Atom type, int format, unsigned long nitems, const unsigned char *data);
