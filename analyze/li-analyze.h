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
