/* SPDX-License-Identifier: MIT */
/* The libinput layer's records (li_device, li): every event class
 * round-trips through the writer and the reader unchanged, unknown keys
 * and event types from a newer writer are tolerated, and bad values are
 * errors naming the key. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "writer.h"

static const struct tt_li_event events[] = {
	{ .time_us = 10, .kind = TT_LI_TOUCH_DOWN, .device = 3, .slot = 0, .seat_slot = 4,
	  .x = 12.5, .y = 30.25, .x_norm = 0.125, .y_norm = 0.75 },
	{ .time_us = 11, .kind = TT_LI_TOUCH_FRAME, .device = 3, .slot = -1, .seat_slot = -1 },
	{ .time_us = 12, .kind = TT_LI_TOUCH_UP, .device = 3, .slot = 0, .seat_slot = 4 },
	{ .time_us = 13, .kind = TT_LI_TOUCH_CANCEL, .device = 3, .slot = 1, .seat_slot = 5 },
	{ .time_us = 20, .kind = TT_LI_POINTER_MOTION, .device = 1, .slot = -1, .seat_slot = -1,
	  .dx = 1.5, .dy = -2.25, .dx_unaccel = 1.0 / 3.0, .dy_unaccel = -1 },
	{ .time_us = 21, .kind = TT_LI_POINTER_BUTTON, .device = 1, .slot = -1, .seat_slot = -1,
	  .code = 272, .pressed = true, .seat_count = 1 },
	{ .time_us = 22, .kind = TT_LI_POINTER_SCROLL_FINGER, .device = 1, .slot = -1, .seat_slot = -1,
	  .has_vert = true, .vert = 0 },
	{ .time_us = 23, .kind = TT_LI_POINTER_SCROLL_WHEEL, .device = 1, .slot = -1, .seat_slot = -1,
	  .has_vert = true, .has_horiz = true, .vert = -15, .horiz = 7.5, .vert_v120 = -120, .horiz_v120 = 60 },
	{ .time_us = 30, .kind = TT_LI_GESTURE_PINCH_UPDATE, .device = 1, .slot = -1, .seat_slot = -1,
	  .fingers = 2, .dx = 0.5, .dy = 1, .dx_unaccel = 0.25, .dy_unaccel = 0.5, .scale = 1.25, .angle = -3.5 },
	{ .time_us = 31, .kind = TT_LI_GESTURE_SWIPE_END, .device = 1, .slot = -1, .seat_slot = -1,
	  .fingers = 3, .cancelled = true },
	{ .time_us = 32, .kind = TT_LI_GESTURE_HOLD_BEGIN, .device = 1, .slot = -1, .seat_slot = -1,
	  .fingers = 1 },
	{ .time_us = 40, .kind = TT_LI_TABLET_TOOL_PROXIMITY, .device = 2, .slot = -1, .seat_slot = -1,
	  .tool = TT_LI_TOOL_ERASER, .tool_serial = 0xdeadbeef, .pressed = true, .x = 100, .y = 50.5,
	  .x_norm = 0.5, .y_norm = 0.25, .tablet_axes = TT_LI_AXIS_PRESSURE | TT_LI_AXIS_TILT,
	  .pressure = 0.5, .tilt_x = -10, .tilt_y = 20 },
	{ .time_us = 41, .kind = TT_LI_TABLET_TOOL_BUTTON, .device = 2, .slot = -1, .seat_slot = -1,
	  .tool = TT_LI_TOOL_PEN, .code = 331, .x = 1, .y = 2, .tablet_axes = TT_LI_AXIS_DISTANCE,
	  .distance = 0.75 },
	{ .time_us = 42, .kind = TT_LI_TABLET_TOOL_TIP, .device = 2, .slot = -1, .seat_slot = -1,
	  .tool = TT_LI_TOOL_PEN, .pressed = true },
	{ .time_us = 50, .kind = TT_LI_KEYBOARD_KEY, .device = 4, .slot = -1, .seat_slot = -1,
	  .code = 30, .seat_count = 0 },
	{ .time_us = 51, .kind = TT_LI_SWITCH_TOGGLE, .device = 4, .slot = -1, .seat_slot = -1,
	  .code = 1, .pressed = true },
	{ .time_us = 52, .kind = TT_LI_TABLET_PAD_RING, .device = 2, .slot = -1, .seat_slot = -1,
	  .code = 0, .position = 270.5 },
	{ .time_us = 60, .kind = TT_LI_DEVICE_REMOVED, .device = 4, .slot = -1, .seat_slot = -1 },
};

static void
check_event_equal(const struct tt_li_event *a, const struct tt_li_event *b)
{
	check_int_eq(a->time_us, b->time_us);
	check_int_eq(a->kind, b->kind);
	check_str_eq(tt_li_event_name(a->kind), b->kind_name);
	check_int_eq(a->device, b->device);
	check_int_eq(a->slot, b->slot);
	check_int_eq(a->seat_slot, b->seat_slot);
	check(a->x == b->x && a->y == b->y);
	check(a->x_norm == b->x_norm && a->y_norm == b->y_norm);
	check(a->dx == b->dx && a->dy == b->dy);
	check(a->dx_unaccel == b->dx_unaccel && a->dy_unaccel == b->dy_unaccel);
	check_int_eq(a->code, b->code);
	check_int_eq(a->pressed, b->pressed);
	check_int_eq(a->seat_count, b->seat_count);
	check_int_eq(a->has_vert, b->has_vert);
	check_int_eq(a->has_horiz, b->has_horiz);
	check(a->vert == b->vert && a->horiz == b->horiz);
	check(a->vert_v120 == b->vert_v120 && a->horiz_v120 == b->horiz_v120);
	check_int_eq(a->fingers, b->fingers);
	check(a->scale == b->scale && a->angle == b->angle);
	check_int_eq(a->cancelled, b->cancelled);
	check_int_eq(a->tool, b->tool);
	check_int_eq(a->tool_serial, b->tool_serial);
	check_int_eq(a->tablet_axes, b->tablet_axes);
	check(a->pressure == b->pressure && a->distance == b->distance);
	check(a->tilt_x == b->tilt_x && a->tilt_y == b->tilt_y);
	check(a->position == b->position);
}

static struct tt_li_setting settings[] = {
	{ (char *)"tap", (char *)"on" },
	{ (char *)"natural-scroll", (char *)"off" },
	{ (char *)"scroll-method", (char *)"two-finger" },
	{ (char *)"accel-speed", (char *)"0.25" },
};

static const struct tt_li_device li_dev = {
	.device = 1, .sysname = (char *)"event7", .name = (char *)"SynPS/2 Synaptics TouchPad",
	.capabilities = TT_LI_CAP_POINTER | TT_LI_CAP_GESTURE, .has_size = true,
	.width_mm = 99.5, .height_mm = 58.25, .tap_fingers = 3,
	.nsettings = ARRAY_LENGTH(settings), .settings = settings,
};

static const char *
write_file(void)
{
	static char path[256];
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/tt-li-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_li_device(w, &li_dev), 0);
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++)
		check_int_eq(tt_writer_li_event(w, &events[i]), 0);
	tt_header_clear(&h);
	tt_writer_free(w);
	close(fd);
	return path;
}

static void
check_li_device(const struct tt_li_device *d)
{
	check_int_eq(d->device, 1);
	check_str_eq(d->sysname, "event7");
	check_str_eq(d->name, li_dev.name);
	check_int_eq(d->capabilities, li_dev.capabilities);
	check(d->has_size && d->width_mm == 99.5 && d->height_mm == 58.25);
	check_int_eq(d->tap_fingers, 3);
	check_int_eq(d->nsettings, ARRAY_LENGTH(settings));
	for (uint32_t i = 0; i < d->nsettings && i < ARRAY_LENGTH(settings); i++) {
		check_str_eq(d->settings[i].name, settings[i].name);
		check_str_eq(d->settings[i].value, settings[i].value);
	}
	check_str_eq(tt_li_device_setting(d, "tap"), "on");
	check(tt_li_device_setting(d, "dwt") == NULL);
}

static void
test_round_trip(void)
{
	const char *path = write_file();
	struct tt_reader *r = NULL;
	struct tt_record rec;

	check_int_eq(tt_reader_open(path, &r), 0);
	if (!r)
		return;
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HEADER);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_LI_DEVICE);
	check_li_device(rec.li_device);
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++) {
		int64_t t = -1;
		check_int_eq(tt_reader_next(r, &rec), 1);
		check_int_eq(rec.type, TT_RECORD_LI_EVENT);
		if (rec.type != TT_RECORD_LI_EVENT)
			break;
		check_event_equal(&events[i], rec.li_event);
		check(tt_record_time(&rec, &t) && t == events[i].time_us);
	}
	check_int_eq(tt_reader_next(r, &rec), 0);
	check(tt_reader_li_device(r, 1) != NULL);
	check(tt_reader_li_device(r, 0) == NULL);
	tt_reader_free(r);
	unlink(path);
}

static const char header[] =
	"{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n";

/* Reads @body after a header: the number of good records, the first error. */
static int
read_body(const char *body, char *error, size_t size)
{
	_cleanup_free_ char *text = NULL;
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int good = 0, rc;

	check(asprintf(&text, "%s%s", header, body) > 0);
	check_int_eq(tt_reader_open(tt_test_tmpfile(text, strlen(text)), &r), 0);
	if (!r)
		return -1;
	error[0] = '\0';
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc > 0 && rec.type != TT_RECORD_HEADER)
			good++;
		if (rc < 0 && !error[0])
			snprintf(error, size, "%s", tt_reader_error(r));
	}
	tt_reader_free(r);
	return good;
}

static void
test_newer_writer(void)
{
	char error[1024];
	/* An unknown key, an unknown event type, an unknown capability and
	 * tool: all read, the unknown type kept by name. */
	check_int_eq(read_body("{\"type\":\"li\",\"li\":\"TOUCH_DOWN\",\"t\":5,\"dev\":0,\"slot\":1,"
			       "\"seat_slot\":1,\"mm\":[1,2],\"future\":{\"x\":1}}\n"
			       "{\"type\":\"li\",\"li\":\"GESTURE_WIGGLE_BEGIN\",\"t\":6,\"dev\":0}\n"
			       "{\"type\":\"li_device\",\"dev\":0,\"capabilities\":[\"touch\",\"telepathy\"],"
			       "\"config\":{}}\n"
			       "{\"type\":\"li\",\"li\":\"TABLET_TOOL_AXIS\",\"t\":7,\"dev\":0,\"tool\":\"quill\"}\n",
			       error, sizeof(error)), 4);
	check_str_eq(error, "");
}

static void
test_bad_values(void)
{
	static const struct { const char *line, *message; } bad[] = {
		{ "{\"type\":\"li\",\"t\":5,\"dev\":0}\n", "\"li\"" },
		{ "{\"type\":\"li\",\"li\":\"TOUCH_UP\",\"dev\":0}\n", "\"t\"" },
		{ "{\"type\":\"li\",\"li\":\"TOUCH_UP\",\"t\":1}\n", "\"dev\"" },
		{ "{\"type\":\"li\",\"li\":\"TOUCH_UP\",\"t\":1,\"dev\":0,\"slot\":-2}\n", "\"slot\"" },
		{ "{\"type\":\"li\",\"li\":\"TOUCH_DOWN\",\"t\":1,\"dev\":0,\"mm\":[1]}\n", "\"mm\"" },
		{ "{\"type\":\"li\",\"li\":\"POINTER_BUTTON\",\"t\":1,\"dev\":0,\"state\":\"maybe\"}\n", "\"state\"" },
		{ "{\"type\":\"li\",\"li\":\"TABLET_TOOL_TIP\",\"t\":1,\"dev\":0,\"tip\":\"sideways\"}\n", "\"tip\"" },
		{ "{\"type\":\"li_device\",\"config\":{}}\n", "\"dev\"" },
		{ "{\"type\":\"li_device\",\"dev\":0,\"config\":{\"tap\":true}}\n", "\"tap\"" },
		{ "{\"type\":\"li_device\",\"dev\":0,\"config\":{\"a\\\"b\":\"x\"}}\n", "setting name" },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(bad); i++) {
		char error[1024];
		check_int_eq(read_body(bad[i].line, error, sizeof(error)), 0);
		check_contains(error, bad[i].message);
	}
}

/* A libinput record file's libinput: entries (--with-libinput), each as
 * tools/libinput-record.c prints it. */
static const char li_yaml[] =
	"version: 1\n"
	"ndevices: 1\n"
	"devices:\n"
	"- node: /dev/input/event5\n"
	"  evdev:\n"
	"    name: \"pad\"\n"
	"    id: [3, 1, 2, 3]\n"
	"    codes:\n"
	"      0: [0]\n"
	"      1: [330]\n"
	"      3: [0, 1]\n"
	"    absinfo:\n"
	"      0: [0, 100, 0, 0, 10]\n"
	"      1: [0, 100, 0, 0, 10]\n"
	"    properties: []\n"
	"  events:\n"
	"  - libinput:\n"
	"    - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}\n"
	"  - evdev:\n"
	"    - [  1,  250000,   1, 330,       1]\n"
	"    - [  1,  250000,   0,   0,       0]\n"
	"    libinput:\n"
	"    - {time: 1.250000, type: TOUCH_DOWN, slot: 0, seat_slot: 2, point: [ 50.00, 12.50], transformed: [ 25.00, 50.00]}\n"
	"    - {time: 1.25, type: TOUCH_FRAME}\n"
	"    - {time: 1.260000, type: POINTER_MOTION, delta: [  1.50, -2.00], unaccel: [  1.00, -1.25]}\n"
	"    - {time: 1.270000, type: POINTER_BUTTON, button: 272, state: pressed, seat_count: 1}\n"
	"    - {time: 1.280000, type: POINTER_AXIS, axes: [0.00, 4.50], discrete: [0, 0], source: finger}\n"
	"    - {time: 1.290000, type: GESTURE_PINCH_UPDATE, nfingers: 2, delta: [  0.50,  0.00], unaccel: [  0.25,  0.00], angle_delta:  -1.50, scale:   1.25}\n"
	"    - {time: 1.300000, type: TABLET_TOOL_PROXIMITY, proximity: in, tool-type: pen, serial: 7, axes: pt, point: [10.00, 20.00], tilt: [5.00, -5.00], pressure: 0.50}\n"
	"    - {time: 1.310000, type: FUTURE_THING, whatever: [1, 2, 3]}\n";

static void
test_import(void)
{
	struct tt_reader *r = NULL;
	struct tt_record rec;
	const struct tt_li_event *e[16];
	size_t n = 0;
	int rc;

	check_int_eq(tt_reader_open(tt_test_tmpfile(li_yaml, strlen(li_yaml)), &r), 0);
	if (!r)
		return;
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		check(rc > 0);
		if (rc > 0 && rec.type == TT_RECORD_LI_EVENT && n < ARRAY_LENGTH(e)) {
			/* The reader reuses its storage: keep a copy. */
			struct tt_li_event *copy = tt_zalloc(sizeof(*copy));
			*copy = *rec.li_event;
			copy->kind_name = tt_strdup(rec.li_event->kind_name);
			e[n++] = copy;
		}
	}
	tt_reader_free(r);
	check_int_eq(n, 9);
	if (n != 9)
		return;
	check_int_eq(e[0]->kind, TT_LI_DEVICE_ADDED);
	check_int_eq(e[0]->time_us, 0);
	check_int_eq(e[1]->kind, TT_LI_TOUCH_DOWN);
	check_int_eq(e[1]->time_us, 1250000);
	check_int_eq(e[1]->slot, 0);
	check_int_eq(e[1]->seat_slot, 2);
	check(e[1]->x == 50 && e[1]->y == 12.5 && e[1]->x_norm == 0.25 && e[1]->y_norm == 0.5);
	check_int_eq(e[2]->kind, TT_LI_TOUCH_FRAME);
	check_int_eq(e[2]->time_us, 1250000);
	check(e[3]->dx == 1.5 && e[3]->dy == -2 && e[3]->dx_unaccel == 1 && e[3]->dy_unaccel == -1.25);
	check(e[4]->code == 272 && e[4]->pressed && e[4]->seat_count == 1);
	/* libinput < 1.19: POINTER_AXIS of a finger is a finger scroll. */
	check_int_eq(e[5]->kind, TT_LI_POINTER_SCROLL_FINGER);
	check(e[5]->has_vert && !e[5]->has_horiz && e[5]->vert == 4.5);
	check(e[6]->fingers == 2 && e[6]->scale == 1.25 && e[6]->angle == -1.5 && e[6]->dx == 0.5);
	check(e[7]->tool == TT_LI_TOOL_PEN && e[7]->pressed && e[7]->tool_serial == 7);
	check_int_eq(e[7]->tablet_axes, TT_LI_AXIS_TILT | TT_LI_AXIS_PRESSURE);
	check(e[7]->tilt_x == 5 && e[7]->pressure == 0.5 && e[7]->x == 10);
	check_int_eq(e[8]->kind, TT_LI_OTHER);
	check_str_eq(e[8]->kind_name, "FUTURE_THING");
	for (size_t i = 0; i < n; i++) {
		check_int_eq(e[i]->device, 0);
		free(e[i]->kind_name);
		free((void *)e[i]);
	}
}

static void
test_import_bad(void)
{
	char text[sizeof(li_yaml) + 256];
	struct tt_test_read res;

	snprintf(text, sizeof(text), "%s    - {time: 1.2x, type: TOUCH_UP}\n    - {slot: 1}\n", li_yaml);
	tt_test_read_path(tt_test_tmpfile(text, strlen(text)), NULL, &res);
	check_int_eq(res.errors, 2);
	check_contains(res.first_error, "time '1.2x' is not seconds.microseconds");
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_newer_writer);
	RUN(test_bad_values);
	RUN(test_import);
	RUN(test_import_bad);
	return tt_test_result();
}
