/* SPDX-License-Identifier: MIT */
/* Small helpers for commands that print JSON reports by hand (analyze,
 * diff): strings escaped per RFC 8259, numbers JSON can carry. */
#pragma once

#include <stdio.h>

/* Writes @s as a JSON string with quotes; NULL writes null. Control
 * characters, quotes, backslashes and invalid UTF-8 bytes are escaped
 * (the latter as U+FFFD), so any input gives valid JSON. */
void tt_json_string(FILE *out, const char *s);
/* Writes a double, or null when it is not finite. */
void tt_json_double(FILE *out, double v, int decimals);
