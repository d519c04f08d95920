/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader's HID records, "hid_device" and "hid"
 * (formats/timeline.md), kept apart from the evdev and XI records.
 */
#pragma once

#include <json-c/json.h>

struct jerr;
struct tt_reader;
struct tt_record;

int timeline_parse_hid_device(struct tt_reader *r, struct json_object *o,
			      struct tt_record *rec, struct jerr *err);
int timeline_parse_hid_report(struct tt_reader *r, struct json_object *o,
			      struct tt_record *rec, struct jerr *err);

/* The errno a name such as "EIO" stands for (positive), or 0. */
int timeline_errno_from_name(const char *name);
