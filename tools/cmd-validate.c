/* SPDX-License-Identifier: MIT */
/* touchtape validate: the format's rules and the semantic checks. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "checker.h"
#include "commands.h"
#include "log.h"
#include "read-options.h"
#include "reader.h"

struct validate_ctx {
	const char *name;
	bool quiet;
	size_t shown;
	size_t max_shown;
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
		"XI touch sequences that begin, update and end in order.\n"
		"\n"
		"Options:\n"
		"  -q, --quiet         print only the summary line\n"
		"  -d, --device ID     check only this device's frames\n"
		"      --desc FILE     device description for an evemu events-only file\n"
		"      --strict        warnings count as problems too\n"
		"      --max N         show at most N messages per file (default 100; 0 = all)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when the files are valid, 1 when problems were found,\n"
		"2 on bad usage or a file that cannot be read (or has no device --device).\n"
		"\n"
		"Example:\n"
		"  touchtape validate bug-1234.jsonl\n");
}

static void
show(struct validate_ctx *v, const char *msg)
{
	if (v->quiet)
		return;
	v->shown++;
	if (v->max_shown && v->shown > v->max_shown) {
		if (v->shown == v->max_shown + 1)
			fprintf(stderr, "%s: further messages suppressed (use --max 0 to see all)\n", v->name);
		return;
	}
	fprintf(stderr, "%s\n", msg);
}

static void
on_warn(void *userdata, const char *message)
{
	show(userdata, message);
}

static void
on_diag(void *userdata, const struct tt_diag *d)
{
	struct validate_ctx *v = userdata;
	char msg[512];

	const char *sev = d->severity == TT_SEV_ERROR ? "error" : "warning";

	/* Checks about the whole file (line 0) name no line. */
	if (d->line)
		snprintf(msg, sizeof(msg), "%s:%zu: %s: %s [%s]", v->name, d->line, sev,
			 d->message, tt_check_name(d->check));
	else
		snprintf(msg, sizeof(msg), "%s: %s: %s [%s]", v->name, sev, d->message,
			 tt_check_name(d->check));
	show(v, msg);
}

static int
validate_one(const char *path, const struct tt_read_options *ro, bool quiet, bool strict, size_t max_shown)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	struct validate_ctx v = { .name = path, .quiet = quiet, .max_shown = max_shown };
	struct tt_checker *c;
	struct tt_record rec;
	size_t records = 0, errors = 0, warnings;
	int rc;

	rc = tt_open_recording_opts(path, ro, &r);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	v.name = tt_reader_name(r);
	tt_reader_set_warn(r, on_warn, &v);
	c = tt_checker_new(on_diag, &v);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			show(&v, tt_reader_error(r));
			if (rc == -EIO)
				break;
			continue;
		}
		records++;
		if (tt_read_options_keep(ro, &rec))
			tt_checker_feed(c, &rec);
	}
	tt_checker_finish(c);
	errors = tt_reader_nerrors(r) + tt_checker_count(c, TT_SEV_ERROR);
	warnings = tt_reader_nwarnings(r) + tt_checker_count(c, TT_SEV_WARNING);
	tt_checker_free(c);
	if (tt_read_options_finish(ro, r) < 0)
		return TT_EXIT_TROUBLE;

	printf("%s: %s, %zu records, %zu error%s, %zu warning%s\n", v.name,
	       tt_file_format_name(tt_reader_format(r)), records,
	       errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	return (errors || (strict && warnings)) ? TT_EXIT_FAILURE : TT_EXIT_OK;
}

int
tt_cmd_validate(int argc, char **argv)
{
	enum { OPT_STRICT = TT_OPT_FIRST_PRIVATE, OPT_MAX };
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "max", required_argument, NULL, OPT_MAX },
		TT_READ_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool quiet = false, strict = false;
	long max_shown = 100;
	int opt, rc, status = TT_EXIT_OK;
	_cleanup_(tt_read_options_clear) struct tt_read_options ro;

	tt_read_options_init(&ro, "validate", TT_READ_DEVICE);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "qh" TT_READ_SHORT_OPTIONS, opts, NULL)) != -1) {
		if ((rc = tt_read_option(&ro, opt, optarg)) != 0) {
			if (rc != 1)
				return rc;
			continue;
		}
		switch (opt) {
		case 'q': quiet = true; break;
		case OPT_STRICT: strict = true; break;
		case OPT_MAX: {
			char *end;
			errno = 0;
			max_shown = strtol(optarg, &end, 10);
			if (errno || *end || max_shown < 0)
				return tt_usage_error("validate", "--max takes a number, not '%s'", optarg);
			break;
		}
		case 'h': usage(stdout); return TT_EXIT_OK;
		default: return tt_usage_error("validate", "unknown option");
		}
	}
	if (optind >= argc)
		return tt_usage_error("validate", "no file given");
	/* Trouble with one file outweighs findings in another, as in diff(1). */
	for (int i = optind; i < argc; i++) {
		rc = validate_one(argv[i], &ro, quiet, strict, (size_t)max_shown);
		if (rc > status)
			status = rc;
	}
	return status;
}
