/* SPDX-License-Identifier: MIT */
/*
 * What the kernel delivers to an evdev reader for what was written to a
 * uinput device: an explicit model of drivers/input/input.c's filtering, so
 * --verify can explain every difference between the recording and what a
 * client saw. Modelled (Linux 4.x-6.x):
 *  - an EV_ABS value equal to the current one is dropped (per slot for the
 *    ABS_MT_* axes of a Type B device; Type A MT axes are not filtered);
 *  - fuzz: a value within fuzz/2 of the previous one is replaced by it (and
 *    so dropped), within fuzz smoothed (3*old+new)/4, within 2*fuzz
 *    (old+new)/2;
 *  - ABS_MT_SLOT is staged, and sent only before the next value of a slot
 *    other than the last one reported;
 *  - EV_KEY/EV_SW/EV_LED only pass when their state changes (EV_KEY value 2
 *    always passes), EV_REL 0 is dropped, EV_REP only when it changes,
 *    SYN_DROPPED cannot be injected, unsupported codes are dropped;
 *  - a frame with nothing left but SYN_REPORT is dropped;
 *  - a frame longer than the device's packet estimate is split with an
 *    extra SYN_REPORT;
 *  - no range is checked: a value outside absinfo reaches clients as
 *    written (counted, so --verify says how many a client got).
 * Pure: no devices.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <linux/input.h>

#include "evbuf.h"
#include "timeline.h"

enum rp_reason {
	RP_R_UNCHANGED,		/* value equal to the current one */
	RP_R_FUZZ_DROPPED,	/* within fuzz/2: replaced by the old value */
	RP_R_FUZZ_SMOOTHED,	/* within 2*fuzz: delivered smoothed */
	RP_R_SLOT_STAGED,	/* ABS_MT_SLOT not delivered (no change followed) */
	RP_R_SLOT_INSERTED,	/* kernel sent ABS_MT_SLOT before a value */
	RP_R_STATE_UNCHANGED,	/* key/switch/LED already in that state */
	RP_R_REL_ZERO,		/* relative motion 0 */
	RP_R_UNSUPPORTED,	/* code/type the device does not have */
	RP_R_SYN_DROPPED,	/* SYN_DROPPED (and other SYN codes) cannot be injected */
	RP_R_EMPTY_FRAME,	/* nothing left but SYN_REPORT */
	RP_R_SPLIT,		/* frame split by the kernel */
	RP_R_OUTSIDE_ABSINFO,	/* delivered as written, outside absinfo */
	RP_R_COUNT,
};

const char *rp_reason_name(enum rp_reason r);

/* A value outside [@min, @max] that a client gets as written: the kernel
 * checks no range. ABS_MT_SLOT is the slot (the kernel ignores one beyond
 * the slots), and tracking ID -1 a release. */
static inline bool
rp_abs_outside(unsigned int code, int32_t value, int32_t min, int32_t max)
{
	if (code == ABS_MT_SLOT || (code == ABS_MT_TRACKING_ID && value == -1))
		return false;
	return value < min || value > max;
}

struct rp_kmodel {
	uint8_t evbits[TT_BITMAP_BYTES(EV_CNT)];
	uint8_t codes[EV_CNT][TT_BITMAP_BYTES(KEY_CNT)];
	int32_t abs[ABS_CNT];
	int32_t fuzz[ABS_CNT];
	int32_t min[ABS_CNT];
	int32_t max[ABS_CNT];
	uint32_t num_slots;		/* 0: no slots (Type A or none) */
	int32_t (*slots)[TT_MT_AXES];
	int32_t slot;			/* staged (mt->slot) */
	int32_t slot_reported;		/* absinfo[ABS_MT_SLOT].value */
	uint8_t keys[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t sw[TT_BITMAP_BYTES(SW_CNT)];
	uint8_t led[TT_BITMAP_BYTES(LED_CNT)];
	int32_t rep[REP_CNT];
	uint32_t max_vals;
	uint32_t num_vals;		/* held for the frame being built */
};

/* @abs: the absinfo the device was created with (ABS_CNT entries). */
void rp_kmodel_init(struct rp_kmodel *m, const struct tt_device *dev,
		    const struct input_absinfo *abs);
/* Starts from the state a recording's device record holds (slots, the
 * current slot, axes, keys, LEDs, switches) instead of a new device's:
 * what a device already in use holds when a recording of it begins. */
void rp_kmodel_set_state(struct rp_kmodel *m, const struct tt_device *dev);
void rp_kmodel_release(struct rp_kmodel *m);
/* Appends to @out what an evdev reader gets for the written events (zero
 * or more frames, each ending in SYN_REPORT) and counts each difference in
 * @reasons. */
void rp_kmodel_feed(struct rp_kmodel *m, const struct input_event *ev, size_t n,
		    struct rp_evbuf *out, size_t reasons[RP_R_COUNT]);
