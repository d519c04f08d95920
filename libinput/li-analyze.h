/* SPDX-License-Identifier: MIT */
/* analyze's report of the libinput layer: per device what libinput made
 * of it, each gesture, the libinput-to-kernel latencies. */
#pragma once

#include <stdio.h>

#include "json-emit.h"
#include "li-summary.h"

/* Nothing when the file has no libinput layer. */
void li_analyze_text(const struct li_summary *s, FILE *out);
/* The "libinput" member of analyze's report; none without the layer. */
void li_analyze_json(const struct li_summary *s, struct tt_json_emit *j);
/* Latencies (sorted, µs) as "  WHAT: median M us, p95 P us, max X us over
 * N" (nothing when empty), and as the member KEY: {count, median, p95,
 * max}; the Wayland layer's report (wl-analyze.c) uses them too. */
void li_latency_text(const char *what, const int64_t *v, size_t n, FILE *out);
void li_latency_json(struct tt_json_emit *j, const char *key, const int64_t *v, size_t n);
