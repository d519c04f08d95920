/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"

/* Each issue that lands a command adds its line here. */
const struct tt_command tt_commands[] = {
	{ "print", "show a recording as text, like evtest and xinput test-xi2", tt_cmd_print },
	{ "validate", "check a recording against the format and its semantics", tt_cmd_validate },
	{ NULL, NULL, NULL },
};

int
tt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tt_program_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s %s --help' for more information.\n", tt_program_name, cmd);
	return TT_EXIT_USAGE;
}
