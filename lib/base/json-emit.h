/* SPDX-License-Identifier: MIT */
/*
 * The one JSON emitter every JSON output goes through: objects, arrays,
 * keys, escaped strings, integers, doubles, written to a FILE* or into a
 * growable buffer (the timeline writer builds each record there and
 * writes it with one write()).
 *
 * It places the commas: a value or key written after another at the same
 * level gets one. Strings are escaped per RFC 8259; control characters
 * become \uXXXX (\n, \t, \r short), and every byte that is not part of
 * valid UTF-8 becomes U+FFFD, so any input gives valid JSON. No
 * allocation failure is reported: allocation aborts (tt_reallocarray).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TT_JSON_EMIT_MAX_DEPTH 32

struct tt_json_emit {
	FILE *out;		/* NULL: into buf */
	char *buf;
	size_t len;
	size_t cap;
	unsigned int depth;
	/* Whether level i already holds a value (the next one needs a
	 * comma); deeper than the maximum, levels share the last flag. */
	bool nonempty[TT_JSON_EMIT_MAX_DEPTH];
	bool after_key;		/* or after a newline: no comma next */
};

void tt_json_emit_init_file(struct tt_json_emit *j, FILE *out);
void tt_json_emit_init_buffer(struct tt_json_emit *j);
/* Frees the buffer; NULL-safe. */
void tt_json_emit_release(struct tt_json_emit *j);
/* Empties the buffer (keeping its memory) and the nesting state. */
void tt_json_emit_reset(struct tt_json_emit *j);

void tt_json_emit_object_begin(struct tt_json_emit *j);
void tt_json_emit_object_end(struct tt_json_emit *j);
void tt_json_emit_array_begin(struct tt_json_emit *j);
void tt_json_emit_array_end(struct tt_json_emit *j);
/* A key inside an object; @k is escaped like any string. */
void tt_json_emit_key(struct tt_json_emit *j, const char *k);

/* Values. A NULL string is null. */
void tt_json_emit_string(struct tt_json_emit *j, const char *s);
void tt_json_emit_int(struct tt_json_emit *j, int64_t v);
void tt_json_emit_bool(struct tt_json_emit *j, bool v);
void tt_json_emit_null(struct tt_json_emit *j);
/* @decimals (0 to 17) after the point ("%.*f"), null when not finite,
 * never "-0". */
void tt_json_emit_fixed(struct tt_json_emit *j, double v, int decimals);
/* The shortest text that reads back as @v; 0 when not finite. */
void tt_json_emit_real(struct tt_json_emit *j, double v);

/* A member of an object: the key and its value. */
void tt_json_emit_member_string(struct tt_json_emit *j, const char *k, const char *s);
void tt_json_emit_member_int(struct tt_json_emit *j, const char *k, int64_t v);
void tt_json_emit_member_bool(struct tt_json_emit *j, const char *k, bool v);
void tt_json_emit_member_fixed(struct tt_json_emit *j, const char *k, double v, int decimals);
/* A time or count that may be unknown: null when @v is negative. */
void tt_json_emit_member_int_or_null(struct tt_json_emit *j, const char *k, int64_t v);

/* For reports laid out for people too: what comes next (a value or a
 * key) starts a new line, "\n" then @indent. The comma due at this level
 * goes before the line break. */
void tt_json_emit_newline(struct tt_json_emit *j, const char *indent);
/* Before a value the caller writes itself with tt_json_emit_raw() (JSON
 * built elsewhere, such as a list streamed into a temporary file): the
 * comma, if one is due. */
void tt_json_emit_separator(struct tt_json_emit *j);

/* Room for @n more bytes in the buffer, so a caller that knows its size
 * grows it once. */
void tt_json_emit_reserve(struct tt_json_emit *j, size_t n);
/* Text written as it is, without commas: for callers that lay out their
 * own whitespace. */
void tt_json_emit_raw(struct tt_json_emit *j, const char *s, size_t n);
/* An escaped string with its quotes, without commas. */
void tt_json_emit_escaped(struct tt_json_emit *j, const char *s);
