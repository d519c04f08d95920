/* SPDX-License-Identifier: MIT */
/* touchtape replay: recreate recorded devices through uinput and play
 * their frames at absolute deadlines, safely. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "../tools/commands.h"
#include "log.h"
#include "player.h"
#include "report.h"
#include "schedule.h"
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

struct replay_args {
	struct rp_options o;
	bool dry_run;
	bool verify;
	bool exact;
	bool wait_enter;
	bool quiet;
	const char *report_path;
	const char *file;
	int64_t spin_max_us;
	bool no_realtime;
};

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
		"      --from TIME        start at TIME in the recording (state before it is\n"
		"                         prepared: touches already down are put down first)\n"
		"      --to TIME          stop after TIME in the recording\n"
		"      --max-gap SECONDS  shorten idle gaps longer than SECONDS to SECONDS\n"
		"      --loop N           play N times (0 = until interrupted; default 1)\n"
		"      --device ID        replay only device ID (repeatable; ids as in 'touchtape print')\n"
		"      --desc FILE        device description for an evemu events-only file\n"
		"      --start-delay SECONDS  wait before the first frame\n"
		"      --wait             wait for Enter before starting\n"
		"      --verify           read the devices back and compare what the kernel\n"
		"                         delivered with the recording, frame by frame\n"
		"      --exact            create the devices with fuzz 0 (no kernel smoothing)\n"
		"      --allow-keys       also replay the keys that can type or act on your session\n"
		"                         (letters, digits, Enter, modifiers, F1-F24, power...):\n"
		"                         by default a device is replayed without them, and a\n"
		"                         keyboard is left out\n"
		"      --dry-run          do everything but create devices: print the schedule\n"
		"      --report FILE      write the timing (and --verify) report as JSON\n"
		"      --spin TIME        wake up to TIME early and spin on the clock until each\n"
		"                         frame is due, so timer wake-up delays do not make\n"
		"                         frames late (default 2ms, adapts to the delays seen;\n"
		"                         0 = sleep on the timer only, no CPU spent spinning)\n"
		"      --no-realtime      stay a normal process; by default replay asks for a low\n"
		"                         real-time priority (SCHED_FIFO 10) and locks its memory\n"
		"                         when allowed, so a busy machine does not delay frames\n"
		"  -q, --quiet            no per-device lines, only problems and the summary\n"
		"  -h, --help             show this help\n"
		"\n"
		"TIME and SECONDS take units: 1.5, 250ms, 2s, 1m.\n"
		"\n"
		"Values outside a device's absinfo range are replayed as recorded (the kernel\n"
		"does not clamp them), and counted. A file is refused, before anything is\n"
		"created, only for what cannot be replayed: errors in its evdev frames or\n"
		"devices (frames out of time order, codes the device does not have, a device\n"
		"declared twice) and unreadable lines, named as 'touchtape validate' names them.\n"
		"\n"
		"Exit status: 0 replayed (and with --verify, no unexplained difference);\n"
		"1 refused file, failure or unexplained differences; 2 bad usage;\n"
		"128+N when stopped by signal N (130 for Ctrl-C), after the release.\n"
		"\n"
		"Examples:\n"
		"  sudo touchtape replay bug-1234.jsonl\n"
		"  sudo touchtape replay --verify --exact --report out.json bug-1234.jsonl\n"
		"  sudo touchtape replay --loop 0 --max-gap 1 --speed 2 bug-1234.jsonl\n"
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

static int
parse_args(int argc, char **argv, struct replay_args *a)
{
	enum { O_SPEED = 256, O_FROM, O_TO, O_MAXGAP, O_LOOP, O_DEVICE, O_DELAY, O_WAIT,
	       O_VERIFY, O_EXACT, O_KEYS, O_DESC, O_DRY, O_REPORT, O_SPIN, O_NO_RT };
	static const struct option opts[] = {
		{ "speed", required_argument, NULL, O_SPEED },
		{ "from", required_argument, NULL, O_FROM },
		{ "to", required_argument, NULL, O_TO },
		{ "max-gap", required_argument, NULL, O_MAXGAP },
		{ "loop", required_argument, NULL, O_LOOP },
		{ "device", required_argument, NULL, O_DEVICE },
		{ "start-delay", required_argument, NULL, O_DELAY },
		{ "wait", no_argument, NULL, O_WAIT },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "exact", no_argument, NULL, O_EXACT },
		{ "allow-keys", no_argument, NULL, O_KEYS },
		{ "desc", required_argument, NULL, O_DESC },
		{ "dry-run", no_argument, NULL, O_DRY },
		{ "report", required_argument, NULL, O_REPORT },
		{ "spin", required_argument, NULL, O_SPIN },
		{ "no-realtime", no_argument, NULL, O_NO_RT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		int64_t v;
		double d;

		switch (opt) {
		case O_SPEED:
			if (tt_parse_double(optarg, &d) < 0 || !isfinite(d) || d <= 0 || d > 1e6)
				return tt_usage_error("replay", "--speed takes a factor above 0, not '%s'", optarg);
			a->o.speed = d;
			break;
		case O_FROM:
		case O_TO:
		case O_MAXGAP:
		case O_DELAY:
		case O_SPIN:
			if (tt_parse_duration_us(optarg, &v) < 0)
				return tt_usage_error("replay", "'%s' is not a time (1.5, 250ms, 2s)", optarg);
			if (opt == O_FROM)
				a->o.from_us = v;
			else if (opt == O_TO)
				a->o.to_us = v;
			else if (opt == O_MAXGAP)
				a->o.max_gap_us = v;
			else if (opt == O_SPIN && (v < 0 || v > 1000000))
				return tt_usage_error("replay", "--spin is at most 1s, not '%s'", optarg);
			else if (opt == O_SPIN)
				a->spin_max_us = v;
			else
				a->o.start_delay_us = v;
			break;
		case O_LOOP:
			if (tt_parse_int64(optarg, &v) < 0 || v < 0 || v > UINT32_MAX)
				return tt_usage_error("replay", "--loop takes a count (0 = forever), not '%s'", optarg);
			a->o.loops = (uint32_t)v;
			break;
		case O_DEVICE:
			if (tt_parse_int64(optarg, &v) < 0 || v < 0 || v > UINT32_MAX)
				return tt_usage_error("replay", "--device takes a device id, not '%s'", optarg);
			a->o.device_ids = tt_reallocarray(a->o.device_ids, a->o.ndevice_ids + 1,
							  sizeof(uint32_t));
			a->o.device_ids[a->o.ndevice_ids++] = (uint32_t)v;
			break;
		case O_WAIT: a->wait_enter = true; break;
		case O_VERIFY: a->verify = true; break;
		case O_EXACT: a->exact = true; break;
		case O_KEYS: a->o.allow_keys = true; break;
		case O_DESC: a->o.desc = optarg; break;
		case O_DRY: a->dry_run = true; break;
		case O_REPORT: a->report_path = optarg; break;
		case O_NO_RT: a->no_realtime = true; break;
		case 'q': a->quiet = true; break;
		case 'h': usage(stdout); return -1;
		default: return tt_usage_error("replay", "unknown option");
		}
	}
	if (optind >= argc)
		return tt_usage_error("replay", "no file given");
	if (optind + 1 < argc)
		return tt_usage_error("replay", "one file at a time");
	if (a->o.to_us != RP_NO_LIMIT && a->o.from_us != INT64_MIN && a->o.to_us < a->o.from_us)
		return tt_usage_error("replay", "--to is before --from");
	if (a->dry_run && a->verify)
		return tt_usage_error("replay", "--verify needs real devices: not with --dry-run");
	if (a->verify && a->o.loops == 0)
		return tt_usage_error("replay", "--verify needs an end: not with --loop 0");
	a->file = argv[optind];
	return 0;
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

struct live {
	struct rp_uinput **devs;
	struct rp_verify *verify;
};

static int
live_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct live *l = data;
	int rc = rp_uinput_write(l->devs[dev], ev, n);

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
create_all(const struct rp_schedule *s, const struct replay_args *a, struct rp_uinput ***out)
{
	struct rp_uinput **devs = tt_reallocarray(NULL, s->ndevices, sizeof(*devs));

	memset(devs, 0, s->ndevices * sizeof(*devs));
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct tt_device *d = s->devices[i].dev;
		char why[512];
		int rc = rp_uinput_create(d, a->exact, &devs[i], why, sizeof(why));

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
on_stdin(void *data, int fd)
{
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n <= 0 || memchr(buf, '\n', (size_t)n))
		*(bool *)data = true;
}

static int
wait_for_enter(struct rp_loop *loop)
{
	bool go = false;
	int rc = rp_loop_add_fd(loop, STDIN_FILENO, on_stdin, &go);

	fprintf(stderr, "Press Enter to start the replay (Ctrl-C to cancel).\n");
	if (rc < 0) {
		/* stdin cannot be polled (a regular file, /dev/null): read it. */
		on_stdin(&go, STDIN_FILENO);
		return 0;
	}
	while (!go && !rp_loop_stop_signal(loop)) {
		if ((rc = rp_loop_dispatch(loop, -1)) < 0)
			break;
	}
	/* @go lives on this stack, and a stdin at EOF stays readable (the
	 * loop would spin through the replay): stop watching it. */
	rp_loop_remove_fd(loop, STDIN_FILENO);
	return rc < 0 ? rc : 0;
}

static void
print_summary(const struct rp_schedule *s, const struct rp_stats *st, const struct rp_summary *sum)
{
	printf("replayed %zu frame%s in %" PRIu32 " loop%s (%zu release/preparation frames)",
	       st->frames_written, st->frames_written == 1 ? "" : "s", st->loops_done,
	       st->loops_done == 1 ? "" : "s", st->extra_frames);
	if (s->ndropped)
		printf(", %zu SYN_DROPPED frame%s skipped", s->ndropped, s->ndropped == 1 ? "" : "s");
	printf("\nlateness: median %" PRId64 " us, p99 %" PRId64 " us, max %" PRId64
	       " us; drift %" PRId64 " us\n", sum->median_us, sum->p99_us, sum->max_us, sum->drift_us);
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
run_dry(const struct rp_schedule *s, const struct replay_args *a)
{
	struct dry d = { .s = s };
	struct rp_clock clock = { dry_now, dry_wait, &d };
	struct rp_sink sink = { dry_write, &d };
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	int rc;

	if (a->o.loops == 0) {
		fprintf(stderr, "touchtape: --dry-run --loop 0 prints one loop\n");
	}
	struct rp_options o = a->o;
	if (o.loops == 0)
		o.loops = 1;
	rc = rp_play(s, &o, o.start_delay_us, &clock, &sink, &st);
	rp_stats_summary(&st, &sum);
	print_summary(s, &st, &sum);
	if (a->report_path)
		rp_report_write(a->report_path, s, &st, &sum, NULL);
	rp_stats_release(&st);
	return rc < 0 ? TT_EXIT_FAILURE : TT_EXIT_OK;
}

static int
run_live(const struct rp_schedule *s, const struct replay_args *a)
{
	_cleanup_(rp_loop_freep) struct rp_loop *loop = NULL;
	_cleanup_(rp_verify_freep) struct rp_verify *verify = NULL;
	struct rp_uinput **devs = NULL;
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	struct rp_verify_result vres;
	int rc, sig, status = TT_EXIT_OK;

	rc = rp_loop_new(&loop);
	if (rc < 0) {
		tt_error("cannot set up the event loop: %s", strerror(-rc));
		return TT_EXIT_FAILURE;
	}
	rp_loop_set_spin_max(loop, a->spin_max_us);
	if (!a->no_realtime)
		become_realtime();
	if (create_all(s, a, &devs) < 0)
		return TT_EXIT_FAILURE;
	if (a->verify) {
		verify = rp_verify_new(s);
		for (size_t i = 0; i < s->ndevices; i++) {
			rc = rp_verify_attach(verify, (uint32_t)i, rp_uinput_node(devs[i]),
					      rp_uinput_absinfo(devs[i], 0), loop);
			if (rc < 0) {
				tt_error("--verify: cannot read %s back: %s", rp_uinput_node(devs[i]),
					 strerror(-rc));
				destroy_all(devs, s->ndevices);
				return TT_EXIT_FAILURE;
			}
		}
	}
	if (a->wait_enter && wait_for_enter(loop) < 0) {
		destroy_all(devs, s->ndevices);
		return TT_EXIT_FAILURE;
	}

	struct live live = { devs, verify };
	struct rp_clock clock = rp_loop_clock(loop);
	struct rp_sink sink = { live_write, &live };
	if (!rp_loop_stop_signal(loop))
		rc = rp_play(s, &a->o, clock.now(clock.data) + a->o.start_delay_us, &clock, &sink, &st);
	else
		rc = 1;
	if (rc < 0) {
		tt_error("writing to the replayed device failed: %s (touches were released)", strerror(-rc));
		status = TT_EXIT_FAILURE;
	}
	if (verify)
		rp_verify_drain(verify, loop, VERIFY_DRAIN_MS);
	else
		nanosleep(&(struct timespec){ .tv_nsec = RELEASE_SETTLE_MS * 1000000L }, NULL);
	destroy_all(devs, s->ndevices);

	rp_stats_summary(&st, &sum);
	print_summary(s, &st, &sum);
	if (verify) {
		rp_verify_compare(verify, &st, stdout, 50, &vres);
		rp_report_print_verify(stdout, &vres);
		if (vres.unexplained)
			status = TT_EXIT_FAILURE;
	}
	if (a->report_path && rp_report_write(a->report_path, s, &st, &sum, verify ? &vres : NULL) < 0)
		status = TT_EXIT_FAILURE;
	rp_stats_release(&st);
	sig = rp_loop_stop_signal(loop);
	if (sig) {
		fprintf(stderr, "touchtape: stopped by signal %d; touches and keys were released\n", sig);
		return 128 + sig;
	}
	return status;
}

int
tt_cmd_replay(int argc, char **argv)
{
	struct replay_args a = { .spin_max_us = RP_DEFAULT_SPIN_MAX_US };
	_cleanup_(rp_schedule_freep) struct rp_schedule *s = NULL;
	int rc;

	rp_options_init(&a.o);
	rc = parse_args(argc, argv, &a);
	if (rc != 0) {
		free(a.o.device_ids);
		return rc < 0 ? TT_EXIT_OK : rc;
	}
	rc = rp_schedule_load(a.file, &a.o, stderr, &s);
	free(a.o.device_ids);
	a.o.device_ids = NULL;
	if (rc < 0)
		return TT_EXIT_FAILURE;
	note_dropped(s);
	if (a.dry_run)
		return run_dry(s, &a);
	return run_live(s, &a);
}
