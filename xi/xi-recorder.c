/* SPDX-License-Identifier: MIT */
/*
 * record --xi: the X clients' events as records, the grab client's
 * decisions, the pointer client, and touchtape list's X side. Connecting
 * the clients is in xi-connect.c, what each selects in xi-select.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/Xrandr.h>

#include "log.h"
#include "util-strings.h"
#include "util-time.h"
#include "writer.h"
#include "xi-convert.h"
#include "xi-private.h"
#include "xi-recorder.h"

static struct xclient *registered[2 * MAX_CLIENTS];

static struct xclient *
client_of(Display *dpy)
{
	for (size_t i = 0; i < ARRAY_LENGTH(registered); i++)
		if (registered[i] && registered[i]->dpy == dpy)
			return registered[i];
	return NULL;
}

void
xi_register_client(struct xclient *c, bool on)
{
	for (size_t i = 0; i < ARRAY_LENGTH(registered); i++) {
		if (on && !registered[i]) {
			registered[i] = c;
			return;
		}
		if (!on && registered[i] == c)
			registered[i] = NULL;
	}
}

/* Errors are counted and reported by the code that made the request
 * (after an XSync) or, for asynchronous ones, as a note marker after the
 * next dispatch; never Xlib's default (print and exit). */
int
xi_on_x_error(Display *dpy, XErrorEvent *e)
{
	struct xclient *c = client_of(dpy);

	if (c) {
		c->nerrors++;
		c->last_error = *e;
	}
	return 0;
}

int
xi_on_x_io_error(Display *dpy)
{
	(void)dpy;
	return 0;	/* the exit handler below marks the client lost */
}

void
xi_on_x_io_exit(Display *dpy, void *data)
{
	struct xclient *c = data;

	(void)dpy;
	c->lost = true;	/* returning instead of exit(): libX11 >= 1.7 */
}

const char *
xi_error_name(Display *dpy, const XErrorEvent *e, char *buf, size_t size)
{
	XGetErrorText(dpy, e->error_code, buf, (int)size);
	return buf;
}

static int64_t
now_rel(const struct tt_xi_recorder *xr)
{
	return tt_now_us(CLOCK_MONOTONIC) - xr->ctx->start_us;
}

static void
check_write(struct tt_xi_recorder *xr, int rc)
{
	if (rc >= 0 || xr->write_failed)
		return;
	xr->write_failed = true;
	tt_error("writing an X record: %s; stopping", strerror(-rc));
	xr->ctx->stop(xr->ctx->host, "write error", EXIT_FAILURE_STATUS);
}

void
xi_write_marker(struct tt_xi_recorder *xr, enum tt_marker_kind kind, const char *text)
{
	struct tt_marker m = {
		.time_us = now_rel(xr),
		.kind = kind,
		.device = -1,
		.text = (char *)text,
	};

	if (!xr->write_failed)
		check_write(xr, tt_writer_marker(xr->ctx->writer, &m));
}

static void
write_event(struct tt_xi_recorder *xr, const struct tt_xi_event *ev)
{
	if (!xr->write_failed)
		check_write(xr, tt_writer_xi_event(xr->ctx->writer, ev));
}

/* ---- devices ---- */

static char *
atom_name(void *data, Atom atom)
{
	struct xclient *c = data;
	char *n = XGetAtomName(c->dpy, atom);
	char *copy = n ? tt_strdup(n) : NULL;

	if (n)
		XFree(n);
	return copy;
}

static char *
device_node(struct xclient *c, int deviceid)
{
	Atom prop = XInternAtom(c->dpy, "Device Node", True);
	Atom type = None;
	int format = 0;
	unsigned long nitems = 0, after = 0;
	unsigned char *data = NULL;
	char *node;

	if (prop == None)
		return NULL;
	if (XIGetProperty(c->dpy, deviceid, prop, 0, 1024, False, AnyPropertyType, &type, &format,
			  &nitems, &after, &data) != Success)
		return NULL;
	node = tt_xi_device_node(type, format, nitems, data);
	if (data)
		XFree(data);
	return node;
}

/* The evdev record this node belongs to: same device number, or the same
 * path when stat fails. */
static int64_t
link_node(const struct tt_xi_recorder *xr, const char *node)
{
	struct stat xs, ks;
	bool have_xs;

	if (!node)
		return -1;
	have_xs = stat(node, &xs) == 0 && S_ISCHR(xs.st_mode);
	for (size_t i = 0; i < xr->nnodes; i++) {
		if (!xr->nodes[i])
			continue;
		if (have_xs && stat(xr->nodes[i], &ks) == 0 && S_ISCHR(ks.st_mode) &&
		    ks.st_rdev == xs.st_rdev)
			return (int64_t)i;
		if (strcmp(xr->nodes[i], node) == 0)
			return (int64_t)i;
	}
	return -1;
}

/* Writes an xi_device record for @deviceid (XIAllDevices: every device).
 * Returns the number of devices written. */
static int
write_devices(struct xclient *c, int deviceid)
{
	struct tt_xi_recorder *xr = c->xr;
	int ndevices = 0;
	unsigned int errors = c->nerrors;
	XIDeviceInfo *info = XIQueryDevice(c->dpy, deviceid, &ndevices);

	if (!info || c->nerrors != errors)
		ndevices = 0;	/* BadDevice: it went away already */
	for (int i = 0; i < ndevices; i++) {
		_cleanup_free_ char *node = device_node(c, info[i].deviceid);
		struct tt_xi_device *d = tt_xi_convert_device_info(&info[i], atom_name, c, node,
								   link_node(xr, node));
		if (!xr->write_failed)
			check_write(xr, tt_writer_xi_device(xr->ctx->writer, d));
		tt_xi_device_free(d);
	}
	if (info)
		XIFreeDeviceInfo(info);
	c->nerrors = errors;	/* expected for vanished devices, not worth a note */
	return ndevices;
}

/* ---- the grab client's decisions ---- */

static void
allow(struct xclient *c, int32_t deviceid, uint32_t touchid, bool accept)
{
	struct tt_xi_event ev;

	if (c->lost)
		return;
	XIAllowTouchEvents(c->dpy, deviceid, touchid, c->win, accept ? XIAcceptTouch : XIRejectTouch);
	XFlush(c->dpy);
	tt_xi_convert_request(accept, deviceid, touchid, (uint32_t)c->win, now_rel(c->xr), c->name, &ev);
	write_event(c->xr, &ev);
	tt_xi_event_clear(&ev);
}

const struct tt_xi_grab *
xi_grab_of(const struct xclient *c)
{
	return &c->xr->opts.grabs[c->stage];
}

static void
decide(struct xclient *c, int32_t deviceid, uint32_t touchid)
{
	allow(c, deviceid, touchid, xi_grab_of(c)->mode == TT_XI_GRAB_ACCEPT);
}

static void
arm_timer(struct tt_xi_recorder *xr)
{
	int64_t when = 0;

	for (size_t i = 0; i < xr->npending; i++)
		if (!when || xr->pending[i].due_us < when)
			when = xr->pending[i].due_us;
	tt_loop_timer_set(xr->timer, when);
}

static void
decide_later(struct xclient *c, int32_t deviceid, uint32_t touchid)
{
	struct tt_xi_recorder *xr = c->xr;

	if (xr->npending == MAX_PENDING) {
		/* More touches waiting than any panel has: decide the oldest now. */
		decide(xr->pending[0].c, xr->pending[0].deviceid, xr->pending[0].touchid);
		memmove(&xr->pending[0], &xr->pending[1], (MAX_PENDING - 1) * sizeof(xr->pending[0]));
		xr->npending--;
	}
	xr->pending[xr->npending++] = (struct pending){
		.c = c,
		.deviceid = deviceid,
		.touchid = touchid,
		.due_us = tt_now_us(CLOCK_MONOTONIC) + xi_grab_of(c)->delay_us,
	};
	arm_timer(xr);
}

static void drain(struct xclient *c);

static void
on_timer(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct tt_xi_recorder *xr = userdata;
	int64_t now = tt_now_us(CLOCK_MONOTONIC);

	(void)loop;
	(void)source;
	(void)events;
	for (size_t i = 0; i < xr->npending;) {
		struct pending *p = &xr->pending[i];
		if (p->due_us > now) {
			i++;
			continue;
		}
		decide(p->c, p->deviceid, p->touchid);
		memmove(p, p + 1, (xr->npending - i - 1) * sizeof(*p));
		xr->npending--;
	}
	arm_timer(xr);
	for (size_t i = 0; i < xr->nclients; i++)
		if (xr->clients[i].kind == CLIENT_GRAB)
			drain(&xr->clients[i]);
}

/* ---- the pointer client ---- */

void
xi_pointer_request(struct xclient *c, int32_t evtype, uint32_t mode)
{
	struct tt_xi_event ev;

	tt_xi_convert_pointer_request(evtype, c->pointer, mode, (uint32_t)c->win, now_rel(c->xr),
				      c->name, &ev);
	write_event(c->xr, &ev);
	tt_xi_event_clear(&ev);
}

/* A sync grab freezes the pointer at each button event until the client
 * lets the next one through, as a client studying each click does; the
 * grab ends at the first emulated ButtonRelease, so later touches show
 * the rest of the chain without it. */
static void
pointer_event(struct xclient *c, int evtype, const void *data)
{
	const XIDeviceEvent *d = data;
	bool button = evtype == XI_ButtonPress || evtype == XI_ButtonRelease;

	if (c->lost || !c->pointer_grabbed || !button)
		return;
	if (evtype == XI_ButtonRelease && (d->flags & XIPointerEmulated)) {
		XIUngrabDevice(c->dpy, c->pointer, CurrentTime);
		XFlush(c->dpy);
		c->pointer_grabbed = false;
		xi_pointer_request(c, TT_XI_REQ_UNGRAB_DEVICE, 0);
	} else if (c->xr->opts.pointer == TT_XI_POINTER_SYNC) {
		XIAllowEvents(c->dpy, c->pointer, XISyncDevice, CurrentTime);
		XFlush(c->dpy);
		xi_pointer_request(c, TT_XI_REQ_ALLOW_EVENTS, XISyncDevice);
	}
}

/* ---- events ---- */

static void
note_errors(struct xclient *c)
{
	char text[256], name[128];

	if (c->nerrors == c->reported_errors || c->lost)
		return;
	snprintf(text, sizeof(text), "X error on the %s client: %s (request %u.%u, resource 0x%lx)%s",
		 c->name, xi_error_name(c->dpy, &c->last_error, name, sizeof(name)),
		 c->last_error.request_code, c->last_error.minor_code, c->last_error.resourceid,
		 c->nerrors - c->reported_errors > 1 ? " and earlier ones" : "");
	tt_warning("%s", text);
	xi_write_marker(c->xr, TT_MARKER_NOTE, text);
	c->reported_errors = c->nerrors;
}

static void
connection_lost(struct xclient *c)
{
	struct tt_xi_recorder *xr = c->xr;
	char text[256];
	bool kernel = xr->nnodes > 0;

	if (c->lost_reported)
		return;
	c->lost_reported = true;
	if (c->source) {
		tt_loop_remove(xr->ctx->loop, c->source);
		c->source = NULL;
	}
	/* One marker for the server; each client finds out on its own. */
	for (size_t i = 0; i < xr->nclients; i++)
		if (&xr->clients[i] != c && xr->clients[i].lost_reported)
			return;
	snprintf(text, sizeof(text), "connection to X server %s lost (%s client)%s", xr->display_name,
		 c->name, kernel ? "; the kernel devices keep recording" : "");
	xi_write_marker(xr, TT_MARKER_X_LOST, text);
	if (kernel) {
		tt_warning("%s", text);
	} else {
		tt_error("%s", text);
		xr->ctx->stop(xr->ctx->host, "X connection lost", EXIT_FAILURE_STATUS);
	}
}

static void
after_event(struct xclient *c, int evtype, const void *data)
{
	if (c->kind == CLIENT_GRAB && evtype == XI_TouchBegin) {
		const XIDeviceEvent *d = data;
		if (xi_grab_of(c)->delay_us == 0)
			decide(c, d->deviceid, (uint32_t)d->detail);
		else
			decide_later(c, d->deviceid, (uint32_t)d->detail);
	} else if (c->kind == CLIENT_POINTER) {
		pointer_event(c, evtype, data);
	} else if (c->kind == CLIENT_OBSERVER && evtype == XI_HierarchyChanged) {
		const XIHierarchyEvent *h = data;
		const int interesting = XIMasterAdded | XISlaveAdded | XISlaveAttached |
					XISlaveDetached | XIDeviceEnabled | XIDeviceDisabled;
		for (int i = 0; h->info && i < h->num_info && i < (int)TT_MAX_XI_CHANGES; i++)
			if (h->info[i].flags & interesting)
				write_devices(c, h->info[i].deviceid);
	} else if (c->kind == CLIENT_OBSERVER && evtype == XI_DeviceChanged) {
		const XIDeviceChangedEvent *d = data;
		if (d->reason == XIDeviceChange)
			write_devices(c, d->deviceid);
	}
}

/* A raw selection for XIAllDevices gets every raw event twice: from the
 * slave device (deviceid == sourceid) and through its master. Only the
 * slave's is kept: the same event, and floating slaves have no master. */
static bool
is_master_raw_copy(int evtype, const void *data)
{
	const XIRawEvent *raw = data;

	if (evtype != XI_RawTouchBegin && evtype != XI_RawTouchUpdate && evtype != XI_RawTouchEnd)
		return false;
	return raw->deviceid != raw->sourceid;
}

static void
handle(struct xclient *c, XEvent *xev)
{
	XGenericEventCookie *cookie = &xev->xcookie;
	struct tt_xi_event ev;

	if (cookie->type != GenericEvent || cookie->extension != c->xi_opcode ||
	    !XGetEventData(c->dpy, cookie))
		return;
	if (is_master_raw_copy(cookie->evtype, cookie->data)) {
		XFreeEventData(c->dpy, cookie);
		return;
	}
	if (tt_xi_convert_cookie(cookie->evtype, cookie->data, now_rel(c->xr), c->name, &ev) == 0) {
		write_event(c->xr, &ev);
		tt_xi_event_clear(&ev);
		c->nevents++;
		after_event(c, cookie->evtype, cookie->data);
	}
	XFreeEventData(c->dpy, cookie);
}

/* What Xlib has queued, or else one read of what the socket holds (more
 * makes the socket readable again: the loop comes back). Also called after
 * our own requests: an XSync may have queued events without the socket
 * becoming readable again.
 *
 * Before those events are written, the kernel devices' pending frames
 * are: the X server read a frame from the same evdev device before it sent
 * what it made of it, so the frame is in our evdev buffer by now, and the
 * file keeps cause before effect (the link in xi/model-link.c reads it in
 * that order). */
static void
drain(struct xclient *c)
{
	if (!c->lost)
		XEventsQueued(c->dpy, QueuedAfterFlush);
	if (!c->lost && XEventsQueued(c->dpy, QueuedAlready) > 0)
		c->xr->ctx->poll(c->xr->ctx->host);
	while (!c->lost && XEventsQueued(c->dpy, QueuedAlready) > 0) {
		XEvent xev;
		XNextEvent(c->dpy, &xev);
		handle(c, &xev);
	}
	note_errors(c);
	if (c->lost)
		connection_lost(c);
}

void
xi_on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	drain(userdata);
}


void
tt_xi_recorder_set_nodes(struct tt_xi_recorder *xr, char *const *nodes, size_t nnodes)
{
	xr->nodes = tt_reallocarray(NULL, nnodes ? nnodes : 1, sizeof(*xr->nodes));
	for (size_t i = 0; i < nnodes; i++)
		xr->nodes[i] = nodes[i] ? tt_strdup(nodes[i]) : NULL;
	xr->nnodes = nnodes;
}

/* After the recorder's preamble: the x-connected marker, the XI devices,
 * the clients set up, their connections on the loop. */
static int
xi_start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_xi_recorder *xr = data;
	struct xclient *obs = &xr->clients[0];
	char text[512];
	int rc;

	xr->ctx = ctx;
	xi_describe_clients(xr, text, sizeof(text));
	xi_write_marker(xr, TT_MARKER_X_CONNECTED, text);
	/* Selected before the devices are listed, so a device added in
	 * between shows up as a hierarchy event rather than nowhere. */
	rc = xi_select_observer(obs);
	if (rc < 0)
		return rc;
	write_devices(obs, XIAllDevices);
	xr->inner = obs->root;
	for (size_t i = 1; i < xr->nclients; i++) {
		rc = xi_setup_client(&xr->clients[i]);
		if (rc < 0)
			return rc;
	}
	if (xi_any_delay(xr)) {
		xr->timer = tt_loop_add_timer(ctx->loop, on_timer, xr);
		if (!xr->timer)
			return -errno;
	}
	for (size_t i = 0; i < xr->nclients; i++) {
		struct xclient *c = &xr->clients[i];
		c->source = tt_loop_add(ctx->loop, ConnectionNumber(c->dpy), xi_on_readable, c);
		if (!c->source)
			return -errno;
		drain(c);
	}
	if (!xr->opts.quiet)
		tt_info("recording XInput touch events from %s (%s)", xr->display_name, text);
	return xr->write_failed ? -EIO : 0;
}

static void
xi_summary(const void *data)
{
	const struct tt_xi_recorder *xr = data;

	for (size_t i = 0; i < xr->nclients; i++) {
		const struct xclient *c = &xr->clients[i];
		fprintf(stderr, "  X %s  %s client: %" PRIu64 " XI events, %u X errors%s\n",
			xr->display_name, c->name, c->nevents, c->nerrors, c->lost ? " (connection lost)" : "");
	}
}

void
tt_xi_recorder_free(struct tt_xi_recorder *xr)
{
	if (!xr)
		return;
	for (size_t i = 0; i < xr->nclients; i++) {
		struct xclient *c = &xr->clients[i];
		if (c->source && xr->ctx)
			tt_loop_remove(xr->ctx->loop, c->source);
		/* A dead connection is not touched again (closing it would
		 * talk to the server); the process ends soon after. */
		if (c->dpy && !c->lost)
			XCloseDisplay(c->dpy);
		xi_register_client(c, false);
	}
	if (xr->timer && xr->ctx)
		tt_loop_remove(xr->ctx->loop, xr->timer);
	for (size_t i = 0; i < xr->nnodes; i++)
		free(xr->nodes[i]);
	free(xr->nodes);
	free(xr->display_name);
	free(xr->vendor);
	free(xr);
}

static void
xi_free(void *data)
{
	tt_xi_recorder_free(data);
}

/* X has nothing of its own to drain: what the server sent is read as it
 * comes. */
const struct tt_source_ops tt_xi_source_ops = {
	.name = "xi",
	.start = xi_start,
	.summary = xi_summary,
	.free = xi_free,
};

/* ---- touchtape list ---- */

int
tt_xi_list_scan(const char *display, struct tt_xi_list *out)
{
	struct tt_xi_options opts = { .display = display, .quiet = true };
	_cleanup_(tt_xi_recorder_freep) struct tt_xi_recorder *xr = NULL;
	int ndevices = 0;
	int rc;

	rc = tt_xi_recorder_connect(&opts, &xr);
	if (rc < 0)
		return rc;
	struct xclient *c = &xr->clients[0];
	XIDeviceInfo *info = XIQueryDevice(c->dpy, XIAllDevices, &ndevices);
	memset(out, 0, sizeof(*out));
	out->display = steal(&xr->display_name);
	out->vendor = steal(&xr->vendor);
	out->release = xr->release;
	out->major = xr->major;
	out->minor = xr->minor;
	out->devices = tt_reallocarray(NULL, ndevices > 0 ? (size_t)ndevices : 1, sizeof(*out->devices));
	for (int i = 0; info && i < ndevices; i++) {
		_cleanup_free_ char *node = device_node(c, info[i].deviceid);
		out->devices[out->n++] = tt_xi_convert_device_info(&info[i], NULL, NULL, node, -1);
	}
	if (info)
		XIFreeDeviceInfo(info);
	return 0;
}

void
tt_xi_list_clear(struct tt_xi_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		tt_xi_device_free(l->devices[i]);
	free(l->devices);
	free(l->display);
	free(l->vendor);
	memset(l, 0, sizeof(*l));
}
