/* SPDX-License-Identifier: MIT */
/*
 * What the export back ends (formats/evemu-writer.c,
 * formats/libinput-writer.c, formats/hidrec-writer.c) share with formats/export.c: the ops table
 * and the state of an export. Nothing outside formats/ includes this;
 * commands use export.h.
 */
#pragma once

#include "export.h"

/* A back end leaves NULL what its format cannot hold; the record is then
 * counted in the stats. */
struct tt_export_ops {
	int (*header)(struct tt_export *e, const struct tt_header *h);
	int (*device)(struct tt_export *e, const struct tt_device *dev);
	int (*frame)(struct tt_export *e, const struct tt_frame *f);
	int (*marker)(struct tt_export *e, const struct tt_marker *m);
	int (*hid_device)(struct tt_export *e, const struct tt_hid_device *dev);
	int (*hid_report)(struct tt_export *e, const struct tt_hid_report *rep);
	int (*finish)(struct tt_export *e);
	void (*destroy)(struct tt_export *e);
	/* Holds devices' surroundings (udev properties, quirks) and the
	 * header's system; a back end that keeps only part counts
	 * stats.surroundings itself. */
	bool surroundings;
};

struct tt_export {
	const struct tt_export_ops *ops;
	int fd;
	const char *format_name;	/* as in tt_header.source_format */
	FILE *out;			/* buffered over fd */
	void *priv;
	struct tt_export_stats stats;
	bool have_filter;
	uint32_t filter;
	int64_t base_us;		/* added to every time written */
	char *kernel;
	char *tool;
	char *source_format;
	int error;			/* first write error, sticky */
};

int evemu_export_init(struct tt_export *e);
int libinput_export_init(struct tt_export *e);
int hidrec_export_init(struct tt_export *e);

/* The time an event of @f happened, in the target's clock. */
uint64_t export_event_time(struct tt_export *e, const struct tt_frame *f, uint32_t i);
