/* SPDX-License-Identifier: MIT */
/* A whole file through the layer stack (lib/model/stack.h), for commands that need only its
 * diagnostics and numbers. It sits in cli/ rather than lib/ because it
 * drives a reader (formats/), which lib/ must not know. */
#pragma once

#include "detect.h"

struct tt_reader;
/* For commands that want only the diagnostics and numbers of a file
 * (diff, replay --verify): reads @r to its end through a tt_stack.
 * @stats (may be NULL) gets the numbers. 0, or the reader's negative
 * errno (-EIO) when reading stopped early. */
int tt_stack_run(struct tt_reader *r, const struct tt_detect_options *opts,
		 tt_diag_fn fn, void *diag_data, struct tt_stats *stats);
