/* SPDX-License-Identifier: MIT */
/* Messages for people, on stderr, prefixed with the program name. */
#pragma once

#include <stdio.h>

#include "util-mem.h"

extern const char *tt_program_name;

void tt_error(const char *fmt, ...) _printf_(1, 2);
void tt_warning(const char *fmt, ...) _printf_(1, 2);
void tt_info(const char *fmt, ...) _printf_(1, 2);
/* Quiet mode silences tt_info() only. */
void tt_log_set_quiet(int quiet);
/* Where messages go from now on: @f, or stderr (NULL). A command that
 * reads two files side by side holds each one's messages so. */
void tt_log_set_stream(FILE *f);
