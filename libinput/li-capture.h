/* SPDX-License-Identifier: MIT */
/*
 * The libinput layer, live: a libinput context (path backend) over given
 * evdev nodes, its fd one more source of the command's event loop, every
 * libinput event written into the timeline as an "li" record and each
 * device's view as an "li_device" record. Record (--libinput) and replay
 * (--libinput) both use it:
 *
 *	struct tt_li_capture_options o = { .loop = loop, .writer = w,
 *					   .config = cfg, .start_us = start };
 *	tt_li_capture_new(&o, &cap);
 *	tt_li_capture_add(cap, "/dev/input/event5", 0);	// its evdev record id
 *	tt_li_capture_check_config(cap);	// every setting applied somewhere
 *	... run the loop ...
 *	tt_li_capture_dispatch(cap);		// what is pending, at the end
 *
 * libinput opens the nodes itself, so the evdev capture beside it reads
 * its own fds and loses nothing. libinput only takes devices udev has
 * tagged (ID_INPUT and a kind, in udev's database): systemd-udevd must be
 * running; tt_li_capture_add() waits a bounded time for udev to finish
 * with a node that was just created (a replay's uinput device).
 *
 * libinput stamps its events with the kernel times of the frames that
 * caused them (it sets CLOCK_MONOTONIC on its fds too), so an li record
 * and its frame carry the same time.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event-loop.h"
#include "util-mem.h"
#include "writer.h"

/* A parsed --libinput-config: settings by name, each given once (a later
 * one replaces an earlier one). */
struct tt_li_config;

/* Parses "tap=on,natural-scroll=on,accel-speed=0.3". 0, or -EINVAL with
 * a message naming the bad setting or value in @error. */
int tt_li_config_parse(const char *spec, struct tt_li_config **out, char *error, size_t size);
void tt_li_config_free(struct tt_li_config *cfg);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_li_config *, tt_li_config_free);
/* The setting names, comma-separated, for usage messages. */
const char *tt_li_config_names(void);

struct tt_li_capture_options {
	struct tt_loop *loop;
	struct tt_writer *writer;
	const struct tt_li_config *config;	/* NULL: libinput's defaults */
	int64_t start_us;	/* CLOCK_MONOTONIC of the timeline's time 0 */
	bool mask_keys;		/* keyboard keys that type text written as 0 */
	/* Called before li records are written: record reads its evdev
	 * devices first, so a frame precedes what libinput made of it. */
	void (*before_write)(void *userdata);
	/* Called once, with the first write error (-errno). */
	void (*on_error)(void *userdata, int error);
	void *userdata;
};

struct tt_li_capture;

/* A context with no devices yet, its fd added to @opts->loop. 0 or -errno
 * (reported). */
int tt_li_capture_new(const struct tt_li_capture_options *opts, struct tt_li_capture **out);
/* Adds @node, whose evdev device record is @evdev_id, applies the
 * configuration settings it supports and writes its li_device record
 * (write it after the evdev device record). 0, or -errno after an error
 * message: -ENODEV when libinput does not take the device (not tagged
 * by udev, or not an input device libinput handles), -EINVAL when
 * libinput refuses a configured value for it. */
int tt_li_capture_add(struct tt_li_capture *cap, const char *node, uint32_t evdev_id);
/* After the adds: -ENOTSUP (reported) when a configured setting applied
 * to none of the devices (tap=on on a touchscreen alone), else 0. */
int tt_li_capture_check_config(const struct tt_li_capture *cap);
/* Processes and writes whatever libinput has pending now. */
void tt_li_capture_dispatch(struct tt_li_capture *cap);
/* li records written so far. */
size_t tt_li_capture_nevents(const struct tt_li_capture *cap);
void tt_li_capture_free(struct tt_li_capture *cap);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_li_capture *, tt_li_capture_free);
