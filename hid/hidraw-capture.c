/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hidraw.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hid-desc.h"
#include "hidraw-capture.h"
#include "util-strings.h"
#include "util-time.h"

/* Older kernel headers lack it (Linux 5.7). */
#ifndef HIDIOCGRAWUNIQ
#define HIDIOCGRAWUNIQ(len) _IOC(_IOC_READ, 'H', 0x08, len)
#endif

struct tt_hidraw {
	int fd;
	struct tt_hid_device *dev;
	size_t nreports;
	uint8_t buf[TT_MAX_HID_REPORT];
};

/* HIDIOCGRAWNAME/PHYS/UNIQ: a string of at most 256 bytes, sanitized;
 * NULL when the kernel has none to give. */
static char *
raw_string(int fd, unsigned long request)
{
	char buf[256] = { 0 };	/* valgrind does not know these ioctls fill it */
	int n = ioctl(fd, request, buf);

	if (n <= 0)
		return NULL;
	buf[sizeof(buf) - 1] = '\0';
	return tt_str_sanitize(buf, strnlen(buf, sizeof(buf)), TT_MAX_STRING_BYTES);
}

static int
read_descriptor(int fd, struct tt_hid_device *dev)
{
	struct hidraw_report_descriptor rd = { 0 };
	int size = 0;

	if (ioctl(fd, HIDIOCGRDESCSIZE, &size) < 0)
		return -errno;
	if (size <= 0 || (unsigned int)size > TT_MAX_HID_DESCRIPTOR || size > HID_MAX_DESCRIPTOR_SIZE)
		return -EINVAL;
	rd.size = (uint32_t)size;
	if (ioctl(fd, HIDIOCGRDESC, &rd) < 0)
		return -errno;
	dev->descriptor = tt_zalloc((size_t)size);
	memcpy(dev->descriptor, rd.value, (size_t)size);
	dev->descriptor_len = (uint32_t)size;
	return 0;
}

static int
describe(struct tt_hidraw *h, const char *node, const struct tt_hidraw_location *loc)
{
	struct tt_hid_device *dev = h->dev;
	struct hidraw_devinfo info;
	char *name;

	if (ioctl(h->fd, HIDIOCGRAWINFO, &info) < 0)
		return -errno;
	dev->bus = (uint16_t)info.bustype;
	/* __s16 in the ioctl's struct, an unsigned 16-bit id in truth. */
	dev->vendor = (uint16_t)info.vendor;
	dev->product = (uint16_t)info.product;
	dev->version = loc->version;
	dev->country = loc->country;
	name = raw_string(h->fd, HIDIOCGRAWNAME(256));
	dev->name = name ? name : tt_strdup("");
	dev->phys = raw_string(h->fd, HIDIOCGRAWPHYS(256));
	/* A serial number, recorded like the evdev device's uniq. */
	dev->uniq = raw_string(h->fd, HIDIOCGRAWUNIQ(256));
	dev->node = tt_str_sanitize(node, strlen(node), TT_MAX_STRING_BYTES);
	return read_descriptor(h->fd, dev);
}

int
tt_hidraw_open(const char *node, uint32_t id, const struct tt_hidraw_location *loc,
	       struct tt_hidraw **out)
{
	_cleanup_(tt_hidraw_freep) struct tt_hidraw *h = tt_zalloc(sizeof(*h));
	int rc;

	h->dev = tt_zalloc(sizeof(*h->dev));
	h->dev->id = id;
	h->fd = -1;
	h->fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (h->fd < 0)
		return -errno;
	rc = describe(h, node, loc);
	if (rc < 0)
		return rc;
	*out = steal(&h);
	return 0;
}

void
tt_hidraw_add_evdev(struct tt_hidraw *h, uint32_t evdev_id)
{
	struct tt_hid_device *dev = h->dev;

	dev->evdev_devices = tt_reallocarray(dev->evdev_devices, dev->nevdev + 1,
					     sizeof(*dev->evdev_devices));
	dev->evdev_devices[dev->nevdev++] = evdev_id;
}

/* The buffer a driver would use for feature report @id: its declared
 * size, plus the report ID byte that HIDIOCGFEATURE always puts first. */
static size_t
feature_size(const struct tt_hid_desc *d, uint8_t id)
{
	const struct tt_hid_report_info *info = tt_hid_desc_report(d, TT_HID_FEATURE, id);
	size_t bytes = info ? (info->bits + 7) / 8 + 1 : TT_MAX_HID_REPORT;

	return bytes < TT_MAX_HID_REPORT ? bytes : TT_MAX_HID_REPORT;
}

static void
read_feature(struct tt_hidraw *h, const struct tt_hid_desc *d, uint8_t id)
{
	struct tt_hid_feature *f = &h->dev->features[h->dev->nfeatures++];
	size_t size = feature_size(d, id);
	int n;

	memset(f, 0, sizeof(*f));
	f->report_id = id;
	h->buf[0] = id;
	n = ioctl(h->fd, HIDIOCGFEATURE(size), h->buf);
	if (n < 0) {
		f->error = -errno;
		return;
	}
	f->len = (uint32_t)n;
	f->data = tt_zalloc(n ? (size_t)n : 1);
	memcpy(f->data, h->buf, (size_t)n);
}

int
tt_hidraw_read_features(struct tt_hidraw *h, char **why)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = NULL;
	uint8_t ids[TT_MAX_HID_FEATURES];
	size_t n;
	int rc;

	rc = tt_hid_desc_parse(h->dev->descriptor, h->dev->descriptor_len, &d, why);
	if (rc < 0)
		return rc;
	n = tt_hid_desc_feature_ids(d, ids, ARRAY_LENGTH(ids));
	h->dev->features = tt_reallocarray(NULL, n ? n : 1, sizeof(*h->dev->features));
	for (size_t i = 0; i < n; i++)
		read_feature(h, d, ids[i]);
	return 0;
}

const struct tt_hid_device *
tt_hidraw_device(const struct tt_hidraw *h)
{
	return h->dev;
}

int
tt_hidraw_fd(const struct tt_hidraw *h)
{
	return h->fd;
}

size_t
tt_hidraw_nreports(const struct tt_hidraw *h)
{
	return h->nreports;
}

int
tt_hidraw_dispatch(struct tt_hidraw *h, int64_t start_us, tt_hid_report_fn fn, void *userdata)
{
	for (;;) {
		ssize_t n = read(h->fd, h->buf, sizeof(h->buf));
		int64_t now = tt_now_us(CLOCK_MONOTONIC);
		struct tt_hid_report rep = { .device = h->dev->id, .data = h->buf };
		int rc;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			/* hidraw answers EIO once the device is gone and its queue is empty. */
			return errno == EIO || errno == ENODEV ? -ENODEV : -errno;
		}
		if (n == 0)
			continue;	/* a zero-length report: nothing to record */
		rep.time_us = now - start_us;
		rep.len = (uint32_t)n;
		h->nreports++;
		rc = fn(userdata, &rep);
		if (rc < 0)
			return rc;
	}
}

void
tt_hidraw_free(struct tt_hidraw *h)
{
	if (!h)
		return;
	if (h->fd >= 0)
		close(h->fd);
	tt_hid_device_free(h->dev);
	free(h);
}
