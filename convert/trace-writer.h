/* SPDX-License-Identifier: MIT */
/*
 * The Trace Event Format's JSON (the format Perfetto's UI and Chrome's
 * trace viewer open), written as it goes: one object with
 * "displayTimeUnit" and a "traceEvents" array, one event a line. It knows
 * the format, not touches: convert/trace.c says what each event means.
 *
 * Timestamps are microseconds, the format's unit and the timeline's.
 * Memory is bounded by the tracks named (processes and threads), never by
 * the events written.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json-emit.h"

struct trace_track {
	int64_t pid, tid;
};

struct trace_writer {
	struct tt_json_emit j;
	struct trace_track *named;	/* threads named; processes with tid -1 */
	size_t nnamed, capnamed;
	uint64_t nslices, nflows, ncounters, ninstants;
};

/* Starts the object on @out (not owned). */
void trace_writer_begin(struct trace_writer *w, FILE *out);
/* Closes the array and the object and flushes: 0, or -EIO when a write
 * failed. Frees what @w holds either way. */
int trace_writer_end(struct trace_writer *w, FILE *out);
void trace_writer_release(struct trace_writer *w);

/* Metadata: a process's name and its place among the others, written
 * the first time the process is named. */
void trace_process(struct trace_writer *w, int64_t pid, const char *name, int64_t sort_index);
/* A thread's name, written the first time the thread is named; later
 * calls for the same (pid, tid) write nothing. */
void trace_thread(struct trace_writer *w, int64_t pid, int64_t tid, const char *name);

/* Opens one event with its required members; the caller adds what its
 * phase needs (trace_args_begin() and members) and closes it with
 * trace_event_end(). @ph: 'X', 'C', 'i', 's', 'f'. */
void trace_event(struct trace_writer *w, char ph, const char *name, const char *cat, int64_t ts,
		 const struct trace_track *track);
void trace_args_begin(struct trace_writer *w);
void trace_args_end(struct trace_writer *w);
void trace_event_end(struct trace_writer *w);

/* A complete slice ("X"); args follow, then trace_event_end(). A slice
 * that ends before it begins (times backwards) lasts 0. */
void trace_slice(struct trace_writer *w, const char *name, const char *cat, int64_t begin_us, int64_t end_us,
		 const struct trace_track *track);
/* A flow from @from at @from_ts to @to at @to_ts: its start ("s") and
 * its end ("f", bound to the slice enclosing it), with one new id. */
void trace_flow(struct trace_writer *w, const char *name, const struct trace_track *from, int64_t from_ts,
		const struct trace_track *to, int64_t to_ts);
/* A point position member: "key": [x, y]. */
void trace_member_point(struct trace_writer *w, const char *key, double x, double y);
