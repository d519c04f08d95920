/* SPDX-License-Identifier: MIT */
/*
 * The state of one evdev device as its reader must know it to make sense
 * of the events that follow: axis values, the slots, the current slot,
 * keys, LEDs, switches. Read from the kernel at the start of a recording
 * and again after a SYN_DROPPED, and kept current from the events read in
 * between (tt_evstate_apply()).
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

#include "timeline.h"

struct tt_evstate {
	/* Every axis's value; abs[ABS_MT_SLOT] is the slot the reader was
	 * last told of. The slot axes are in @slots, not here. */
	int32_t abs[ABS_CNT];
	uint32_t num_slots;		/* 0: no slots */
	int32_t (*slots)[TT_MT_AXES];	/* [slot][code - TT_MT_FIRST] */
	uint8_t keys[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t leds[TT_BITMAP_BYTES(LED_CNT)];
	uint8_t sw[TT_BITMAP_BYTES(SW_CNT)];
};

/* An empty state with @num_slots slots (every tracking ID -1). */
void tt_evstate_init(struct tt_evstate *s, uint32_t num_slots);
void tt_evstate_release(struct tt_evstate *s);
/* Copies @src into @dst (initialised, same number of slots). */
void tt_evstate_copy(struct tt_evstate *dst, const struct tt_evstate *src);
bool tt_evstate_equal(const struct tt_evstate *a, const struct tt_evstate *b);

/* The state after one event read from the device (what the kernel did to
 * its own state before queueing it). */
void tt_evstate_apply(struct tt_evstate *s, uint16_t type, uint16_t code, int32_t value);

/* Reads the state of the evdev device on @fd through its ioctls, for the
 * codes @dev declares. 0 or a negative errno; @out untouched on failure. */
int tt_evstate_read_fd(int fd, const struct tt_device *dev, struct tt_evstate *out);

/* Where tt_evstate_read_settled() reads from: the device, or a test's
 * fake. */
struct tt_evstate_source {
	/* Reads the state into @out (initialised). 0 or a negative errno. */
	int (*read)(void *data, struct tt_evstate *out);
	/* Reads what is queued and applies it to @s; returns how many
	 * events that was (0: the queue was empty), -EOVERFLOW when the
	 * queue held a SYN_DROPPED (events before it are lost, so @s is
	 * not whole), or another negative errno. */
	long (*drain)(void *data, struct tt_evstate *s);
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
int tt_evstate_read_settled(const struct tt_evstate_source *src, struct tt_evstate *out,
			    size_t *drained);

/* Calls @push for each event, in order, that takes a reader from @old to
 * @now, as frames ending in SYN_REPORT: first one that ends the touches
 * that ended or changed tracking ID (when there are any), then one with
 * every other difference (keys, LEDs, switches, axes, slots) and the
 * current slot. Nothing when the two are equal. */
typedef void (*tt_evstate_push_fn)(void *userdata, uint16_t type, uint16_t code, int32_t value);
void tt_evstate_diff(const struct tt_evstate *old, const struct tt_evstate *now,
		     tt_evstate_push_fn push, void *userdata);

/* Writes @s into the device record: slots, current slot, the axes that
 * are no slot axes, keys down, LEDs on, switches on. */
void tt_evstate_to_device(const struct tt_evstate *s, struct tt_device *dev);
