/* SPDX-License-Identifier: MIT */
/* touchtape replay: recreate recorded devices through uinput and play
 * their frames at absolute deadlines, safely. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "hid-player.h"
#include "hid-verify.h"
#include "li-capture.h"
#include "li-replay.h"
#include "commands.h"
#include "output.h"
#include "read-options.h"
#include "log.h"
#include "player.h"
#include "report.h"
#include "schedule.h"
#include "replay-surroundings.h"
#include "uhid-device.h"
#include "uinput-device.h"
#include "util-strings.h"
#include "util-time.h"
#include "verify.h"

#define NODE_TIMEOUT_MS 5000
#define VERIFY_DRAIN_MS 2000
/* A device that goes away takes its clients' unread events with it (evdev
 * answers ENODEV before it drains the buffer): the pause between the last
 * (release) frame and destroying the devices, for other readers to get it. */
#define RELEASE_SETTLE_MS 100
/* libinput decides a tap 180 ms after the touch ends, ends a finger
 * scroll and a hold on timers too: what it may still say after the
 * last frame. */
#define LIBINPUT_DRAIN_MS 600

enum replay_option {
	O_SPEED = TT_OPT_FIRST_PRIVATE, O_MAXGAP, O_LOOP, O_DELAY, O_WAIT, O_VERIFY, O_EXACT,
	O_KEYS, O_DRY, O_REPORT, O_SPIN, O_NO_RT, O_HID, O_LIBINPUT, O_LI_CONFIG,
	O_NO_SUR, O_ISOLATE,
};

struct replay_args {
	struct rp_options o;
	bool dry_run;
	bool hid;
	bool verify;
	bool exact;
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
		"      --hid              replay the HID layer instead: create each recorded HID\n"
		"                         device through /dev/uhid, so the kernel's own driver\n"
		"                         (hid-multitouch, wacom, hid-generic) makes the evdev\n"
		"                         devices, and send its input reports (a timeline from\n"
		"                         'record --hid', or a hid-recorder file); contacts\n"
		"                         still down are lifted on exit; with --verify, compare\n"
		"                         the driver's evdev frames with the recording's\n"
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

/*
 * A replayer competes with whatever loads the machine (a test suite, a
 * compositor), and each time it is not scheduled the next frame is late.
 * A low SCHED_FIFO priority puts it ahead of normal processes but behind
 * the kernel's own real-time threads; the scheduler's real-time
 * throttling still bounds it, and each wait spins at most --spin.
 * Children (none today) would not inherit it. Not allowed (not root, no
 * CAP_SYS_NICE, an RLIMIT_RTPRIO of 0): replay as a normal process.
 */
static void
become_realtime(void)
{
	struct sched_param sp = { .sched_priority = 10 };

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) < 0)
		return;
	/* A page fault in the middle of a frame would be lateness too. */
	(void)mlockall(MCL_CURRENT);
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

static int
parse_args(int argc, char **argv, struct replay_args *a)
{
	static const struct option opts[] = {
		{ "speed", required_argument, NULL, O_SPEED },
		{ "max-gap", required_argument, NULL, O_MAXGAP },
		{ "loop", required_argument, NULL, O_LOOP },
		{ "start-delay", required_argument, NULL, O_DELAY },
		{ "wait", no_argument, NULL, O_WAIT },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "exact", no_argument, NULL, O_EXACT },
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
	struct tt_read_options ro;
	int opt, rc = 0;

	tt_read_options_init(&ro, "replay", TT_READ_ALL | TT_READ_DEVICES);
	optind = 1;
	while (rc == 0 && (opt = getopt_long(argc, argv, "qho:" TT_READ_SHORT_OPTIONS, opts, NULL)) != -1) {
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

/* --dry-run: a clock where every deadline is met at once, a sink that
 * prints. */
struct dry {
	const struct rp_schedule *s;
	int64_t now;
};

static int64_t
dry_now(void *data)
{
	return ((struct dry *)data)->now;
}

static int
dry_wait(void *data, int64_t deadline)
{
	struct dry *d = data;
	if (deadline > d->now)
		d->now = deadline;
	return 0;
}

static int
dry_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct dry *d = data;
	char tbuf[32];

	printf("%s dev %" PRIu32 " ", tt_format_time(tbuf, sizeof(tbuf), d->now),
	       d->s->devices[dev].dev->id);
	if (tag >= 0 && d->s->nframes)
		printf("line %zu:", d->s->frames[(size_t)tag % d->s->nframes].line);
	else
		printf("state:");
	rp_print_events(stdout, ev, n);
	putchar('\n');
	return 0;
}

/* What a live replay holds, released in one place (live_release). */
struct live {
	const struct rp_schedule *s;
	struct rp_live_clock *clock;
	struct rp_uinput **devs;
	struct rp_verify *verify;
	struct rp_li *li;	/* --libinput */
	struct rp_sur *sur;	/* the surroundings, until the devices are gone */
};

static int
live_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct live *l = data;
	int rc;

	if (l->verify)
		rp_verify_writing(l->verify, dev);
	rc = rp_uinput_write(l->devs[dev], ev, n);
	if (rc == 0 && l->verify)
		rp_verify_written(l->verify, dev, ev, n, tag);
	return rc;
}

static void
destroy_all(struct rp_uinput **devs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rp_uinput_destroy(devs[i]);
	free(devs);
}

static int
create_all(const struct rp_schedule *s, const struct replay_args *a, const struct rp_sur *sur,
	   struct rp_uinput ***out)
{
	struct rp_uinput **devs = tt_reallocarray(NULL, s->ndevices, sizeof(*devs));

	memset(devs, 0, s->ndevices * sizeof(*devs));
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct tt_device *d = s->devices[i].dev;
		char why[512];
		int rc = rp_uinput_create(d, a->exact, rp_sur_tag(sur, i), &devs[i], why, sizeof(why));

		if (rc < 0) {
			tt_error("device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			destroy_all(devs, s->ndevices);
			return rc;
		}
	}
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct tt_device *d = s->devices[i].dev;
		if (rp_uinput_wait_node(devs[i], NODE_TIMEOUT_MS) < 0) {
			tt_error("device %" PRIu32 " \"%s\": its /dev/input node did not appear within %d s "
				 "(is devtmpfs mounted on /dev, or udev running?)", d->id, d->name,
				 NODE_TIMEOUT_MS / 1000);
			destroy_all(devs, s->ndevices);
			return -ETIMEDOUT;
		}
		if (!a->quiet)
			printf("device %" PRIu32 " \"%s\": %s\n", d->id, d->name, rp_uinput_node(devs[i]));
	}
	fflush(stdout);
	*out = devs;
	return 0;
}

static void
on_stdin(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	char buf[256];
	ssize_t n = read(tt_loop_source_fd(source), buf, sizeof(buf));

	(void)events;
	(void)userdata;
	if (n <= 0 || memchr(buf, '\n', (size_t)n))
		tt_loop_quit(loop, 0);
}

static int
wait_for_enter(struct rp_live_clock *clock)
{
	struct tt_loop *loop = rp_live_clock_loop(clock);
	struct tt_loop_source *in = tt_loop_add(loop, STDIN_FILENO, on_stdin, NULL);
	int rc;

	fprintf(stderr, "Press Enter to start the replay (Ctrl-C to cancel).\n");
	if (!in) {
		/* stdin cannot be polled (a regular file, /dev/null): read it. */
		char buf[256];
		(void)!read(STDIN_FILENO, buf, sizeof(buf));
		return 0;
	}
	/* Ends at Enter (0) or a stop signal (1, rp_live_clock_stop_signal
	 * tells). */
	rc = tt_loop_run(loop);
	/* A stdin at EOF stays readable (the loop would spin through the
	 * replay): stop watching it. */
	tt_loop_remove(loop, in);
	return rc < 0 ? rc : 0;
}

static void
print_lateness(const struct rp_summary *sum)
{
	printf("lateness: median %" PRId64 " us, p99 %" PRId64 " us, max %" PRId64 " us; drift %" PRId64
	       " us\n", sum->median_us, sum->p99_us, sum->max_us, sum->drift_us);
}

static void
print_summary(const struct rp_schedule *s, const struct rp_stats *st, const struct rp_summary *sum, bool dry)
{
	printf("%s %zu frame%s in %" PRIu32 " loop%s (%zu release/preparation frames)",
	       dry ? "would replay" : "replayed", st->frames_written, st->frames_written == 1 ? "" : "s",
	       st->loops_done, st->loops_done == 1 ? "" : "s", st->extra_frames);
	if (s->ndropped)
		printf(", %zu SYN_DROPPED frame%s skipped", s->ndropped, s->ndropped == 1 ? "" : "s");
	putchar('\n');
	/* A dry run meets every deadline by construction: no lateness to tell. */
	if (!dry)
		print_lateness(sum);
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

static int
write_report(struct tt_output *out, const struct rp_schedule *s, const struct rp_stats *st,
	     const struct rp_summary *sum, const struct rp_verify_result *v)
{
	FILE *f;

	if (!out)
		return 0;
	f = tt_output_stream(out);
	if (!f) {
		tt_error("%s: %s", tt_output_name(out), strerror(errno));
		return -EIO;
	}
	rp_report_write(f, s, st, sum, v);
	return tt_output_commit(out);
}

static void
note_dropped(const struct rp_schedule *s)
{
	if (!s->ndropped)
		return;
	fprintf(stderr, "%s: %zu recorded SYN_DROPPED frame%s cannot be injected and will be skipped (line",
		tt_reader_name(s->reader), s->ndropped, s->ndropped == 1 ? "" : "s");
	for (size_t i = 0; i < s->ndropped && i < ARRAY_LENGTH(s->dropped_lines); i++)
		fprintf(stderr, "%s%zu", i ? ", " : " ", s->dropped_lines[i]);
	fprintf(stderr, "%s); the resync frames after them are replayed\n",
		s->ndropped > ARRAY_LENGTH(s->dropped_lines) ? ", ..." : "");
}

static int
run_dry(const struct rp_schedule *s, const struct replay_args *a, struct tt_output *report)
{
	struct dry d = { .s = s };
	struct rp_clock clock = { dry_now, dry_wait, &d };
	struct rp_sink sink = { dry_write, &d };
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	int rc;

	if (a->o.loops == 0)
		tt_info("--dry-run --loop 0 prints one loop");
	struct rp_options o = a->o;
	if (o.loops == 0)
		o.loops = 1;
	rc = rp_play(s, &o, o.start_delay_us, &clock, &sink, &st);
	rp_stats_summary(&st, &sum);
	print_summary(s, &st, &sum, true);
	if (write_report(report, s, &st, &sum, NULL) < 0)
		rc = -EIO;
	rp_stats_release(&st);
	return rc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
}

static void
live_release(struct live *l)
{
	rp_verify_free(l->verify);
	rp_li_free(l->li);
	l->li = NULL;
	if (l->devs)
		destroy_all(l->devs, l->s->ndevices);
	l->verify = NULL;
	l->devs = NULL;
	rp_sur_free(l->sur);
	l->sur = NULL;
	rp_live_clock_free(l->clock);
}

/* --verify: a reader on every created device, served by the clock's loop. */
static int
attach_verify(struct live *l)
{
	l->verify = rp_verify_new(l->s);
	for (size_t i = 0; i < l->s->ndevices; i++) {
		int rc = rp_verify_attach(l->verify, (uint32_t)i, rp_uinput_node(l->devs[i]),
					  rp_uinput_absinfo(l->devs[i], 0), rp_live_clock_loop(l->clock));
		if (rc < 0) {
			tt_error("--verify: cannot read %s back: %s", rp_uinput_node(l->devs[i]),
				 strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* --libinput: the output, opened before any device is created so a
 * refused path costs nothing. */
static int
open_libinput(struct live *l, const struct replay_args *a)
{
	const char *inputs[] = { a->file, a->o.desc, NULL };
	const struct rp_li_options o = {
		.output = a->output, .inputs = inputs, .config = a->li_config,
		.show_keycodes = a->o.allow_keys,
	};

	if (!rp_li_udev_running())
		tt_warning("--libinput: systemd-udevd does not seem to run (no /run/udev/control): libinput "
			   "takes only the devices udev has tagged, and classifies them by udev's properties");
	return rp_li_open(&o, &l->li);
}

/* --libinput: a reader on every created device, then libinput on all
 * of them, before the first frame. */
static int
attach_libinput(struct live *l)
{
	struct tt_loop *loop = rp_live_clock_loop(l->clock);
	int rc;

	for (size_t i = 0; i < l->s->ndevices; i++) {
		rc = rp_li_attach(l->li, loop, l->s->devices[i].dev->id, rp_uinput_node(l->devs[i]));
		if (rc < 0)
			return rc;
	}
	return rp_li_start(l->li, loop);
}

/* --libinput: libinput's last word (a tap is told after its timeout),
 * then the file, before the devices go. */
static int
finish_libinput(struct live *l, const struct replay_args *a)
{
	size_t frames, events;

	rp_li_drain(l->li, rp_live_clock_loop(l->clock), LIBINPUT_DRAIN_MS);
	if (rp_li_commit(l->li) < 0)
		return -EIO;
	rp_li_counts(l->li, &frames, &events);
	if (!a->quiet)
		printf("wrote %s: %zu frames as the kernel delivered them, %zu libinput events\n",
		       rp_li_output_name(l->li), frames, events);
	return 0;
}

/* The live clock (its loop serves everything), and the priority to keep
 * its deadlines. */
static int
start_clock(const struct replay_args *a, struct rp_live_clock **out)
{
	int rc = rp_live_clock_new(a->spin_max_us, out);

	if (rc < 0) {
		tt_error("cannot set up the event loop: %s", strerror(-rc));
		return rc;
	}
	if (!a->no_realtime)
		become_realtime();
	return 0;
}

/* After the clock (its signalfd holds INT and TERM, so every exit path
 * goes through live_release) and before the devices: udev applies the
 * rule when they appear, libinput reads the quirks when it starts. */
static void
setup_surroundings(struct live *l, const struct replay_args *a)
{
	const struct rp_sur_options o = {
		.recreate = !a->no_surroundings, .isolate = a->isolate, .own_libinput = a->libinput,
	};
	_cleanup_free_ const struct tt_device **devs = tt_reallocarray(NULL, l->s->ndevices + 1,
								      sizeof(*devs));

	for (size_t i = 0; i < l->s->ndevices; i++)
		devs[i] = l->s->devices[i].dev;
	(void)rp_sur_new(devs, l->s->ndevices, &o, &l->sur);
}

static int
live_setup(struct live *l, const struct replay_args *a)
{
	int rc = start_clock(a, &l->clock);

	if (rc < 0)
		return rc;
	if (a->libinput && (rc = open_libinput(l, a)) < 0)
		return rc;
	setup_surroundings(l, a);
	if ((rc = create_all(l->s, a, l->sur, &l->devs)) < 0)
		return rc;
	if (a->verify && (rc = attach_verify(l)) < 0)
		return rc;
	if (a->libinput && (rc = attach_libinput(l)) < 0)
		return rc;
	if (a->wait_enter && (rc = wait_for_enter(l->clock)) < 0)
		return rc;
	return 0;
}

/* Plays, lets the readers see the end, and takes the devices away. */
static int
live_play(struct live *l, const struct replay_args *a, struct rp_stats *st)
{
	struct rp_clock clock = rp_live_clock_get(l->clock);
	struct rp_sink sink = { live_write, l };
	int rc = 1;

	if (!rp_live_clock_stop_signal(l->clock))
		rc = rp_play(l->s, &a->o, clock.now(clock.data) + a->o.start_delay_us, &clock, &sink, st);
	if (rc < 0)
		tt_error("writing to the replayed device failed: %s (touches were released)", strerror(-rc));
	if (l->verify)
		rp_verify_drain(l->verify, rp_live_clock_loop(l->clock), VERIFY_DRAIN_MS);
	else if (!l->li)
		nanosleep(&(struct timespec){ .tv_nsec = RELEASE_SETTLE_MS * 1000000L }, NULL);
	if (l->li && finish_libinput(l, a) < 0)
		rc = -EIO;
	destroy_all(l->devs, l->s->ndevices);
	l->devs = NULL;
	rp_sur_free(l->sur);
	l->sur = NULL;
	return rc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
}

/* The summary, the --verify comparison and the report, after the replay. */
static int
live_conclude(struct live *l, const struct rp_stats *st, struct tt_output *report, int status)
{
	struct rp_summary sum;
	struct rp_verify_result vres;
	int sig;

	rp_stats_summary(st, &sum);
	print_summary(l->s, st, &sum, false);
	if (l->verify) {
		rp_verify_compare(l->verify, st, stdout, 50, &vres);
		rp_report_print_verify(stdout, &vres);
		if (vres.unexplained || vres.anomalies)
			status = TT_EXIT_FAILURE;
	}
	if (write_report(report, l->s, st, &sum, l->verify ? &vres : NULL) < 0)
		status = TT_EXIT_TROUBLE;
	sig = rp_live_clock_stop_signal(l->clock);
	if (sig) {
		tt_error("stopped by signal %d; touches and keys were released", sig);
		return 128 + sig;
	}
	return status;
}

static int
run_live(const struct rp_schedule *s, const struct replay_args *a, struct tt_output *report)
{
	_cleanup_(live_release) struct live l = { .s = s };
	struct rp_stats st = { 0 };
	int status;

	if (live_setup(&l, a) < 0)
		return TT_EXIT_TROUBLE;
	status = live_play(&l, a, &st);
	status = live_conclude(&l, &st, report, status);
	rp_stats_release(&st);
	return status;
}

/* ------------------------------------------------------------------ */
/* --hid: the HID devices through uhid, their reports at their deadlines. */

static void
print_hex(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%s%02x", i ? " " : "", data[i]);
}

struct hid_dry {
	const struct rp_hid_schedule *s;
	int64_t now;
};

static int
hid_dry_write(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag)
{
	struct hid_dry *d = data;
	char tbuf[32];

	printf("%s hid %" PRIu32 " ", tt_format_time(tbuf, sizeof(tbuf), d->now),
	       d->s->devices[dev].dev->id);
	if (tag >= 0 && d->s->nreports)
		printf("line %zu: ", d->s->reports[(size_t)tag % d->s->nreports].line);
	else
		printf("lift: ");
	print_hex(stdout, bytes, len);
	putchar('\n');
	return 0;
}

static void
print_hid_summary(const struct rp_stats *st, const struct rp_summary *sum, bool dry)
{
	printf("%s %zu HID report%s in %" PRIu32 " loop%s (%zu lift report%s)\n",
	       dry ? "would replay" : "replayed", st->frames_written, st->frames_written == 1 ? "" : "s",
	       st->loops_done, st->loops_done == 1 ? "" : "s", st->extra_frames,
	       st->extra_frames == 1 ? "" : "s");
	if (!dry)
		print_lateness(sum);
}

static int
run_hid_dry(const struct rp_hid_schedule *s, const struct replay_args *a)
{
	struct hid_dry d = { .s = s };
	struct rp_clock clock = { dry_now, dry_wait, &d };
	struct rp_hid_sink sink = { hid_dry_write, &d };
	struct rp_options o = a->o;
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	int rc;

	if (o.loops == 0) {
		tt_info("--dry-run --loop 0 prints one loop");
		o.loops = 1;
	}
	rc = rp_hid_play(s, &o, o.start_delay_us, &clock, &sink, &st);
	rp_stats_summary(&st, &sum);
	print_hid_summary(&st, &sum, true);
	rp_stats_release(&st);
	return rc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
}

/* What a live HID replay holds, released in one place (hid_live_release). */
struct hid_live {
	const struct rp_hid_schedule *s;
	struct rp_live_clock *clock;
	struct rp_uhid **devs;
	struct rp_hid_verify *verify;
	bool lifting;
};

static void
hid_destroy_all(struct hid_live *l)
{
	for (size_t i = 0; l->devs && i < l->s->ndevices; i++)
		rp_uhid_destroy(l->devs[i]);
	free(l->devs);
	l->devs = NULL;
}

static void
hid_live_release(struct hid_live *l)
{
	rp_hid_verify_free(l->verify);
	l->verify = NULL;
	hid_destroy_all(l);
	rp_live_clock_free(l->clock);
}

static int
hid_live_write(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag)
{
	struct hid_live *l = data;

	if (tag < 0 && !l->lifting) {
		l->lifting = true;
		rp_hid_verify_lifting(l->verify, rp_live_clock_loop(l->clock));
	}
	return rp_uhid_input(l->devs[dev], bytes, len);
}

static void
print_hid_device(const struct tt_hid_device *d, const struct rp_uhid *u)
{
	printf("HID device %" PRIu32 " \"%s\": %s, driver %s", d->id, d->name,
	       rp_uhid_hidraw(u) ? rp_uhid_hidraw(u) : "no hidraw", rp_uhid_driver(u));
	for (size_t i = 0; i < rp_uhid_nnodes(u); i++)
		printf("%s%s \"%s\"", i ? ", " : ": ", rp_uhid_node(u, i), rp_uhid_node_name(u, i));
	putchar('\n');
}

/* Every device created first: their drivers bind in parallel. */
static int
hid_create_all(struct hid_live *l, const struct replay_args *a)
{
	struct tt_loop *loop = rp_live_clock_loop(l->clock);
	char why[512];

	l->devs = tt_zalloc(l->s->ndevices * sizeof(*l->devs));
	for (size_t i = 0; i < l->s->ndevices; i++) {
		const struct tt_hid_device *d = l->s->devices[i].dev;
		int rc = rp_uhid_create(d, (uint32_t)i, loop, &l->devs[i], why, sizeof(why));
		if (rc < 0) {
			tt_error("HID device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			return rc;
		}
	}
	for (size_t i = 0; i < l->s->ndevices; i++) {
		const struct tt_hid_device *d = l->s->devices[i].dev;
		int rc = rp_uhid_wait_bound(l->devs[i], loop, NODE_TIMEOUT_MS, why, sizeof(why));
		if (rc < 0) {
			tt_error("HID device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			return rc;
		}
		if (!a->quiet)
			print_hid_device(d, l->devs[i]);
	}
	fflush(stdout);
	return 0;
}

/* --verify: a reader on every evdev device made of a HID device the
 * recording has evdev frames of. */
static int
hid_attach_verify(struct hid_live *l)
{
	l->verify = rp_hid_verify_new(l->s);
	for (size_t i = 0; i < l->s->ndevices; i++) {
		for (size_t k = 0; k < rp_uhid_nnodes(l->devs[i]); k++) {
			const char *node = rp_uhid_node(l->devs[i], k);
			int rc = rp_hid_verify_attach(l->verify, (uint32_t)i, node,
						      rp_uhid_node_name(l->devs[i], k),
						      rp_live_clock_loop(l->clock));
			if (rc < 0) {
				tt_error("--verify: cannot read %s back: %s", node, strerror(-rc));
				return rc;
			}
		}
	}
	if (!rp_hid_verify_any(l->verify))
		tt_info("--verify: %s has no evdev frames of the evdev devices the driver made (a HID-only "
			"recording, or other device names): nothing to compare", tt_reader_name(l->s->reader));
	return 0;
}

static int
hid_live_setup(struct hid_live *l, const struct replay_args *a)
{
	int rc = start_clock(a, &l->clock);

	if (rc < 0)
		return rc;
	if ((rc = hid_create_all(l, a)) < 0)
		return rc;
	if (a->verify && (rc = hid_attach_verify(l)) < 0)
		return rc;
	if (a->wait_enter && (rc = wait_for_enter(l->clock)) < 0)
		return rc;
	return 0;
}

static int
hid_live_play(struct hid_live *l, const struct replay_args *a, struct rp_stats *st)
{
	struct rp_clock clock = rp_live_clock_get(l->clock);
	struct rp_hid_sink sink = { hid_live_write, l };
	int rc = 1;

	if (!rp_live_clock_stop_signal(l->clock))
		rc = rp_hid_play(l->s, &a->o, clock.now(clock.data) + a->o.start_delay_us, &clock,
				 &sink, st);
	if (rc < 0)
		tt_error("writing to /dev/uhid failed: %s (contacts were lifted)", strerror(-rc));
	if (rp_hid_verify_any(l->verify))
		rp_hid_verify_drain(l->verify, rp_live_clock_loop(l->clock), VERIFY_DRAIN_MS);
	else
		nanosleep(&(struct timespec){ .tv_nsec = RELEASE_SETTLE_MS * 1000000L }, NULL);
	hid_destroy_all(l);
	return rc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
}

static int
hid_live_conclude(struct hid_live *l, const struct rp_stats *st, int status)
{
	struct rp_summary sum;
	int sig;

	rp_stats_summary(st, &sum);
	print_hid_summary(st, &sum, false);
	if (rp_hid_verify_any(l->verify)) {
		struct rp_hid_verify_result vres;
		rp_hid_verify_compare(l->verify, stdout, 50, &vres);
		rp_hid_verify_print(stdout, &vres);
		if (vres.unexplained)
			status = TT_EXIT_FAILURE;
	}
	sig = rp_live_clock_stop_signal(l->clock);
	if (sig) {
		tt_error("stopped by signal %d; contacts were lifted", sig);
		return 128 + sig;
	}
	return status;
}

static int
run_hid(struct replay_args *a)
{
	_cleanup_(rp_hid_schedule_freep) struct rp_hid_schedule *s = NULL;
	_cleanup_(hid_live_release) struct hid_live l = { 0 };
	struct rp_stats st = { 0 };
	int rc = rp_hid_schedule_load(a->file, &a->o, stderr, &s);
	int status;

	if (rc < 0)
		return rc == -EINVAL ? TT_EXIT_FAILURE : TT_EXIT_TROUBLE;
	if (a->report_path)
		return tt_usage_error("replay", "--report is not available with --hid yet");
	if (a->dry_run)
		return run_hid_dry(s, a);
	l.s = s;
	if (hid_live_setup(&l, a) < 0)
		return TT_EXIT_TROUBLE;
	status = hid_live_play(&l, a, &st);
	status = hid_live_conclude(&l, &st, status);
	rp_stats_release(&st);
	return status;
}

int
tt_cmd_replay(int argc, char **argv)
{
	struct replay_args a = { .spin_max_us = TT_LOOP_DEFAULT_SPIN_US };
	_cleanup_(rp_schedule_freep) struct rp_schedule *s = NULL;
	_cleanup_(tt_output_freep) struct tt_output *report = NULL;
	_cleanup_(tt_li_config_freep) struct tt_li_config *li_config = NULL;
	int rc;

	rp_options_init(&a.o);
	rc = parse_args(argc, argv, &a);
	li_config = a.li_config;
	if (rc != 0) {
		free(a.o.device_ids);
		return rc < 0 ? TT_EXIT_OK : rc;
	}
	if (a.hid) {
		rc = run_hid(&a);
		free(a.o.device_ids);
		return rc;
	}
	rc = rp_schedule_load(a.file, &a.o, stderr, &s);
	free(a.o.device_ids);
	a.o.device_ids = NULL;
	if (rc < 0)	/* a refused file (-EINVAL) has errors: a finding */
		return rc == -EINVAL ? TT_EXIT_FAILURE : TT_EXIT_TROUBLE;
	/* Frames before --from only prepare the state: none left means
	 * --from is past the last frame. */
	if (a.o.from_us != INT64_MIN && !s->nframes) {
		char tb[32];
		return tt_usage_error("replay", "--from %s is past the end of %s: no frame at or after it",
				      tt_format_time(tb, sizeof(tb), a.o.from_us), tt_reader_name(s->reader));
	}
	if (open_report(&a, &report) < 0)
		return TT_EXIT_TROUBLE;
	note_dropped(s);
	if (a.dry_run)
		return run_dry(s, &a, report);
	return run_live(s, &a, report);
}
