/* SPDX-License-Identifier: MIT */
/* analyze's report of the XI ownership chains (xi/model-xi-own.h): per
 * touch the chain, each stage's ownership delay and the earlier
 * decisions it waited for; per stage the median and p95. */
#pragma once

#include <stdio.h>

#include "json-emit.h"
#include "model-xi-own.h"

/* Nothing when no XI touch had a chain. */
void xi_chains_text(const struct tt_xi_own *o, FILE *out);
/* The "xi_chains" and "xi_chain_stages" members (empty arrays without). */
void xi_chains_json(const struct tt_xi_own *o, struct tt_json_emit *j);
