/* SPDX-License-Identifier: MIT */
/*
 * A device's state followed through its frames: the slots, keys, LEDs,
 * switches and axis values a frame leaves. For the commands that cut a
 * recording (convert --from): the excerpt's device record carries the
 * state at the cut, so a touch already down stays a touch. Pure.
 */
#pragma once

#include "timeline.h"

struct tt_device_state {
	const struct tt_device *dev;
	int32_t current_slot;
	struct tt_slot_state *slots;	/* dev->num_slots entries */
	uint8_t keys_down[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t leds_on[TT_BITMAP_BYTES(LED_CNT)];
	uint8_t switches_on[TT_BITMAP_BYTES(SW_CNT)];
	int32_t abs[ABS_CNT];		/* non-MT axes */
};

/* Starts from @dev's recorded state (its device record). @dev must
 * outlive @st. */
void tt_device_state_init(struct tt_device_state *st, const struct tt_device *dev);
void tt_device_state_clear(struct tt_device_state *st);
/* Follows @f, a frame of this device. */
void tt_device_state_apply(struct tt_device_state *st, const struct tt_frame *f);
/* @out: a shallow copy of the device with the state of @st, valid while
 * both live (for writing a device record, never to free). */
void tt_device_state_device(const struct tt_device_state *st, struct tt_device *out);
/* For formats without a device state (evemu, libinput-record): the frame
 * that brings a device from nothing down to @st, at @time_us: each active
 * slot with its axes, the keys down, ending in SYN_REPORT. false when @st
 * has nothing down (no frame). @f->events is allocated: free it. */
bool tt_device_state_frame(const struct tt_device_state *st, int64_t time_us, struct tt_frame *f);
