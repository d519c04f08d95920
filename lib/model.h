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
 *
 * Memory is bounded by the number of concurrent touches: a sequence lives
 * from its begin to its end callback (plus the link window, when linking
 * is on, so the end callback can carry the link) and is freed after the
 * end callback returns. Nothing is kept of the history: a consumer that
 * wants an index records what it needs in the update callbacks, which
 * see every change with its time, line, device, slot and values.
 *
 * Pointers handed to callbacks are valid during the callback only, except
 * struct tt_ktouch and struct tt_xtouch, which stay valid from begin to end
 * (a consumer may hang its own data on ->user).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "util-mem.h"

/* Indexes into tt_ktouch.values: the ABS_MT_* axes. */
#define TT_AXIS(code) ((code) - TT_MT_FIRST)

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
	TT_OWN_OUTCOME_COUNT	/* not an outcome: how many there are */
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
};

struct tt_model;

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

/* Slot state now: active touches of a device (NULL-terminated array
 * valid until the next feed), for inspectors and tests. */
size_t tt_model_active(const struct tt_model *m, uint32_t device,
		       const struct tt_ktouch **out, size_t max);

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
