/* SPDX-License-Identifier: MIT */
/*
 * The options every command that reads a recording takes, with one meaning
 * everywhere (touchtape(1), COMMON OPTIONS):
 *
 *   --desc FILE   the device description of an evemu events-only file
 *   -d, --device ID  only this device (the record id print shows); an id
 *                 the file does not have is an error (exit 2). "hidN"
 *                 names HID device N (its own id space); an evdev device
 *                 brings the HID device that produced it along
 *   --from TIME, --to TIME  a part of the recording, in the times print
 *                 shows (the timeline's microseconds since its start);
 *                 validate and analyze still read what comes before it
 *
 * A command puts TT_READ_LONG_OPTIONS in its option table and
 * TT_READ_SHORT_OPTIONS in its short option string, hands every option to
 * tt_read_option() first, and opens its file with tt_open_recording().
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>

#include "util-mem.h"

struct tt_reader;
struct tt_record;
struct tt_hid_device;

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

/* The HID devices a --device choice keeps: named ("hid0"), or found by
 * tt_read_options_keep() to have produced a chosen evdev device, so that
 * their reports, which name only the HID device, follow. */
struct tt_read_hid {
	uint32_t *kept;
	size_t nkept;
};

struct tt_read_options {
	const char *cmd;	/* for messages */
	unsigned int caps;
	const char *desc;
	uint32_t *devices;
	size_t ndevices;
	uint32_t *hid_devices;	/* --device hidN */
	size_t nhid_devices;
	struct tt_read_hid *hid;	/* with any --device; see above */
	bool have_from, have_to;
	int64_t from_us, to_us;
	bool from_reached;	/* tt_read_options_note() saw a record within */
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
 * records always do; a frame must be of a chosen device, a HID device
 * chosen or the producer of a chosen evdev device, a HID report of such a
 * HID device, and frames, XI events, markers and HID reports within the
 * times. Records must come in file order: a HID device's record decides
 * for its reports. */
bool tt_read_options_keep(const struct tt_read_options *ro, const struct tt_record *rec);
bool tt_read_options_has_device(const struct tt_read_options *ro, uint32_t id);
/* Whether a HID device passes --device (named, or producing a chosen
 * evdev device); true without --device. */
bool tt_read_options_has_hid_device(const struct tt_read_options *ro, const struct tt_hid_device *d);
/* The two halves of _keep(): --device alone, --from/--to alone. */
bool tt_read_options_keep_device(const struct tt_read_options *ro, const struct tt_record *rec);
bool tt_read_options_in_window(const struct tt_read_options *ro, const struct tt_record *rec);

/* For commands that read the whole file and report on the window
 * (validate, analyze): the detection needs what came before --from (a
 * touch begun earlier is no touch without a begin), the report only
 * what lies within. */
bool tt_read_options_has_window(const struct tt_read_options *ro);
/* Whether something lasting from @begin_us to @end_us (a touch) is
 * within the window for a moment at least. */
bool tt_read_options_overlaps(const struct tt_read_options *ro, int64_t begin_us, int64_t end_us);
/* Whether a diagnostic is reported. @feeding: the record being fed when
 * it came, NULL at the end. What the reader says, what is about the
 * whole file or about a record without a time (the header, a device)
 * always is; the others when their time is within the window. */
struct tt_diag;
bool tt_read_options_keep_diag(const struct tt_read_options *ro, const struct tt_diag *d,
			       const struct tt_record *feeding);
/* After reading @name, whose last timed record is at @last_us: a
 * --from past it is a usage error (said on stderr): TT_EXIT_USAGE, or 0. */
int tt_read_options_check_end(const struct tt_read_options *ro, const char *name, bool have_time, int64_t last_us);
/* The window: as the members "from_us" and "to_us" (null when not
 * given), and as text (" (from 1.000000 s to 2.000000 s)", nothing without). */
struct tt_json_emit;
void tt_read_options_window_json(const struct tt_read_options *ro, struct tt_json_emit *j);
void tt_read_options_window_text(const struct tt_read_options *ro, FILE *out);

/* For commands that write as they read (print, convert): notes a record
 * tt_read_options_keep() kept. True once the input is known good for the
 * options: every --device id is one of @r's devices and, with --from, a
 * timed record at or after it was read. Until then nothing should reach
 * standard output (cli/spool.h). */
bool tt_read_options_note(struct tt_read_options *ro, const struct tt_reader *r, const struct tt_record *rec);
/* At the end of a file read with tt_read_options_note(): a --from no
 * record reached is a usage error (said on stderr): TT_EXIT_USAGE, or 0. */
int tt_read_options_check_reached(const struct tt_read_options *ro, const char *name);

/* At the end of the file: -ENODEV (said on stderr) when a --device id is
 * not one of the file's devices. */
int tt_read_options_finish(const struct tt_read_options *ro, struct tt_reader *r);

/* --grade PROFILE of command @cmd (analyze, inspect, diff): the profile
 * loaded into *@profile, once. 0, or TT_EXIT_TROUBLE after the error was
 * said (a second --grade, an unknown or bad profile). */
struct tt_grade_profile;
int tt_read_grade_option(const char *cmd, const char *arg, struct tt_grade_profile **profile);

/* Option @opt ("--jump") of command @cmd: a positive finite number into
 * *@out. 0, or TT_EXIT_TROUBLE after the usage error was said (*@out
 * untouched). */
int tt_read_positive_option(const char *cmd, const char *opt, const char *arg, double *out);
/* --refresh HZ, the display's refresh rate for --grade, as above. */
int tt_read_refresh_option(const char *cmd, const char *arg, double *hz);
