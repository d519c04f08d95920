/* SPDX-License-Identifier: MIT */
/* The XInput 2 layer's records: its devices and events (lib/model/record-layer.h). */
#include "config.h"

#include "checker-private.h"
#include "export-private.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "timeline-reader-private.h"
#include "writer.h"

static int
write_xi_device(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_xi_device(w, rec->xi_device);
}

static int
write_xi_event(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_xi_event(w, rec->xi_event);
}

/* No foreign format has an XI layer: counted, to say so. */
static int
export_xi_device(struct tt_export *e, const struct tt_record *rec)
{
	(void)rec;
	e->stats.xi_devices++;
	return 0;
}

static int
export_xi_event(struct tt_export *e, const struct tt_record *rec)
{
	(void)rec;
	e->stats.xi_events++;
	return 0;
}

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_XI_DEVICE,
		.name = "xi_device",
		.parse = timeline_parse_xi_device,
		.write = write_xi_device,
		.export = export_xi_device,
		.privacy_check = privacy_check_xi_device,
		.privacy_redact = privacy_redact_xi_device,
		.check = checker_xi_device,
	},
	{
		.type = TT_RECORD_XI_EVENT,
		.name = "xi",
		.parse = timeline_parse_xi_event,
		.write = write_xi_event,
		.export = export_xi_event,
		.check = checker_xi_event,
	},
};

const struct tt_record_layer tt_xi_records = { "xi", kinds, ARRAY_LENGTH(kinds) };
