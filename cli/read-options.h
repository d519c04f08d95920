/* SPDX-License-Identifier: MIT */
/*
 * The options every command that reads a recording takes, with one meaning
 * everywhere (touchtape(1), COMMON OPTIONS):
 *
 *   --desc FILE   the device description of an evemu events-only file
 *   -d, --device ID  only this device (the record id print shows); an id
 *                 the file does not have is an error (exit 2)
 *   --from TIME, --to TIME  a part of the recording, in the times print
 *                 shows (the timeline's microseconds since its start)
 *
 * A command puts TT_READ_LONG_OPTIONS in its option table and
 * TT_READ_SHORT_OPTIONS in its short option string, hands every option to
 * tt_read_option() first, and opens its file with tt_open_recording().
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>

#include "util-mem.h"

struct tt_reader;
struct tt_record;

enum {
	TT_OPT_DEVICE = 'd',
	TT_OPT_DESC = 0x1000,
	TT_OPT_FROM,
	TT_OPT_TO,
	TT_OPT_FIRST_PRIVATE,	/* a command's own long-only options start here */
};

#define TT_READ_SHORT_OPTIONS "d:"
#define TT_READ_LONG_OPTIONS \
	{ "desc", required_argument, NULL, TT_OPT_DESC }, \
	{ "device", required_argument, NULL, TT_OPT_DEVICE }, \
	{ "from", required_argument, NULL, TT_OPT_FROM }, \
	{ "to", required_argument, NULL, TT_OPT_TO }

/* Which of the options a command can honour; the others are refused
 * with a usage error that says so, never ignored. */
enum tt_read_caps {
	TT_READ_DEVICE = 1 << 0,
	TT_READ_DEVICES = 1 << 1,	/* --device may be repeated */
	TT_READ_TIME = 1 << 2,
	TT_READ_DESC_SOME = 1 << 3,	/* several files: --desc is for the evemu ones */
	TT_READ_ALL = TT_READ_DEVICE | TT_READ_TIME,
};

struct tt_read_options {
	const char *cmd;	/* for messages */
	unsigned int caps;
	const char *desc;
	uint32_t *devices;
	size_t ndevices;
	bool have_from, have_to;
	int64_t from_us, to_us;
};

void tt_read_options_init(struct tt_read_options *ro, const char *cmd, unsigned int caps);
void tt_read_options_clear(struct tt_read_options *ro);

/* 1: @opt was one of ours and is taken; 0: not ours; TT_EXIT_USAGE after
 * a usage error (said on stderr). */
int tt_read_option(struct tt_read_options *ro, int opt, const char *arg);
/* After the loop: checks the options together (--to after --from). 0 or
 * TT_EXIT_USAGE. */
int tt_read_options_check(const struct tt_read_options *ro);

/* Whether a record passes --device and --from/--to. Headers and device
 * records always do; a frame must be of a chosen device, and frames, XI
 * events and markers within the times. */
bool tt_read_options_keep(const struct tt_read_options *ro, const struct tt_record *rec);
bool tt_read_options_has_device(const struct tt_read_options *ro, uint32_t id);

/* At the end of the file: -ENODEV (said on stderr) when a --device id is
 * not one of the file's devices. */
int tt_read_options_finish(const struct tt_read_options *ro, struct tt_reader *r);
