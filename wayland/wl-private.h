/* SPDX-License-Identifier: MIT */
/*
 * What wl-capture.c (the connection, the surface, the loop) and
 * wl-input.c (the seats' and outputs' listeners) share.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "input-timestamps-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "timeline.h"
#include "wl-capture.h"

#define WL_MAX_SEATS 8
#define WL_MAX_OUTPUTS 16

struct wl_cap_seat {
	struct tt_wl_capture *cap;
	struct wl_seat *seat;
	uint32_t name;		/* the registry's global name */
	uint32_t caps;
	struct wl_touch *touch;
	struct wl_pointer *pointer;
	struct zwp_pointer_gesture_swipe_v1 *swipe;
	struct zwp_pointer_gesture_pinch_v1 *pinch;
	struct zwp_pointer_gesture_hold_v1 *hold;
	struct zwp_input_timestamps_v1 *touch_ts;
	struct zwp_input_timestamps_v1 *pointer_ts;
	/* zwp_input_timestamps_v1 sends the timestamp just before the event
	 * it belongs to: held here until that event comes. -1: none. */
	int64_t touch_ts_us;
	int64_t pointer_ts_us;
};

struct wl_cap_output {
	struct tt_wl_capture *cap;
	struct wl_output *output;
	uint32_t name;
	int32_t width, height;	/* the current mode */
};

/* The globals the surface needs, as tt_wl_capture_connect saw them. */
enum wl_offers {
	WL_OFFERS_COMPOSITOR = 1 << 0,
	WL_OFFERS_SHM = 1 << 1,
	WL_OFFERS_XDG_SHELL = 1 << 2,
	WL_OFFERS_LAYER_SHELL = 1 << 3,
};

struct tt_wl_capture {
	struct tt_wl_capture_options opts;
	enum tt_wl_surface_mode surface_mode;
	unsigned offered;	/* enum wl_offers bits */
	char *display_name;
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct zwp_pointer_gestures_v1 *gestures;
	uint32_t gestures_version;
	struct zwp_input_timestamps_manager_v1 *timestamps;
	struct wl_cap_seat seats[WL_MAX_SEATS];
	size_t nseats;
	struct wl_cap_output outputs[WL_MAX_OUTPUTS];
	size_t noutputs;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct zwlr_layer_shell_v1 *layer_shell;
	struct zwlr_layer_surface_v1 *overlay;	/* instead of the toplevel */
	struct wl_buffer *buffer;
	int32_t buffer_width, buffer_height;
	int32_t want_width, want_height;	/* from the toplevel's or overlay's configure */
	bool configured;

	struct tt_loop_source *source;
	int64_t batch_time_us;	/* when the events being dispatched were read; -1 */
	size_t nevents;
	bool write_failed;
	bool lost;
	uint32_t touches_down;	/* wl_touch downs not yet up or cancelled */
};

/* Writes @ev (its time and client filled in here). */
void wl_cap_write(struct tt_wl_capture *cap, struct tt_wl_event *ev);
/* A record of @kind for the event on @proxy, to fill and write. */
struct tt_wl_event wl_cap_event(enum tt_wl_event_type kind, void *proxy);
/* After the configure is acked: the buffer of the size asked for,
 * committed (wl-capture.c). */
void wl_cap_surface_configured(struct tt_wl_capture *cap);
/* The surface as a layer-shell overlay on every edge (wl-layer.c). */
void wl_cap_make_overlay(struct tt_wl_capture *cap);
void wl_cap_destroy_overlay(struct tt_wl_capture *cap);
/* The seat's devices for its capabilities (listeners in wl-input.c). */
void wl_cap_seat_update(struct wl_cap_seat *s);
void wl_cap_seat_release(struct wl_cap_seat *s);
extern const struct wl_seat_listener wl_cap_seat_listener;
extern const struct wl_output_listener wl_cap_output_listener;
