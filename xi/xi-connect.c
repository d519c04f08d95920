/* SPDX-License-Identifier: MIT */
/*
 * The XI recorder's connections: one X connection per client, checked
 * for XInput 2.2 and refused on Xwayland, and the --grab/--pointer
 * arguments that say which clients there are.
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

static const char *const client_names[] = { "observer", "grab", "window", "pointer" };

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
	xi_register_client(c, true);
	XSetIOErrorExitHandler(c->dpy, xi_on_x_io_exit, c);
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
	XSetErrorHandler(xi_on_x_error);
	XSetIOErrorHandler(xi_on_x_io_error);
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
