/* SPDX-License-Identifier: MIT */
/* touchtape replay: its options, and the wiring of the device side they
 * ask for (uinput, or uhid with --hid: side.h) into the one pipeline
 * (pipeline.h) that plays, verifies and reports the same for both. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "li-capture.h"
#include "commands.h"
#include "output.h"
#include "pipeline.h"
#include "read-options.h"
#include "log.h"
#include "side-uhid.h"
#include "side-uinput.h"
#include "uinput-device.h"
#include "util-strings.h"
#include "util-time.h"

enum replay_option {
	O_SPEED = TT_OPT_FIRST_PRIVATE, O_MAXGAP, O_LOOP, O_DELAY, O_WAIT, O_VERIFY, O_EXACT,
	O_KEYS, O_DRY, O_REPORT, O_SPIN, O_NO_RT, O_HID, O_LIBINPUT, O_LI_CONFIG,
	O_NO_SUR, O_ISOLATE, O_HWDB_ABS,
};

/* --hwdb-abs entries a replay applies at most. */
#define MAX_HWDB_ABS 16

struct replay_args {
	struct rp_options o;
	bool dry_run;
	bool hid;
	bool verify;
	bool exact;
	struct rp_hwdb_abs abs[MAX_HWDB_ABS];	/* --hwdb-abs */
	size_t nabs;
	bool wait_enter;
	bool quiet;
	const char *report_path;
	const char *file;
	int64_t spin_max_us;
	bool no_realtime;
	/* the recorded udev properties and quirks not recreated; the
	 * replayed devices hidden from the desktop (replay/replay-surroundings.h) */
	bool no_surroundings;
	bool isolate;
	/* --libinput: the timeline of the replay written to -o */
	bool libinput;
	const char *output;
	const char *li_config_spec;
	struct tt_li_config *li_config;
};

static void usage_notes(FILE *out);

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape replay [OPTIONS] FILE\n"
		"\n"
		"Recreates each recorded evdev device through uinput (named \"" RP_NAME_PREFIX
		"<name>\"),\n"
		"prints which /dev/input/eventN each became, and writes the recorded frames at\n"
		"absolute deadlines (no drift), one write per frame. Touches and keys are\n"
		"always released before each loop and on exit (end, Ctrl-C, SIGTERM, SIGHUP,\n"
		"error). FILE is a touchtape timeline (or any format 'touchtape convert' reads).\n"
		"\n"
		"Options:\n"
		"      --speed FACTOR     play FACTOR times faster (default 1; 0.5 = half speed)\n"
		"      --from TIME        start at TIME in the recording, as 'touchtape print'\n"
		"                         shows it (state before it is prepared: touches\n"
		"                         already down are put down first)\n"
		"      --to TIME          stop after TIME in the recording\n"
		"      --max-gap SECONDS  shorten idle gaps longer than SECONDS (above 0) to SECONDS\n"
		"      --loop N           play N times (0 = until interrupted; default 1)\n"
		"  -d, --device ID        replay only device ID (repeatable; ids as in 'touchtape print')\n"
		"      --desc FILE        device description for an evemu events-only file\n"
		"      --start-delay SECONDS  wait before the first frame\n"
		"      --wait             wait for Enter before starting\n"
		"      --verify           read the devices back and compare what the kernel\n"
		"                         delivered with the recording, frame by frame, and\n"
		"                         its anomalies (as analyze names them) with those of\n"
		"                         what was written\n"
		"      --exact            create the devices with fuzz 0 (no kernel smoothing)\n"
		"      --hwdb-abs ENTRY   apply an hwdb entry EVDEV_ABS_XX=MIN:MAX:RES:FUZZ:FLAT\n"
		"                         to the devices as udev would (repeatable)\n"
		"      --hid              replay the HID layer instead: create each recorded HID\n"
		"                         device through /dev/uhid, so the kernel's own driver\n"
		"                         (hid-multitouch, wacom, hid-generic) makes the evdev\n"
		"                         devices, and send its input reports (a timeline from\n"
		"                         'record --hid', or a hid-recorder file); contacts\n"
		"                         still down are lifted on exit; with --verify, compare\n"
		"                         the driver's evdev frames with the recording's;\n"
		"                         --dry-run, --report, --from/--to, --loop as without it\n"
		"      --libinput         run the installed libinput on the replayed devices and\n"
		"                         write what the kernel delivered and what libinput made\n"
		"                         of it (touches, pointer, scroll, taps, gestures) as one\n"
		"                         timeline to -o (needs systemd-udevd running)\n"
		"      --libinput-config SETTINGS  with --libinput: libinput's configuration,\n"
		"                         as 'touchtape record' takes it (tap=on,natural-scroll=on)\n"
		"  -o, --output FILE      with --libinput: the timeline to write (never onto an\n"
		"                         input; written beside FILE, then renamed)\n"
		"      --allow-keys       also replay the keys that can type or act on your session\n"
		"                         (letters, digits, Enter, modifiers, F1-F24, power...):\n"
		"                         by default a device is replayed without them, and a\n"
		"                         keyboard is left out\n"
		"      --dry-run          do everything but create devices: print what would be\n"
		"                         replayed, and when\n"
		"      --report FILE      write the timing (and --verify) report as JSON (never\n"
		"                         onto FILE itself; written beside it, then renamed)\n"
		"      --spin TIME        wake up to TIME early and spin on the clock until each\n"
		"                         frame is due, so timer wake-up delays do not make\n"
		"                         frames late (default 2ms, adapts to the delays seen;\n"
		"                         0 = sleep on the timer only, no CPU spent spinning)\n"
		"      --no-realtime      stay a normal process; by default replay asks for a low\n"
		"                         real-time priority (SCHED_FIFO 10) and locks its memory\n"
		"                         when allowed, so a busy machine does not delay frames\n"
		"      --no-surroundings  do not recreate the recorded surroundings: by default\n"
		"                         the replayed devices get the recorded udev properties\n"
		"                         (a udev rule in " RP_SUR_RULES_DIR ") and libinput\n"
		"                         quirks (a section of\n"
		"                         " RP_SUR_QUIRKS_FILE "), both\n"
		"                         removed when the replay ends; their names then end\n"
		"                         in \" (pid PID.ID)\"\n"
		"      --isolate          keep your desktop from using the replayed devices: they\n"
		"                         get ID_SEAT=" RP_SUR_ISOLATE_SEAT " (the X server and\n"
		"                         compositors leave other seats' devices alone) and\n"
		"                         LIBINPUT_IGNORE_DEVICE=1 (not with --libinput, whose\n"
		"                         own libinput must read them)\n"
		"  -q, --quiet            no per-device lines, only problems and the summary\n"
		"  -h, --help             show this help\n");
	usage_notes(out);
}

/* The second half of --help: units, what is refused, exit status. */
static void
usage_notes(FILE *out)
{
	fprintf(out,
		"\n"
		"TIME and SECONDS take units: 1.5, 250ms, 2s, 1m.\n"
		"\n"
		"Values outside a device's absinfo range are replayed as recorded (the kernel\n"
		"does not clamp them), and counted. A file is refused, before anything is\n"
		"created, only for what cannot be replayed: errors in its evdev frames or\n"
		"devices (frames out of time order, codes the kernel cannot create, a device\n"
		"declared twice) and unreadable lines, named as 'touchtape validate' names them.\n"
		"Codes the frames use that the device description lacks are added to the\n"
		"created device where the kernel can create them, said once per device.\n"
		"\n"
		"Exit status: 0 replayed (and with --verify, no unexplained difference and no\n"
		"new anomaly); 1 refused file (errors in it), unexplained differences or new\n"
		"anomalies; 2 bad usage, a\n"
		"file that cannot be read, devices that cannot be created, a report or a\n"
		"--libinput timeline not written; 128+N when stopped by signal N (130 for\n"
		"Ctrl-C), after the release.\n"
		"\n"
		"Examples:\n"
		"  sudo touchtape replay bug-1234.jsonl\n"
		"  sudo touchtape replay --verify --exact --report out.json bug-1234.jsonl\n"
		"  sudo touchtape replay --loop 0 --max-gap 1 --speed 2 bug-1234.jsonl\n"
		"  sudo touchtape replay --hid --verify bug-1234.jsonl\n"
		"  sudo touchtape replay --hid --max-gap 1 touchpad.hid\n"
		"  sudo touchtape replay --libinput --libinput-config tap=on -o out.jsonl touchpad.jsonl\n"
		"  touchtape replay --dry-run --from 2s --to 5s bug-1234.jsonl\n");
}

/* The shared reading options, in the player's terms. */
static void
take_read_options(struct replay_args *a, struct tt_read_options *ro)
{
	if (ro->have_from)
		a->o.from_us = ro->from_us;
	if (ro->have_to)
		a->o.to_us = ro->to_us;
	a->o.desc = ro->desc;
	a->o.device_ids = steal(&ro->devices);
	a->o.ndevice_ids = ro->ndevices;
	ro->ndevices = 0;
}

static int
parse_time(const char *opt, const char *arg, int64_t min, int64_t max, const char *range, int64_t *out)
{
	int64_t v;

	if (tt_parse_duration_us(arg, &v) < 0)
		return tt_usage_error("replay", "%s: '%s' is not a time (1.5, 250ms, 2s)", opt, arg);
	if (v < min || v > max)
		return tt_usage_error("replay", "%s takes a time %s, not '%s'", opt, range, arg);
	*out = v;
	return 0;
}

/* The options that only switch something on, where they do it. */
static const struct flag_option {
	int opt;
	size_t offset;		/* of a bool in struct replay_args */
} flag_options[] = {
	{ O_WAIT, offsetof(struct replay_args, wait_enter) },
	{ O_VERIFY, offsetof(struct replay_args, verify) },
	{ O_EXACT, offsetof(struct replay_args, exact) },
	{ O_KEYS, offsetof(struct replay_args, o.allow_keys) },
	{ O_DRY, offsetof(struct replay_args, dry_run) },
	{ O_NO_RT, offsetof(struct replay_args, no_realtime) },
	{ O_HID, offsetof(struct replay_args, hid) },
	{ O_LIBINPUT, offsetof(struct replay_args, libinput) },
	{ O_NO_SUR, offsetof(struct replay_args, no_surroundings) },
	{ O_ISOLATE, offsetof(struct replay_args, isolate) },
	{ 'q', offsetof(struct replay_args, quiet) },
};

/* The options that take a time, with their range. */
static const struct time_option {
	int opt;
	const char *name;
	int64_t min, max;
	const char *range;	/* the range in words, for the error */
	size_t offset;		/* of an int64_t in struct replay_args */
} time_options[] = {
	/* A gap of 0 would play every frame at once: no replay at all. */
	{ O_MAXGAP, "--max-gap", 1, INT64_MAX, "above 0", offsetof(struct replay_args, o.max_gap_us) },
	{ O_DELAY, "--start-delay", 0, INT64_MAX, "of 0 or more",
	  offsetof(struct replay_args, o.start_delay_us) },
	{ O_SPIN, "--spin", 0, 1000000, "from 0 to 1s", offsetof(struct replay_args, spin_max_us) },
};

static int
parse_option(int opt, const char *arg, struct replay_args *a)
{
	int64_t v;
	double d;

	for (size_t i = 0; i < ARRAY_LENGTH(flag_options); i++) {
		if (flag_options[i].opt == opt) {
			*(bool *)((char *)a + flag_options[i].offset) = true;
			return 0;
		}
	}
	for (size_t i = 0; i < ARRAY_LENGTH(time_options); i++) {
		const struct time_option *t = &time_options[i];
		if (t->opt == opt)
			return parse_time(t->name, arg, t->min, t->max, t->range,
					  (int64_t *)((char *)a + t->offset));
	}
	switch (opt) {
	case O_SPEED:
		if (tt_parse_double(arg, &d) < 0 || !isfinite(d) || d <= 0 || d > 1e6)
			return tt_usage_error("replay", "--speed takes a factor above 0, not '%s'", arg);
		a->o.speed = d;
		return 0;
	case O_LOOP:
		if (tt_parse_int64(arg, &v) < 0 || v < 0 || v > UINT32_MAX)
			return tt_usage_error("replay", "--loop takes a count (0 = forever), not '%s'", arg);
		a->o.loops = (uint32_t)v;
		return 0;
	case O_REPORT: a->report_path = arg; return 0;
	case 'o': a->output = arg; return 0;
	case O_LI_CONFIG: a->li_config_spec = arg; return 0;
	case O_HWDB_ABS:
		if (a->nabs >= MAX_HWDB_ABS || rp_hwdb_abs_parse(arg, &a->abs[a->nabs]) < 0)
			return tt_usage_error("replay", "--hwdb-abs takes an entry like EVDEV_ABS_35=:::8 "
					      "(at most %d), not '%s'", MAX_HWDB_ABS, arg);
		a->nabs++;
		return 0;
	case 'h': usage(stdout); return -1;
	default: return tt_usage_error("replay", "unknown option");
	}
}

/* --libinput, -o and --libinput-config go together. */
static int
check_libinput_args(struct replay_args *a)
{
	char why[256];

	if (!a->libinput)
		return a->output || a->li_config_spec ?
			tt_usage_error("replay", "%s needs --libinput", a->output ? "-o" : "--libinput-config") : 0;
	if (!a->output)
		return tt_usage_error("replay", "--libinput needs -o FILE: where to write the timeline");
	if (a->dry_run)
		return tt_usage_error("replay", "--libinput needs real devices: not with --dry-run");
	if (a->o.loops == 0)
		return tt_usage_error("replay", "--libinput needs an end: not with --loop 0");
	if (a->li_config_spec && tt_li_config_parse(a->li_config_spec, &a->li_config, why, sizeof(why)) < 0)
		return tt_usage_error("replay", "--libinput-config: %s", why);
	return 0;
}

static int
check_args(struct replay_args *a)
{
	if (a->dry_run && a->verify)
		return tt_usage_error("replay", "--verify needs real devices: not with --dry-run");
	if (a->verify && a->o.loops == 0)
		return tt_usage_error("replay", "--verify needs an end: not with --loop 0");
	if (a->hid && a->nabs)
		return tt_usage_error("replay", "--hwdb-abs is for uinput devices: with --hid the kernel's "
				      "driver makes the devices");
	if (a->hid && a->exact)
		return tt_usage_error("replay", "--exact is for uinput devices: with --hid the kernel's "
				      "driver sets the fuzz");
	if (a->hid && a->o.desc)
		return tt_usage_error("replay", "--desc is for evemu files: not with --hid");
	if (a->hid && a->libinput)
		return tt_usage_error("replay", "--libinput replays through uinput: not with --hid");
	if (a->hid && a->isolate)
		return tt_usage_error("replay", "--isolate marks uinput devices: not with --hid (the "
				      "kernel's driver names the devices)");
	return check_libinput_args(a);
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_replay_options[] = {
	{ "speed", required_argument, NULL, O_SPEED },
	{ "max-gap", required_argument, NULL, O_MAXGAP },
	{ "loop", required_argument, NULL, O_LOOP },
	{ "start-delay", required_argument, NULL, O_DELAY },
	{ "wait", no_argument, NULL, O_WAIT },
	{ "verify", no_argument, NULL, O_VERIFY },
	{ "exact", no_argument, NULL, O_EXACT },
	{ "hwdb-abs", required_argument, NULL, O_HWDB_ABS },
	{ "allow-keys", no_argument, NULL, O_KEYS },
	{ "dry-run", no_argument, NULL, O_DRY },
	{ "report", required_argument, NULL, O_REPORT },
	{ "spin", required_argument, NULL, O_SPIN },
	{ "no-realtime", no_argument, NULL, O_NO_RT },
	{ "hid", no_argument, NULL, O_HID },
	{ "libinput", no_argument, NULL, O_LIBINPUT },
	{ "libinput-config", required_argument, NULL, O_LI_CONFIG },
	{ "no-surroundings", no_argument, NULL, O_NO_SUR },
	{ "isolate", no_argument, NULL, O_ISOLATE },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	TT_READ_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};
const char tt_replay_short_options[] = "qho:" TT_READ_SHORT_OPTIONS;

static int
parse_args(int argc, char **argv, struct replay_args *a)
{
	struct tt_read_options ro;
	int opt, rc = 0;

	tt_read_options_init(&ro, "replay", TT_READ_ALL | TT_READ_DEVICES);
	optind = 1;
	while (rc == 0 && (opt = getopt_long(argc, argv, tt_replay_short_options, tt_replay_options, NULL)) != -1) {
		rc = tt_read_option(&ro, opt, optarg);
		rc = rc == 1 ? 0 : rc ? rc : parse_option(opt, optarg, a);
	}
	if (rc == 0 && optind >= argc)
		rc = tt_usage_error("replay", "no file given");
	if (rc == 0 && optind + 1 < argc)
		rc = tt_usage_error("replay", "one file at a time");
	if (rc == 0 && (rc = tt_read_options_check(&ro)) == 0 && (rc = check_args(a)) == 0) {
		take_read_options(a, &ro);
		a->file = argv[optind];
	}
	tt_read_options_clear(&ro);
	return rc;
}

/* --report: opened before the replay, so a refused path costs nothing. */
static int
open_report(const struct replay_args *a, struct tt_output **out)
{
	const char *inputs[] = { a->file, a->o.desc, NULL };

	if (!a->report_path)
		return 0;
	return tt_output_open(a->report_path, inputs, out);
}

/* The same for every device side: --from past the end refused, the
 * report opened, then the pipeline. */
static int
run(const struct replay_args *a, struct rp_side *side)
{
	_cleanup_(tt_output_freep) struct tt_output *report = NULL;
	const struct rp_pipeline_options po = {
		.spin_max_us = a->spin_max_us, .realtime = !a->no_realtime, .verify = a->verify,
		.wait_enter = a->wait_enter, .quiet = a->quiet,
	};

	/* Frames before --from only prepare the state: none left means
	 * --from is past the last frame. */
	if (a->o.from_us != INT64_MIN && !side->nsteps) {
		char tb[32];
		return tt_usage_error("replay", "--from %s is past the end of %s: no %s at or after it",
				      tt_format_time(tb, sizeof(tb), a->o.from_us), side->source,
				      a->hid ? "report" : "frame");
	}
	if (open_report(a, &report) < 0)
		return TT_EXIT_TROUBLE;
	if (a->dry_run)
		return rp_pipeline_dry(side, &a->o, report);
	return rp_pipeline_live(side, &a->o, &po, report);
}

/* --hid: the HID devices through uhid, their reports at their deadlines. */
static int
run_uhid(struct replay_args *a)
{
	_cleanup_(rp_uhid_side_freep) struct rp_uhid_side *h = NULL;
	int rc = rp_uhid_side_new(a->file, &a->o, stderr, &h);
	struct rp_side side;

	free(steal(&a->o.device_ids));
	if (rc < 0)	/* a refused file (-EINVAL) has errors: a finding */
		return rc == -EINVAL ? TT_EXIT_FAILURE : TT_EXIT_TROUBLE;
	side = rp_uhid_side_get(h);
	return run(a, &side);
}

/* The evdev devices through uinput, their frames at their deadlines. */
static int
run_uinput(struct replay_args *a)
{
	_cleanup_(rp_uinput_side_freep) struct rp_uinput_side *u = NULL;
	const char *inputs[] = { a->file, a->o.desc, NULL };
	const struct rp_li_options li = {
		.output = a->output, .inputs = inputs, .config = a->li_config,
		.show_keycodes = a->o.allow_keys,
	};
	const struct rp_uinput_side_options so = {
		.exact = a->exact, .abs = a->abs, .nabs = a->nabs, .li = a->libinput ? &li : NULL,
		.sur = { .recreate = !a->no_surroundings, .isolate = a->isolate,
			 .own_libinput = a->libinput },
	};
	int rc = rp_uinput_side_new(a->file, &a->o, &so, stderr, &u);
	struct rp_side side;

	free(steal(&a->o.device_ids));
	if (rc < 0)	/* a refused file (-EINVAL) has errors: a finding */
		return rc == -EINVAL ? TT_EXIT_FAILURE : TT_EXIT_TROUBLE;
	side = rp_uinput_side_get(u);
	return run(a, &side);
}

int
tt_cmd_replay(int argc, char **argv)
{
	struct replay_args a = { .spin_max_us = TT_LOOP_DEFAULT_SPIN_US };
	_cleanup_(tt_li_config_freep) struct tt_li_config *li_config = NULL;
	int rc;

	rp_options_init(&a.o);
	rc = parse_args(argc, argv, &a);
	li_config = a.li_config;
	if (rc != 0) {
		free(a.o.device_ids);
		return rc < 0 ? TT_EXIT_OK : rc;
	}
	return a.hid ? run_uhid(&a) : run_uinput(&a);
}
