/* SPDX-License-Identifier: MIT */
/*
 * The inspector's index of a recording, built in one streaming pass over
 * the reader and lib/model/model.h. Nothing of the JSON is kept: frames as a
 * compact array (time, line, device, first event), their events packed in
 * 6 bytes each, one lane per touch sequence (kernel: device + slot +
 * tracking ID; XI: device + touch id + client) with its updates, and a
 * list of markers (ownership, accept/reject, pending end, pointer
 * emulation, SYN_DROPPED, device removal, the diagnostics of
 * lib/analysis/detect.h, the recording's own markers). The numbers the summary
 * prints are lib/analysis/detect.h's struct tt_stats, the same analyze prints.
 *
 * The index grows while it is read (tt_index_step()), so the viewer can
 * show the first screen of a long file, or follow a pipe, while the
 * indexer runs on. Readers take tt_index_lock() when an indexer thread
 * may be appending.
 *
 * struct tt_index is private to the index's files (index-private.h): its
 * records (devices, frames, lanes, markers) are read through the
 * accessors below, its numbers through tt_index_stats().
 *
 * The HID layer: a lane per HID contact sequence (HID device + contact
 * id, or a pen's tip down to tip up) as lib/model/model.h assembles them from
 * the reports, linked by the model to the kernel touch it became; the
 * kernel lane points back at it.
 *
 * The libinput layer: a lane per libinput touch (TOUCH_DOWN to UP or
 * CANCEL), linked to the kernel touch libinput/model-li.h paired it with, and a
 * lane per gesture (BEGIN to END), standing after the kernel touches that
 * made it.
 *
 * The Wayland layer: a lane per wl_touch sequence (a client's down to up
 * or cancel), linked to the kernel touch wayland/model-wl.h paired it with.
 *
 * Memory: about 6 bytes per kernel event, 24 per frame, 16 per touch
 * update (kernel or XI) and 64 per marker.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stack.h"
#include "model.h"
#include "model-li.h"
#include "model-wl.h"
#include "reader.h"
#include "timeline.h"
#include "util-mem.h"

/* A device as the index keeps it (the reader's structs are not shared). */
struct ti_device {
	uint32_t id;		/* the file's record id */
	char *name;		/* sanitized by the reader */
	enum tt_mt_protocol mt;
	uint32_t num_slots;
	bool touch;		/* tt_device_is_touch() */
	bool has_mm;
	struct tt_absinfo ax, ay;	/* position axes (MT or single touch) */
	struct tt_device *copy;	/* for tt_model_distance()/position() */
	bool removed;
	int64_t removed_us;
	/* Slot table checkpoints are not needed: lanes carry values. */
};

enum ti_lane_kind {
	TI_LANE_KERNEL,
	TI_LANE_XI,
	TI_LANE_XI_RAW,
	TI_LANE_HID,
	TI_LANE_LI,		/* a libinput touch */
	TI_LANE_LI_GESTURE,	/* a libinput swipe, pinch or hold */
	TI_LANE_WL,		/* a wl_touch sequence one Wayland client received */
};

/* ti_lane.flags of the libinput and Wayland lanes. */
enum ti_li_flags {
	TI_LI_CANCELLED = 1 << 0,	/* TOUCH_CANCEL, or a cancelled gesture */
	TI_LI_ACTIVE_AT_END = 1 << 1,
};

/* A device as libinput saw it (its li_device record); what libinput made
 * of it is the libinput model's (tt_index_li_counts()). */
struct ti_li_device {
	uint32_t device;	/* the evdev device record id */
	char *sysname;		/* sanitized */
	char *name;		/* sanitized */
	uint32_t capabilities;	/* enum tt_li_capability */
	bool has_size;
	double width_mm, height_mm;
	int32_t tap_fingers;
	char *config;		/* "tap=on natural-scroll=off ...", sanitized */
};

/* A HID device as the index keeps it; its numbers are the stats'
 * (tt_stats_hid()), but for the most contacts down at once. */
struct ti_hid_device {
	uint32_t id;		/* the file's HID device id */
	char *name;		/* sanitized */
	uint16_t bus;
	uint32_t vendor, product;
	uint32_t nevdev;
	uint32_t *evdev;	/* the evdev device ids it produced */
	uint32_t max_simultaneous;
};

/* A kernel update: the frame that changed the touch and its values then.
 * Pressure and touch size are clamped to 16 bits (they never exceed it on
 * real hardware); 16 bytes. */
#define TI_NO_FRAME UINT32_MAX	/* the device's state at time 0 */
struct ti_kupd {
	uint32_t frame;		/* index into the frame array, or TI_NO_FRAME */
	int32_t x, y;
	int16_t pressure;
	int16_t major;
};

/* An XI update: 16 bytes. */
struct ti_xupd {
	int64_t time_us;
	float x, y;		/* root coordinates */
};

struct ti_lane {
	enum ti_lane_kind kind;
	uint32_t index;		/* position in the lane array */
	uint32_t device;	/* kernel: device record id; XI: deviceid;
				   HID: HID device id */
	int32_t sourceid;	/* XI: the slave device */
	int32_t slot;		/* kernel */
	int32_t id;		/* kernel: tracking ID; XI: touch id; HID:
				   contact id, -1 for a pen */
	uint64_t serial;	/* kernel and HID: the model's, for the link */
	char client[32];	/* XI: "observer", "grab", "window" */
	uint32_t flags;		/* tt_ktouch_flags, tt_xtouch_flags or tt_htouch_flags */
	bool ended;		/* false while the sequence is still going */
	int64_t begin_us, end_us;
	size_t begin_line, end_line;
	int32_t tool;		/* ABS_MT_TOOL_TYPE at the last update, -1 */
	double distance;	/* travelled, mm when has_mm else units/pixels */
	bool distance_mm;
	/* Kernel: link to the XI touch it became. */
	enum tt_link_status link;
	int32_t xi_deviceid;
	uint32_t xi_touchid;
	int64_t xi_begin_us;
	int64_t linked;		/* lane index of the linked lane, -1: kernel: its
				   first XI lane; XI and HID: their kernel lane */
	/* Kernel: the HID contact it was made of (model's hid_link), and
	 * its lane, -1. HID: link is the model's link to the kernel. */
	enum tt_link_status hid_link;
	int64_t hid_linked;
	/* libinput: a touch's seat slot (slot is libinput's slot); a
	 * gesture's kind (enum tt_li_gesture_kind), finger count and the
	 * time from the last finger landing to its BEGIN (-1: none). */
	int64_t li_linked;	/* kernel: the libinput touch made of it, -1 */
	int32_t li_seat_slot;
	int32_t li_gesture, li_fingers;
	uint32_t li_nkernel;	/* gesture: kernel touches down during it */
	int64_t li_latency_us;
	int64_t wl_linked;	/* kernel: the (first) Wayland touch made of it, -1 */
	int64_t hid_begin_us;	/* kernel: the HID contact's begin */
	/* XI: ownership. */
	enum tt_own_outcome outcome;
	int64_t owned_us, resolved_us;
	/* Updates, begin included (HID: logical x and y). */
	union {
		struct ti_kupd *kupd;
		struct ti_xupd *xupd;
	};
	uint32_t nupd, capupd;
};

enum ti_marker_kind {
	TI_MARK_OWNERSHIP,	/* TouchOwnership arrived */
	TI_MARK_ACCEPT,
	TI_MARK_REJECT,
	TI_MARK_PENDING_END,
	TI_MARK_EMULATING,	/* pointer emulation began with this touch */
	TI_MARK_DROPPED,	/* SYN_DROPPED: events lost */
	TI_MARK_RESYNC,		/* libevdev's resync frame after a drop */
	TI_MARK_DEVICE_REMOVED,
	TI_MARK_ANOMALY,	/* a diagnostic of lib/analysis/detect.h */
	TI_MARK_RECORD,		/* a marker record of the file (note, start, stop...) */
	TI_MARK_COUNT,
};

struct ti_marker {
	int64_t time_us;
	uint32_t line;
	uint8_t kind;		/* enum ti_marker_kind */
	uint8_t check;		/* enum tt_check for anomalies */
	uint8_t severity;
	int64_t lane;		/* lane index, -1 for none */
	int64_t device;		/* device record id / XI deviceid, -1 */
	uint32_t text;		/* offset into the text pool + 1, 0 for none */
};

/* A frame: 24 bytes. Its events are events[first .. next frame's first). */
struct ti_frame {
	int64_t time_us;
	uint32_t first;
	uint32_t line;
	uint16_t device;	/* index into the device array */
	uint8_t flags;		/* enum tt_frame_flags */
	uint8_t nactive;	/* touches down after it (saturates at 255) */
};

struct tt_index;

/* Opens @path ("-": standard input) and prepares the index; nothing is
 * read yet. 0 or a negative errno; then *why (when non-NULL) gets a
 * message for people, which the caller frees. */
int tt_index_open(const char *path, struct tt_index **out, char **why);
/* A lean index keeps the statistics, the touch sequences' begin and end
 * and the first TI_LEAN_MARKERS anomalies, but no frames, events, updates
 * or other markers: what --summary prints, in memory that does not grow
 * with every event. Call before the first tt_index_step(). */
#define TI_LEAN_MARKERS 10
/* inspect --summary lists the first this many ownership chains. */
#define TI_LEAN_CHAINS 50
void tt_index_set_lean(struct tt_index *ix, bool lean);
/* The layer stack the index reads through, for a layer to add before
 * the first step (inspect --grade). */
struct tt_stack *tt_index_stack(struct tt_index *ix);
/* --device: only the evdev devices with these record ids. The device
 * records, frames and markers of the others are neither indexed nor fed
 * to the detectors, so every number and lane is of the chosen devices;
 * XI events are all fed (a kernel touch is linked to the XI touch it
 * became), and tt_index_lane_chosen() says which XI lanes came of a
 * chosen device. Call before the first tt_index_step(). */
void tt_index_set_devices(struct tt_index *ix, const uint32_t *ids, size_t n);
/* --device hidN: these HID devices too. A HID device is indexed when
 * chosen so, or when it produced a chosen evdev device; with a choice of
 * HID devices only, no evdev device is. Call before the first
 * tt_index_step(). */
void tt_index_set_hid_devices(struct tt_index *ix, const uint32_t *ids, size_t n);
/* False for an XI lane no kernel touch of a tt_index_set_devices() device
 * became; true for every lane without such a choice. */
bool tt_index_lane_chosen(const struct tt_index *ix, const struct ti_lane *l);
/* Reads and indexes up to @max records (0: to the end). Returns 1 while
 * more may come, 0 at the end of input, <0 on a read error. Takes the
 * lock around each record. */
int tt_index_step(struct tt_index *ix, size_t max);
/* Asks a tt_index_step() running in another thread to return soon. */
void tt_index_request_stop(struct tt_index *ix);
void tt_index_free(struct tt_index *ix);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_index *, tt_index_free);

void tt_index_lock(struct tt_index *ix);
void tt_index_unlock(struct tt_index *ix);

/* Lookups (call with the lock held when an indexer runs). */
/* The file's name as given ("-" for standard input). */
const char *tt_index_name(const struct tt_index *ix);
/* The numbers of what was read so far (lib/analysis/detect.h, the ones analyze
 * prints): times, frames, touch sequences per device, outcomes... */
const struct tt_stats *tt_index_stats(const struct tt_index *ix);
/* The XI ownership chains (xi/model-xi-own.h), once the index is done. */
struct tt_xi_own;
const struct tt_xi_own *tt_index_xi_own(const struct tt_index *ix);
/* The first and the last time of the timed records read so far (frames,
 * XI events, markers, HID reports): the stats' first_us and last_us, 0
 * before any. */
int64_t tt_index_first_us(const struct tt_index *ix);
int64_t tt_index_last_us(const struct tt_index *ix);
/* The whole input was read. */
bool tt_index_done(const struct tt_index *ix);
/* Bumped whenever something was added: a viewer redraws when it moved. */
uint64_t tt_index_generation(const struct tt_index *ix);

/* Devices in the order the file declares them. */
size_t tt_index_ndevices(const struct tt_index *ix);
const struct ti_device *tt_index_device_at(const struct tt_index *ix, size_t i);
/* By the file's record id, or NULL. */
const struct ti_device *tt_index_device(const struct tt_index *ix, uint32_t id);
/* HID devices in the order the file declares them. */
size_t tt_index_nhid_devices(const struct tt_index *ix);
const struct ti_hid_device *tt_index_hid_device_at(const struct tt_index *ix, size_t i);
const struct ti_hid_device *tt_index_hid_device(const struct tt_index *ix, uint32_t id);
/* libinput's devices in the order the file declares them, and the
 * libinput model's counts (libinput/model-li.h: touches linked, taps, gestures
 * by kind and finger count), per device in the order first seen. */
size_t tt_index_nli_devices(const struct tt_index *ix);
const struct ti_li_device *tt_index_li_device_at(const struct tt_index *ix, size_t i);
const struct tt_li_counts *tt_index_li_counts(const struct tt_index *ix, size_t *n);
/* Whether the file has a libinput layer. */
bool tt_index_has_li(const struct tt_index *ix);
/* Whether the file had a Wayland layer (wl records). */
bool tt_index_has_wl(const struct tt_index *ix);
/* The Wayland touches that ended, and of those the linked and the
 * cancelled ones. */
void tt_index_wl_counts(const struct tt_index *ix, uint64_t *touches, uint64_t *linked, uint64_t *cancelled);
/* Frames in file order; ti_frame.device is a tt_index_device_at() index. */
size_t tt_index_nframes(const struct tt_index *ix);
const struct ti_frame *tt_index_frame(const struct tt_index *ix, size_t f);
/* Events of all frames together. */
size_t tt_index_nevents(const struct tt_index *ix);
/* Event @i of frame @f (type, code and value; dt_us is 0). */
struct tt_event tt_index_frame_event(const struct tt_index *ix, size_t f, uint32_t i);
/* Lanes in begin order; ti_lane.index and ti_lane.linked index them. */
size_t tt_index_nlanes(const struct tt_index *ix);
const struct ti_lane *tt_index_lane(const struct tt_index *ix, size_t i);
/* Markers in read order. */
size_t tt_index_nmarkers(const struct tt_index *ix);
const struct ti_marker *tt_index_marker(const struct tt_index *ix, size_t i);

/* How the reading went: lines refused, a read error that ended it, the
 * reader's warnings. The strings belong to the index. */
struct ti_read_status {
	size_t nerrors;
	const char *first_error;	/* NULL without errors */
	bool stopped;			/* a read error ended the file early */
	size_t nwarnings;
	const char *first_warning;
};
void tt_index_read_status(const struct tt_index *ix, struct ti_read_status *out);
/* The reader, for the options that set it up before reading (--desc). */
struct tt_reader *tt_index_reader(struct tt_index *ix);
/* The file's header (its "system": the recording host), NULL before
 * the file was opened. */
const struct tt_header *tt_index_header(const struct tt_index *ix);
/* Stop copying the reader's warnings to stderr (a terminal UI is up). */
void tt_index_quiet_warnings(struct tt_index *ix);
/* The last frame at or before @t (any device when @device < 0), or -1. */
int64_t tt_index_frame_at(const struct tt_index *ix, int64_t t, int64_t device);
/* The number of events of frame @f. */
uint32_t tt_index_frame_nevents(const struct tt_index *ix, size_t f);
/* Index of the last kernel update of @l at or before frame @f, or -1. */
int64_t tt_index_kupd_at(const struct ti_lane *l, size_t f);
/* Index of the last XI update of @l at or before @t, or -1. */
int64_t tt_index_xupd_at(const struct ti_lane *l, int64_t t);
/* The lane's update times. */
int64_t tt_index_upd_time(const struct tt_index *ix, const struct ti_lane *l, size_t i);
const char *tt_index_marker_text(const struct tt_index *ix, const struct ti_marker *m);
/* A diagnostic of lib/analysis/detect.h: an anomaly, or a SYN_DROPPED marker
 * that carries its diagnostic. */
bool tt_index_marker_is_diag(const struct tt_index *ix, const struct ti_marker *m);
const char *ti_marker_kind_name(enum ti_marker_kind k);
/* A short label for the lane: "dev0 s1 #22", "xi2/11 t5 grab", "hid0 c3",
 * "hid0 pen", "li0 s1" (libinput's slot), "li0 swipe 3f". */
const char *tt_index_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size);
/* Memory the index holds, in bytes (arrays' capacity). */
size_t tt_index_memory(const struct tt_index *ix);
