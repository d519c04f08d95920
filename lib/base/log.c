/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "log.h"

const char *tt_program_name = "touchtape";
static int quiet;
static FILE *stream;

void
tt_log_set_stream(FILE *f)
{
	stream = f;
}

void
tt_log_set_quiet(int q)
{
	quiet = q;
}

static void
vlog(const char *prefix, const char *fmt, va_list ap)
{
	FILE *f = stream ? stream : stderr;

	fprintf(f, "%s: %s", tt_program_name, prefix);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

void
tt_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void
tt_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void
tt_info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}
