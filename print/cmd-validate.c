/* SPDX-License-Identifier: MIT */
/* touchtape validate: the format's rules, the semantic checks and the
 * anomalies of the touch model: the one stream of lib/analysis/detect.h. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "stack.h"
#include "log.h"
#include "read-options.h"
#include "reader.h"
#include "util-strings.h"
#include "validate-privacy.h"

struct validate_ctx {
	const char *name;
	bool quiet;
	const struct tt_read_options *ro;
	const struct tt_record *feeding;	/* while one is fed */
	struct tt_diag_filter filter;
	struct tt_stack *detect;
};

enum {
	OPT_STRICT = TT_OPT_FIRST_PRIVATE,
	OPT_MAX,
	OPT_IGNORE,
	OPT_PRIVACY,
};

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape validate [OPTIONS] FILE...\n"
		"\n"
		"Checks recordings: every line against the timeline format (evemu and\n"
		"libinput-record files against theirs), then the semantics: time never goes\n"
		"backwards, frames end with SYN_REPORT, slots within range, a tracking ID\n"
		"never active in two slots, values within absinfo, codes the device has,\n"
		"XI touch sequences that begin, update and end in order; and the anomalies\n"
		"touchtape analyze reports (jumps, BTN_TOUCH against the touches down...).\n"
		"Each message ends with its kind, e.g. [value-out-of-range].\n"
		"\n"
		"Options:\n"
		"  -q, --quiet         print only the summary line\n"
		"  -d, --device ID     check only this device's frames\n"
		"      --from TIME     report only from this time on (1.5, 250ms, 2s, in the\n"
		"                      times print shows); what comes before still sets the\n"
		"                      state, so a touch begun earlier is no anomaly\n"
		"      --to TIME       report only up to this time\n"
		"      --strict        warnings count as problems too\n"
		"      --ignore KIND   leave out diagnostics of this kind (repeatable)\n"
		"      --max N         show at most N messages of each kind (default %d;\n"
		"                      0 = all); the rest are counted per kind\n"
		"      --desc FILE     the device description of an events-only evemu file\n"
		"      --privacy       instead, list what may identify a person or machine:\n"
		"                      keys typed in clear (evdev or HID), serials,\n"
		"                      addresses, DMI strings, node paths; 'touchtape\n"
		"                      convert --redact' writes a copy without them\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when the files are valid (warnings allowed unless --strict),\n"
		"1 when errors (with --privacy: findings) were found, 2 on bad usage, an unreadable file, a --device\n"
		"the file does not have or a --from past its end.\n"
		"\n"
		"Examples:\n"
		"  touchtape validate bug-1234.jsonl\n"
		"  touchtape validate --ignore value-out-of-range --strict ci/*.jsonl\n"
		"  touchtape validate --from 2s --to 3.5s bug-1234.jsonl\n"
		"  touchtape validate --privacy bug-1234.jsonl\n",
		TT_DIAG_DEFAULT_MAX);
}

static void
on_diag(void *userdata, const struct tt_diag *d)
{
	struct validate_ctx *v = userdata;
	char msg[600];

	if (!tt_read_options_keep_diag(v->ro, d, v->feeding))
		return;
	if (!tt_diag_filter_accept(&v->filter, d) || v->quiet)
		return;
	tt_diag_format(d, "validate", v->name, msg, sizeof(msg));
	fprintf(stderr, "%s\n", msg);
}

static void
on_warn(void *userdata, const char *message)
{
	struct validate_ctx *v = userdata;

	tt_stack_reader_warning(v->detect, v->name, message);
}

/* Reads the whole file (what comes before --from sets the state the
 * window starts in); returns the records within the window, and the
 * reader's -EIO in @rc when reading stopped. */
static size_t
read_all(struct validate_ctx *v, struct tt_reader *r, int *rc_out)
{
	struct tt_record rec;
	size_t records = 0;
	int rc;

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			tt_stack_reader_error(v->detect, v->name, tt_reader_error(r));
			if (rc == -EIO)
				break;
			continue;
		}
		if (tt_read_options_in_window(v->ro, &rec))
			records++;
		if (!tt_read_options_keep_device(v->ro, &rec))
			continue;
		v->feeding = &rec;
		tt_stack_feed(v->detect, &rec);
		v->feeding = NULL;
	}
	*rc_out = rc;
	return records;
}

static void
print_summary(struct validate_ctx *v, const struct tt_reader *r, size_t records)
{
	size_t errors = tt_diag_filter_total(&v->filter, TT_SEV_ERROR);
	size_t warnings = tt_diag_filter_total(&v->filter, TT_SEV_WARNING);

	if (!v->quiet)
		tt_diag_filter_print_more(&v->filter, stderr, "touchtape validate: ");
	printf("%s: %s, %zu records, %zu error%s, %zu warning%s", v->name,
	       tt_file_format_name(tt_reader_format(r)), records,
	       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	tt_read_options_window_text(v->ro, stdout);
	putchar('\n');
}

/* 0, 1 (findings) or 2 (unreadable, or a --from past its end). */
static int
validate_one(const char *path, const struct tt_read_options *ro, const struct tt_diag_filter *opts, bool quiet)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_stack_freep) struct tt_stack *d = NULL;
	struct validate_ctx v = { .name = path, .quiet = quiet, .filter = *opts, .ro = ro };
	const struct tt_stats *st;
	size_t records;
	int rc;

	rc = tt_open_recording_opts(path, ro, &r);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	v.name = tt_reader_name(r);
	d = v.detect = tt_stack_new(NULL, on_diag, &v);
	tt_reader_set_warn(r, on_warn, &v);
	records = read_all(&v, r, &rc);
	tt_stack_finish(d);
	if (tt_read_options_finish(ro, r) < 0)
		return TT_EXIT_TROUBLE;
	st = tt_stack_stats(d);
	if (tt_read_options_check_end(ro, v.name, st->have_time, st->last_us) != 0)
		return TT_EXIT_USAGE;
	print_summary(&v, r, records);
	if (rc == -EIO)
		return TT_EXIT_TROUBLE;
	return tt_diag_filter_status(&v.filter) ? TT_EXIT_FAILURE : TT_EXIT_OK;
}

static int
parse_option(int opt, const char *arg, struct tt_diag_filter *f)
{
	int64_t v;

	switch (opt) {
	case OPT_STRICT:
		f->strict = true;
		return 0;
	case OPT_MAX:
		if (tt_parse_int64(arg, &v) < 0 || v < 0)
			return tt_usage_error("validate", "--max takes a number, not '%s'", arg), -1;
		f->max_per_kind = (size_t)v;
		return 0;
	case OPT_IGNORE:
		if (tt_diag_filter_ignore(f, arg) < 0)
			return tt_usage_error("validate", "--ignore: no diagnostic is called '%s'", arg), -1;
		return 0;
	default:
		return tt_usage_error("validate", "unknown option"), -1;
	}
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_validate_options[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "max", required_argument, NULL, OPT_MAX },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "privacy", no_argument, NULL, OPT_PRIVACY },
	TT_READ_LONG_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_validate_short_options[] = "qh" TT_READ_SHORT_OPTIONS;

int
tt_cmd_validate(int argc, char **argv)
{
	struct tt_diag_filter filter = { .max_per_kind = TT_DIAG_DEFAULT_MAX };
	bool quiet = false;
	bool privacy = false;
	int opt, rc, status = TT_EXIT_OK;
	_cleanup_(tt_read_options_clear) struct tt_read_options ro;

	tt_read_options_init(&ro, "validate", TT_READ_ALL);
	optind = 1;
	while ((opt = getopt_long(argc, argv, tt_validate_short_options, tt_validate_options, NULL)) != -1) {
		if ((rc = tt_read_option(&ro, opt, optarg)) != 0) {
			if (rc != 1)
				return rc;
			continue;
		}
		switch (opt) {
		case 'q': quiet = true; break;
		case OPT_PRIVACY: privacy = true; break;
		case 'h': usage(stdout); return TT_EXIT_OK;
		default:
			if (parse_option(opt, optarg, &filter) < 0)
				return TT_EXIT_USAGE;
			break;
		}
	}
	if (optind >= argc)
		return tt_usage_error("validate", "no file given");
	if (tt_read_options_check(&ro) != 0)
		return TT_EXIT_USAGE;
	/* Trouble with one file outweighs findings in another, as in diff(1). */
	for (int i = optind; i < argc; i++) {
		rc = privacy ? tt_validate_privacy(argv[i], &ro, quiet) :
			       validate_one(argv[i], &ro, &filter, quiet);
		if (rc > status)
			status = rc;
	}
	return status;
}
