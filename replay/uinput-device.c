/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

#include <linux/uinput.h>

#include "uinput-device.h"
#include "util-strings.h"
#include "util-time.h"

struct rp_uinput {
	struct libevdev *evdev;
	struct libevdev_uinput *uidev;
	struct input_absinfo abs[ABS_CNT];
};

void
rp_uinput_destroy(struct rp_uinput *u)
{
	if (!u)
		return;
	if (u->uidev)
		libevdev_uinput_destroy(u->uidev);
	libevdev_free(u->evdev);
	free(u);
}

static void
explain(int rc, char *why, size_t size)
{
	switch (-rc) {
	case EACCES:
	case EPERM:
		snprintf(why, size, "no permission to open /dev/uinput: run as root "
			 "(sudo touchtape replay ...), or give your user access to /dev/uinput "
			 "with a udev rule; --dry-run needs no permission");
		break;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		snprintf(why, size, "/dev/uinput is missing: load the module with "
			 "'sudo modprobe uinput' (kernel config CONFIG_INPUT_UINPUT)");
		break;
	case EMFILE:
	case ENFILE:
	case ENOSPC:
		snprintf(why, size, "too many input devices or open files (%s): close other "
			 "replays, raise 'ulimit -n', or replay fewer devices with --device ID",
			 strerror(-rc));
		break;
	default:
		snprintf(why, size, "creating the uinput device failed: %s", strerror(-rc));
		break;
	}
}

static void
enable_codes(struct rp_uinput *u, const struct tt_device *dev, bool exact)
{
	for (unsigned int type = 1; type < EV_CNT; type++) {
		int max;

		/* Force feedback needs an effect upload handler: not replayed. */
		if (!bit_is_set(dev->types, type) || type == EV_FF || type == EV_PWR)
			continue;
		if (type == EV_REP) {
			int rep[2] = { dev->rep_delay, dev->rep_period };
			libevdev_enable_event_code(u->evdev, EV_REP, REP_DELAY, &rep[0]);
			libevdev_enable_event_code(u->evdev, EV_REP, REP_PERIOD, &rep[1]);
			continue;
		}
		libevdev_enable_event_type(u->evdev, type);
		max = libevdev_event_type_get_max(type);
		for (int code = 0; code <= max && code < KEY_CNT; code++) {
			if (!bit_is_set(dev->codes[type], (unsigned int)code))
				continue;
			if (type == EV_ABS) {
				const struct tt_absinfo *a = &dev->abs[code];
				struct input_absinfo ai = {
					.value = a->value, .minimum = a->minimum, .maximum = a->maximum,
					.fuzz = exact ? 0 : a->fuzz, .flat = a->flat,
					.resolution = a->resolution,
				};
				if (code == ABS_MT_SLOT)
					ai.value = 0;
				u->abs[code] = ai;
				libevdev_enable_event_code(u->evdev, EV_ABS, (unsigned int)code, &ai);
			} else {
				libevdev_enable_event_code(u->evdev, type, (unsigned int)code, NULL);
			}
		}
	}
}

int
rp_uinput_create(const struct tt_device *dev, bool exact, const char *tag, struct rp_uinput **out,
		 char *why, size_t whysize)
{
	struct rp_uinput *u = tt_zalloc(sizeof(*u));
	char full[512];
	int rc;

	u->evdev = libevdev_new();
	/* uinput keeps 80 bytes of the name: cut it on a character boundary. */
	snprintf(full, sizeof(full), "%s%s", RP_NAME_PREFIX, dev->name ? dev->name : "");
	/* A tag (replay's surroundings key on it) ends the name, whole. */
	size_t taglen = tag ? strlen(tag) : 0;
	_cleanup_free_ char *name = tt_str_sanitize(full, strlen(full), UINPUT_MAX_NAME_SIZE - 1 - taglen);
	_cleanup_free_ char *tagged = NULL;
	if (asprintf(&tagged, "%s%s", name, tag ? tag : "") < 0)
		abort();
	libevdev_set_name(u->evdev, tagged);
	if (dev->phys)
		libevdev_set_phys(u->evdev, dev->phys);
	if (dev->uniq)
		libevdev_set_uniq(u->evdev, dev->uniq);
	libevdev_set_id_bustype(u->evdev, dev->bustype);
	libevdev_set_id_vendor(u->evdev, dev->vendor);
	libevdev_set_id_product(u->evdev, dev->product);
	libevdev_set_id_version(u->evdev, dev->version);
	for (unsigned int p = 0; p < INPUT_PROP_CNT; p++) {
		if (bit_is_set(dev->props, p))
			libevdev_enable_property(u->evdev, p);
	}
	enable_codes(u, dev, exact);
	rc = libevdev_uinput_create_from_device(u->evdev, LIBEVDEV_UINPUT_OPEN_MANAGED, &u->uidev);
	if (rc < 0) {
		explain(rc, why, whysize);
		u->uidev = NULL;
		rp_uinput_destroy(u);
		return rc;
	}
	*out = u;
	return 0;
}

const char *
rp_uinput_node(const struct rp_uinput *u)
{
	return libevdev_uinput_get_devnode(u->uidev);
}

int
rp_uinput_wait_node(struct rp_uinput *u, int timeout_ms)
{
	int64_t end = tt_now_us(CLOCK_MONOTONIC) + (int64_t)timeout_ms * 1000;

	/* The node appears when udev (or devtmpfs) makes it: look again
	 * every few ms, up to the bound. */
	for (;;) {
		const char *node = libevdev_uinput_get_devnode(u->uidev);
		if (node && access(node, R_OK) == 0)
			return 0;
		if (tt_now_us(CLOCK_MONOTONIC) >= end)
			return -ETIMEDOUT;
		poll(NULL, 0, 5);
	}
}

int
rp_uinput_write(struct rp_uinput *u, const struct input_event *ev, size_t n)
{
	size_t len = n * sizeof(*ev);
	ssize_t w;

	do {
		w = write(libevdev_uinput_get_fd(u->uidev), ev, len);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return (size_t)w == len ? 0 : -EIO;
}

const struct input_absinfo *
rp_uinput_absinfo(const struct rp_uinput *u, unsigned int code)
{
	return code < ABS_CNT ? &u->abs[code] : NULL;
}
