/* SPDX-License-Identifier: MIT */
#pragma once

#include <stddef.h>

struct tt_reader;
struct tt_record;

/* @line is NUL-terminated at @len (the scanners rely on that byte).
 * 1: the line was a canonical frame and *rec holds it. 0: not handled
 * here; parse it with json-c (which also produces any error message). */
int timeline_fast_frame(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec);
/* The same for a hid line: 1 with the report in *rec, 0 when not handled. */
int timeline_fast_hid(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec);
