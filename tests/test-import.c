/* SPDX-License-Identifier: MIT */
/* The evemu and libinput-record readers: every malformed line answers
 * FILE:LINE: message and reading carries on; format variants (versions,
 * CRLF, zero padding, split masks, comments) give the same records;
 * hostile input costs bounded memory and never crashes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"

#define EVEMU_DESC \
	"# EVEMU 1.3\n" \
	"N: test touchscreen\n" \
	"I: 0003 0001 0002 0003\n" \
	"P: 02 00 00 00 00 00 00 00\n" \
	"B: 00 0b 00 00 00 00 00 00 00\n" \
	"B: 01 00 00 00 00 00 00 00 00\n" \
	"B: 01 00 00 00 00 00 00 00 00\n" \
	"B: 01 00 00 00 00 00 00 00 00\n" \
	"B: 01 00 00 00 00 00 00 00 00\n" \
	"B: 01 00 00 00 00 00 00 00 00\n" \
	"B: 01 00 04 00 00 00 00 00 00\n" \
	"B: 03 03 00 00 00 00 80 60 02\n" \
	"A: 00 0 100 0 0 10\n" \
	"A: 01 0 100 0 0 10\n" \
	"A: 2f 0 1 0 0 0\n" \
	"A: 35 0 100 0 0 10\n" \
	"A: 36 0 100 0 0 10\n" \
	"A: 39 0 65535 0 0 0\n"
#define EVEMU_FRAME "E: 0.000100 0003 0039 0005\nE: 0.000100 0000 0000 0000\n"

static void
read_text(const char *text, struct tt_test_read *res)
{
	char copy[256];

	snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, strlen(text)));
	tt_test_read_path(copy, NULL, res);
	unlink(copy);
}

static void
test_evemu_valid(void)
{
	struct tt_test_read res;

	read_text(EVEMU_DESC EVEMU_FRAME "E: 0.010100 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID -1\n"
		  "E: 0.010100 0000 0000 0000\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.warnings, 0);
	check_int_eq(res.devices, 1);
	check_int_eq(res.frames, 2);
	check_int_eq(res.last_t, 10000);
	check_int_eq(res.mt, TT_MT_B);
	check_int_eq(res.slots, 2);
	check_str_eq(res.name, "test touchscreen");

	/* CRLF, no version line, A: without resolution, trailing blanks. */
	read_text("N: crlf\r\nI: 0003 0001 0002 0003\r\nB: 03 03 00 00 00 00 00 60 00\r\n"
		  "A: 00 0 100 0 0\r\nA: 35 0 9 0 0\r\nA: 36 0 9 0 0\r\n"
		  "E: 1.000000 0003 0035 0001   \r\nE: 1.000000 0000 0002 0000\r\nE: 1.000000 0000 0000 0000\r\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.frames, 1);
	check_int_eq(res.mt, TT_MT_A);
	check_str_eq(res.name, "crlf");

	/* Description only (evemu-describe). */
	read_text(EVEMU_DESC, &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.devices, 1);
	check_int_eq(res.frames, 0);

	/* A cut-off recording: the last frame comes out flagged. */
	read_text(EVEMU_DESC EVEMU_FRAME "E: 0.020000 0003 0035 0005\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.frames, 2);
	check_contains(res.first_warning, "no SYN_REPORT");

	/* Pasted terminal text before the content: a warning. */
	read_text("user@host:~$ sudo evemu-record\n" EVEMU_DESC EVEMU_FRAME, &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.frames, 1);
	check_contains(res.first_warning, ":1: warning: text before the evemu content");
}

static void
test_evemu_events_only(void)
{
	struct tt_test_read res;
	char desc[256], events[256];

	/* Inferred device, with a warning. */
	read_text("E: 5.000000 0003 0035 0100\nE: 5.000000 0003 0039 0007\nE: 5.000000 0000 0000 0000\n"
		  "E: 5.010000 0003 0035 0200\nE: 5.010000 0000 0000 0000\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.devices, 1);
	check_int_eq(res.frames, 2);
	check_int_eq(res.mt, TT_MT_A);
	check_contains(res.first_warning, "events-only recording without a description");

	/* With the description from --desc. */
	snprintf(desc, sizeof(desc), "%s", tt_test_tmpfile(EVEMU_DESC, strlen(EVEMU_DESC)));
	snprintf(events, sizeof(events), "%s", tt_test_tmpfile(EVEMU_FRAME, strlen(EVEMU_FRAME)));
	tt_test_read_path(events, desc, &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.warnings, 0);
	check_int_eq(res.frames, 1);
	check_str_eq(res.name, "test touchscreen");
	tt_test_read_path(events, "/nonexistent/x.desc", &res);
	check_contains(res.first_error, "/nonexistent/x.desc:0: cannot open the description");
	unlink(desc);
	unlink(events);
}

#define BAD(s, msg) { s, sizeof(s) - 1, msg }
static const struct {
	const char *line;
	size_t len;		/* the line may hold a NUL */
	const char *message;
} evemu_bad_lines[] = {
	BAD("E: 0.000200 0003", "E: type and code must be hex"),
	BAD("E: x.000200 0003 0035 1", "E: needs a time"),
	BAD("E: -1.000200 0003 0035 1", "E: negative time"),
	BAD("E: 0.1234567 0003 0035 1", "more than 6 digits"),
	BAD("E: 99999999999999999999.000000 0003 0035 1", "time out of range"),
	BAD("E: 0.000200 0020 0000 1", "not a valid type"),
	BAD("E: 0.000200 0003 0040 1", "code 0x0040 is out of range"),
	BAD("E: 0.000200 0003 0035 2147483648", "32-bit decimal"),
	BAD("E: 0.000200 0003 0035 12abc", "unexpected text after the value"),
	BAD("E: 0.000200 00003 0035 1", "at most 4 digits"),
	BAD("E: 0.000200 0003 0035 \xff\xfe", "32-bit decimal"),
	BAD("Z: nonsense", "not an evemu line"),
	BAD("N: second device", "description line after the events"),
	BAD("E: 0.000200 0003 0035 1\0hidden", "NUL byte"),
};

static void
test_evemu_bad_lines(void)
{
	for (size_t i = 0; i < ARRAY_LENGTH(evemu_bad_lines); i++) {
		char text[4096], copy[256], where[300];
		struct tt_test_read res;
		size_t len;

		/* The bad line follows one good frame; a good frame follows
		 * it to show the reader carries on. */
		len = (size_t)snprintf(text, sizeof(text), EVEMU_DESC EVEMU_FRAME);
		memcpy(text + len, evemu_bad_lines[i].line, evemu_bad_lines[i].len);
		len += evemu_bad_lines[i].len;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "\n" EVEMU_FRAME);
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, len));
		tt_test_read_path(copy, NULL, &res);
		/* After the 18 description lines and one frame. */
		snprintf(where, sizeof(where), "%s:21: ", copy);
		if (res.errors != 1 || !strstr(res.first_error, where) ||
		    !strstr(res.first_error, evemu_bad_lines[i].message)) {
			fprintf(stderr, "evemu bad line %zu: %s\n  got %d errors, first: %s\n  want: %s%s\n", i,
				evemu_bad_lines[i].line, res.errors, res.first_error, where,
				evemu_bad_lines[i].message);
			tt_test_failures++;
		}
		check_int_eq(res.frames, 2);
		unlink(copy);
	}
}

static const struct {
	const char *line;
	const char *message;
} evemu_bad_desc[] = {
	{ "I: 0003 0001", "I: needs four hex numbers" },
	{ "I: 00003 0001 0002 0003", "I: needs four hex numbers" },
	{ "P: 00 00", "P: needs 8 hex bytes" },
	{ "B: 03 00 00 00", "B: needs an event type and 8 hex bytes" },
	{ "B: 1f 00 00 00 00 00 00 00 00", "B: event type 0x1f is not a valid type" },
	{ "A: 00 0 100", "A: needs code, min, max" },
	{ "A: 00 0 100 0 0 0 0", "A: needs code, min, max" },
	{ "A: 40 0 100 0 0 0", "A: axis code 0x40 is out of range" },
	{ "A: 00 100 0 0 0 0", "min 100 is above max 0" },
	{ "A: 00 0 RESOLUTION_X 0 0 100", "A: needs code, min, max" },
	{ "A: 00 0 99999999999 0 0 0", "A: needs code, min, max" },
	{ "L: 7f 1", "L: LED 0x7f is out of range" },
	{ "S: 01", "S: needs a code in hex and a state" },
};

static void
test_evemu_bad_desc(void)
{
	for (size_t i = 0; i < ARRAY_LENGTH(evemu_bad_desc); i++) {
		char text[4096], copy[256], where[300];
		struct tt_test_read res;

		snprintf(text, sizeof(text), "N: dev\nI: 0003 0001 0002 0003\n%s\n"
			 "B: 03 00 00 00 00 00 00 20 00\nA: 35 0 9 0 0 0\n" EVEMU_FRAME,
			 evemu_bad_desc[i].line);
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, strlen(text)));
		tt_test_read_path(copy, NULL, &res);
		snprintf(where, sizeof(where), "%s:3: ", copy);
		if (res.errors != 1 || !strstr(res.first_error, where) ||
		    !strstr(res.first_error, evemu_bad_desc[i].message)) {
			fprintf(stderr, "evemu bad description line %zu: %s\n  got %d errors, first: %s\n  want: %s%s\n",
				i, evemu_bad_desc[i].line, res.errors, res.first_error, where,
				evemu_bad_desc[i].message);
			tt_test_failures++;
		}
		check_int_eq(res.devices, 1);
		check_int_eq(res.frames, 1);
		unlink(copy);
	}
}

/* Every prefix of a file reads without a crash, and hostile bits of
 * every byte value in every position are refused with a line number. */
static void
test_evemu_hostile(void)
{
	static const char text[] = EVEMU_DESC EVEMU_FRAME "E: 0.020000 0003 0035 0005\nE: 0.020000 0000 0000 0000\n";
	size_t len = sizeof(text) - 1;
	struct tt_test_read res;

	for (size_t cut = 1; cut <= len; cut++) {
		char copy[256];
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, cut));
		tt_test_read_path(copy, NULL, &res);
		unlink(copy);
	}
	/* Millions of B: lines: bounded, accepted. */
	{
		size_t n = 200000, off = 0;
		char *big = tt_zalloc(n * 30 + 64);
		off += (size_t)sprintf(big, "N: many\nI: 0003 0001 0002 0003\n");
		for (size_t i = 0; i < n; i++)
			off += (size_t)sprintf(big + off, "B: 01 00 00 00 00 00 00 00 00\n");
		char copy[256];
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(big, off));
		tt_test_read_path(copy, NULL, &res);
		check_int_eq(res.errors, 0);
		check_int_eq(res.devices, 1);
		unlink(copy);
		free(big);
	}
	/* An endless frame is cut at the limit. */
	{
		size_t n = 70000, off = 0;
		char *big = tt_zalloc(n * 32 + 1024);
		off += (size_t)sprintf(big, "%s", EVEMU_DESC);
		for (size_t i = 0; i < n; i++)
			off += (size_t)sprintf(big + off, "E: 0.000001 0003 0035 0001\n");
		off += (size_t)sprintf(big + off, "E: 0.000001 0000 0000 0000\n");
		char copy[256];
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(big, off));
		tt_test_read_path(copy, NULL, &res);
		check_int_eq(res.errors, 1);
		check_contains(res.first_error, "a frame of more than 65536 events");
		unlink(copy);
		free(big);
	}
	/* Control characters in names are sanitized. */
	read_text("N: evil\x1b[31mname\nI: 0003 0001 0002 0003\n", &res);
	check_int_eq(res.errors, 0);
	check_str_eq(res.name, "evil?[31mname");
}

#define LI_HEAD \
	"# libinput record\n" \
	"version: 1\n" \
	"ndevices: 2\n" \
	"libinput:\n  version: \"1.25.0\"\n  git: \"unknown\"\n" \
	"system:\n  kernel: \"6.1.0\"\n  dmi: \"dmi:x\"\n" \
	"devices:\n"
#define LI_DEV0 \
	"- node: /dev/input/event5\n" \
	"  evdev:\n" \
	"    # Name: touch\n" \
	"    name: \"touch\"\n" \
	"    id: [3, 1, 2, 3]\n" \
	"    codes:\n" \
	"      0: [0, 1, 2] # EV_SYN\n" \
	"      1: [330] # EV_KEY\n" \
	"      3: [0, 1, 47, 53, 54, 57] # EV_ABS\n" \
	"    absinfo:\n" \
	"      0: [0, 100, 0, 0, 10]\n" \
	"      1: [0, 100, 0, 0, 10]\n" \
	"      47: [0, 9, 0, 0, 0]\n" \
	"      53: [0, 100, 0, 0, 10]\n" \
	"      54: [0, 100, 0, 0, 10]\n" \
	"      57: [0, 65535, 0, 0, 0]\n" \
	"    properties: [1]\n" \
	"  hid: [5, 1, 9, 2]\n" \
	"  udev:\n    properties:\n    - ID_INPUT=1\n" \
	"  quirks:\n"
#define LI_DEV1 \
	"- node: /dev/input/event6\n" \
	"  evdev:\n" \
	"    name: \"keys\"\n" \
	"    id: [17, 1, 1, 43841]\n" \
	"    codes:\n" \
	"      1: [30] # EV_KEY\n" \
	"    properties: []\n" \
	"  events:\n" \
	"  - evdev:\n" \
	"    - [  0,  5000,   1,  30,       1] # EV_KEY / KEY_A 1\n" \
	"    - [  0,  5000,   0,   0,       0] # SYN\n"

static void
test_libinput(void)
{
	struct tt_test_read res;

	read_text(LI_HEAD LI_DEV0
		  "  events:\n"
		  "  # Current time is 12:00:00\n"
		  "  - evdev:\n"
		  "    - [  0,      0,   3,  57,       5] # EV_ABS / ABS_MT_TRACKING_ID 5\n"
		  "    - [  0,      0,   3,  53,      50]\n"
		  "    - [  0,      0,   0,   0,       0] # SYN_REPORT\n"
		  "  - libinput:\n"
		  "    - {time: 0.000000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [50.00, 0.00]}\n"
		  "  - evdev:\n"
		  "    - [  0,  12000,   3,  57,      -1]\n"
		  "    - [  0,  12000,   0,   0,       0]\n"
		  LI_DEV1, &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.devices, 2);
	check_int_eq(res.frames, 3);
	/* libinput:, system:, hid: (udev: and quirks: are the device's
	 * surroundings; the libinput event is an li record,
	 * libinput/tests/test-li-records.c) */
	check_int_eq(res.markers, 3);
	check_int_eq(res.last_t, 5000);
	check_str_eq(res.name, "keys");

	/* The published excerpt: tabs are not YAML. */
	read_text("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    codes:\n\t0: [0]\n", &res);
	check_contains(res.first_error, ":7: not valid YAML");
	check_contains(res.first_error, "tab");
	check_int_eq(res.frames, 0);
}

static const struct {
	const char *event;
	const char *message;
} li_bad_events[] = {
	{ "[0, 0, 3, 53]", "needs [sec, usec, type, code, value]" },
	{ "[0, 0, 3, 53, 1, 2]", "has more than 5 entries" },
	{ "[0, 0, 3, 99, 1]", "code 99 is out of range for type 3" },
	{ "[0, 0, 40, 0, 1]", "is not a valid type" },
	{ "[0, 1000000, 3, 53, 1]", "is out of range" },
	{ "[0, 0, 3, 53, 4294967296]", "is not a 32-bit number" },
	{ "[0, 0, 3, 53, x]", "\"x\" is not a number" },
	{ "[0, 0, 3, 53, [1]]", "must be a list of numbers" },
	{ "{a: b}", "must be a list of numbers" },
};

static void
test_libinput_bad_events(void)
{
	for (size_t i = 0; i < ARRAY_LENGTH(li_bad_events); i++) {
		char text[8192], copy[256], where[300];
		struct tt_test_read res;
		int line;

		snprintf(text, sizeof(text), LI_HEAD LI_DEV0 "  events:\n  - evdev:\n"
			 "    - [0, 0, 0, 0, 0]\n    - %s\n    - [0, 10, 3, 53, 1]\n    - [0, 10, 0, 0, 0]\n",
			 li_bad_events[i].event);
		/* The line of the bad event. */
		line = 1;
		for (const char *c = text; *c && c < strstr(text, li_bad_events[i].event); c++)
			line += *c == '\n';
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, strlen(text)));
		tt_test_read_path(copy, NULL, &res);
		snprintf(where, sizeof(where), "%s:%d: ", copy, line);
		if (res.errors != 1 || !strstr(res.first_error, where) ||
		    !strstr(res.first_error, li_bad_events[i].message)) {
			fprintf(stderr, "libinput bad event %zu: %s\n  got %d errors, first: %s\n  want: %s%s\n", i,
				li_bad_events[i].event, res.errors, res.first_error, where, li_bad_events[i].message);
			tt_test_failures++;
		}
		check_int_eq(res.frames, 2);
		unlink(copy);
	}
}

static void
test_libinput_hostile(void)
{
	static const char text[] = LI_HEAD LI_DEV0 "  events:\n  - evdev:\n    - [0, 0, 3, 53, 1]\n"
		"    - [0, 0, 0, 0, 0]\n" LI_DEV1;
	struct tt_test_read res;

	for (size_t cut = 1; cut < sizeof(text) - 1; cut++) {
		char copy[256];
		snprintf(copy, sizeof(copy), "%s", tt_test_tmpfile(text, cut));
		tt_test_read_path(copy, NULL, &res);
		unlink(copy);
	}
	read_text("version: 2\nndevices: 0\ndevices: []\n", &res);
	check_contains(res.first_error, ":1: libinput-record version 2 is not supported");
	read_text("version: 1\ndevices: [[1]]\n", &res);
	check_contains(res.first_error, ":2: each device must be a mapping");
	read_text("version: 1\ndevices:\n- evdev:\n    absinfo:\n      0: [5, 1, 0, 0, 0]\n", &res);
	check_contains(res.first_error, ":5: absinfo: axis 0: min 5 is above max 1");
	check_int_eq(res.devices, 1);
	read_text("version: 1\ndevices:\n- evdev: {name: \"a\\x1bb\"}\n  events:\n", &res);
	check_int_eq(res.errors, 0);
	check_str_eq(res.name, "a?b");
	read_text("version: 1\ndevices: *anchor\n", &res);
	check(res.errors >= 1);
}

int
main(void)
{
	RUN(test_evemu_valid);
	RUN(test_evemu_events_only);
	RUN(test_evemu_bad_lines);
	RUN(test_evemu_bad_desc);
	RUN(test_evemu_hostile);
	RUN(test_libinput);
	RUN(test_libinput_bad_events);
	RUN(test_libinput_hostile);
	return tt_test_result();
}
