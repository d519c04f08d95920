/* SPDX-License-Identifier: MIT */
/* What the files of the inspector's index share: the index itself and
 * the functions one file gives the others. index.c opens the index,
 * feeds it each record and steps the reading; the lanes of each layer
 * (index-kernel.c, index-xi.c, index-hid.c, index-li.c, index-wl.c), the
 * arrays (index-store.c), the device and lane filters (index-filter.c),
 * the ownership chains (index-chains.c) and the queries (index-query.c)
 * each have a file. Private to inspect/. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "index.h"

/* Texts of anomalies beyond this are counted, not kept. */
#define TEXT_POOL_MAX (4u * 1024 * 1024)

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

	/* The numbers: the detector's, kept current as records are fed. */
	const struct tt_stats *stats;
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

	uint32_t *devices;	/* tt_index_set_devices() */
	size_t ndevices;
	uint32_t *hid_choice;	/* tt_index_set_hid_devices() */
	size_t nhid_choice;
	bool choosing;		/* either was given: the others are left out */

	struct ti_hid_device *hdevs;
	size_t nhdevs;

	uint64_t wl_touches, wl_linked, wl_cancelled;
	struct ti_li_device *lidevs;
	size_t nlidevs;

	uint64_t generation;	/* bumped whenever something was added */
	bool done;		/* the whole input was read */

	/* Building. */
	struct tt_reader *reader;
	struct tt_stack *detect;
	bool in_frame;
	bool stop;		/* tt_index_request_stop(): step returns early */
};

/* index-store.c */
struct ti_lane *ti_add_lane(struct tt_index *ix, enum ti_lane_kind kind);
struct ti_marker *ti_add_marker(struct tt_index *ix, enum ti_marker_kind kind, int64_t t,
	size_t line, int64_t lane, int64_t device);
uint32_t ti_add_text(struct tt_index *ix, const char *s);
struct ti_device *ti_find_dev(struct tt_index *ix, uint32_t id, size_t *pos);
void *ti_grow(void *p, size_t *cap, size_t need, size_t size);
void on_diag(void *userdata, const struct tt_diag *diag);
void ti_release_lane(struct tt_index *ix, struct ti_lane *l);

/* What the index does with a record of each type (the table in index.c):
 * ti_chosen_*() say whether --device keeps it (what is of another
 * device is skipped whole), index_*() add it to the index. */

/* index-kernel.c */
bool ti_chosen_device(const struct tt_index *ix, const struct tt_record *rec);
bool ti_chosen_frame(const struct tt_index *ix, const struct tt_record *rec);
bool ti_chosen_marker(const struct tt_index *ix, const struct tt_record *rec);
void index_device(struct tt_index *ix, const struct tt_record *rec);
void index_frame(struct tt_index *ix, const struct tt_record *rec);
void index_marker(struct tt_index *ix, const struct tt_record *rec);
void ti_lane_end_at(struct ti_lane *l, uint32_t flags, int64_t end_us, size_t end_line);
void ti_lane_ownership(struct ti_lane *l, const struct tt_xtouch *t);
/* The lane of kernel touch @serial, begun at @begin_us, or NULL: searched
 * back from the end, since only kernel lanes are in begin order with each
 * other. */
struct ti_lane *ti_kernel_lane(const struct tt_index *ix, uint64_t serial, int64_t begin_us);
void on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line,
	uint32_t nactive);
void on_kernel_begin(void *data, struct tt_ktouch *t);
void on_kernel_end(void *data, struct tt_ktouch *t);
void on_kernel_update(void *data, struct tt_ktouch *t, const struct tt_kupdate *u);

/* index-xi.c */
void ti_add_xupd(struct tt_index *ix, struct ti_lane *l, int64_t t, double x, double y);
void on_xi_begin(void *data, struct tt_xtouch *t);
void on_xi_end(void *data, struct tt_xtouch *t);
void on_xi_ownership(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line);
void on_xi_update(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line);

/* index-hid.c */
struct ti_hid_device *ti_find_hdev(const struct tt_index *ix, uint32_t id);
bool ti_chosen_hid_device(const struct tt_index *ix, const struct tt_record *rec);
bool ti_chosen_hid_report(const struct tt_index *ix, const struct tt_record *rec);
void index_hid_device(struct tt_index *ix, const struct tt_record *rec);
void on_hid_begin(void *data, struct tt_htouch *t);
void on_hid_end(void *data, struct tt_htouch *t);
void on_hid_report(void *data, const struct tt_hreport *r);
void on_hid_update(void *data, struct tt_htouch *t, const struct tt_hupdate *u);

/* index-filter.c: --device's choice. */
bool ti_id_in(const uint32_t *ids, size_t n, int64_t id);
/* Records of no device (@id < 0) are kept. */
bool ti_device_chosen(const struct tt_index *ix, int64_t id);

/* index-li.c */
bool ti_chosen_li_device(const struct tt_index *ix, const struct tt_record *rec);
bool ti_chosen_li_event(const struct tt_index *ix, const struct tt_record *rec);
void index_li_device(struct tt_index *ix, const struct tt_record *rec);
void index_li_event(struct tt_index *ix, const struct tt_record *rec);
void li_device_free(struct ti_li_device *d);
uint32_t ti_li_flags(bool cancelled, bool active_at_end);
void on_li_gesture_end(void *data, const struct tt_li_gesture *g);
void on_li_touch_end(void *data, const struct tt_li_touch *t);

/* index-wl.c */
void on_wl_begin(void *data, struct tt_wl_touch *t);
void on_wl_end(void *data, struct tt_wl_touch *t);
void on_wl_update(void *data, struct tt_wl_touch *t, const struct tt_wl_event *ev, size_t line);

/* index-chains.c */
void ti_chain_markers(struct tt_index *ix);
