/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/uhid.h>

#include "uhid-device.h"
#include "util-strings.h"
#include "util-time.h"

#define SYS_HID "/sys/bus/hid/devices"
#define MAX_NODES 16

struct rp_uhid {
	const struct tt_hid_device *dev;
	int fd;
	struct tt_loop *loop;
	struct tt_loop_source *source;
	/* The kernel's uevents: "bind" says the driver's probe is done (the
	 * driver link appears before the probe runs). -1 when they cannot be
	 * read: then the driver link and a pause stand in. */
	int uevent_fd;
	struct tt_loop_source *uevent_source;
	bool bind_seen;
	char uniq[64];
	bool started;
	int read_error;			/* a negative errno reading the fd */
	struct rp_uhid_counts counts;
	char sysfs[256];		/* /sys/bus/hid/devices/BBBB:VVVV:PPPP.NNNN */
	char driver[64];
	char hidraw[32];
	size_t nnodes;
	char nodes[MAX_NODES][32];
	char names[MAX_NODES][128];
	unsigned int inputs[MAX_NODES];	/* inputN, for their order */
};

static int
uhid_send(struct rp_uhid *u, const struct uhid_event *ev)
{
	ssize_t n = write(u->fd, ev, sizeof(*ev));

	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof(*ev) ? 0 : -EIO;
}

static const struct tt_hid_feature *
find_feature(const struct tt_hid_device *d, uint8_t id)
{
	for (uint32_t i = 0; i < d->nfeatures; i++) {
		if (d->features[i].report_id == id)
			return &d->features[i];
	}
	return NULL;
}

/* Answered from the recording: what the device said, or EIO (a device
 * that does not answer, as the kernel sees it). */
static void
answer_get_report(struct rp_uhid *u, const struct uhid_get_report_req *req)
{
	struct uhid_event reply = { .type = UHID_GET_REPORT_REPLY };
	const struct tt_hid_feature *f = NULL;

	reply.u.get_report_reply.id = req->id;
	if (req->rtype == UHID_FEATURE_REPORT)
		f = find_feature(u->dev, req->rnum);
	if (f && f->error == 0 && f->len && f->len <= UHID_DATA_MAX) {
		reply.u.get_report_reply.size = (uint16_t)f->len;
		memcpy(reply.u.get_report_reply.data, f->data, f->len);
		u->counts.get_answered++;
	} else {
		reply.u.get_report_reply.err = EIO;
		u->counts.get_refused++;
	}
	(void)uhid_send(u, &reply);
}

static void
ack_set_report(struct rp_uhid *u, const struct uhid_set_report_req *req)
{
	struct uhid_event reply = { .type = UHID_SET_REPORT_REPLY };

	reply.u.set_report_reply.id = req->id;
	u->counts.set_acked++;
	(void)uhid_send(u, &reply);
}

static void
handle_event(struct rp_uhid *u, const struct uhid_event *ev)
{
	switch (ev->type) {
	case UHID_START: u->started = true; break;
	case UHID_STOP: u->started = false; break;
	case UHID_OUTPUT: u->counts.outputs++; break;
	case UHID_GET_REPORT: answer_get_report(u, &ev->u.get_report); break;
	case UHID_SET_REPORT: ack_set_report(u, &ev->u.set_report); break;
	default: break;	/* OPEN, CLOSE: whether someone reads it */
	}
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct rp_uhid *u = userdata;
	struct uhid_event ev;

	(void)loop;
	(void)source;
	(void)events;
	for (;;) {
		ssize_t n = read(u->fd, &ev, sizeof(ev));
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				u->read_error = -errno;
			return;
		}
		if (n == 0)
			return;
		handle_event(u, &ev);
	}
}

/* Truncating copy (names longer than uhid's fields are cut, as the
 * kernel's own copies would be). */
static void
copy_str(char *dst, size_t dstsz, const char *src)
{
	size_t n = src ? strnlen(src, dstsz - 1) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

/* A uevent is "ACTION@DEVPATH\0KEY=VALUE\0...": ours is the hid
 * subsystem's bind with our uniq. Its DRIVER is the driver bound (the
 * generic one can bind first and hand over to a specific one). */
static bool
is_our_bind(const char *msg, size_t len, const char *uniq, char *driver, size_t driversz)
{
	bool bind = false, ours = false;
	const char *drv = NULL;
	char want[96];

	snprintf(want, sizeof(want), "HID_UNIQ=%s", uniq);
	for (size_t at = 0; at < len; at += strlen(msg + at) + 1) {
		bind |= strcmp(msg + at, "ACTION=bind") == 0;
		ours |= strcmp(msg + at, want) == 0;
		if (strncmp(msg + at, "DRIVER=", 7) == 0)
			drv = msg + at + 7;
	}
	if (bind && ours && drv)
		copy_str(driver, driversz, drv);
	return bind && ours;
}

static void
on_uevent(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct rp_uhid *u = userdata;
	char buf[8192];
	ssize_t n;

	(void)loop;
	(void)source;
	(void)events;
	while ((n = recv(u->uevent_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
		buf[n] = '\0';
		if (is_our_bind(buf, (size_t)n, u->uniq, u->driver, sizeof(u->driver)))
			u->bind_seen = true;
	}
}

static void
watch_uevents(struct rp_uhid *u, struct tt_loop *loop)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    !(u->uevent_source = tt_loop_add(loop, fd, on_uevent, u))) {
		close(fd);
		return;
	}
	u->uevent_fd = fd;
}

static void
unwatch_uevents(struct rp_uhid *u)
{
	if (u->uevent_source)
		tt_loop_remove(u->loop, u->uevent_source);
	u->uevent_source = NULL;
	if (u->uevent_fd >= 0)
		close(u->uevent_fd);
	u->uevent_fd = -1;
}

static int
send_create(struct rp_uhid *u)
{
	_cleanup_free_ struct uhid_event *ev = tt_zalloc(sizeof(*ev));
	struct uhid_create2_req *c = &ev->u.create2;
	const struct tt_hid_device *d = u->dev;

	ev->type = UHID_CREATE2;
	copy_str((char *)c->name, sizeof(c->name), d->name);
	copy_str((char *)c->phys, sizeof(c->phys), d->phys);
	copy_str((char *)c->uniq, sizeof(c->uniq), u->uniq);
	c->rd_size = (uint16_t)d->descriptor_len;
	c->bus = d->bus;
	c->vendor = d->vendor;
	c->product = d->product;
	c->version = d->version;
	c->country = d->country;
	memcpy(c->rd_data, d->descriptor, d->descriptor_len);
	return uhid_send(u, ev);
}

int
rp_uhid_create(const struct tt_hid_device *dev, uint32_t index, struct tt_loop *loop,
	       struct rp_uhid **out, char *why, size_t whysize)
{
	_cleanup_(rp_uhid_destroyp) struct rp_uhid *u = tt_zalloc(sizeof(*u));
	int rc;

	u->dev = dev;
	u->fd = -1;
	u->uevent_fd = -1;
	if (dev->descriptor_len == 0 || dev->descriptor_len > HID_MAX_DESCRIPTOR_SIZE) {
		snprintf(why, whysize, "a report descriptor of %" PRIu32 " bytes cannot be created "
			 "(1..%d)", dev->descriptor_len, HID_MAX_DESCRIPTOR_SIZE);
		return -EINVAL;
	}
	snprintf(u->uniq, sizeof(u->uniq), RP_UHID_UNIQ_PREFIX "%d:%" PRIu32, (int)getpid(), index);
	u->fd = open("/dev/uhid", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (u->fd < 0) {
		rc = -errno;
		snprintf(why, whysize, "/dev/uhid: %s (%s)", strerror(-rc),
			 rc == -ENOENT ? "load the uhid module: modprobe uhid" :
			 "replaying a HID device needs root");
		return rc;
	}
	u->source = tt_loop_add(loop, u->fd, on_readable, u);
	if (!u->source) {
		rc = -errno;
		snprintf(why, whysize, "cannot watch /dev/uhid: %s", strerror(-rc));
		return rc;
	}
	u->loop = loop;
	/* Before the device exists, or its bind could come first. */
	watch_uevents(u, loop);
	if ((rc = send_create(u)) < 0) {
		snprintf(why, whysize, "UHID_CREATE2 failed: %s", strerror(-rc));
		return rc;
	}
	*out = steal(&u);
	return 0;
}

/* The first line of a sysfs file, or "" . */
static void
read_line(const char *path, char *buf, size_t bufsz)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)bufsz, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static bool
uevent_has_uniq(const char *dir, const char *uniq)
{
	char path[512], line[256], want[128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uevent", dir);
	snprintf(want, sizeof(want), "HID_UNIQ=%s\n", uniq);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strcmp(line, want) == 0;
	fclose(f);
	return found;
}

/* Our HID device in sysfs, by its uniq. */
static bool
find_sysfs(struct rp_uhid *u)
{
	DIR *d = opendir(SYS_HID);
	struct dirent *e;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		char dir[sizeof(u->sysfs)];
		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(dir, sizeof(dir), SYS_HID "/%s", e->d_name) >= sizeof(dir))
			continue;
		if (uevent_has_uniq(dir, u->uniq)) {
			copy_str(u->sysfs, sizeof(u->sysfs), dir);
			break;
		}
	}
	closedir(d);
	return u->sysfs[0] != '\0';
}

static bool
driver_bound(struct rp_uhid *u)
{
	char link[512], target[256];
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", u->sysfs);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	copy_str(u->driver, sizeof(u->driver), strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	return true;
}

/* "eventN" (or "hidrawN") under @dir, into @node as /dev/... */
static bool
find_child(const char *dir, const char *prefix, char *node, size_t nodesz)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			found = (size_t)snprintf(node, nodesz, "/dev/%s%s",
						 strcmp(prefix, "event") ? "" : "input/",
						 e->d_name) < nodesz;
	}
	closedir(d);
	return found;
}

static void
add_input(struct rp_uhid *u, const char *input)
{
	char dir[512], path[600];
	unsigned int num;
	size_t i;

	if (u->nnodes == MAX_NODES || sscanf(input, "input%u", &num) != 1)
		return;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/input/%s", u->sysfs, input) >= sizeof(dir))
		return;
	/* Sorted by input number: the order the driver made them in. */
	for (i = u->nnodes; i > 0 && u->inputs[i - 1] > num; i--) {
		u->inputs[i] = u->inputs[i - 1];
		memcpy(u->nodes[i], u->nodes[i - 1], sizeof(u->nodes[i]));
		memcpy(u->names[i], u->names[i - 1], sizeof(u->names[i]));
	}
	if (!find_child(dir, "event", u->nodes[i], sizeof(u->nodes[i])))
		u->nodes[i][0] = '\0';
	snprintf(path, sizeof(path), "%s/name", dir);
	read_line(path, u->names[i], sizeof(u->names[i]));
	u->inputs[i] = num;
	u->nnodes++;
}

static void
list_inputs(struct rp_uhid *u)
{
	char dir[512];
	DIR *d;
	struct dirent *e;

	u->nnodes = 0;
	snprintf(dir, sizeof(dir), "%s/input", u->sysfs);
	if ((d = opendir(dir))) {
		while ((e = readdir(d)))
			add_input(u, e->d_name);
		closedir(d);
	}
	snprintf(dir, sizeof(dir), "%s/hidraw", u->sysfs);
	if (!find_child(dir, "hidraw", u->hidraw, sizeof(u->hidraw)))
		u->hidraw[0] = '\0';
}

static bool
nodes_exist(const struct rp_uhid *u)
{
	for (size_t i = 0; i < u->nnodes; i++) {
		struct stat st;
		if (!u->nodes[i][0] || stat(u->nodes[i], &st) < 0)
			return false;
	}
	return true;
}

/* Where the binding stands, for the message when it does not end. */
static const char *
missing(const struct rp_uhid *u)
{
	if (!u->sysfs[0])
		return "the kernel made no HID device of it";
	if (!u->driver[0] || (u->uevent_fd >= 0 && !u->bind_seen))
		return "no driver bound to it (is its module loaded? modprobe -a hid-generic "
		       "hid-multitouch wacom)";
	return "its /dev/input nodes did not appear (is devtmpfs mounted on /dev?)";
}

/* Without uevents, the driver link appears when the probe starts: give
 * the probe this long to make its evdev devices. */
#define PROBE_SETTLE_US 500000

static bool
bound(struct rp_uhid *u, int64_t *linked_us)
{
	if (!u->sysfs[0] && !find_sysfs(u))
		return false;
	if (!u->driver[0] && !driver_bound(u))
		return false;
	if (u->uevent_fd >= 0 && !u->bind_seen)
		return false;
	if (u->uevent_fd < 0) {
		if (!*linked_us)
			*linked_us = tt_now_us(CLOCK_MONOTONIC);
		if (tt_now_us(CLOCK_MONOTONIC) - *linked_us < PROBE_SETTLE_US)
			return false;
	}
	list_inputs(u);
	return nodes_exist(u);
}

int
rp_uhid_wait_bound(struct rp_uhid *u, struct tt_loop *loop, int timeout_ms, char *why,
		   size_t whysize)
{
	int64_t end = tt_now_us(CLOCK_MONOTONIC) + (int64_t)timeout_ms * 1000;
	int64_t linked_us = 0;

	/* The driver's probe asks for reports (answered from the loop) and
	 * makes its evdev devices; its bind uevent says it is done. */
	while (!bound(u, &linked_us)) {
		if (u->read_error) {
			snprintf(why, whysize, "reading /dev/uhid: %s", strerror(-u->read_error));
			return u->read_error;
		}
		if (tt_now_us(CLOCK_MONOTONIC) >= end) {
			snprintf(why, whysize, "not ready within %d ms: %s", timeout_ms, missing(u));
			return -ETIMEDOUT;
		}
		int rc = tt_loop_dispatch(loop, 10);
		if (rc < 0) {
			snprintf(why, whysize, "event loop: %s", strerror(-rc));
			return rc;
		}
	}
	unwatch_uevents(u);
	return 0;
}

const char *
rp_uhid_driver(const struct rp_uhid *u)
{
	return u->driver;
}

const char *
rp_uhid_hidraw(const struct rp_uhid *u)
{
	return u->hidraw[0] ? u->hidraw : NULL;
}

size_t
rp_uhid_nnodes(const struct rp_uhid *u)
{
	return u->nnodes;
}

const char *
rp_uhid_node(const struct rp_uhid *u, size_t i)
{
	return i < u->nnodes ? u->nodes[i] : NULL;
}

const char *
rp_uhid_node_name(const struct rp_uhid *u, size_t i)
{
	return i < u->nnodes ? u->names[i] : NULL;
}

int
rp_uhid_input(struct rp_uhid *u, const uint8_t *data, size_t len)
{
	struct uhid_event ev = { .type = UHID_INPUT2 };

	if (len > UHID_DATA_MAX)
		return -EMSGSIZE;
	ev.u.input2.size = (uint16_t)len;
	memcpy(ev.u.input2.data, data, len);
	return uhid_send(u, &ev);
}

const struct rp_uhid_counts *
rp_uhid_counts(const struct rp_uhid *u)
{
	return &u->counts;
}

void
rp_uhid_destroy(struct rp_uhid *u)
{
	if (!u)
		return;
	if (u->fd >= 0) {
		struct uhid_event ev = { .type = UHID_DESTROY };
		(void)uhid_send(u, &ev);
	}
	unwatch_uevents(u);
	if (u->source)
		tt_loop_remove(u->loop, u->source);
	if (u->fd >= 0)
		close(u->fd);
	free(u);
}
