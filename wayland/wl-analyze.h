/* SPDX-License-Identifier: MIT */
/* analyze's report of the Wayland layer: each wl_touch sequence with the
 * kernel touch it came from, the linked and unlinked counts, the
 * latencies, the events per kind. Text and JSON use the same names. */
#pragma once

#include <stdio.h>

#include "json-emit.h"
#include "wl-summary.h"

/* Nothing when the file has no Wayland layer. */
void wl_analyze_text(const struct wl_summary *s, FILE *out);
/* The "wayland" member of analyze's report; none without the layer. */
void wl_analyze_json(const struct wl_summary *s, struct tt_json_emit *j);
