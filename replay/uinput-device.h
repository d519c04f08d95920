/* SPDX-License-Identifier: MIT */
/*
 * A uinput device recreated from a recorded struct tt_device: name, ids,
 * properties, every type and code, absinfo (fuzz 0 with --exact), slots,
 * EV_REP. The name gets RP_NAME_PREFIX so nobody mistakes it for hardware
 * and a desktop can ignore it (a udev rule matching ATTRS{name}=="touchtape
 * replay: *").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>

#include "timeline.h"
#include "util-mem.h"

#define RP_NAME_PREFIX "touchtape replay: "

struct rp_uinput;

/* Whether uinput accepts axis @code with @a (uinput_validate_absinfo()):
 * a range not upside down, a flat within it, at most 100 slots. A HID
 * device can have axes the kernel made itself that uinput refuses (a
 * vendor usage mapped onto ABS_MT_SLOT with a range of -127..127). */
static inline bool
rp_uinput_abs_ok(unsigned int code, const struct tt_absinfo *a)
{
	int64_t range = (int64_t)a->maximum - a->minimum;

	if ((a->minimum != 0 || a->maximum != 0) && a->maximum < a->minimum)
		return false;
	if (range <= INT32_MAX && a->flat > range)
		return false;
	return !(code == ABS_MT_SLOT && a->maximum > 99);
}

/* 0 or a negative errno; on failure @why (of @whysize) says what to do.
 * @tag (NULL: none) ends the name whole: the name is cut before it. */
int rp_uinput_create(const struct tt_device *dev, bool exact, const char *tag, struct rp_uinput **out,
		     char *why, size_t whysize);
/* Waits (bounded: @timeout_ms) until the device node exists. Returns 0,
 * -ETIMEDOUT. */
int rp_uinput_wait_node(struct rp_uinput *u, int timeout_ms);
/* /dev/input/eventN, or NULL before it exists. */
const char *rp_uinput_node(const struct rp_uinput *u);
/* One write(2) of the whole frame. 0 or a negative errno. */
int rp_uinput_write(struct rp_uinput *u, const struct input_event *ev, size_t n);
/* The absinfo the device was created with (fuzz 0 under --exact). */
const struct input_absinfo *rp_uinput_absinfo(const struct rp_uinput *u, unsigned int code);
void rp_uinput_destroy(struct rp_uinput *u);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_uinput *, rp_uinput_destroy);
