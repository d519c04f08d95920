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
#include "undeclared.h"

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
	bool allow_keys;		/* also the keys lib/tables/keymask.h guards */
	const char *desc;		/* --desc: an evemu events-only file's description */
};

void rp_options_init(struct rp_options *o);

/* The deadlines of a recording's records (evdev frames, HID reports),
 * from their recorded times: init with the first time, then the offset
 * from the start of a loop of each time, in ascending order. */
struct rp_timebase {
	int64_t base;
	int64_t prev;
	int64_t removed;	/* what --max-gap took out so far */
};
void rp_timebase_init(struct rp_timebase *tb, const struct rp_options *o, int64_t first_us);
int64_t rp_timebase_offset(struct rp_timebase *tb, const struct rp_options *o, int64_t t_us);

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
	/* The reader's, or without its guarded keys (@own). */
	const struct tt_device *dev;
	/* A shallow copy of the reader's device (its strings and slots
	 * stay the reader's) without the guarded keys, or NULL. */
	struct tt_device *own;
	struct rp_state start;		/* state at --from (or time 0) */
	bool keys_filtered;		/* its guarded keys are not created */
	size_t keys_dropped;		/* guarded key events left out */
	/* Codes the frames use that the description lacks, added to @own. */
	struct rp_added added;
	/* Axes uinput refuses (uinput-device.h), left out of the device:
	 * how many events of them the recording has, the first line. */
	uint8_t uncreatable[TT_BITMAP_BYTES(ABS_CNT)];
	size_t uncreatable_used;
	size_t uncreatable_line;
	/* Values of each axis to be written outside its absinfo range. */
	uint32_t outside[ABS_CNT];
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
	/* Devices left out whole: nothing but guarded keys (keyboards). */
	uint32_t *left_out;
	size_t nleft_out;
};

/* Reads @path, checks it whole and builds the schedule. It refuses only
 * what cannot be replayed (lib/analysis/checker.h errors about evdev frames and
 * devices: frames out of time order, slots the created device cannot
 * carry, a device declared twice; unreadable lines) and codes the kernel
 * cannot create, printed to @err as "FILE:LINE: error: message [kind]".
 * Codes the frames use that the description lacks are added to the device
 * (undeclared.h), said once per device. Values outside absinfo are
 * replayed (the kernel does not clamp) and counted once per device. Unless
 * o->allow_keys, devices lose their guarded keys (lib/tables/keymask.h), and
 * a device with nothing else is left out whole, each said once. Returns 0,
 * -EINVAL for a refused file, -ENOENT when --device names no device, or
 * another negative errno opening the file. */
int rp_schedule_load(const char *path, const struct rp_options *o, FILE *err,
		     struct rp_schedule **out);
void rp_schedule_free(struct rp_schedule *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_schedule *, rp_schedule_free);
