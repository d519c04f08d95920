/* SPDX-License-Identifier: MIT */
/*
 * A recording session: the capture sources (evdev/capture-source.h)
 * recorded into one timeline file (or a series of files with
 * --autorestart), driven by one event loop. The recorder owns the loop,
 * the signals (INT, TERM, HUP end the file with a stop marker), the
 * timers (--duration, --autorestart), the output and its writer, the
 * header and the start and stop markers; each source brings its fds and
 * records:
 *
 *	tt_recorder_new(&opts, &r);		// the clock starts
 *	tt_recorder_add_source(r, &tt_evdev_source_ops, evdev);	// the kernel's
 *	tt_recorder_begin(r);			// header, device records, start
 *	tt_recorder_add_source(r, &tt_xi_source_ops, xi);	// the layers above
 *	tt_recorder_run(r);			// until a stop; the stop marker
 *
 * Records are written one by one as they are read: a recording that is
 * killed is valid up to its last complete line.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "capture-source.h"
#include "event-loop.h"
#include "writer.h"

struct tt_recorder;

struct tt_recorder_options {
	const char *output;	/* path, or NULL / "-" for stdout */
	unsigned int capture_flags;	/* TT_CAPTURE_SHOW_KEYCODES: the header's keycodes_masked */
	int64_t duration_us;	/* 0: none */
	uint64_t max_frames;	/* 0: none */
	int64_t autorestart_us;	/* 0: none; needs a path */
	bool quiet;		/* no start message and summary */
	bool force;		/* overwrite existing files (else O_EXCL) */
	const char *x_vendor;	/* for the header, when the XI side records */
	int32_t x_release;
};

/* The loop with the signals and timers, and time 0 of the first file:
 * sources opened after it queue no event older. 0 or -errno (reported). */
int tt_recorder_new(const struct tt_recorder_options *opts, struct tt_recorder **out);
/* Starts @data (struct tt_source_ops.start) and adds it to the sources;
 * the recorder owns @data from here on, freed at once when it fails to
 * start. The kernel's sources are added before tt_recorder_begin(), the
 * layers above after it. 0 or -errno (reported). */
int tt_recorder_add_source(struct tt_recorder *r, const struct tt_source_ops *ops, void *data);
/* Opens the output and writes the header, the sources' device records,
 * the start marker and the sources' notes. 0 or -errno (reported). */
int tt_recorder_begin(struct tt_recorder *r);
/* Records until a stop condition; drains the sources and finishes the
 * file. Returns the exit status (0, or 1 after a write or read error). */
int tt_recorder_run(struct tt_recorder *r);
/* Frees the sources, the last added first, then the loop. */
void tt_recorder_free(struct tt_recorder *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_recorder *, tt_recorder_free);
