/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hidraw-sysfs.h"
#include "input-devices.h"
#include "log.h"

#define INPUT_DIR "/dev/input"

static bool
parse_event_number(const char *name, unsigned int *out)
{
	unsigned int n = 0;

	if (strncmp(name, "event", 5) != 0 || !name[5])
		return false;
	for (const char *p = name + 5; *p; p++) {
		if (*p < '0' || *p > '9' || n > 100000)
			return false;
		n = n * 10 + (unsigned int)(*p - '0');
	}
	*out = n;
	return true;
}

static int
compare_entries(const void *pa, const void *pb)
{
	const struct tt_input_entry *a = pa, *b = pb;
	bool ta = a->capture && tt_device_is_touch(tt_capture_device(a->capture));
	bool tb = b->capture && tt_device_is_touch(tt_capture_device(b->capture));

	if (ta != tb)
		return ta ? -1 : 1;
	return a->number < b->number ? -1 : a->number > b->number;
}

int
tt_input_scan(struct tt_input_list *list, unsigned int capture_flags)
{
	DIR *dir = opendir(INPUT_DIR);
	struct dirent *d;
	size_t cap = 0;

	memset(list, 0, sizeof(*list));
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		unsigned int number;
		char path[64];

		if (!parse_event_number(d->d_name, &number))
			continue;
		snprintf(path, sizeof(path), INPUT_DIR "/event%u", number);
		list->entries = tt_grow(list->entries, list->n, &cap, sizeof(*list->entries));
		struct tt_input_entry *e = &list->entries[list->n++];
		memset(e, 0, sizeof(*e));
		e->node = tt_strdup(path);
		e->number = number;
		e->error = tt_capture_open(path, 0, TT_CAPTURE_SHOW_KEYCODES | capture_flags, &e->capture);
		if (e->error < 0) {
			e->capture = NULL;
			list->nerrors++;
			if (e->error == -EACCES || e->error == -EPERM)
				list->naccess++;
		}
	}
	closedir(dir);
	if (list->n)
		qsort(list->entries, list->n, sizeof(*list->entries), compare_entries);
	return 0;
}

void
tt_input_list_clear(struct tt_input_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->entries[i].node);
		tt_capture_free(list->entries[i].capture);
	}
	free(list->entries);
	memset(list, 0, sizeof(*list));
}

const char *
tt_device_kind(const struct tt_device *dev)
{
	bool direct = bit_is_set(dev->props, INPUT_PROP_DIRECT);

	if (tt_device_has(dev, EV_KEY, BTN_TOOL_PEN) && !tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X))
		return "tablet";
	if (tt_device_is_touch(dev)) {
		if (direct)
			return "touchscreen";
		if (tt_device_has(dev, EV_KEY, BTN_TOOL_FINGER) ||
		    bit_is_set(dev->props, INPUT_PROP_POINTER))
			return "touchpad";
		return "touch";
	}
	if (tt_device_has(dev, EV_KEY, KEY_A))
		return "keyboard";
	if (tt_device_has(dev, EV_REL, REL_X))
		return "pointer";
	return "other";
}

bool
tt_device_is_touch_input(const struct tt_device *dev)
{
	return tt_device_is_touch(dev) || strcmp(tt_device_kind(dev), "tablet") == 0;
}

char *
tt_input_hid_syspath(const char *node)
{
	struct tt_hidraw_location loc = { 0 };
	struct stat st;

	if (stat(node, &st) < 0 || !S_ISCHR(st.st_mode) || tt_hidraw_find("/sys", st.st_rdev, &loc) < 0)
		return NULL;
	char *path = steal(&loc.hid_syspath);
	tt_hidraw_location_clear(&loc);
	return path;
}

const char *
tt_device_touch_mode(const struct tt_device *dev)
{
	if (!tt_device_is_touch(dev))
		return "";
	return bit_is_set(dev->props, INPUT_PROP_DIRECT) ? "direct" : "pointer";
}

const char *
tt_mt_protocol_name(enum tt_mt_protocol p)
{
	switch (p) {
	case TT_MT_A: return "A";
	case TT_MT_B: return "B";
	default: return "-";
	}
}

bool
tt_device_name_matches(const struct tt_device *dev, const char *pattern)
{
	const char *name = dev->name ? dev->name : "";

	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pattern) != NULL;
}

void
tt_input_open_error(const char *node, int error)
{
	if (error == -EACCES || error == -EPERM)
		tt_error("%s: %s: run as root, or join the group that owns it "
			 "(usually 'input': sudo usermod -aG input $USER, then log in again)",
			 node, strerror(-error));
	else if (error == -ENOTTY)
		tt_error("%s: not an evdev device node", node);
	else
		tt_error("%s: %s", node, strerror(-error));
}
