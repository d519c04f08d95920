/* SPDX-License-Identifier: MIT */
/* The end-of-replay report: text for people, JSON (--report) for scripts. */
#pragma once

#include <stdio.h>

#include "player.h"
#include "schedule.h"
#include "verify.h"

void rp_report_print_verify(FILE *out, const struct rp_verify_result *v);
/* Writes the JSON report to @f (the caller opens, flushes and closes it:
 * cli/output.h); @v may be NULL. */
void rp_report_write(FILE *f, const struct rp_schedule *s, const struct rp_stats *st,
		     const struct rp_summary *sum, const struct rp_verify_result *v);
