/* SPDX-License-Identifier: MIT */
/* Gathering a device's surroundings from fake sysfs and udev trees shaped
 * like a real system's: an I2C touchpad udevd knows (properties from its
 * database, hwdb overrides told apart, the driver found up the tree), a
 * uinput device udevd has no entry for (the kernel's uevent instead),
 * serial numbers left out unless asked, the host's DMI modalias and
 * os-release, and `libinput quirks list` through a stand-in tool. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "surroundings.h"
#include "test-common.h"
#include "util-mem.h"

#define TP "devices/platform/AMDI0010:01/i2c-1/i2c-ELAN1206:00/0018:04F3:30F1.0001"
#define TP_EVENT TP "/input/input12/event5"
#define VIRT_EVENT "devices/virtual/input/input30/event9"

static char root[256];

/* One entry of a fake tree: a directory, a file and its content, or a
 * relative link (as sysfs makes them) to a path from the root. */
struct entry {
	char kind;		/* 'd', 'f', 'l' */
	const char *path;
	const char *content;	/* file content or link target */
};

static const struct entry tree[] = {
	{ 'l', "sys/dev/char/13:69", "sys/" TP_EVENT },
	{ 'l', "sys/" TP_EVENT "/subsystem", "sys/class/input" },
	{ 'f', "sys/" TP_EVENT "/uevent", "MAJOR=13\nMINOR=69\nDEVNAME=input/event5\n" },
	{ 'f', "sys/" TP "/input/input12/uevent", "NAME=\"ELAN1206:00 04F3:30F1 Touchpad\"\nUNIQ=x\n" },
	/* The nearest driver is the HID device's, not the I2C client's. */
	{ 'l', "sys/" TP "/driver", "sys/bus/hid/drivers/hid-multitouch" },
	{ 'l', "sys/devices/platform/AMDI0010:01/i2c-1/i2c-ELAN1206:00/driver",
	  "sys/bus/i2c/drivers/i2c_hid_acpi" },
	{ 'f', "run/udev/data/c13:69",
	  "S:input/by-path/platform-AMDI0010:01-event-mouse\nI:1234567\n"
	  "E:ID_INPUT=1\nE:ID_INPUT_TOUCHPAD=1\nE:ID_INPUT_WIDTH_MM=102\nE:ID_INPUT_HEIGHT_MM=68\n"
	  "E:EVDEV_ABS_00=::31\nE:ID_SERIAL=ELAN_0001_SN4711\nE:ID_PATH=platform-AMDI0010:01\n"
	  "E:LIBINPUT_DEVICE_GROUP=5/4f3/30f1:00:1a:7d:da:71:13\nE:BAD NAME=1\n"
	  "E:DEVLINKS=/dev/input/by-id/x\nG:seat\nQ:seat\nG:uaccess\nV:1\n" },
	{ 'l', "sys/dev/char/13:73", "sys/" VIRT_EVENT },
	{ 'l', "sys/" VIRT_EVENT "/subsystem", "sys/class/input" },
	{ 'f', "sys/" VIRT_EVENT "/uevent", "MAJOR=13\nMINOR=73\nDEVNAME=input/event9\n" },
	{ 'f', "sys/class/dmi/id/modalias", "dmi:bvnLENOVO:bvrN2HET64W(1.47):svnLENOVO:pn20QDS3E200:\n" },
	{ 'f', "etc/os-release", "NAME=\"Debian GNU/Linux\"\nID=debian\nVERSION_ID=\"12\"\n" },
	{ 'f', "usr/lib/os-release", "ID='fedora'\nVERSION_ID=\"39\\\"\"\n" },
	{ 'd', "run/udev/data", NULL },
};

static void
mkdir_p(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

static void
make_entry(const struct entry *e)
{
	char path[512], dir[512], target[512] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, e->path);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(e->kind == 'd' ? path : dir);
	switch (e->kind) {
	case 'f':
		f = fopen(path, "w");
		check(f != NULL);
		fputs(e->content, f);
		fclose(f);
		break;
	case 'l':
		for (const char *p = strchr(e->path, '/'); p; p = strchr(p + 1, '/'))
			strcat(target, "../");
		strcat(target, e->content);
		check(symlink(target, path) == 0);
		break;
	}
}

static struct tt_sur_roots
roots(void)
{
	static char sysfs[300], udev[300], etc[300], usr[300];

	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	snprintf(udev, sizeof(udev), "%s/run/udev/data", root);
	snprintf(etc, sizeof(etc), "%s/etc", root);
	snprintf(usr, sizeof(usr), "%s/usr/lib", root);
	return (struct tt_sur_roots){ .sysfs = sysfs, .udev_data = udev, .etc = etc, .usr_lib = usr };
}

static struct tt_device *
touchpad(void)
{
	struct tt_device *dev = tt_device_new(0);

	dev->uniq = tt_strdup("SN4711");
	tt_device_enable(dev, EV_ABS, ABS_X);
	tt_device_enable(dev, EV_ABS, ABS_Y);
	/* input_id computes 102 x 68 mm from these: neither is hwdb's. */
	dev->abs[ABS_X] = (struct tt_absinfo){ .maximum = 3192, .resolution = 31 };
	dev->abs[ABS_Y] = (struct tt_absinfo){ .maximum = 2112, .resolution = 31 };
	return dev;
}

static void
test_udevd_device(void)
{
	struct tt_sur_roots r = roots();
	struct tt_device *dev = touchpad();

	check_int_eq(tt_sur_gather_device(&r, makedev(13, 69), 0, dev), 0);
	check_str_eq(dev->syspath, "/sys/" TP_EVENT);
	check_str_eq(dev->driver, "hid-multitouch");
	check(dev->has_udev);
	check_str_eq(dev->udev[0].name, "DEVPATH");
	check_str_eq(dev->udev[0].value, "/" TP_EVENT);
	/* As udevadm shows it: a path. */
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "DEVNAME"), "/dev/input/event5");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "SUBSYSTEM"), "input");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "ID_INPUT_TOUCHPAD"), "1");
	/* A Bluetooth device's group names its adapter: no address. */
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "LIBINPUT_DEVICE_GROUP"),
		     "5/4f3/30f1:xx:xx:xx:xx:xx:xx");
	/* Not the input device's uevent, not udevd's bookkeeping lines. */
	check(tt_properties_get(dev->udev, dev->nudev, "NAME") == NULL);
	check(tt_properties_get(dev->udev, dev->nudev, "seat") == NULL);
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "TAGS"), ":seat:uaccess:");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "CURRENT_TAGS"), ":seat:");
	check_int_eq(dev->nudev, 14);
	/* No serial, no by-id links, no uniq. */
	check(tt_properties_get(dev->udev, dev->nudev, "ID_SERIAL") == NULL);
	check(tt_properties_get(dev->udev, dev->nudev, "DEVLINKS") == NULL);
	check(dev->uniq == NULL);
	check_int_eq(dev->nhwdb, 1);
	check_str_eq(dev->hwdb[0].name, "EVDEV_ABS_00");
	check_str_eq(dev->hwdb[0].value, "::31");
	tt_device_free(dev);
}

static void
test_with_serials(void)
{
	struct tt_sur_roots r = roots();
	struct tt_device *dev = touchpad();

	/* A resolution hwdb did not set: the sizes are now overrides. */
	dev->abs[ABS_X].resolution = 40;
	check_int_eq(tt_sur_gather_device(&r, makedev(13, 69), TT_SUR_WITH_SERIALS, dev), 0);
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "ID_SERIAL"), "ELAN_0001_SN4711");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "DEVLINKS"), "/dev/input/by-id/x");
	check_str_eq(dev->uniq, "SN4711");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "LIBINPUT_DEVICE_GROUP"),
		     "5/4f3/30f1:00:1a:7d:da:71:13");
	check_int_eq(dev->nhwdb, 2);
	check_str_eq(dev->hwdb[0].name, "ID_INPUT_WIDTH_MM");
	tt_device_free(dev);
}

/* udevd has no entry (not running, or not there yet): the uevent. */
static void
test_no_udevd(void)
{
	struct tt_sur_roots r = roots();
	struct tt_device *dev = tt_device_new(1);

	check_int_eq(tt_sur_gather_device(&r, makedev(13, 73), 0, dev), 0);
	check_str_eq(dev->syspath, "/sys/" VIRT_EVENT);
	check(dev->driver == NULL);
	check(dev->has_udev);
	check_int_eq(dev->nudev, 5);
	check_str_eq(dev->udev[1].name, "MAJOR");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "MINOR"), "73");
	check_str_eq(tt_properties_get(dev->udev, dev->nudev, "SUBSYSTEM"), "input");
	check(tt_properties_get(dev->udev, dev->nudev, "ID_INPUT") == NULL);
	check_int_eq(dev->nhwdb, 0);
	/* No such device: nothing touched. */
	dev->driver = tt_strdup("kept");
	check_int_eq(tt_sur_gather_device(&r, makedev(13, 99), 0, dev), -ENODEV);
	check_str_eq(dev->driver, "kept");
	tt_device_free(dev);
}

static void
test_system(void)
{
	struct tt_sur_roots r = roots();
	struct tt_header h = { 0 };
	char path[300];

	tt_sur_gather_system(&r, &h);
	check_str_eq(h.dmi_modalias, "dmi:bvnLENOVO:bvrN2HET64W(1.47):svnLENOVO:pn20QDS3E200:");
	check_str_eq(h.os_id, "debian");
	check_str_eq(h.os_version_id, "12");
	check_str_eq(h.libinput_version, TT_LIBINPUT_VERSION);
	check_str_eq(h.libevdev_version, TT_LIBEVDEV_VERSION);
	tt_header_clear(&h);

	snprintf(path, sizeof(path), "%s/etc/os-release", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/class/dmi/id/modalias", r.sysfs);
	unlink(path);
	tt_sur_gather_system(&r, &h);
	check(h.dmi_modalias == NULL);
	check_str_eq(h.os_id, "fedora");
	check_str_eq(h.os_version_id, "39\"");
	tt_header_clear(&h);
}

static const char *
write_tool(const char *name, const char *script)
{
	static char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	check(f != NULL);
	fputs(script, f);
	fclose(f);
	chmod(path, 0755);
	return path;
}

static void
test_quirks(void)
{
	struct tt_device *dev = tt_device_new(0);
	const char *tool = write_tool("fake-libinput",
				      "#!/bin/sh\n"
				      "[ \"$1 $2\" = 'quirks list' ] || exit 3\n"
				      "echo 'ModelTabletModeNoSuspend=1'\n"
				      "echo 'Device has no quirks defined'\n"
				      "echo \"AttrEventCode=-$3\"\n"
				      "echo 'warning: on stderr' >&2\n");

	check_int_eq(tt_sur_gather_quirks(tool, "/dev/input/event5", dev), 0);
	check(dev->has_quirks);
	check_int_eq(dev->nquirks, 2);
	check_str_eq(dev->quirks[0], "ModelTabletModeNoSuspend=1");
	check_str_eq(dev->quirks[1], "AttrEventCode=-/dev/input/event5");

	tool = write_tool("failing-libinput", "#!/bin/sh\necho 'Error: no such device' >&2\nexit 1\n");
	check_int_eq(tt_sur_gather_quirks(tool, "/dev/input/event5", dev), -EIO);
	check_int_eq(dev->nquirks, 2);
	check_int_eq(tt_sur_gather_quirks("touchtape-no-such-tool", "/dev/input/event5", dev), -ENOENT);
	check_int_eq(dev->nquirks, 2);
	tt_device_free(dev);

	/* None matched: asked, and empty. */
	dev = tt_device_new(0);
	tool = write_tool("quiet-libinput", "#!/bin/sh\necho 'Device has no quirks defined'\n");
	check_int_eq(tt_sur_gather_quirks(tool, "/dev/input/event5", dev), 0);
	check(dev->has_quirks);
	check_int_eq(dev->nquirks, 0);
	tt_device_free(dev);
}

int
main(void)
{
	char cmd[300];

	snprintf(root, sizeof(root), "%s/tt-sur-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	check(mkdtemp(root) != NULL);
	for (size_t i = 0; i < ARRAY_LENGTH(tree); i++)
		make_entry(&tree[i]);
	RUN(test_udevd_device);
	RUN(test_with_serials);
	RUN(test_no_udevd);
	RUN(test_system);
	RUN(test_quirks);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return tt_test_result();
}
