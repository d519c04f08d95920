/* SPDX-License-Identifier: MIT */
/*
 * The uinput device side (side.h): each recorded evdev device recreated
 * through uinput (uinput-device.h), its frames played by the one player
 * (player.h, frame-steps.h), read back for --verify by verify.h (what the
 * kernel must deliver for each write); with the recorded surroundings
 * (replay-surroundings.h) and --libinput (li-replay.h) around the devices.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "hwdb-abs.h"
#include "li-replay.h"
#include "replay-surroundings.h"
#include "schedule.h"
#include "side.h"

struct rp_uinput_side_options {
	bool exact;				/* --exact: fuzz 0 */
	const struct rp_hwdb_abs *abs;		/* --hwdb-abs, applied once created */
	size_t nabs;
	struct rp_sur_options sur;		/* .recreate, .isolate, .own_libinput */
	const struct rp_li_options *li;		/* --libinput; NULL without */
};

struct rp_uinput_side;

/* Loads @path as rp_schedule_load() does (its return values, its messages
 * to @err) and says the SYN_DROPPED frames it will skip. */
int rp_uinput_side_new(const char *path, const struct rp_options *o,
		       const struct rp_uinput_side_options *so, FILE *err, struct rp_uinput_side **out);
void rp_uinput_side_free(struct rp_uinput_side *u);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_uinput_side *, rp_uinput_side_free);
/* The side as the pipeline takes it; valid while @u lives. */
struct rp_side rp_uinput_side_get(struct rp_uinput_side *u);
