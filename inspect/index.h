/* SPDX-License-Identifier: MIT */
/*
 * The inspector's index of a recording, built in one streaming pass over
 * the reader and lib/model.h. Nothing of the JSON is kept: frames as a
 * compact array (time, line, device, first event), their events packed in
 * 6 bytes each, one lane per touch sequence (kernel: device + slot +
 * tracking ID; XI: device + touch id + client) with its updates, and a
 * list of markers (ownership, accept/reject, pending end, pointer
 * emulation, SYN_DROPPED, device removal, the diagnostics of
 * lib/detect.h, the recording's own markers). The numbers the summary
 * prints are lib/detect.h's struct tt_stats, the same analyze prints.
 *
 * The index grows while it is read (tt_index_step()), so the viewer can
 * show the first screen of a long file, or follow a pipe, while the
 * indexer runs on. Readers of the arrays take tt_index_lock() when an
 * indexer thread may be appending.
 *
 * Memory: about 6 bytes per kernel event, 24 per frame, 16 per touch
 * update (kernel or XI) and 64 per marker.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detect.h"
#include "model.h"
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
	/* Copied from struct tt_stats_device after each record. */
	uint64_t nframes, nevents, nlanes, ndropped;
	uint32_t max_active;
	bool removed;
	int64_t removed_us;
	/* Slot table checkpoints are not needed: lanes carry values. */
};

enum ti_lane_kind {
	TI_LANE_KERNEL,
	TI_LANE_XI,
	TI_LANE_XI_RAW,
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
	uint32_t device;	/* kernel: device record id; XI: deviceid */
	int32_t sourceid;	/* XI: the slave device */
	int32_t slot;		/* kernel */
	int32_t id;		/* kernel: tracking ID; XI: touch id */
	char client[32];	/* XI: "observer", "grab", "window" */
	uint32_t flags;		/* tt_ktouch_flags or tt_xtouch_flags */
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
	int64_t linked;		/* lane index of the linked lane, -1 */
	/* XI: ownership. */
	enum tt_own_outcome outcome;
	int64_t owned_us, resolved_us;
	/* Updates, begin included. */
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
	TI_MARK_ANOMALY,	/* a diagnostic of lib/detect.h */
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

struct tt_index {
	pthread_mutex_t lock;
	char *name;

	struct ti_device *devs;
	size_t ndevs;

	struct ti_frame *frames;
	size_t nframes, capframes;
	/* Events packed: type << 10 | code, and the value. */
	uint16_t *ev_tc;
	int32_t *ev_val;
	size_t nevents, capevents;

	struct ti_lane **lanes;	/* in begin order */
	size_t nlanes, caplanes;

	struct ti_marker *markers;	/* in time order as read */
	size_t nmarkers, capmarkers;
	char *text;		/* marker texts, NUL-separated */
	size_t ntext, captext;
	size_t text_dropped;	/* texts left out once the pool was full */

	/* Copies of struct tt_stats (the one definition of each number),
	 * kept current as records are indexed. */
	const struct tt_stats *stats;
	uint64_t xi_events;
	uint64_t nanomalies[TT_CHECK_COUNT];
	uint64_t outcomes[TT_OWN_COUNT];	/* regular XI lanes */
	uint64_t nlinked, nnot_delivered;
	int64_t first_us, last_us;	/* over every timed record */
	bool have_time;
	size_t nerrors;		/* lines the reader refused */
	bool read_stopped;	/* a read error ended the file early (-EIO) */
	char *first_error;
	size_t nwarnings;	/* the reader's warnings (truncated last line...) */
	char *first_warning;
	bool quiet_warnings;
	/* tt_index_set_lean(): counts and live lanes only, for --summary.
	 * Ended lanes wait in @spare for the next touch to reuse them. */
	bool lean;
	struct ti_lane **spare;
	size_t nspare, capspare;
	struct ti_marker scratch;	/* lean: where markers not kept go */

	uint64_t generation;	/* bumped whenever something was added */
	bool done;		/* the whole input was read */

	/* Building. */
	struct tt_reader *reader;
	struct tt_detect *detect;
	bool in_frame;
	bool stop;		/* tt_index_request_stop(): step returns early */
};

/* Opens @path ("-": standard input) and prepares the index; nothing is
 * read yet. 0 or a negative errno; then *why (when non-NULL) gets a
 * message for people, which the caller frees. */
int tt_index_open(const char *path, struct tt_index **out, char **why);
/* A lean index keeps the statistics, the touch sequences' begin and end
 * and the first TI_LEAN_MARKERS anomalies, but no frames, events, updates
 * or other markers: what --summary prints, in memory that does not grow
 * with every event. Call before the first tt_index_step(). */
#define TI_LEAN_MARKERS 10
void tt_index_set_lean(struct tt_index *ix, bool lean);
/* Reads and indexes up to @max records (0: to the end). Returns 1 while
 * more may come, 0 at the end of input, <0 on a read error. Takes the
 * lock around each record. */
int tt_index_step(struct tt_index *ix, size_t max);
/* Asks a tt_index_step() running in another thread to return soon. */
void tt_index_request_stop(struct tt_index *ix);
void tt_index_free(struct tt_index *ix);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_index *, tt_index_free);

static inline void
tt_index_lock(struct tt_index *ix)
{
	pthread_mutex_lock(&ix->lock);
}

static inline void
tt_index_unlock(struct tt_index *ix)
{
	pthread_mutex_unlock(&ix->lock);
}

/* Lookups (call with the lock held when an indexer runs). */
const struct ti_device *tt_index_device(const struct tt_index *ix, uint32_t id);
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
/* A diagnostic of lib/detect.h: an anomaly, or a SYN_DROPPED marker
 * that carries its diagnostic. */
bool tt_index_marker_is_diag(const struct tt_index *ix, const struct ti_marker *m);
const char *ti_marker_kind_name(enum ti_marker_kind k);
/* A short label for the lane: "dev0 s1 #22", "xi2/11 t5 grab". */
const char *tt_index_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size);
/* Memory the index holds, in bytes (arrays' capacity). */
size_t tt_index_memory(const struct tt_index *ix);
