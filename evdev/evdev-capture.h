/* SPDX-License-Identifier: MIT */
/*
 * Lossless capture of one evdev device: its description and state at the
 * start (a struct tt_device), then its frames exactly as the kernel
 * delivered them.
 *
 *	struct tt_capture *c;
 *	int rc = tt_capture_open("/dev/input/event5", 0, 0, &c);
 *	...
 *	// whenever tt_capture_fd(c) is readable:
 *	rc = tt_capture_dispatch(c, start_us, on_frame, userdata);
 *	// rc == -ENODEV: the device is gone (any partial frame was handed out)
 *	tt_capture_free(c);
 *
 * Events are read as raw struct input_event from the fd, not through
 * libevdev_next_event(): libevdev's normal mode discards ABS_MT_TRACKING_ID
 * changes it considers invalid (-1 to -1, N to M) and clamps out-of-range
 * slots, and a recording must show what the kernel sent, especially when
 * it is wrong. libevdev is used for the device description only. The
 * state at the start and after a SYN_DROPPED is read until consistent
 * (evdev-state.h) and kept current from the raw events. Not libevdev's
 * resync: it reads the fd itself, and libevdev 1.13 reads on past its own
 * sync events when it discarded one of them (a BTN_TOOL_* the device
 * lacks), keeping a queue's worth of events that a raw reader never sees.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "timeline.h"
#include "util-mem.h"

struct tt_capture;

enum tt_capture_flags {
	TT_CAPTURE_GRAB = 1 << 0,		/* EVIOCGRAB the device */
	TT_CAPTURE_SHOW_KEYCODES = 1 << 1,	/* no privacy masking */
	/* Find out whether another client holds a grab (the device record's
	 * grabbed_by_other) by taking one and letting go at once. While it is
	 * held every other reader of the device (a compositor, another
	 * recorder) loses the device's events without a SYN_DROPPED: for a
	 * listing only, never beside a recording. */
	TT_CAPTURE_PROBE_GRAB = 1 << 2,
};

/* Opens @path (O_RDONLY|O_NONBLOCK|O_CLOEXEC), sets CLOCK_MONOTONIC on it
 * and builds the device record with id @id from the device's current
 * state. Returns 0 or a negative errno: -EACCES/-EPERM without permission,
 * -ENOTTY when @path is not an evdev node, -EBUSY when TT_CAPTURE_GRAB was
 * asked for and another client holds a grab. Takes no grab unless
 * TT_CAPTURE_GRAB or TT_CAPTURE_PROBE_GRAB. */
int tt_capture_open(const char *path, uint32_t id, unsigned int flags, struct tt_capture **out);

/* For tests and pipes: captures from @fd (taken over, closed by
 * tt_capture_free()) a device described by @dev (taken over). Without a
 * kernel device behind the fd, a SYN_DROPPED gets its DROPPED frame but no
 * resync frames. */
int tt_capture_new_from_fd(int fd, struct tt_device *dev, unsigned int flags,
			   struct tt_capture **out);

/* The device record: description and state at the moment of opening
 * (read until consistent: the first frame handed out follows it), with
 * keys down masked unless TT_CAPTURE_SHOW_KEYCODES. */
const struct tt_device *tt_capture_device(const struct tt_capture *c);
int tt_capture_fd(const struct tt_capture *c);
/* Updates the device record's state (slots, keys, LEDs, switches, axis
 * values) to the state after the frames handed out so far, for a
 * recording that starts a new file (--autorestart). */
void tt_capture_refresh(struct tt_capture *c);
/* True when key codes of this device are being masked. */
bool tt_capture_masking(const struct tt_capture *c);

/* Called once per frame; a negative return stops tt_capture_dispatch()
 * and is returned by it. @frame and its events are valid during the call
 * only. */
typedef int (*tt_frame_fn)(void *userdata, const struct tt_frame *frame);

/* Reads everything available (non-blocking), or up to 256 reads of a
 * device that floods faster than @fn takes its frames (then the fd stays
 * readable: call again), and calls @fn once per
 * complete frame (events up to and including SYN_REPORT), with
 * frame->time_us = kernel time of the SYN_REPORT minus @start_us, and
 * dt_us on events whose kernel time differs from it.
 *
 * SYN_DROPPED: any partial frame before it is handed out flagged
 * TT_FRAME_INCOMPLETE, then one frame flagged TT_FRAME_DROPPED holding the
 * SYN_DROPPED event; the events queued behind it are discarded (as
 * libevdev does, and as the kernel documentation asks: they are partial)
 * and their net effect comes as resync frame(s) (tt_device_state_diff(): the
 * touches that ended first, then the rest), flagged TT_FRAME_RESYNC and
 * timed at the last discarded event.
 *
 * Keyboard codes and MSC_SCAN values are masked unless
 * TT_CAPTURE_SHOW_KEYCODES (see lib/tables/keymask.h).
 *
 * Returns 0 when the fd is drained (or the bound reached), -ENODEV when the device vanished
 * (after handing out any partial frame flagged TT_FRAME_INCOMPLETE, and a
 * frame flagged TT_FRAME_DROPPED when the kernel dropped events it still
 * held for us with the device), another
 * negative errno, or the first negative value @fn returned. */
int tt_capture_dispatch(struct tt_capture *c, int64_t start_us, tt_frame_fn fn, void *userdata);

/* Number of SYN_DROPPED seen so far. */
size_t tt_capture_drops(const struct tt_capture *c);
/* Events discarded behind a SYN_DROPPED (their effect is in the resync). */
size_t tt_capture_discarded(const struct tt_capture *c);
/* Frames and events handed out so far (resync included). */
size_t tt_capture_nframes(const struct tt_capture *c);
size_t tt_capture_nevents(const struct tt_capture *c);

void tt_capture_free(struct tt_capture *c);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_capture *, tt_capture_free);
