/*
 * xi-ownership-probe: exercise XI 2.2 touch ownership on the root window.
 *
 * Opens two X connections ("clients"):
 *   grabber   holds a passive touch grab (XIGrabTouchBegin) on the root
 *             window and rejects every touch it sees begin
 *             (XIAllowTouchEvents ... XIRejectTouch);
 *   listener  selects TouchBegin/Update/End and TouchOwnership on the root.
 * After the grabber rejects a touch, the listener becomes its owner and
 * receives a TouchOwnership event.
 *
 * Output, one event per line, flushed at once (tests grep it):
 *   ready
 *   grabber TouchBegin touch=ID x=X y=Y
 *   grabber reject touch=ID
 *   listener TouchBegin|TouchUpdate|TouchEnd touch=ID x=X y=Y
 *   listener TouchOwnership touch=ID
 *   done
 *
 * Usage: xi-ownership-probe [-t SECONDS] [-n TOUCHES]
 *   exits 0 after the listener saw TouchEnd for TOUCHES touches (default 1),
 *   1 when SECONDS (default 20) pass first, 2 on setup errors.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

static int xi_opcode(Display *dpy)
{
	int opcode, event, error;
	int major = 2, minor = 2;

	if (!XQueryExtension(dpy, "XInputExtension", &opcode, &event, &error)) {
		fprintf(stderr, "xi-ownership-probe: no XInputExtension\n");
		return -1;
	}
	if (XIQueryVersion(dpy, &major, &minor) != Success ||
	    major * 100 + minor < 202) {
		fprintf(stderr, "xi-ownership-probe: XI 2.2 needed, server has %d.%d\n",
			major, minor);
		return -1;
	}
	return opcode;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *type_name(int evtype)
{
	switch (evtype) {
	case XI_TouchBegin: return "TouchBegin";
	case XI_TouchUpdate: return "TouchUpdate";
	case XI_TouchEnd: return "TouchEnd";
	case XI_TouchOwnership: return "TouchOwnership";
	default: return "Other";
	}
}

int main(int argc, char **argv)
{
	double timeout = 20.0, deadline;
	long want = 1, ended = 0;
	int opt, op_g, op_l;
	Display *grabber, *listener;
	Window root;
	unsigned char gbits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	unsigned char lbits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask gmask = { XIAllMasterDevices, sizeof(gbits), gbits };
	XIEventMask lmask = { XIAllMasterDevices, sizeof(lbits), lbits };
	XIGrabModifiers mods = { XIAnyModifier, 0 };

	while ((opt = getopt(argc, argv, "t:n:")) != -1) {
		switch (opt) {
		case 't': timeout = atof(optarg); break;
		case 'n': want = atol(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-n TOUCHES]\n", argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	grabber = XOpenDisplay(NULL);
	listener = XOpenDisplay(NULL);
	if (!grabber || !listener) {
		fprintf(stderr, "xi-ownership-probe: cannot open display %s\n",
			getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY unset)");
		return 2;
	}
	op_g = xi_opcode(grabber);
	op_l = xi_opcode(listener);
	if (op_g < 0 || op_l < 0)
		return 2;
	root = DefaultRootWindow(grabber);

	/* A touch grab must select begin, update and end. */
	XISetMask(gbits, XI_TouchBegin);
	XISetMask(gbits, XI_TouchUpdate);
	XISetMask(gbits, XI_TouchEnd);
	if (XIGrabTouchBegin(grabber, XIAllMasterDevices, root, False, &gmask, 1, &mods) != 0 ||
	    mods.status != 0) {
		fprintf(stderr, "xi-ownership-probe: XIGrabTouchBegin failed (status %d)\n",
			mods.status);
		return 2;
	}
	XSync(grabber, False);

	XISetMask(lbits, XI_TouchBegin);
	XISetMask(lbits, XI_TouchUpdate);
	XISetMask(lbits, XI_TouchEnd);
	XISetMask(lbits, XI_TouchOwnership);
	XISelectEvents(listener, DefaultRootWindow(listener), &lmask, 1);
	XSync(listener, False);
	printf("ready\n");

	deadline = now() + timeout;
	while (ended < want) {
		struct pollfd pfd[2] = {
			{ ConnectionNumber(grabber), POLLIN, 0 },
			{ ConnectionNumber(listener), POLLIN, 0 },
		};
		double left = deadline - now();

		if (left <= 0) {
			printf("timeout\n");
			return 1;
		}
		while (XPending(grabber)) {
			XEvent ev;
			XGenericEventCookie *c = &ev.xcookie;

			XNextEvent(grabber, &ev);
			if (c->type != GenericEvent || c->extension != op_g ||
			    !XGetEventData(grabber, c))
				continue;
			if (c->evtype == XI_TouchBegin) {
				XIDeviceEvent *d = c->data;

				printf("grabber TouchBegin touch=%d x=%.0f y=%.0f\n",
				       d->detail, d->root_x, d->root_y);
				XIAllowTouchEvents(grabber, d->deviceid, d->detail,
						   d->event, XIRejectTouch);
				XFlush(grabber);
				printf("grabber reject touch=%d\n", d->detail);
			}
			XFreeEventData(grabber, c);
		}
		while (XPending(listener)) {
			XEvent ev;
			XGenericEventCookie *c = &ev.xcookie;

			XNextEvent(listener, &ev);
			if (c->type != GenericEvent || c->extension != op_l ||
			    !XGetEventData(listener, c))
				continue;
			if (c->evtype == XI_TouchOwnership) {
				XITouchOwnershipEvent *o = c->data;

				printf("listener TouchOwnership touch=%u\n", o->touchid);
			} else if (c->evtype == XI_TouchBegin || c->evtype == XI_TouchUpdate ||
				   c->evtype == XI_TouchEnd) {
				XIDeviceEvent *d = c->data;

				printf("listener %s touch=%d x=%.0f y=%.0f\n",
				       type_name(c->evtype), d->detail, d->root_x, d->root_y);
				if (c->evtype == XI_TouchEnd)
					ended++;
			}
			XFreeEventData(listener, c);
		}
		if (ended >= want)
			break;
		if (poll(pfd, 2, (int)(left * 1000) + 1) < 0 && errno != EINTR) {
			perror("xi-ownership-probe: poll");
			return 2;
		}
	}
	printf("done\n");
	XCloseDisplay(grabber);
	XCloseDisplay(listener);
	return 0;
}
