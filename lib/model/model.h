/* SPDX-License-Identifier: MIT */
/*
 * The touch-sequence model: records in, touch sequences out. Shared by
 * `analyze`, `diff` and the inspector; knows nothing of curses or JSON.
 *
 * Feed every record in file order with tt_model_feed(). The model keeps the
 * slot state of each evdev device and the active XI touch sequences, and
 * calls back:
 *
 *   kernel_begin / kernel_update / kernel_end: a kernel touch sequence
 *     (device, slot, tracking ID). Type B slots are followed directly;
 *     Type A contacts (between SYN_MT_REPORTs) are paired across frames by
 *     ABS_MT_TRACKING_ID when the device sends it, else by nearest
 *     position; single-touch devices (BTN_TOUCH + ABS_X/Y) give one
 *     sequence per BTN_TOUCH press.
 *   frame: after each evdev frame, with the number of active touches.
 *   xi_begin / xi_update / xi_end: an XI touch sequence as one client saw
 *     it (device, touch id, client; raw sequences separately), with the
 *     ownership state machine of that (touch, client).
 *   link: a kernel touch paired with the XI touch it became (or not).
 *   hid_begin / hid_update / hid_end: a HID contact sequence (HID device,
 *     application collection, Contact Identifier; a pen's tip down to tip
 *     up), assembled from the reports as hid-multitouch assembles them
 *     (model-hid.c: Contact Count, hybrid-mode frames), and paired with
 *     the kernel touch it became on one of the evdev devices its
 *     hid_device record lists. hid_state: its In Range or Confidence
 *     changed while its tip stayed down.
 *   hid_report: after each HID report, with what the frame assembly
 *     made of it.
 *   hid_frame: a HID report paired with the evdev frame it produced.
 *
 * Memory is bounded by the number of concurrent touches: a sequence lives
 * from its begin to its end callback (plus the link window, when linking
 * is on, so the end callback can carry the link) and is freed after the
 * end callback returns. Nothing is kept of the history: a consumer that
 * wants an index records what it needs in the update callbacks, which
 * see every change with its time, line, device, slot and values.
 *
 * Pointers handed to callbacks are valid during the callback only, except
 * struct tt_ktouch, struct tt_xtouch and struct tt_htouch, which stay valid
 * from begin to end (a consumer may hang its own data on ->user).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "util-mem.h"

/* Indexes into tt_ktouch.values: the ABS_MT_* axes. */
#define TT_AXIS(code) ((code) - TT_MT_FIRST)
#define TT_AXIS_BIT(code) (1u << TT_AXIS(code))

enum tt_ktouch_flags {
	TT_KTOUCH_BEFORE_START = 1 << 0,	/* already down in the device's state at time 0 */
	TT_KTOUCH_ACTIVE_AT_END = 1 << 1,	/* still down at the end of the recording */
	TT_KTOUCH_SYNTHETIC_ID = 1 << 2,	/* Type A or single touch: the model numbered it */
	TT_KTOUCH_REPLACED = 1 << 3,		/* ended by a new tracking ID without a release */
	TT_KTOUCH_CUT_BY_DROP = 1 << 4,		/* ended or begun across a SYN_DROPPED */
	TT_KTOUCH_DEVICE_GONE = 1 << 5,		/* the device was declared again or removed */
};

enum tt_link_status {
	TT_LINK_NONE = 0,	/* no XI data for this device: nothing to link */
	TT_LINK_PENDING,	/* waiting for the XI begin (internal) */
	TT_LINK_LINKED,		/* paired with an XI touch */
	TT_LINK_NOT_DELIVERED,	/* an XI touch device was linked, but no XI touch came */
};

/* A kernel touch sequence. */
struct tt_ktouch {
	uint64_t serial;	/* 1, 2, ... in begin order over the whole file */
	uint32_t device;	/* evdev device record id */
	int32_t slot;		/* Type B slot; Type A/single touch: lowest free index */
	int32_t tracking_id;	/* the kernel's, or the model's (TT_KTOUCH_SYNTHETIC_ID) */
	uint32_t flags;		/* enum tt_ktouch_flags */
	int64_t begin_us, end_us;	/* end_us: time of the releasing frame (or last frame) */
	size_t begin_line, end_line;
	uint64_t nframes;	/* frames that changed this touch, the begin included */
	/* Current values of every ABS_MT_* axis (TT_AXIS(ABS_MT_POSITION_X)...);
	 * single-touch devices map ABS_X/Y/PRESSURE to the MT axes. */
	int32_t values[TT_MT_AXES];
	/* Axes (TT_AXIS_BIT()) the recording never gave for this touch: not
	 * in its begin frame and not in the slot's state (the device's state
	 * at start, or an earlier touch of the slot). Their values[] are 0
	 * and mean nothing until an update sets them. */
	uint32_t unknown;
	/* Position at the begin; an unknown axis takes its first value. */
	int32_t begin_x, begin_y;
	/* The link to XI, filled before kernel_end is called. The XI touch
	 * is paired at the first XI begin the recorder received for it (of
	 * any client, the RawTouchBegin normally): xi_begin_us - begin_us is
	 * the kernel-to-X latency. Pointer emulation is a property of the XI
	 * touch sequence, flagged on its regular (non-raw) TouchBegin and
	 * TouchUpdate events only: xi_emulating_known says whether one of
	 * those was seen (a recording with raw events only has none). */
	enum tt_link_status link;
	int32_t xi_deviceid;	/* XI source device of the linked touch */
	uint32_t xi_touchid;
	int64_t xi_begin_us;
	size_t xi_begin_line;
	bool xi_emulating_known;
	bool xi_emulating_pointer;	/* XITouchEmulatingPointer, when known */
	/* The link from HID, filled before kernel_end is called: the HID
	 * contact this touch was made of, when its device has a hid_device
	 * listing it. TT_LINK_NOT_DELIVERED here means no HID contact
	 * paired. begin_us - hid_begin_us is the HID-to-kernel latency (it
	 * can be slightly negative: the kernel stamps the evdev frame
	 * before the recorder reads the report from hidraw). */
	enum tt_link_status hid_link;
	uint32_t hid_device;	/* tt_hid_device.id */
	int32_t hid_contact_id;	/* -1 for a pen */
	uint64_t hid_serial;	/* tt_htouch.serial */
	int64_t hid_begin_us;
	size_t hid_begin_line;
	void *user;
};

/* Ownership of one (XI touch, client). */
enum tt_own_outcome {
	TT_OWN_NONE = 0,	/* no ownership involved (observer, raw events) */
	TT_OWN_OWNED,		/* ownership granted (TouchOwnership), then ended */
	TT_OWN_ACCEPTED,	/* this client accepted the touch */
	TT_OWN_REJECTED,	/* this client rejected the touch */
	TT_OWN_LOST,		/* ended without ownership because another client accepted */
	TT_OWN_ENDED_UNOWNED,	/* ended without ownership, no accept seen */
	TT_OWN_UNRESOLVED,	/* never ended, with ownership in play (another client
				   accepted or rejected it, or a pending end) but this
				   client never owned, accepted or rejected it */
	TT_OWN_COUNT,
};

enum tt_xtouch_flags {
	TT_XTOUCH_RAW = 1 << 0,			/* RawTouch* sequence */
	TT_XTOUCH_EMULATING_POINTER = 1 << 1,	/* XITouchEmulatingPointer seen */
	TT_XTOUCH_PENDING_END = 1 << 2,		/* XITouchPendingEnd seen */
	TT_XTOUCH_OWNED = 1 << 3,		/* got TouchOwnership */
	TT_XTOUCH_BEGAN_UNOWNED = 1 << 4,	/* TouchBegin came before its TouchOwnership */
	TT_XTOUCH_ACTIVE_AT_END = 1 << 5,	/* never ended */
};

/* An XI touch sequence as one client received it. */
struct tt_xtouch {
	uint64_t serial;
	int32_t deviceid;	/* as in the events (usually the master) */
	int32_t sourceid;	/* the slave device the touch came from */
	uint32_t touchid;	/* the event's detail */
	char client[32];	/* "observer", "grab", "window", or "" */
	uint32_t flags;		/* enum tt_xtouch_flags */
	int64_t begin_us, end_us;
	size_t begin_line, end_line;
	int64_t owned_us;	/* TouchOwnership time, -1 */
	int64_t resolved_us;	/* accept/reject/end-by-accept time, -1 */
	size_t resolved_line;
	enum tt_own_outcome outcome;	/* final in xi_end */
	uint64_t nupdates;
	double root_x, root_y;	/* latest */
	double begin_root_x, begin_root_y;
	void *user;
};

enum tt_htouch_kind {
	TT_HTOUCH_FINGER = 0,	/* a Contact Identifier of a multitouch collection */
	TT_HTOUCH_PEN,		/* a stylus collection, tip down to tip up */
};

enum tt_htouch_flags {
	/* A complete frame left it out without a report of its tip up
	 * (hid-multitouch releases it then: the ghost or lost finger). */
	TT_HTOUCH_VANISHED = 1 << 0,
	TT_HTOUCH_ACTIVE_AT_END = 1 << 1,	/* still down at the end of the recording */
	TT_HTOUCH_DEVICE_GONE = 1 << 2,		/* its hid_device was declared again */
};

/* Bits of struct tt_htouch's state: what a contact's report says besides
 * its Tip Switch (set for as long as the sequence lives). */
enum tt_hstate {
	TT_HSTATE_IN_RANGE = 1 << 0,
	TT_HSTATE_CONFIDENCE = 1 << 1,	/* clear: a palm (hid-multitouch's MT_TOOL_PALM) */
};

/* A HID contact sequence: from the report that set its Tip Switch to the
 * one that cleared it. Positions are logical values of the descriptor's
 * X and Y fields, with their logical ranges. */
struct tt_htouch {
	uint64_t serial;	/* 1, 2, ... in begin order over the whole file */
	uint32_t device;	/* tt_hid_device.id */
	uint8_t report_id;	/* of the report it began in */
	uint32_t collection;	/* its application collection (descriptor index) */
	enum tt_htouch_kind kind;
	int32_t contact_id;	/* Contact Identifier (or its index in the
				   report without one); -1 for a pen */
	uint32_t flags;		/* enum tt_htouch_flags */
	int64_t begin_us, end_us;	/* end_us: the tip-up report (or the last one seen) */
	size_t begin_line, end_line;
	uint64_t nreports;	/* reports that carried it, the begin included */
	int32_t x, y, pressure;	/* latest */
	int32_t begin_x, begin_y;
	/* enum tt_hstate bits: the latest, and those its reports carry. */
	uint32_t state, state_known;
	int32_t x_min, x_max, y_min, y_max;	/* logical ranges; max <= min: unknown */
	/* The link to the kernel, filled before hid_end is called: the
	 * kernel touch it became (TT_LINK_NOT_DELIVERED: none came within
	 * the window; TT_LINK_NONE: its hid_device lists no evdev device, or
	 * linking is off). kernel_begin_us - begin_us is the latency. */
	enum tt_link_status link;
	uint32_t evdev_device;
	uint64_t ktouch_serial;	/* tt_ktouch.serial */
	int32_t slot, tracking_id;
	int64_t kernel_begin_us;
	size_t kernel_begin_line;
	void *user;
};

struct tt_hupdate {
	int64_t time_us;
	size_t line;
};

/* What one HID report was, and what the frame assembly made of it. */
struct tt_hreport {
	const struct tt_hid_device *device;
	const struct tt_hid_report *report;
	size_t line;
	bool parsed;		/* the device's descriptor parsed: the rest is meaningful */
	uint8_t report_id;
	bool declared;		/* an input report the descriptor declares */
	bool short_report;	/* fewer bytes than the report's declared size */
	uint32_t declared_bytes;	/* that size, the ID byte included */
	bool touch;		/* it carries contacts, a Contact Count or a pen */
	bool has_contact_count;
	int32_t contact_count;
	/* It began a frame while the one before still waited for contacts
	 * its Contact Count announced (hybrid mode cut short). */
	bool frame_cut;
	uint32_t cut_expected, cut_received;
	/* Contacts with Tip Switch set past the ones Contact Count counts:
	 * hid-multitouch never looks at them. */
	uint32_t beyond_count;
	bool frame_done;	/* completed a frame: the kernel syncs evdev here */
	uint32_t collection;	/* its application collection, when touch */
	uint32_t nactive;	/* HID contacts down on the device after it */
};

/* A HID report paired with the evdev frame it produced: a report that
 * completed a frame (tt_hreport.frame_done) and a frame of one of the
 * touch devices its hid_device lists, from the link's before_us earlier
 * to after_us later, that left the same contacts down at the same
 * positions (hid-multitouch passes the logical values on), the nearest in
 * time of those (or of all, when none did); each frame and each report
 * pairs once. frame_us - report_us is the latency. A report that changed
 * nothing the kernel reports produces no frame, and a frame the kernel
 * made by itself (a release timer) has no report: neither is paired. */
struct tt_hframe {
	uint32_t hid_device;
	uint8_t report_id;
	int64_t report_us;
	size_t report_line;
	uint32_t evdev_device;
	int64_t frame_us;
	size_t frame_line;
};

/* One kernel touch update as the frame left it, for index builders. */
struct tt_kupdate {
	int64_t time_us;
	size_t line;
	uint32_t changed;	/* bit TT_AXIS(code) for each axis the frame changed */
};

struct tt_model_callbacks {
	void (*kernel_begin)(void *data, struct tt_ktouch *t);
	void (*kernel_update)(void *data, struct tt_ktouch *t, const struct tt_kupdate *u);
	void (*kernel_end)(void *data, struct tt_ktouch *t);
	/* After every frame: @nactive touches down on the device. */
	void (*frame)(void *data, const struct tt_device *dev, const struct tt_frame *f,
		      size_t line, uint32_t nactive);
	void (*xi_begin)(void *data, struct tt_xtouch *t);
	void (*xi_update)(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line);
	/* TouchOwnership, AcceptTouch, RejectTouch changed t->outcome. */
	void (*xi_ownership)(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line);
	void (*xi_end)(void *data, struct tt_xtouch *t);
	void (*hid_begin)(void *data, struct tt_htouch *t);
	void (*hid_update)(void *data, struct tt_htouch *t, const struct tt_hupdate *u);
	/* t->state changed (In Range, Confidence) while the tip stays down. */
	void (*hid_state)(void *data, struct tt_htouch *t, const struct tt_hupdate *u);
	void (*hid_end)(void *data, struct tt_htouch *t);
	void (*hid_report)(void *data, const struct tt_hreport *r);
	/* A report and its frame, once no nearer one can come (up to
	 * before_us after the frame). */
	void (*hid_frame)(void *data, const struct tt_hframe *l);
};

struct tt_model;

/* Parses @dev's report descriptor for the model, once per hid_device
 * record: a layer that checks it before the model sees the record (the
 * checker) asks here, and the model takes the same parse. 0, or a
 * negative errno with *@why (may be NULL) saying what is wrong, valid
 * until the model has taken the record. */
int tt_model_hid_parse(struct tt_model *m, const struct tt_hid_device *dev, const char **why);

struct tt_model *tt_model_new(const struct tt_model_callbacks *cb, void *data);
void tt_model_free(struct tt_model *m);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_model *, tt_model_free);

/* Pairs kernel touches with XI touches whose receive time is within
 * @window_us after the kernel begin (default 250 ms when 0); positions must
 * agree within @tolerance of the axis range (0..1, default 0.03 when 0).
 * A paired kernel touch then waits up to @window_us more for a regular
 * TouchBegin/TouchUpdate of its XI touch, for the pointer emulation flag. */
void tt_model_set_link(struct tt_model *m, bool on, int64_t window_us, double tolerance);

void tt_model_feed(struct tt_model *m, const struct tt_record *rec);
/* End of input: every open sequence ends with ..._ACTIVE_AT_END (and
 * unresolved ownership), pending links resolve, end callbacks run. */
void tt_model_finish(struct tt_model *m);

/* The HID-to-kernel link pairs a HID contact with a kernel touch of one
 * of the evdev devices its hid_device lists, begun from @before_us before
 * to @after_us after it (defaults 100 ms both when 0: the kernel stamps
 * the evdev frame before the recorder reads hidraw, tens of milliseconds
 * before when the recorder is busy, and a hybrid frame completes some
 * reports later), positions agreeing like the XI
 * link's once the HID logical range is scaled onto the evdev absinfo
 * range. On with tt_model_set_link(). */
void tt_model_set_hid_link(struct tt_model *m, int64_t before_us, int64_t after_us);

/* Slot state now: active touches of a device (NULL-terminated array
 * valid until the next feed), for inspectors and tests. */
size_t tt_model_active(const struct tt_model *m, uint32_t device,
		       const struct tt_ktouch **out, size_t max);

/* The keys down on a device after the frame fed last (a bit per code,
 * KEY_CNT bits, lib/base/bitmap.h), valid until the next feed; NULL for a
 * device the model does not know. The frame callbacks see the state
 * after their frame. */
const uint8_t *tt_model_keys(const struct tt_model *m, uint32_t device);

/* False from a SYN_DROPPED until the device has set the current slot
 * and every slot's tracking ID again: the slot state (and so the number
 * of touches down) is a guess meanwhile. */
bool tt_model_settled(const struct tt_model *m, uint32_t device);

const char *tt_own_outcome_name(enum tt_own_outcome o);
const char *tt_link_status_name(enum tt_link_status s);

/* Helpers on a device's axes. */
bool tt_model_has_mm(const struct tt_device *dev);
/* Distance between two device points, in mm when the device has a
 * resolution on both axes, else in device units. */
double tt_model_distance(const struct tt_device *dev, double dx, double dy);
/* A device position for people: mm from the axis minimum when the device
 * has a resolution (returns true), else device units. */
bool tt_model_position(const struct tt_device *dev, int32_t x, int32_t y, double *ox, double *oy);
