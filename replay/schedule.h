/* SPDX-License-Identifier: MIT */
/*
 * The replay schedule: which frame goes to which device at which offset
 * from the start, computed from the recording's own times (never by adding
 * up deltas, so errors cannot accumulate). Pure: reads a recording through
 * tt_reader, creates nothing.
 *
 * Memory: the frames of the selected range are held in memory, O(frames):
 * replay needs them again for every --loop, and a recording of an hour at
 * 120 Hz is ~430,000 frames, tens of MB at most.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "neutral.h"
#include "reader.h"

#define RP_NO_LIMIT INT64_MAX

struct rp_options {
	double speed;			/* 1.0 = real time */
	int64_t from_us;		/* recording time; frames before only set up state */
	int64_t to_us;			/* RP_NO_LIMIT for the end */
	int64_t max_gap_us;		/* idle gaps longer are shortened to this; <0 off */
	uint32_t loops;			/* 0 = forever */
	int64_t start_delay_us;
	uint32_t *device_ids;		/* only these (file ids); NULL = all */
	size_t ndevice_ids;
	bool allow_keys;
	bool force;			/* ignore value-out-of-range errors */
	const char *desc;		/* --desc: an evemu events-only file's description */
};

void rp_options_init(struct rp_options *o);

struct rp_frame {
	int64_t time_us;	/* in the recording */
	int64_t offset_us;	/* deadline, from the start of a loop */
	uint32_t dev;		/* index into rp_schedule.devices */
	uint32_t flags;		/* enum tt_frame_flags */
	size_t line;
	uint32_t nevents;
	struct input_event *events;	/* ends with SYN_REPORT */
};

struct rp_device {
	const struct tt_device *dev;	/* owned by the schedule's reader */
	struct rp_state start;		/* state at --from (or time 0) */
};

struct rp_schedule {
	struct tt_reader *reader;
	struct rp_device *devices;
	size_t ndevices;
	struct rp_frame *frames;	/* to play, deadline order */
	size_t nframes;
	int64_t span_us;		/* offset of the last frame */
	/* Frames that cannot be injected: recorded SYN_DROPPED. */
	size_t ndropped;
	size_t dropped_lines[8];	/* the first few, for the message */
	size_t nresync;			/* libevdev resync frames (played) */
};

/* Reads @path, checks it whole (lib/checker.h: any error refuses the file,
 * except value-out-of-range with o->force; a device that can type keys
 * refuses it unless o->allow_keys), and builds the schedule. Problems are
 * printed to @err as "FILE:LINE: message". Returns 0, -EINVAL for a
 * refused file, -ENOENT when --device names no device, or another
 * negative errno opening the file. */
int rp_schedule_load(const char *path, const struct rp_options *o, FILE *err,
		     struct rp_schedule **out);
void rp_schedule_free(struct rp_schedule *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_schedule *, rp_schedule_free);
