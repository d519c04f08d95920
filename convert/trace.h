/* SPDX-License-Identifier: MIT */
/*
 * convert --format trace: a recording as the Trace Event Format (JSON)
 * that Perfetto's UI and chrome://tracing open, built on the layer stack
 * (lib/model/stack.h) in one pass:
 *
 *   a process per device and layer (HID device, kernel evdev device, XI
 *   source device, libinput device, Wayland) and one for the recording
 *   (markers, diagnostics); a thread per slot (kernel, libinput), per
 *   lane of a HID device's contacts, of an XI client's touches, of a
 *   Wayland client's touches;
 *   a complete slice ("X") per touch sequence, its facts as args;
 *   counters ("C") of x, y and pressure per kernel slot;
 *   instants ("i") for markers and every diagnostic, named as the
 *   catalog (lib/analysis/diag.h) names it;
 *   a flow ("s" then "f") along each link: HID contact to kernel touch,
 *   kernel touch to XI touch, libinput touch, Wayland touch.
 *
 * Memory is bounded by the touches open at once and the tracks, not by
 * the file.
 */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "timeline.h"
#include "util-mem.h"

struct tt_trace;

struct tt_trace_counts {
	uint64_t slices, flows, counters, instants;
};

/* Starts the trace on @out (not owned). 0 or a negative errno. */
int tt_trace_new(FILE *out, struct tt_trace **t);
/* Every record, in file order. */
void tt_trace_feed(struct tt_trace *t, const struct tt_record *rec);
/* A line the reader refused ("FILE:LINE: what"): an instant like the
 * other diagnostics. */
void tt_trace_reader_error(struct tt_trace *t, const char *file, const char *message);
/* End of input: what is open ends, the JSON is closed and flushed. 0, or
 * -EIO when writing failed. */
int tt_trace_finish(struct tt_trace *t, struct tt_trace_counts *counts);
void tt_trace_free(struct tt_trace *t);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_trace *, tt_trace_free);
