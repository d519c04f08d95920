/* SPDX-License-Identifier: MIT */
/* The subcommands of `touchtape`, one file each. */
#pragma once

#include <getopt.h>
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
	/* What the command hands getopt_long(): the one declaration of its
	 * options, also read to say which commands take an option another
	 * refuses. */
	const struct option *options;
	const char *short_options;
};

/* The table, in the order `touchtape help` lists them. */
extern const struct tt_command tt_commands[];

/* Before @cmd runs: an option in @argv that it does not take is refused
 * with the commands that do take it ("touchtape print: --plot is not an
 * option of print; analyze takes it"); TT_EXIT_USAGE, or 0 (anything
 * else, a missing value or an ambiguous abbreviation, is getopt's to
 * say when the command reads its options). */
int tt_check_options(const struct tt_command *cmd, int argc, char **argv);

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

/* Each command's options (the table ends with a zero entry) and short
 * option letters, as it hands them to getopt_long(). */
#define TT_COMMAND_OPTIONS(cmd) \
	extern const struct option tt_##cmd##_options[]; \
	extern const char tt_##cmd##_short_options[]
TT_COMMAND_OPTIONS(print);
TT_COMMAND_OPTIONS(validate);
TT_COMMAND_OPTIONS(list);
TT_COMMAND_OPTIONS(record);
TT_COMMAND_OPTIONS(replay);
TT_COMMAND_OPTIONS(inspect);
TT_COMMAND_OPTIONS(convert);
TT_COMMAND_OPTIONS(analyze);
TT_COMMAND_OPTIONS(diff);
TT_COMMAND_OPTIONS(regress);

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
