/* SPDX-License-Identifier: MIT */
/*
 * The Wayland layer, live: a Wayland client of the session's compositor
 * that maps a surface over the whole output (a layer-shell overlay
 * where the compositor offers zwlr_layer_shell_v1, else a fullscreen
 * xdg-shell toplevel) and writes every event its seats, outputs
 * and surface receive into the timeline as "wl" records, on the frames'
 * clock. Its display fd is one more source of the command's event loop;
 * nothing blocks:
 *
 *	tt_wl_capture_connect(NULL, TT_WL_SURFACE_AUTO, &cap);	// before the file is made
 *	struct tt_wl_capture_options o = { .loop = loop, .writer = w,
 *					   .start_us = start };
 *	tt_wl_capture_start(cap, &o);	// mapped, marker written
 *	... run the loop ...
 *	tt_wl_capture_dispatch(cap);	// what is pending, at the end
 *
 * It binds wl_seat (a wl_touch and a wl_pointer as the capabilities come
 * and go), every wl_output, zwp_pointer_gestures_v1 (swipe, pinch, hold)
 * and zwp_input_timestamps_manager_v1 where the compositor offers them.
 * No keyboard is bound: no key is recorded. When the compositor goes away
 * (EOF or an error on the socket, or a protocol error) the source ends
 * with a wayland-lost marker and on_lost is called; the rest of the
 * recording goes on.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "event-loop.h"
#include "util-mem.h"
#include "writer.h"

/* Which surface takes the input. */
enum tt_wl_surface_mode {
	TT_WL_SURFACE_AUTO,	/* the overlay where offered, else the toplevel */
	TT_WL_SURFACE_OVERLAY,	/* the overlay, or fail */
	TT_WL_SURFACE_TOPLEVEL,	/* the fullscreen toplevel, or fail */
};

struct tt_wl_capture_options {
	struct tt_loop *loop;
	struct tt_writer *writer;
	int64_t start_us;	/* CLOCK_MONOTONIC of the timeline's time 0 */
	/* Called before wl records are written: record reads its evdev
	 * devices first, so a frame precedes what the compositor made of it. */
	void (*before_write)(void *userdata);
	/* Called once, with the first write error (-errno). */
	void (*on_error)(void *userdata, int error);
	/* Called once when the compositor went away, after the marker. */
	void (*on_lost)(void *userdata, const char *why);
	void *userdata;
};

struct tt_wl_capture;

/* Connects to @display (NULL: $WAYLAND_DISPLAY, else wayland-0) and
 * checks it offers what the @surface needs, so a missing compositor, or
 * one without the shell asked for, is reported before any file is made.
 * 0 or -errno (reported). */
int tt_wl_capture_connect(const char *display, enum tt_wl_surface_mode surface,
			  struct tt_wl_capture **out);
/* Binds the globals, maps the surface (waiting a bounded time
 * for the compositor's configure), writes what it received so far and
 * the wayland-connected marker, and adds the display fd to @opts->loop.
 * Call after the recorder's header. 0 or -errno (reported). */
int tt_wl_capture_start(struct tt_wl_capture *cap, const struct tt_wl_capture_options *opts);
/* Reads and writes whatever the compositor has sent by now. */
void tt_wl_capture_dispatch(struct tt_wl_capture *cap);
/* At the end of a recording: as dispatch, then, while a touch the client
 * was given is not up or cancelled, waits for the compositor (which may
 * lag the kernel by a second under load) up to @max_ms. */
void tt_wl_capture_drain(struct tt_wl_capture *cap, int max_ms);
/* wl records written so far. */
size_t tt_wl_capture_nevents(const struct tt_wl_capture *cap);
void tt_wl_capture_free(struct tt_wl_capture *cap);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_wl_capture *, tt_wl_capture_free);
