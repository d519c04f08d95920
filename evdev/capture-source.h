/* SPDX-License-Identifier: MIT */
/*
 * A capture source: one layer's capture (evdev, hidraw, XI, libinput,
 * Wayland) as touchtape record sees it. The recorder owns one loop and
 * one writer; a source is started once the file's header and device
 * records are written, adds its fds to that loop and writes its records
 * through that writer, on that clock:
 *
 *	static const struct tt_source_ops my_ops = {
 *		.name = "mine", .start = my_start, .drain = my_drain,
 *		.summary = my_summary, .free = my_free,
 *	};
 *	tt_recorder_add_source(r, &my_ops, my);	// started here, owned by r
 *
 * The recorder walks its sources in the order they were added: the
 * kernel's (evdev, with hidraw) first, the layers above after. Only the
 * kernel's have a poll: a layer above calls ctx->poll() before it writes,
 * so a frame is in the file before what X, libinput or the compositor
 * made of it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event-loop.h"
#include "timeline.h"
#include "writer.h"

/* What the recorder lends every source; it stays valid (and follows the
 * current file) until the source is freed. The recorder alone changes
 * it. */
struct tt_source_ctx {
	struct tt_loop *loop;		/* the one loop */
	struct tt_writer *writer;	/* the current file's */
	int64_t start_us;		/* CLOCK_MONOTONIC at time 0 of the current file */
	int write_error;		/* -errno of the first write that failed, else 0 */
	bool stopped;			/* the loop is ending, or has ended */
	bool draining;			/* reading what was queued before the stop */
	/* The kernel sources write through these: the first failure is
	 * reported and ends the recording, and what is on disk stays whole
	 * lines. check() returns @rc; frame() writes @frame and counts it
	 * (--frames, --autorestart), or drops it once the recording stopped. */
	int (*check)(void *host, int rc);
	int (*frame)(void *host, const struct tt_frame *frame);
	/* Reads what the kernel sources have queued now. */
	void (*poll)(void *host);
	/* Ends the recording with a stop marker giving @reason; @status is
	 * the recorder's exit status (0, or 1 after an error). */
	void (*stop)(void *host, const char *reason, int status);
	void *host;
};

/* A marker at the time of now, through ctx->check(); none once a write
 * failed (that write's -errno). @device: a device id, or -1. */
int tt_source_marker(const struct tt_source_ctx *ctx, enum tt_marker_kind kind, int64_t device,
		     const char *text);

/* Every member but name and free may be NULL. The kernel's sources are
 * added before the file is made and hear of each file (begin_file,
 * notes, end_file); the layers above are added after the first file's
 * start marker, which --autorestart does not combine with. */
struct tt_source_ops {
	const char *name;
	/* Adds the source's fds to ctx->loop, and a layer above writes its
	 * opening records (a connected marker, its devices). 0, or -errno
	 * after an error message. */
	int (*start)(void *data, const struct tt_source_ctx *ctx);
	/* Its devices still recording, for the start marker. */
	size_t (*ndevices)(const void *data);
	/* Before the header of a file after the first (--autorestart): takes
	 * the devices' state as of now. */
	void (*refresh)(void *data);
	/* After the header: its device records. 0 or -errno. */
	int (*begin_file)(void *data);
	/* After the start marker: its notes. 0 or -errno. */
	int (*notes)(void *data);
	/* Before the stop marker of each file: its summary markers (drops). */
	void (*end_file)(void *data);
	/* Reads and writes what is queued now (the kernel's sources). */
	void (*poll)(void *data);
	/* Once the loop has ended, before the stop marker: writes what the
	 * source still holds. */
	void (*drain)(void *data);
	/* Its lines of the summary on stderr. */
	void (*summary)(const void *data);
	/* A kernel frame the recorder just wrote (record --guide follows the
	 * touches with it). */
	void (*frame_written)(void *data, const struct tt_frame *frame);
	/* Removes its fds from the loop (still alive) and frees it. */
	void (*free)(void *data);
};

struct tt_source {
	const struct tt_source_ops *ops;
	void *data;
};

/* The registered sources, in the order they were added. */
struct tt_sources {
	struct tt_source *v;
	size_t n;
};

/* Starts @data with @ctx and registers it. The sources own @data from
 * here on: a source that fails to start is freed. 0 or the start's
 * -errno. */
int tt_sources_add(struct tt_sources *s, const struct tt_source_ops *ops, void *data,
		   const struct tt_source_ctx *ctx);
/* The phases, over every source that has one, in the order added. The
 * first begin_file or notes that fails ends the walk and gives its
 * -errno; drain stops once a write failed. */
size_t tt_sources_ndevices(const struct tt_sources *s);
void tt_sources_refresh(const struct tt_sources *s);
int tt_sources_begin_file(const struct tt_sources *s);
int tt_sources_notes(const struct tt_sources *s);
void tt_sources_end_file(const struct tt_sources *s);
void tt_sources_poll(const struct tt_sources *s);
void tt_sources_drain(const struct tt_sources *s, const struct tt_source_ctx *ctx);
void tt_sources_summary(const struct tt_sources *s);
void tt_sources_frame_written(const struct tt_sources *s, const struct tt_frame *frame);
/* Frees the sources, the last added first (a layer before what it reads
 * beneath it), and empties @s. */
void tt_sources_clear(struct tt_sources *s);
