/* SPDX-License-Identifier: MIT */
/* The libinput layer's records: its view of devices and its events
 * (lib/model/record-layer.h). */
#include "config.h"

#include "checker-private.h"
#include "export-private.h"
#include "record-layer.h"
#include "timeline-reader-private.h"
#include "writer.h"

static int
write_li_device(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_li_device(w, rec->li_device);
}

static int
write_li_event(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_li_event(w, rec->li_event);
}

/* No writer puts libinput's events back (yet): counted, to say so. */
static int
export_li(struct tt_export *e, const struct tt_record *rec)
{
	(void)rec;
	e->stats.li_records++;
	return 0;
}

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_LI_DEVICE,
		.name = "li_device",
		.parse = timeline_parse_li_device,
		.write = write_li_device,
		.export = export_li,
	},
	{
		.type = TT_RECORD_LI_EVENT,
		.name = "li",
		.parse = timeline_parse_li_event,
		.write = write_li_event,
		.export = export_li,
		.check = checker_li_event,
	},
};

const struct tt_record_layer tt_li_records = { "libinput", kinds, ARRAY_LENGTH(kinds) };
