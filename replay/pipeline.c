/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "pipeline.h"
#include "report.h"

#define VERIFY_DRAIN_MS 2000
/* A device that goes away takes its clients' unread events with it (evdev
 * answers ENODEV before it drains the buffer): the pause between the last
 * (release) frame and destroying the devices, for other readers to get it. */
#define RELEASE_SETTLE_MS 100

/* --dry-run's clock: every deadline is met at once. */
static int64_t
dry_now(void *data)
{
	return *(int64_t *)data;
}

static int
dry_wait(void *data, int64_t deadline)
{
	int64_t *now = data;

	if (deadline > *now)
		*now = deadline;
	return 0;
}

static void
print_summary(struct rp_side *side, const struct rp_stats *st, const struct rp_summary *sum, bool dry)
{
	side->ops->print_counts(side->data, st, dry);
	/* A dry run meets every deadline by construction: no lateness to tell. */
	if (!dry)
		printf("lateness: median %" PRId64 " us, p99 %" PRId64 " us, max %" PRId64 " us; drift %"
		       PRId64 " us\n", sum->median_us, sum->p99_us, sum->max_us, sum->drift_us);
}

static int
write_report(struct tt_output *out, struct rp_side *side, const struct rp_stats *st,
	     const struct rp_summary *sum, void *verifier)
{
	FILE *f;

	if (!out)
		return 0;
	f = tt_output_stream(out);
	if (!f) {
		tt_error("%s: %s", tt_output_name(out), strerror(errno));
		return -EIO;
	}
	rp_report_begin(f, st);
	side->ops->report_fields(side->data, f);
	rp_report_lateness(f, sum);
	if (verifier)
		side->ops->verify->report(verifier, f);
	rp_report_end(f);
	return tt_output_commit(out);
}

int
rp_pipeline_dry(struct rp_side *side, const struct rp_options *opts, struct tt_output *report)
{
	int64_t now = 0;
	struct rp_clock clock = { dry_now, dry_wait, &now };
	struct rp_options o = *opts;
	struct rp_stats st = { 0 };
	struct rp_summary sum;
	int rc;

	if (o.loops == 0) {
		tt_info("--dry-run --loop 0 prints one loop");
		o.loops = 1;
	}
	rc = side->ops->play(side->data, &o, o.start_delay_us, &clock, &st);
	rp_stats_summary(&st, &sum);
	print_summary(side, &st, &sum, true);
	if (write_report(report, side, &st, &sum, NULL) < 0)
		rc = -EIO;
	rp_stats_release(&st);
	return rc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
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

/* What a live replay holds, released in one place (live_release). */
struct live {
	struct rp_side *side;
	const struct rp_pipeline_options *po;
	struct rp_live_clock *clock;
	void *verifier;		/* --verify's, the side's */
};

static void
live_release(struct live *l)
{
	l->side->ops->detach(l->side->data);
	l->side->ops->destroy(l->side->data);
	rp_live_clock_free(l->clock);
}

/* The live clock (its loop serves everything), and the priority to keep
 * its deadlines; then the devices, their readers, --wait. */
static int
live_setup(struct live *l)
{
	const struct rp_side_ops *ops = l->side->ops;
	void *data = l->side->data;
	struct tt_loop *loop;
	int rc = rp_live_clock_new(l->po->spin_max_us, &l->clock);

	if (rc < 0) {
		tt_error("cannot set up the event loop: %s", strerror(-rc));
		return rc;
	}
	if (l->po->realtime)
		become_realtime();
	loop = rp_live_clock_loop(l->clock);
	if ((rc = ops->create(data, loop, l->po->quiet)) < 0)
		return rc;
	if (l->po->verify && (rc = ops->verify_attach(data, loop, &l->verifier)) < 0)
		return rc;
	if (ops->start && (rc = ops->start(data, loop)) < 0)
		return rc;
	if (l->po->wait_enter && (rc = wait_for_enter(l->clock)) < 0)
		return rc;
	return 0;
}

/* Plays, lets the readers see the end, and takes the devices away. */
static int
live_play(struct live *l, const struct rp_options *o, struct rp_stats *st)
{
	const struct rp_side_ops *ops = l->side->ops;
	void *data = l->side->data;
	struct tt_loop *loop = rp_live_clock_loop(l->clock);
	struct rp_clock clock = rp_live_clock_get(l->clock);
	bool waited = false;
	int rc = 1;
	int frc = 0;

	if (!rp_live_clock_stop_signal(l->clock))
		rc = ops->play(data, o, clock.now(clock.data) + o->start_delay_us, &clock, st);
	if (rc < 0)
		tt_error("%s failed: %s (%s)", ops->writing, strerror(-rc), ops->lifted);
	if (l->verifier)
		waited = ops->verify->drain(l->verifier, loop, VERIFY_DRAIN_MS);
	if (ops->finish)
		frc = ops->finish(data, loop, l->po->quiet);
	if (!waited && frc == 0)
		nanosleep(&(struct timespec){ .tv_nsec = RELEASE_SETTLE_MS * 1000000L }, NULL);
	ops->destroy(data);
	return rc < 0 || frc < 0 ? TT_EXIT_TROUBLE : TT_EXIT_OK;
}

/* The summary, the --verify comparison and the report, after the replay. */
static int
live_conclude(struct live *l, const struct rp_stats *st, struct tt_output *report, int status)
{
	struct rp_side *side = l->side;
	struct rp_summary sum;
	int sig;

	rp_stats_summary(st, &sum);
	print_summary(side, st, &sum, false);
	if (l->verifier && side->ops->verify->conclude(l->verifier, st, stdout))
		status = TT_EXIT_FAILURE;
	if (write_report(report, side, st, &sum, l->verifier) < 0)
		status = TT_EXIT_TROUBLE;
	sig = rp_live_clock_stop_signal(l->clock);
	if (sig) {
		tt_error("stopped by signal %d; %s", sig, side->ops->released);
		return 128 + sig;
	}
	return status;
}

int
rp_pipeline_live(struct rp_side *side, const struct rp_options *o,
		 const struct rp_pipeline_options *po, struct tt_output *report)
{
	_cleanup_(live_release) struct live l = { .side = side, .po = po };
	struct rp_stats st = { 0 };
	int status;

	if (live_setup(&l) < 0)
		return TT_EXIT_TROUBLE;
	status = live_play(&l, o, &st);
	status = live_conclude(&l, &st, report, status);
	rp_stats_release(&st);
	return status;
}
