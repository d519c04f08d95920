/* SPDX-License-Identifier: MIT */
/* tt_hidraw_find() in fake sysfs trees with the shapes of real kernels'
 * (directories, the subsystem links and the dev/char links it follows):
 * a USB touchscreen whose HID device made a finger and a pen node, an I2C
 * touchpad, a uhid device (as the VM's kernel lays it out), a PS/2
 * keyboard, a uinput device, and a HID device without hidraw. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hidraw-sysfs.h"
#include "test-common.h"

static char *root;

static void
mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void
put(const char *rel, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(content, f);
	fclose(f);
}

/* A relative link, as sysfs makes them: @rel -> @target (both from the
 * root). */
static void
link_to(const char *rel, const char *target)
{
	char path[512], dest[512] = "";

	for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/'))
		strcat(dest, "../");
	strcat(dest, target);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(dest, path) < 0)
		abort();
}

/* A bus or class device directory @dir with its subsystem link. */
static void
device(const char *dir, const char *subsystem)
{
	char link[512];

	mkdirs(dir);
	snprintf(link, sizeof(link), "%s/subsystem", dir);
	link_to(link, subsystem);
}

/* An input device @input (with id/version @version) and its event node
 * @event with char device number 13:@minor. */
static void
input(const char *input, const char *version, const char *event, unsigned int minor)
{
	char path[512], link[64];

	device(input, "class/input");
	snprintf(path, sizeof(path), "%s/id", input);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/id/version", input);
	put(path, version);
	snprintf(path, sizeof(path), "%s/%s", input, event);
	device(path, "class/input");
	snprintf(link, sizeof(link), "dev/char/13:%u", minor);
	link_to(link, path);
}

#define USB_HID "devices/pci0000:00/0000:00:14.0/usb1/1-7/1-7:1.0/0003:056A:5146.0003"
#define I2C_HID "devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-2/i2c-ELAN1206:00/" \
	"0018:04F3:30F1.0002"
#define UHID_HID "devices/virtual/misc/uhid/0018:222A:FFF1.0001"
#define BARE_HID "devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:046D:C52B.0004"

static void
build_tree(void)
{
	mkdirs("dev/char");
	device("devices/pci0000:00/0000:00:14.0", "bus/pci");
	device("devices/pci0000:00/0000:00:14.0/usb1", "bus/usb");
	device("devices/pci0000:00/0000:00:14.0/usb1/1-7", "bus/usb");
	device("devices/pci0000:00/0000:00:14.0/usb1/1-7/1-7:1.0", "bus/usb");
	device(USB_HID, "bus/hid");
	put(USB_HID "/country", "21\n");
	device(USB_HID "/hidraw/hidraw1", "class/hidraw");
	input(USB_HID "/input/input24", "0110\n", "event12", 76);
	input(USB_HID "/input/input25", "0110\n", "event13", 77);

	device("devices/pci0000:00/0000:00:15.1", "bus/pci");
	device("devices/pci0000:00/0000:00:15.1/i2c_designware.1", "bus/platform");
	device("devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-2", "bus/i2c");
	device("devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-2/i2c-ELAN1206:00", "bus/i2c");
	device(I2C_HID, "bus/hid");
	put(I2C_HID "/country", "00\n");
	device(I2C_HID "/hidraw/hidraw0", "class/hidraw");
	input(I2C_HID "/input/input17", "0100\n", "event8", 72);

	device("devices/virtual/misc/uhid", "class/misc");
	device(UHID_HID, "bus/hid");
	put(UHID_HID "/country", "00\n");
	device(UHID_HID "/hidraw/hidraw0", "class/hidraw");
	input(UHID_HID "/input/input2", "0100\n", "event1", 65);

	device("devices/platform/i8042", "bus/platform");
	device("devices/platform/i8042/serio0", "bus/serio");
	input("devices/platform/i8042/serio0/input/input0", "ab41\n", "event0", 64);
	input("devices/virtual/input/input5", "0001\n", "event3", 67);

	device("devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0", "bus/usb");
	device(BARE_HID, "bus/hid");
	input(BARE_HID "/input/input9", "0111\n", "event5", 69);
}

static void
check_found(unsigned int minor, const char *hid, const char *node, uint32_t version,
	    uint32_t country)
{
	struct tt_hidraw_location loc = { 0 };
	char want[512];

	check_int_eq(tt_hidraw_find(root, makedev(13, minor), &loc), 0);
	snprintf(want, sizeof(want), "/%s", hid);
	check(loc.hid_syspath && strstr(loc.hid_syspath, want) &&
	      strcmp(strstr(loc.hid_syspath, want), want) == 0);
	check_str_eq(loc.hidraw_node, node);
	check_int_eq(loc.version, version);
	check_int_eq(loc.country, country);
	tt_hidraw_location_clear(&loc);
}

static void
check_missing(unsigned int minor, int error)
{
	struct tt_hidraw_location loc = { .version = 7 };

	check_int_eq(tt_hidraw_find(root, makedev(13, minor), &loc), error);
	check(loc.hid_syspath == NULL && loc.hidraw_node == NULL && loc.version == 7);
}

static void
test_hid_parents(void)
{
	check_found(76, USB_HID, "/dev/hidraw1", 0x110, 0x21);
	check_found(77, USB_HID, "/dev/hidraw1", 0x110, 0x21);	/* the pen node */
	check_found(72, I2C_HID, "/dev/hidraw0", 0x100, 0);
	check_found(65, UHID_HID, "/dev/hidraw0", 0x100, 0);
}

static void
test_no_hid_parent(void)
{
	check_missing(64, -ENOENT);	/* PS/2 */
	check_missing(67, -ENOENT);	/* uinput */
	check_missing(69, -ENXIO);	/* hidraw not loaded */
	check_missing(99, -ENODEV);	/* not in sysfs */
}

/* The walk stops at the root: a "hid" subsystem above it does not count. */
static void
test_stays_below_root(void)
{
	char *outer = root;
	size_t len = strlen(outer) + 5;

	root = malloc(len);
	snprintf(root, len, "%s/sys", outer);
	mkdir(root, 0755);
	mkdirs("devices/virtual/input/input3/event2");
	mkdirs("dev/char");
	link_to("dev/char/13:66", "devices/virtual/input/input3/event2");
	link_to("subsystem", "bus/hid");
	mkdirs("hidraw/hidraw0");
	check_missing(66, -ENOENT);
	free(root);
	root = outer;
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	size_t len = strlen(tmp) + 32;
	char *cmd = malloc(len + 16);

	root = malloc(len);
	snprintf(root, len, "%s/tt-sysfs-XXXXXX", tmp);
	if (!mkdtemp(root))
		return 99;
	build_tree();
	RUN(test_hid_parents);
	RUN(test_no_hid_parent);
	RUN(test_stays_below_root);
	snprintf(cmd, len + 16, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 99;
	free(cmd);
	free(root);
	return tt_test_result();
}
