/* SPDX-License-Identifier: MIT */
/*
 * The Wayland layer's model: wl records in, wl_touch sequences out, each
 * linked to the kernel touch it came from (and the libinput touch, when
 * the file has li records), and wl_touch's protocol rules checked. Shared
 * by validate, analyze, diff, print and the inspector; the one place
 * these numbers and diagnostics are computed.
 *
 * A layer of the stack (stack.h): the stack feeds it every record and
 * the kernel touches of its one kernel model.
 *
 * A wl_touch sequence is one id of one client (tt_wl_event.client) from
 * its down to its up, or to a cancel (which ends every touch of the
 * client). The rules (wayland.xml, wl_touch), each a kind of the catalog
 * (lib/analysis/diag.h) reported through the diagnostics callback:
 *   wl-frame-missing: touch events of one compositor time not closed by
 *     a frame before events of another time (or the end of the file);
 *   wl-touch-not-down: motion, up, shape or orientation for an id that
 *     is not down;
 *   wl-event-after-up: the same for an id whose up came, before a new
 *     down;
 *   wl-event-after-cancel: the same for an id a cancel ended;
 *   wl-touch-id-reused: a down for an id already down.
 *
 * The link: a Wayland touch came from the kernel touch that began at most
 * the window (default 250 ms) before its down arrived (a little after
 * too: the recorder may read the two sources in either order), not yet
 * taken, whose begin position agrees with the down's within the
 * tolerance (default 0.05 of the width and height): the kernel's
 * position normalized over its ABS_MT_POSITION_X/Y absinfo range against
 * the surface coordinates normalized over the surface: the size the
 * xdg_toplevel or the layer-shell overlay was configured to, else the first output's current mode
 * divided by its scale (width and height swapped for a 90 or 270 degree
 * transform), which is what a fullscreen surface covers when the
 * compositor maps the touchscreen onto that whole output. Without either,
 * time alone decides. Of the candidates, the nearest in position.
 *
 * The compositor going away (a wayland-lost marker) ends the touches open then
 * as active at the end, with no rule broken.
 *
 * Memory is bounded by the touches open at once and the kernel touches
 * of the last window.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "model.h"
#include "timeline.h"
#include "util-mem.h"

#define TT_WL_DEFAULT_WINDOW_US 250000
#define TT_WL_DEFAULT_TOLERANCE 0.05

struct tt_wl_touch {
	uint64_t serial;	/* 1, 2, ... in down order over the whole file */
	char client[32];	/* the recorder's client name, "wayland" */
	int32_t id;		/* wl_touch id */
	int64_t begin_us, end_us;	/* receive times of the down and the up/cancel */
	size_t begin_line, end_line;
	bool cancelled;		/* ended by a cancel */
	bool active_at_end;	/* never ended */
	uint64_t nmotions;
	uint64_t nframes;	/* frames received while it was down */
	double begin_x, begin_y;	/* surface coordinates of the down */
	double x, y;		/* the latest */
	/* The compositor's time of the down on the recording's clock: its
	 * microsecond timestamp (input-timestamps) where given, else its
	 * millisecond time, both CLOCK_MONOTONIC (as every libinput-based
	 * compositor stamps them), less the header's start. One more than
	 * 10 s from the kernel touch's time is on another clock: has_stamp
	 * is false then. */
	bool has_stamp;
	int64_t stamp_us;
	/* The kernel touch it came from: TT_LINK_LINKED, TT_LINK_NOT_DELIVERED
	 * (no kernel touch paired: "unlinked"), TT_LINK_NONE (the file has
	 * no touch device to link to). */
	enum tt_link_status link;
	uint64_t kernel_serial;	/* tt_ktouch.serial */
	uint32_t kernel_device;
	int32_t kernel_slot, kernel_tracking_id;
	int64_t kernel_begin_us;
	size_t kernel_begin_line;
	int64_t latency_us;	/* begin_us - kernel_begin_us */
	int64_t stamp_latency_us;	/* stamp_us - kernel_begin_us, when has_stamp */
	/* The libinput touch of that kernel touch (li TOUCH_DOWN on its
	 * device and slot), when the file has one: li_seat_slot >= 0. */
	int32_t li_seat_slot;
	int64_t li_begin_us;
	size_t li_begin_line;
	void *user;
};

struct tt_wl_callbacks {
	/* At the down: the link may still be pending (the kernel frame may
	 * come later in the file); touch_end has it final. */
	void (*touch_begin)(void *data, struct tt_wl_touch *t);
	void (*touch_update)(void *data, struct tt_wl_touch *t, const struct tt_wl_event *ev, size_t line);
	void (*touch_end)(void *data, struct tt_wl_touch *t);
};

struct tt_wl_model;

/* @fn gets the protocol rule violations (may be NULL). */
struct tt_wl_model *tt_wl_model_new(const struct tt_wl_callbacks *cb, void *data,
				    tt_diag_fn fn, void *diag_data);
void tt_wl_model_free(struct tt_wl_model *m);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_wl_model *, tt_wl_model_free);
/* Who hears its touches (@cb NULL: nobody). */
void tt_wl_model_set_callbacks(struct tt_wl_model *m, const struct tt_wl_callbacks *cb, void *data);
/* Its layer ops, with the model as self. */
struct tt_layer_ops;
const struct tt_layer_ops *tt_wl_model_layer(void);

/* Linking on (the default) or off (only the rules are checked: the
 * kernel touches are not followed); 0: the defaults. */
void tt_wl_model_set_link(struct tt_wl_model *m, bool on, int64_t window_us, double tolerance);
void tt_wl_model_feed(struct tt_wl_model *m, const struct tt_record *rec);
/* End of input: open groups are reported, open touches end as active at
 * end, pending links resolve. */
void tt_wl_model_finish(struct tt_wl_model *m);

/* Whether the file had a Wayland layer (any wl record). */
bool tt_wl_model_has_layer(const struct tt_wl_model *m);
/* "wl_touch.down": the interface and event of a record, for counts. */
void tt_wl_event_label(const struct tt_wl_event *ev, char *buf, size_t size);
/* Whether @ev is a wl_touch event about one touch (down, up, motion,
 * shape, orientation): its id. */
bool tt_wl_event_touch_id(const struct tt_wl_event *ev, int32_t *id);
/* The open touch @id of @client, or NULL (for printers). */
const struct tt_wl_touch *tt_wl_model_touch(const struct tt_wl_model *m, const char *client, int32_t id);
