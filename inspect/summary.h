/* SPDX-License-Identifier: MIT */
/* touchtape inspect --summary. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "grade.h"
#include "index.h"

/* Devices, duration, frames, touch sequences per device, max
 * simultaneous touches, XI sequences and ownership outcomes, links,
 * anomalies: as text, or as one JSON object. */
/* With @grade (may be NULL), the grade's failing metrics too. */
void tt_inspect_summary(const struct tt_index *ix, FILE *out, bool json, const struct tt_grade_outcome *grade);
