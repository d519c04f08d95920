/* SPDX-License-Identifier: MIT */
/*
 * One evdev device's state followed through its events, as the kernel
 * keeps it: every axis value, the slots and the current slot, the keys
 * down, LEDs and switches on. One type for every follower: the recorder
 * (evdev/evdev-state.h reads it from a device and resynchronises with it
 * after a SYN_DROPPED) and the commands that cut a recording (convert
 * --from writes the state at the cut into the excerpt's device record,
 * so a touch already down stays a touch). Pure.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "timeline.h"

struct tt_device_state {
	/* Every axis's value; with slots, abs[ABS_MT_SLOT] is the current
	 * slot and the slot axes are in @slots, not here. */
	int32_t abs[ABS_CNT];
	uint32_t num_slots;		/* 0: no slots (Type A or none) */
	struct tt_slot_state *slots;	/* num_slots entries */
	uint8_t keys[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t leds[TT_BITMAP_BYTES(LED_CNT)];
	uint8_t sw[TT_BITMAP_BYTES(SW_CNT)];
};

/* An empty state with @num_slots slots (every tracking ID -1). */
void tt_device_state_init(struct tt_device_state *st, uint32_t num_slots);
/* The state @dev's record holds (its state at time 0). */
void tt_device_state_from_device(struct tt_device_state *st, const struct tt_device *dev);
void tt_device_state_release(struct tt_device_state *st);
/* Copies @src into @dst (initialised, same number of slots). */
void tt_device_state_copy(struct tt_device_state *dst, const struct tt_device_state *src);
bool tt_device_state_equal(const struct tt_device_state *a, const struct tt_device_state *b);

/* The state after one event, as the kernel's input core changes its own:
 * a key repeat (value 2) changes nothing, a slot number out of range is
 * ignored, and without slots the slot axes are no state. */
void tt_device_state_apply_event(struct tt_device_state *st, uint16_t type, uint16_t code, int32_t value);
/* The same for every event of @f, a frame of this device. */
void tt_device_state_apply_frame(struct tt_device_state *st, const struct tt_frame *f);

/* Calls @push for each event, in order, that takes a reader from @old to
 * @now, as frames ending in SYN_REPORT: first one that ends the touches
 * that ended or changed tracking ID (when there are any), then one with
 * every other difference (keys, LEDs, switches, axes, slots) and the
 * current slot. Nothing when the two are equal. */
typedef void (*tt_device_state_push_fn)(void *userdata, uint16_t type, uint16_t code, int32_t value);
void tt_device_state_diff(const struct tt_device_state *old, const struct tt_device_state *now,
			  tt_device_state_push_fn push, void *userdata);

/* Writes @st into @dev, a device record the caller owns: the slots
 * (allocated as needed), the current slot, the axes @dev has that are no
 * slot axes, keys down, LEDs on, switches on. */
void tt_device_state_to_device(const struct tt_device_state *st, struct tt_device *dev);
/* @out: a shallow copy of @dev with the state of @st (started from @dev
 * with tt_device_state_from_device()), valid while both live: for writing
 * a device record, never to free. */
void tt_device_state_device(const struct tt_device_state *st, const struct tt_device *dev,
			    struct tt_device *out);
/* For formats without a device state (evemu, libinput-record): the frame
 * that brings @dev from nothing down to @st, at @time_us: each active slot
 * with its axes, the keys down, ending in SYN_REPORT. false when @st has
 * nothing down (no frame). @f->events is allocated: free it. */
bool tt_device_state_frame(const struct tt_device_state *st, const struct tt_device *dev, int64_t time_us,
			   struct tt_frame *f);
