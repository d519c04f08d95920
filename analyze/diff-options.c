/* SPDX-License-Identifier: MIT */
/* touchtape diff's options: the tolerances (each with its unit), what to
 * ignore, the output. See diff.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diff.h"
#include "grade.h"
#include "log.h"
#include "read-options.h"
#include "tolerance.h"
#include "util-strings.h"

void
diff_opts_default(struct diff_opts *o)
{
	*o = (struct diff_opts){
		.time_tol = 50000, .pos_tol_mm = 1.0, .pos_tol_frac = 0.005, .scroll_tol = 0.1,
		.path_tol_mm = 1.0, .path_tol_frac = 0.005, .axis_tol_frac = 0.05, .rate_tol_frac = 0.05,
		.stall_tol = 100000, .latency_tol = 1000, .refresh_hz = 60.0,
	};
}

static void
usage(FILE *out)
{
	fputs(
		"Usage: touchtape diff [OPTIONS] A B\n"
		"\n"
		"Compares two recordings touch by touch: the kernel touch sequences of each\n"
		"device (begin and end times, slots, begin and end positions, the whole path,\n"
		"every other axis, the frames' rhythm), every key, button and switch change,\n"
		"the HID contacts where both files have them and, where both files have them,\n"
		"the XI touch sequences of each client (times, ownership outcome, pointer\n"
		"emulation), paired through the kernel touch they came from, else in begin\n"
		"order. Then the anomalies (the kinds analyze and validate report) whose count\n"
		"differs, with their lines in each file.\n"
		"Lists every difference with the lines in both files. Ignored, because a\n"
		"replay cannot reproduce them: absolute times (kernel touches are compared\n"
		"relative to their device's first frame, XI touches to the file's first\n"
		"record), device ids and nodes, the name prefix \"touchtape replay: \" (and\n"
		"its \" (pid PID.ID)\" tag), tracking ID values, XI device and touch ids, X\n"
		"server times and latencies. Compared too, where both files recorded them: the\n"
		"devices' key udev properties (ID_INPUT_*, LIBINPUT_*, hwdb's) and quirks.\n"
		"\n"
		"Options (times need a unit: us, ms, s; distances mm or % of the axis range):\n"
		"  -T, --time-tolerance T      begin/end and key times may differ by T\n"
		"                              (default 50ms)\n"
		"  -P, --position-tolerance D  begin/end positions may differ by D\n"
		"                              (default 1mm; 0.5% without resolution)\n"
		"      --units-tolerance F     for devices without resolution: a fraction of\n"
		"                              the axis range, or N% (default 0.005)\n"
		"      --path-tolerance D      paired touches' paths may part by D\n"
		"                              (default 1mm; 0.5% without resolution)\n"
		"      --axis-tolerance F      other axes may differ by N% of their range\n"
		"                              (default 5%, at least twice the fuzz)\n"
		"      --rate-tolerance F      frame counts may differ by N% (default 5%,\n"
		"                              at least 2), the mean interval by 4 times it\n"
		"                              or 2ms\n"
		"      --stall-tolerance T     the largest interval in motion may differ by T\n"
		"      --latency-tolerance T   a Wayland client's latencies may differ by T or a\n"
		"                              quarter of the larger, whichever is more (1ms)\n"
		"                              (default 100ms, at least 3 mean intervals)\n"
		"      --scroll-tolerance F    libinput scroll distances may differ by a\n"
		"                              fraction F of the larger, or N% (default 0.1)\n"
		"      --ignore KIND           leave out path, axes, rhythm, keys, hid or\n"
		"                              anomalies (more than once, or KIND,KIND)\n"
		"  -k, --kernel-only           ignore XI data, the libinput layer and the\n"
		"                              surroundings\n"
		"      --no-anomalies          do not compare the anomalies of the two files\n"
		"  -j, --json                  the differences as one JSON document\n"
		"      --grade PROFILE         grade both files' touch device as 'touchtape\n"
		"                              analyze --grade' does: a metric whose verdict\n"
		"                              differs is a difference\n"
		"      --refresh HZ            the display's refresh rate for --grade (60)\n"
		"\n"
		"Reading options, applied to both files (see touchtape(1)):\n"
		"      --desc FILE             device description for an evemu events-only\n"
		"                              file (A or B)\n"
		"  -d, --device ID             only the device with this id in each file\n"
		"      --from TIME             only from this time on, as print shows it\n"
		"      --to TIME               only up to this time, as print shows it\n"
		"  -h, --help                  show this help\n"
		"\n"
		"Exit status: 0 when the recordings match, 1 when they differ, 2 on bad usage\n"
		"or a file that cannot be read, wholly or in part.\n"
		"\n"
		"Examples:\n"
		"  touchtape diff bug-1234.jsonl replayed.jsonl\n"
		"  touchtape diff -T 50ms -P 2mm known-good.jsonl new-kernel.jsonl\n"
		"  touchtape diff --ignore rhythm --path-tolerance 1% old.jsonl new.jsonl\n"
		"  touchtape diff --device 0 --from 0.5 --to 2s known-good.jsonl new.jsonl\n"
		"  touchtape diff --json bug-1234.jsonl replayed.jsonl | jq .anomalies\n", out);
}

enum {
	O_UNITS_TOL = TT_OPT_FIRST_PRIVATE,
	O_NO_ANOMALIES,
	O_SCROLL_TOL,
	O_PATH_TOL,
	O_AXIS_TOL,
	O_RATE_TOL,
	O_STALL_TOL,
	O_LATENCY_TOL,
	O_IGNORE,
	O_GRADE,
	O_REFRESH,
};

static int
bad_time(const char *opt, const char *arg, int rc)
{
	if (rc == -EDOM)
		return tt_usage_error("diff", "--%s %s %s", opt, arg, TT_TOLERANCE_TIME_UNITS);
	return tt_usage_error("diff", "--%s takes a duration of 0 or more like 20ms, not '%s'", opt, arg);
}

static int
time_option(const char *opt, const char *arg, int64_t *out)
{
	int rc = tt_parse_tolerance_us(arg, out);

	return rc < 0 ? bad_time(opt, arg, rc) : 0;
}

static int
distance_option(const char *opt, const char *arg, double *mm, double *frac)
{
	bool is_mm;
	int rc = tt_parse_tolerance_distance(arg, mm, frac, &is_mm);

	if (rc == -EDOM)
		return tt_usage_error("diff", "--%s %s %s", opt, arg, TT_TOLERANCE_DISTANCE_UNITS);
	if (rc < 0)
		return tt_usage_error("diff", "--%s takes a distance like 1mm or 0.5%%, not '%s'", opt, arg);
	return 0;
}

static int
fraction_option(const char *opt, const char *arg, double *out)
{
	if (tt_parse_tolerance_fraction(arg, out) < 0)
		return tt_usage_error("diff", "--%s takes a fraction 0..1 or a percentage, not '%s'", opt, arg);
	return 0;
}

/* 0, TT_EXIT_USAGE after a usage error, -ENOENT: not a tolerance. */
static int
tolerance_option(struct diff_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'T': return time_option("time-tolerance", arg, &o->time_tol);
	case 'P': return distance_option("position-tolerance", arg, &o->pos_tol_mm, &o->pos_tol_frac);
	case O_UNITS_TOL: return fraction_option("units-tolerance", arg, &o->pos_tol_frac);
	case O_SCROLL_TOL: return fraction_option("scroll-tolerance", arg, &o->scroll_tol);
	case O_PATH_TOL: return distance_option("path-tolerance", arg, &o->path_tol_mm, &o->path_tol_frac);
	case O_AXIS_TOL: return fraction_option("axis-tolerance", arg, &o->axis_tol_frac);
	case O_RATE_TOL: return fraction_option("rate-tolerance", arg, &o->rate_tol_frac);
	case O_STALL_TOL: return time_option("stall-tolerance", arg, &o->stall_tol);
	case O_LATENCY_TOL: return time_option("latency-tolerance", arg, &o->latency_tol);
	default: return -ENOENT;
	}
}

static int
diff_option(struct diff_opts *o, int opt, const char *arg)
{
	int rc = tolerance_option(o, opt, arg);

	if (rc != -ENOENT)
		return rc;
	switch (opt) {
	case O_IGNORE:
		if (tt_parse_ignore_kinds(arg, &o->ignore) < 0)
			return tt_usage_error("diff", "--ignore takes " TT_IGNORE_KINDS ", not '%s'", arg);
		break;
	case 'k': o->kernel_only = true; break;
	case 'j': o->json = true; break;
	case O_NO_ANOMALIES: o->ignore |= DIFF_IGNORE_ANOMALIES; break;
	case O_GRADE: return tt_read_grade_option("diff", arg, &o->profile);
	case O_REFRESH:
		return tt_read_refresh_option("diff", arg, &o->refresh_hz);
	case 'h': usage(stdout); return -1;
	default: return tt_usage_error("diff", "unknown option");
	}
	return 0;
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_diff_options[] = {
	{ "time-tolerance", required_argument, NULL, 'T' },
	{ "position-tolerance", required_argument, NULL, 'P' },
	{ "units-tolerance", required_argument, NULL, O_UNITS_TOL },
	{ "scroll-tolerance", required_argument, NULL, O_SCROLL_TOL },
	{ "path-tolerance", required_argument, NULL, O_PATH_TOL },
	{ "axis-tolerance", required_argument, NULL, O_AXIS_TOL },
	{ "rate-tolerance", required_argument, NULL, O_RATE_TOL },
	{ "stall-tolerance", required_argument, NULL, O_STALL_TOL },
	{ "latency-tolerance", required_argument, NULL, O_LATENCY_TOL },
	{ "ignore", required_argument, NULL, O_IGNORE },
	TT_READ_LONG_OPTIONS,
	{ "kernel-only", no_argument, NULL, 'k' },
	{ "no-anomalies", no_argument, NULL, O_NO_ANOMALIES },
	{ "json", no_argument, NULL, 'j' },
	{ "grade", required_argument, NULL, O_GRADE },
	{ "refresh", required_argument, NULL, O_REFRESH },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_diff_short_options[] = "T:P:kjh" TT_READ_SHORT_OPTIONS;

int
diff_parse_args(int argc, char **argv, struct diff_opts *o, struct tt_read_options *ro)
{
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, tt_diff_short_options, tt_diff_options, NULL)) != -1) {
		rc = tt_read_option(ro, opt, optarg);
		if (rc == 0)
			rc = diff_option(o, opt, optarg);
		else if (rc == 1)
			rc = 0;
		if (rc != 0)
			return rc;
	}
	if (argc - optind != 2)
		return tt_usage_error("diff", "two files are needed");
	return tt_read_options_check(ro);
}
