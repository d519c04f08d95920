/* SPDX-License-Identifier: MIT */
/* The JSON emitter: escaping, nesting and commas, numbers, both sinks. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-emit.h"
#include "test-common.h"
#include "util-mem.h"

/* The buffer's text so far, NUL-terminated. */
static const char *
text(struct tt_json_emit *j)
{
	tt_json_emit_reserve(j, 1);
	j->buf[j->len] = '\0';
	return j->buf;
}

static void
check_escaped(const char *in, const char *want)
{
	struct tt_json_emit j;

	tt_json_emit_init_buffer(&j);
	tt_json_emit_string(&j, in);
	check_str_eq(text(&j), want);
	tt_json_emit_release(&j);
}

static void
test_escape_controls(void)
{
	check_escaped("plain", "\"plain\"");
	check_escaped("q\"b\\s/", "\"q\\\"b\\\\s/\"");
	check_escaped("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
	check_escaped("\x01\x1b[31m\x1f\x7f", "\"\\u0001\\u001b[31m\\u001f\\u007f\"");
	check_escaped("", "\"\"");
}

static void
test_escape_utf8(void)
{
	/* Valid sequences of 2, 3 and 4 bytes pass unchanged. */
	check_escaped("\xc3\xa9\xe2\x82\xac\xf0\x9f\x96\x90", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x96\x90\"");
	/* A stray continuation byte, a cut sequence, an overlong '/', a
	 * surrogate and a code point past U+10FFFF: one U+FFFD per bad byte. */
	check_escaped("a\x80z", "\"a\\ufffdz\"");
	check_escaped("\xe2\x82", "\"\\ufffd\\ufffd\"");
	check_escaped("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	check_escaped("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	check_escaped("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

static void
test_nesting(void)
{
	struct tt_json_emit j;

	tt_json_emit_init_buffer(&j);
	tt_json_emit_object_begin(&j);
	tt_json_emit_key(&j, "a");
	tt_json_emit_int(&j, 1);
	tt_json_emit_key(&j, "list");
	tt_json_emit_array_begin(&j);
	tt_json_emit_int(&j, -2);
	tt_json_emit_object_begin(&j);
	tt_json_emit_object_end(&j);
	tt_json_emit_array_begin(&j);
	tt_json_emit_array_end(&j);
	tt_json_emit_null(&j);
	tt_json_emit_bool(&j, true);
	tt_json_emit_array_end(&j);
	tt_json_emit_key(&j, "k\"ey");
	tt_json_emit_string(&j, NULL);
	tt_json_emit_key(&j, "o");
	tt_json_emit_object_begin(&j);
	tt_json_emit_key(&j, "x");
	tt_json_emit_bool(&j, false);
	tt_json_emit_key(&j, "y");
	tt_json_emit_string(&j, "z");
	tt_json_emit_object_end(&j);
	tt_json_emit_object_end(&j);
	check_str_eq(text(&j),
		     "{\"a\":1,\"list\":[-2,{},[],null,true],\"k\\\"ey\":null,\"o\":{\"x\":false,\"y\":\"z\"}}");

	/* Top-level values are separate documents: no comma between them. */
	tt_json_emit_reset(&j);
	check_int_eq(j.len, 0);
	tt_json_emit_object_begin(&j);
	tt_json_emit_object_end(&j);
	tt_json_emit_int(&j, 7);
	check_str_eq(text(&j), "{}7");
	tt_json_emit_release(&j);
	tt_json_emit_release(NULL);
}

static void
test_integers(void)
{
	struct tt_json_emit j;

	tt_json_emit_init_buffer(&j);
	tt_json_emit_array_begin(&j);
	tt_json_emit_int(&j, 0);
	tt_json_emit_int(&j, INT64_MAX);
	tt_json_emit_int(&j, INT64_MIN);
	tt_json_emit_array_end(&j);
	check_str_eq(text(&j), "[0,9223372036854775807,-9223372036854775808]");
	tt_json_emit_release(&j);
}

static void
test_doubles(void)
{
	struct tt_json_emit j;

	tt_json_emit_init_buffer(&j);
	tt_json_emit_array_begin(&j);
	tt_json_emit_fixed(&j, 0.2345, 3);
	tt_json_emit_fixed(&j, -1.0005, 0);
	tt_json_emit_fixed(&j, -0.0, 2);	/* an exact zero loses its sign */
	tt_json_emit_fixed(&j, NAN, 3);
	tt_json_emit_fixed(&j, INFINITY, 3);
	tt_json_emit_real(&j, 0.1);
	tt_json_emit_real(&j, 1.0 / 3.0);
	tt_json_emit_real(&j, 1e300);
	tt_json_emit_real(&j, -INFINITY);
	tt_json_emit_array_end(&j);
	check_str_eq(text(&j), "[0.234,-1,0.00,null,null,0.1,0.3333333333333333,1e+300,0]");
	/* Every shortest text reads back exactly. */
	check(strtod("0.3333333333333333", NULL) == 1.0 / 3.0);
	tt_json_emit_release(&j);
}

/* The FILE* sink writes what the buffer does, also one value at a time. */
static void
test_file_sink(void)
{
	_cleanup_free_ char *got = NULL;
	char *mem = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&mem, &size);
	struct tt_json_emit j;

	check(f != NULL);
	tt_json_emit_init_file(&j, f);
	tt_json_emit_object_begin(&j);
	tt_json_emit_key(&j, "s");
	tt_json_emit_string(&j, "\x02\xff");
	tt_json_emit_object_end(&j);
	/* Values written one by one, each by an emitter of its own. */
	struct tt_json_emit v;
	tt_json_emit_init_file(&v, f);
	tt_json_emit_string(&v, NULL);
	tt_json_emit_init_file(&v, f);
	tt_json_emit_fixed(&v, 2.5, 1);
	tt_json_emit_init_file(&v, f);
	tt_json_emit_fixed(&v, -0.0, 1);
	fclose(f);
	got = mem;
	check_str_eq(got, "{\"s\":\"\\u0002\\ufffd\"}null2.50.0");
	check(j.buf == NULL);
	tt_json_emit_release(&j);
}

/* Members, and a report laid out on lines: the comma before the line
 * break, a list built elsewhere copied in as it is. */
static void
test_layout(void)
{
	struct tt_json_emit j;

	tt_json_emit_init_buffer(&j);
	tt_json_emit_object_begin(&j);
	tt_json_emit_member_string(&j, "s", NULL);
	tt_json_emit_member_int(&j, "i", -3);
	tt_json_emit_member_bool(&j, "b", true);
	tt_json_emit_member_fixed(&j, "f", 1.23456, 2);
	tt_json_emit_key(&j, "list");
	tt_json_emit_array_begin(&j);
	tt_json_emit_newline(&j, "  ");
	tt_json_emit_int(&j, 1);
	tt_json_emit_newline(&j, "  ");
	tt_json_emit_object_begin(&j);
	tt_json_emit_object_end(&j);
	tt_json_emit_array_end(&j);
	tt_json_emit_newline(&j, "");
	tt_json_emit_key(&j, "copied");
	tt_json_emit_separator(&j);
	tt_json_emit_raw(&j, "[2]", 3);
	tt_json_emit_newline(&j, "");
	tt_json_emit_member_int(&j, "last", 0);
	tt_json_emit_object_end(&j);
	check_str_eq(text(&j), "{\"s\":null,\"i\":-3,\"b\":true,\"f\":1.23,\"list\":[\n  1,\n  {}],\n"
		     "\"copied\":[2],\n\"last\":0}");
	tt_json_emit_release(&j);
}

int
main(void)
{
	RUN(test_escape_controls);
	RUN(test_escape_utf8);
	RUN(test_nesting);
	RUN(test_integers);
	RUN(test_doubles);
	RUN(test_file_sink);
	RUN(test_layout);
	return tt_test_result();
}
