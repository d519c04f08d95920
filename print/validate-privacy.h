/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>

#include "read-options.h"

/* validate --privacy of one file: each finding on stderr as
 * "touchtape validate: FILE:LINE: what" (unless @quiet), a count on
 * stdout. TT_EXIT_OK when nothing was found, TT_EXIT_FAILURE when
 * something was, TT_EXIT_TROUBLE when the file cannot be read. */
int tt_validate_privacy(const char *path, const struct tt_read_options *ro, bool quiet);
