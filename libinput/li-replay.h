/* SPDX-License-Identifier: MIT */
/*
 * replay --libinput: while the replay plays, what the kernel delivered
 * (every created device read back through evdev, as --verify reads it)
 * and what the installed libinput made of it (record/li-capture.h, a
 * libinput context over the created devices with the user's
 * --libinput-config), written as one timeline with the kernel and the
 * libinput layers. The file is written beside its place and renamed into
 * it only when complete (cli/output.h); it is never one of the inputs.
 *
 *	rp_li_open(&opts, &li);			// the output and its header
 *	rp_li_attach(li, loop, record_id, node);	// each created device
 *	rp_li_start(li, loop);			// libinput on all of them
 *	... play ...
 *	rp_li_drain(li, loop, ms);		// libinput's timeouts (taps)
 *	rp_li_commit(li);
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "event-loop.h"
#include "util-mem.h"

struct tt_li_config;

struct rp_li_options {
	const char *output;
	const char *const *inputs;	/* NULL-terminated: never written onto */
	const struct tt_li_config *config;	/* NULL: libinput's defaults */
	bool show_keycodes;		/* --allow-keys: keys written as they are */
};

struct rp_li;

/* Opens the output and writes the header. 0 or -errno (said). */
int rp_li_open(const struct rp_li_options *o, struct rp_li **out);
/* Reads @node (the created device of record @id) from @loop and writes
 * its device record. 0 or -errno (said). */
int rp_li_attach(struct rp_li *li, struct tt_loop *loop, uint32_t id, const char *node);
/* Starts libinput on every attached device. 0 or -errno (said). */
int rp_li_start(struct rp_li *li, struct tt_loop *loop);
/* Serves @loop for @ms: libinput's timers (a tap is told after its
 * timeout) and the last frames. */
void rp_li_drain(struct rp_li *li, struct tt_loop *loop, int ms);
/* Writes what is pending and renames the file into place. 0 or -errno
 * (said). */
int rp_li_commit(struct rp_li *li);
/* Frames and libinput events written, for the summary. */
void rp_li_counts(const struct rp_li *li, size_t *frames, size_t *events);
const char *rp_li_output_name(const struct rp_li *li);
void rp_li_free(struct rp_li *li);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_li *, rp_li_free);

/* Whether systemd-udevd seems to run: libinput takes only devices udev
 * has tagged. */
bool rp_li_udev_running(void);
