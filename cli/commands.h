/* SPDX-License-Identifier: MIT */
/* The subcommands of `touchtape`, one file each. */
#pragma once

#include <stdbool.h>

/* Exit codes shared by every command, like diff(1) and cmp(1); written
 * in touchtape(1), EXIT STATUS. */
enum {
	TT_EXIT_OK = 0,
	TT_EXIT_FAILURE = 1,	/* findings: errors in a file, anomalies, differences */
	TT_EXIT_TROUBLE = 2,	/* bad usage, input missing or unreadable, output not written */
	TT_EXIT_USAGE = TT_EXIT_TROUBLE,
};

struct tt_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

/* The table, in the order `touchtape help` lists them. */
extern const struct tt_command tt_commands[];

struct tt_reader;
struct tt_read_options;
/* Opens a recording for a command; on failure says why on stderr and
 * returns a negative errno (*out untouched): the command then exits with
 * TT_EXIT_TROUBLE. */
int tt_open_recording(const char *path, struct tt_reader **out);
/* The same, with the reading options applied that apply to opening
 * (--desc, refused for anything but an evemu file). */
int tt_open_recording_opts(const char *path, const struct tt_read_options *ro, struct tt_reader **out);
/* --desc FILE for @r: refused (-EINVAL, said on stderr) unless @r is an
 * evemu file; with @lenient, other formats just do not use it. */
int tt_apply_desc(struct tt_reader *r, const char *desc, bool lenient);

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
int tt_cmd_regress(int argc, char **argv);
