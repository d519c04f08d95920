/* SPDX-License-Identifier: MIT */
/* The subcommands of `touchtape`, one file each. */
#pragma once

#include <stdbool.h>

/* Exit codes shared by every command. */
enum {
	TT_EXIT_OK = 0,
	TT_EXIT_FAILURE = 1,	/* the job failed, or problems were found */
	TT_EXIT_USAGE = 2,	/* bad command line */
};

struct tt_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

/* The table, in the order `touchtape help` lists them. */
extern const struct tt_command tt_commands[];

struct tt_reader;
/* Opens a recording for a command; on failure says why on stderr and
 * returns a negative errno (*out untouched). */
int tt_open_recording(const char *path, struct tt_reader **out);

/* Prints "Try 'touchtape CMD --help'" after a usage error; returns 2. */
int tt_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int tt_cmd_print(int argc, char **argv);
int tt_cmd_validate(int argc, char **argv);
int tt_cmd_list(int argc, char **argv);
int tt_cmd_record(int argc, char **argv);
int tt_cmd_replay(int argc, char **argv);
int tt_cmd_inspect(int argc, char **argv);
int tt_cmd_convert(int argc, char **argv);
int tt_cmd_analyze(int argc, char **argv);
int tt_cmd_diff(int argc, char **argv);
