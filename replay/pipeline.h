/* SPDX-License-Identifier: MIT */
/*
 * The one replay pipeline, for every device side (side.h): --dry-run on a
 * clock where every deadline is met at once; a live replay on the live
 * clock (clock.h), whose loop serves the --verify readers and the stop
 * signals while the player waits:
 *
 *   clock, priority -> create -> --verify readers -> start -> --wait ->
 *   play (released whatever ends it) -> drain, settle -> finish ->
 *   destroy -> summary, --verify verdict, --report
 *
 * The devices are destroyed on every path, the error ones too.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "player.h"
#include "side.h"

struct rp_pipeline_options {
	int64_t spin_max_us;	/* --spin */
	bool realtime;		/* not --no-realtime */
	bool verify;
	bool wait_enter;
	bool quiet;
};

/* --dry-run: prints each step at its deadline and the summary; writes
 * @report when not NULL. An exit status (TT_EXIT_*). */
int rp_pipeline_dry(struct rp_side *side, const struct rp_options *o, struct tt_output *report);
/* A live replay: an exit status (TT_EXIT_*, 128+N when stopped by signal
 * N, after the release). */
int rp_pipeline_live(struct rp_side *side, const struct rp_options *o,
		     const struct rp_pipeline_options *po, struct tt_output *report);
