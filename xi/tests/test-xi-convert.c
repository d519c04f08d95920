/* SPDX-License-Identifier: MIT */
/* xi/xi-convert.c: hand-built XInput 2 structs (as libXi hands them
 * out) become the records the writer writes, hostile masks and strings
 * included; every converted record goes through the writer and reads back
 * unchanged. No X server involved. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <X11/Xatom.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "xi-names.h"
#include "writer.h"
#include "xi-convert.h"

/* Writes @ev, reads it back and checks the essentials survived. */
static void
roundtrip(const struct tt_xi_event *ev)
{
	char path[] = "/tmp/test-xi-convert.XXXXXX";
	int fd = mkstemp(path);
	struct tt_writer *w = NULL;
	struct tt_reader *r = NULL;
	struct tt_header h = { .version = TT_FORMAT_VERSION, .tool = (char *)"test" };
	struct tt_record rec;

	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_xi_event(w, ev), 0);
	tt_writer_free(w);
	close(fd);
	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HEADER);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_XI_EVENT);
	if (rec.type == TT_RECORD_XI_EVENT) {
		const struct tt_xi_event *b = rec.xi_event;
		check_int_eq(b->evtype, ev->evtype);
		check_int_eq(b->time_us, ev->time_us);
		check_int_eq(b->server_time, ev->server_time);
		if (ev->client)
			check_str_eq(b->client, ev->client);
		else
			check(b->client == NULL);
		check_int_eq(b->deviceid, ev->deviceid);
		check_int_eq(b->sourceid, ev->sourceid);
		check_int_eq(b->flags, ev->flags);
		check_int_eq(b->nvaluators, ev->nvaluators);
		for (uint32_t i = 0; i < b->nvaluators && i < ev->nvaluators; i++) {
			check_int_eq(b->valuator_numbers[i], ev->valuator_numbers[i]);
			check(b->valuator_values[i] == ev->valuator_values[i]);
			if (ev->raw_values)
				check(b->raw_values && b->raw_values[i] == ev->raw_values[i]);
		}
		check_int_eq(b->nbuttons, ev->nbuttons);
		check_int_eq(b->touchid, ev->touchid);
		check_int_eq(b->detail, ev->detail);
		check_int_eq(b->event, ev->event);
		check_int_eq(b->nchanges, ev->nchanges);
	}
	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 0);
	tt_reader_free(r);
	unlink(path);
}

static void
test_touch_begin(void)
{
	/* Valuators 0, 1 and 4 set: values[] holds them in bit order. */
	unsigned char vmask[2] = { 0x13, 0x00 };
	double values[3] = { 1420.0, 790.5, 33.0 };
	unsigned char bmask[1] = { 0x02 };	/* button 1 held */
	XIDeviceEvent ev = {
		.type = GenericEvent,
		.extension = 131,
		.evtype = XI_TouchBegin,
		.time = 4294967000u,
		.deviceid = 2,
		.sourceid = 11,
		.detail = 5,
		.root = 0x2a1,
		.event = 0x2a1,
		.child = 0x400001,
		.root_x = 425.5,
		.root_y = 197.25,
		.event_x = 425.5,
		.event_y = 197.25,
		.flags = XITouchEmulatingPointer,
		.buttons = { .mask_len = 1, .mask = bmask },
		.valuators = { .mask_len = 2, .mask = vmask, .values = values },
		.mods = { .base = 1, .latched = 2, .locked = 16, .effective = 19 },
		.group = { .base = 0, .latched = 0, .locked = 1, .effective = 1 },
	};
	struct tt_xi_event out;

	check_int_eq(tt_xi_convert_cookie(XI_TouchBegin, &ev, 1901, "observer", &out), 0);
	check_int_eq(out.evtype, XI_TouchBegin);
	check_int_eq(out.time_us, 1901);
	check_int_eq(out.server_time, 4294967000u);
	check_str_eq(out.client, "observer");
	check_int_eq(out.deviceid, 2);
	check_int_eq(out.sourceid, 11);
	check_int_eq(out.detail, 5);
	check_int_eq(out.flags, XITouchEmulatingPointer);
	check(out.root_x == 425.5 && out.root_y == 197.25);
	check(out.event_x == 425.5 && out.event_y == 197.25);
	check_int_eq(out.root, 0x2a1);
	check_int_eq(out.event, 0x2a1);
	check_int_eq(out.child, 0x400001);
	check_int_eq(out.nvaluators, 3);
	check_int_eq(out.valuator_numbers[0], 0);
	check_int_eq(out.valuator_numbers[1], 1);
	check_int_eq(out.valuator_numbers[2], 4);
	check(out.valuator_values[1] == 790.5);
	check(out.valuator_values[2] == 33.0);
	check(out.raw_values == NULL);
	check_int_eq(out.nbuttons, 1);
	check_int_eq(out.buttons[0], 1);
	check_int_eq(out.mods_base, 1);
	check_int_eq(out.mods_latched, 2);
	check_int_eq(out.mods_locked, 16);
	check_int_eq(out.mods_effective, 19);
	check_int_eq(out.group_locked, 1);
	check_int_eq(out.group_effective, 1);
	roundtrip(&out);
	tt_xi_event_clear(&out);
}

static void
test_touch_end_pending(void)
{
	XIDeviceEvent ev = {
		.evtype = XI_TouchUpdate,
		.time = 7,
		.deviceid = 2,
		.sourceid = 11,
		.detail = 9,
		.flags = XITouchPendingEnd,
	};
	struct tt_xi_event out;

	tt_xi_convert_device_event(&ev, 10, "window", &out);
	check_int_eq(out.flags, XITouchPendingEnd);
	check_int_eq(out.nvaluators, 0);
	check_int_eq(out.nbuttons, 0);
	check(out.valuator_numbers == NULL);
	roundtrip(&out);
	tt_xi_event_clear(&out);
}

static void
test_raw(void)
{
	unsigned char vmask[1] = { 0x03 };
	double values[2] = { 100.0, 200.0 };
	double raw[2] = { 1000.0, 2000.0 };
	XIRawEvent ev = {
		.evtype = XI_RawTouchUpdate,
		.time = 55,
		.deviceid = 11,
		.sourceid = 11,
		.detail = 3,
		.flags = 0,
		.valuators = { .mask_len = 1, .mask = vmask, .values = values },
		.raw_values = raw,
	};
	struct tt_xi_event out;

	check_int_eq(tt_xi_convert_cookie(XI_RawTouchUpdate, &ev, 77, "observer", &out), 0);
	check_int_eq(out.evtype, XI_RawTouchUpdate);
	check_int_eq(out.deviceid, 11);
	check_int_eq(out.detail, 3);
	check_int_eq(out.nvaluators, 2);
	check(out.valuator_values[0] == 100.0 && out.valuator_values[1] == 200.0);
	check(out.raw_values && out.raw_values[0] == 1000.0 && out.raw_values[1] == 2000.0);
	roundtrip(&out);
	tt_xi_event_clear(&out);
}

/* A mask claiming more valuators than the timeline keeps: only the first
 * TT_MAX_XI_VALUATORS, read from the first values. */
static void
test_hostile_mask(void)
{
	unsigned char vmask[32];
	double values[256];
	unsigned char bmask[64];
	XIDeviceEvent ev = {
		.evtype = XI_Motion,
		.valuators = { .mask_len = sizeof(vmask), .mask = vmask, .values = values },
		.buttons = { .mask_len = sizeof(bmask), .mask = bmask },
	};
	struct tt_xi_event out;

	memset(vmask, 0xff, sizeof(vmask));
	memset(bmask, 0xff, sizeof(bmask));
	for (size_t i = 0; i < ARRAY_LENGTH(values); i++)
		values[i] = (double)i;
	tt_xi_convert_device_event(&ev, 0, NULL, &out);
	check_int_eq(out.nvaluators, TT_MAX_XI_VALUATORS);
	check_int_eq(out.valuator_numbers[TT_MAX_XI_VALUATORS - 1], TT_MAX_XI_VALUATORS - 1);
	check(out.valuator_values[TT_MAX_XI_VALUATORS - 1] == TT_MAX_XI_VALUATORS - 1);
	check_int_eq(out.nbuttons, TT_MAX_XI_BUTTONS);
	check(out.client == NULL);
	roundtrip(&out);
	tt_xi_event_clear(&out);

	/* A negative length or a missing mask: nothing, no crash. */
	ev.valuators.mask_len = -4;
	ev.buttons.mask = NULL;
	tt_xi_convert_device_event(&ev, 0, NULL, &out);
	check_int_eq(out.nvaluators, 0);
	check_int_eq(out.nbuttons, 0);
	tt_xi_event_clear(&out);
}

static void
test_ownership_and_requests(void)
{
	XITouchOwnershipEvent ev = {
		.evtype = XI_TouchOwnership,
		.time = 100,
		.deviceid = 2,
		.sourceid = 11,
		.touchid = 17,
		.root = 0x2a1,
		.event = 0x600001,
		.child = 0,
		.flags = 0,
	};
	struct tt_xi_event out;

	check_int_eq(tt_xi_convert_cookie(XI_TouchOwnership, &ev, 5000, "window", &out), 0);
	check_int_eq(out.evtype, XI_TouchOwnership);
	check_int_eq(out.touchid, 17);
	check_int_eq(out.deviceid, 2);
	check_int_eq(out.sourceid, 11);
	check_int_eq(out.event, 0x600001);
	check_str_eq(out.client, "window");
	roundtrip(&out);
	tt_xi_event_clear(&out);

	tt_xi_convert_request(false, 2, 17, 0x2a1, 4990, "grab", &out);
	check_int_eq(out.evtype, TT_XI_REQ_REJECT);
	check_int_eq(out.touchid, 17);
	check_int_eq(out.event, 0x2a1);
	check_str_eq(out.client, "grab");
	roundtrip(&out);
	tt_xi_event_clear(&out);

	tt_xi_convert_request(true, 2, 18, 0x2a1, 4991, "grab", &out);
	check_int_eq(out.evtype, TT_XI_REQ_ACCEPT);
	roundtrip(&out);
	tt_xi_event_clear(&out);
}

/* The pointer client's XIGrabDevice, XIAllowEvents and XIUngrabDevice:
 * the mode survives the file as detail, the grab window as event_win. */
static void
test_pointer_requests(void)
{
	static const struct {
		int32_t evtype;
		uint32_t mode;
	} reqs[] = {
		{ TT_XI_REQ_GRAB_DEVICE, XIGrabModeAsync },
		{ TT_XI_REQ_ALLOW_EVENTS, XISyncDevice },
		{ TT_XI_REQ_UNGRAB_DEVICE, 0 },
	};
	struct tt_xi_event out;

	for (size_t i = 0; i < ARRAY_LENGTH(reqs); i++) {
		tt_xi_convert_pointer_request(reqs[i].evtype, 2, reqs[i].mode, 0x600003,
					      7000 + (int64_t)i, "pointer", &out);
		check_int_eq(out.evtype, reqs[i].evtype);
		check_int_eq(out.deviceid, 2);
		check_int_eq(out.detail, reqs[i].mode);
		check_int_eq(out.event, 0x600003);
		check_str_eq(out.client, "pointer");
		check_int_eq(tt_xi_event_class(out.evtype), TT_XI_CLASS_REQUEST);
		roundtrip(&out);
		tt_xi_event_clear(&out);
	}
}

static void
test_hierarchy(void)
{
	XIHierarchyInfo info[2] = {
		{ .deviceid = 12, .attachment = 2, .use = XISlavePointer, .enabled = True,
		  .flags = XISlaveAdded | XIDeviceEnabled },
		{ .deviceid = 13, .attachment = 0, .use = XIFloatingSlave, .enabled = False,
		  .flags = XISlaveDetached },
	};
	XIHierarchyEvent ev = {
		.evtype = XI_HierarchyChanged,
		.time = 9,
		.flags = XISlaveAdded | XIDeviceEnabled | XISlaveDetached,
		.info = info,
		.num_info = 2,
	};
	XIDeviceChangedEvent dc = {
		.evtype = XI_DeviceChanged,
		.time = 10,
		.deviceid = 2,
		.sourceid = 12,
		.reason = XISlaveSwitch,
	};
	struct tt_xi_event out;

	check_int_eq(tt_xi_convert_cookie(XI_HierarchyChanged, &ev, 1, "observer", &out), 0);
	check_int_eq(out.nchanges, 2);
	check_int_eq(out.changes[0].deviceid, 12);
	check_int_eq(out.changes[0].use, XISlavePointer);
	check(out.changes[0].enabled);
	check_int_eq(out.changes[0].flags, XISlaveAdded | XIDeviceEnabled);
	check_int_eq(out.changes[1].use, XIFloatingSlave);
	check(!out.changes[1].enabled);
	check_int_eq(out.flags, XISlaveAdded | XIDeviceEnabled | XISlaveDetached);
	roundtrip(&out);
	tt_xi_event_clear(&out);

	ev.num_info = -1;	/* a negative count: no changes, nothing read */
	tt_xi_convert_hierarchy(&ev, 1, NULL, &out);
	check_int_eq(out.nchanges, 0);
	tt_xi_event_clear(&out);

	check_int_eq(tt_xi_convert_cookie(XI_DeviceChanged, &dc, 2, "observer", &out), 0);
	check_int_eq(out.deviceid, 2);
	check_int_eq(out.sourceid, 12);
	check_int_eq(out.reason, XISlaveSwitch);
	roundtrip(&out);
	tt_xi_event_clear(&out);

	check_int_eq(tt_xi_convert_cookie(XI_Enter, &dc, 2, NULL, &out), -ENOTSUP);
	check_int_eq(tt_xi_convert_cookie(XI_TouchBegin, NULL, 2, NULL, &out), -EINVAL);
}

static char *
fake_atom_name(void *data, Atom atom)
{
	(void)data;
	switch (atom) {
	case 100: return tt_strdup("Abs MT Position X");
	case 101: return tt_strdup("Abs MT Position Y");
	case 102: return tt_strdup("Evil\n\x1b[31mlabel");
	default: return NULL;
	}
}

static void
test_device_info(void)
{
	XIButtonClassInfo buttons = { .type = XIButtonClass, .sourceid = 11, .num_buttons = 1 };
	XIValuatorClassInfo vx = { .type = XIValuatorClass, .sourceid = 11, .number = 0, .label = 100,
				   .min = 0, .max = 4095, .value = 12, .resolution = 10000,
				   .mode = XIModeAbsolute };
	XIValuatorClassInfo vy = { .type = XIValuatorClass, .sourceid = 11, .number = 1, .label = 101,
				   .min = 0, .max = 4095, .resolution = 10000, .mode = XIModeAbsolute };
	XIValuatorClassInfo vz = { .type = XIValuatorClass, .sourceid = 11, .number = 2, .label = 102,
				   .mode = XIModeRelative };
	XIValuatorClassInfo vn = { .type = XIValuatorClass, .sourceid = 11, .number = 3,
				   .label = None };
	XITouchClassInfo touch = { .type = XITouchClass, .sourceid = 11, .mode = XIDirectTouch,
				   .num_touches = 10 };
	XIAnyClassInfo *classes[] = {
		(XIAnyClassInfo *)&buttons, (XIAnyClassInfo *)&vx, (XIAnyClassInfo *)&vy,
		(XIAnyClassInfo *)&vz, (XIAnyClassInfo *)&vn, NULL, (XIAnyClassInfo *)&touch,
	};
	char name[] = "touchtape\ttest \x1b]0;pwned\x07screen";
	XIDeviceInfo info = {
		.deviceid = 11,
		.name = name,
		.use = XISlavePointer,
		.attachment = 2,
		.enabled = True,
		.num_classes = (int)ARRAY_LENGTH(classes),
		.classes = classes,
	};
	struct tt_xi_device *d;

	d = tt_xi_convert_device_info(&info, fake_atom_name, NULL, "/dev/input/event5", 0);
	check_int_eq(d->deviceid, 11);
	check(strchr(d->name, '\x1b') == NULL && strchr(d->name, '\t') == NULL);
	check_contains(d->name, "touchtape");
	check_int_eq(d->use, XISlavePointer);
	check_int_eq(d->attachment, 2);
	check(d->enabled);
	check_int_eq(d->touch_mode, TT_XI_TOUCH_DIRECT);
	check_int_eq(d->num_touches, 10);
	check_int_eq(d->num_buttons, 1);
	check_int_eq(d->nvaluators, 4);
	check_str_eq(d->valuators[0].label, "Abs MT Position X");
	check(d->valuators[0].max == 4095 && d->valuators[0].value == 12);
	check_int_eq(d->valuators[0].resolution, 10000);
	check_int_eq(d->valuators[0].mode, XIModeAbsolute);
	check_str_eq(d->valuators[1].label, "Abs MT Position Y");
	check(d->valuators[2].label && strchr(d->valuators[2].label, '\n') == NULL);
	check(d->valuators[2].label && strchr(d->valuators[2].label, '\x1b') == NULL);
	check_int_eq(d->valuators[2].mode, XIModeRelative);
	check(d->valuators[3].label == NULL);
	check_str_eq(d->device_node, "/dev/input/event5");
	check_int_eq(d->evdev_device, 0);

	/* Write and read back. */
	char path[] = "/tmp/test-xi-convert.XXXXXX";
	int fd = mkstemp(path);
	struct tt_writer *w = NULL;
	struct tt_reader *r = NULL;
	struct tt_header h = { .version = TT_FORMAT_VERSION, .tool = (char *)"test" };
	struct tt_record rec;
	check_int_eq(tt_writer_new(fd, &w), 0);
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_xi_device(w, d), 0);
	tt_writer_free(w);
	close(fd);
	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_XI_DEVICE);
	if (rec.type == TT_RECORD_XI_DEVICE) {
		check_int_eq(rec.xi_device->deviceid, 11);
		check_str_eq(rec.xi_device->name, d->name);
		check_int_eq(rec.xi_device->touch_mode, TT_XI_TOUCH_DIRECT);
		check_int_eq(rec.xi_device->num_touches, 10);
		check_int_eq(rec.xi_device->nvaluators, 4);
		check_str_eq(rec.xi_device->device_node, "/dev/input/event5");
		check_int_eq(rec.xi_device->evdev_device, 0);
	}
	tt_reader_free(r);
	unlink(path);
	tt_xi_device_free(d);

	/* Dependent touch (a touchpad), no classes at all, no name. */
	touch.mode = XIDependentTouch;
	touch.num_touches = 5;
	XIAnyClassInfo *one[] = { (XIAnyClassInfo *)&touch };
	info.classes = one;
	info.num_classes = 1;
	info.name = NULL;
	d = tt_xi_convert_device_info(&info, NULL, NULL, NULL, -1);
	check_int_eq(d->touch_mode, TT_XI_TOUCH_DEPENDENT);
	check_int_eq(d->num_touches, 5);
	check_str_eq(d->name, "");
	check(d->device_node == NULL);
	check_int_eq(d->evdev_device, -1);
	tt_xi_device_free(d);
	info.classes = NULL;
	info.num_classes = 3;
	d = tt_xi_convert_device_info(&info, NULL, NULL, NULL, -1);
	check_int_eq(d->touch_mode, TT_XI_TOUCH_NONE);
	check_int_eq(d->nvaluators, 0);
	tt_xi_device_free(d);
}

static void
test_device_node(void)
{
	static const unsigned char node[] = "/dev/input/event5";
	static const unsigned char unterminated[4] = { '/', 'd', 'e', 'v' };
	static const unsigned char evil[] = "/dev/input/\x1b[2Jevent5";
	char *s;

	s = tt_xi_device_node(XA_STRING, 8, sizeof(node) - 1, node);
	check_str_eq(s, "/dev/input/event5");
	free(s);
	s = tt_xi_device_node(XA_STRING, 8, sizeof(unterminated), unterminated);
	check_str_eq(s, "/dev");
	free(s);
	s = tt_xi_device_node(XA_STRING, 8, sizeof(evil) - 1, evil);
	check(s && strchr(s, '\x1b') == NULL);
	free(s);
	check(tt_xi_device_node(XA_INTEGER, 32, 1, node) == NULL);
	check(tt_xi_device_node(XA_STRING, 8, 0, node) == NULL);
	check(tt_xi_device_node(XA_STRING, 8, 5, NULL) == NULL);
	check(tt_xi_device_node(None, 0, 0, NULL) == NULL);
}

int
main(void)
{
	RUN(test_touch_begin);
	RUN(test_touch_end_pending);
	RUN(test_raw);
	RUN(test_hostile_mask);
	RUN(test_ownership_and_requests);
	RUN(test_pointer_requests);
	RUN(test_hierarchy);
	RUN(test_device_info);
	RUN(test_device_node);
	return tt_test_result();
}
