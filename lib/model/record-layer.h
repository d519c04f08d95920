/* SPDX-License-Identifier: MIT */
/*
 * The record types of the timeline, by layer: what the library does with
 * each record is written once, in the layer's list of its record kinds,
 * and the reader, the writer, the foreign-format export, the privacy
 * check and the semantic checker look a record's kind up here instead of
 * switching over record types.
 *
 * A layer (declared below, listed in lib/model/record-layers.c) names
 * its record kinds; each kind points at the functions of the library's
 * parts for it. A function left NULL means that part has nothing to do
 * with the kind.
 * Every function is a library function: nothing here reaches a command.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "timeline.h"

struct jerr;
struct json_object;
struct tt_checker;
struct tt_export;
struct tt_privacy;
struct tt_reader;
struct tt_writer;
struct privacy_finder;

struct tt_record_kind {
	enum tt_record_type type;
	/* Its "type" in the timeline (formats/timeline.md); NULL for the
	 * header, which is the first line whatever it says. */
	const char *name;
	/* formats/timeline-reader-private.h: fills @rec from its line, 0 or
	 * -EINVAL with the reason in @err. */
	int (*parse)(struct tt_reader *r, struct json_object *o, struct tt_record *rec,
		     struct jerr *err);
	/* formats/writer.h: writes @rec as a timeline line, 0 or a negative errno. */
	int (*write)(struct tt_writer *w, const struct tt_record *rec);
	/* formats/export-private.h: writes or counts @rec in a foreign
	 * format, 0 or a negative errno. NULL: nothing to write or count. */
	int (*export)(struct tt_export *e, const struct tt_record *rec);
	/* lib/analysis/privacy-private.h: reports what in @rec may identify
	 * someone, and makes @out a copy of @rec without it (false: leave
	 * @rec out). NULL: nothing private, copied as it is. */
	void (*privacy_check)(struct tt_privacy *p, struct privacy_finder *f,
			      const struct tt_record *rec);
	bool (*privacy_redact)(struct tt_privacy *p, const struct tt_record *in,
			       struct tt_record *out);
	/* lib/analysis/checker-private.h: the semantic checks of @rec. */
	void (*check)(struct tt_checker *c, const struct tt_record *rec);
};

struct tt_record_layer {
	const char *name;
	const struct tt_record_kind *kinds;
	size_t nkinds;
};

/* The layers, each defined in a small file of its folder and listed in
 * lib/model/record-layers.c. */
extern const struct tt_record_layer tt_core_records;	/* formats/records-core.c */
extern const struct tt_record_layer tt_evdev_records;	/* formats/records-evdev.c */
extern const struct tt_record_layer tt_xi_records;	/* xi/records-xi.c */
extern const struct tt_record_layer tt_hid_records;	/* hid/records-hid.c */
extern const struct tt_record_layer tt_li_records;	/* libinput/records-li.c */
extern const struct tt_record_layer tt_wl_records;	/* wayland/records-wl.c */

/* The kind of a record type, NULL for a type no layer has (a record the
 * library did not make). Constant time: an array indexed by type. */
const struct tt_record_kind *tt_record_kind(enum tt_record_type type);
/* The kind whose timeline "type" is @name, NULL for none (a newer
 * writer's record, which readers skip). */
const struct tt_record_kind *tt_record_kind_named(const char *name);
