/* SPDX-License-Identifier: MIT */
/*
 * The timeline model: plain C structs for every record of a touchtape
 * recording. formats/ turns files into these and these into files; nothing
 * outside formats/ knows the on-disk syntax. formats/timeline.md is the
 * specification of the file; the comments here only say what each field
 * means in memory.
 *
 * All times are int64_t microseconds since the recording started, on
 * CLOCK_MONOTONIC, unless a field says otherwise.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include "bitmap.h"

#define TT_FORMAT_NAME "touchtape-timeline"
#define TT_FORMAT_VERSION 1

/* Bounds the reader enforces, so hostile files cost bounded memory. The
 * writer never produces anything beyond them. */
#define TT_MAX_LINE_BYTES (4u * 1024 * 1024)
#define TT_MAX_STRING_BYTES 4096u
#define TT_MAX_DEVICES 256u
#define TT_MAX_FRAME_EVENTS 65536u
#define TT_MAX_SLOTS 256u
#define TT_MAX_XI_VALUATORS 64u
#define TT_MAX_XI_BUTTONS 256u
#define TT_MAX_XI_CHANGES 256u
#define TT_JSON_MAX_DEPTH 16
/* JSON values on one line, counted before json-c builds its tree (a few
 * hundred bytes per [] or {}): enough for a frame of TT_MAX_FRAME_EVENTS
 * events of 4 numbers, and objects enough for a device's absinfo and 256
 * slots. */
#define TT_MAX_JSON_VALUES (5u * TT_MAX_FRAME_EVENTS + 4096)
#define TT_MAX_JSON_OBJECTS 4096u
/* HID: the kernel's HID_MAX_DESCRIPTOR_SIZE and HID_MAX_BUFFER_SIZE, and
 * at most one feature report per report ID. */
#define TT_MAX_HID_DESCRIPTOR 4096u
#define TT_MAX_HID_REPORT 16384u
#define TT_MAX_HID_FEATURES 256u
/* The device's surroundings: udev properties (an input device has a few
 * dozen), quirk lines, and property names as udev spells them. */
#define TT_MAX_PROPERTIES 256u
#define TT_MAX_QUIRKS 256u
#define TT_MAX_PROPERTY_NAME 128u
/* Times beyond about +-292 years of microseconds are certainly corrupt,
 * and keeping them within +-2^62 lets any two be subtracted safely. */
#define TT_MAX_TIME_US ((int64_t)1 << 62)

/* ABS_MT_TOUCH_MAJOR .. ABS_MT_TOOL_Y: the per-slot axes. */
#define TT_MT_FIRST ABS_MT_TOUCH_MAJOR
#define TT_MT_LAST ABS_MT_TOOL_Y
#define TT_MT_AXES (TT_MT_LAST - TT_MT_FIRST + 1)

/* Whether ABS @code is a per-slot axis (not ABS_MT_SLOT itself). */
static inline bool
tt_is_slot_axis(unsigned int code)
{
	return code >= TT_MT_FIRST && code <= TT_MT_LAST;
}

enum tt_record_type {
	TT_RECORD_HEADER = 1,
	TT_RECORD_DEVICE,	/* an evdev device */
	TT_RECORD_FRAME,	/* one evdev frame */
	TT_RECORD_XI_DEVICE,	/* an XInput 2 device */
	TT_RECORD_XI_EVENT,	/* one XInput 2 event (or a request we sent) */
	TT_RECORD_MARKER,
	TT_RECORD_HID_DEVICE,	/* a HID device (hidraw or a hid-recorder file) */
	TT_RECORD_HID_REPORT,	/* one HID input report as read */
	TT_RECORD_LI_DEVICE,	/* libinput's view of an evdev device */
	TT_RECORD_LI_EVENT,	/* one libinput event */
	TT_RECORD_WL_EVENT,	/* one event a Wayland client received */
	TT_RECORD_TYPES,	/* how many: a new type goes above, and its
				 * layer in lib/model/record-layers.c */
};

struct tt_header {
	int version;		/* TT_FORMAT_VERSION of the writer */
	char *tool;		/* "touchtape 0.1.0" or the converter's name */
	char *kernel;		/* uname -r of the recording host, may be NULL */
	char *x_vendor;		/* X server vendor string, NULL when no X */
	int32_t x_release;	/* X server vendor release, 0 when no X */
	int64_t start_monotonic_us;	/* CLOCK_MONOTONIC at time 0 */
	int64_t start_realtime_us;	/* CLOCK_REALTIME at time 0 */
	bool keycodes_masked;	/* keyboard codes were masked for privacy */
	char *source_format;	/* set when converted: "evemu", "libinput-record" */

	/* The recording host's surroundings ("system" in the file); each
	 * NULL when not known. Never the hostname. */
	char *dmi_modalias;	/* /sys/class/dmi/id/modalias */
	char *os_id;		/* os-release ID and VERSION_ID */
	char *os_version_id;
	char *libinput_version;	/* the versions in use (touchtape's build) */
	char *libevdev_version;
};

/* A udev property or an hwdb override: NAME=value as udev reports it.
 * Names are 1..TT_MAX_PROPERTY_NAME bytes of [A-Za-z0-9_.-]
 * (tt_property_name_is_valid()), values sanitized like device names. */
struct tt_property {
	char *name;
	char *value;
};

struct tt_absinfo {
	int32_t value;
	int32_t minimum;
	int32_t maximum;
	int32_t fuzz;
	int32_t flat;
	int32_t resolution;
};

enum tt_mt_protocol {
	TT_MT_NONE = 0,
	TT_MT_A,		/* SYN_MT_REPORT separated contacts */
	TT_MT_B,		/* slots */
};

struct tt_slot_state {
	/* values[code - TT_MT_FIRST] for every ABS_MT_* axis the device has;
	 * ABS_MT_TRACKING_ID is -1 for an empty slot. */
	int32_t values[TT_MT_AXES];
};

struct tt_device {
	uint32_t id;		/* the file's device id, referenced by frames */
	char *name;		/* sanitized: no control characters, valid UTF-8 */
	char *node;		/* /dev/input/eventN on the recording host, or NULL */
	char *phys;
	char *uniq;
	uint16_t bustype;
	uint16_t vendor;
	uint16_t product;
	uint16_t version;
	uint32_t driver_version;

	uint8_t props[TT_BITMAP_BYTES(INPUT_PROP_CNT)];
	uint8_t types[TT_BITMAP_BYTES(EV_CNT)];
	uint8_t codes[EV_CNT][TT_BITMAP_BYTES(KEY_CNT)];
	struct tt_absinfo abs[ABS_CNT];	/* meaningful where codes[EV_ABS] has the bit */
	int32_t rep_delay;	/* EV_REP, when the device has it */
	int32_t rep_period;

	enum tt_mt_protocol mt_protocol;
	uint32_t num_slots;	/* Type B only: ABS_MT_SLOT maximum + 1 */
	int32_t current_slot;
	struct tt_slot_state *slots;	/* num_slots entries, state at time 0 */

	/* State at time 0. */
	uint8_t keys_down[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t leds_on[TT_BITMAP_BYTES(LED_CNT)];
	uint8_t switches_on[TT_BITMAP_BYTES(SW_CNT)];

	bool grabbed_by_other;	/* another client held EVIOCGRAB at start */

	/* The device's surroundings (formats/timeline.md, "Surroundings"):
	 * what the system said of it. Each NULL / absent when not known. */
	char *syspath;		/* sysfs path of the event node's device */
	char *driver;		/* driver of the nearest parent that has one */
	bool has_udev;		/* the udev properties were read (maybe none) */
	uint32_t nudev;
	struct tt_property *udev;	/* every property, in udev's order */
	uint32_t nhwdb;
	struct tt_property *hwdb;	/* those of udev that hwdb set (copies) */
	bool has_quirks;	/* libinput's quirks were asked for */
	uint32_t nquirks;
	char **quirks;		/* `libinput quirks list` lines, "Name=value" */
};

enum tt_frame_flags {
	TT_FRAME_DROPPED = 1 << 0,	/* holds the kernel's SYN_DROPPED */
	TT_FRAME_RESYNC = 1 << 1,	/* synthesized by the recorder after a drop */
	TT_FRAME_INCOMPLETE = 1 << 2,	/* ended without SYN_REPORT (device gone) */
};

struct tt_event {
	uint16_t type;
	uint16_t code;
	int32_t value;
	/* This event's kernel time minus its frame's; almost always 0. */
	int32_t dt_us;
};

struct tt_frame {
	uint32_t device;
	int64_t time_us;	/* kernel time of the frame's last event */
	uint32_t flags;		/* enum tt_frame_flags */
	uint32_t nevents;
	struct tt_event *events;
};

enum tt_xi_touch_mode {
	TT_XI_TOUCH_NONE = 0,
	TT_XI_TOUCH_DIRECT,
	TT_XI_TOUCH_DEPENDENT,
};

struct tt_xi_valuator {
	int32_t number;
	char *label;		/* atom name, e.g. "Abs MT Position X", may be NULL */
	double min;
	double max;
	double value;
	int32_t resolution;
	int32_t mode;		/* XIModeRelative 0 / XIModeAbsolute 1 */
};

struct tt_xi_device {
	uint32_t id;		/* the file's record id */
	int32_t deviceid;	/* X device id */
	char *name;
	int32_t use;		/* XIMasterPointer .. XIFloatingSlave */
	int32_t attachment;
	bool enabled;
	enum tt_xi_touch_mode touch_mode;
	int32_t num_touches;
	int32_t num_buttons;
	uint32_t nvaluators;
	struct tt_xi_valuator *valuators;
	char *device_node;	/* "Device Node" property, or NULL */
	int64_t evdev_device;	/* record id of the linked evdev device, -1 */
};

/* The kind of an XI record: the XI2 event type numbers (XI_TouchBegin
 * and so on) where the record is an event, and values above XI_LASTEVENT
 * for the requests the recorder itself sent, so one ordered stream holds
 * both. */
enum tt_xi_request {
	TT_XI_REQ_ACCEPT = 1000,	/* XIAllowTouchEvents(XIAcceptTouch) */
	TT_XI_REQ_REJECT,		/* XIAllowTouchEvents(XIRejectTouch) */
	/* The pointer client's requests (record --xi-pointer-grab): detail
	 * is XIGrabDevice's grab_mode or XIAllowEvents' event_mode. */
	TT_XI_REQ_GRAB_DEVICE,		/* XIGrabDevice */
	TT_XI_REQ_UNGRAB_DEVICE,	/* XIUngrabDevice */
	TT_XI_REQ_ALLOW_EVENTS,		/* XIAllowEvents */
};

struct tt_xi_change {
	int32_t deviceid;
	int32_t attachment;
	int32_t use;
	bool enabled;
	uint32_t flags;
};

struct tt_xi_event {
	int64_t time_us;	/* recorder's receive time */
	uint32_t server_time;	/* X server time, ms, wraps */
	int32_t evtype;		/* XI_* or enum tt_xi_request */
	char *client;		/* which recorder client got it: "observer",
				   "grab" (or "grab1", "grab2"... in a chain),
				   "window", "pointer"; may be NULL */
	int32_t deviceid;
	int32_t sourceid;
	uint32_t detail;	/* touch id for touch events */
	uint32_t flags;		/* XITouchPendingEnd, XITouchEmulatingPointer, ... */
	double root_x, root_y, event_x, event_y;
	uint32_t root, event, child;	/* windows */
	/* valuators: mask bit i set -> values[k] for the k-th set bit */
	uint32_t nvaluators;
	int32_t *valuator_numbers;
	double *valuator_values;
	double *raw_values;	/* RawTouch*: unaccelerated values, same order */
	uint32_t nbuttons;
	int32_t *buttons;	/* buttons held, as numbers */
	int32_t mods_base, mods_latched, mods_locked, mods_effective;
	int32_t group_base, group_latched, group_locked, group_effective;
	/* TouchOwnership */
	uint32_t touchid;
	/* HierarchyChanged / DeviceChanged */
	int32_t reason;
	uint32_t nchanges;
	struct tt_xi_change *changes;
};

enum tt_marker_kind {
	TT_MARKER_OTHER = 0,	/* an unknown kind from a newer writer */
	TT_MARKER_START,
	TT_MARKER_STOP,
	TT_MARKER_DEVICE_ADDED,
	TT_MARKER_DEVICE_REMOVED,
	TT_MARKER_X_CONNECTED,
	TT_MARKER_X_LOST,
	TT_MARKER_XI_SELECT_DENIED,
	TT_MARKER_NOTE,
	TT_MARKER_REPLAY_BEGIN,
	TT_MARKER_REPLAY_END,
	TT_MARKER_DROPS,
	TT_MARKER_LI_LOG,	/* a message libinput logged (a kernel or client bug) */
	TT_MARKER_WL_CONNECTED,	/* the Wayland client is connected and mapped */
	TT_MARKER_WL_LOST,	/* the compositor went away or sent an error */
	TT_MARKER_GUIDE_BEGIN,	/* record --guide: an exercise begins (text: which) */
	TT_MARKER_GUIDE_END,	/* record --guide: it ends */
};

struct tt_marker {
	int64_t time_us;
	enum tt_marker_kind kind;
	char *kind_name;	/* as written, also for TT_MARKER_OTHER */
	int64_t device;		/* device record id, or -1 */
	char *text;		/* free text, may be NULL */
};

/* A feature report read with HIDIOCGFEATURE when recording started (the
 * driver asks for some of them when it binds, e.g. Contact Count Maximum),
 * or the error the device answered with. */
struct tt_hid_feature {
	uint8_t report_id;
	int32_t error;		/* 0, or the negative errno the read failed with */
	uint32_t len;		/* 0 when error */
	uint8_t *data;		/* as the kernel returned it: the report ID byte
				   first, as HIDIOCGFEATURE returns it */
};

/* A HID device: what hidraw (or a hid-recorder file) says of it, enough to
 * recreate it through uhid (UHID_CREATE2). */
struct tt_hid_device {
	uint32_t id;		/* the file's HID device id, referenced by reports;
				   its own id space, apart from evdev device ids */
	char *name;		/* sanitized like tt_device.name */
	char *phys;
	char *uniq;
	char *node;		/* /dev/hidrawN on the recording host, or NULL */
	uint16_t bus;		/* BUS_USB, BUS_I2C, ... (linux/input.h) */
	uint32_t vendor;
	uint32_t product;
	uint32_t version;
	uint32_t country;
	uint32_t descriptor_len;	/* 1..TT_MAX_HID_DESCRIPTOR */
	uint8_t *descriptor;	/* the report descriptor, as HIDIOCGRDESC gave it */
	uint32_t nevdev;
	uint32_t *evdev_devices;	/* evdev device record ids it produced */
	uint32_t nfeatures;
	struct tt_hid_feature *features;
};

/* One HID input report, bytes as read from hidraw (report ID byte first
 * when the descriptor numbers its reports). */
struct tt_hid_report {
	uint32_t device;	/* tt_hid_device.id */
	int64_t time_us;	/* when the recorder read it */
	uint32_t len;		/* 1..TT_MAX_HID_REPORT */
	uint8_t *data;
};

/* libinput's view of one evdev device: what a compositor using libinput
 * with this configuration would see. Mirrors libinput's API without
 * including libinput.h (lib/ stays free of it). */
enum tt_li_capability {
	TT_LI_CAP_KEYBOARD = 1 << 0,
	TT_LI_CAP_POINTER = 1 << 1,
	TT_LI_CAP_TOUCH = 1 << 2,
	TT_LI_CAP_TABLET_TOOL = 1 << 3,
	TT_LI_CAP_TABLET_PAD = 1 << 4,
	TT_LI_CAP_GESTURE = 1 << 5,
	TT_LI_CAP_SWITCH = 1 << 6,
};

/* One configuration setting in effect, as the --libinput-config syntax
 * spells it ("tap" = "on", "accel-speed" = "0.25"), so a recorded
 * configuration can be handed back to --libinput-config unchanged. */
struct tt_li_setting {
	char *name;
	char *value;
};

#define TT_MAX_LI_SETTINGS 64u

struct tt_li_device {
	uint32_t device;	/* the evdev device record (tt_device.id) */
	char *sysname;		/* "event5" */
	char *name;		/* libinput's device name, sanitized */
	uint32_t capabilities;	/* enum tt_li_capability */
	bool has_size;
	double width_mm, height_mm;	/* libinput_device_get_size() */
	int32_t tap_fingers;	/* libinput_device_config_tap_get_finger_count() */
	/* Settings this device supports, with the value in effect; settings
	 * that do not apply to it are absent. */
	uint32_t nsettings;
	struct tt_li_setting *settings;
};

/* libinput's event types, by the names libinput debug-events prints
 * (TOUCH_DOWN, GESTURE_SWIPE_BEGIN, ...). The legacy POINTER_AXIS is not
 * recorded: its three POINTER_SCROLL_* successors carry the same. */
enum tt_li_event_type {
	TT_LI_OTHER = 0,	/* a name this touchtape does not know */
	TT_LI_DEVICE_ADDED,
	TT_LI_DEVICE_REMOVED,
	TT_LI_KEYBOARD_KEY,
	TT_LI_POINTER_MOTION,
	TT_LI_POINTER_MOTION_ABSOLUTE,
	TT_LI_POINTER_BUTTON,
	TT_LI_POINTER_SCROLL_WHEEL,
	TT_LI_POINTER_SCROLL_FINGER,
	TT_LI_POINTER_SCROLL_CONTINUOUS,
	TT_LI_TOUCH_DOWN,
	TT_LI_TOUCH_UP,
	TT_LI_TOUCH_MOTION,
	TT_LI_TOUCH_CANCEL,
	TT_LI_TOUCH_FRAME,
	TT_LI_TABLET_TOOL_AXIS,
	TT_LI_TABLET_TOOL_PROXIMITY,
	TT_LI_TABLET_TOOL_TIP,
	TT_LI_TABLET_TOOL_BUTTON,
	TT_LI_TABLET_PAD_BUTTON,
	TT_LI_TABLET_PAD_RING,
	TT_LI_TABLET_PAD_STRIP,
	TT_LI_GESTURE_SWIPE_BEGIN,
	TT_LI_GESTURE_SWIPE_UPDATE,
	TT_LI_GESTURE_SWIPE_END,
	TT_LI_GESTURE_PINCH_BEGIN,
	TT_LI_GESTURE_PINCH_UPDATE,
	TT_LI_GESTURE_PINCH_END,
	TT_LI_GESTURE_HOLD_BEGIN,
	TT_LI_GESTURE_HOLD_END,
	TT_LI_SWITCH_TOGGLE,
};

/* Which of an event's fields its type has (libinput/li-names.c maps types to
 * these); the reader and writer read and write only those. */
enum tt_li_event_class {
	TT_LI_CLASS_DEVICE,	/* no fields beyond time and device */
	TT_LI_CLASS_KEY,	/* key, pressed */
	TT_LI_CLASS_MOTION,	/* dx/dy, unaccelerated dx/dy */
	TT_LI_CLASS_ABSOLUTE,	/* x/y (mm), x/y normalized */
	TT_LI_CLASS_BUTTON,	/* button, pressed, seat_count */
	TT_LI_CLASS_SCROLL,	/* scroll and v120 per axis */
	TT_LI_CLASS_TOUCH,	/* slot, seat_slot, and x/y on down and motion */
	TT_LI_CLASS_TOUCH_FRAME,
	TT_LI_CLASS_TABLET,	/* tool, axes, proximity/tip/button */
	TT_LI_CLASS_PAD,	/* number (button, ring, strip), pressed, position */
	TT_LI_CLASS_GESTURE,	/* fingers, deltas, scale, angle, cancelled */
	TT_LI_CLASS_SWITCH,	/* number (switch), pressed (on) */
};

/* enum libinput_tablet_tool_type */
enum tt_li_tool_type {
	TT_LI_TOOL_NONE = 0,
	TT_LI_TOOL_PEN,
	TT_LI_TOOL_ERASER,
	TT_LI_TOOL_BRUSH,
	TT_LI_TOOL_PENCIL,
	TT_LI_TOOL_AIRBRUSH,
	TT_LI_TOOL_MOUSE,
	TT_LI_TOOL_LENS,
	TT_LI_TOOL_TOTEM,
};

/* Tablet axes a tool has (tt_li_event.tablet_axes). x/y always. */
enum tt_li_tablet_axis {
	TT_LI_AXIS_PRESSURE = 1 << 0,
	TT_LI_AXIS_DISTANCE = 1 << 1,
	TT_LI_AXIS_TILT = 1 << 2,
	TT_LI_AXIS_ROTATION = 1 << 3,
	TT_LI_AXIS_SLIDER = 1 << 4,
	TT_LI_AXIS_WHEEL = 1 << 5,
};

struct tt_li_event {
	int64_t time_us;	/* libinput's event time, same clock and origin as frames */
	enum tt_li_event_type kind;
	char *kind_name;	/* as written; kept for TT_LI_OTHER */
	uint32_t device;	/* the evdev device record (tt_device.id) */

	/* TOUCH: libinput's slot (-1 on single-touch devices) and seat slot */
	int32_t slot;
	int32_t seat_slot;
	/* TOUCH down/motion, POINTER_MOTION_ABSOLUTE, TABLET: position in mm,
	 * and normalized to 0..1 over the device (the _transformed
	 * coordinates with a size of 1) */
	double x, y;
	double x_norm, y_norm;
	/* POINTER_MOTION, GESTURE *_UPDATE: accelerated and unaccelerated */
	double dx, dy;
	double dx_unaccel, dy_unaccel;
	/* KEY, POINTER_BUTTON, TABLET_TOOL_BUTTON, PAD_BUTTON: the code;
	 * SWITCH: the switch (1 lid, 2 tablet mode); PAD ring/strip: its number */
	uint32_t code;
	/* key/button pressed, tip down, proximity in, switch on */
	bool pressed;
	uint32_t seat_count;	/* seat-wide count of the key/button held */
	/* SCROLL: the axes present; a present 0 ends a finger scroll */
	bool has_vert, has_horiz;
	double vert, horiz;		/* libinput_event_pointer_get_scroll_value */
	double vert_v120, horiz_v120;	/* SCROLL_WHEEL only */
	/* GESTURE */
	int32_t fingers;
	double scale;		/* PINCH */
	double angle;		/* PINCH: angle delta, degrees */
	bool cancelled;		/* *_END */
	/* TABLET (also PAD ring/strip use position) */
	enum tt_li_tool_type tool;
	uint64_t tool_serial;
	uint32_t tablet_axes;	/* enum tt_li_tablet_axis: which below are valid */
	double pressure, distance;
	double tilt_x, tilt_y;
	double rotation, slider, wheel;
	double position;	/* PAD ring (degrees) / strip (0..1), -1 when lifted */
};

/* ---- The Wayland layer ----
 * One event a Wayland client received from the compositor, as the
 * protocol names it (interface and event) with the event's arguments.
 * Mirrors the protocols without including any wayland header (lib/ stays
 * free of them). Object ids are the client's own protocol ids, as
 * WAYLAND_DEBUG prints them (wl_touch@12). */

/* The events touchtape knows by name; others are kept by their names
 * (TT_WL_OTHER) with whatever fields they carry. */
enum tt_wl_event_type {
	TT_WL_OTHER = 0,
	TT_WL_TOUCH_DOWN,
	TT_WL_TOUCH_UP,
	TT_WL_TOUCH_MOTION,
	TT_WL_TOUCH_FRAME,
	TT_WL_TOUCH_CANCEL,
	TT_WL_TOUCH_SHAPE,
	TT_WL_TOUCH_ORIENTATION,
	TT_WL_POINTER_ENTER,
	TT_WL_POINTER_LEAVE,
	TT_WL_POINTER_MOTION,
	TT_WL_POINTER_BUTTON,
	TT_WL_POINTER_AXIS,
	TT_WL_POINTER_FRAME,
	TT_WL_POINTER_AXIS_SOURCE,
	TT_WL_POINTER_AXIS_STOP,
	TT_WL_POINTER_AXIS_DISCRETE,
	TT_WL_POINTER_AXIS_VALUE120,
	TT_WL_POINTER_AXIS_RELATIVE_DIRECTION,
	TT_WL_SWIPE_BEGIN,		/* zwp_pointer_gesture_swipe_v1 */
	TT_WL_SWIPE_UPDATE,
	TT_WL_SWIPE_END,
	TT_WL_PINCH_BEGIN,		/* zwp_pointer_gesture_pinch_v1 */
	TT_WL_PINCH_UPDATE,
	TT_WL_PINCH_END,
	TT_WL_HOLD_BEGIN,		/* zwp_pointer_gesture_hold_v1 */
	TT_WL_HOLD_END,
	TT_WL_SEAT_CAPABILITIES,
	TT_WL_SEAT_NAME,
	TT_WL_OUTPUT_GEOMETRY,
	TT_WL_OUTPUT_MODE,
	TT_WL_OUTPUT_DONE,
	TT_WL_OUTPUT_SCALE,
	TT_WL_OUTPUT_NAME,
	TT_WL_OUTPUT_DESCRIPTION,
	TT_WL_TOPLEVEL_CONFIGURE,	/* xdg_toplevel: the surface's size */
	TT_WL_TOPLEVEL_CLOSE,
	TT_WL_LAYER_CONFIGURE,		/* zwlr_layer_surface_v1: the overlay's size */
	TT_WL_LAYER_CLOSED,
};

/* wl_seat capabilities, the protocol's bits. */
enum tt_wl_capability {
	TT_WL_CAP_POINTER = 1 << 0,
	TT_WL_CAP_KEYBOARD = 1 << 1,
	TT_WL_CAP_TOUCH = 1 << 2,
};

/* Which of tt_wl_event's fields the event has: the writer writes those,
 * the reader sets the bits of the keys it found. */
enum tt_wl_field {
	TT_WL_F_TIME_MS = 1 << 0,	/* time_ms */
	TT_WL_F_TIME_COMPOSITOR_US = 1 << 1,	/* time_compositor_us */
	TT_WL_F_SERIAL = 1 << 2,
	TT_WL_F_SURFACE = 1 << 3,
	TT_WL_F_ID = 1 << 4,		/* touch id */
	TT_WL_F_XY = 1 << 5,		/* x, y */
	TT_WL_F_SHAPE = 1 << 6,		/* major, minor */
	TT_WL_F_ORIENTATION = 1 << 7,
	TT_WL_F_BUTTON = 1 << 8,	/* button, pressed */
	TT_WL_F_AXIS = 1 << 9,
	TT_WL_F_VALUE = 1 << 10,	/* axis value (double) */
	TT_WL_F_STEPS = 1 << 11,	/* axis_discrete, axis_value120, axis_source,
					   axis_relative_direction: the integer argument */
	TT_WL_F_FINGERS = 1 << 12,
	TT_WL_F_DELTA = 1 << 13,	/* dx, dy */
	TT_WL_F_SCALE = 1 << 14,	/* pinch scale, or output scale factor */
	TT_WL_F_ROTATION = 1 << 15,
	TT_WL_F_CANCELLED = 1 << 16,
	TT_WL_F_CAPABILITIES = 1 << 17,
	TT_WL_F_NAME = 1 << 18,		/* seat/output name or output description */
	TT_WL_F_POSITION = 1 << 19,	/* output geometry x, y */
	TT_WL_F_SIZE = 1 << 20,		/* width, height: output mode, toplevel */
	TT_WL_F_SIZE_MM = 1 << 21,	/* output geometry physical size */
	TT_WL_F_MAKE_MODEL = 1 << 22,	/* output geometry make, model */
	TT_WL_F_SUBPIXEL = 1 << 23,
	TT_WL_F_TRANSFORM = 1 << 24,
	TT_WL_F_MODE_FLAGS = 1 << 25,	/* output mode flags (1 current, 2 preferred) */
	TT_WL_F_REFRESH = 1 << 26,	/* output mode refresh, mHz */
};

struct tt_wl_event {
	int64_t time_us;	/* recorder's receive time, the frames' clock */
	char *client;		/* the recorder client that got it: "wayland" */
	enum tt_wl_event_type kind;
	char *interface;	/* as written; kept for TT_WL_OTHER ("wl_touch") */
	char *event;		/* as written; kept for TT_WL_OTHER ("down") */
	uint32_t object;	/* the receiving object's protocol id, 0 unknown */
	uint32_t fields;	/* enum tt_wl_field: which below are set */

	uint32_t time_ms;	/* the compositor's timestamp, ms, wraps */
	/* zwp_input_timestamps_v1: the compositor's µs timestamp of the same
	 * event, on the compositor's presentation clock (CLOCK_MONOTONIC with
	 * Weston's DRM backend), not relative to the recording's start */
	int64_t time_compositor_us;
	uint32_t serial;
	uint32_t surface;	/* object id of the surface entered/touched */
	int32_t id;		/* wl_touch id */
	double x, y;		/* surface coordinates (wl_fixed_t as double) */
	double major, minor;	/* touch shape */
	double orientation;	/* touch orientation, degrees */
	uint32_t button;	/* BTN_* code */
	bool pressed;		/* button state */
	uint32_t axis;		/* 0 vertical, 1 horizontal */
	double value;		/* axis value */
	int32_t steps;		/* discrete steps, v120, axis source or direction */
	uint32_t fingers;
	double dx, dy;		/* gesture deltas */
	double scale;		/* pinch scale; output scale factor */
	double rotation;	/* pinch rotation delta, degrees */
	bool cancelled;		/* gesture end */
	uint32_t capabilities;	/* enum tt_wl_capability */
	char *name;		/* seat/output name, output description */
	int32_t pos_x, pos_y;	/* output position in the compositor space */
	int32_t width, height;	/* output mode pixels, toplevel size */
	int32_t width_mm, height_mm;
	char *make;
	char *model;
	int32_t subpixel;
	int32_t transform;	/* wl_output_transform */
	uint32_t mode_flags;
	int32_t refresh_mhz;
};

void tt_wl_event_clear(struct tt_wl_event *ev);
/* Wayland names (wayland/wl-names.c): a kind's interface and event. */
const char *tt_wl_interface_name(enum tt_wl_event_type kind);
const char *tt_wl_event_name(enum tt_wl_event_type kind);
enum tt_wl_event_type tt_wl_event_from_names(const char *interface, const char *event);
/* "pointer", "keyboard", "touch": the name of a single capability bit. */
const char *tt_wl_capability_name(enum tt_wl_capability cap);

/* One record as the reader hands it out. The pointers stay valid until
 * the next call to the reader, except devices, which live as long as the
 * reader (look them up with tt_reader_device()). */
struct tt_record {
	enum tt_record_type type;
	size_t line;		/* 1-based line in the source file */
	union {
		const struct tt_header *header;
		const struct tt_device *device;
		const struct tt_frame *frame;
		const struct tt_xi_device *xi_device;
		const struct tt_xi_event *xi_event;
		const struct tt_marker *marker;
		const struct tt_hid_device *hid_device;
		const struct tt_hid_report *hid_report;
		const struct tt_li_device *li_device;
		const struct tt_li_event *li_event;
		const struct tt_wl_event *wl_event;
	};
};

/* The time a record is about: false for records without one (the
 * header, devices). */
static inline bool
tt_record_time(const struct tt_record *rec, int64_t *t)
{
	switch (rec->type) {
	case TT_RECORD_FRAME: *t = rec->frame->time_us; return true;
	case TT_RECORD_XI_EVENT: *t = rec->xi_event->time_us; return true;
	case TT_RECORD_MARKER: *t = rec->marker->time_us; return true;
	case TT_RECORD_HID_REPORT: *t = rec->hid_report->time_us; return true;
	case TT_RECORD_LI_EVENT: *t = rec->li_event->time_us; return true;
	case TT_RECORD_WL_EVENT: *t = rec->wl_event->time_us; return true;
	default: return false;
	}
}

/* Device helpers (lib/model/device.c). */
struct tt_device *tt_device_new(uint32_t id);
void tt_device_free(struct tt_device *dev);
int tt_device_set_slots(struct tt_device *dev, uint32_t num_slots);
bool tt_device_has(const struct tt_device *dev, unsigned int type, unsigned int code);
void tt_device_enable(struct tt_device *dev, unsigned int type, unsigned int code);
/* True when the device is a touchscreen, touchpad or tablet touch sensor. */
bool tt_device_is_touch(const struct tt_device *dev);
/* True when the device has keys that type text (not just buttons). */
bool tt_device_has_typing_keys(const struct tt_device *dev);

/* Surroundings helpers (lib/model/surroundings.c). */
bool tt_property_name_is_valid(const char *name);
/* True for properties that hold a serial number (ID_SERIAL, ID_*_SERIAL*,
 * ...), which record leaves out unless asked. */
bool tt_property_is_serial(const char *name);
/* Adds NAME=value to a list (a name already there gets the new value);
 * the value is sanitized. -EINVAL for a bad name, -E2BIG when the list
 * holds TT_MAX_PROPERTIES already. */
int tt_properties_add(struct tt_property **list, uint32_t *n, const char *name, const char *value);
const char *tt_properties_get(const struct tt_property *list, uint32_t n, const char *name);
void tt_properties_free(struct tt_property *list, uint32_t n);
/* Appends a quirk line (sanitized); -E2BIG past TT_MAX_QUIRKS. */
int tt_device_add_quirk(struct tt_device *dev, const char *line);
/* Fills dev->hwdb from dev->udev: the properties that only hwdb entries
 * set (formats/timeline.md says which). */
void tt_device_find_hwdb(struct tt_device *dev);
/* Copies @src's surroundings into @dst, overwriting (not freeing) what
 * @dst's fields held: for a shallow copy of a device that is to own its
 * own. */
void tt_device_copy_surroundings(struct tt_device *dst, const struct tt_device *src);
/* True when @dev / @h hold any surroundings ("system" for a header). */
bool tt_device_has_surroundings(const struct tt_device *dev);
bool tt_header_has_system(const struct tt_header *h);
/* Frees and clears every surroundings field of @dev. */
void tt_device_clear_surroundings(struct tt_device *dev);

void tt_header_clear(struct tt_header *h);
void tt_xi_device_free(struct tt_xi_device *d);
void tt_xi_event_clear(struct tt_xi_event *ev);
void tt_marker_clear(struct tt_marker *m);
void tt_hid_device_free(struct tt_hid_device *d);
void tt_hid_report_clear(struct tt_hid_report *r);

void tt_li_device_free(struct tt_li_device *d);
void tt_li_event_clear(struct tt_li_event *ev);
/* A value the setting @name has on @d, or NULL. */
const char *tt_li_device_setting(const struct tt_li_device *d, const char *name);

/* libinput names (libinput/li-names.c). */
const char *tt_li_event_name(enum tt_li_event_type kind);
enum tt_li_event_type tt_li_event_from_name(const char *name);
enum tt_li_event_class tt_li_event_class(enum tt_li_event_type kind);
const char *tt_li_tool_name(enum tt_li_tool_type tool);
enum tt_li_tool_type tt_li_tool_from_name(const char *name);
/* "keyboard", "pointer", ...: the name of a single capability bit. */
const char *tt_li_capability_name(enum tt_li_capability cap);

const char *tt_marker_kind_name(enum tt_marker_kind kind);
enum tt_marker_kind tt_marker_kind_from_name(const char *name);
