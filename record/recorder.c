/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evdev-capture.h"
#include "hid-keymask.h"
#include "hidraw-capture.h"
#include "input-devices.h"
#include "log.h"
#include "recorder.h"
#include "surroundings.h"
#include "util-strings.h"
#include "util-time.h"

#define TT_EXIT_FAILURE_STATUS 1

/* A hidraw node (--hid): one per HID device, shared by the evdev devices
 * the HID device produced. */
struct rec_hid {
	struct tt_recorder *r;
	struct tt_hidraw *hidraw;
	struct tt_loop_source *source;	/* NULL once removed */
	char *syspath;		/* the HID device in sysfs: what groups them */
	char *node;
	/* Key masking (not --show-keycodes): the descriptor, when it
	 * declares private keys; unmaskable when it does not parse, and
	 * then no report is written (where the keys are is unknown). */
	struct tt_hid_desc *keys;
	bool unmaskable;
};

struct rec_device {
	struct tt_recorder *r;
	struct tt_capture *capture;
	struct tt_loop_source *source;	/* NULL once removed */
	char *node;
	size_t drops_at_file_start;
	struct rec_hid *hid;	/* --hid: its HID device, if recorded */
	char *hid_note;		/* --hid: why there is none, for a marker */
	struct tt_device *sur;	/* its surroundings (tt_sur_holder_new()) */
};

struct tt_recorder {
	struct tt_recorder_options opts;
	struct tt_loop *loop;
	struct tt_loop_source *duration_timer;
	struct tt_loop_source *idle_timer;
	bool idle_armed;

	struct rec_device *devs;
	size_t ndevs;
	size_t nactive;
	struct rec_hid **hids;
	size_t nhids;

	char *path;		/* current output file, NULL for stdout */
	unsigned int file_index;	/* 0: FILE, n: FILE.n */
	int fd;
	struct tt_writer *writer;
	int64_t start_us;	/* CLOCK_MONOTONIC at time 0 of the current file */
	int64_t first_start_us;
	uint64_t file_frames;
	uint64_t total_frames;
	int64_t last_activity_us;

	const char *stop_reason;
	int status;
	bool stopped;
	bool draining;		/* reading what the devices queued before the stop */
	int write_error;	/* -errno of the first failed write */
	void (*drain)(void *userdata);	/* another source's pending records */
	void *drain_data;
	char *quirks_note;	/* why no quirks were recorded, for a marker */
};

static const char *
output_name(const struct tt_recorder *r)
{
	return r->path ? r->path : "standard output";
}

static int64_t
now_rel(const struct tt_recorder *r)
{
	return tt_now_us(CLOCK_MONOTONIC) - r->start_us;
}

/* Every write goes through here: the first failure is reported at once
 * and ends the recording; what is on disk stays whole lines. */
static int
check_write(struct tt_recorder *r, int rc)
{
	if (rc >= 0 || r->write_error)
		return rc;
	r->write_error = rc;
	tt_error("writing %s: %s; stopping (the file is valid up to its last complete line)",
		 output_name(r), strerror(-rc));
	r->stop_reason = "write error";
	r->status = TT_EXIT_FAILURE_STATUS;
	r->stopped = true;
	tt_loop_quit(r->loop, r->status);
	return rc;
}

static int
write_marker(struct tt_recorder *r, enum tt_marker_kind kind, int64_t device, const char *text)
{
	struct tt_marker m = {
		.time_us = now_rel(r),
		.kind = kind,
		.device = device,
		.text = (char *)text,
	};

	if (r->write_error)
		return r->write_error;
	return check_write(r, tt_writer_marker(r->writer, &m));
}

static int
open_output(struct tt_recorder *r)
{
	if (!r->opts.output || strcmp(r->opts.output, "-") == 0) {
		r->fd = STDOUT_FILENO;
		r->path = NULL;
	} else {
		free(r->path);
		if (r->file_index == 0) {
			r->path = tt_strdup(r->opts.output);
		} else {
			size_t len = strlen(r->opts.output) + 16;
			r->path = tt_zalloc(len);
			snprintf(r->path, len, "%s.%u", r->opts.output, r->file_index);
		}
		/* A recording is often the only copy of a bug: never
		 * truncate one unless asked (--force). */
		r->fd = open(r->path, O_WRONLY | O_CREAT | O_CLOEXEC | (r->opts.force ? O_TRUNC : O_EXCL),
			     0644);
		if (r->fd < 0) {
			int rc = -errno;
			tt_error("%s: %s", r->path, strerror(-rc));
			return rc;
		}
	}
	return tt_writer_new(r->fd, &r->writer);
}

static void
close_output(struct tt_recorder *r)
{
	tt_writer_free(r->writer);
	r->writer = NULL;
	if (r->fd >= 0 && r->fd != STDOUT_FILENO)
		close(r->fd);
	r->fd = -1;
}

/* A Bluetooth phys is the adapter's address: like a serial, kept only
 * with --with-serials. Points *@phys at a masked copy, returned to be
 * freed, when it holds one. */
static char *
private_phys(const struct tt_recorder *r, char **phys)
{
	char *masked;

	if (r->opts.with_serials || !tt_str_count_addresses(*phys))
		return NULL;
	masked = tt_strdup(*phys);
	tt_str_mask_addresses(masked);
	*phys = masked;
	return masked;
}

/* Each HID device after the evdev devices it names. */
static int
write_hid_devices(struct tt_recorder *r)
{
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < r->nhids; i++) {
		struct rec_hid *h = r->hids[i];
		struct tt_hid_device dev;

		if (!h->source)
			continue;
		/* Like the evdev device's: a serial unless asked for. */
		dev = *tt_hidraw_device(h->hidraw);
		_cleanup_free_ char *phys = private_phys(r, &dev.phys);
		if (!r->opts.with_serials)
			dev.uniq = NULL;
		rc = check_write(r, tt_writer_hid_device(r->writer, &dev));
	}
	return rc;
}

/* --hid: why an evdev device has no HID layer, once per device and file. */
static int
write_hid_notes(struct tt_recorder *r)
{
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		if (d->source && d->hid_note)
			rc = write_marker(r, TT_MARKER_NOTE, tt_capture_device(d->capture)->id,
					  d->hid_note);
	}
	return rc;
}

/* The device record as written: the capture's description and state,
 * with the surroundings gathered at the start and without serials or
 * addresses unless asked. */
static int
write_device(struct tt_recorder *r, struct rec_device *d)
{
	struct tt_device dev = *tt_capture_device(d->capture);
	_cleanup_free_ char *phys = private_phys(r, &dev.phys);

	tt_sur_lend(&dev, d->sur, r->opts.with_serials ? TT_SUR_WITH_SERIALS : 0);
	return check_write(r, tt_writer_device(r->writer, &dev));
}

/* Header, device records, start marker. @h carries the start instants. */
static int
write_preamble(struct tt_recorder *r, struct tt_header *h)
{
	char text[64];
	int rc;

	h->keycodes_masked = !(r->opts.capture_flags & TT_CAPTURE_SHOW_KEYCODES);
	if (r->opts.x_vendor && !h->x_vendor) {
		h->x_vendor = tt_strdup(r->opts.x_vendor);
		h->x_release = r->opts.x_release;
	}
	tt_sur_gather_system(&tt_sur_host_roots, h);
	r->start_us = h->start_monotonic_us;
	r->file_frames = 0;
	rc = check_write(r, tt_writer_header(r->writer, h));
	for (size_t i = 0; rc >= 0 && i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		if (!d->source)
			continue;
		d->drops_at_file_start = tt_capture_drops(d->capture);
		rc = write_device(r, d);
	}
	if (rc >= 0)
		rc = write_hid_devices(r);
	if (rc < 0)
		return rc;
	snprintf(text, sizeof(text), "%zu device%s", r->nactive, r->nactive == 1 ? "" : "s");
	rc = write_marker(r, TT_MARKER_START, -1, text);
	if (rc >= 0 && r->quirks_note)
		rc = write_marker(r, TT_MARKER_NOTE, -1, r->quirks_note);
	return rc < 0 ? rc : write_hid_notes(r);
}

/* Drops summary and stop marker: the end of every file. */
static void
write_epilogue(struct tt_recorder *r, const char *reason)
{
	for (size_t i = 0; i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		size_t drops = tt_capture_drops(d->capture) - d->drops_at_file_start;
		char text[128];

		if (!drops)
			continue;
		snprintf(text, sizeof(text),
			 "%zu SYN_DROPPED; %zu events discarded behind them, resynced", drops,
			 tt_capture_discarded(d->capture));
		write_marker(r, TT_MARKER_DROPS, tt_capture_device(d->capture)->id, text);
	}
	write_marker(r, TT_MARKER_STOP, -1, reason);
}

void
tt_recorder_stop(struct tt_recorder *r, const char *reason, int status)
{
	if (r->stopped)
		return;
	r->stopped = true;
	r->stop_reason = reason;
	r->status = status;
	tt_loop_quit(r->loop, status);
}

static void
arm_idle(struct tt_recorder *r, int64_t when_us)
{
	if (tt_loop_timer_set(r->idle_timer, when_us) == 0)
		r->idle_armed = true;
}

static int
on_frame(void *userdata, const struct tt_frame *frame)
{
	struct rec_device *d = userdata;
	struct tt_recorder *r = d->r;
	int rc;

	if (r->stopped && !r->draining)
		return 0;	/* after --frames N: the rest of this read is not wanted */
	rc = check_write(r, tt_writer_frame(r->writer, frame));
	if (rc < 0)
		return rc;
	r->file_frames++;
	r->total_frames++;
	r->last_activity_us = r->start_us + frame->time_us;
	if (r->idle_timer && !r->idle_armed)
		arm_idle(r, r->last_activity_us + r->opts.autorestart_us);
	if (r->opts.max_frames && r->total_frames >= r->opts.max_frames)
		tt_recorder_stop(r, "frames", 0);
	return 0;
}

static void
device_gone(struct tt_recorder *r, struct rec_device *d, int error)
{
	char text[128];
	const struct tt_device *dev = tt_capture_device(d->capture);

	if (error == -ENODEV)
		snprintf(text, sizeof(text), "%s removed", d->node);
	else
		snprintf(text, sizeof(text), "%s: %s", d->node, strerror(-error));
	if (error != -ENODEV)
		tt_warning("%s: %s; the other devices keep recording", d->node, strerror(-error));
	else if (!r->opts.quiet)
		tt_info("%s (%s) was removed%s", d->node, dev->name,
			r->nactive > 1 ? "; the other devices keep recording" : "");
	tt_loop_remove(r->loop, d->source);
	d->source = NULL;
	r->nactive--;
	write_marker(r, TT_MARKER_DEVICE_REMOVED, dev->id, text);
	if (r->nactive == 0)
		tt_recorder_stop(r, "all devices removed", error == -ENODEV ? 0 : TT_EXIT_FAILURE_STATUS);
}

static int
on_hid_report(void *userdata, const struct tt_hid_report *rep)
{
	struct rec_hid *h = userdata;
	struct tt_recorder *r = h->r;

	if (r->stopped && !r->draining)
		return 0;
	if (h->unmaskable)
		return 0;
	if (h->keys && rep->len <= TT_MAX_HID_REPORT) {
		uint8_t masked[TT_MAX_HID_REPORT];
		struct tt_hid_report copy = *rep;

		memcpy(masked, rep->data, rep->len);
		tt_hid_keymask_report(h->keys, masked, rep->len);
		copy.data = masked;
		return check_write(r, tt_writer_hid_report(r->writer, &copy));
	}
	return check_write(r, tt_writer_hid_report(r->writer, rep));
}

/* A hidraw node that fails ends its own source; evdev goes on. */
static void
hid_gone(struct tt_recorder *r, struct rec_hid *h, int error)
{
	uint32_t id = tt_hidraw_device(h->hidraw)->id;
	char text[160];

	if (error == -ENODEV) {
		snprintf(text, sizeof(text), "%s (HID device %u) removed", h->node, id);
	} else {
		snprintf(text, sizeof(text), "%s (HID device %u): %s", h->node, id, strerror(-error));
		tt_warning("%s: %s; its HID reports are no longer recorded", h->node,
			   strerror(-error));
	}
	tt_loop_remove(r->loop, h->source);
	h->source = NULL;
	write_marker(r, TT_MARKER_DEVICE_REMOVED, -1, text);
}

static void
drain_hid(struct tt_recorder *r, struct rec_hid *h)
{
	int rc;

	if (!h || !h->source)
		return;
	rc = tt_hidraw_dispatch(h->hidraw, r->start_us, on_hid_report, h);
	if (rc < 0 && !r->write_error)
		hid_gone(r, h, rc);
}

static void
on_hid(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct rec_hid *h = userdata;

	(void)loop;
	(void)source;
	(void)events;
	drain_hid(h->r, h);
}

static void
on_device(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct rec_device *d = userdata;
	struct tt_recorder *r = d->r;
	int rc;

	(void)loop;
	(void)source;
	(void)events;
	/* The HID core queues a report on hidraw before the driver makes
	 * evdev events of it: reading hidraw first puts the report in the
	 * file before the frames it produced. */
	drain_hid(r, d->hid);
	rc = tt_capture_dispatch(d->capture, r->start_us, on_frame, d);
	if (rc < 0 && !r->write_error)
		device_gone(r, d, rc);
}

static void
on_signal(struct tt_loop *loop, int signo, void *userdata)
{
	(void)loop;
	tt_recorder_stop(userdata, signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" :
			 signo == SIGHUP ? "SIGHUP" : "signal", 0);
}

static void
on_duration(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	tt_recorder_stop(userdata, "duration", 0);
}

/* Ends the current file after --autorestart seconds without a frame and
 * starts FILE.n+1 at once, with the devices' state as of now. A file that
 * has no frames yet is not rotated: the timer waits for the next frame. */
static void
rotate(struct tt_recorder *r)
{
	struct tt_header h;

	write_epilogue(r, "inactivity");
	if (r->write_error)
		return;
	close_output(r);
	if (!r->opts.quiet)
		tt_info("%s: no input for a while, recording into a new file", r->path);
	r->file_index++;
	if (check_write(r, open_output(r)) < 0)
		return;
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].source)
			tt_capture_refresh(r->devs[i].capture);
	tt_header_init_now(&h);
	write_preamble(r, &h);
	tt_header_clear(&h);
	if (!r->opts.quiet)
		tt_info("recording to %s", r->path);
}

static void
on_idle(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct tt_recorder *r = userdata;
	int64_t now = tt_now_us(CLOCK_MONOTONIC);

	(void)loop;
	(void)source;
	(void)events;
	r->idle_armed = false;
	if (r->file_frames == 0)
		return;
	if (now - r->last_activity_us < r->opts.autorestart_us) {
		arm_idle(r, r->last_activity_us + r->opts.autorestart_us);
		return;
	}
	rotate(r);
}

static int
open_devices(struct tt_recorder *r, char **paths, size_t npaths)
{
	if (npaths == 0)
		return 0;
	r->devs = tt_reallocarray(NULL, npaths, sizeof(*r->devs));
	for (size_t i = 0; i < npaths; i++) {
		struct rec_device *d = &r->devs[i];
		int rc;

		memset(d, 0, sizeof(*d));
		d->r = r;
		d->node = tt_str_sanitize(paths[i], strlen(paths[i]), 256);
		rc = tt_capture_open(paths[i], (uint32_t)i, r->opts.capture_flags, &d->capture);
		if (rc < 0) {
			if (rc == -EBUSY)
				tt_error("%s: another program has grabbed this device; "
					 "--grab cannot take it over", d->node);
			else
				tt_input_open_error(d->node, rc);
			d->capture = NULL;
			r->ndevs = i + 1;
			return rc;
		}
		r->ndevs = i + 1;
		const struct tt_device *dev = tt_capture_device(d->capture);
		if (dev->grabbed_by_other)
			tt_warning("%s (%s): another program holds an exclusive grab; events may "
				   "not arrive until it lets go", d->node, dev->name);
	}
	return 0;
}

/* --libinput: which quirks libinput matches; a missing tool is said once,
 * and the recording goes on without them. */
static void
gather_quirks(struct tt_recorder *r, struct rec_device *d, const char *path)
{
	int rc;

	if (r->quirks_note)
		return;
	rc = tt_sur_gather_quirks("libinput", path, d->sur);
	if (rc == -ENOENT) {
		r->quirks_note = tt_strdup("libinput quirks list is not available (install libinput-tools); "
					   "the libinput quirks are not recorded");
		tt_warning("%s", r->quirks_note);
	} else if (rc < 0) {
		tt_warning("%s: libinput quirks list failed; its quirks are not recorded", d->node);
	}
}

/* What the system says of each device (formats/timeline.md,
 * "Surroundings"): sysfs, udev, hwdb and, with --libinput, the quirks. */
static void
gather_surroundings(struct tt_recorder *r, char **paths)
{
	for (size_t i = 0; i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		struct stat st;

		d->sur = tt_sur_holder_new(tt_capture_device(d->capture));
		if (fstat(tt_capture_fd(d->capture), &st) == 0 && S_ISCHR(st.st_mode))
			tt_sur_gather_device(&tt_sur_host_roots, st.st_rdev,
					     r->opts.with_serials ? TT_SUR_WITH_SERIALS : 0, d->sur);
		if (r->opts.quirks)
			gather_quirks(r, d, paths[i]);
	}
}

/* The HID device already opened for another evdev device of it. */
static struct rec_hid *
hid_by_syspath(struct tt_recorder *r, const char *syspath)
{
	for (size_t i = 0; i < r->nhids; i++)
		if (strcmp(r->hids[i]->syspath, syspath) == 0)
			return r->hids[i];
	return NULL;
}

/* The parsed descriptor of @dev when it declares private keys, else NULL. */
static struct tt_hid_desc *
private_keys(const struct tt_hid_device *dev)
{
	struct tt_hid_desc *d = NULL;

	if (tt_hid_desc_parse(dev->descriptor, dev->descriptor_len, &d, NULL) < 0)
		return NULL;
	if (!tt_hid_desc_has_private_keys(d)) {
		tt_hid_desc_free(d);
		return NULL;
	}
	return d;
}

static int
open_hid(struct tt_recorder *r, const struct tt_hidraw_location *loc, struct rec_hid **out)
{
	_cleanup_free_ char *why = NULL;
	struct tt_hidraw *hidraw;
	struct rec_hid *h;
	int rc;

	rc = tt_hidraw_open(loc->hidraw_node, (uint32_t)r->nhids, loc, &hidraw);
	if (rc < 0)
		return rc;
	h = tt_zalloc(sizeof(*h));
	if (tt_hidraw_read_features(hidraw, &why) < 0) {
		h->unmaskable = !(r->opts.capture_flags & TT_CAPTURE_SHOW_KEYCODES);
		tt_warning("%s: its report descriptor does not parse (%s); no feature reports read%s",
			   loc->hidraw_node, why ? why : "malformed",
			   h->unmaskable ? ", and no input reports (their keys could not be masked; "
					   "--show-keycodes records them)" : "");
	} else if (!(r->opts.capture_flags & TT_CAPTURE_SHOW_KEYCODES)) {
		h->keys = private_keys(tt_hidraw_device(hidraw));
	}
	h->r = r;
	h->hidraw = hidraw;
	h->syspath = tt_strdup(loc->hid_syspath);
	h->node = tt_strdup(loc->hidraw_node);
	r->hids = tt_reallocarray(r->hids, r->nhids + 1, sizeof(*r->hids));
	r->hids[r->nhids++] = h;
	*out = h;
	return 0;
}

/* The note and message for an evdev device whose HID layer is not
 * recorded; said once, however many evdev devices it concerns. */
static void
explain_no_hid(struct tt_recorder *r, struct rec_device *d, const char *hidraw, int error)
{
	char text[256];

	if (error == -ENOENT)
		snprintf(text, sizeof(text), "%s: no HID device behind it (PS/2, serial, virtual "
			 "or uinput): no HID layer to record", d->node);
	else if (error == -ENXIO)
		snprintf(text, sizeof(text), "%s: its HID device has no hidraw node (is the "
			 "hidraw module loaded?): no HID layer recorded", d->node);
	else if (error == -EACCES || error == -EPERM)
		snprintf(text, sizeof(text), "%s: permission denied: reading hidraw needs root; "
			 "its HID layer is not recorded, evdev is", hidraw);
	else
		snprintf(text, sizeof(text), "%s: %s: its HID layer is not recorded, evdev is",
			 hidraw ? hidraw : d->node, strerror(-error));
	d->hid_note = tt_strdup(text);
	for (struct rec_device *o = r->devs; o < d; o++)
		if (o->hid_note && strcmp(o->hid_note, text) == 0)
			return;
	if (error == -ENOENT)
		tt_info("%s", text);
	else
		tt_warning("%s", text);
}

/* --hid: the hidraw node of @d's HID device, opened once per HID device. */
static void
attach_hid(struct tt_recorder *r, struct rec_device *d)
{
	struct tt_hidraw_location loc = { 0 };
	struct rec_hid *h = NULL;
	struct stat st;
	int rc;

	rc = fstat(tt_capture_fd(d->capture), &st) < 0 ? -errno :
	     tt_hidraw_find("/sys", st.st_rdev, &loc);
	if (rc >= 0 && !(h = hid_by_syspath(r, loc.hid_syspath)))
		rc = open_hid(r, &loc, &h);
	if (rc >= 0) {
		d->hid = h;
		tt_hidraw_add_evdev(h->hidraw, tt_capture_device(d->capture)->id);
	} else {
		explain_no_hid(r, d, loc.hidraw_node, rc);
	}
	tt_hidraw_location_clear(&loc);
}

static int
add_hid_sources(struct tt_recorder *r)
{
	for (size_t i = 0; i < r->nhids; i++) {
		struct rec_hid *h = r->hids[i];
		h->source = tt_loop_add(r->loop, tt_hidraw_fd(h->hidraw), on_hid, h);
		if (!h->source)
			return -errno;
	}
	return 0;
}

static int
add_sources(struct tt_recorder *r)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	int rc;

	rc = tt_loop_add_signals(r->loop, signals, (int)ARRAY_LENGTH(signals), on_signal, r);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		d->source = tt_loop_add(r->loop, tt_capture_fd(d->capture), on_device, d);
		if (!d->source)
			return -errno;
		r->nactive++;
	}
	rc = add_hid_sources(r);
	if (rc < 0)
		return rc;
	if (r->opts.duration_us) {
		r->duration_timer = tt_loop_add_timer(r->loop, on_duration, r);
		if (!r->duration_timer)
			return -errno;
	}
	if (r->opts.autorestart_us) {
		r->idle_timer = tt_loop_add_timer(r->loop, on_idle, r);
		if (!r->idle_timer)
			return -errno;
	}
	return 0;
}

int
tt_recorder_new(const struct tt_recorder_options *opts, char **paths, size_t npaths,
		struct tt_recorder **out)
{
	_cleanup_(tt_recorder_freep) struct tt_recorder *r = tt_zalloc(sizeof(*r));
	struct tt_header h;
	int rc;

	r->opts = *opts;
	r->fd = -1;
	r->loop = tt_loop_new();
	if (!r->loop)
		return -errno;

	/* The clock starts before the devices are opened, so no event they
	 * queue can be older than time 0. */
	tt_header_init_now(&h);
	rc = open_devices(r, paths, npaths);
	if (rc >= 0)
		gather_surroundings(r, paths);
	for (size_t i = 0; rc >= 0 && opts->hid && i < r->ndevs; i++)
		attach_hid(r, &r->devs[i]);
	if (rc >= 0 && (rc = add_sources(r)) < 0)
		tt_error("setting up the event loop: %s", strerror(-rc));
	if (rc >= 0)
		rc = open_output(r);
	if (rc >= 0)
		rc = write_preamble(r, &h);
	r->first_start_us = h.start_monotonic_us;
	tt_header_clear(&h);
	if (rc < 0)
		return rc;
	if (r->duration_timer &&
	    (rc = tt_loop_timer_set(r->duration_timer, r->start_us + opts->duration_us)) < 0)
		return rc;
	*out = steal(&r);
	return 0;
}

static void
print_summary(struct tt_recorder *r)
{
	char secs[32];

	tt_format_time(secs, sizeof(secs), tt_now_us(CLOCK_MONOTONIC) - r->first_start_us);
	tt_info("stopped (%s) after %s s; %" PRIu64 " frames in %s%s", r->stop_reason, secs,
		r->total_frames, output_name(r),
		r->file_index ? " (and the files before it)" : "");
	for (size_t i = 0; i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		const struct tt_device *dev = tt_capture_device(d->capture);
		fprintf(stderr, "  %s  %s: %zu frames, %zu events, %zu SYN_DROPPED%s\n", d->node,
			dev->name, tt_capture_nframes(d->capture), tt_capture_nevents(d->capture),
			tt_capture_drops(d->capture), d->source ? "" : " (removed)");
	}
	for (size_t i = 0; i < r->nhids; i++) {
		struct rec_hid *h = r->hids[i];
		const struct tt_hid_device *dev = tt_hidraw_device(h->hidraw);
		fprintf(stderr, "  %s  %s: %zu input reports, %u feature reports%s\n", h->node,
			dev->name, tt_hidraw_nreports(h->hidraw), dev->nfeatures,
			h->source ? "" : " (removed)");
	}
}

int
tt_recorder_run(struct tt_recorder *r)
{
	int rc;

	if (!r->opts.quiet)
		tt_info("recording %zu device%s to %s; press Ctrl-C (or send SIGINT/SIGTERM) to stop",
			r->ndevs, r->ndevs == 1 ? "" : "s", output_name(r));
	rc = tt_loop_run(r->loop);
	if (rc < 0 && !r->stopped) {
		tt_error("event loop: %s", strerror(-rc));
		tt_recorder_stop(r, "error", TT_EXIT_FAILURE_STATUS);
	}
	if (!r->stop_reason)
		r->stop_reason = "end";
	/* What the devices queued before the stop belongs in the file: a
	 * signal may have been handled before a device's pending input in the
	 * same epoll batch. (Not after --frames N, which wants N frames.) */
	r->draining = strcmp(r->stop_reason, "frames") != 0;
	for (size_t i = 0; r->draining && !r->write_error && i < r->nhids; i++)
		drain_hid(r, r->hids[i]);
	for (size_t i = 0; r->draining && !r->write_error && i < r->ndevs; i++) {
		struct rec_device *d = &r->devs[i];
		int drc = d->source ? tt_capture_dispatch(d->capture, r->start_us, on_frame, d) : 0;
		if (drc < 0 && !r->write_error)
			device_gone(r, d, drc);
	}
	if (r->drain && r->draining && !r->write_error)
		r->drain(r->drain_data);
	if (!r->write_error)
		write_epilogue(r, r->stop_reason);
	if (!r->opts.quiet)
		print_summary(r);
	return r->status;
}

void
tt_recorder_poll_devices(struct tt_recorder *r)
{
	for (size_t i = 0; i < r->ndevs && !r->stopped; i++) {
		if (r->devs[i].source)
			on_device(r->loop, r->devs[i].source, 0, &r->devs[i]);
	}
}

void
tt_recorder_set_drain(struct tt_recorder *r, void (*fn)(void *userdata), void *userdata)
{
	r->drain = fn;
	r->drain_data = userdata;
}

struct tt_loop *
tt_recorder_loop(struct tt_recorder *r)
{
	return r->loop;
}

struct tt_writer *
tt_recorder_writer(struct tt_recorder *r)
{
	return r->writer;
}

int64_t
tt_recorder_start_us(const struct tt_recorder *r)
{
	return r->start_us;
}

void
tt_recorder_free(struct tt_recorder *r)
{
	if (!r)
		return;
	close_output(r);
	for (size_t i = 0; i < r->ndevs; i++) {
		tt_capture_free(r->devs[i].capture);
		free(r->devs[i].node);
		free(r->devs[i].hid_note);
		tt_device_free(r->devs[i].sur);
	}
	free(r->devs);
	for (size_t i = 0; i < r->nhids; i++) {
		tt_hidraw_free(r->hids[i]->hidraw);
		tt_hid_desc_free(r->hids[i]->keys);
		free(r->hids[i]->syspath);
		free(r->hids[i]->node);
		free(r->hids[i]);
	}
	free(r->hids);
	free(r->path);
	free(r->quirks_note);
	tt_loop_free(r->loop);
	free(r);
}
