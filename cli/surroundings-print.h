/* SPDX-License-Identifier: MIT */
/* A recording's surroundings (formats/timeline.md, "Surroundings") as
 * print, inspect --summary and analyze show them, and the differences
 * diff reports: one wording for all. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "json-emit.h"
#include "timeline.h"

/* "LEADsystem: debian 12, libinput 1.22.1, libevdev 1.13.0" and
 * "LEADDMI: dmi:..." lines; nothing when the header has none of it. */
void tt_sur_system_text(const struct tt_header *h, const char *lead, FILE *out);
/* The device's lines: driver (and syspath when @all), its udev
 * properties (every one when @all, one per line; else the key ones,
 * tt_sur_is_key_property(), on one line), hwdb's and the quirks. */
void tt_sur_device_text(const struct tt_device *d, const char *lead, bool all, FILE *out);
/* True for the properties that decide how a device is handled: udev's
 * classification (ID_INPUT_*), libinput's (LIBINPUT_*) and hwdb's. */
bool tt_sur_is_key_property(const struct tt_device *d, const char *name);
/* The member "system" of the object being emitted (nothing when none). */
void tt_sur_system_json(const struct tt_header *h, struct tt_json_emit *j);
/* The members "driver", "syspath", "udev", "hwdb", "quirks" (those known). */
void tt_sur_device_json(const struct tt_device *d, struct tt_json_emit *j);
/* Copies @src's surroundings into @dst (whose own are freed first). */
void tt_sur_device_copy(struct tt_device *dst, const struct tt_device *src);
