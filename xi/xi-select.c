/* SPDX-License-Identifier: MIT */
/*
 * The XI recorder's selections: what each client listens to (the
 * observer on the root window, the grab and window clients on their
 * windows, the pointer client), and the description of them all.
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

int
xi_select_observer(struct xclient *c)
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
			 xi_error_name(c->dpy, &c->last_error, name, sizeof(name)));
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
			 xi_error_name(c->dpy, &c->last_error, name, sizeof(name)));
		tt_warning("%s", text);
		xi_write_marker(c->xr, TT_MARKER_XI_SELECT_DENIED, text);
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
			 c->nerrors != before ? xi_error_name(c->dpy, &c->last_error, name, sizeof(name)) :
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
			 xi_error_name(c->dpy, &c->last_error, name, sizeof(name)));
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
			 c->nerrors != before ? xi_error_name(c->dpy, &c->last_error, name, sizeof(name)) :
			 "the pointer is grabbed by another client");
		return -EBUSY;
	}
	if (mode == TT_XI_POINTER_SELECT)
		return 0;
	c->pointer_grabbed = true;
	xi_pointer_request(c, TT_XI_REQ_GRAB_DEVICE, mode == TT_XI_POINTER_SYNC ? XIGrabModeSync :
										XIGrabModeAsync);
	/* A sync grab starts frozen: let events through to the next click. */
	if (mode == TT_XI_POINTER_SYNC) {
		XIAllowEvents(c->dpy, c->pointer, XISyncDevice, CurrentTime);
		xi_pointer_request(c, TT_XI_REQ_ALLOW_EVENTS, XISyncDevice);
	}
	return 0;
}

int
xi_setup_client(struct xclient *c)
{
	switch (c->kind) {
	case CLIENT_GRAB: return setup_grab(c);
	case CLIENT_WINDOW: return setup_window(c);
	case CLIENT_POINTER: return setup_pointer(c);
	case CLIENT_OBSERVER: break;
	}
	return 0;
}

bool
xi_any_delay(const struct tt_xi_recorder *xr)
{
	for (size_t i = 0; i < xr->opts.ngrabs; i++)
		if (xr->opts.grabs[i].delay_us)
			return true;
	return false;
}

/* "X server :0: The X.Org Foundation 12101011, XInput 2.4; clients:
 * observer, grab1 (rejects each touch after 30000 us), ..." */
void
xi_describe_clients(const struct tt_xi_recorder *xr, char *text, size_t size)
{
	static const char *const pointer_modes[] = { "", "sync grab", "async grab", "selection" };
	size_t len;

	snprintf(text, size, "X server %s: %s %d, XInput %d.%d; clients: observer", xr->display_name,
		 xr->vendor, xr->release, xr->major, xr->minor);
	for (size_t i = 1; i < xr->nclients && (len = strlen(text)) < size; i++) {
		const struct xclient *c = &xr->clients[i];
		const struct tt_xi_grab *g = c->kind == CLIENT_GRAB ? xi_grab_of(c) : NULL;
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
