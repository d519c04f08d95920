/* SPDX-License-Identifier: MIT */
/* touchtape: the command dispatcher, in the style of git and libinput. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "timeline.h"

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape [--version] [--help] COMMAND [ARGS...]\n"
		"\n"
		"Record, replay and inspect Linux multi-touch input: kernel evdev frames\n"
		"and XInput 2.2 touch events in one JSON Lines timeline.\n"
		"\n"
		"Commands:\n");
	for (const struct tt_command *c = tt_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out,
		"\n"
		"Every command exits 0 when all is well, 1 when it found problems\n"
		"(errors in a file, anomalies, differences) and 2 on trouble (bad usage,\n"
		"an input it cannot read, an output it cannot write). No command writes\n"
		"over a file it reads.\n"
		"\n"
		"Run 'touchtape COMMAND --help' for a command's options; 'man touchtape'\n"
		"and 'man touchtape-timeline' for the whole story, the options common to\n"
		"all commands and the file format.\n");
}

static const struct tt_command *
find(const char *name)
{
	for (const struct tt_command *c = tt_commands; c->name; c++) {
		if (strcmp(c->name, name) == 0)
			return c;
	}
	return NULL;
}

/* Every message of a command names it: "touchtape convert: FILE:LINE: ...". */
static int
run(const struct tt_command *cmd, int argc, char **argv)
{
	static char name[64];

	snprintf(name, sizeof(name), "touchtape %s", cmd->name);
	tt_program_name = name;
	int rc = tt_check_options(cmd, argc, argv);
	return rc ? rc : cmd->run(argc, argv);
}

int
main(int argc, char **argv)
{
	const struct tt_command *cmd;

	setlocale(LC_CTYPE, "");
	if (argc < 2) {
		usage(stderr);
		return TT_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("touchtape %s (timeline format version %d)\n", PACKAGE_VERSION, TT_FORMAT_VERSION);
		return TT_EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return TT_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc > 2) {
			cmd = find(argv[2]);
			if (!cmd) {
				tt_error("'%s' is not a touchtape command; see 'touchtape help'", argv[2]);
				return TT_EXIT_USAGE;
			}
			char *help_argv[] = { argv[2], (char *)"--help", NULL };
			return run(cmd, 2, help_argv);
		}
		usage(stdout);
		return TT_EXIT_OK;
	}
	cmd = find(argv[1]);
	if (!cmd) {
		tt_error("'%s' is not a touchtape command; see 'touchtape help'", argv[1]);
		return TT_EXIT_USAGE;
	}
	return run(cmd, argc - 1, argv + 1);
}
