/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "frame-steps.h"
#include "log.h"
#include "report.h"
#include "side-uinput.h"
#include "uinput-device.h"
#include "util-strings.h"
#include "verify.h"

#define NODE_TIMEOUT_MS 5000
/* libinput decides a tap 180 ms after the touch ends, ends a finger
 * scroll and a hold on timers too: what it may still say after the
 * last frame. */
#define LIBINPUT_DRAIN_MS 600

struct rp_uinput_side {
	struct rp_schedule *s;
	struct rp_uinput_side_options o;
	struct rp_uinput **devs;	/* NULL until created: --dry-run prints */
	struct rp_verify *verify;
	struct rp_li *li;		/* --libinput */
	struct rp_sur *sur;		/* the surroundings, until the devices are gone */
	struct rp_clock *clock;		/* while playing: --dry-run's time */
};

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

/* --dry-run: each frame printed at its deadline. */
static int
dry_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct rp_uinput_side *u = data;
	const struct rp_schedule *s = u->s;
	char tbuf[32];

	printf("%s dev %" PRIu32 " ", tt_format_time(tbuf, sizeof(tbuf), u->clock->now(u->clock->data)),
	       s->devices[dev].dev->id);
	if (tag >= 0 && s->nframes)
		printf("line %zu:", s->frames[(size_t)tag % s->nframes].line);
	else
		printf("state:");
	rp_print_events(stdout, ev, n);
	putchar('\n');
	return 0;
}

static int
live_write(void *data, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct rp_uinput_side *u = data;
	int rc;

	if (u->verify)
		rp_verify_writing(u->verify, dev);
	rc = rp_uinput_write(u->devs[dev], ev, n);
	if (rc == 0 && u->verify)
		rp_verify_written(u->verify, dev, ev, n, tag);
	return rc;
}

static int
side_play(void *data, const struct rp_options *o, int64_t start_us, struct rp_clock *clock,
	  struct rp_stats *st)
{
	struct rp_uinput_side *u = data;
	struct rp_sink sink = { u->devs ? live_write : dry_write, u };
	int rc;

	u->clock = clock;
	rc = rp_play(u->s, o, start_us, clock, &sink, st);
	u->clock = NULL;
	return rc;
}

static void
destroy_devices(struct rp_uinput_side *u)
{
	for (size_t i = 0; u->devs && i < u->s->ndevices; i++)
		rp_uinput_destroy(u->devs[i]);
	free(u->devs);
	u->devs = NULL;
}

static void
side_destroy(void *data)
{
	struct rp_uinput_side *u = data;

	destroy_devices(u);
	rp_sur_free(u->sur);
	u->sur = NULL;
}

static void
side_detach(void *data)
{
	struct rp_uinput_side *u = data;

	rp_verify_free(u->verify);
	u->verify = NULL;
	rp_li_free(u->li);
	u->li = NULL;
}

/* --libinput: the output, opened before any device is created so a
 * refused path costs nothing. */
static int
open_libinput(struct rp_uinput_side *u)
{
	if (!rp_li_udev_running())
		tt_warning("--libinput: systemd-udevd does not seem to run (no /run/udev/control): libinput "
			   "takes only the devices udev has tagged, and classifies them by udev's properties");
	return rp_li_open(u->o.li, &u->li);
}

/* Before the devices: udev applies the rule when they appear, libinput
 * reads the quirks when it starts. */
static void
setup_surroundings(struct rp_uinput_side *u)
{
	_cleanup_free_ const struct tt_device **devs = tt_reallocarray(NULL, u->s->ndevices + 1,
								      sizeof(*devs));

	for (size_t i = 0; i < u->s->ndevices; i++)
		devs[i] = u->s->devices[i].dev;
	(void)rp_sur_new(devs, u->s->ndevices, &u->o.sur, &u->sur);
}

static int
wait_nodes(struct rp_uinput_side *u, bool quiet)
{
	for (size_t i = 0; i < u->s->ndevices; i++) {
		const struct tt_device *d = u->s->devices[i].dev;
		if (rp_uinput_wait_node(u->devs[i], NODE_TIMEOUT_MS) < 0) {
			tt_error("device %" PRIu32 " \"%s\": its /dev/input node did not appear within %d s "
				 "(is devtmpfs mounted on /dev, or udev running?)", d->id, d->name,
				 NODE_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		if (!quiet)
			printf("device %" PRIu32 " \"%s\": %s\n", d->id, d->name, rp_uinput_node(u->devs[i]));
	}
	fflush(stdout);
	return 0;
}

/* --hwdb-abs: what udev's evdev builtin would do with the entry. */
static int
apply_hwdb_abs(struct rp_uinput_side *u)
{
	for (size_t i = 0; i < u->s->ndevices; i++) {
		const char *node = rp_uinput_node(u->devs[i]);
		int rc = node ? rp_hwdb_abs_apply(u->o.abs, u->o.nabs, node) : 0;

		if (rc < 0) {
			tt_error("%s: --hwdb-abs: %s", node, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Every device created first, then their nodes waited for. */
static int
side_create(void *data, struct tt_loop *loop, bool quiet)
{
	struct rp_uinput_side *u = data;
	int rc;

	(void)loop;
	if (u->o.li && (rc = open_libinput(u)) < 0)
		return rc;
	setup_surroundings(u);
	u->devs = tt_zalloc(u->s->ndevices * sizeof(*u->devs));
	for (size_t i = 0; i < u->s->ndevices; i++) {
		const struct tt_device *d = u->s->devices[i].dev;
		char why[512];

		rc = rp_uinput_create(d, u->o.exact, rp_sur_tag(u->sur, i), &u->devs[i], why, sizeof(why));
		if (rc < 0) {
			tt_error("device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			return rc;
		}
	}
	if ((rc = wait_nodes(u, quiet)) < 0)
		return rc;
	return apply_hwdb_abs(u);
}

/* --libinput: a reader on every created device, then libinput on all
 * of them, before the first frame. */
static int
side_start(void *data, struct tt_loop *loop)
{
	struct rp_uinput_side *u = data;
	int rc;

	if (!u->li)
		return 0;
	for (size_t i = 0; i < u->s->ndevices; i++) {
		rc = rp_li_attach(u->li, loop, u->s->devices[i].dev->id, rp_uinput_node(u->devs[i]));
		if (rc < 0)
			return rc;
	}
	return rp_li_start(u->li, loop);
}

/* --libinput: libinput's last word (a tap is told after its timeout),
 * then the file, before the devices go. */
static int
side_finish(void *data, struct tt_loop *loop, bool quiet)
{
	struct rp_uinput_side *u = data;
	size_t frames, events;

	if (!u->li)
		return 0;
	rp_li_drain(u->li, loop, LIBINPUT_DRAIN_MS);
	if (rp_li_commit(u->li) < 0)
		return -EIO;
	rp_li_counts(u->li, &frames, &events);
	if (!quiet)
		printf("wrote %s: %zu frames as the kernel delivered them, %zu libinput events\n",
		       rp_li_output_name(u->li), frames, events);
	return 1;
}

static void
side_print_counts(void *data, const struct rp_stats *st, bool dry)
{
	const struct rp_schedule *s = ((struct rp_uinput_side *)data)->s;

	printf("%s %zu frame%s in %" PRIu32 " loop%s (%zu release/preparation frames)",
	       dry ? "would replay" : "replayed", st->frames_written, st->frames_written == 1 ? "" : "s",
	       st->loops_done, st->loops_done == 1 ? "" : "s", st->extra_frames);
	if (s->ndropped)
		printf(", %zu SYN_DROPPED frame%s skipped", s->ndropped, s->ndropped == 1 ? "" : "s");
	putchar('\n');
}

static void
side_report_fields(void *data, FILE *f)
{
	rp_report_evdev_fields(f, ((struct rp_uinput_side *)data)->s);
}

/* --verify: a reader on every created device, served by the clock's loop. */
static int
side_verify_attach(void *data, struct tt_loop *loop, void **verifier)
{
	struct rp_uinput_side *u = data;

	u->verify = rp_verify_new(u->s);
	for (size_t i = 0; i < u->s->ndevices; i++) {
		int rc = rp_verify_attach(u->verify, (uint32_t)i, rp_uinput_node(u->devs[i]),
					  rp_uinput_absinfo(u->devs[i], 0), loop);
		if (rc < 0) {
			tt_error("--verify: cannot read %s back: %s", rp_uinput_node(u->devs[i]),
				 strerror(-rc));
			return rc;
		}
	}
	*verifier = u->verify;
	return 0;
}

static const struct rp_side_ops side_ops = {
	.play = side_play,
	.create = side_create,
	.start = side_start,
	.finish = side_finish,
	.detach = side_detach,
	.destroy = side_destroy,
	.print_counts = side_print_counts,
	.report_fields = side_report_fields,
	.writing = "writing to the replayed device",
	.lifted = "touches were released",
	.released = "touches and keys were released",
	.verify_attach = side_verify_attach,
	.verify = &rp_verify_ops,
};

int
rp_uinput_side_new(const char *path, const struct rp_options *o,
		   const struct rp_uinput_side_options *so, FILE *err, struct rp_uinput_side **out)
{
	struct rp_schedule *s = NULL;
	struct rp_uinput_side *u;
	int rc = rp_schedule_load(path, o, err, &s);

	if (rc < 0)
		return rc;
	note_dropped(s);
	u = tt_zalloc(sizeof(*u));
	u->s = s;
	u->o = *so;
	*out = u;
	return 0;
}

void
rp_uinput_side_free(struct rp_uinput_side *u)
{
	if (!u)
		return;
	side_detach(u);
	side_destroy(u);
	rp_schedule_free(u->s);
	free(u);
}

struct rp_side
rp_uinput_side_get(struct rp_uinput_side *u)
{
	return (struct rp_side){
		.ops = &side_ops, .data = u, .nsteps = u->s->nframes,
		.source = tt_reader_name(u->s->reader),
	};
}
