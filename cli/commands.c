/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"
#include "read-options.h"
#include "reader.h"

/* Each issue that lands a command adds its line here. */
const struct tt_command tt_commands[] = {
	{ "print", "show a recording as text, like evtest and xinput test-xi2", tt_cmd_print,
	  tt_print_options, tt_print_short_options },
	{ "validate", "check a recording against the format and its semantics", tt_cmd_validate,
	  tt_validate_options, tt_validate_short_options },
	{ "list", "list the kernel's input devices: touch-capable, MT protocol, slots", tt_cmd_list,
	  tt_list_options, tt_list_short_options },
	{ "record", "record kernel evdev frames from one or more devices", tt_cmd_record,
	  tt_record_options, tt_record_short_options },
	{ "replay", "recreate recorded devices through uinput and replay them without drift", tt_cmd_replay,
	  tt_replay_options, tt_replay_short_options },
	{ "convert", "convert between the timeline, evemu, libinput-record and hid-recorder formats", tt_cmd_convert,
	  tt_convert_options, tt_convert_short_options },
	{ "analyze", "per-device and per-touch numbers and anomalies of a recording", tt_cmd_analyze,
	  tt_analyze_options, tt_analyze_short_options },
	{ "diff", "compare two recordings touch by touch (regression check)", tt_cmd_diff,
	  tt_diff_options, tt_diff_short_options },
	{ "inspect", "view a recording as touches over time (ncurses; --summary, --text)", tt_cmd_inspect,
	  tt_inspect_options, tt_inspect_short_options },
	{ "regress", "run a directory of recordings as a regression suite (TAP, JUnit)", tt_cmd_regress,
	  tt_regress_options, tt_regress_short_options },
	{ NULL, NULL, NULL, NULL, NULL },
};

int
tt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tt_program_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'touchtape %s --help' for more information.\n", cmd);
	return TT_EXIT_USAGE;
}

int
tt_open_recording(const char *path, struct tt_reader **out)
{
	_cleanup_free_ char *why = NULL;
	int rc = tt_reader_open_why(path, out, &why);

	if (rc < 0)
		tt_error("%s", why ? why : path);
	return rc;
}

int
tt_apply_desc(struct tt_reader *r, const char *desc, bool lenient)
{
	if (!desc)
		return 0;
	if (tt_reader_format(r) == TT_FORMAT_EVEMU)
		return tt_reader_set_companion(r, desc);
	if (lenient)
		return 0;
	tt_error("%s: --desc is for evemu events-only files, and this is a %s file", tt_reader_name(r),
		 tt_file_format_name(tt_reader_format(r)));
	return -EINVAL;
}

int
tt_open_recording_opts(const char *path, const struct tt_read_options *ro, struct tt_reader **out)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	int rc = tt_open_recording(path, &r);

	if (rc < 0)
		return rc;
	if (ro && (rc = tt_apply_desc(r, ro->desc, ro->caps & TT_READ_DESC_SOME)) < 0)
		return rc;
	*out = steal(&r);
	return 0;
}
