/* SPDX-License-Identifier: MIT */
/*
 * Codes a recording's frames use that its device description lacks (an
 * events-only evemu file given a description of a sibling model: a
 * Clickpad's frames with ABS_MT_*, a pen's with BTN_TOOL_DOUBLETAP). The
 * device did deliver them, so replay adds them to the device it creates,
 * as long as the kernel can create them: a known event type uinput
 * recreates and a code within that type's maximum. An added axis takes
 * the absinfo of its single-touch or multitouch counterpart where the
 * description has one, else the range of the values the recording writes.
 * Pure: host-tested.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <linux/input.h>

#include "timeline.h"

/* What was added to a device, and the ranges seen of added axes. */
struct rp_added {
	uint8_t codes[EV_CNT][TT_BITMAP_BYTES(KEY_CNT)];
	size_t count;			/* codes added */
	size_t first_line;		/* where the first was used */
};

/* Whether uinput can create @type @code at all. */
bool rp_undeclared_creatable(unsigned int type, unsigned int code);

/* The axis whose absinfo an added @code takes: its single-touch or
 * multitouch counterpart when @desc has it, else -1 (the values seen). */
int rp_undeclared_partner(const struct tt_device *desc, unsigned int code);

/* Adds @type @code (creatable, not in @own) to @own, or for an axis
 * already added, widens its range to @value when it has no partner in
 * @desc. An added ABS_MT_SLOT makes @own Type B with as many slots as its
 * range (slots start empty). */
void rp_undeclared_add(struct tt_device *own, const struct tt_device *desc,
		       struct rp_added *added, unsigned int type, unsigned int code, int32_t value);

/* "ABS_MT_SLOT (values seen), ABS_MT_POSITION_X (as ABS_X), ..." */
void rp_undeclared_list(const struct rp_added *added, const struct tt_device *desc,
			char *buf, size_t size);
