/* SPDX-License-Identifier: MIT */
/*
 * The end-of-replay report: text for people, JSON (--report) for scripts.
 * The JSON is one object written in pieces by the pipeline (pipeline.c)
 * and the device side (side.h): rp_report_begin(), the side's members,
 * rp_report_lateness(), the --verify member, rp_report_end(). The caller
 * opens, flushes and closes the stream (cli/output.h).
 */
#pragma once

#include <stdio.h>

#include "player.h"
#include "schedule.h"
#include "verify.h"

/* The --verify verdict for people (either kind of result). */
void rp_report_print_verify(FILE *out, const struct rp_verify_result *v);

/* "{" and the counts every replay has. */
void rp_report_begin(FILE *f, const struct rp_stats *st);
/* The evdev schedule's members: the SYN_DROPPED frames skipped, the
 * resync frames. */
void rp_report_evdev_fields(FILE *f, const struct rp_schedule *s);
void rp_report_lateness(FILE *f, const struct rp_summary *sum);
/* The ",\"verify\":{...}" member (either kind of result). */
void rp_report_verify(FILE *f, const struct rp_verify_result *v);
void rp_report_end(FILE *f);
