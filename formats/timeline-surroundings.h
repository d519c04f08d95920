/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader's surroundings keys (formats/timeline.md,
 * "Surroundings"): the header's "system" and a device's "syspath",
 * "driver", "udev", "hwdb" and "quirks". Each returns 0 (the keys absent
 * or good) or -EINVAL with the reason in @err; what was read before a bad
 * key stays in @h / @dev for its owner to free.
 */
#pragma once

#include <json-c/json.h>

#include "timeline.h"

struct jerr;

int timeline_parse_system(struct json_object *o, struct tt_header *h, struct jerr *err);
int timeline_parse_surroundings(struct json_object *o, struct tt_device *dev, struct jerr *err);
