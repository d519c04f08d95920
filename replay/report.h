/* SPDX-License-Identifier: MIT */
/* The end-of-replay report: text for people, JSON (--report) for scripts. */
#pragma once

#include <stdio.h>

#include "player.h"
#include "schedule.h"
#include "verify.h"

void rp_report_print_verify(FILE *out, const struct rp_verify_result *v);
/* Writes the JSON report; @v may be NULL. 0 or a negative errno (printed). */
int rp_report_write(const char *path, const struct rp_schedule *s, const struct rp_stats *st,
		    const struct rp_summary *sum, const struct rp_verify_result *v);
