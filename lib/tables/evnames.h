/* SPDX-License-Identifier: MIT */
/* Event type and code names, from libevdev, with numeric fallbacks. */
#pragma once

#include <stdbool.h>

/* The libevdev name, or NULL when libevdev does not know it. */
const char *tt_type_name(unsigned int type);
const char *tt_code_name(unsigned int type, unsigned int code);

/* The largest valid code for @type, or -1 for an invalid type. */
int tt_code_max(unsigned int type);

/* Parses a type from "EV_ABS", "3" or "0x3". 0 or -EINVAL; *out untouched
 * on failure. */
int tt_type_from_string(const char *s, unsigned int *out);
/* Parses a code of @type from "ABS_MT_SLOT", "47" or "0x2f". */
int tt_code_from_string(unsigned int type, const char *s, unsigned int *out);

/* Writes the name, or the number in decimal when unnamed, into buf. */
const char *tt_code_label(char *buf, unsigned long size, unsigned int type, unsigned int code);
const char *tt_type_label(char *buf, unsigned long size, unsigned int type);

/* Input properties (INPUT_PROP_*), by name or number. */
const char *tt_prop_name(unsigned int prop);
int tt_prop_from_string(const char *s, unsigned int *out);

/* Like tt_code_label(), but only uses a name that reads back as the same
 * code (libevdev gives some codes names shared with others, e.g. EV_FF's
 * FF_STATUS_STOPPED): what a file writer needs. */
const char *tt_code_label_exact(char *buf, unsigned long size, unsigned int type, unsigned int code);
