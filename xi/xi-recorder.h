/* SPDX-License-Identifier: MIT */
/*
 * touchtape record --xi: the X server's side of a touch, into the same
 * timeline as the kernel frames.
 *
 * X clients, each an X connection and a source of the recorder's event
 * loop:
 *   observer  raw touch events (delivered to every client, grabs or not),
 *             touch events and TouchOwnership selected on the root window,
 *             hierarchy and device changes;
 *   grab      (--xi-grab) a passive touch grab on the root window that
 *             accepts or rejects every touch, at once or after a delay,
 *             like a window manager recognising a gesture. Given several
 *             times, a chain grab1, grab2, ...: grab1 on the root window,
 *             each further one on a screen-sized window of its own nested
 *             in the previous one's, so the server offers each touch to
 *             them outermost first;
 *   window    (--xi-window) a client with its own mapped window covering
 *             the screen (inside the innermost grab's), selecting touch
 *             events and TouchOwnership, like an application;
 *   pointer   (--xi-pointer-grab) a client that grabs the master pointer
 *             (until the first emulated ButtonRelease) or selects pointer
 *             events on the innermost window, to show where the pointer
 *             events emulated from the first touch go.
 * Every record names the client that received it; the clients' own
 * requests (XIAllowTouchEvents, XIGrabDevice, ...) are records too.
 *
 *	tt_xi_recorder_connect(&opts, &xr);	// before the header is written
 *	opts.x_vendor = tt_xi_recorder_vendor(xr) ...
 *	tt_recorder_new(...); ... tt_recorder_begin(recorder);
 *	tt_xi_recorder_set_nodes(xr, nodes, nnodes);
 *	tt_recorder_add_source(recorder, &tt_xi_source_ops, xr);
 *	tt_recorder_run(recorder);
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "capture-source.h"
#include "timeline.h"
#include "util-mem.h"

enum tt_xi_grab_mode {
	TT_XI_GRAB_NONE = 0,
	TT_XI_GRAB_ACCEPT,
	TT_XI_GRAB_REJECT,
};

/* The most passive grabs a chain may have (--xi-grab given N times). */
#define TT_XI_MAX_GRABS 4

struct tt_xi_grab {
	enum tt_xi_grab_mode mode;
	int64_t delay_us;		/* decide this long after TouchBegin; 0: at once */
};

/* --xi-pointer-grab: how the pointer client takes pointer events. */
enum tt_xi_pointer_mode {
	TT_XI_POINTER_NONE = 0,
	TT_XI_POINTER_SYNC,		/* XIGrabDevice, sync: thawed per button event */
	TT_XI_POINTER_ASYNC,		/* XIGrabDevice, async */
	TT_XI_POINTER_SELECT,		/* button and motion events selected */
};

struct tt_xi_options {
	const char *display;		/* NULL: $DISPLAY */
	struct tt_xi_grab grabs[TT_XI_MAX_GRABS];	/* outermost first */
	size_t ngrabs;
	enum tt_xi_pointer_mode pointer;
	bool window;			/* add the window client */
	bool quiet;
	bool allow_xwayland;		/* record --wayland: the session's Xwayland */
};

/* "accept", "reject", "accept-after=MS", "reject-after=MS" (MS in
 * milliseconds, or a duration like 50ms, 0.2s). 0 or -EINVAL. */
int tt_xi_parse_grab(const char *arg, enum tt_xi_grab_mode *mode, int64_t *delay_us);
/* "sync", "async" or "select". 0 or -EINVAL. */
int tt_xi_parse_pointer(const char *arg, enum tt_xi_pointer_mode *mode);

struct tt_xi_recorder;

/* Opens the clients' connections and checks the server: XI 2.2, not
 * Xwayland (unless opts->allow_xwayland). Errors are printed; 0 or -errno. */
int tt_xi_recorder_connect(const struct tt_xi_options *opts, struct tt_xi_recorder **out);
/* For the header: the server's vendor string and release. */
const char *tt_xi_recorder_vendor(const struct tt_xi_recorder *xr);
int32_t tt_xi_recorder_release(const struct tt_xi_recorder *xr);

/* @nodes[i] is the node of evdev record i: the XI devices opened from
 * one are linked to its record. */
void tt_xi_recorder_set_nodes(struct tt_xi_recorder *xr, char *const *nodes, size_t nnodes);

/* The X clients as a capture source (evdev/capture-source.h), added after
 * the recorder's preamble: start writes the x-connected marker and an
 * xi_device record per XI device, selects the events, sets up the grab
 * and the window, and adds the connections to the loop; summary is a
 * line per client (events recorded, errors). Before it writes X events,
 * it reads the kernel sources (ctx->poll), so a frame is in the file
 * before what X made of it. */
extern const struct tt_source_ops tt_xi_source_ops;

void tt_xi_recorder_free(struct tt_xi_recorder *xr);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_xi_recorder *, tt_xi_recorder_free);

/* touchtape list: the X server's input devices. */
struct tt_xi_list {
	char *display;		/* sanitized */
	char *vendor;		/* sanitized */
	int32_t release;
	int major, minor;	/* the server's XInput version */
	struct tt_xi_device **devices;	/* every device, masters included */
	size_t n;
};

/* Connects to @display (NULL: $DISPLAY) with the recorder's checks (XI
 * 2.2, not Xwayland) and lists the devices with their touch class and
 * the kernel node each came from. 0, or -errno after printing why. */
int tt_xi_list_scan(const char *display, struct tt_xi_list *out);
void tt_xi_list_clear(struct tt_xi_list *l);
