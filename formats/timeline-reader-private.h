/* SPDX-License-Identifier: MIT */
/*
 * What the timeline reader's files share: the time range every "t" key
 * is checked against, and the parsers of each layer's records, which
 * the record kinds point at (lib/model/record-layer.h) and
 * timeline-reader.c dispatches to by "type" (formats/timeline.md). Each
 * fills @rec from the JSON object @o: 0, or -EINVAL with the reason in
 * @err.
 */
#pragma once

#include <json-c/json.h>

#include "timeline.h"

#define TIME_MIN (-TT_MAX_TIME_US)
#define TIME_MAX TT_MAX_TIME_US

struct jerr;
struct tt_reader;
struct tt_record;

/* "frame" and "marker" (timeline-reader.c). */
int timeline_parse_frame(struct tt_reader *r, struct json_object *o,
			 struct tt_record *rec, struct jerr *err);
int timeline_parse_marker(struct tt_reader *r, struct json_object *o,
			  struct tt_record *rec, struct jerr *err);
/* "device": an evdev device (timeline-device.c). */
int timeline_parse_device(struct tt_reader *r, struct json_object *o,
			  struct tt_record *rec, struct jerr *err);
/* "xi_device" and "xi" (timeline-xi.c). */
int timeline_parse_xi_device(struct tt_reader *r, struct json_object *o,
			     struct tt_record *rec, struct jerr *err);
int timeline_parse_xi_event(struct tt_reader *r, struct json_object *o,
			    struct tt_record *rec, struct jerr *err);
/* "li_device" and "li" (timeline-li.c). */
int timeline_parse_li_device(struct tt_reader *r, struct json_object *o,
			     struct tt_record *rec, struct jerr *err);
int timeline_parse_li_event(struct tt_reader *r, struct json_object *o,
			    struct tt_record *rec, struct jerr *err);
