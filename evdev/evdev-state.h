/* SPDX-License-Identifier: MIT */
/*
 * The state of one evdev device as its reader must know it to make sense
 * of the events that follow: axis values, the slots, the current slot,
 * keys, LEDs, switches. Read from the kernel at the start of a recording
 * and again after a SYN_DROPPED, and kept current from the events read in
 * between (tt_device_state_apply_event(), lib/model/device-state.h).
 *
 * The kernel has no ioctl that returns the whole state at once: keys,
 * LEDs and switches come with one ioctl each (atomic with the event queue:
 * the kernel drops their queued events), each axis and each slot axis with
 * another. A frame arriving between two of them tears the state: half of
 * it is in what was read, all of it is queued behind. So what was queued
 * is read after the state and applied to it: every value is absolute, so
 * the queue's events from before the read change nothing the read did not
 * already hold, and those that arrived during it make the torn axes
 * whole. The state is read again until two reads agree with nothing
 * queued in between (tt_evstate_read_settled()), which also catches a
 * frame the kernel was still taking in during a read.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include "device-state.h"
#include "timeline.h"

/* Reads the state of the evdev device on @fd through its ioctls, for the
 * codes @dev declares. 0 or a negative errno; @out untouched on failure. */
int tt_evstate_read_fd(int fd, const struct tt_device *dev, struct tt_device_state *out);

/* Where tt_evstate_read_settled() reads from: the device, or a test's
 * fake. */
struct tt_evstate_source {
	/* Reads the state into @out (initialised). 0 or a negative errno. */
	int (*read)(void *data, struct tt_device_state *out);
	/* Reads what is queued and applies it to @s; returns how many
	 * events that was (0: the queue was empty), -EOVERFLOW when the
	 * queue held a SYN_DROPPED (events before it are lost, so @s is
	 * not whole), or another negative errno. */
	long (*drain)(void *data, struct tt_device_state *s);
	void *data;
};

/* Reads before giving up on a device that never holds still. */
#define TT_EVSTATE_MAX_TRIES 3

/* Reads the state and applies what was queued meanwhile, up to
 * TT_EVSTATE_MAX_TRIES times: settled when a read agrees with the one
 * before and nothing was queued during it. @out is initialised with the
 * device's number of slots. Returns 0 (@out settled), -EAGAIN (never
 * settled: @out holds the last read with what was queued applied, right
 * unless a frame was still being taken in by the kernel at that moment),
 * -EOVERFLOW (every read was followed by a SYN_DROPPED: @out untouched)
 * or another negative errno. Adds the events read from the queue to
 * *@drained. */
int tt_evstate_read_settled(const struct tt_evstate_source *src, struct tt_device_state *out,
			    size_t *drained);
