/* SPDX-License-Identifier: MIT */
/* The Wayland layer's records: the events a client received
 * (lib/model/record-layer.h). evemu and libinput record have no Wayland
 * layer: export leaves them out. */
#include "config.h"

#include "record-layer.h"
#include "timeline-wl.h"
#include "writer.h"

static int
write_wl_event(struct tt_writer *w, const struct tt_record *rec)
{
	return tt_writer_wl_event(w, rec->wl_event);
}

static const struct tt_record_kind kinds[] = {
	{
		.type = TT_RECORD_WL_EVENT,
		.name = "wl",
		.parse = timeline_parse_wl_event,
		.write = write_wl_event,
	},
};

const struct tt_record_layer tt_wl_records = { "wayland", kinds, ARRAY_LENGTH(kinds) };
