/* SPDX-License-Identifier: MIT */
/* An option given to a command that does not take it, refused with the
 * commands that do take it (touchtape(1), COMMON OPTIONS), read from the
 * one table of commands and their options (commands.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "util-mem.h"

/* Whether --@name (@len bytes, without "--") is one of @opts, or an
 * abbreviation of one, as getopt_long() takes it. */
static bool
has_long(const struct option *opts, const char *name, size_t len, int *has_arg)
{
	bool found = false;

	for (const struct option *o = opts; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0') {
			*has_arg = o->has_arg;
			return true;
		}
		if (!found)
			*has_arg = o->has_arg;
		found = true;	/* ambiguous abbreviations are getopt's to say */
	}
	return found;
}

enum short_kind { SHORT_NONE, SHORT_FLAG, SHORT_VALUE, SHORT_OPTIONAL_VALUE };

/* What -@c is in getopt's @shorts ("o:qh", "x::"). */
static enum short_kind
short_kind(const char *shorts, char c)
{
	const char *p = c != ':' && shorts ? strchr(shorts, c) : NULL;

	if (!p)
		return SHORT_NONE;
	if (p[1] != ':')
		return SHORT_FLAG;
	return p[2] == ':' ? SHORT_OPTIONAL_VALUE : SHORT_VALUE;
}

static bool
takes(const struct tt_command *c, const char *opt)
{
	int has_arg;

	if (opt[1] == '-')
		return has_long(c->options, opt + 2, strcspn(opt + 2, "="), &has_arg);
	return short_kind(c->short_options, opt[1]) != SHORT_NONE;
}

/* "analyze takes it", "analyze and diff take it", "a, b and c take it". */
static void
say_takers(FILE *f, const struct tt_command *self, const char *opt)
{
	size_t n = 0, total = 0;

	for (const struct tt_command *c = tt_commands; c->name; c++)
		total += c != self && takes(c, opt);
	if (!total) {
		fputs(" (nor of any other command)", f);
		return;
	}
	fputs("; ", f);
	for (const struct tt_command *c = tt_commands; c->name; c++) {
		if (c == self || !takes(c, opt))
			continue;
		n++;
		fprintf(f, "%s%s", n == 1 ? "" : n == total ? " and " : ", ", c->name);
	}
	fprintf(f, " take%s it", total == 1 ? "s" : "");
}

static int
refuse(const struct tt_command *self, const char *opt, size_t len)
{
	_cleanup_free_ char *name = strndup(opt, len);
	_cleanup_free_ char *takers = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&takers, &size);

	if (!f)
		abort();
	say_takers(f, self, name);
	if (fclose(f) != 0)
		abort();
	return tt_usage_error(self->name, "%s is not an option of %s%s", name, self->name, takers);
}

/* A cluster "-abc": 0, with *@skip when its value is the next argument,
 * or a refusal. */
static int
check_short(const struct tt_command *self, const char *arg, bool *skip)
{
	for (const char *p = arg + 1; *p; p++) {
		char opt[3] = { '-', *p, '\0' };
		enum short_kind kind = short_kind(self->short_options, *p);
		if (kind == SHORT_NONE)
			return refuse(self, opt, 2);
		if (kind != SHORT_FLAG) {
			/* the rest of the cluster is the value */
			*skip = kind == SHORT_VALUE && p[1] == '\0';
			return 0;
		}
	}
	return 0;
}

int
tt_check_options(const struct tt_command *self, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has_arg = no_argument;
		bool skip = false;

		if (strcmp(a, "--") == 0)
			return 0;
		if (a[0] != '-' || a[1] == '\0')
			continue;	/* a file, or "-": GNU getopt reads options after them */
		if (a[1] != '-') {
			int rc = check_short(self, a, &skip);
			if (rc)
				return rc;
		} else {
			size_t len = strcspn(a + 2, "=");
			if (!has_long(self->options, a + 2, len, &has_arg))
				return refuse(self, a, len + 2);
			skip = has_arg == required_argument && a[2 + len] != '=';
		}
		i += skip;	/* the option's value, whatever it looks like */
	}
	return 0;
}
