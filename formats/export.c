/* SPDX-License-Identifier: MIT */
/* What the evemu, libinput-record and hid-recorder writers share:
 * dispatch, the time base, and the count of what a format cannot hold. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export-private.h"

static const struct {
	enum tt_file_format format;
	const char *name;	/* as in tt_header.source_format */
	int (*init)(struct tt_export *e);
} backends[] = {
	{ TT_FORMAT_EVEMU, "evemu", evemu_export_init },
	{ TT_FORMAT_LIBINPUT, "libinput-record", libinput_export_init },
	{ TT_FORMAT_HID_RECORDER, "hid-recorder", hidrec_export_init },
};

int
tt_export_new(enum tt_file_format format, int fd, struct tt_export **out)
{
	struct tt_export *e;
	size_t b = 0;
	int dupfd;
	int rc;

	while (b < ARRAY_LENGTH(backends) && backends[b].format != format)
		b++;
	if (b == ARRAY_LENGTH(backends))
		return -EINVAL;
	dupfd = dup(fd);
	if (dupfd < 0)
		return -errno;
	e = tt_zalloc(sizeof(*e));
	e->fd = fd;
	e->format_name = backends[b].name;
	e->out = fdopen(dupfd, "w");
	if (!e->out) {
		rc = -errno;
		close(dupfd);
		free(e);
		return rc;
	}
	rc = backends[b].init(e);
	if (rc < 0) {
		tt_export_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void
tt_export_set_device(struct tt_export *e, uint32_t id)
{
	e->have_filter = true;
	e->filter = id;
}

static int
check_io(struct tt_export *e)
{
	if (!e->error && ferror(e->out))
		e->error = errno ? -errno : -EIO;
	return e->error;
}

static int
export_header(struct tt_export *e, const struct tt_header *h)
{
	free(e->kernel);
	free(e->tool);
	free(e->source_format);
	e->kernel = h->kernel ? tt_strdup(h->kernel) : NULL;
	e->tool = h->tool ? tt_strdup(h->tool) : NULL;
	e->source_format = h->source_format ? tt_strdup(h->source_format) : NULL;
	/* A file converted back to its own format keeps its clock
	 * (evemu's epoch timestamps); otherwise times count from the
	 * start of the recording, as evemu-record and libinput
	 * record write them. */
	e->base_us = 0;
	e->stats.system = !e->ops->surroundings && tt_header_has_system(h);
	if (h->source_format && strcmp(h->source_format, e->format_name) == 0)
		e->base_us = h->start_realtime_us ? h->start_realtime_us : h->start_monotonic_us;
	return e->ops->header ? e->ops->header(e, h) : 0;
}

/* The evdev layer: written, or counted as left out where the format
 * has none (hid-recorder). */
static int
export_evdev(struct tt_export *e, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_DEVICE) {
		if (e->have_filter && rec->device->id != e->filter)
			return 0;
		if (!e->ops->device) {
			e->stats.devices_skipped++;
			return 0;
		}
		size_t written = e->stats.devices_written;
		int rc = e->ops->device(e, rec->device);
		if (e->stats.devices_written > written && !e->ops->surroundings &&
		    tt_device_has_surroundings(rec->device))
			e->stats.surroundings++;
		return rc;
	}
	if (e->have_filter && rec->frame->device != e->filter)
		return 0;
	if (!e->ops->frame) {
		e->stats.frames_skipped++;
		return 0;
	}
	if (rec->frame->flags)
		e->stats.frame_flags++;
	return e->ops->frame(e, rec->frame);
}

/* The HID layer: written, or counted where the format has none. */
static int
export_hid(struct tt_export *e, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_HID_DEVICE) {
		if (!e->ops->hid_device) {
			e->stats.hid_devices++;
			return 0;
		}
		return e->ops->hid_device(e, rec->hid_device);
	}
	if (!e->ops->hid_report) {
		e->stats.hid_reports++;
		return 0;
	}
	return e->ops->hid_report(e, rec->hid_report);
}

int
tt_export_record(struct tt_export *e, const struct tt_record *rec)
{
	int rc = 0;

	if (e->error)
		return e->error;
	switch (rec->type) {
	case TT_RECORD_HEADER:
		rc = export_header(e, rec->header);
		break;
	case TT_RECORD_DEVICE:
	case TT_RECORD_FRAME:
		rc = export_evdev(e, rec);
		break;
	case TT_RECORD_XI_DEVICE:
		e->stats.xi_devices++;
		break;
	case TT_RECORD_XI_EVENT:
		e->stats.xi_events++;
		break;
	case TT_RECORD_MARKER:
		if (e->have_filter && rec->marker->device >= 0 && rec->marker->device != e->filter)
			break;
		e->stats.markers++;
		rc = e->ops->marker ? e->ops->marker(e, rec->marker) : 0;
		break;
	case TT_RECORD_HID_DEVICE:
	case TT_RECORD_HID_REPORT:
		rc = export_hid(e, rec);
		break;
	case TT_RECORD_LI_DEVICE:
	case TT_RECORD_LI_EVENT:
		e->stats.li_records++;	/* no writer puts libinput's events back (yet) */
		break;
	case TT_RECORD_WL_EVENT:
		break;	/* evemu and libinput record have no Wayland layer */
	}
	if (rc < 0 && !e->error)
		e->error = rc;
	return rc < 0 ? rc : check_io(e);
}

int
tt_export_finish(struct tt_export *e)
{
	int rc;

	if (e->error)
		return e->error;
	rc = e->ops->finish ? e->ops->finish(e) : 0;
	if (rc < 0)
		return e->error = rc;
	if (fflush(e->out) != 0 && !e->error)
		e->error = -errno;
	return check_io(e);
}

const struct tt_export_stats *
tt_export_stats(const struct tt_export *e)
{
	return &e->stats;
}

void
tt_export_free(struct tt_export *e)
{
	if (!e)
		return;
	if (e->ops && e->ops->destroy)
		e->ops->destroy(e);
	if (e->out)
		fclose(e->out);
	free(e->kernel);
	free(e->tool);
	free(e->source_format);
	free(e);
}

uint64_t
export_event_time(struct tt_export *e, const struct tt_frame *f, uint32_t i)
{
	int64_t t = e->base_us + f->time_us + f->events[i].dt_us;

	if (t < 0) {
		e->stats.times_clamped++;
		return 0;
	}
	return (uint64_t)t;
}
