/* SPDX-License-Identifier: MIT */
/* convert --format trace: reads @in (with the reading options @ro) and
 * writes the trace (trace.h) to @out ("-" or NULL: standard output, held
 * until the input is known good; a name ending in .gz: compressed). The
 * command's exit status. */
#pragma once

#include "read-options.h"

int convert_trace(const char *in, const char *out, struct tt_read_options *ro);
