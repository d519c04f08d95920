/* SPDX-License-Identifier: MIT */
/*
 * The libinput layer, live (see li-capture.h). Each libinput event becomes
 * one tt_li_event: a function per kind of event fills the fields its kind
 * has; nothing here decides anything libinput did not.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <libudev.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "keymask.h"
#include "li-private.h"
#include "util-strings.h"
#include "util-time.h"

/* How long a node just created (a replay's uinput device) may take udev
 * to process before libinput is given it. */
#define UDEV_WAIT_US (3 * 1000 * 1000)

struct li_device {
	struct libinput_device *device;	/* referenced */
	uint32_t evdev_id;
	char *node;
};

struct tt_li_capture {
	struct tt_li_capture_options opts;
	struct libinput *li;
	struct udev *udev;
	struct tt_loop_source *source;
	struct li_device **devs;	/* each the user data of its libinput device */
	size_t ndevs;
	bool *applied;		/* per setting: applied to some device */
	size_t nevents;
	int error;		/* the first write error */
};

static int
open_restricted(const char *path, int flags, void *userdata)
{
	int fd = open(path, flags | O_CLOEXEC);

	(void)userdata;
	return fd < 0 ? -errno : fd;
}

static void
close_restricted(int fd, void *userdata)
{
	(void)userdata;
	close(fd);
}

static const struct libinput_interface li_interface = {
	.open_restricted = open_restricted,
	.close_restricted = close_restricted,
};

/* ---- writing ---- */

static bool
check_write(struct tt_li_capture *cap, int rc)
{
	if (rc >= 0)
		return true;
	if (!cap->error) {
		cap->error = rc;
		if (cap->opts.on_error)
			cap->opts.on_error(cap->opts.userdata, rc);
	}
	return false;
}

static void
write_event(struct tt_li_capture *cap, const struct tt_li_event *ev)
{
	if (cap->error)
		return;
	if (check_write(cap, tt_writer_li_event(cap->opts.writer, ev)))
		cap->nevents++;
}

/* libinput's own complaints ("kernel bug: Touch jump detected", "client
 * bug: ...") go into the timeline as libinput-log markers: they explain
 * what libinput did to the touches. */
static void
log_handler(struct libinput *li, enum libinput_log_priority priority, const char *fmt, va_list args)
{
	struct tt_li_capture *cap = libinput_get_user_data(li);
	char text[512];
	size_t len;

	(void)priority;
	vsnprintf(text, sizeof(text), fmt, args);
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	if (!cap || cap->error || !cap->opts.writer)
		return;
	struct tt_marker m = {
		.time_us = tt_now_us(CLOCK_MONOTONIC) - cap->opts.start_us,
		.kind = TT_MARKER_LI_LOG,
		.device = -1,
		.text = text,
	};
	check_write(cap, tt_writer_marker(cap->opts.writer, &m));
}

/* ---- events ---- */

static void
fill_touch(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_touch *t = libinput_event_get_touch_event(e);

	ev->time_us = (int64_t)libinput_event_touch_get_time_usec(t);
	if (ev->kind == TT_LI_TOUCH_FRAME)
		return;
	ev->slot = libinput_event_touch_get_slot(t);
	ev->seat_slot = libinput_event_touch_get_seat_slot(t);
	if (ev->kind == TT_LI_TOUCH_DOWN || ev->kind == TT_LI_TOUCH_MOTION) {
		ev->x = libinput_event_touch_get_x(t);
		ev->y = libinput_event_touch_get_y(t);
		ev->x_norm = libinput_event_touch_get_x_transformed(t, 1);
		ev->y_norm = libinput_event_touch_get_y_transformed(t, 1);
	}
}

static void
fill_scroll(struct libinput_event_pointer *p, struct tt_li_event *ev)
{
	ev->has_vert = libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
	ev->has_horiz = libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
	if (ev->has_vert)
		ev->vert = libinput_event_pointer_get_scroll_value(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
	if (ev->has_horiz)
		ev->horiz = libinput_event_pointer_get_scroll_value(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
	if (ev->kind != TT_LI_POINTER_SCROLL_WHEEL)
		return;
	if (ev->has_vert)
		ev->vert_v120 = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
	if (ev->has_horiz)
		ev->horiz_v120 = libinput_event_pointer_get_scroll_value_v120(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
}

static void
fill_pointer(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_pointer *p = libinput_event_get_pointer_event(e);

	ev->time_us = (int64_t)libinput_event_pointer_get_time_usec(p);
	switch (ev->kind) {
	case TT_LI_POINTER_MOTION:
		ev->dx = libinput_event_pointer_get_dx(p);
		ev->dy = libinput_event_pointer_get_dy(p);
		ev->dx_unaccel = libinput_event_pointer_get_dx_unaccelerated(p);
		ev->dy_unaccel = libinput_event_pointer_get_dy_unaccelerated(p);
		break;
	case TT_LI_POINTER_MOTION_ABSOLUTE:
		ev->x = libinput_event_pointer_get_absolute_x(p);
		ev->y = libinput_event_pointer_get_absolute_y(p);
		ev->x_norm = libinput_event_pointer_get_absolute_x_transformed(p, 1);
		ev->y_norm = libinput_event_pointer_get_absolute_y_transformed(p, 1);
		break;
	case TT_LI_POINTER_BUTTON:
		ev->code = libinput_event_pointer_get_button(p);
		ev->pressed = libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED;
		ev->seat_count = libinput_event_pointer_get_seat_button_count(p);
		break;
	default:
		fill_scroll(p, ev);
		break;
	}
}

static void
fill_gesture(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_gesture *g = libinput_event_get_gesture_event(e);
	bool update = ev->kind == TT_LI_GESTURE_SWIPE_UPDATE || ev->kind == TT_LI_GESTURE_PINCH_UPDATE;
	bool pinch = ev->kind >= TT_LI_GESTURE_PINCH_BEGIN && ev->kind <= TT_LI_GESTURE_PINCH_END;
	bool end = ev->kind == TT_LI_GESTURE_SWIPE_END || ev->kind == TT_LI_GESTURE_PINCH_END ||
		   ev->kind == TT_LI_GESTURE_HOLD_END;

	ev->time_us = (int64_t)libinput_event_gesture_get_time_usec(g);
	ev->fingers = libinput_event_gesture_get_finger_count(g);
	if (update) {
		ev->dx = libinput_event_gesture_get_dx(g);
		ev->dy = libinput_event_gesture_get_dy(g);
		ev->dx_unaccel = libinput_event_gesture_get_dx_unaccelerated(g);
		ev->dy_unaccel = libinput_event_gesture_get_dy_unaccelerated(g);
	}
	if (pinch)
		ev->scale = libinput_event_gesture_get_scale(g);
	if (pinch && update)
		ev->angle = libinput_event_gesture_get_angle_delta(g);
	if (end)
		ev->cancelled = libinput_event_gesture_get_cancelled(g);
}

static void
fill_tablet_axes(struct libinput_event_tablet_tool *t, struct libinput_tablet_tool *tool,
		 struct tt_li_event *ev)
{
	if (libinput_tablet_tool_has_pressure(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_PRESSURE;
		ev->pressure = libinput_event_tablet_tool_get_pressure(t);
	}
	if (libinput_tablet_tool_has_distance(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_DISTANCE;
		ev->distance = libinput_event_tablet_tool_get_distance(t);
	}
	if (libinput_tablet_tool_has_tilt(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_TILT;
		ev->tilt_x = libinput_event_tablet_tool_get_tilt_x(t);
		ev->tilt_y = libinput_event_tablet_tool_get_tilt_y(t);
	}
	if (libinput_tablet_tool_has_rotation(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_ROTATION;
		ev->rotation = libinput_event_tablet_tool_get_rotation(t);
	}
	if (libinput_tablet_tool_has_slider(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_SLIDER;
		ev->slider = libinput_event_tablet_tool_get_slider_position(t);
	}
	if (libinput_tablet_tool_has_wheel(tool)) {
		ev->tablet_axes |= TT_LI_AXIS_WHEEL;
		ev->wheel = libinput_event_tablet_tool_get_wheel_delta(t);
	}
}

static void
fill_tablet(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_tablet_tool *t = libinput_event_get_tablet_tool_event(e);
	struct libinput_tablet_tool *tool = libinput_event_tablet_tool_get_tool(t);

	ev->time_us = (int64_t)libinput_event_tablet_tool_get_time_usec(t);
	/* libinput's tool types are numbered 1 (pen) to 8 (totem), like ours. */
	ev->tool = (enum tt_li_tool_type)libinput_tablet_tool_get_type(tool);
	ev->tool_serial = libinput_tablet_tool_get_serial(tool);
	ev->x = libinput_event_tablet_tool_get_x(t);
	ev->y = libinput_event_tablet_tool_get_y(t);
	ev->x_norm = libinput_event_tablet_tool_get_x_transformed(t, 1);
	ev->y_norm = libinput_event_tablet_tool_get_y_transformed(t, 1);
	fill_tablet_axes(t, tool, ev);
	if (ev->kind == TT_LI_TABLET_TOOL_PROXIMITY)
		ev->pressed = libinput_event_tablet_tool_get_proximity_state(t) ==
			      LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN;
	else if (ev->kind == TT_LI_TABLET_TOOL_TIP)
		ev->pressed = libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN;
	else if (ev->kind == TT_LI_TABLET_TOOL_BUTTON) {
		ev->code = libinput_event_tablet_tool_get_button(t);
		ev->pressed = libinput_event_tablet_tool_get_button_state(t) == LIBINPUT_BUTTON_STATE_PRESSED;
	}
}

static void
fill_pad(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_tablet_pad *p = libinput_event_get_tablet_pad_event(e);

	ev->time_us = (int64_t)libinput_event_tablet_pad_get_time_usec(p);
	if (ev->kind == TT_LI_TABLET_PAD_BUTTON) {
		ev->code = libinput_event_tablet_pad_get_button_number(p);
		ev->pressed = libinput_event_tablet_pad_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED;
	} else if (ev->kind == TT_LI_TABLET_PAD_RING) {
		ev->code = libinput_event_tablet_pad_get_ring_number(p);
		ev->position = libinput_event_tablet_pad_get_ring_position(p);
	} else {
		ev->code = libinput_event_tablet_pad_get_strip_number(p);
		ev->position = libinput_event_tablet_pad_get_strip_position(p);
	}
}

static void
fill_key(struct libinput_event *e, struct tt_li_event *ev, bool mask)
{
	struct libinput_event_keyboard *k = libinput_event_get_keyboard_event(e);

	ev->time_us = (int64_t)libinput_event_keyboard_get_time_usec(k);
	ev->code = libinput_event_keyboard_get_key(k);
	/* Typed text stays out of the file, as in the frames. */
	if (mask && tt_keymask_is_private(ev->code))
		ev->code = 0;
	ev->pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED;
	ev->seat_count = libinput_event_keyboard_get_seat_key_count(k);
}

static void
fill_switch(struct libinput_event *e, struct tt_li_event *ev)
{
	struct libinput_event_switch *s = libinput_event_get_switch_event(e);

	ev->time_us = (int64_t)libinput_event_switch_get_time_usec(s);
	ev->code = libinput_event_switch_get_switch(s);
	ev->pressed = libinput_event_switch_get_switch_state(s) == LIBINPUT_SWITCH_STATE_ON;
}

/* libinput's event types in the model's terms; TT_LI_OTHER for those not
 * recorded (the deprecated POINTER_AXIS, pad keys and dials). */
static enum tt_li_event_type
event_kind(enum libinput_event_type type)
{
	static const struct { enum libinput_event_type li; enum tt_li_event_type tt; } map[] = {
		{ LIBINPUT_EVENT_DEVICE_REMOVED, TT_LI_DEVICE_REMOVED },
		{ LIBINPUT_EVENT_KEYBOARD_KEY, TT_LI_KEYBOARD_KEY },
		{ LIBINPUT_EVENT_POINTER_MOTION, TT_LI_POINTER_MOTION },
		{ LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, TT_LI_POINTER_MOTION_ABSOLUTE },
		{ LIBINPUT_EVENT_POINTER_BUTTON, TT_LI_POINTER_BUTTON },
		{ LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, TT_LI_POINTER_SCROLL_WHEEL },
		{ LIBINPUT_EVENT_POINTER_SCROLL_FINGER, TT_LI_POINTER_SCROLL_FINGER },
		{ LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS, TT_LI_POINTER_SCROLL_CONTINUOUS },
		{ LIBINPUT_EVENT_TOUCH_DOWN, TT_LI_TOUCH_DOWN },
		{ LIBINPUT_EVENT_TOUCH_UP, TT_LI_TOUCH_UP },
		{ LIBINPUT_EVENT_TOUCH_MOTION, TT_LI_TOUCH_MOTION },
		{ LIBINPUT_EVENT_TOUCH_CANCEL, TT_LI_TOUCH_CANCEL },
		{ LIBINPUT_EVENT_TOUCH_FRAME, TT_LI_TOUCH_FRAME },
		{ LIBINPUT_EVENT_TABLET_TOOL_AXIS, TT_LI_TABLET_TOOL_AXIS },
		{ LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY, TT_LI_TABLET_TOOL_PROXIMITY },
		{ LIBINPUT_EVENT_TABLET_TOOL_TIP, TT_LI_TABLET_TOOL_TIP },
		{ LIBINPUT_EVENT_TABLET_TOOL_BUTTON, TT_LI_TABLET_TOOL_BUTTON },
		{ LIBINPUT_EVENT_TABLET_PAD_BUTTON, TT_LI_TABLET_PAD_BUTTON },
		{ LIBINPUT_EVENT_TABLET_PAD_RING, TT_LI_TABLET_PAD_RING },
		{ LIBINPUT_EVENT_TABLET_PAD_STRIP, TT_LI_TABLET_PAD_STRIP },
		{ LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, TT_LI_GESTURE_SWIPE_BEGIN },
		{ LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, TT_LI_GESTURE_SWIPE_UPDATE },
		{ LIBINPUT_EVENT_GESTURE_SWIPE_END, TT_LI_GESTURE_SWIPE_END },
		{ LIBINPUT_EVENT_GESTURE_PINCH_BEGIN, TT_LI_GESTURE_PINCH_BEGIN },
		{ LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, TT_LI_GESTURE_PINCH_UPDATE },
		{ LIBINPUT_EVENT_GESTURE_PINCH_END, TT_LI_GESTURE_PINCH_END },
		{ LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, TT_LI_GESTURE_HOLD_BEGIN },
		{ LIBINPUT_EVENT_GESTURE_HOLD_END, TT_LI_GESTURE_HOLD_END },
		{ LIBINPUT_EVENT_SWITCH_TOGGLE, TT_LI_SWITCH_TOGGLE },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(map); i++) {
		if (map[i].li == type)
			return map[i].tt;
	}
	return TT_LI_OTHER;
}

/* Fills @ev from @e; false for events not recorded. */
static bool
convert_event(struct tt_li_capture *cap, struct libinput_event *e, struct tt_li_event *ev)
{
	struct li_device *d = libinput_device_get_user_data(libinput_event_get_device(e));

	ev->kind = event_kind(libinput_event_get_type(e));
	if (ev->kind == TT_LI_OTHER || !d)
		return false;
	ev->device = d->evdev_id;
	switch (tt_li_event_class(ev->kind)) {
	case TT_LI_CLASS_DEVICE:
		ev->time_us = tt_now_us(CLOCK_MONOTONIC);
		break;
	case TT_LI_CLASS_TOUCH:
	case TT_LI_CLASS_TOUCH_FRAME: fill_touch(e, ev); break;
	case TT_LI_CLASS_MOTION:
	case TT_LI_CLASS_ABSOLUTE:
	case TT_LI_CLASS_BUTTON:
	case TT_LI_CLASS_SCROLL: fill_pointer(e, ev); break;
	case TT_LI_CLASS_GESTURE: fill_gesture(e, ev); break;
	case TT_LI_CLASS_TABLET: fill_tablet(e, ev); break;
	case TT_LI_CLASS_PAD: fill_pad(e, ev); break;
	case TT_LI_CLASS_KEY: fill_key(e, ev, cap->opts.mask_keys); break;
	case TT_LI_CLASS_SWITCH: fill_switch(e, ev); break;
	}
	ev->time_us -= cap->opts.start_us;
	return true;
}

/* ---- devices ---- */

static uint32_t
device_capabilities(struct libinput_device *dev)
{
	static const struct { enum libinput_device_capability li; uint32_t tt; } caps[] = {
		{ LIBINPUT_DEVICE_CAP_KEYBOARD, TT_LI_CAP_KEYBOARD },
		{ LIBINPUT_DEVICE_CAP_POINTER, TT_LI_CAP_POINTER },
		{ LIBINPUT_DEVICE_CAP_TOUCH, TT_LI_CAP_TOUCH },
		{ LIBINPUT_DEVICE_CAP_TABLET_TOOL, TT_LI_CAP_TABLET_TOOL },
		{ LIBINPUT_DEVICE_CAP_TABLET_PAD, TT_LI_CAP_TABLET_PAD },
		{ LIBINPUT_DEVICE_CAP_GESTURE, TT_LI_CAP_GESTURE },
		{ LIBINPUT_DEVICE_CAP_SWITCH, TT_LI_CAP_SWITCH },
	};
	uint32_t out = 0;

	for (size_t i = 0; i < ARRAY_LENGTH(caps); i++) {
		if (libinput_device_has_capability(dev, caps[i].li))
			out |= caps[i].tt;
	}
	return out;
}

static void
write_device(struct tt_li_capture *cap, struct li_device *d)
{
	struct tt_li_device *rec = tt_zalloc(sizeof(*rec));
	double w, h;

	rec->device = d->evdev_id;
	rec->sysname = tt_strdup(libinput_device_get_sysname(d->device));
	rec->name = tt_strdup(libinput_device_get_name(d->device));
	rec->capabilities = device_capabilities(d->device);
	if (libinput_device_get_size(d->device, &w, &h) == 0) {
		rec->has_size = true;
		rec->width_mm = w;
		rec->height_mm = h;
	}
	rec->tap_fingers = libinput_device_config_tap_get_finger_count(d->device);
	li_config_describe(d->device, rec);
	if (!cap->error)
		check_write(cap, tt_writer_li_device(cap->opts.writer, rec));
	tt_li_device_free(rec);
}

static void
handle_event(struct tt_li_capture *cap, struct libinput_event *e)
{
	struct tt_li_event ev = { 0 };

	if (libinput_event_get_type(e) == LIBINPUT_EVENT_DEVICE_ADDED) {
		struct li_device *d = libinput_device_get_user_data(libinput_event_get_device(e));
		if (d)
			write_device(cap, d);
		return;
	}
	tt_li_event_clear(&ev);
	if (convert_event(cap, e, &ev))
		write_event(cap, &ev);
}

void
tt_li_capture_dispatch(struct tt_li_capture *cap)
{
	struct libinput_event *e;

	if (libinput_dispatch(cap->li) < 0)
		return;
	if (cap->opts.before_write)
		cap->opts.before_write(cap->opts.userdata);
	while ((e = libinput_get_event(cap->li))) {
		handle_event(cap, e);
		libinput_event_destroy(e);
	}
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	tt_li_capture_dispatch(userdata);
}

int
tt_li_capture_new(const struct tt_li_capture_options *opts, struct tt_li_capture **out)
{
	_cleanup_(tt_li_capture_freep) struct tt_li_capture *cap = tt_zalloc(sizeof(*cap));

	cap->opts = *opts;
	cap->applied = tt_zalloc(li_config_nsettings() * sizeof(*cap->applied));
	cap->udev = udev_new();
	cap->li = libinput_path_create_context(&li_interface, cap);
	if (!cap->udev || !cap->li) {
		tt_error("cannot create a libinput context");
		return -ENOMEM;
	}
	libinput_log_set_priority(cap->li, LIBINPUT_LOG_PRIORITY_ERROR);
	libinput_log_set_handler(cap->li, log_handler);
	cap->source = tt_loop_add(opts->loop, libinput_get_fd(cap->li), on_readable, cap);
	if (!cap->source) {
		int rc = -errno;
		tt_error("libinput: %s", strerror(-rc));
		return rc;
	}
	*out = steal(&cap);
	return 0;
}

/* True when udev has processed @node: its database entry (ID_INPUT_*)
 * is what libinput classifies the device by. */
static bool
udev_ready(struct udev *udev, const char *node)
{
	struct udev_device *ud;
	struct stat st;
	bool ready;

	if (stat(node, &st) < 0 || !S_ISCHR(st.st_mode))
		return true;	/* libinput will say what is wrong */
	ud = udev_device_new_from_devnum(udev, 'c', st.st_rdev);
	if (!ud)
		return false;
	ready = udev_device_get_is_initialized(ud) &&
		udev_device_get_property_value(ud, "ID_INPUT") != NULL;
	udev_device_unref(ud);
	return ready;
}

/* Waits (bounded) for udev to finish with a node, when udevd runs at all. */
static bool
wait_for_udev(struct udev *udev, const char *node)
{
	int64_t deadline = tt_now_us(CLOCK_MONOTONIC) + UDEV_WAIT_US;

	while (!udev_ready(udev, node)) {
		if (access("/run/udev/control", F_OK) < 0 || tt_now_us(CLOCK_MONOTONIC) > deadline)
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return true;
}

int
tt_li_capture_add(struct tt_li_capture *cap, const char *node, uint32_t evdev_id)
{
	_cleanup_free_ char *clean = tt_str_sanitize(node, strlen(node), 256);
	bool tagged = wait_for_udev(cap->udev, node);
	struct libinput_device *dev = libinput_path_add_device(cap->li, node);
	struct li_device *d;

	if (!dev) {
		tt_error("%s: libinput does not take this device%s", clean,
			 tagged ? "" : ": udev has not tagged it as an input device (ID_INPUT); "
				       "libinput needs systemd-udevd running");
		return -ENODEV;
	}
	cap->devs = tt_reallocarray(cap->devs, cap->ndevs + 1, sizeof(*cap->devs));
	d = tt_zalloc(sizeof(*d));
	cap->devs[cap->ndevs++] = d;
	d->device = libinput_device_ref(dev);
	d->evdev_id = evdev_id;
	d->node = steal(&clean);
	libinput_device_set_user_data(dev, d);
	int rc = li_config_apply(cap->opts.config, dev, cap->applied, d->node);
	/* DEVICE_ADDED waits in libinput's queue, which its fd does not
	 * signal: the li_device record goes out now, not at the first
	 * touch. */
	if (rc == 0)
		tt_li_capture_dispatch(cap);
	return rc;
}

int
tt_li_capture_check_config(const struct tt_li_capture *cap)
{
	return li_config_check_applied(cap->opts.config, cap->applied);
}

size_t
tt_li_capture_nevents(const struct tt_li_capture *cap)
{
	return cap->nevents;
}

void
tt_li_capture_free(struct tt_li_capture *cap)
{
	if (!cap)
		return;
	if (cap->source)
		tt_loop_remove(cap->opts.loop, cap->source);
	for (size_t i = 0; i < cap->ndevs; i++) {
		libinput_device_set_user_data(cap->devs[i]->device, NULL);
		libinput_device_unref(cap->devs[i]->device);
		free(cap->devs[i]->node);
		free(cap->devs[i]);
	}
	free(cap->devs);
	free(cap->applied);
	if (cap->li)
		libinput_unref(cap->li);
	if (cap->udev)
		udev_unref(cap->udev);
	free(cap);
}
