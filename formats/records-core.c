/* SPDX-License-Identifier: MIT */
/* The timeline's own records: the header and markers (lib/model/record-layer.h). */
#include "config.h"

#include <string.h>

#include "export-private.h"
#include "privacy-private.h"
#include "record-layer.h"
#include "timeline-reader-private.h"
#include "util-strings.h"
#include "writer.h"

static int
write_header(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_header(w, rec->header);
}

static int
write_marker(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_marker(w, rec->marker);
}

static int
export_header(struct tt_export *e, const struct tt_record *rec)
{
	const struct tt_header *h = rec->header;

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

/* Written as comments where the format has them, and counted. */
static int
export_marker(struct tt_export *e, const struct tt_record *rec)
{
	if (e->have_filter && rec->marker->device >= 0 && rec->marker->device != e->filter)
		return 0;
	e->stats.markers++;
	return e->ops->marker ? e->ops->marker(e, rec->marker) : 0;
}

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_HEADER,
		.write = write_header,
		.export = export_header,
		.privacy_check = privacy_check_header,
		.privacy_redact = privacy_redact_header,
	},
	{
		.type = TT_RECORD_MARKER,
		.name = "marker",
		.parse = timeline_parse_marker,
		.write = write_marker,
		.export = export_marker,
	},
};

const struct tt_record_layer tt_core_records = { "core", kinds, ARRAY_LENGTH(kinds) };
