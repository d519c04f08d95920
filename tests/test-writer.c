/* SPDX-License-Identifier: MIT */
/* Writer: every record type round-trips through the reader unchanged, and
 * hostile strings come out clean and readable. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <X11/extensions/XI2.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "writer.h"

static struct tt_device *
make_device(uint32_t id, const char *name)
{
	struct tt_device *d = tt_device_new(id);

	d->name = tt_strdup(name);
	d->node = tt_strdup("/dev/input/event7");
	d->phys = tt_strdup("usb-0000:00:14.0-1/input0");
	d->bustype = 3;
	d->vendor = 0x596;
	d->product = 0x502;
	d->version = 0x110;
	d->driver_version = 0x10001;
	set_bit(d->props, INPUT_PROP_DIRECT);
	tt_device_enable(d, EV_KEY, BTN_TOUCH);
	tt_device_enable(d, EV_MSC, MSC_TIMESTAMP);
	static const unsigned int axes[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X,
					     ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE };
	for (size_t i = 0; i < ARRAY_LENGTH(axes); i++) {
		tt_device_enable(d, EV_ABS, axes[i]);
		d->abs[axes[i]] = (struct tt_absinfo){ 0, 0, 32767, 15, 0, 40 };
	}
	d->abs[ABS_MT_SLOT] = (struct tt_absinfo){ 1, 0, 9, 0, 0, 0 };
	d->abs[ABS_MT_TRACKING_ID] = (struct tt_absinfo){ 0, 0, 65535, 0, 0, 0 };
	d->abs[ABS_MT_PRESSURE].minimum = -5;
	d->mt_protocol = TT_MT_B;
	tt_device_set_slots(d, 10);
	d->current_slot = 1;
	d->slots[1].values[ABS_MT_TRACKING_ID - TT_MT_FIRST] = 42;
	d->slots[1].values[ABS_MT_POSITION_X - TT_MT_FIRST] = 1000;
	d->slots[1].values[ABS_MT_POSITION_Y - TT_MT_FIRST] = 2000;
	set_bit(d->keys_down, BTN_TOUCH);
	return d;
}

static void
check_device_equal(const struct tt_device *a, const struct tt_device *b)
{
	check_int_eq(a->id, b->id);
	check_str_eq(a->name, b->name);
	check_str_eq(a->node, b->node);
	check_str_eq(a->phys, b->phys);
	check(b->uniq == NULL);
	check_int_eq(a->bustype, b->bustype);
	check_int_eq(a->vendor, b->vendor);
	check_int_eq(a->product, b->product);
	check_int_eq(a->version, b->version);
	check_int_eq(a->driver_version, b->driver_version);
	check(memcmp(a->props, b->props, sizeof(a->props)) == 0);
	check(memcmp(a->types, b->types, sizeof(a->types)) == 0);
	check(memcmp(a->codes, b->codes, sizeof(a->codes)) == 0);
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		if (tt_device_has(a, EV_ABS, c))
			check(memcmp(&a->abs[c], &b->abs[c], sizeof(a->abs[c])) == 0);
	}
	check_int_eq(a->mt_protocol, b->mt_protocol);
	check_int_eq(a->num_slots, b->num_slots);
	check_int_eq(a->current_slot, b->current_slot);
	for (uint32_t s = 0; s < a->num_slots && s < b->num_slots; s++) {
		for (unsigned int i = 0; i < TT_MT_AXES; i++) {
			if (tt_device_has(a, EV_ABS, TT_MT_FIRST + i))
				check_int_eq(a->slots[s].values[i], b->slots[s].values[i]);
		}
	}
	check(memcmp(a->keys_down, b->keys_down, sizeof(a->keys_down)) == 0);
}

static int
open_tmp(char *path, size_t size)
{
	snprintf(path, size, "%s/tt-writer-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkstemp(path);
}

static void
test_round_trip(void)
{
	char path[256];
	int fd = open_tmp(path, sizeof(path));
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	struct tt_device *dev = make_device(3, "3M \xe2\x80\x93 MicroTouch");
	struct tt_event evs[] = {
		{ EV_ABS, ABS_MT_SLOT, 0, 0 },
		{ EV_ABS, ABS_MT_TRACKING_ID, 7, 0 },
		{ EV_ABS, ABS_MT_POSITION_X, 32767, 0 },
		{ EV_ABS, ABS_MT_PRESSURE, -5, 0 },
		{ EV_MSC, MSC_TIMESTAMP, 2147483647, -12 },
		{ EV_SYN, SYN_REPORT, 0, 0 },
	};
	struct tt_frame f = { .device = 3, .time_us = 123456789, .nevents = ARRAY_LENGTH(evs), .events = evs };
	struct tt_frame dropped = { .device = 3, .time_us = 123456790, .flags = TT_FRAME_DROPPED,
				    .nevents = 1, .events = (struct tt_event[]){ { EV_SYN, SYN_DROPPED, 0, 0 } } };
	struct tt_xi_valuator vals[] = {
		{ 0, (char *)"Abs MT Position X", 0, 32767, 12.5, 40, XIModeAbsolute },
		{ 1, NULL, -1.5, 1e9, 0, 0, XIModeRelative },
	};
	struct tt_xi_device xd = {
		.id = 11, .deviceid = 11, .name = (char *)"3M touch", .use = XISlavePointer,
		.attachment = 2, .enabled = true, .touch_mode = TT_XI_TOUCH_DIRECT, .num_touches = 10,
		.num_buttons = 3, .nvaluators = 2, .valuators = vals,
		.device_node = (char *)"/dev/input/event7", .evdev_device = 3,
	};
	int32_t nums[] = { 0, 1, 4 };
	double values[] = { 100.25, 200.5, 0.1 };
	double raw[] = { 1000, 2000, 3 };
	int32_t buttons[] = { 1 };
	struct tt_xi_event xe = {
		.time_us = 123456999, .server_time = 4294967295u, .evtype = XI_TouchBegin,
		.client = (char *)"observer", .deviceid = 2, .sourceid = 11, .detail = 77,
		.flags = XITouchEmulatingPointer | XITouchPendingEnd,
		.root_x = 10.5, .root_y = 20.25, .event_x = 1.0 / 3.0, .event_y = -4,
		.root = 0x123, .event = 0x456, .child = 0,
		.nvaluators = 3, .valuator_numbers = nums, .valuator_values = values,
		.nbuttons = 1, .buttons = buttons,
		.mods_base = 1, .mods_effective = 5, .group_locked = 2,
	};
	struct tt_xi_event raw_ev = {
		.time_us = 123457000, .evtype = XI_RawTouchUpdate, .deviceid = 11, .sourceid = 11,
		.detail = 77, .flags = XIPointerEmulated, .nvaluators = 3, .valuator_numbers = nums,
		.valuator_values = values, .raw_values = raw,
	};
	struct tt_xi_event own = { .time_us = 123457001, .evtype = XI_TouchOwnership, .client = (char *)"window",
				   .deviceid = 2, .sourceid = 11, .touchid = 77, .root = 1, .event = 2 };
	struct tt_xi_event rej = { .time_us = 123457002, .evtype = TT_XI_REQ_REJECT, .client = (char *)"grab",
				   .deviceid = 2, .touchid = 77, .event = 0x123 };
	struct tt_xi_change ch = { .deviceid = 12, .attachment = 2, .use = XISlavePointer, .enabled = true,
				   .flags = XISlaveAdded | XIDeviceEnabled };
	struct tt_xi_event hier = { .time_us = 123457003, .evtype = XI_HierarchyChanged,
				    .flags = XISlaveAdded, .nchanges = 1, .changes = &ch };
	struct tt_marker m = { .time_us = 5, .kind = TT_MARKER_NOTE, .device = 3, .text = (char *)"tap \"here\" \\ now" };
	struct tt_marker m2 = { .time_us = 6, .kind = TT_MARKER_OTHER, .kind_name = (char *)"future-kind", .device = -1 };

	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	h.keycodes_masked = true;
	h.x_vendor = tt_strdup("The X.Org Foundation");
	h.x_release = 12101007;
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_device(w, dev), 0);
	check_int_eq(tt_writer_frame(w, &f), 0);
	check_int_eq(tt_writer_frame(w, &dropped), 0);
	check_int_eq(tt_writer_xi_device(w, &xd), 0);
	check_int_eq(tt_writer_xi_event(w, &xe), 0);
	check_int_eq(tt_writer_xi_event(w, &raw_ev), 0);
	check_int_eq(tt_writer_xi_event(w, &own), 0);
	check_int_eq(tt_writer_xi_event(w, &rej), 0);
	check_int_eq(tt_writer_xi_event(w, &hier), 0);
	check_int_eq(tt_writer_marker(w, &m), 0);
	check_int_eq(tt_writer_marker(w, &m2), 0);
	tt_writer_free(w);
	close(fd);

	struct tt_reader *r = NULL;
	struct tt_record rec;
	check_int_eq(tt_reader_open(path, &r), 0);
	if (!r)
		return;

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HEADER);
	check_int_eq(rec.header->version, TT_FORMAT_VERSION);
	check_int_eq(rec.header->start_monotonic_us, h.start_monotonic_us);
	check_int_eq(rec.header->start_realtime_us, h.start_realtime_us);
	check_str_eq(rec.header->kernel, h.kernel);
	check_str_eq(rec.header->x_vendor, "The X.Org Foundation");
	check_int_eq(rec.header->x_release, 12101007);
	check(rec.header->keycodes_masked);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_DEVICE);
	check_int_eq(rec.line, 2);
	check_device_equal(dev, rec.device);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_FRAME);
	check_int_eq(rec.frame->device, 3);
	check_int_eq(rec.frame->time_us, 123456789);
	check_int_eq(rec.frame->nevents, ARRAY_LENGTH(evs));
	check(memcmp(rec.frame->events, evs, sizeof(evs)) == 0);
	check_int_eq(rec.frame->flags, 0);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.frame->flags, TT_FRAME_DROPPED);
	check_int_eq(rec.frame->events[0].code, SYN_DROPPED);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_XI_DEVICE);
	check_int_eq(rec.xi_device->deviceid, 11);
	check_int_eq(rec.xi_device->use, XISlavePointer);
	check_int_eq(rec.xi_device->touch_mode, TT_XI_TOUCH_DIRECT);
	check_int_eq(rec.xi_device->num_touches, 10);
	check_int_eq(rec.xi_device->nvaluators, 2);
	check_str_eq(rec.xi_device->valuators[0].label, "Abs MT Position X");
	check(rec.xi_device->valuators[0].value == 12.5);
	check(rec.xi_device->valuators[1].min == -1.5);
	check_int_eq(rec.xi_device->valuators[1].mode, XIModeRelative);
	check_int_eq(rec.xi_device->evdev_device, 3);
	check_str_eq(rec.xi_device->device_node, "/dev/input/event7");

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_XI_EVENT);
	const struct tt_xi_event *e = rec.xi_event;
	check_int_eq(e->evtype, XI_TouchBegin);
	check_int_eq(e->server_time, 4294967295u);
	check_str_eq(e->client, "observer");
	check_int_eq(e->detail, 77);
	check_int_eq(e->flags, XITouchEmulatingPointer | XITouchPendingEnd);
	check(e->event_x == 1.0 / 3.0);	/* exact: doubles round-trip */
	check(e->root_y == 20.25);
	check_int_eq(e->root, 0x123);
	check_int_eq(e->nvaluators, 3);
	check_int_eq(e->valuator_numbers[2], 4);
	check(e->valuator_values[2] == 0.1);
	check_int_eq(e->nbuttons, 1);
	check_int_eq(e->mods_effective, 5);
	check_int_eq(e->group_locked, 2);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.xi_event->evtype, XI_RawTouchUpdate);
	check_int_eq(rec.xi_event->flags, XIPointerEmulated);
	check(rec.xi_event->raw_values && rec.xi_event->raw_values[1] == 2000);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.xi_event->evtype, XI_TouchOwnership);
	check_int_eq(rec.xi_event->touchid, 77);
	check_str_eq(rec.xi_event->client, "window");

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.xi_event->evtype, TT_XI_REQ_REJECT);
	check_int_eq(rec.xi_event->touchid, 77);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.xi_event->evtype, XI_HierarchyChanged);
	check_int_eq(rec.xi_event->nchanges, 1);
	check_int_eq(rec.xi_event->changes[0].flags, XISlaveAdded | XIDeviceEnabled);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_MARKER);
	check_int_eq(rec.marker->kind, TT_MARKER_NOTE);
	check_str_eq(rec.marker->text, "tap \"here\" \\ now");
	check_int_eq(rec.marker->device, 3);

	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.marker->kind, TT_MARKER_OTHER);
	check_str_eq(rec.marker->kind_name, "future-kind");
	check_int_eq(rec.marker->device, -1);

	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 0);
	check_int_eq(tt_reader_nwarnings(r), 0);
	tt_reader_free(r);
	tt_header_clear(&h);
	tt_device_free(dev);
	unlink(path);
}

static void
test_hostile_names(void)
{
	char path[256];
	int fd = open_tmp(path, sizeof(path));
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	size_t big = 1024 * 1024;
	char *huge = tt_zalloc(big + 1);
	struct tt_device *d1, *d2;

	memset(huge, 'A', big);
	d1 = make_device(0, "%s%n\x1b]0;pwned\x07\nline2\xff\xfe");
	d2 = make_device(1, huge);
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_device(w, d1), 0);
	check_int_eq(tt_writer_device(w, d2), 0);
	tt_writer_free(w);
	close(fd);

	/* Exactly one line per record: the newline in the name is gone. */
	size_t len;
	char *text = tt_test_slurp(path, &len);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	check_int_eq(lines, 3);
	check(strchr(text, '\x1b') == NULL);
	free(text);

	struct tt_reader *r = NULL;
	struct tt_record rec;
	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_str_eq(rec.device->name, "%s%n?]0;pwned??line2\xef\xbf\xbd\xef\xbf\xbd");
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(strlen(rec.device->name), TT_MAX_STRING_BYTES);
	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 0);
	tt_reader_free(r);
	tt_device_free(d1);
	tt_device_free(d2);
	tt_header_clear(&h);
	free(huge);
	unlink(path);
}

static void
test_write_error_is_sticky(void)
{
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	int fd = open("/dev/full", O_WRONLY);

	if (fd < 0)
		return;	/* no /dev/full in this sandbox */
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	check_int_eq(tt_writer_header(w, &h), -ENOSPC);
	struct tt_marker m = { .time_us = 1, .kind = TT_MARKER_STOP, .device = -1 };
	check_int_eq(tt_writer_marker(w, &m), -ENOSPC);
	tt_writer_free(w);
	tt_header_clear(&h);
	close(fd);
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_hostile_names);
	RUN(test_write_error_is_sticky);
	return tt_test_result();
}
