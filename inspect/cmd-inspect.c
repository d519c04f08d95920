/* SPDX-License-Identifier: MIT */
/*
 * touchtape inspect: a recording as touches over time. Interactive on a
 * terminal (ui-curses.c), headless for tests (TOUCHTAPE_INSPECT_HEADLESS),
 * or as text: --summary and --text.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "grade.h"
#include "read-options.h"
#include "index.h"
#include "log.h"
#include "summary.h"
#include "ui.h"
#include "util-plural.h"
#include "util-strings.h"
#include "view-model.h"

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape inspect [OPTIONS] FILE|-\n"
		"\n"
		"Shows a recording as touches over time: one lane per touch sequence (kernel:\n"
		"device, slot and tracking ID; XI: device, touch id and client; HID: HID device\n"
		"and contact id; libinput: device and slot), kernel touches next to the HID\n"
		"contacts they were made of and the XI and libinput touches they became, with\n"
		"the latency between them, libinput's gestures after the kernel touches that\n"
		"made them, markers for\n"
		"ownership, accept/reject, pending end, pointer emulation, SYN_DROPPED, device\n"
		"removal and anomalies. Panes show the frame at the cursor, the slot table of\n"
		"each device and the whole life of the selected touch. Press ? for the keys.\n"
		"Reads timelines, evemu, libinput-record and hid-recorder files; - reads\n"
		"standard input and follows it as it grows. Without a terminal it prints the\n"
		"summary.\n"
		"\n"
		"Options:\n"
		"  -s, --summary       print devices, duration, frames, touch sequences, maximum\n"
		"                      simultaneous touches, ownership outcomes and chains\n"
		"                      (\"grab1 R +31 ms -> window O\" per XI touch), HID devices\n"
		"                      with their reports and contact sequences, libinput\n"
		"                      devices with their configuration, touches linked, taps\n"
		"                      and gestures, and anomalies\n"
		"  -j, --json          the summary as one JSON object (implies --summary)\n"
		"  -t, --text          print the lane view as plain text (for bug reports)\n"
		"      --from TIME     with --text: start there (1.5, 250ms, 2s, in the times\n"
		"                      'touchtape print' shows; default: the start)\n"
		"      --to TIME       with --text: end there (default: the end)\n"
		"      --width N       with --text: columns (default 100)\n"
		"      --grade PROFILE with --summary or --json: the metrics that fail the\n"
		"                      profile's quality limits (as 'touchtape analyze --grade')\n"
		"      --refresh HZ    the display's refresh rate for --grade (default 60)\n"
		"  -d, --device ID     only the evdev device with this record id (as 'touchtape\n"
		"                      print' shows; repeat for more): its lanes, the HID\n"
		"                      contacts and XI touches linked to them, its numbers and\n"
		"                      anomalies; hidN: HID device N only\n"
		"      --desc FILE     device description for an evemu events-only file\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when the file was read whole, 1 when lines of it had\n"
		"errors, 2 on bad usage, a file that cannot be read or a --device the file\n"
		"does not have.\n"
		"\n"
		"Examples:\n"
		"  touchtape inspect tap.jsonl\n"
		"  touchtape inspect --json tap.jsonl\n"
		"  touchtape inspect --text --device 0 tap.jsonl\n"
		"  touchtape inspect --text --from 1.2 --to 1.8 --width 120 tap.jsonl\n"
		"  touchtape record -o - /dev/input/event5 | touchtape inspect -\n"
		"\n"
		"For tests: TOUCHTAPE_INSPECT_HEADLESS=COLSxROWS renders to a virtual screen and\n"
		"prints it as text; TOUCHTAPE_INSPECT_KEYS is a key script (\"jj+<Right><Dump>q\",\n"
		"see touchtape-inspect(1)).\n");
}

struct options {
	bool summary, json, text;
	struct tt_grade_profile *profile;	/* --grade */
	double refresh_hz;
	int64_t from, to;
	bool have_from, have_to;
	int width;
	const char *desc;
	struct tt_read_options ro;	/* --device, --desc, --from, --to */
};

static void
options_clear(struct options *o)
{
	tt_read_options_clear(&o->ro);
	tt_grade_profile_free(o->profile);
}

static int
check_args(struct options *o)
{
	if (o->json)
		o->summary = true;
	if ((o->have_from || o->have_to || o->width != 100) && !o->text)
		return tt_usage_error("inspect", "--from, --to and --width go with --text");
	if (o->summary && o->text)
		return tt_usage_error("inspect", "--summary (or --json) or --text, not both");
	if (o->profile && !o->summary)
		return tt_usage_error("inspect", "--grade goes with --summary or --json");
	return 0;
}

static void
take_read_options(struct options *o, const struct tt_read_options *ro)
{
	o->desc = ro->desc;
	o->have_from = ro->have_from;
	o->from = ro->from_us;
	o->have_to = ro->have_to;
	o->to = ro->to_us;
}

/* --grade PROFILE, --refresh HZ. */
static int
grade_option(struct options *o, bool grade, const char *arg)
{
	if (!grade)
		return tt_read_refresh_option("inspect", arg, &o->refresh_hz);
	return tt_read_grade_option("inspect", arg, &o->profile);
}

enum { OPT_WIDTH = TT_OPT_FIRST_PRIVATE, OPT_GRADE, OPT_REFRESH };

/* The options (cli/commands.c lists them for every command). */
const struct option tt_inspect_options[] = {
	{ "summary", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "text", no_argument, NULL, 't' },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "grade", required_argument, NULL, OPT_GRADE },
	{ "refresh", required_argument, NULL, OPT_REFRESH },
	{ "help", no_argument, NULL, 'h' },
	TT_READ_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};
const char tt_inspect_short_options[] = "sjth" TT_READ_SHORT_OPTIONS;

static int
parse_args(int argc, char **argv, struct options *o, const char **path)
{
	struct tt_read_options *ro = &o->ro;
	int c, rc;
	int64_t v;

	tt_read_options_init(ro, "inspect", TT_READ_TIME | TT_READ_DEVICES);
	o->width = 100;
	o->refresh_hz = 60.0;
	optind = 1;
	while ((c = getopt_long(argc, argv, tt_inspect_short_options, tt_inspect_options, NULL)) != -1) {
		if ((rc = tt_read_option(ro, c, optarg)) != 0) {
			if (rc != 1)
				return rc;
			continue;
		}
		switch (c) {
		case 's': o->summary = true; break;
		case 't': o->text = true; break;
		case 'j': o->json = true; break;
		case OPT_WIDTH:
			if (tt_parse_int64(optarg, &v) < 0 || v < 20 || v > 10000)
				return tt_usage_error("inspect", "--width: a number from 20 to 10000, not '%s'", optarg);
			o->width = (int)v;
			break;
		case OPT_GRADE:
		case OPT_REFRESH:
			if ((rc = grade_option(o, c == OPT_GRADE, optarg)) != 0)
				return rc;
			break;
		case 'h': usage(stdout); return -1;
		default: return tt_usage_error("inspect", "unknown option");
		}
	}
	if (optind != argc - 1)
		return tt_usage_error("inspect", optind >= argc ? "a FILE (or -) is needed" : "one FILE only");
	if ((rc = tt_read_options_check(ro)) != 0)
		return rc;
	take_read_options(o, ro);
	if ((rc = check_args(o)) != 0)
		return rc;
	*path = argv[optind];
	return 0;
}

/* A read that ended the file (an I/O error, a bad header): the reader's
 * FILE:LINE message says which. */
static void
report_read_error(struct tt_index *ix)
{
	const char *why = tt_reader_error(tt_index_reader(ix));

	if (why && *why)
		tt_error("%s", why);
	else
		tt_error("%s: read error", tt_index_name(ix));
}

static int
report_errors(const struct tt_index *ix)
{
	struct ti_read_status rs;

	tt_index_read_status(ix, &rs);
	/* The rest of the file could not be read: trouble, not a finding. */
	if (rs.stopped)
		return TT_EXIT_TROUBLE;
	if (rs.nerrors) {
		const char *first = rs.first_error ? rs.first_error : "?";
		if (rs.nerrors == 1)
			tt_error("%s", first);
		else
			tt_error("%s (and %zu more unreadable line%s)", first, rs.nerrors - 1,
				 tt_plural_s(rs.nerrors - 1));
		return TT_EXIT_FAILURE;
	}
	return TT_EXIT_OK;
}

/* A window outside the recording would draw an empty axis that looks
 * like a recording without touches: refuse it, as replay does. */
static int
check_window(const struct tt_index *ix, const struct options *o)
{
	char tb[32], tf[32], tl[32];

	if (!tt_index_stats(ix)->have_time || (!o->have_from && !o->have_to))
		return 0;
	tt_format_time(tf, sizeof(tf), tt_index_first_us(ix));
	tt_format_time(tl, sizeof(tl), tt_index_last_us(ix));
	if (o->have_from && o->from > tt_index_last_us(ix))
		return tt_usage_error("inspect", "--from %s is after the end of %s (%s to %s s)",
				      tt_format_time(tb, sizeof(tb), o->from), tt_index_name(ix), tf, tl);
	if (o->have_to && o->to < tt_index_first_us(ix))
		return tt_usage_error("inspect", "--to %s is before the start of %s (%s to %s s)",
				      tt_format_time(tb, sizeof(tb), o->to), tt_index_name(ix), tf, tl);
	return 0;
}

/* A --device the file does not have: said once, exit 2, never an empty
 * view that looks like a device without touches. */
static bool
devices_missing(struct tt_index *ix, const struct options *o)
{
	return tt_read_options_finish(&o->ro, tt_index_reader(ix)) < 0;
}

/* Whether the reader saw every --device so far (silent). */
static bool
devices_known(struct tt_index *ix, const struct options *o)
{
	for (size_t i = 0; i < o->ro.ndevices; i++) {
		if (!tt_reader_device(tt_index_reader(ix), o->ro.devices[i]))
			return false;
	}
	for (size_t i = 0; i < o->ro.nhid_devices; i++) {
		if (!tt_reader_hid_device(tt_index_reader(ix), o->ro.hid_devices[i]))
			return false;
	}
	return true;
}

static int
run_text(struct tt_index *ix, const struct options *o)
{
	int rc;

	_cleanup_(tt_grade_freep) struct tt_grade *grade = o->profile ? tt_grade_new(tt_index_stack(ix)) : NULL;
	struct tt_grade_outcome graded;

	tt_index_set_lean(ix, o->summary);
	rc = tt_index_step(ix, 0);
	if (o->profile)
		tt_grade_conclude(grade, o->profile, o->refresh_hz, o->ro.ndevices ? (int64_t)o->ro.devices[0] : -1, &graded);

	if (rc < 0)
		report_read_error(ix);
	if (devices_missing(ix, o))
		return TT_EXIT_TROUBLE;
	if (check_window(ix, o) != 0)
		return TT_EXIT_USAGE;
	if (o->summary) {
		tt_inspect_summary(ix, stdout, o->json, o->profile ? &graded : NULL);
	} else {
		int64_t from = o->have_from ? o->from : tt_index_first_us(ix);
		int64_t to = o->have_to ? o->to : tt_index_last_us(ix);
		tv_render_text(ix, from, to, o->width, stdout);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tt_error("writing the output: %s", strerror(errno));
		return TT_EXIT_FAILURE;
	}
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	rc = report_errors(ix);
	return rc == TT_EXIT_OK && o->profile && graded.nfail ? TT_EXIT_FAILURE : rc;
}

static int
parse_size(const char *s, int *cols, int *rows)
{
	char tail;

	if (sscanf(s, "%dx%d%c", cols, rows, &tail) != 2 || *cols < 20 || *rows < 5 || *cols > 1000 ||
	    *rows > 1000)
		return -EINVAL;
	return 0;
}

static int
load_script(const char *script, struct tv_script_key **keys, size_t *n)
{
	size_t bad = 0;

	*keys = NULL;
	*n = 0;
	if (!script)
		return 0;
	if (tv_parse_script(script, keys, n, &bad) < 0) {
		tt_error("TOUCHTAPE_INSPECT_KEYS: bad key name at offset %zu: '%.20s'", bad, script + bad);
		return -EINVAL;
	}
	return 0;
}

static double
elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The UI on a virtual screen: the whole file is indexed first (so the
 * result does not depend on timing), the keys are applied, and the
 * screen is printed at each <Dump> and at the end. With
 * TOUCHTAPE_INSPECT_FIRST_SCREEN=1, only the first records are indexed
 * before the first screen, and the times are printed on stderr. */
/* TOUCHTAPE_INSPECT_FIRST_SCREEN: the first screen was rendered from
 * the first records; index the rest and say how long each took. */
static void
time_first_screen(struct tt_index *ix, struct tv_state *st, struct tv_screen *s, const struct timespec *t0)
{
	size_t nframes, nevents, nlanes;

	fprintf(stderr, "first screen after %.1f ms\n", elapsed_ms(t0));
	tt_index_step(ix, 0);
	st->started = false;
	tv_render(st, s);
	nframes = tt_index_nframes(ix);
	nevents = tt_index_nevents(ix);
	nlanes = tt_index_nlanes(ix);
	fprintf(stderr, "whole file indexed after %.1f ms: %zu frame%s, %zu event%s, %zu lane%s, index %zu bytes\n",
		elapsed_ms(t0), nframes, tt_plural_s(nframes), nevents, tt_plural_s(nevents), nlanes,
		tt_plural_s(nlanes), tt_index_memory(ix));
}

static int
run_headless(struct tt_index *ix, const struct options *o, const char *size, const char *script)
{
	_cleanup_free_ struct tv_script_key *keys = NULL;
	struct tv_screen s = { 0 };
	struct tv_state st;
	size_t nkeys;
	int cols, rows, dumps = 0;
	struct timespec t0;
	bool first_screen = getenv("TOUCHTAPE_INSPECT_FIRST_SCREEN") != NULL;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (parse_size(size, &cols, &rows) < 0) {
		tt_error("TOUCHTAPE_INSPECT_HEADLESS: want COLSxROWS (at least 20x5), not '%s'", size);
		return TT_EXIT_USAGE;
	}
	if (load_script(script, &keys, &nkeys) < 0)
		return TT_EXIT_USAGE;
	bool read_failed = tt_index_step(ix, first_screen ? 20000 : 0) < 0;
	if (read_failed)
		report_read_error(ix);
	tv_state_init(&st, ix);
	tv_screen_init(&s, cols, rows);
	tv_render(&st, &s);
	if (first_screen)
		time_first_screen(ix, &st, &s, &t0);
	if (devices_missing(ix, o)) {
		tv_screen_fini(&s);
		return TT_EXIT_TROUBLE;
	}
	for (size_t i = 0; i < nkeys && !st.quit; i++) {
		const struct tv_script_key *k = &keys[i];
		if (k->key == TV_SCRIPT_DUMP) {
			printf("=== screen %d ===\n", ++dumps);
			tv_screen_dump(&s, stdout);
			continue;
		}
		if (k->key == TV_SCRIPT_RESIZE) {
			tv_screen_init(&s, k->cols, k->rows);
			tv_render(&st, &s);
			continue;
		}
		tv_key(&st, k->key, 0);
		tv_render(&st, &s);
	}
	printf("=== screen %d (end) ===\n", ++dumps);
	tv_screen_dump(&s, stdout);
	tv_screen_fini(&s);
	return read_failed ? TT_EXIT_TROUBLE : report_errors(ix);
}

static void *
indexer_main(void *arg)
{
	struct tt_index *ix = arg;

	while (tt_index_step(ix, 4096) > 0)
		;
	return NULL;
}

static int
run_interactive(struct tt_index *ix, const struct options *o, bool live, const char *script)
{
	_cleanup_free_ struct tv_script_key *keys = NULL;
	struct tv_state st;
	pthread_t thread;
	size_t nkeys;
	int rc;

	if (load_script(script, &keys, &nkeys) < 0)
		return TT_EXIT_USAGE;
	/* A first bite before the terminal opens: a short file is complete
	 * at the first screen, a long one shows its beginning at once. A
	 * pipe could block here: the indexer thread reads it. */
	if (!live && tt_index_step(ix, 2000) < 0)
		report_read_error(ix);
	/* A --device declared later than that: read on before saying it is
	 * missing, while the terminal is still ours. */
	if (!live && !devices_known(ix, o) && tt_index_step(ix, 0) < 0)
		report_read_error(ix);
	if (!live && devices_missing(ix, o))
		return TT_EXIT_TROUBLE;
	tv_state_init(&st, ix);
	st.follow = live;
	/* From here on, stderr would scribble over the screen. */
	tt_index_quiet_warnings(ix);
	rc = pthread_create(&thread, NULL, indexer_main, ix);
	if (rc != 0) {
		tt_error("cannot start the indexer: %s", strerror(rc));
		return TT_EXIT_FAILURE;
	}
	rc = tt_ui_curses_run(&st, keys, nkeys);
	tt_index_request_stop(ix);
	if (!tt_index_done(ix) && live) {
		/* Blocked on a pipe that may never speak again: leave it. */
		pthread_detach(thread);
		exit(rc < 0 ? TT_EXIT_FAILURE : TT_EXIT_OK);
	}
	pthread_join(thread, NULL);
	struct ti_read_status rs;
	tt_index_read_status(ix, &rs);
	if (rs.nwarnings)
		tt_error("%s (%zu warning%s in all)", rs.first_warning ? rs.first_warning : "?",
			rs.nwarnings, tt_plural_s(rs.nwarnings));
	if (live && devices_missing(ix, o))
		return TT_EXIT_TROUBLE;
	return rc < 0 ? TT_EXIT_FAILURE : report_errors(ix);
}

int
tt_cmd_inspect(int argc, char **argv)
{
	_cleanup_(tt_index_freep) struct tt_index *ix = NULL;
	_cleanup_free_ char *why = NULL;
	_cleanup_(options_clear) struct options o = { 0 };
	const char *path = NULL;
	int rc = parse_args(argc, argv, &o, &path);

	if (rc > 0)
		return rc;
	if (rc < 0)
		return TT_EXIT_OK;	/* --help */
	rc = tt_index_open(path, &ix, &why);
	if (rc < 0) {
		tt_error("%s", why ? why : strerror(-rc));
		return TT_EXIT_TROUBLE;
	}
	if (tt_apply_desc(tt_index_reader(ix), o.desc, false) < 0)
		return TT_EXIT_TROUBLE;
	tt_index_set_devices(ix, o.ro.devices, o.ro.ndevices);
	tt_index_set_hid_devices(ix, o.ro.hid_devices, o.ro.nhid_devices);
	const char *headless = getenv("TOUCHTAPE_INSPECT_HEADLESS");
	const char *script = getenv("TOUCHTAPE_INSPECT_KEYS");
	if (o.summary || o.text)
		return run_text(ix, &o);
	if (headless && *headless)
		return run_headless(ix, &o, headless, script);
	if (!isatty(STDOUT_FILENO)) {
		o.summary = true;
		return run_text(ix, &o);
	}
	/* Anything but a regular file may grow: follow it. */
	struct stat sb;
	bool live = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &sb) < 0 || !S_ISREG(sb.st_mode)
					   : stat(path, &sb) < 0 || !S_ISREG(sb.st_mode);
	return run_interactive(ix, &o, live, script);
}
