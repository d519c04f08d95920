/* SPDX-License-Identifier: MIT */
/* The HID layer's records: its devices and input reports (lib/model/record-layer.h). */
#include "config.h"

#include "checker-private.h"
#include "export-private.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "timeline-hid.h"
#include "writer.h"

static int
write_hid_device(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_hid_device(w, rec->hid_device);
}

static int
write_hid_report(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_hid_report(w, rec->hid_report);
}

/* Written, or counted where the format has no HID layer. */
static int
export_hid_device(struct tt_export *e, const struct tt_record *rec)
{
	if (!e->ops->hid_device) {
		e->stats.hid_devices++;
		return 0;
	}
	return e->ops->hid_device(e, rec->hid_device);
}

static int
export_hid_report(struct tt_export *e, const struct tt_record *rec)
{
	if (!e->ops->hid_report) {
		e->stats.hid_reports++;
		return 0;
	}
	return e->ops->hid_report(e, rec->hid_report);
}

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_HID_DEVICE,
		.name = "hid_device",
		.parse = timeline_parse_hid_device,
		.write = write_hid_device,
		.export = export_hid_device,
		.privacy_check = privacy_check_hid_device,
		.privacy_redact = privacy_redact_hid_device,
		.check = checker_hid_device,
	},
	{
		.type = TT_RECORD_HID_REPORT,
		.name = "hid",
		.parse = timeline_parse_hid_report,
		.write = write_hid_report,
		.export = export_hid_report,
		.privacy_check = privacy_check_hid_report,
		.privacy_redact = privacy_redact_hid_report,
		.check = checker_hid_report,
	},
};

const struct tt_record_layer tt_hid_records = { "hid", kinds, ARRAY_LENGTH(kinds) };
