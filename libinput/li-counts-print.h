/* SPDX-License-Identifier: MIT */
/* The libinput model's gesture counts (libinput/model-li.h) as analyze and
 * inspect --summary print them: one wording for both. */
#pragma once

#include <stdio.h>

#include "json-emit.h"
#include "model-li.h"

/* " gestures: swipe 3-finger 1, hold 2-finger 1 (1 cancelled)", or
 * " no gestures"; no newline. */
void tt_li_counts_gestures_text(const struct tt_li_counts *c, FILE *out);
/* The members "gestures" ([{kind, fingers, count}]) and
 * "gestures_cancelled" of the object being emitted. */
void tt_li_counts_gestures_json(const struct tt_li_counts *c, struct tt_json_emit *j);
