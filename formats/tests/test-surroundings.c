/* SPDX-License-Identifier: MIT */
/* The surroundings keys (header "system", device "syspath", "driver",
 * "udev", "hwdb", "quirks"): written and read back, hostile values
 * sanitized and bounded, hostile lines refused naming the key, and the
 * hwdb overrides told from the other udev properties. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "writer.h"

static const char header[] =
	"{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n";
static const char device_head[] =
	"{\"type\":\"device\",\"id\":0,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,"
	"\"version\":3},\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"]}";

static struct tt_device *
make_device(void)
{
	struct tt_device *dev = tt_device_new(3);

	dev->name = tt_strdup("Touchscreen");
	tt_device_enable(dev, EV_ABS, ABS_X);
	tt_device_enable(dev, EV_ABS, ABS_Y);
	dev->abs[ABS_X] = (struct tt_absinfo){ .maximum = 4095, .resolution = 16 };
	dev->abs[ABS_Y] = (struct tt_absinfo){ .maximum = 2047, .resolution = 16 };
	dev->syspath = tt_strdup("/sys/devices/pci0000:00/i2c-1/input/input7/event5");
	dev->driver = tt_strdup("hid-multitouch\x1b[2J");
	dev->has_udev = true;
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT", "1"), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT_TOUCHSCREEN", "1"), 0);
	/* input_id computes 255 from the axes: 300 came from hwdb; the height
	 * is what input_id computes. */
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT_WIDTH_MM", "300"), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT_HEIGHT_MM", "127"), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "EVDEV_ABS_00", "::16"), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "LIBINPUT_MODEL_X", "\n1\xff"), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "EMPTY", ""), 0);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "bad name", "1"), -EINVAL);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "", "1"), -EINVAL);
	check_int_eq(tt_properties_add(&dev->udev, &dev->nudev, "A=\"B\"", "1"), -EINVAL);
	tt_device_find_hwdb(dev);
	check_int_eq(tt_device_add_quirk(dev, "ModelTabletModeNoSuspend=1"), 0);
	check_int_eq(tt_device_add_quirk(dev, "AttrSizeHint=\t200x100"), 0);
	return dev;
}

static void
check_device(const struct tt_device *d)
{
	check_str_eq(d->syspath, "/sys/devices/pci0000:00/i2c-1/input/input7/event5");
	check_str_eq(d->driver, "hid-multitouch?[2J");
	check(d->has_udev);
	check_int_eq(d->nudev, 7);
	check_str_eq(d->udev[0].name, "ID_INPUT");
	check_str_eq(tt_properties_get(d->udev, d->nudev, "ID_INPUT_TOUCHSCREEN"), "1");
	check_str_eq(tt_properties_get(d->udev, d->nudev, "LIBINPUT_MODEL_X"), "?1\xef\xbf\xbd");
	check_str_eq(tt_properties_get(d->udev, d->nudev, "EMPTY"), "");
	check_int_eq(d->nhwdb, 3);
	check_str_eq(tt_properties_get(d->hwdb, d->nhwdb, "ID_INPUT_WIDTH_MM"), "300");
	check_str_eq(tt_properties_get(d->hwdb, d->nhwdb, "EVDEV_ABS_00"), "::16");
	check(tt_properties_get(d->hwdb, d->nhwdb, "LIBINPUT_MODEL_X") != NULL);
	check(tt_properties_get(d->hwdb, d->nhwdb, "ID_INPUT_HEIGHT_MM") == NULL);
	check(d->has_quirks);
	check_int_eq(d->nquirks, 2);
	check_str_eq(d->quirks[0], "ModelTabletModeNoSuspend=1");
	check_str_eq(d->quirks[1], "AttrSizeHint=?200x100");
}

static void
write_file(const char *path, const struct tt_header *h, const struct tt_device *const *devs, size_t n)
{
	struct tt_writer *w = NULL;
	int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0600);

	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	check_int_eq(tt_writer_header(w, h), 0);
	for (size_t i = 0; i < n; i++)
		check_int_eq(tt_writer_device(w, devs[i]), 0);
	tt_writer_free(w);
	close(fd);
}

static void
test_round_trip(void)
{
	char path[256];
	struct tt_header h = { 0 };
	struct tt_device *dev = make_device();
	struct tt_device *plain = tt_device_new(4);
	const struct tt_device *devs[] = { dev, plain };
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int fd;

	snprintf(path, sizeof(path), "%s/tt-sur-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	check(fd >= 0);
	close(fd);
	tt_header_init_now(&h);
	h.dmi_modalias = tt_strdup("dmi:bvnLENOVO:bvrN2HET:svnLENOVO:pn20QD:");
	h.os_id = tt_strdup("debian");
	h.os_version_id = tt_strdup("12\x7f");
	h.libinput_version = tt_strdup("1.22.1");
	h.libevdev_version = tt_strdup("1.13.0");
	plain->name = tt_strdup("plain");
	write_file(path, &h, devs, 2);

	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HEADER);
	check_str_eq(rec.header->dmi_modalias, h.dmi_modalias);
	check_str_eq(rec.header->os_id, "debian");
	check_str_eq(rec.header->os_version_id, "12?");
	check_str_eq(rec.header->libinput_version, "1.22.1");
	check_str_eq(rec.header->libevdev_version, "1.13.0");
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_DEVICE);
	check_device(rec.device);
	/* Nothing known: nothing written, nothing read. */
	check_int_eq(tt_reader_next(r, &rec), 1);
	check(rec.device->syspath == NULL && rec.device->driver == NULL);
	check(!rec.device->has_udev && !rec.device->has_quirks);
	check_int_eq(rec.device->nudev + rec.device->nhwdb + rec.device->nquirks, 0);
	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 0);
	tt_reader_free(r);
	unlink(path);
	tt_header_clear(&h);
	tt_device_free(dev);
	tt_device_free(plain);
}

/* A file that has none of the keys reads as unknown, and one whose
 * "system" holds nothing reads as an empty one. */
static void
test_old_file(void)
{
	char *text = NULL;
	struct tt_reader *r = NULL;
	struct tt_record rec;

	check(asprintf(&text, "%s%s}\n", header, device_head) > 0);
	const char *path = tt_test_tmpfile(text, strlen(text));
	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check(rec.header->dmi_modalias == NULL && rec.header->os_id == NULL);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check(!rec.device->has_udev && rec.device->udev == NULL && rec.device->syspath == NULL);
	check_int_eq(tt_reader_next(r, &rec), 0);
	tt_reader_free(r);
	unlink(path);
	free(text);
}

/* The writer keeps its lines within what the reader takes: an oversized
 * value is cut, a name that could not be read back is left out. */
static void
test_writer_bounds(void)
{
	char path[256];
	struct tt_header h = { 0 };
	struct tt_device *dev = tt_device_new(0);
	char *huge = tt_zalloc(3 * TT_MAX_STRING_BYTES);
	struct tt_property props[] = {
		{ .name = (char *)"HUGE", .value = huge },
		{ .name = (char *)"NOT\"OK", .value = (char *)"1" },
	};
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int fd;

	memset(huge, 'v', 3 * TT_MAX_STRING_BYTES - 1);
	dev->name = tt_strdup("d");
	dev->has_udev = true;
	dev->udev = props;
	dev->nudev = 2;
	snprintf(path, sizeof(path), "%s/tt-sur-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	close(fd);
	tt_header_init_now(&h);
	write_file(path, &h, (const struct tt_device *const[]){ dev }, 1);
	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.device->nudev, 1);
	check_int_eq(strlen(tt_properties_get(rec.device->udev, 1, "HUGE")), TT_MAX_STRING_BYTES);
	check_int_eq(tt_reader_nerrors(r), 0);
	tt_reader_free(r);
	unlink(path);
	dev->udev = NULL;
	dev->nudev = 0;
	tt_device_free(dev);
	tt_header_clear(&h);
	free(huge);
}

static void
check_refused(const char *tail, const char *message)
{
	char *text = NULL;
	struct tt_reader *r = NULL;
	struct tt_record rec;
	char expect[512];
	int rc;

	check(asprintf(&text, "%s%s%s}\n", header, device_head, tail) > 0);
	const char *path = tt_test_tmpfile(text, strlen(text));
	check_int_eq(tt_reader_open(path, &r), 0);
	while ((rc = tt_reader_next(r, &rec)) > 0)
		;
	check_int_eq(rc, -EINVAL);
	snprintf(expect, sizeof(expect), "%s:2: %s", path, message);
	check_str_eq(tt_reader_error(r), expect);
	tt_reader_free(r);
	unlink(path);
	free(text);
}

static char *
many_properties(unsigned int n)
{
	char *s = tt_zalloc(32 * (size_t)n + 32);
	size_t len = (size_t)sprintf(s, ",\"udev\":{");

	for (unsigned int i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s\"P%u\":\"1\"", i ? "," : "", i);
	strcpy(s + len, "}");
	return s;
}

static void
test_hostile(void)
{
	_cleanup_free_ char *many = many_properties(TT_MAX_PROPERTIES + 1);
	_cleanup_free_ char *quirks = tt_zalloc(8 * (TT_MAX_QUIRKS + 1) + 32);
	_cleanup_free_ char *longq = tt_zalloc(TT_MAX_STRING_BYTES + 64);
	size_t n = (size_t)sprintf(quirks, ",\"quirks\":[");

	check_refused(",\"udev\":{\"A B\":\"1\"}",
		      "\"udev\": \"A B\" is not a property name (1 to 128 of A-Z a-z 0-9 _ . -)");
	check_refused(",\"hwdb\":{\"X\\n\\u001b\":\"1\"}",
		      "\"hwdb\": \"X??\" is not a property name (1 to 128 of A-Z a-z 0-9 _ . -)");
	check_refused(",\"udev\":{\"\":\"1\"}",
		      "\"udev\": \"\" is not a property name (1 to 128 of A-Z a-z 0-9 _ . -)");
	check_refused(",\"udev\":{\"ID_INPUT\":1}", "\"ID_INPUT\" must be a string, not an integer");
	check_refused(",\"udev\":[\"ID_INPUT=1\"]", "\"udev\" must be an object, not an array");
	check_refused(",\"quirks\":\"x\"", "\"quirks\" must be an array, not a string");
	check_refused(",\"quirks\":[\"a\",2]", "\"quirks\" item 1 must be a string");
	check_refused(",\"syspath\":7", "\"syspath\" must be a string, not an integer");
	check_refused(many, "\"udev\" holds more than 256 properties");
	for (unsigned int i = 0; i <= TT_MAX_QUIRKS; i++)
		n += (size_t)sprintf(quirks + n, "%s\"q\"", i ? "," : "");
	strcpy(quirks + n, "]");
	check_refused(quirks, "\"quirks\" holds more than 256 lines");
	n = (size_t)sprintf(longq, ",\"quirks\":[\"");
	memset(longq + n, 'q', TT_MAX_STRING_BYTES + 1);
	strcpy(longq + n + TT_MAX_STRING_BYTES + 1, "\"]");
	check_refused(longq, "\"quirks\" item 0 is longer than 4096 bytes");
}

/* Without resolutions input_id sets no size: any size came from hwdb. */
static void
test_hwdb_without_resolution(void)
{
	struct tt_device *dev = tt_device_new(0);

	dev->has_udev = true;
	tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT_WIDTH_MM", "0");
	tt_properties_add(&dev->udev, &dev->nudev, "ID_INPUT_TOUCHPAD", "1");
	tt_properties_add(&dev->udev, &dev->nudev, "MOUSE_DPI", "800@125");
	tt_device_find_hwdb(dev);
	check_int_eq(dev->nhwdb, 2);
	check_str_eq(dev->hwdb[1].name, "MOUSE_DPI");
	check(tt_property_is_serial("ID_SERIAL"));
	check(tt_property_is_serial("ID_USB_SERIAL_SHORT"));
	check(tt_property_is_serial("UNIQ"));
	check(tt_property_is_serial("DEVLINKS"));
	check(!tt_property_is_serial("ID_INPUT"));
	check(!tt_property_is_serial("ID_PATH"));
	tt_device_free(dev);
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_old_file);
	RUN(test_writer_bounds);
	RUN(test_hostile);
	RUN(test_hwdb_without_resolution);
	return tt_test_result();
}
