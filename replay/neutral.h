/* SPDX-License-Identifier: MIT */
/*
 * The state a replayed device is in, followed from what was written to it,
 * and the frames that move it: the neutral-state release (every touch
 * lifted, every key and button up) and the preparation of a recording's
 * initial state (a recording can start mid-touch, or --from can start in
 * the middle of a gesture). Pure: no devices, host-tested.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "device-state.h"
#include "evbuf.h"
#include "timeline.h"

struct rp_state {
	const struct tt_device *dev;
	struct tt_device_state s;	/* slots, keys, axes (device-state.h) */
	bool a_contacts;		/* Type A: the last frame had contacts */
	uint32_t a_in_frame;		/* Type A: contacts so far in this frame */
	bool a_data;			/* Type A: data since the last SYN_MT_REPORT */
};

/* The state of @dev at time 0 of its recording (device record's slots,
 * keys_down and absinfo values). */
void rp_state_init_recorded(struct rp_state *st, const struct tt_device *dev);
/* The state of a device just created from @dev: every slot empty, slot 0,
 * no key down, each axis at its absinfo value. */
void rp_state_init_created(struct rp_state *st, const struct tt_device *dev);
void rp_state_copy(struct rp_state *dst, const struct rp_state *src);
void rp_state_release(struct rp_state *st);

/* Follows @n events (a frame or part of one). */
void rp_state_apply(struct rp_state *st, const struct input_event *ev, size_t n);

/* True when no slot is active, no key or button is down and (Type A) the
 * last frame had no contact. */
bool rp_state_is_neutral(const struct rp_state *st);

/* Appends the release frame to @out (ending in SYN_REPORT) unless the state
 * is neutral already; @always forces it. Returns the events appended. The
 * frame lifts every active slot (ABS_MT_SLOT n, ABS_MT_TRACKING_ID -1),
 * releases BTN_TOUCH, every BTN_TOOL_* and any other pressed key or button,
 * and for Type A ends the contacts with an empty SYN_MT_REPORT. */
size_t rp_state_neutral_frame(const struct rp_state *st, bool always, struct rp_evbuf *out);

/* Appends the frame that takes a device from neutral @cur to @target
 * (active slots with all their axes, keys down, axis values), ending in
 * SYN_REPORT; nothing when there is nothing to do. Returns the events
 * appended. */
size_t rp_state_prepare_frame(const struct rp_state *cur, const struct rp_state *target,
			      struct rp_evbuf *out);
