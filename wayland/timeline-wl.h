/* SPDX-License-Identifier: MIT */
/*
 * The timeline's Wayland record, "wl" (formats/timeline.md), read and
 * written apart from the other layers' records.
 */
#pragma once

#include <json-c/json.h>

struct jerr;
struct tt_reader;
struct tt_record;

int timeline_parse_wl_event(struct tt_reader *r, struct json_object *o,
			    struct tt_record *rec, struct jerr *err);
