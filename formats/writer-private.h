/* SPDX-License-Identifier: MIT */
/*
 * For the writers of records kept in their own files (timeline-wl.c):
 * the line being composed, and sending it. A record is composed with the
 * JSON emitter into writer_line() and sent with writer_send_line(), which
 * adds the newline and writes it whole (or keeps the sticky error).
 */
#pragma once

#include "json-emit.h"
#include "writer.h"

struct tt_json_emit *writer_line(struct tt_writer *w);
int writer_send_line(struct tt_writer *w);
