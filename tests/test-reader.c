/* SPDX-License-Identifier: MIT */
/* Reader: every documented error path answers FILE:LINE: message and the
 * reader carries on; a file cut at any byte reads up to its last whole
 * line; hostile sizes are refused with bounded memory. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1000,\"realtime_us\":2000}}\n"
#define DEVICE "{\"type\":\"device\",\"id\":0,\"name\":\"test\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3}," \
	"\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"],\"EV_ABS\":[]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1}," \
	"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100}}," \
	"\"mt\":{\"protocol\":\"B\",\"slots\":2}}\n"
#define FRAME "{\"type\":\"frame\",\"dev\":0,\"t\":10,\"ev\":[[3,57,1],[3,53,50],[0,0,0]]}\n"

static void
read_all(const char *text, struct tt_test_read *res)
{
	const char *path = tt_test_tmpfile(text, strlen(text));
	char copy[256];

	snprintf(copy, sizeof(copy), "%s", path);
	tt_test_read_path(copy, NULL, res);
	unlink(copy);
}

static void
test_valid_minimal(void)
{
	struct tt_test_read res;

	read_all(HEADER DEVICE FRAME, &res);
	check_int_eq(res.records, 3);
	check_int_eq(res.errors, 0);
	check_int_eq(res.warnings, 0);

	/* Names or numbers, unknown keys and record types, blank lines. */
	read_all(HEADER DEVICE
		 "\n"
		 "{\"type\":\"frame\",\"dev\":0,\"t\":11,\"ev\":[[\"EV_ABS\",\"ABS_MT_SLOT\",1],[\"3\",\"0x35\",7],[0,0,0]],\"future\":{\"x\":[1]}}\n"
		 "{\"type\":\"hologram\",\"t\":5}\n"
		 "   \r\n", &res);
	check_int_eq(res.records, 3);
	check_int_eq(res.errors, 0);
}

static const struct {
	const char *line;
	const char *message;
} bad_lines[] = {
	{ "not json", "invalid JSON" },
	{ "[1,2,3]", "must be a JSON object" },
	{ "{\"type\":\"frame\"", "invalid JSON" },
	{ "{} {}", "invalid JSON" },
	{ "{\"type\":7}", "\"type\" must be a string" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1}", "missing key \"ev\"" },
	{ "{\"type\":\"frame\",\"dev\":9,\"t\":1,\"ev\":[]}", "no device record declared" },
	{ "{\"type\":\"frame\",\"dev\":-1,\"t\":1,\"ev\":[]}", "\"dev\" must be between 0" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":\"soon\",\"ev\":[]}", "\"t\" must be an integer" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1.5,\"ev\":[]}", "\"t\" must be an integer" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":99999999999999999999,\"ev\":[]}", "\"t\" must be between" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":4611686018427387905,\"ev\":[]}", "\"t\" must be between" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[3,53]]}", "3 or 4 elements" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[32,0,0]]}", "event 0 type must be between 0 and 31" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[3,64,0]]}", "event 0 code must be between 0 and 63" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[3,\"KEY_A\",0]]}", "is not a code of EV_ABS" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[3,53,2147483648]]}", "event 0 value must be between" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[0,0,0],[3,53,null]]}", "event 1 value must be an integer" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[7]}", "event 0 must be an array" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[],\"dropped\":\"yes\"}", "\"dropped\" must be true or false" },
	{ "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[[3,53,NaN]]}", "event 0 value must be an integer" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":70000,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{}}", "\"bustype\" must be between 0 and 65535" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{\"EV_BOGUS\":[]}}", "unknown event type" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{\"EV_ABS\":[999]}}", "must be between 0 and 63" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{},\"absinfo\":{\"ABS_X\":{\"min\":5,\"max\":1}}}", "min 5 is above max 1" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{},\"mt\":{\"protocol\":\"B\",\"slots\":100000}}", "\"slots\" must be between 1 and 256" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{},\"mt\":{\"protocol\":\"B\",\"slots\":2}}", "no ABS_MT_SLOT" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{},\"mt\":{\"protocol\":\"C\"}}", "must be \"A\" or \"B\"" },
	{ "{\"type\":\"device\",\"id\":1,\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{}}", "missing key \"name\"" },
	{ "{\"type\":\"device\",\"id\":1,\"name\":\"x\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{},\"properties\":[\"INPUT_PROP_FOO\"]}", "unknown property" },
	{ "{\"type\":\"marker\",\"t\":1}", "missing key \"kind\"" },
	{ "{\"type\":\"xi\",\"xi\":\"TouchWiggle\",\"t\":1}", "unknown XI event" },
	{ "{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":1,\"flags\":[\"sticky\"]}", "unknown flag" },
	{ "{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":1,\"valuators\":{\"0\":1e999}}", "is out of range" },
	{ "{\"type\":\"xi\",\"xi\":\"RawTouchBegin\",\"t\":1,\"valuators\":{\"0\":1},\"raw\":{\"1\":2}}", "same valuators" },
	{ "{\"type\":\"xi_device\",\"deviceid\":2,\"name\":\"x\",\"use\":\"boss\"}", "unknown device use" },
	{ "{\"type\":\"marker\",\"t\":1,\"kind\":\"note\",\"text\":\"\xff\"}", "invalid JSON" },
	{ "{\"type\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", "invalid JSON" },
};

static void
test_bad_lines(void)
{
	for (size_t i = 0; i < ARRAY_LENGTH(bad_lines); i++) {
		char text[4096];
		struct tt_test_read res;

		/* The bad line is line 3; a good frame follows on line 4 to
		 * show the reader carries on. */
		snprintf(text, sizeof(text), HEADER DEVICE "%s\n" FRAME, bad_lines[i].line);
		const char *path = tt_test_tmpfile(text, strlen(text));
		char copy[256], where[300];
		snprintf(copy, sizeof(copy), "%s", path);
		tt_test_read_path(copy, NULL, &res);
		snprintf(where, sizeof(where), "%s:3: ", copy);
		if (res.errors != 1 || !strstr(res.first_error, where) ||
		    !strstr(res.first_error, bad_lines[i].message)) {
			fprintf(stderr, "bad line %zu: %s\n  got %d errors, first: %s\n  want: %s%s\n", i,
				bad_lines[i].line, res.errors, res.first_error, where, bad_lines[i].message);
			tt_test_failures++;
		}
		check_int_eq(res.records, 3);
		unlink(copy);
	}
}

static void
test_bad_header(void)
{
	struct tt_test_read res;

	read_all("{\"format\":\"something-else\",\"version\":1,\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n", &res);
	check_contains(res.first_error, ":1: \"format\" is \"something-else\"");
	read_all("{\"format\":\"touchtape-timeline\",\"version\":99,\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n", &res);
	check_contains(res.first_error, ":1: version 99 is newer");
	read_all("{\"format\":\"touchtape-timeline\",\"version\":1}\n", &res);
	check_contains(res.first_error, ":1: missing key \"start\"");
	read_all("", &res);
	check_contains(res.first_error, "the file is empty");
	/* hid-recorder files are read (formats/tests/hidrec-hostile.sh has
	 * the details): with a D: line, without one, or with kilobytes of
	 * the decoded descriptor before the first R: line. */
	read_all("D: 0\nR: 2 05 01\nN: x\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.records, 2);
	read_all("R: 2 05 01\nN: x\nI: 3 1 2\nE: 0.000001 3 01 02 03\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.records, 3);
	read_all("# Pen\n# 0x05, 0x0d,                    // Usage Page (Digitizers)             0\n"
		 "# 0x09, 0x02,                    // Usage (Pen)                         2\n"
		 "R: 4 05 0d 09 02\n", &res);
	check_int_eq(res.errors, 0);
	check_int_eq(res.records, 2);
	read_all("I: Bus=0011 Vendor=0002\nN: Name=\"x\"\n", &res);
	check_contains(res.first_error, "/proc/bus/input/devices");

	/* One error for a bad header, not one for each line after it. */
	read_all("{\"format\":\"touchtape-timeline\",\"version\":1}\n" DEVICE FRAME FRAME FRAME, &res);
	check_int_eq(res.errors, 1);
	check_int_eq(res.records, 0);
	check_contains(res.first_error, ":1: missing key \"start\" (in the header; the rest of the file is not read)");
	read_all("\n{\"format\":\"touchtape-timeline\"\n" DEVICE FRAME, &res);
	check_int_eq(res.errors, 1);
	check_contains(res.first_error, ":2: invalid JSON");
}

/* A byte order mark and CRLF line ends read as the plain file does,
 * with the same line numbers in messages. */
static void
test_bom_crlf(void)
{
	struct tt_test_read res;

	read_all("\xef\xbb\xbf" HEADER DEVICE FRAME, &res);
	check_int_eq(res.records, 3);
	check_int_eq(res.errors, 0);
	read_all("\xef\xbb\xbf{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\r\n"
		 "\r\n"
		 "{\"type\":\"marker\",\"t\":13,\"kind\":\"stop\"}\r\n"
		 "not json\r\n", &res);
	check_int_eq(res.records, 2);
	check_int_eq(res.errors, 1);
	check_contains(res.first_error, ":4: invalid JSON");
	/* Only at the very start: elsewhere it is a bad line. */
	read_all(HEADER "\xef\xbb\xbf" FRAME, &res);
	check_int_eq(res.errors, 1);
	check_contains(res.first_error, ":2: invalid JSON");
}

/* Every prefix of a valid file reads without errors: up to the last whole
 * line, with a warning naming the cut line. */
static void
test_cut_everywhere(void)
{
	static const char text[] = HEADER DEVICE FRAME
		"{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":12,\"deviceid\":2,\"detail\":1,\"flags\":[\"emulating_pointer\"],\"valuators\":{\"0\":1.5}}\n"
		"{\"type\":\"marker\",\"t\":13,\"kind\":\"stop\"}\n";
	size_t len = sizeof(text) - 1;
	size_t line_ends[16], nlines = 0;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			line_ends[nlines++] = i;
	}
	for (size_t cut = 1; cut <= len; cut++) {
		struct tt_test_read res;
		size_t whole = 0;
		char want[32];

		while (whole < nlines && line_ends[whole] < cut)
			whole++;
		tt_test_read_path(tt_test_tmpfile(text, cut), NULL, &res);
		/* A cut exactly before a newline leaves a complete object. */
		bool complete_tail = cut < len && text[cut] == '\n';
		int expect = (int)whole + (complete_tail ? 1 : 0);
		if (res.errors != 0 || res.records != expect) {
			fprintf(stderr, "cut at %zu: %d records (want %d), %d errors: %s\n",
				cut, res.records, expect, res.errors, res.first_error);
			tt_test_failures++;
		}
		bool partial = cut < len && !complete_tail && (whole == 0 || line_ends[whole - 1] != cut - 1);
		if (partial) {
			snprintf(want, sizeof(want), ":%zu: warning: ", whole + 1);
			if (res.warnings != 1 || !strstr(res.first_warning, want)) {
				fprintf(stderr, "cut at %zu: warning \"%s\", want \"%s\"\n", cut,
					res.first_warning, want);
				tt_test_failures++;
			}
		}
	}
}

static void
test_long_line(void)
{
	size_t n = TT_MAX_LINE_BYTES + 100;
	size_t hl = strlen(HEADER DEVICE);
	char *text = tt_zalloc(hl + n + strlen(FRAME) + 2);
	struct tt_test_read res;

	memcpy(text, HEADER DEVICE, hl);
	memset(text + hl, ' ', n);
	text[hl] = '{';
	text[hl + n] = '\n';
	memcpy(text + hl + n + 1, FRAME, strlen(FRAME));
	const char *path = tt_test_tmpfile(text, strlen(text));
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", path);
	tt_test_read_path(copy, NULL, &res);
	check_int_eq(res.errors, 1);
	check_contains(res.first_error, ":3: line longer than");
	check_int_eq(res.records, 3);
	unlink(copy);
	free(text);
}

static void
test_too_many_devices(void)
{
	size_t cap = 300 * 200 + 1024;
	char *text = tt_zalloc(cap);
	size_t len = 0;
	struct tt_test_read res;

	len += (size_t)snprintf(text + len, cap - len, HEADER);
	for (int i = 0; i < 300; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"{\"type\":\"device\",\"id\":%d,\"name\":\"d\",\"input_id\":{\"bustype\":3,\"vendor\":0,\"product\":0,\"version\":0},\"codes\":{}}\n", i);
	read_all(text, &res);
	check_int_eq(res.records, 1 + TT_MAX_DEVICES);
	check_int_eq(res.errors, 300 - TT_MAX_DEVICES);
	check_contains(res.first_error, "more than 256 devices");
	free(text);
}

static void
test_huge_frame(void)
{
	size_t nev = TT_MAX_FRAME_EVENTS + 1;
	size_t cap = nev * 12 + 4096;
	char *text = tt_zalloc(cap);
	size_t len = 0;
	struct tt_test_read res;

	len += (size_t)snprintf(text + len, cap - len, HEADER DEVICE "{\"type\":\"frame\",\"dev\":0,\"t\":1,\"ev\":[");
	for (size_t i = 0; i < nev; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s[0,0,0]", i ? "," : "");
	len += (size_t)snprintf(text + len, cap - len, "]}\n");
	read_all(text, &res);
	check_int_eq(res.errors, 1);
	check_contains(res.first_error, "over the limit");
	free(text);
}

static void
test_stdin_pipe(void)
{
	int fds[2];
	struct tt_reader *r = NULL;
	struct tt_record rec;
	static const char text[] = HEADER DEVICE FRAME;

	check(pipe(fds) == 0);
	check(write(fds[1], text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fds[1]);
	check_int_eq(tt_reader_open_fd(fds[0], "<pipe>", &r, NULL), 0);
	int n = 0;
	while (tt_reader_next(r, &rec) > 0)
		n++;
	check_int_eq(n, 3);
	check_int_eq(tt_reader_ndevices(r), 1);
	check(tt_reader_device(r, 0) != NULL);
	check_str_eq(tt_reader_device(r, 0)->name, "test");
	tt_reader_free(r);
}

int
main(void)
{
	RUN(test_valid_minimal);
	RUN(test_bad_lines);
	RUN(test_bad_header);
	RUN(test_bom_crlf);
	RUN(test_cut_everywhere);
	RUN(test_long_line);
	RUN(test_too_many_devices);
	RUN(test_huge_frame);
	RUN(test_stdin_pipe);
	return tt_test_result();
}
