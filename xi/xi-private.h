/* SPDX-License-Identifier: MIT */
/*
 * What the XI recorder's files share (xi-recorder.c runs it): the
 * recorder and its X clients, connecting them (xi-connect.c) and
 * selecting what each listens to (xi-select.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <X11/Xlib.h>

#include "xi-recorder.h"

#define EXIT_FAILURE_STATUS 1
#define MAX_CLIENTS (3 + TT_XI_MAX_GRABS)
#define MAX_PENDING 256

enum client_kind { CLIENT_OBSERVER, CLIENT_GRAB, CLIENT_WINDOW, CLIENT_POINTER };

struct xclient {
	struct tt_xi_recorder *xr;
	enum client_kind kind;
	const char *name;
	char name_buf[16];	/* grab1, grab2, ... in a chain */
	size_t stage;		/* a grab's index in opts.grabs */
	Display *dpy;
	int xi_opcode;
	Window root;
	Window win;		/* the window the grab is on, the window client's window */
	int pointer;		/* the pointer client's master pointer */
	bool pointer_grabbed;
	struct tt_loop_source *source;
	bool lost;		/* the connection died: no Xlib call on it any more */
	bool lost_reported;
	/* Filled by the error handler (Xlib's handler is process-wide and
	 * has no user data: it finds the client by its Display). */
	unsigned int nerrors;
	unsigned int reported_errors;
	XErrorEvent last_error;
	uint64_t nevents;
};

/* A grab decision waiting for its time (accept-after / reject-after). */
struct pending {
	struct xclient *c;	/* the grab that decides */
	int32_t deviceid;
	uint32_t touchid;
	int64_t due_us;		/* CLOCK_MONOTONIC */
};

struct tt_xi_recorder {
	struct tt_xi_options opts;
	char *display_name;
	char *vendor;
	int32_t release;
	int major, minor;	/* the server's XI version */
	struct xclient clients[MAX_CLIENTS];
	size_t nclients;
	Window inner;		/* the innermost window set up so far */
	const struct tt_source_ctx *ctx;	/* the recorder's, once started */
	char **nodes;		/* copies: evdev record i was opened from nodes[i] */
	size_t nnodes;
	struct tt_loop_source *timer;
	struct pending pending[MAX_PENDING];
	size_t npending;
	bool write_failed;
};

void xi_register_client(struct xclient *c, bool on);
/* Errors are counted and reported by the code that made the request
 * (after an XSync) or, for asynchronous ones, as a note marker after the
 * next dispatch; never Xlib's default (print and exit). */
int xi_on_x_error(Display *dpy, XErrorEvent *e);
int xi_on_x_io_error(Display *dpy);
void xi_on_x_io_exit(Display *dpy, void *data);
const char *xi_error_name(Display *dpy, const XErrorEvent *e, char *buf, size_t size);
void xi_write_marker(struct tt_xi_recorder *xr, enum tt_marker_kind kind, const char *text);
const struct tt_xi_grab *xi_grab_of(const struct xclient *c);
void xi_pointer_request(struct xclient *c, int32_t evtype, uint32_t mode);
void xi_on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata);
int xi_select_observer(struct xclient *c);
int xi_setup_client(struct xclient *c);
bool xi_any_delay(const struct tt_xi_recorder *xr);
/* "X server :0: The X.Org Foundation 12101011, XInput 2.4; clients:
 * observer, grab1 (rejects each touch after 30000 us), ..." */
void xi_describe_clients(const struct tt_xi_recorder *xr, char *text, size_t size);
