/* SPDX-License-Identifier: MIT */
/*
 * The listeners of record --wayland: each event of a seat, its touch,
 * pointer and gesture objects, and the outputs becomes one wl record with
 * the event's arguments. What the compositor sends is written as sent:
 * checking it against the protocol's rules is the model's job.
 */
#include "config.h"

#include <string.h>

#include "wl-private.h"

#define SEAT_OF(data) struct wl_cap_seat *s = (data)

static uint32_t
proxy_id(void *proxy)
{
	return proxy ? wl_proxy_get_id(proxy) : 0;
}

/* The µs timestamp held for the event now coming, taken once. */
static void
take_timestamp(struct tt_wl_event *ev, int64_t *held)
{
	if (*held < 0)
		return;
	ev->time_compositor_us = *held;
	ev->fields |= TT_WL_F_TIME_COMPOSITOR_US;
	*held = -1;
}

static void
set_time(struct tt_wl_event *ev, uint32_t time)
{
	ev->time_ms = time;
	ev->fields |= TT_WL_F_TIME_MS;
}

static void
set_xy(struct tt_wl_event *ev, wl_fixed_t x, wl_fixed_t y)
{
	ev->x = wl_fixed_to_double(x);
	ev->y = wl_fixed_to_double(y);
	ev->fields |= TT_WL_F_XY;
}

static void
set_serial_surface(struct tt_wl_event *ev, uint32_t serial, struct wl_surface *surface)
{
	ev->serial = serial;
	ev->surface = proxy_id(surface);
	ev->fields |= TT_WL_F_SERIAL | TT_WL_F_SURFACE;
}

static void
set_id(struct tt_wl_event *ev, int32_t id)
{
	ev->id = id;
	ev->fields |= TT_WL_F_ID;
}

/* ---- wl_touch ---- */

static void
touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time,
	   struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_DOWN, t);

	set_serial_surface(&ev, serial, surface);
	set_time(&ev, time);
	take_timestamp(&ev, &s->touch_ts_us);
	set_id(&ev, id);
	set_xy(&ev, x, y);
	wl_cap_write(s->cap, &ev);
}

static void
touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_UP, t);

	ev.serial = serial;
	ev.fields |= TT_WL_F_SERIAL;
	set_time(&ev, time);
	take_timestamp(&ev, &s->touch_ts_us);
	set_id(&ev, id);
	wl_cap_write(s->cap, &ev);
}

static void
touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_MOTION, t);

	set_time(&ev, time);
	take_timestamp(&ev, &s->touch_ts_us);
	set_id(&ev, id);
	set_xy(&ev, x, y);
	wl_cap_write(s->cap, &ev);
}

static void
touch_frame(void *data, struct wl_touch *t)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_FRAME, t);

	wl_cap_write(s->cap, &ev);
}

static void
touch_cancel(void *data, struct wl_touch *t)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_CANCEL, t);

	wl_cap_write(s->cap, &ev);
}

static void
touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major, wl_fixed_t minor)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_SHAPE, t);

	set_id(&ev, id);
	ev.major = wl_fixed_to_double(major);
	ev.minor = wl_fixed_to_double(minor);
	ev.fields |= TT_WL_F_SHAPE;
	wl_cap_write(s->cap, &ev);
}

static void
touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOUCH_ORIENTATION, t);

	set_id(&ev, id);
	ev.orientation = wl_fixed_to_double(orientation);
	ev.fields |= TT_WL_F_ORIENTATION;
	wl_cap_write(s->cap, &ev);
}

static const struct wl_touch_listener touch_listener = {
	.down = touch_down,
	.up = touch_up,
	.motion = touch_motion,
	.frame = touch_frame,
	.cancel = touch_cancel,
	.shape = touch_shape,
	.orientation = touch_orientation,
};

/* ---- wl_pointer ---- */

static void
pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface,
	      wl_fixed_t x, wl_fixed_t y)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_ENTER, p);

	set_serial_surface(&ev, serial, surface);
	set_xy(&ev, x, y);
	wl_cap_write(s->cap, &ev);
}

static void
pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_LEAVE, p);

	set_serial_surface(&ev, serial, surface);
	wl_cap_write(s->cap, &ev);
}

static void
pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_MOTION, p);

	set_time(&ev, time);
	take_timestamp(&ev, &s->pointer_ts_us);
	set_xy(&ev, x, y);
	wl_cap_write(s->cap, &ev);
}

static void
pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
	       uint32_t state)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_BUTTON, p);

	ev.serial = serial;
	ev.fields |= TT_WL_F_SERIAL;
	set_time(&ev, time);
	take_timestamp(&ev, &s->pointer_ts_us);
	ev.button = button;
	ev.pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
	ev.fields |= TT_WL_F_BUTTON;
	wl_cap_write(s->cap, &ev);
}

static void
pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_AXIS, p);

	set_time(&ev, time);
	take_timestamp(&ev, &s->pointer_ts_us);
	ev.axis = axis;
	ev.value = wl_fixed_to_double(value);
	ev.fields |= TT_WL_F_AXIS | TT_WL_F_VALUE;
	wl_cap_write(s->cap, &ev);
}

static void
pointer_frame(void *data, struct wl_pointer *p)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_FRAME, p);

	wl_cap_write(s->cap, &ev);
}

/* The axis_* events with an integer argument (and an axis, but for
 * axis_source). */
static void
pointer_steps(struct wl_cap_seat *s, struct wl_pointer *p, enum tt_wl_event_type kind,
	      int64_t axis, int32_t steps)
{
	struct tt_wl_event ev = wl_cap_event(kind, p);

	if (axis >= 0) {
		ev.axis = (uint32_t)axis;
		ev.fields |= TT_WL_F_AXIS;
	}
	ev.steps = steps;
	ev.fields |= TT_WL_F_STEPS;
	wl_cap_write(s->cap, &ev);
}

static void
pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
	pointer_steps(data, p, TT_WL_POINTER_AXIS_SOURCE, -1, (int32_t)source);
}

static void
pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_POINTER_AXIS_STOP, p);

	set_time(&ev, time);
	take_timestamp(&ev, &s->pointer_ts_us);
	ev.axis = axis;
	ev.fields |= TT_WL_F_AXIS;
	wl_cap_write(s->cap, &ev);
}

static void
pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t discrete)
{
	pointer_steps(data, p, TT_WL_POINTER_AXIS_DISCRETE, axis, discrete);
}

static void
pointer_axis_value120(void *data, struct wl_pointer *p, uint32_t axis, int32_t value120)
{
	pointer_steps(data, p, TT_WL_POINTER_AXIS_VALUE120, axis, value120);
}

#ifdef WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION
static void
pointer_axis_relative_direction(void *data, struct wl_pointer *p, uint32_t axis, uint32_t direction)
{
	pointer_steps(data, p, TT_WL_POINTER_AXIS_RELATIVE_DIRECTION, axis, (int32_t)direction);
}
#endif

static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter,
	.leave = pointer_leave,
	.motion = pointer_motion,
	.button = pointer_button,
	.axis = pointer_axis,
	.frame = pointer_frame,
	.axis_source = pointer_axis_source,
	.axis_stop = pointer_axis_stop,
	.axis_discrete = pointer_axis_discrete,
	.axis_value120 = pointer_axis_value120,
#ifdef WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION
	.axis_relative_direction = pointer_axis_relative_direction,
#endif
};

/* ---- pointer gestures ---- */

static void
gesture_begin(struct wl_cap_seat *s, void *obj, enum tt_wl_event_type kind, uint32_t serial,
	      uint32_t time, struct wl_surface *surface, uint32_t fingers)
{
	struct tt_wl_event ev = wl_cap_event(kind, obj);

	set_serial_surface(&ev, serial, surface);
	set_time(&ev, time);
	ev.fingers = fingers;
	ev.fields |= TT_WL_F_FINGERS;
	wl_cap_write(s->cap, &ev);
}

static void
gesture_end(struct wl_cap_seat *s, void *obj, enum tt_wl_event_type kind, uint32_t serial,
	    uint32_t time, int32_t cancelled)
{
	struct tt_wl_event ev = wl_cap_event(kind, obj);

	ev.serial = serial;
	set_time(&ev, time);
	ev.cancelled = cancelled != 0;
	ev.fields |= TT_WL_F_SERIAL | TT_WL_F_CANCELLED;
	wl_cap_write(s->cap, &ev);
}

static void
gesture_update(struct wl_cap_seat *s, struct tt_wl_event *ev, uint32_t time, wl_fixed_t dx,
	       wl_fixed_t dy)
{
	set_time(ev, time);
	ev->dx = wl_fixed_to_double(dx);
	ev->dy = wl_fixed_to_double(dy);
	ev->fields |= TT_WL_F_DELTA;
	wl_cap_write(s->cap, ev);
}

static void
swipe_begin(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time,
	    struct wl_surface *surface, uint32_t fingers)
{
	gesture_begin(data, g, TT_WL_SWIPE_BEGIN, serial, time, surface, fingers);
}

static void
swipe_update(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t time, wl_fixed_t dx,
	     wl_fixed_t dy)
{
	struct tt_wl_event ev = wl_cap_event(TT_WL_SWIPE_UPDATE, g);

	gesture_update(data, &ev, time, dx, dy);
}

static void
swipe_end(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial, uint32_t time,
	  int32_t cancelled)
{
	gesture_end(data, g, TT_WL_SWIPE_END, serial, time, cancelled);
}

static const struct zwp_pointer_gesture_swipe_v1_listener swipe_listener = {
	.begin = swipe_begin,
	.update = swipe_update,
	.end = swipe_end,
};

static void
pinch_begin(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time,
	    struct wl_surface *surface, uint32_t fingers)
{
	gesture_begin(data, g, TT_WL_PINCH_BEGIN, serial, time, surface, fingers);
}

static void
pinch_update(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t time, wl_fixed_t dx,
	     wl_fixed_t dy, wl_fixed_t scale, wl_fixed_t rotation)
{
	struct tt_wl_event ev = wl_cap_event(TT_WL_PINCH_UPDATE, g);

	ev.scale = wl_fixed_to_double(scale);
	ev.rotation = wl_fixed_to_double(rotation);
	ev.fields |= TT_WL_F_SCALE | TT_WL_F_ROTATION;
	gesture_update(data, &ev, time, dx, dy);
}

static void
pinch_end(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial, uint32_t time,
	  int32_t cancelled)
{
	gesture_end(data, g, TT_WL_PINCH_END, serial, time, cancelled);
}

static const struct zwp_pointer_gesture_pinch_v1_listener pinch_listener = {
	.begin = pinch_begin,
	.update = pinch_update,
	.end = pinch_end,
};

static void
hold_begin(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial, uint32_t time,
	   struct wl_surface *surface, uint32_t fingers)
{
	gesture_begin(data, g, TT_WL_HOLD_BEGIN, serial, time, surface, fingers);
}

static void
hold_end(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial, uint32_t time,
	 int32_t cancelled)
{
	gesture_end(data, g, TT_WL_HOLD_END, serial, time, cancelled);
}

static const struct zwp_pointer_gesture_hold_v1_listener hold_listener = {
	.begin = hold_begin,
	.end = hold_end,
};

/* ---- input timestamps ---- */

static void
on_timestamp(void *data, struct zwp_input_timestamps_v1 *ts, uint32_t sec_hi, uint32_t sec_lo,
	     uint32_t nsec)
{
	SEAT_OF(data);
	int64_t us = (int64_t)(((uint64_t)sec_hi << 32 | sec_lo) * 1000000 + nsec / 1000);

	if (ts == s->touch_ts)
		s->touch_ts_us = us;
	else
		s->pointer_ts_us = us;
}

static const struct zwp_input_timestamps_v1_listener timestamps_listener = {
	.timestamp = on_timestamp,
};

/* ---- wl_seat ---- */

static void
add_touch(struct wl_cap_seat *s)
{
	struct tt_wl_capture *cap = s->cap;

	s->touch = wl_seat_get_touch(s->seat);
	wl_touch_add_listener(s->touch, &touch_listener, s);
	s->touch_ts_us = -1;
	if (cap->timestamps) {
		s->touch_ts = zwp_input_timestamps_manager_v1_get_touch_timestamps(cap->timestamps, s->touch);
		zwp_input_timestamps_v1_add_listener(s->touch_ts, &timestamps_listener, s);
	}
}

static void
add_gestures(struct wl_cap_seat *s)
{
	struct tt_wl_capture *cap = s->cap;

	s->swipe = zwp_pointer_gestures_v1_get_swipe_gesture(cap->gestures, s->pointer);
	zwp_pointer_gesture_swipe_v1_add_listener(s->swipe, &swipe_listener, s);
	s->pinch = zwp_pointer_gestures_v1_get_pinch_gesture(cap->gestures, s->pointer);
	zwp_pointer_gesture_pinch_v1_add_listener(s->pinch, &pinch_listener, s);
	if (cap->gestures_version >= ZWP_POINTER_GESTURES_V1_GET_HOLD_GESTURE_SINCE_VERSION) {
		s->hold = zwp_pointer_gestures_v1_get_hold_gesture(cap->gestures, s->pointer);
		zwp_pointer_gesture_hold_v1_add_listener(s->hold, &hold_listener, s);
	}
}

static void
add_pointer(struct wl_cap_seat *s)
{
	struct tt_wl_capture *cap = s->cap;

	s->pointer = wl_seat_get_pointer(s->seat);
	wl_pointer_add_listener(s->pointer, &pointer_listener, s);
	s->pointer_ts_us = -1;
	if (cap->timestamps) {
		s->pointer_ts = zwp_input_timestamps_manager_v1_get_pointer_timestamps(cap->timestamps,
										      s->pointer);
		zwp_input_timestamps_v1_add_listener(s->pointer_ts, &timestamps_listener, s);
	}
	if (cap->gestures)
		add_gestures(s);
}

static void
release_touch(struct wl_cap_seat *s)
{
	if (s->touch_ts)
		zwp_input_timestamps_v1_destroy(s->touch_ts);
	s->touch_ts = NULL;
	if (wl_touch_get_version(s->touch) >= WL_TOUCH_RELEASE_SINCE_VERSION)
		wl_touch_release(s->touch);
	else
		wl_touch_destroy(s->touch);
	s->touch = NULL;
}

static void
release_pointer(struct wl_cap_seat *s)
{
	if (s->swipe)
		zwp_pointer_gesture_swipe_v1_destroy(s->swipe);
	if (s->pinch)
		zwp_pointer_gesture_pinch_v1_destroy(s->pinch);
	if (s->hold)
		zwp_pointer_gesture_hold_v1_destroy(s->hold);
	if (s->pointer_ts)
		zwp_input_timestamps_v1_destroy(s->pointer_ts);
	s->swipe = NULL;
	s->pinch = NULL;
	s->hold = NULL;
	s->pointer_ts = NULL;
	if (wl_pointer_get_version(s->pointer) >= WL_POINTER_RELEASE_SINCE_VERSION)
		wl_pointer_release(s->pointer);
	else
		wl_pointer_destroy(s->pointer);
	s->pointer = NULL;
}

void
wl_cap_seat_update(struct wl_cap_seat *s)
{
	bool touch = s->caps & WL_SEAT_CAPABILITY_TOUCH;
	bool pointer = s->caps & WL_SEAT_CAPABILITY_POINTER;

	if (touch && !s->touch)
		add_touch(s);
	else if (!touch && s->touch)
		release_touch(s);
	if (pointer && !s->pointer)
		add_pointer(s);
	else if (!pointer && s->pointer)
		release_pointer(s);
}

void
wl_cap_seat_release(struct wl_cap_seat *s)
{
	s->caps = 0;
	wl_cap_seat_update(s);
	if (s->seat)
		wl_seat_destroy(s->seat);
	s->seat = NULL;
}

static void
seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_SEAT_CAPABILITIES, seat);

	ev.capabilities = caps & (TT_WL_CAP_POINTER | TT_WL_CAP_KEYBOARD | TT_WL_CAP_TOUCH);
	ev.fields |= TT_WL_F_CAPABILITIES;
	wl_cap_write(s->cap, &ev);
	s->caps = caps;
	wl_cap_seat_update(s);
}

static void
seat_name(void *data, struct wl_seat *seat, const char *name)
{
	SEAT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_SEAT_NAME, seat);

	ev.name = (char *)name;
	ev.fields |= TT_WL_F_NAME;
	wl_cap_write(s->cap, &ev);
}

const struct wl_seat_listener wl_cap_seat_listener = {
	.capabilities = seat_capabilities,
	.name = seat_name,
};

/* ---- wl_output ---- */

#define OUTPUT_OF(data) struct wl_cap_output *o = (data)

static void
output_geometry(void *data, struct wl_output *out, int32_t x, int32_t y, int32_t width_mm,
		int32_t height_mm, int32_t subpixel, const char *make, const char *model,
		int32_t transform)
{
	OUTPUT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_OUTPUT_GEOMETRY, out);

	ev.pos_x = x;
	ev.pos_y = y;
	ev.width_mm = width_mm;
	ev.height_mm = height_mm;
	ev.subpixel = subpixel;
	ev.make = (char *)make;
	ev.model = (char *)model;
	ev.transform = transform;
	ev.fields |= TT_WL_F_POSITION | TT_WL_F_SIZE_MM | TT_WL_F_SUBPIXEL | TT_WL_F_MAKE_MODEL;
	/* A transform the protocol does not define would not be read back. */
	if (transform >= 0 && transform <= 7)
		ev.fields |= TT_WL_F_TRANSFORM;
	wl_cap_write(o->cap, &ev);
}

static void
output_mode(void *data, struct wl_output *out, uint32_t flags, int32_t width, int32_t height,
	    int32_t refresh)
{
	OUTPUT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_OUTPUT_MODE, out);

	ev.mode_flags = flags;
	ev.width = width;
	ev.height = height;
	ev.refresh_mhz = refresh;
	ev.fields |= TT_WL_F_MODE_FLAGS | TT_WL_F_SIZE | TT_WL_F_REFRESH;
	wl_cap_write(o->cap, &ev);
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		o->width = width;
		o->height = height;
	}
}

static void
output_done(void *data, struct wl_output *out)
{
	OUTPUT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_OUTPUT_DONE, out);

	wl_cap_write(o->cap, &ev);
}

static void
output_scale(void *data, struct wl_output *out, int32_t factor)
{
	OUTPUT_OF(data);
	struct tt_wl_event ev = wl_cap_event(TT_WL_OUTPUT_SCALE, out);

	ev.scale = factor;
	ev.fields |= TT_WL_F_SCALE;
	wl_cap_write(o->cap, &ev);
}

static void
output_text(struct wl_cap_output *o, struct wl_output *out, enum tt_wl_event_type kind,
	    const char *text)
{
	struct tt_wl_event ev = wl_cap_event(kind, out);

	ev.name = (char *)text;
	ev.fields |= TT_WL_F_NAME;
	wl_cap_write(o->cap, &ev);
}

static void
output_name(void *data, struct wl_output *out, const char *name)
{
	output_text(data, out, TT_WL_OUTPUT_NAME, name);
}

static void
output_description(void *data, struct wl_output *out, const char *description)
{
	output_text(data, out, TT_WL_OUTPUT_DESCRIPTION, description);
}

const struct wl_output_listener wl_cap_output_listener = {
	.geometry = output_geometry,
	.mode = output_mode,
	.done = output_done,
	.scale = output_scale,
	.name = output_name,
	.description = output_description,
};
