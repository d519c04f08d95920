/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hidraw-sysfs.h"
#include "util-mem.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(DIR *, closedir);

static char *
join(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *s = tt_zalloc(len);

	snprintf(s, len, "%s/%s", dir, name);
	return s;
}

/* The last component of a sysfs link's target
 * ("../../bus/hid/drivers/hid-multitouch" -> "hid-multitouch"), or NULL. */
char *
tt_sysfs_link_base(const char *link)
{
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	const char *base;

	if (n <= 0)
		return NULL;
	target[n] = '\0';
	base = strrchr(target, '/');
	return tt_strdup(base ? base + 1 : target);
}

/* A bus device's "subsystem" link ends in bus/hid for a HID device. */
static bool
is_hid_device(const char *dir)
{
	_cleanup_free_ char *link = join(dir, "subsystem");
	_cleanup_free_ char *base = tt_sysfs_link_base(link);

	return base && strcmp(base, "hid") == 0;
}

/* A sysfs attribute the kernel prints in hex ("%04x", "%02x"), 0 when
 * there is none. hidraw gives neither version nor country. */
static uint32_t
hex_attribute(const char *dir, const char *name)
{
	_cleanup_free_ char *path = join(dir, name);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	unsigned int v;

	if (!f || fscanf(f, "%x", &v) != 1)
		return 0;
	return v;
}

static bool
is_hidraw_name(const char *s)
{
	return strncmp(s, "hidraw", 6) == 0 && s[6] && strspn(s + 6, "0123456789") == strlen(s + 6);
}

/* "/dev/hidrawN" from the HID device's hidraw/hidrawN child. */
static int
hidraw_child(const char *hid_dir, char **node)
{
	_cleanup_free_ char *path = join(hid_dir, "hidraw");
	_cleanup_(closedirp) DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return errno == ENOENT ? -ENXIO : -errno;
	while ((e = readdir(d))) {
		if (is_hidraw_name(e->d_name)) {
			*node = join("/dev", e->d_name);
			return 0;
		}
	}
	return -ENXIO;
}

/* The evdev node's own sysfs directory, links resolved. */
static int
char_device_dir(const char *sysfs_root, dev_t rdev, char **out)
{
	char rel[64];
	_cleanup_free_ char *link = NULL;
	char *dir;

	snprintf(rel, sizeof(rel), "dev/char/%u:%u", major(rdev), minor(rdev));
	link = join(sysfs_root, rel);
	dir = realpath(link, NULL);
	if (!dir)	/* not "no HID parent": sysfs does not know the device */
		return errno == ENOENT ? -ENODEV : -errno;
	*out = dir;
	return 0;
}

int
tt_hidraw_find(const char *sysfs_root, dev_t rdev, struct tt_hidraw_location *out)
{
	_cleanup_free_ char *root = realpath(sysfs_root, NULL);
	_cleanup_free_ char *dir = NULL;
	char *node = NULL;
	uint32_t version = 0;
	char *slash;
	int rc;

	if (!root)
		return -errno;
	rc = char_device_dir(root, rdev, &dir);
	if (rc < 0)
		return rc;
	/* Up the tree, never above the sysfs root. */
	while ((slash = strrchr(dir, '/')) && (size_t)(slash - dir) > strlen(root)) {
		*slash = '\0';
		if (!version)
			version = hex_attribute(dir, "id/version");
		if (!is_hid_device(dir))
			continue;
		rc = hidraw_child(dir, &node);
		if (rc < 0)
			return rc;
		out->country = hex_attribute(dir, "country");
		out->hid_syspath = steal(&dir);
		out->hidraw_node = node;
		out->version = version;
		return 0;
	}
	return -ENOENT;
}

void
tt_hidraw_location_clear(struct tt_hidraw_location *loc)
{
	free(loc->hid_syspath);
	free(loc->hidraw_node);
	loc->hid_syspath = NULL;
	loc->hidraw_node = NULL;
	loc->version = 0;
	loc->country = 0;
}
