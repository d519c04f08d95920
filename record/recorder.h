/* SPDX-License-Identifier: MIT */
/*
 * A recording session: evdev devices captured into one timeline file (or
 * a series of files with --autorestart), driven by one event loop.
 *
 * With --hid, the hidraw node of each device's HID device is one more
 * source of the loop, its reports written beside the frames.
 *
 * The loop is tt_recorder_loop(); another recorder (the XI side) adds its
 * connection as one more source and writes its records through
 * tt_recorder_writer(), with times relative to tt_recorder_start_us().
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "event-loop.h"
#include "writer.h"

struct tt_recorder;

struct tt_recorder_options {
	const char *output;	/* path, or NULL / "-" for stdout */
	unsigned int capture_flags;	/* TT_CAPTURE_GRAB, TT_CAPTURE_SHOW_KEYCODES */
	int64_t duration_us;	/* 0: none */
	uint64_t max_frames;	/* 0: none */
	int64_t autorestart_us;	/* 0: none; needs a path */
	bool quiet;		/* no start message and summary */
	bool force;		/* overwrite existing files (else O_EXCL) */
	bool hid;		/* also record each device's hidraw node */
	bool with_serials;	/* keep serial numbers (uniq, ID_SERIAL, ...) */
	bool quirks;		/* ask libinput which quirks match (--libinput) */
	const char *x_vendor;	/* for the header, when the XI side records */
	int32_t x_release;
};

/* Opens @paths (@npaths may be 0 when another source, the XI side, is all
 * there is) and, with opts->hid, their HID devices' hidraw nodes (a device
 * without one is recorded all the same, with a note), then the output, and
 * writes the header, device records, HID device records and start marker.
 * Device errors are reported here. 0 or -errno. */
int tt_recorder_new(const struct tt_recorder_options *opts, char **paths, size_t npaths,
		    struct tt_recorder **out);
/* Records until a stop condition; finishes the file. Returns the exit
 * status (0, or 1 after a write or read error). */
int tt_recorder_run(struct tt_recorder *r);
void tt_recorder_free(struct tt_recorder *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_recorder *, tt_recorder_free);

struct tt_loop *tt_recorder_loop(struct tt_recorder *r);
struct tt_writer *tt_recorder_writer(struct tt_recorder *r);
int64_t tt_recorder_start_us(const struct tt_recorder *r);
/* Ends the recording with a stop marker giving @reason. */
void tt_recorder_stop(struct tt_recorder *r, const char *reason, int status);
/* Reads every device's pending frames now. The XI side calls it before it
 * writes X events, so a frame is in the file before what X made of it. */
void tt_recorder_poll_devices(struct tt_recorder *r);
/* @fn runs once the loop has ended, after the devices' pending frames are
 * read and before the stop marker: another source (libinput) writes what
 * it still holds. */
void tt_recorder_set_drain(struct tt_recorder *r, void (*fn)(void *userdata), void *userdata);
