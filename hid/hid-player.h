/* SPDX-License-Identifier: MIT */
/*
 * replay --hid: the recording's HID input reports as the one player's
 * steps (player.h), each at its absolute deadline (the timebase of the
 * evdev frames too: schedule.h's rp_timebase), written through a sink
 * (uhid, or the --dry-run printer).
 *
 * Whatever ends a replay (its end, a signal, a write error), and before
 * each loop, every contact still down is lifted: for each input report ID
 * whose last report had a finger's Tip Switch, a pen's In Range or Tip, or
 * a button down, that report again with every Tip Switch, In Range,
 * barrel/eraser/invert switch, Tip Pressure and button off, and the rest
 * (contact ids, positions, Contact Count) as it was: the Windows
 * precision touch protocol's own way to lift a contact, which every
 * driver (hid-multitouch, wacom, hid-generic) honours. A device whose
 * descriptor hid/hid-desc.h refuses cannot be lifted: said at load.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "replay/clock.h"
#include "hid-desc.h"
#include "replay/player.h"
#include "replay/schedule.h"

struct rp_hid_report {
	int64_t time_us;	/* in the recording */
	int64_t offset_us;	/* deadline, from the start of a loop */
	uint32_t dev;		/* index into rp_hid_schedule.devices */
	size_t line;
	uint32_t len;
	uint8_t *data;
};

struct rp_hid_dev {
	const struct tt_hid_device *dev;	/* the reader's */
	struct tt_hid_desc *desc;		/* NULL when refused */
	size_t nreports;
	size_t keys_dropped;	/* keyboard/keypad reports left out */
};

/* An evdev frame of the recording, for --verify: the events of a device
 * a hid_device lists. */
struct rp_hid_evframe {
	uint32_t device;	/* evdev device id */
	int64_t time_us;
	size_t line;
	uint32_t nevents;
	struct input_event *events;
};

struct rp_hid_schedule {
	struct tt_reader *reader;
	struct rp_hid_dev *devices;
	size_t ndevices;
	struct rp_hid_report *reports;	/* deadline order */
	size_t nreports;
	int64_t span_us;
	size_t oversized;		/* reports over UHID_DATA_MAX, left out */
	struct rp_hid_evframe *evframes;	/* recording order */
	size_t nevframes;
};

/* Reads @path (a timeline with hid_device/hid records, a hid-recorder
 * file). Devices are selected by o->device_ids as HID device ids; the
 * input reports of a keyboard (or keypad) application collection are
 * left out unless o->allow_keys (they would type), said once per device. Messages go to @err as "FILE:LINE: what".
 * 0, -EINVAL when there is no HID device to replay (said), -ENOENT when
 * --device names none, or the reader's negative errno. */
int rp_hid_schedule_load(const char *path, const struct rp_options *o, FILE *err,
			 struct rp_hid_schedule **out);
void rp_hid_schedule_free(struct rp_hid_schedule *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_hid_schedule *, rp_hid_schedule_free);

struct rp_hid_sink {
	/* Writes one report to device @dev (schedule index); @tag is its
	 * index in rp_stats, or -1 for a lift report. 0 or a negative errno. */
	int (*write)(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag);
	void *data;
};

/* rp_play_steps() of @s's reports through @sink (its return values):
 * the lift is the release, and lift reports count as
 * stats->extra_frames. */
int rp_hid_play(const struct rp_hid_schedule *s, const struct rp_options *o, int64_t start_us,
		struct rp_clock *clock, struct rp_hid_sink *sink, struct rp_stats *stats);

/* The lift report for @last (a report of device @d's descriptor): false
 * when nothing in it is down (or it cannot be told). @out has @len bytes. */
bool rp_hid_lift_report(const struct tt_hid_desc *d, const uint8_t *last, size_t len,
			uint8_t *out);
