/* SPDX-License-Identifier: MIT */
/* The kernel's evdev records: devices and their frames (lib/model/record-layer.h). */
#include "config.h"

#include "checker-private.h"
#include "export-private.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "timeline-reader-private.h"
#include "writer.h"

static int
write_device(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_device(w, rec->device);
}

static int
write_frame(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_frame(w, rec->frame);
}

/* Written, or counted as left out where the format has no evdev devices
 * (hid-recorder). */
static int
export_device(struct tt_export *e, const struct tt_record *rec)
{
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

static int
export_frame(struct tt_export *e, const struct tt_record *rec)
{
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

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_DEVICE,
		.name = "device",
		.parse = timeline_parse_device,
		.write = write_device,
		.export = export_device,
		.privacy_check = privacy_check_device,
		.privacy_redact = privacy_redact_device,
		.check = checker_device,
	},
	{
		.type = TT_RECORD_FRAME,
		.name = "frame",
		.parse = timeline_parse_frame,
		.write = write_frame,
		.export = export_frame,
		.privacy_check = privacy_check_frame,
		.privacy_redact = privacy_redact_frame,
		.check = checker_frame,
	},
};

const struct tt_record_layer tt_evdev_records = { "evdev", kinds, ARRAY_LENGTH(kinds) };
