/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "surroundings.h"
#include "hidraw-sysfs.h"
#include "util-mem.h"
#include "util-strings.h"

const struct tt_sur_roots tt_sur_host_roots = {
	.sysfs = "/sys",
	.udev_data = "/run/udev/data",
	.etc = "/etc",
	.usr_lib = "/usr/lib",
};

/* What we read of any one file or of the quirks tool's output: uevent
 * files and udev database entries are a few KiB. */
#define SUR_MAX_INPUT (256u * 1024)

static char *
path_of(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* Up to SUR_MAX_INPUT bytes from @fd, NUL-terminated; the rest is read and
 * dropped (a child writing into a pipe must not block). */
static char *
read_bounded(int fd, size_t *len_out)
{
	char *buf = tt_zalloc(SUR_MAX_INPUT + 1);
	char sink[4096];
	size_t len = 0;
	ssize_t n;

	for (;;) {
		bool full = len == SUR_MAX_INPUT;
		n = full ? read(fd, sink, sizeof(sink)) : read(fd, buf + len, SUR_MAX_INPUT - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (!full)
			len += (size_t)n;
	}
	*len_out = len;
	return buf;
}

/* The whole of a small file (control characters are dealt with where
 * values are stored); NULL when unreadable or empty. */
static char *
slurp(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = read_bounded(fd, &len);
	if (len == 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *
first_line(const char *path)
{
	char *s = slurp(path);

	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/* ---- the device ---- */

static void
add_property(struct tt_device *dev, unsigned int flags, const char *name, const char *value)
{
	_cleanup_free_ char *masked = NULL;

	if (!(flags & TT_SUR_WITH_SERIALS) && tt_property_is_serial(name))
		return;
	/* PHYS and HID_PHYS of a Bluetooth device: the adapter's address. */
	if (!(flags & TT_SUR_WITH_SERIALS) && tt_str_count_addresses(value)) {
		masked = tt_strdup(value);
		tt_str_mask_addresses(masked);
		value = masked;
	}
	/* A name udev would not produce, or the list full: left out, the
	 * rest is still worth having. */
	tt_properties_add(&dev->udev, &dev->nudev, name, value);
}

/* NAME=value lines after @prefix ("" for uevent files, "E:" in the udev
 * database); other lines are skipped. */
static void
add_lines(struct tt_device *dev, unsigned int flags, char *text, const char *prefix)
{
	size_t plen = strlen(prefix);
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq;

		if (strncmp(line, prefix, plen) != 0)
			continue;
		line += plen;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		add_property(dev, flags, line, eq + 1);
	}
}

/* The driver of @dir or its nearest ancestor below @top that has one. */
static char *
find_driver(const char *top, const char *dir)
{
	_cleanup_free_ char *d = tt_strdup(dir);
	size_t toplen = strlen(top);

	while (strlen(d) > toplen) {
		_cleanup_free_ char *link = path_of("%s/driver", d);
		char *driver = tt_sysfs_link_base(link);
		char *slash;

		if (driver)
			return driver;
		slash = strrchr(d, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return NULL;
}

/* udevd's tags ("G:seat" lines) as udevadm shows them, ":seat:uaccess:";
 * NULL when there are none. */
static char *
tag_list(const char *db, const char *prefix)
{
	char *tags = NULL;
	size_t len = 0;
	size_t plen = strlen(prefix);

	for (const char *line = db; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0')) {
		size_t n = strcspn(line, "\n");
		if (n <= plen || strncmp(line, prefix, plen) != 0)
			continue;
		tags = tt_reallocarray(tags, len + n + 2, 1);
		len += (size_t)sprintf(tags + len, "%s%.*s:", len ? "" : ":", (int)(n - plen), line + plen);
	}
	return tags;
}

/* What `udevadm info` shows: DEVPATH, the kernel's uevent (DEVNAME as a
 * path), SUBSYSTEM, then udevd's properties and tags when its database
 * has the device. */
static void
gather_udev(const struct tt_sur_roots *roots, dev_t rdev, const char *dir, unsigned int flags,
	    struct tt_device *dev)
{
	_cleanup_free_ char *uevent_path = path_of("%s/uevent", dir);
	_cleanup_free_ char *uevent = slurp(uevent_path);
	_cleanup_free_ char *subsystem_link = path_of("%s/subsystem", dir);
	_cleanup_free_ char *subsystem = tt_sysfs_link_base(subsystem_link);
	_cleanup_free_ char *db_path = path_of("%s/c%u:%u", roots->udev_data, major(rdev), minor(rdev));
	_cleanup_free_ char *db = slurp(db_path);
	/* Before add_lines() cuts the text into lines. */
	_cleanup_free_ char *tags = db ? tag_list(db, "G:") : NULL;
	_cleanup_free_ char *current_tags = db ? tag_list(db, "Q:") : NULL;
	const char *devname;

	add_property(dev, flags, "DEVPATH", dev->syspath + strlen("/sys"));
	if (uevent)
		add_lines(dev, flags, uevent, "");
	devname = tt_properties_get(dev->udev, dev->nudev, "DEVNAME");
	if (devname && devname[0] != '/') {
		_cleanup_free_ char *path = path_of("/dev/%s", devname);
		add_property(dev, flags, "DEVNAME", path);
	}
	if (subsystem)
		add_property(dev, flags, "SUBSYSTEM", subsystem);
	if (db)
		add_lines(dev, flags, db, "E:");
	if (tags)
		add_property(dev, flags, "TAGS", tags);
	if (current_tags)
		add_property(dev, flags, "CURRENT_TAGS", current_tags);
	dev->has_udev = true;
}

int
tt_sur_gather_device(const struct tt_sur_roots *roots, dev_t rdev, unsigned int flags,
		     struct tt_device *dev)
{
	_cleanup_free_ char *link = path_of("%s/dev/char/%u:%u", roots->sysfs, major(rdev), minor(rdev));
	_cleanup_free_ char *top = realpath(roots->sysfs, NULL);
	_cleanup_free_ char *dir = realpath(link, NULL);
	size_t toplen;

	if (!top || !dir)
		return -ENODEV;
	toplen = strlen(top);
	if (strncmp(dir, top, toplen) != 0 || dir[toplen] != '/')
		return -ENODEV;
	tt_device_clear_surroundings(dev);
	/* As the host names it, whatever root the tree was read from. */
	dev->syspath = path_of("/sys%s", dir + toplen);
	dev->driver = find_driver(top, dir);
	gather_udev(roots, rdev, dir, flags, dev);
	tt_device_find_hwdb(dev);
	if (!(flags & TT_SUR_WITH_SERIALS)) {
		free(dev->uniq);
		dev->uniq = NULL;
	}
	return 0;
}

struct tt_device *
tt_sur_holder_new(const struct tt_device *dev)
{
	struct tt_device *h = tt_device_new(dev->id);

	memcpy(h->types, dev->types, sizeof(h->types));
	memcpy(h->codes, dev->codes, sizeof(h->codes));
	memcpy(h->abs, dev->abs, sizeof(h->abs));
	return h;
}

void
tt_sur_lend(struct tt_device *out, const struct tt_device *holder, unsigned int flags)
{
	if (!(flags & TT_SUR_WITH_SERIALS))
		out->uniq = NULL;
	if (!holder)
		return;
	out->syspath = holder->syspath;
	out->driver = holder->driver;
	out->has_udev = holder->has_udev;
	out->nudev = holder->nudev;
	out->udev = holder->udev;
	out->nhwdb = holder->nhwdb;
	out->hwdb = holder->hwdb;
	out->has_quirks = holder->has_quirks;
	out->nquirks = holder->nquirks;
	out->quirks = holder->quirks;
}

/* ---- the host ---- */

/* An os-release value: unquoted, or in one pair of quotes with the
 * shell's backslash escapes. */
static char *
os_release_value(const char *v)
{
	size_t len = strlen(v);
	char *out = tt_zalloc(len + 1);
	char *o = out;

	if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) {
		len -= 2;
		v++;
	}
	for (size_t i = 0; i < len; i++) {
		if (v[i] == '\\' && i + 1 < len)
			i++;
		*o++ = v[i];
	}
	return out;
}

static void
gather_os_release(const struct tt_sur_roots *roots, struct tt_header *h)
{
	_cleanup_free_ char *etc = path_of("%s/os-release", roots->etc);
	_cleanup_free_ char *usr = path_of("%s/os-release", roots->usr_lib);
	_cleanup_free_ char *text = slurp(etc);

	if (!text)
		text = slurp(usr);
	char *save = NULL;

	if (!text)
		return;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char **field = NULL;

		if (strncmp(line, "ID=", 3) == 0)
			field = &h->os_id;
		else if (strncmp(line, "VERSION_ID=", 11) == 0)
			field = &h->os_version_id;
		if (!field)
			continue;
		_cleanup_free_ char *v = os_release_value(strchr(line, '=') + 1);
		free(*field);
		*field = tt_str_sanitize(v, strlen(v), TT_MAX_STRING_BYTES);
	}
}

void
tt_sur_gather_system(const struct tt_sur_roots *roots, struct tt_header *h)
{
	_cleanup_free_ char *dmi_path = path_of("%s/class/dmi/id/modalias", roots->sysfs);
	_cleanup_free_ char *dmi = first_line(dmi_path);

	free(h->dmi_modalias);
	h->dmi_modalias = dmi ? tt_str_sanitize(dmi, strlen(dmi), TT_MAX_STRING_BYTES) : NULL;
	gather_os_release(roots, h);
	free(h->libinput_version);
	free(h->libevdev_version);
	h->libinput_version = tt_strdup(TT_LIBINPUT_VERSION);
	h->libevdev_version = tt_strdup(TT_LIBEVDEV_VERSION);
}

/* ---- libinput quirks ---- */

/* Runs @argv with its output into a pipe, stderr to /dev/null. 0 with
 * the child's pid and the read end, or -errno (-ENOENT: no such tool). */
static int
spawn_reader(char *const argv[], pid_t *pid, int *fd)
{
	posix_spawn_file_actions_t fa;
	int fds[2];
	int rc;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return -rc;
	}
	*fd = fds[0];
	return 0;
}

static int
wait_child(pid_t pid)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	/* The shell's 127: the command was not found (a tool found by a
	 * wrapper script that is not there). */
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
		return -ENOENT;
	return WIFEXITED(ws) && WEXITSTATUS(ws) == 0 ? 0 : -EIO;
}

/* "ModelAppleTouchpad=1", "AttrSizeHint=...": not the tool's
 * "Device has no quirks defined" or other chatter. */
static bool
is_quirk_line(const char *line)
{
	size_t n = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");

	return n > 0 && line[n] == '=';
}

int
tt_sur_gather_quirks(const char *tool, const char *node, struct tt_device *dev)
{
	char *argv[] = { (char *)tool, (char *)"quirks", (char *)"list", (char *)node, NULL };
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *out = NULL;
	char *save = NULL;
	size_t len;
	pid_t pid;
	int rc;

	rc = spawn_reader(argv, &pid, &fd);
	if (rc < 0)
		return rc;
	out = read_bounded(fd, &len);
	rc = wait_child(pid);
	if (rc < 0)
		return rc;
	for (uint32_t i = 0; i < dev->nquirks; i++)
		free(dev->quirks[i]);
	free(dev->quirks);
	dev->quirks = NULL;
	dev->nquirks = 0;
	dev->has_quirks = true;
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (is_quirk_line(line) && tt_device_add_quirk(dev, line) < 0)
			break;
	}
	return 0;
}

char *
tt_sur_private_phys(bool with_serials, char **phys)
{
	char *masked;

	if (with_serials || !tt_str_count_addresses(*phys))
		return NULL;
	masked = tt_strdup(*phys);
	tt_str_mask_addresses(masked);
	*phys = masked;
	return masked;
}
