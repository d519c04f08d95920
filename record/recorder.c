/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evdev-capture.h"
#include "log.h"
#include "recorder.h"
#include "surroundings.h"
#include "util-strings.h"
#include "util-time.h"

#define TT_EXIT_FAILURE_STATUS 1

struct tt_recorder {
	struct tt_recorder_options opts;
	/* What the sources see of the recorder: the loop, the current
	 * file's writer and time 0, stopped, draining, the first write
	 * error. */
	struct tt_source_ctx ctx;
	struct tt_sources sources;
	struct tt_header header;	/* the first file's, until written */
	struct tt_loop_source *duration_timer;
	struct tt_loop_source *idle_timer;
	bool idle_armed;

	char *path;		/* current output file, NULL for stdout */
	unsigned int file_index;	/* 0: FILE, n: FILE.n */
	int fd;
	int64_t first_start_us;
	uint64_t file_frames;
	uint64_t total_frames;
	int64_t last_activity_us;

	const char *stop_reason;
	int status;
};

static const char *
output_name(const struct tt_recorder *r)
{
	return r->path ? r->path : "standard output";
}

/* Every write goes through here: the first failure is reported at once
 * and ends the recording; what is on disk stays whole lines. */
static int
check_write(struct tt_recorder *r, int rc)
{
	if (rc >= 0 || r->ctx.write_error)
		return rc;
	r->ctx.write_error = rc;
	tt_error("writing %s: %s; stopping (the file is valid up to its last complete line)",
		 output_name(r), strerror(-rc));
	r->stop_reason = "write error";
	r->status = TT_EXIT_FAILURE_STATUS;
	r->ctx.stopped = true;
	tt_loop_quit(r->ctx.loop, r->status);
	return rc;
}

static int
write_marker(struct tt_recorder *r, enum tt_marker_kind kind, const char *text)
{
	return tt_source_marker(&r->ctx, kind, -1, text);
}

static int
open_output(struct tt_recorder *r)
{
	if (!r->opts.output || strcmp(r->opts.output, "-") == 0) {
		r->fd = STDOUT_FILENO;
		r->path = NULL;
	} else {
		free(r->path);
		if (r->file_index == 0) {
			r->path = tt_strdup(r->opts.output);
		} else {
			size_t len = strlen(r->opts.output) + 16;
			r->path = tt_zalloc(len);
			snprintf(r->path, len, "%s.%u", r->opts.output, r->file_index);
		}
		/* A recording is often the only copy of a bug: never
		 * truncate one unless asked (--force). */
		r->fd = open(r->path, O_WRONLY | O_CREAT | O_CLOEXEC | (r->opts.force ? O_TRUNC : O_EXCL),
			     0644);
		if (r->fd < 0) {
			int rc = -errno;
			tt_error("%s: %s", r->path, strerror(-rc));
			return rc;
		}
	}
	return tt_writer_new(r->fd, &r->ctx.writer);
}

static void
close_output(struct tt_recorder *r)
{
	tt_writer_free(r->ctx.writer);
	r->ctx.writer = NULL;
	if (r->fd >= 0 && r->fd != STDOUT_FILENO)
		close(r->fd);
	r->fd = -1;
}

/* Header, the sources' device records, start marker, their notes. @h
 * carries the start instants. */
static int
write_preamble(struct tt_recorder *r, struct tt_header *h)
{
	size_t ndevs = tt_sources_ndevices(&r->sources);
	char text[64];
	int rc;

	h->keycodes_masked = !(r->opts.capture_flags & TT_CAPTURE_SHOW_KEYCODES);
	if (r->opts.x_vendor && !h->x_vendor) {
		h->x_vendor = tt_strdup(r->opts.x_vendor);
		h->x_release = r->opts.x_release;
	}
	tt_sur_gather_system(&tt_sur_host_roots, h);
	r->ctx.start_us = h->start_monotonic_us;
	r->file_frames = 0;
	rc = check_write(r, tt_writer_header(r->ctx.writer, h));
	if (rc >= 0)
		rc = tt_sources_begin_file(&r->sources);
	if (rc < 0)
		return rc;
	snprintf(text, sizeof(text), "%zu device%s", ndevs, ndevs == 1 ? "" : "s");
	rc = write_marker(r, TT_MARKER_START, text);
	return rc < 0 ? rc : tt_sources_notes(&r->sources);
}

/* The sources' summary markers (drops) and the stop marker: the end of
 * every file. */
static void
write_epilogue(struct tt_recorder *r, const char *reason)
{
	tt_sources_end_file(&r->sources);
	write_marker(r, TT_MARKER_STOP, reason);
}

static void
recorder_stop(struct tt_recorder *r, const char *reason, int status)
{
	if (r->ctx.stopped)
		return;
	r->ctx.stopped = true;
	r->stop_reason = reason;
	r->status = status;
	tt_loop_quit(r->ctx.loop, status);
}

static void
arm_idle(struct tt_recorder *r, int64_t when_us)
{
	if (tt_loop_timer_set(r->idle_timer, when_us) == 0)
		r->idle_armed = true;
}

static int
write_frame(struct tt_recorder *r, const struct tt_frame *frame)
{
	int rc;

	if (r->ctx.stopped && !r->ctx.draining)
		return 0;	/* after --frames N: the rest of this read is not wanted */
	rc = check_write(r, tt_writer_frame(r->ctx.writer, frame));
	if (rc < 0)
		return rc;
	r->file_frames++;
	r->total_frames++;
	r->last_activity_us = r->ctx.start_us + frame->time_us;
	tt_sources_frame_written(&r->sources, frame);
	if (r->idle_timer && !r->idle_armed)
		arm_idle(r, r->last_activity_us + r->opts.autorestart_us);
	if (r->opts.max_frames && r->total_frames >= r->opts.max_frames)
		recorder_stop(r, "frames", 0);
	return 0;
}

/* The host side of struct tt_source_ctx. */
static int
host_check(void *host, int rc)
{
	return check_write(host, rc);
}

static int
host_frame(void *host, const struct tt_frame *frame)
{
	return write_frame(host, frame);
}

static void
host_poll(void *host)
{
	struct tt_recorder *r = host;

	tt_sources_poll(&r->sources);
}

static void
host_stop(void *host, const char *reason, int status)
{
	recorder_stop(host, reason, status);
}

static void
on_signal(struct tt_loop *loop, int signo, void *userdata)
{
	(void)loop;
	recorder_stop(userdata, signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" :
		      signo == SIGHUP ? "SIGHUP" : "signal", 0);
}

static void
on_duration(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	recorder_stop(userdata, "duration", 0);
}

/* Ends the current file after --autorestart seconds without a frame and
 * starts FILE.n+1 at once, with the devices' state as of now. A file that
 * has no frames yet is not rotated: the timer waits for the next frame. */
static void
rotate(struct tt_recorder *r)
{
	struct tt_header h;

	write_epilogue(r, "inactivity");
	if (r->ctx.write_error)
		return;
	close_output(r);
	if (!r->opts.quiet)
		tt_info("%s: no input for a while, recording into a new file", r->path);
	r->file_index++;
	if (check_write(r, open_output(r)) < 0)
		return;
	tt_sources_refresh(&r->sources);
	tt_header_init_now(&h);
	write_preamble(r, &h);
	tt_header_clear(&h);
	if (!r->opts.quiet)
		tt_info("recording to %s", r->path);
}

static void
on_idle(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct tt_recorder *r = userdata;
	int64_t now = tt_now_us(CLOCK_MONOTONIC);

	(void)loop;
	(void)source;
	(void)events;
	r->idle_armed = false;
	if (r->file_frames == 0)
		return;
	if (now - r->last_activity_us < r->opts.autorestart_us) {
		arm_idle(r, r->last_activity_us + r->opts.autorestart_us);
		return;
	}
	rotate(r);
}

static int
add_own_sources(struct tt_recorder *r)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	int rc;

	rc = tt_loop_add_signals(r->ctx.loop, signals, (int)ARRAY_LENGTH(signals), on_signal, r);
	if (rc < 0)
		return rc;
	if (r->opts.duration_us) {
		r->duration_timer = tt_loop_add_timer(r->ctx.loop, on_duration, r);
		if (!r->duration_timer)
			return -errno;
	}
	if (r->opts.autorestart_us) {
		r->idle_timer = tt_loop_add_timer(r->ctx.loop, on_idle, r);
		if (!r->idle_timer)
			return -errno;
	}
	return 0;
}

int
tt_recorder_new(const struct tt_recorder_options *opts, struct tt_recorder **out)
{
	_cleanup_(tt_recorder_freep) struct tt_recorder *r = tt_zalloc(sizeof(*r));
	int rc;

	r->opts = *opts;
	r->fd = -1;
	r->ctx = (struct tt_source_ctx){
		.loop = tt_loop_new(),
		.check = host_check,
		.frame = host_frame,
		.poll = host_poll,
		.stop = host_stop,
		.host = r,
	};
	if (!r->ctx.loop)
		return -errno;
	/* The clock starts before the sources open their devices, so no
	 * event they queue can be older than time 0. */
	tt_header_init_now(&r->header);
	r->first_start_us = r->header.start_monotonic_us;
	rc = add_own_sources(r);
	if (rc < 0) {
		tt_error("setting up the event loop: %s", strerror(-rc));
		return rc;
	}
	*out = steal(&r);
	return 0;
}

int
tt_recorder_add_source(struct tt_recorder *r, const struct tt_source_ops *ops, void *data)
{
	return tt_sources_add(&r->sources, ops, data, &r->ctx);
}

int
tt_recorder_begin(struct tt_recorder *r)
{
	int rc = open_output(r);

	if (rc >= 0)
		rc = write_preamble(r, &r->header);
	tt_header_clear(&r->header);
	if (rc < 0)
		return rc;
	if (r->duration_timer)
		return tt_loop_timer_set(r->duration_timer, r->ctx.start_us + r->opts.duration_us);
	return 0;
}

static void
print_summary(struct tt_recorder *r)
{
	char secs[32];

	tt_format_time(secs, sizeof(secs), tt_now_us(CLOCK_MONOTONIC) - r->first_start_us);
	tt_info("stopped (%s) after %s s; %" PRIu64 " frames in %s%s", r->stop_reason, secs,
		r->total_frames, output_name(r),
		r->file_index ? " (and the files before it)" : "");
	tt_sources_summary(&r->sources);
}

int
tt_recorder_run(struct tt_recorder *r)
{
	size_t ndevs = tt_sources_ndevices(&r->sources);
	int rc;

	if (!r->opts.quiet)
		tt_info("recording %zu device%s to %s; press Ctrl-C (or send SIGINT/SIGTERM) to stop",
			ndevs, ndevs == 1 ? "" : "s", output_name(r));
	rc = tt_loop_run(r->ctx.loop);
	if (rc < 0 && !r->ctx.stopped) {
		tt_error("event loop: %s", strerror(-rc));
		recorder_stop(r, "error", TT_EXIT_FAILURE_STATUS);
	}
	if (!r->stop_reason)
		r->stop_reason = "end";
	/* What the sources hold at the stop belongs in the file (not after
	 * --frames N, which wants N frames). */
	r->ctx.draining = strcmp(r->stop_reason, "frames") != 0;
	if (r->ctx.draining)
		tt_sources_drain(&r->sources, &r->ctx);
	if (!r->ctx.write_error)
		write_epilogue(r, r->stop_reason);
	if (!r->opts.quiet)
		print_summary(r);
	return r->status;
}

void
tt_recorder_free(struct tt_recorder *r)
{
	if (!r)
		return;
	/* The sources first, while the loop that holds their fds lives. */
	tt_sources_clear(&r->sources);
	close_output(r);
	tt_header_clear(&r->header);
	free(r->path);
	tt_loop_free(r->ctx.loop);
	free(r);
}
