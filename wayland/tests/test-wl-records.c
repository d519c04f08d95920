/* SPDX-License-Identifier: MIT */
/* The Wayland layer's record (wl): every event the recorder writes
 * round-trips through the writer and the reader unchanged, with the same
 * keys; an event or key from a newer writer is kept or skipped; bad values
 * are errors naming the key. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "writer.h"

#define INPUT(t, k, obj, f) .time_us = t, .client = (char *)"wayland", .kind = k, .object = obj, .fields = f

static const struct tt_wl_event events[] = {
	{ INPUT(1, TT_WL_SEAT_CAPABILITIES, 5, TT_WL_F_CAPABILITIES),
	  .capabilities = TT_WL_CAP_POINTER | TT_WL_CAP_TOUCH },
	{ INPUT(2, TT_WL_SEAT_NAME, 5, TT_WL_F_NAME), .name = (char *)"seat0" },
	{ INPUT(3, TT_WL_OUTPUT_GEOMETRY, 6, TT_WL_F_POSITION | TT_WL_F_SIZE_MM | TT_WL_F_MAKE_MODEL |
		TT_WL_F_SUBPIXEL | TT_WL_F_TRANSFORM),
	  .pos_x = -1920, .pos_y = 0, .width_mm = 344, .height_mm = 194, .make = (char *)"BOE",
	  .model = (char *)"0x0a1f", .subpixel = 1, .transform = 3 },
	{ INPUT(4, TT_WL_OUTPUT_MODE, 6, TT_WL_F_MODE_FLAGS | TT_WL_F_SIZE | TT_WL_F_REFRESH),
	  .mode_flags = 3, .width = 1920, .height = 1080, .refresh_mhz = 59940 },
	{ INPUT(5, TT_WL_OUTPUT_SCALE, 6, TT_WL_F_SCALE), .scale = 2 },
	{ INPUT(6, TT_WL_OUTPUT_DONE, 6, 0) },
	{ INPUT(7, TT_WL_TOPLEVEL_CONFIGURE, 9, TT_WL_F_SIZE), .width = 960, .height = 540 },
	{ INPUT(10, TT_WL_TOUCH_DOWN, 12, TT_WL_F_SERIAL | TT_WL_F_TIME_MS | TT_WL_F_TIME_COMPOSITOR_US |
		TT_WL_F_SURFACE | TT_WL_F_ID | TT_WL_F_XY),
	  .serial = 41, .time_ms = 4294967295u, .time_compositor_us = 123456789012, .surface = 3,
	  .id = 0, .x = 100.5, .y = 200.00390625 },
	{ INPUT(11, TT_WL_TOUCH_SHAPE, 12, TT_WL_F_ID | TT_WL_F_SHAPE), .id = 0, .major = 10.25, .minor = 8 },
	{ INPUT(12, TT_WL_TOUCH_ORIENTATION, 12, TT_WL_F_ID | TT_WL_F_ORIENTATION), .id = 0,
	  .orientation = -45.5 },
	{ INPUT(13, TT_WL_TOUCH_FRAME, 12, 0) },
	{ INPUT(14, TT_WL_TOUCH_MOTION, 12, TT_WL_F_TIME_MS | TT_WL_F_ID | TT_WL_F_XY), .time_ms = 5,
	  .id = 1, .x = -0.5, .y = 0 },
	{ INPUT(15, TT_WL_TOUCH_UP, 12, TT_WL_F_SERIAL | TT_WL_F_TIME_MS | TT_WL_F_ID), .serial = 42,
	  .time_ms = 6, .id = 0 },
	{ INPUT(16, TT_WL_TOUCH_CANCEL, 12, 0) },
	{ INPUT(20, TT_WL_POINTER_ENTER, 13, TT_WL_F_SERIAL | TT_WL_F_SURFACE | TT_WL_F_XY), .serial = 43,
	  .surface = 3, .x = 1, .y = 2 },
	{ INPUT(21, TT_WL_POINTER_BUTTON, 13, TT_WL_F_SERIAL | TT_WL_F_TIME_MS | TT_WL_F_BUTTON),
	  .serial = 44, .time_ms = 7, .button = 272, .pressed = true },
	{ INPUT(22, TT_WL_POINTER_BUTTON, 13, TT_WL_F_BUTTON), .button = 273, .pressed = false },
	{ INPUT(23, TT_WL_POINTER_AXIS, 13, TT_WL_F_TIME_MS | TT_WL_F_AXIS | TT_WL_F_VALUE), .time_ms = 8,
	  .axis = 1, .value = -10.5 },
	{ INPUT(24, TT_WL_POINTER_AXIS_SOURCE, 13, TT_WL_F_STEPS), .steps = 2 },
	{ INPUT(25, TT_WL_POINTER_AXIS_VALUE120, 13, TT_WL_F_AXIS | TT_WL_F_STEPS), .steps = -120 },
	{ INPUT(26, TT_WL_POINTER_AXIS_DISCRETE, 13, TT_WL_F_AXIS | TT_WL_F_STEPS), .steps = -1 },
	{ INPUT(27, TT_WL_POINTER_AXIS_RELATIVE_DIRECTION, 13, TT_WL_F_AXIS | TT_WL_F_STEPS), .steps = 1 },
	{ INPUT(30, TT_WL_PINCH_BEGIN, 14, TT_WL_F_SERIAL | TT_WL_F_TIME_MS | TT_WL_F_SURFACE |
		TT_WL_F_FINGERS), .serial = 45, .time_ms = 9, .surface = 3, .fingers = 2 },
	{ INPUT(31, TT_WL_PINCH_UPDATE, 14, TT_WL_F_TIME_MS | TT_WL_F_DELTA | TT_WL_F_SCALE |
		TT_WL_F_ROTATION), .time_ms = 10, .dx = 0.25, .dy = -1, .scale = 1.125, .rotation = -3.5 },
	{ INPUT(32, TT_WL_SWIPE_END, 15, TT_WL_F_SERIAL | TT_WL_F_TIME_MS | TT_WL_F_CANCELLED),
	  .serial = 46, .time_ms = 11, .cancelled = true },
	{ INPUT(33, TT_WL_HOLD_BEGIN, 16, TT_WL_F_FINGERS), .fingers = 3 },
	{ .time_us = 40, .kind = TT_WL_OTHER, .interface = (char *)"wp_future_v1",
	  .event = (char *)"wiggle", .fields = TT_WL_F_ID, .id = 7 },
};

static void
check_str_or_null(const char *a, const char *b)
{
	if (a || b)
		check_str_eq(a ? a : "(null)", b ? b : "(null)");
}

static void
check_event_equal(const struct tt_wl_event *a, const struct tt_wl_event *b)
{
	check_int_eq(a->time_us, b->time_us);
	check_int_eq(a->kind, b->kind);
	check_str_eq(a->kind ? tt_wl_interface_name(a->kind) : a->interface, b->interface);
	check_str_eq(a->kind ? tt_wl_event_name(a->kind) : a->event, b->event);
	check_str_or_null(a->client, b->client);
	check_int_eq(a->object, b->object);
	check_int_eq(a->fields, b->fields);
	check_int_eq(a->time_ms, b->time_ms);
	check_int_eq(a->time_compositor_us, b->time_compositor_us);
	check_int_eq(a->serial, b->serial);
	check_int_eq(a->surface, b->surface);
	check_int_eq(a->id, b->id);
	check(a->x == b->x && a->y == b->y);
	check(a->major == b->major && a->minor == b->minor);
	check(a->orientation == b->orientation);
	check_int_eq(a->button, b->button);
	check_int_eq(a->pressed, b->pressed);
	check_int_eq(a->axis, b->axis);
	check(a->value == b->value);
	check_int_eq(a->steps, b->steps);
	check_int_eq(a->fingers, b->fingers);
	check(a->dx == b->dx && a->dy == b->dy);
	check(a->scale == b->scale && a->rotation == b->rotation);
	check_int_eq(a->cancelled, b->cancelled);
	check_int_eq(a->capabilities, b->capabilities);
	check_str_or_null(a->name, b->name);
	check_int_eq(a->pos_x, b->pos_x);
	check_int_eq(a->pos_y, b->pos_y);
	check_int_eq(a->width, b->width);
	check_int_eq(a->height, b->height);
	check_int_eq(a->width_mm, b->width_mm);
	check_int_eq(a->height_mm, b->height_mm);
	check_str_or_null(a->make, b->make);
	check_str_or_null(a->model, b->model);
	check_int_eq(a->subpixel, b->subpixel);
	check_int_eq(a->transform, b->transform);
	check_int_eq(a->mode_flags, b->mode_flags);
	check_int_eq(a->refresh_mhz, b->refresh_mhz);
}

static const char *
write_file(void)
{
	static char path[256];
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/tt-wl-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	check_int_eq(tt_writer_header(w, &h), 0);
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++)
		check_int_eq(tt_writer_wl_event(w, &events[i]), 0);
	tt_header_clear(&h);
	tt_writer_free(w);
	close(fd);
	return path;
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
	for (size_t i = 0; i < ARRAY_LENGTH(events); i++) {
		int64_t t = -1;
		check_int_eq(tt_reader_next(r, &rec), 1);
		check_int_eq(rec.type, TT_RECORD_WL_EVENT);
		if (rec.type != TT_RECORD_WL_EVENT)
			break;
		check_event_equal(&events[i], rec.wl_event);
		check(tt_record_time(&rec, &t) && t == events[i].time_us);
	}
	check_int_eq(tt_reader_next(r, &rec), 0);
	tt_reader_free(r);
	unlink(path);
}

/* The keys as the format specifies them (timeline.md's examples). */
static void
test_written_keys(void)
{
	const char *path = write_file();
	size_t len = 0;
	_cleanup_free_ char *text = tt_test_slurp(path, &len);

	check(text != NULL);
	if (!text)
		return;
	check_contains(text, "{\"type\":\"wl\",\"t\":10,\"client\":\"wayland\",\"wl\":\"wl_touch\",\"obj\":12,"
			     "\"ev\":\"down\",\"time_ms\":4294967295,\"time_us\":123456789012,\"serial\":41,"
			     "\"surface\":3,\"id\":0,\"xy\":[100.5,200.00390625]}\n");
	check_contains(text, "\"ev\":\"capabilities\",\"capabilities\":[\"pointer\",\"touch\"]}");
	check_contains(text, "\"ev\":\"axis_source\",\"source\":2}");
	check_contains(text, "\"ev\":\"axis_value120\",\"axis\":0,\"value120\":-120}");
	check_contains(text, "\"button\":272,\"state\":\"pressed\"");
	check_contains(text, "\"wl\":\"wp_future_v1\",\"ev\":\"wiggle\",\"id\":7}");
	unlink(path);
}

static const char header[] =
	"{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n";

/* Reads @body after a header: the number of good records, the first
 * error in @res. */
static int
read_body(const char *body, struct tt_test_read *res)
{
	_cleanup_free_ char *text = NULL;

	check(asprintf(&text, "%s%s", header, body) > 0);
	tt_test_read_path(tt_test_tmpfile(text, strlen(text)), NULL, res);
	return res->records - 1;
}

static void
test_newer_writer(void)
{
	struct tt_test_read res;

	/* An unknown key, an unknown capability: read, skipped. */
	check_int_eq(read_body("{\"type\":\"wl\",\"t\":5,\"wl\":\"wl_touch\",\"ev\":\"up\",\"id\":1,"
			       "\"future\":{\"x\":1}}\n"
			       "{\"type\":\"wl\",\"t\":6,\"wl\":\"wl_seat\",\"ev\":\"capabilities\","
			       "\"capabilities\":[\"touch\",\"telepathy\"]}\n",
			       &res), 2);
	check_str_eq(res.first_error, "");
}

static void
test_bad_values(void)
{
	static const struct { const char *line, *message; } bad[] = {
		{ "{\"type\":\"wl\",\"wl\":\"wl_touch\",\"ev\":\"up\"}\n", "\"t\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"ev\":\"up\"}\n", "\"wl\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_touch\"}\n", "\"ev\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_touch\",\"ev\":\"up\",\"id\":\"one\"}\n", "\"id\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_touch\",\"ev\":\"down\",\"xy\":[1]}\n", "\"xy\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_touch\",\"ev\":\"down\",\"xy\":[1,\"a\"]}\n", "xy" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_pointer\",\"ev\":\"button\",\"state\":\"maybe\"}\n", "\"state\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_output\",\"ev\":\"geometry\",\"transform\":8}\n", "\"transform\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_seat\",\"ev\":\"capabilities\",\"capabilities\":[4]}\n",
		  "\"capabilities\"" },
		{ "{\"type\":\"wl\",\"t\":1,\"wl\":\"wl_touch\",\"ev\":\"up\",\"obj\":-1}\n", "\"obj\"" },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(bad); i++) {
		struct tt_test_read res;
		check_int_eq(read_body(bad[i].line, &res), 0);
		check_contains(res.first_error, bad[i].message);
	}
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_written_keys);
	RUN(test_newer_writer);
	RUN(test_bad_values);
	return tt_test_result();
}
