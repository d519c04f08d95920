/* SPDX-License-Identifier: MIT */
/*
 * For the writers of records kept in their own files (timeline-wl.c,
 * timeline-writer-xi.c, -hid.c, -li.c): the line being composed, and
 * sending it. A record is composed with the JSON emitter into
 * writer_line() (or the writer_put and writer_kv helpers below) and sent
 * with writer_send_line(), which adds the newline and writes it whole (or
 * keeps the sticky error).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json-emit.h"
#include "writer.h"

struct tt_json_emit *writer_line(struct tt_writer *w);
int writer_send_line(struct tt_writer *w);

void writer_put(struct tt_writer *w, const char *s, size_t n);
void writer_put_int(struct tt_writer *w, int64_t v);
void writer_put_double(struct tt_writer *w, double v);
/* Sanitized first: a timeline keeps no control characters at all, not
 * even escaped ones. */
void writer_put_string(struct tt_writer *w, const char *s);
void writer_key(struct tt_writer *w, const char *k);
void writer_kv_int(struct tt_writer *w, const char *k, int64_t v);
void writer_kv_str(struct tt_writer *w, const char *k, const char *v);
void writer_kv_bool(struct tt_writer *w, const char *k, bool v);
/* Sends the composed line with as many write(2)s as it takes. */
int writer_flush_line(struct tt_writer *w);
