/* SPDX-License-Identifier: MIT */
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
#include "xi-recorder.h"

#define EXIT_FAILURE_STATUS 1
#define MAX_CLIENTS (3 + TT_XI_MAX_GRABS)
#define MAX_PENDING 256

enum client_kind { CLIENT_OBSERVER, CLIENT_GRAB, CLIENT_WINDOW, CLIENT_POINTER };
static const char *const client_names[] = { "observer", "grab", "window", "pointer" };

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
	struct tt_recorder *rec;
	char **nodes;		/* copies: evdev record i was opened from nodes[i] */
	size_t nnodes;
	struct tt_loop_source *timer;
	struct pending pending[MAX_PENDING];
	size_t npending;
	bool write_failed;
};

static struct xclient *registered[2 * MAX_CLIENTS];

static struct xclient *
client_of(Display *dpy)
{
	for (size_t i = 0; i < ARRAY_LENGTH(registered); i++)
		if (registered[i] && registered[i]->dpy == dpy)
			return registered[i];
	return NULL;
}

static void
register_client(struct xclient *c, bool on)
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
static int
on_x_error(Display *dpy, XErrorEvent *e)
{
	struct xclient *c = client_of(dpy);

	if (c) {
		c->nerrors++;
		c->last_error = *e;
	}
	return 0;
}

static int
on_x_io_error(Display *dpy)
{
	(void)dpy;
	return 0;	/* the exit handler below marks the client lost */
}

static void
on_x_io_exit(Display *dpy, void *data)
{
	struct xclient *c = data;

	(void)dpy;
	c->lost = true;	/* returning instead of exit(): libX11 >= 1.7 */
}

static const char *
error_name(Display *dpy, const XErrorEvent *e, char *buf, size_t size)
{
	XGetErrorText(dpy, e->error_code, buf, (int)size);
	return buf;
}

static int64_t
now_rel(const struct tt_xi_recorder *xr)
{
	return tt_now_us(CLOCK_MONOTONIC) - tt_recorder_start_us(xr->rec);
}

static void
check_write(struct tt_xi_recorder *xr, int rc)
{
	if (rc >= 0 || xr->write_failed)
		return;
	xr->write_failed = true;
	tt_error("writing an X record: %s; stopping", strerror(-rc));
	tt_recorder_stop(xr->rec, "write error", EXIT_FAILURE_STATUS);
}

static void
write_marker(struct tt_xi_recorder *xr, enum tt_marker_kind kind, const char *text)
{
	struct tt_marker m = {
		.time_us = now_rel(xr),
		.kind = kind,
		.device = -1,
		.text = (char *)text,
	};

	if (!xr->write_failed)
		check_write(xr, tt_writer_marker(tt_recorder_writer(xr->rec), &m));
}

static void
write_event(struct tt_xi_recorder *xr, const struct tt_xi_event *ev)
{
	if (!xr->write_failed)
		check_write(xr, tt_writer_xi_event(tt_recorder_writer(xr->rec), ev));
}

/* ---- connecting ---- */

static int
query_xi(struct xclient *c, const char *display)
{
	int event, error;
	int major = 2, minor = 2;

	if (!XQueryExtension(c->dpy, "XInputExtension", &c->xi_opcode, &event, &error)) {
		tt_error("X server %s has no XInput extension", display);
		return -ENOTSUP;
	}
	if (XIQueryVersion(c->dpy, &major, &minor) != Success || major * 100 + minor < 202) {
		tt_error("X server %s supports XInput %d.%d; touch events need XInput 2.2", display,
			 major, minor);
		return -ENOTSUP;
	}
	c->xr->major = major;
	c->xr->minor = minor;
	return 0;
}

/* Xwayland names its RandR outputs XWAYLAND0, XWAYLAND1...: a sign that
 * needs no Wayland seat (a compositor without input devices gives
 * Xwayland none of its xwayland-* devices). */
static bool
xwayland_output(Display *dpy, char *why, size_t size)
{
	int ev, err, major = 0, minor = 0;
	bool found = false;

	if (!XRRQueryExtension(dpy, &ev, &err) || !XRRQueryVersion(dpy, &major, &minor) ||
	    major * 100 + minor < 103)
		return false;
	XRRScreenResources *res = XRRGetScreenResourcesCurrent(dpy, DefaultRootWindow(dpy));
	for (int i = 0; res && i < res->noutput && !found; i++) {
		XRROutputInfo *o = XRRGetOutputInfo(dpy, res, res->outputs[i]);
		if (o && o->name && strncmp(o->name, "XWAYLAND", 8) == 0) {
			_cleanup_free_ char *name = tt_str_sanitize(o->name, (size_t)o->nameLen, 64);
			snprintf(why, size, "its RandR output %s", name);
			found = true;
		}
		if (o)
			XRRFreeOutputInfo(o);
	}
	if (res)
		XRRFreeScreenResources(res);
	return found;
}

/* Says why @dpy is Xwayland in @why, or returns false. */
static bool
is_xwayland(Display *dpy, char *why, size_t size)
{
	int op, ev, err;
	int ndevices = 0;
	bool found = false;

	if (XQueryExtension(dpy, "XWAYLAND", &op, &ev, &err)) {
		snprintf(why, size, "the XWAYLAND extension");
		return true;
	}
	/* Before the extension existed (Xwayland < 23.1). */
	if (xwayland_output(dpy, why, size))
		return true;
	/* Without RandR (disabled with -extension RANDR): its seat's devices. */
	XIDeviceInfo *info = XIQueryDevice(dpy, XIAllDevices, &ndevices);
	for (int i = 0; info && i < ndevices && !found; i++) {
		found = info[i].name && strncmp(info[i].name, "xwayland-", 9) == 0;
		if (found) {
			_cleanup_free_ char *name = tt_str_sanitize(info[i].name, strlen(info[i].name), 64);
			snprintf(why, size, "its input device %s", name);
		}
	}
	if (info)
		XIFreeDeviceInfo(info);
	return found;
}

static int
open_client(struct tt_xi_recorder *xr, enum client_kind kind, size_t stage)
{
	struct xclient *c = &xr->clients[xr->nclients];
	int rc;

	memset(c, 0, sizeof(*c));
	c->xr = xr;
	c->kind = kind;
	c->stage = stage;
	c->name = client_names[kind];
	/* A single grab keeps the name files had before chains. */
	if (kind == CLIENT_GRAB && xr->opts.ngrabs > 1) {
		snprintf(c->name_buf, sizeof(c->name_buf), "grab%zu", stage + 1);
		c->name = c->name_buf;
	}
	c->dpy = XOpenDisplay(xr->opts.display);
	if (!c->dpy) {
		tt_error("cannot open X display %s%s", xr->display_name,
			 xr->opts.display || getenv("DISPLAY") ? "" :
			 " (DISPLAY is not set: use --xi=DISPLAY)");
		return -ENOTCONN;
	}
	xr->nclients++;
	register_client(c, true);
	XSetIOErrorExitHandler(c->dpy, on_x_io_exit, c);
	c->root = DefaultRootWindow(c->dpy);
	rc = query_xi(c, xr->display_name);
	if (rc < 0)
		return rc;
	return 0;
}

int
tt_xi_parse_grab(const char *arg, enum tt_xi_grab_mode *mode, int64_t *delay_us)
{
	static const struct {
		const char *prefix;
		enum tt_xi_grab_mode mode;
	} kinds[] = {
		{ "accept", TT_XI_GRAB_ACCEPT },
		{ "reject", TT_XI_GRAB_REJECT },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(kinds); i++) {
		size_t len = strlen(kinds[i].prefix);
		const char *rest = arg + len;
		int64_t v;
		double ms;

		if (strncmp(arg, kinds[i].prefix, len) != 0)
			continue;
		if (*rest == '\0') {
			*mode = kinds[i].mode;
			*delay_us = 0;
			return 0;
		}
		if (strncmp(rest, "-after=", 7) != 0)
			return -EINVAL;
		rest += 7;
		/* A bare number is milliseconds; else a duration ("50ms", "0.2s"). */
		if (tt_parse_double(rest, &ms) == 0) {
			if (!(ms >= 0 && ms <= 3600e3))
				return -EINVAL;
			v = (int64_t)(ms * 1000.0);
		} else if (tt_parse_duration_us(rest, &v) < 0 || v < 0 || v > 3600 * INT64_C(1000000)) {
			return -EINVAL;
		}
		*mode = kinds[i].mode;
		*delay_us = v;
		return 0;
	}
	return -EINVAL;
}

int
tt_xi_parse_pointer(const char *arg, enum tt_xi_pointer_mode *mode)
{
	static const char *const names[] = {
		[TT_XI_POINTER_SYNC] = "sync",
		[TT_XI_POINTER_ASYNC] = "async",
		[TT_XI_POINTER_SELECT] = "select",
	};

	for (size_t i = TT_XI_POINTER_SYNC; i < ARRAY_LENGTH(names); i++) {
		if (strcmp(arg, names[i]) == 0) {
			*mode = (enum tt_xi_pointer_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

int
tt_xi_recorder_connect(const struct tt_xi_options *opts, struct tt_xi_recorder **out)
{
	_cleanup_(tt_xi_recorder_freep) struct tt_xi_recorder *xr = tt_zalloc(sizeof(*xr));
	const char *name;
	int rc;

	xr->opts = *opts;
	XSetErrorHandler(on_x_error);
	XSetIOErrorHandler(on_x_io_error);
	name = XDisplayName(opts->display);
	if (!name || !*name)
		name = "(none)";
	xr->display_name = tt_str_sanitize(name, strlen(name), 256);
	rc = open_client(xr, CLIENT_OBSERVER, 0);
	if (rc < 0)
		return rc;
	Display *dpy = xr->clients[0].dpy;
	const char *vendor = ServerVendor(dpy);
	xr->vendor = tt_str_sanitize(vendor ? vendor : "", vendor ? strlen(vendor) : 0, 256);
	xr->release = VendorRelease(dpy);
	char why[128];
	if (!opts->allow_xwayland && is_xwayland(dpy, why, sizeof(why))) {
		tt_error("X server %s is Xwayland (%s): its XInput devices are virtual (the Wayland "
			 "compositor's seat, not the kernel devices) and it only sees what the "
			 "compositor forwards; record under a native Xorg server instead",
			 xr->display_name, why);
		return -EPROTONOSUPPORT;
	}
	for (size_t i = 0; i < opts->ngrabs && i < TT_XI_MAX_GRABS; i++)
		if ((rc = open_client(xr, CLIENT_GRAB, i)) < 0)
			return rc;
	if (opts->window && (rc = open_client(xr, CLIENT_WINDOW, 0)) < 0)
		return rc;
	if (opts->pointer != TT_XI_POINTER_NONE && (rc = open_client(xr, CLIENT_POINTER, 0)) < 0)
		return rc;
	*out = steal(&xr);
	return 0;
}

const char *
tt_xi_recorder_vendor(const struct tt_xi_recorder *xr)
{
	return xr->vendor;
}

int32_t
tt_xi_recorder_release(const struct tt_xi_recorder *xr)
{
	return xr->release;
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
			check_write(xr, tt_writer_xi_device(tt_recorder_writer(xr->rec), d));
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

static const struct tt_xi_grab *
grab_of(const struct xclient *c)
{
	return &c->xr->opts.grabs[c->stage];
}

static void
decide(struct xclient *c, int32_t deviceid, uint32_t touchid)
{
	allow(c, deviceid, touchid, grab_of(c)->mode == TT_XI_GRAB_ACCEPT);
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
		.due_us = tt_now_us(CLOCK_MONOTONIC) + grab_of(c)->delay_us,
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

static void
pointer_request(struct xclient *c, int32_t evtype, uint32_t mode)
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
		pointer_request(c, TT_XI_REQ_UNGRAB_DEVICE, 0);
	} else if (c->xr->opts.pointer == TT_XI_POINTER_SYNC) {
		XIAllowEvents(c->dpy, c->pointer, XISyncDevice, CurrentTime);
		XFlush(c->dpy);
		pointer_request(c, TT_XI_REQ_ALLOW_EVENTS, XISyncDevice);
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
		 c->name, error_name(c->dpy, &c->last_error, name, sizeof(name)),
		 c->last_error.request_code, c->last_error.minor_code, c->last_error.resourceid,
		 c->nerrors - c->reported_errors > 1 ? " and earlier ones" : "");
	tt_warning("%s", text);
	write_marker(c->xr, TT_MARKER_NOTE, text);
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
		tt_loop_remove(tt_recorder_loop(xr->rec), c->source);
		c->source = NULL;
	}
	/* One marker for the server; each client finds out on its own. */
	for (size_t i = 0; i < xr->nclients; i++)
		if (&xr->clients[i] != c && xr->clients[i].lost_reported)
			return;
	snprintf(text, sizeof(text), "connection to X server %s lost (%s client)%s", xr->display_name,
		 c->name, kernel ? "; the kernel devices keep recording" : "");
	write_marker(xr, TT_MARKER_X_LOST, text);
	if (kernel) {
		tt_warning("%s", text);
	} else {
		tt_error("%s", text);
		tt_recorder_stop(xr->rec, "X connection lost", EXIT_FAILURE_STATUS);
	}
}

static void
after_event(struct xclient *c, int evtype, const void *data)
{
	if (c->kind == CLIENT_GRAB && evtype == XI_TouchBegin) {
		const XIDeviceEvent *d = data;
		if (grab_of(c)->delay_us == 0)
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
 * file keeps cause before effect (the link in lib/model-link.c reads it in
 * that order). */
static void
drain(struct xclient *c)
{
	if (!c->lost)
		XEventsQueued(c->dpy, QueuedAfterFlush);
	if (!c->lost && XEventsQueued(c->dpy, QueuedAlready) > 0)
		tt_recorder_poll_devices(c->xr->rec);
	while (!c->lost && XEventsQueued(c->dpy, QueuedAlready) > 0) {
		XEvent xev;
		XNextEvent(c->dpy, &xev);
		handle(c, &xev);
	}
	note_errors(c);
	if (c->lost)
		connection_lost(c);
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	drain(userdata);
}

/* ---- selecting ---- */

/* Runs XSync and says whether a request since @before failed; the error
 * code is in c->last_error. */
static bool
sync_failed(struct xclient *c, unsigned int before)
{
	XSync(c->dpy, False);
	if (c->nerrors == before)
		return false;
	c->reported_errors = c->nerrors;	/* handled by the caller */
	return true;
}

static void
set_touch_mask(unsigned char *bits, bool ownership)
{
	XISetMask(bits, XI_TouchBegin);
	XISetMask(bits, XI_TouchUpdate);
	XISetMask(bits, XI_TouchEnd);
	if (ownership)
		XISetMask(bits, XI_TouchOwnership);
}

static int
select_observer(struct xclient *c)
{
	unsigned char all[XIMaskLen(XI_LASTEVENT)] = { 0 };
	unsigned char masters[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllDevices, sizeof(all), all };
	unsigned int before = c->nerrors;
	char name[128], text[320];

	/* Raw events come from the slave devices (one copy each) and reach
	 * every client that selects them on the root window, grabs or not. */
	XISetMask(all, XI_RawTouchBegin);
	XISetMask(all, XI_RawTouchUpdate);
	XISetMask(all, XI_RawTouchEnd);
	XISetMask(all, XI_HierarchyChanged);
	XISetMask(all, XI_DeviceChanged);
	XISelectEvents(c->dpy, c->root, &mask, 1);
	if (sync_failed(c, before)) {
		tt_error("selecting raw touch events on %s: %s", c->xr->display_name,
			 error_name(c->dpy, &c->last_error, name, sizeof(name)));
		return -EIO;
	}

	/* Touch events on the root window, through the master devices like
	 * an application gets them. Only one client may hold this selection. */
	set_touch_mask(masters, true);
	mask = (XIEventMask){ XIAllMasterDevices, sizeof(masters), masters };
	before = c->nerrors;
	XISelectEvents(c->dpy, c->root, &mask, 1);
	if (sync_failed(c, before)) {
		snprintf(text, sizeof(text), "touch events on the root window: %s (another client "
			 "holds the touch selection there); recording raw touch events only",
			 error_name(c->dpy, &c->last_error, name, sizeof(name)));
		tt_warning("%s", text);
		write_marker(c->xr, TT_MARKER_XI_SELECT_DENIED, text);
	}
	return 0;
}

/* A mapped window covering the screen inside the innermost one so far
 * (every window of the chain is under every touch, so the server offers
 * the touch to each, outermost first). override_redirect: no window
 * manager moves, decorates or shrinks it, like a full-screen viewer. */
static Window
create_window(struct xclient *c, const char *title)
{
	XSetWindowAttributes attr = { .override_redirect = True, .background_pixel = 0 };
	int screen = DefaultScreen(c->dpy);
	Window w;

	w = XCreateWindow(c->dpy, c->xr->inner, 0, 0, (unsigned int)DisplayWidth(c->dpy, screen),
			  (unsigned int)DisplayHeight(c->dpy, screen), 0, CopyFromParent, InputOutput,
			  CopyFromParent, CWOverrideRedirect | CWBackPixel, &attr);
	XStoreName(c->dpy, w, title);
	XMapRaised(c->dpy, w);
	c->xr->inner = w;
	return w;
}

static int
setup_grab(struct xclient *c)
{
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllMasterDevices, sizeof(bits), bits };
	XIGrabModifiers mods = { XIAnyModifier, 0 };
	unsigned int before = c->nerrors;
	char name[128];
	int failed;

	/* The first grab is the window manager's, on the root window. */
	c->win = c->stage == 0 ? c->root : create_window(c, "touchtape record --xi-grab");
	set_touch_mask(bits, false);
	failed = XIGrabTouchBegin(c->dpy, XIAllMasterDevices, c->win, False, &mask, 1, &mods);
	if (sync_failed(c, before) || failed || mods.status != 0) {
		tt_error("cannot grab touches on %s of %s (%s client): %s",
			 c->stage == 0 ? "the root window" : "its window", c->xr->display_name, c->name,
			 c->nerrors != before ? error_name(c->dpy, &c->last_error, name, sizeof(name)) :
			 "another client holds the grab");
		return -EBUSY;
	}
	return 0;
}

static int
setup_window(struct xclient *c)
{
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllMasterDevices, sizeof(bits), bits };
	unsigned int before = c->nerrors;
	char name[128];

	c->win = create_window(c, "touchtape record --xi-window");
	set_touch_mask(bits, true);
	XISelectEvents(c->dpy, c->win, &mask, 1);
	if (sync_failed(c, before)) {
		tt_error("setting up the --xi-window client on %s: %s", c->xr->display_name,
			 error_name(c->dpy, &c->last_error, name, sizeof(name)));
		return -EIO;
	}
	return 0;
}

/* The master pointer this client's pointer events come from: its
 * ClientPointer, which the server reports as 0 until it picked one, then
 * the first master pointer (the "Virtual core pointer"). */
static int
client_pointer(struct xclient *c)
{
	int id = 0;
	int ndevices = 0;
	XIDeviceInfo *info;

	XIGetClientPointer(c->dpy, None, &id);
	if (id > XIAllMasterDevices)
		return id;
	info = XIQueryDevice(c->dpy, XIAllMasterDevices, &ndevices);
	for (int i = 0; info && i < ndevices && id <= XIAllMasterDevices; i++)
		if (info[i].use == XIMasterPointer)
			id = info[i].deviceid;
	if (info)
		XIFreeDeviceInfo(info);
	return id;
}

/* The master pointer's button and motion events, by an active grab on
 * the innermost window or by a selection there. */
static int
setup_pointer(struct xclient *c)
{
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllMasterDevices, sizeof(bits), bits };
	enum tt_xi_pointer_mode mode = c->xr->opts.pointer;
	unsigned int before = c->nerrors;
	char name[128];
	int status = Success;

	c->win = c->xr->inner;
	XISetMask(bits, XI_ButtonPress);
	XISetMask(bits, XI_ButtonRelease);
	XISetMask(bits, XI_Motion);
	c->pointer = client_pointer(c);
	if (mode == TT_XI_POINTER_SELECT) {
		XISelectEvents(c->dpy, c->win, &mask, 1);
	} else {
		mask.deviceid = c->pointer;
		status = XIGrabDevice(c->dpy, c->pointer, c->win, CurrentTime, None,
				      mode == TT_XI_POINTER_SYNC ? XIGrabModeSync : XIGrabModeAsync,
				      XIGrabModeAsync, False, &mask);
	}
	if (sync_failed(c, before) || status != Success) {
		tt_error("setting up the --xi-pointer-grab client on %s: %s", c->xr->display_name,
			 c->nerrors != before ? error_name(c->dpy, &c->last_error, name, sizeof(name)) :
			 "the pointer is grabbed by another client");
		return -EBUSY;
	}
	if (mode == TT_XI_POINTER_SELECT)
		return 0;
	c->pointer_grabbed = true;
	pointer_request(c, TT_XI_REQ_GRAB_DEVICE, mode == TT_XI_POINTER_SYNC ? XIGrabModeSync :
										XIGrabModeAsync);
	/* A sync grab starts frozen: let events through to the next click. */
	if (mode == TT_XI_POINTER_SYNC) {
		XIAllowEvents(c->dpy, c->pointer, XISyncDevice, CurrentTime);
		pointer_request(c, TT_XI_REQ_ALLOW_EVENTS, XISyncDevice);
	}
	return 0;
}

static int
setup_client(struct xclient *c)
{
	switch (c->kind) {
	case CLIENT_GRAB: return setup_grab(c);
	case CLIENT_WINDOW: return setup_window(c);
	case CLIENT_POINTER: return setup_pointer(c);
	case CLIENT_OBSERVER: break;
	}
	return 0;
}

static bool
any_delay(const struct tt_xi_recorder *xr)
{
	for (size_t i = 0; i < xr->opts.ngrabs; i++)
		if (xr->opts.grabs[i].delay_us)
			return true;
	return false;
}

/* "X server :0: The X.Org Foundation 12101011, XInput 2.4; clients:
 * observer, grab1 (rejects each touch after 30000 us), ..." */
static void
describe_clients(const struct tt_xi_recorder *xr, char *text, size_t size)
{
	static const char *const pointer_modes[] = { "", "sync grab", "async grab", "selection" };
	size_t len;

	snprintf(text, size, "X server %s: %s %d, XInput %d.%d; clients: observer", xr->display_name,
		 xr->vendor, xr->release, xr->major, xr->minor);
	for (size_t i = 1; i < xr->nclients && (len = strlen(text)) < size; i++) {
		const struct xclient *c = &xr->clients[i];
		const struct tt_xi_grab *g = c->kind == CLIENT_GRAB ? grab_of(c) : NULL;
		const char *verb = g && g->mode == TT_XI_GRAB_ACCEPT ? "accepts" : "rejects";
		if (g && g->delay_us)
			snprintf(text + len, size - len, ", %s (%s each touch after %" PRId64 " us)",
				 c->name, verb, g->delay_us);
		else if (g)
			snprintf(text + len, size - len, ", %s (%s each touch at its begin)", c->name, verb);
		else if (c->kind == CLIENT_POINTER)
			snprintf(text + len, size - len, ", %s (%s)", c->name,
				 pointer_modes[xr->opts.pointer]);
		else
			snprintf(text + len, size - len, ", %s", c->name);
	}
}

int
tt_xi_recorder_start(struct tt_xi_recorder *xr, struct tt_recorder *r, char *const *nodes,
		     size_t nnodes)
{
	struct xclient *obs = &xr->clients[0];
	char text[512];
	int rc;

	xr->rec = r;
	xr->nodes = tt_reallocarray(NULL, nnodes ? nnodes : 1, sizeof(*xr->nodes));
	for (size_t i = 0; i < nnodes; i++)
		xr->nodes[i] = nodes[i] ? tt_strdup(nodes[i]) : NULL;
	xr->nnodes = nnodes;
	describe_clients(xr, text, sizeof(text));
	write_marker(xr, TT_MARKER_X_CONNECTED, text);
	/* Selected before the devices are listed, so a device added in
	 * between shows up as a hierarchy event rather than nowhere. */
	rc = select_observer(obs);
	if (rc < 0)
		return rc;
	write_devices(obs, XIAllDevices);
	xr->inner = obs->root;
	for (size_t i = 1; i < xr->nclients; i++) {
		rc = setup_client(&xr->clients[i]);
		if (rc < 0)
			return rc;
	}
	if (any_delay(xr)) {
		xr->timer = tt_loop_add_timer(tt_recorder_loop(r), on_timer, xr);
		if (!xr->timer)
			return -errno;
	}
	for (size_t i = 0; i < xr->nclients; i++) {
		struct xclient *c = &xr->clients[i];
		c->source = tt_loop_add(tt_recorder_loop(r), ConnectionNumber(c->dpy), on_readable, c);
		if (!c->source)
			return -errno;
		drain(c);
	}
	if (!xr->opts.quiet)
		tt_info("recording XInput touch events from %s (%s)", xr->display_name, text);
	return xr->write_failed ? -EIO : 0;
}

void
tt_xi_recorder_summary(const struct tt_xi_recorder *xr)
{
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
		if (c->source && xr->rec)
			tt_loop_remove(tt_recorder_loop(xr->rec), c->source);
		/* A dead connection is not touched again (closing it would
		 * talk to the server); the process ends soon after. */
		if (c->dpy && !c->lost)
			XCloseDisplay(c->dpy);
		register_client(c, false);
	}
	if (xr->timer && xr->rec)
		tt_loop_remove(tt_recorder_loop(xr->rec), xr->timer);
	for (size_t i = 0; i < xr->nnodes; i++)
		free(xr->nodes[i]);
	free(xr->nodes);
	free(xr->display_name);
	free(xr->vendor);
	free(xr);
}

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
