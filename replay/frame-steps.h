/* SPDX-License-Identifier: MIT */
/*
 * Evdev frames as the player's steps (player.h): each frame of the
 * schedule written whole through a sink (uinput, or the --dry-run
 * printer), the state of every device followed from what was written
 * (neutral.h), so the release lifts every touch and key still down and
 * each loop starts from the recording's state at --from (a recording
 * that starts mid-touch, or --from in the middle of a gesture).
 */
#pragma once

#include "clock.h"
#include "player.h"
#include "schedule.h"

/* rp_play_steps() of @s's frames through @sink: its return values;
 * release and preparation frames count as stats->extra_frames. */
int rp_play(const struct rp_schedule *s, const struct rp_options *o, int64_t start_us,
	    struct rp_clock *clock, struct rp_sink *sink, struct rp_stats *stats);
