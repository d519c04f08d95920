/* SPDX-License-Identifier: MIT */
/*
 * Writers of the foreign formats touchtape converts to: evemu,
 * libinput-record (the evdev layer) and hid-recorder (the HID layer). Feed them the records a reader produced, in order;
 * they keep what the target format holds and count the rest, so the
 * caller can say what was left out (never silently).
 *
 *	_cleanup_(tt_export_freep) struct tt_export *e = NULL;
 *	tt_export_new(TT_FORMAT_EVEMU, fd, &e);
 *	while (tt_reader_next(r, &rec) > 0)
 *		tt_export_record(e, &rec);
 *	tt_export_finish(e);
 *	... tt_export_stats(e)->xi_events ...
 *
 * evemu holds one device; the first device record is the one written
 * unless tt_export_set_device() chose another. libinput-record holds any
 * number of devices, each with its own events; it is written at
 * tt_export_finish() (events wait in unlinked temporary files, so memory
 * stays bounded). hid-recorder holds any number of HID devices and their
 * reports and nothing of the evdev or XI layers; it too is written at
 * tt_export_finish(), as its single-device form has no "D:" lines.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reader.h"
#include "timeline.h"
#include "util-mem.h"

struct tt_export;

/* What the target format could not hold. */
struct tt_export_stats {
	size_t devices_written;
	size_t devices_skipped;		/* evemu: devices past the first */
	size_t frames_skipped;		/* frames of skipped devices */
	size_t xi_devices;		/* XInput devices: no equivalent */
	size_t xi_events;		/* XInput events: no equivalent */
	size_t markers;			/* written as comments only */
	size_t times_clamped;		/* negative times written as 0 */
	size_t frame_flags;		/* dropped/resync/incomplete flags lost */
	size_t hid_devices;		/* evemu, libinput: HID devices not written */
	size_t hid_reports;		/* evemu, libinput: HID reports not written */
	size_t li_records;		/* libinput's own events and device views: not written */
	size_t surroundings;		/* devices whose surroundings were not (all) written */
	bool system;			/* the header's "system" was not written */
};

/* @format: TT_FORMAT_EVEMU, TT_FORMAT_LIBINPUT or TT_FORMAT_HID_RECORDER
 * (then devices_written counts HID devices, and devices_skipped and
 * frames_skipped the evdev layer left out). Does not take
 * ownership of @fd. Returns 0 or a negative errno (-EINVAL for another
 * format). */
int tt_export_new(enum tt_file_format format, int fd, struct tt_export **out);
/* Writes only the device with this record id (and its frames). */
void tt_export_set_device(struct tt_export *e, uint32_t id);
/* 0, or a negative errno on a write error. */
int tt_export_record(struct tt_export *e, const struct tt_record *rec);
/* Completes the file. 0 or a negative errno. */
int tt_export_finish(struct tt_export *e);
const struct tt_export_stats *tt_export_stats(const struct tt_export *e);
void tt_export_free(struct tt_export *e);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_export *, tt_export_free);
