/* SPDX-License-Identifier: MIT */
/* The evdev devices as a capture source of the recorder. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "evdev-source.h"
#include "hidraw-source.h"
#include "input-devices.h"
#include "log.h"
#include "surroundings.h"
#include "util-strings.h"

struct rec_device {
	struct tt_evdev_source *es;
	struct tt_capture *capture;
	struct tt_loop_source *source;	/* NULL once removed */
	char *node;
	size_t drops_at_file_start;
	struct tt_device *sur;	/* its surroundings (tt_sur_holder_new()) */
};

struct tt_evdev_source {
	struct tt_evdev_source_options opts;
	const struct tt_source_ctx *ctx;
	struct rec_device *devs;
	size_t ndevs;
	size_t nactive;
	struct tt_hid_source *hid;	/* --hid, or NULL */
	char *quirks_note;	/* why no quirks were recorded, for a marker */
};

/* The device record as written: the capture's description and state,
 * with the surroundings gathered at the start and without serials or
 * addresses unless asked. */
static int
write_device(struct tt_evdev_source *es, struct rec_device *d)
{
	struct tt_device dev = *tt_capture_device(d->capture);
	_cleanup_free_ char *phys = tt_sur_private_phys(es->opts.with_serials, &dev.phys);

	tt_sur_lend(&dev, d->sur, es->opts.with_serials ? TT_SUR_WITH_SERIALS : 0);
	return es->ctx->check(es->ctx->host, tt_writer_device(es->ctx->writer, &dev));
}

static int
begin_file(void *data)
{
	struct tt_evdev_source *es = data;
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < es->ndevs; i++) {
		struct rec_device *d = &es->devs[i];
		if (!d->source)
			continue;
		d->drops_at_file_start = tt_capture_drops(d->capture);
		rc = write_device(es, d);
	}
	return rc;
}

static int
notes(void *data)
{
	struct tt_evdev_source *es = data;

	if (!es->quirks_note)
		return 0;
	return tt_source_marker(es->ctx, TT_MARKER_NOTE, -1, es->quirks_note);
}

/* The drops summary of the file. */
static void
end_file(void *data)
{
	struct tt_evdev_source *es = data;

	for (size_t i = 0; i < es->ndevs; i++) {
		struct rec_device *d = &es->devs[i];
		size_t drops = tt_capture_drops(d->capture) - d->drops_at_file_start;
		char text[128];

		if (!drops)
			continue;
		snprintf(text, sizeof(text),
			 "%zu SYN_DROPPED; %zu events discarded behind them, resynced", drops,
			 tt_capture_discarded(d->capture));
		tt_source_marker(es->ctx, TT_MARKER_DROPS, tt_capture_device(d->capture)->id, text);
	}
}

static void
refresh(void *data)
{
	struct tt_evdev_source *es = data;

	for (size_t i = 0; i < es->ndevs; i++)
		if (es->devs[i].source)
			tt_capture_refresh(es->devs[i].capture);
}

static size_t
ndevices(const void *data)
{
	const struct tt_evdev_source *es = data;

	return es->nactive;
}

static int
on_frame(void *userdata, const struct tt_frame *frame)
{
	struct rec_device *d = userdata;
	const struct tt_source_ctx *ctx = d->es->ctx;

	return ctx->frame(ctx->host, frame);
}

static void
device_gone(struct tt_evdev_source *es, struct rec_device *d, int error)
{
	const struct tt_source_ctx *ctx = es->ctx;
	const struct tt_device *dev = tt_capture_device(d->capture);
	char text[128];

	if (error == -ENODEV)
		snprintf(text, sizeof(text), "%s removed", d->node);
	else
		snprintf(text, sizeof(text), "%s: %s", d->node, strerror(-error));
	if (error != -ENODEV)
		tt_warning("%s: %s; the other devices keep recording", d->node, strerror(-error));
	else if (!es->opts.quiet)
		tt_info("%s (%s) was removed%s", d->node, dev->name,
			es->nactive > 1 ? "; the other devices keep recording" : "");
	tt_loop_remove(ctx->loop, d->source);
	d->source = NULL;
	es->nactive--;
	tt_source_marker(ctx, TT_MARKER_DEVICE_REMOVED, dev->id, text);
	if (es->nactive == 0)
		ctx->stop(ctx->host, "all devices removed", error == -ENODEV ? 0 : 1);
}

/* Reads what @d has queued and writes it, frame by frame. */
static void
read_device(struct tt_evdev_source *es, struct rec_device *d)
{
	int rc = tt_capture_dispatch(d->capture, es->ctx->start_us, on_frame, d);

	if (rc < 0 && !es->ctx->write_error)
		device_gone(es, d, rc);
}

static void
on_device(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct rec_device *d = userdata;

	(void)loop;
	(void)source;
	(void)events;
	/* The HID core queues a report on hidraw before the driver makes
	 * evdev events of it: reading hidraw first puts the report in the
	 * file before the frames it produced. */
	tt_hid_source_read_for(d->es->hid, (size_t)(d - d->es->devs));
	read_device(d->es, d);
}

/* Before a layer above writes: every device's pending frames. */
static void
poll(void *data)
{
	struct tt_evdev_source *es = data;

	for (size_t i = 0; i < es->ndevs && !es->ctx->stopped; i++)
		if (es->devs[i].source)
			on_device(es->ctx->loop, es->devs[i].source, 0, &es->devs[i]);
}

/* What the devices queued before the stop belongs in the file: a signal
 * may have been handled before a device's pending input in the same
 * epoll batch. The HID reports first, as on_device() reads them. */
static void
drain(void *data)
{
	struct tt_evdev_source *es = data;

	tt_hid_source_read_all(es->hid);
	for (size_t i = 0; !es->ctx->write_error && i < es->ndevs; i++)
		if (es->devs[i].source)
			read_device(es, &es->devs[i]);
}

static void
summary(const void *data)
{
	const struct tt_evdev_source *es = data;

	for (size_t i = 0; i < es->ndevs; i++) {
		const struct rec_device *d = &es->devs[i];
		const struct tt_device *dev = tt_capture_device(d->capture);
		fprintf(stderr, "  %s  %s: %zu frames, %zu events, %zu SYN_DROPPED%s\n", d->node,
			dev->name, tt_capture_nframes(d->capture), tt_capture_nevents(d->capture),
			tt_capture_drops(d->capture), d->source ? "" : " (removed)");
	}
}

static int
start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_evdev_source *es = data;

	es->ctx = ctx;
	for (size_t i = 0; i < es->ndevs; i++) {
		struct rec_device *d = &es->devs[i];
		d->source = tt_loop_add(ctx->loop, tt_capture_fd(d->capture), on_device, d);
		if (!d->source) {
			int rc = -errno;
			tt_error("setting up the event loop: %s", strerror(-rc));
			return rc;
		}
		es->nactive++;
	}
	return 0;
}

static void
source_free(void *data)
{
	tt_evdev_source_free(data);
}

const struct tt_source_ops tt_evdev_source_ops = {
	.name = "evdev",
	.start = start,
	.ndevices = ndevices,
	.refresh = refresh,
	.begin_file = begin_file,
	.notes = notes,
	.end_file = end_file,
	.poll = poll,
	.drain = drain,
	.summary = summary,
	.free = source_free,
};

static int
open_devices(struct tt_evdev_source *es, char *const *paths, size_t npaths)
{
	if (npaths == 0)
		return 0;
	es->devs = tt_reallocarray(NULL, npaths, sizeof(*es->devs));
	for (size_t i = 0; i < npaths; i++) {
		struct rec_device *d = &es->devs[i];
		int rc;

		memset(d, 0, sizeof(*d));
		d->es = es;
		d->node = tt_str_sanitize(paths[i], strlen(paths[i]), 256);
		rc = tt_capture_open(paths[i], (uint32_t)i, es->opts.capture_flags, &d->capture);
		if (rc < 0) {
			if (rc == -EBUSY)
				tt_error("%s: another program has grabbed this device; "
					 "--grab cannot take it over", d->node);
			else
				tt_input_open_error(d->node, rc);
			d->capture = NULL;
			es->ndevs = i + 1;
			return rc;
		}
		es->ndevs = i + 1;
	}
	return 0;
}

/* --libinput: which quirks libinput matches; a missing tool is said once,
 * and the recording goes on without them. */
static void
gather_quirks(struct tt_evdev_source *es, struct rec_device *d, const char *path)
{
	int rc;

	if (es->quirks_note)
		return;
	rc = tt_sur_gather_quirks("libinput", path, d->sur);
	if (rc == -ENOENT) {
		es->quirks_note = tt_strdup("libinput quirks list is not available (install libinput-tools); "
					    "the libinput quirks are not recorded");
		tt_warning("%s", es->quirks_note);
	} else if (rc < 0) {
		tt_warning("%s: libinput quirks list failed; its quirks are not recorded", d->node);
	}
}

/* What the system says of each device (formats/timeline.md,
 * "Surroundings"): sysfs, udev, hwdb and, with --libinput, the quirks. */
static void
gather_surroundings(struct tt_evdev_source *es, char *const *paths)
{
	for (size_t i = 0; i < es->ndevs; i++) {
		struct rec_device *d = &es->devs[i];
		struct stat st;

		d->sur = tt_sur_holder_new(tt_capture_device(d->capture));
		if (fstat(tt_capture_fd(d->capture), &st) == 0 && S_ISCHR(st.st_mode))
			tt_sur_gather_device(&tt_sur_host_roots, st.st_rdev,
					     es->opts.with_serials ? TT_SUR_WITH_SERIALS : 0, d->sur);
		if (es->opts.quirks)
			gather_quirks(es, d, paths[i]);
	}
}

int
tt_evdev_source_new(const struct tt_evdev_source_options *opts, char *const *paths,
		    size_t npaths, struct tt_evdev_source **out)
{
	_cleanup_(tt_evdev_source_freep) struct tt_evdev_source *es = tt_zalloc(sizeof(*es));
	int rc;

	es->opts = *opts;
	rc = open_devices(es, paths, npaths);
	if (rc < 0)
		return rc;
	gather_surroundings(es, paths);
	*out = steal(&es);
	return 0;
}

size_t
tt_evdev_source_count(const struct tt_evdev_source *es)
{
	return es->ndevs;
}

const struct tt_capture *
tt_evdev_source_capture(const struct tt_evdev_source *es, size_t i)
{
	return es->devs[i].capture;
}

const char *
tt_evdev_source_node(const struct tt_evdev_source *es, size_t i)
{
	return es->devs[i].node;
}

bool
tt_evdev_source_active(const struct tt_evdev_source *es, size_t i)
{
	return es->devs[i].source != NULL;
}

void
tt_evdev_source_set_hid(struct tt_evdev_source *es, struct tt_hid_source *hid)
{
	es->hid = hid;
}

void
tt_evdev_source_free(struct tt_evdev_source *es)
{
	if (!es)
		return;
	for (size_t i = 0; i < es->ndevs; i++) {
		struct rec_device *d = &es->devs[i];
		if (d->source)
			tt_loop_remove(es->ctx->loop, d->source);
		tt_capture_free(d->capture);
		free(d->node);
		tt_device_free(d->sur);
	}
	free(es->devs);
	free(es->quirks_note);
	free(es);
}
