/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <linux/input.h>

#include "evnames.h"
#include "test-common.h"
#include "util-mem.h"
#include "util-strings.h"

static void
test_sanitize_plain(void)
{
	char *s = tt_str_sanitize("3M Touchscreen", 14, 100);
	check_str_eq(s, "3M Touchscreen");
	check(tt_str_is_clean("3M Touchscreen", 14));
	free(s);
}

static void
test_sanitize_controls(void)
{
	const char in[] = "a\x1b[31mb\nc\td\x7f" "e\xc2\x9b" "f";
	char *s = tt_str_sanitize(in, sizeof(in) - 1, 100);
	/* ESC, newline, tab, DEL and the C1 CSI (U+009B) all become '?'. */
	check_str_eq(s, "a?[31mb?c?d?e?f");
	check(!tt_str_is_clean(in, sizeof(in) - 1));
	free(s);
}

static void
test_sanitize_utf8(void)
{
	const char good[] = "Wacom \xc3\xa9\xe2\x82\xac\xf0\x9f\x96\x90";
	char *s = tt_str_sanitize(good, sizeof(good) - 1, 100);
	check_str_eq(s, good);
	free(s);

	/* Lone continuation, overlong NUL, surrogate, truncated sequence. */
	const char bad[] = "a\x80" "b\xc0\x80" "c\xed\xa0\x80" "d\xe2\x82";
	s = tt_str_sanitize(bad, sizeof(bad) - 1, 100);
	check_str_eq(s, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		      "d\xef\xbf\xbd\xef\xbf\xbd");
	check(!tt_str_is_clean(bad, sizeof(bad) - 1));
	free(s);
}

static void
test_sanitize_limit(void)
{
	/* Cut on a character boundary, never inside a sequence. */
	const char in[] = "ab\xc3\xa9\xc3\xa9";
	char *s = tt_str_sanitize(in, sizeof(in) - 1, 5);
	check_str_eq(s, "ab\xc3\xa9");
	free(s);

	size_t n = 1024 * 1024;
	char *big = tt_zalloc(n);
	memset(big, 'x', n);
	s = tt_str_sanitize(big, n, 4096);
	check_int_eq(strlen(s), 4096);
	free(s);
	free(big);
}

static void
test_parse_numbers(void)
{
	int64_t v = 7;
	double d = 1;

	check_int_eq(tt_parse_int64("123", &v), 0);
	check_int_eq(v, 123);
	check(tt_parse_int64("12x", &v) < 0);
	check(tt_parse_int64("", &v) < 0);
	check(tt_parse_int64("99999999999999999999", &v) < 0);
	check_int_eq(v, 123);	/* untouched on failure */
	check_int_eq(tt_parse_double("2.5", &d), 0);
	check(d == 2.5);
	check(tt_parse_double("nan", &d) < 0);
	check(tt_parse_double("inf", &d) < 0);
}

static void
test_parse_duration(void)
{
	int64_t us = -1;

	check_int_eq(tt_parse_duration_us("1.5", &us), 0);
	check_int_eq(us, 1500000);
	check_int_eq(tt_parse_duration_us("250ms", &us), 0);
	check_int_eq(us, 250000);
	check_int_eq(tt_parse_duration_us("40us", &us), 0);
	check_int_eq(us, 40);
	check_int_eq(tt_parse_duration_us("2m", &us), 0);
	check_int_eq(us, 120000000);
	check(tt_parse_duration_us("-1", &us) < 0);
	check(tt_parse_duration_us("3parsecs", &us) < 0);
	check(tt_parse_duration_us("1e300", &us) < 0);
	check_int_eq(us, 120000000);
}

static void
test_format_time(void)
{
	char buf[32];

	check_str_eq(tt_format_time(buf, sizeof(buf), 0), "0.000000");
	check_str_eq(tt_format_time(buf, sizeof(buf), 12345678), "12.345678");
	check_str_eq(tt_format_time(buf, sizeof(buf), -1500000), "-1.500000");
	check_str_eq(tt_format_time(buf, sizeof(buf), INT64_MIN), "-9223372036854.775808");
}

static void
test_evnames(void)
{
	unsigned int v = 999;
	char buf[16];

	check_int_eq(tt_type_from_string("EV_ABS", &v), 0);
	check_int_eq(v, EV_ABS);
	check_int_eq(tt_code_from_string(EV_ABS, "ABS_MT_SLOT", &v), 0);
	check_int_eq(v, ABS_MT_SLOT);
	check_int_eq(tt_code_from_string(EV_ABS, "0x35", &v), 0);
	check_int_eq(v, ABS_MT_POSITION_X);
	check(tt_code_from_string(EV_ABS, "64", &v) < 0);	/* beyond ABS_MAX */
	check(tt_code_from_string(EV_ABS, "KEY_A", &v) < 0);	/* wrong type */
	check(tt_type_from_string("-1", &v) < 0);
	check(tt_type_from_string("32", &v) < 0);
	check_str_eq(tt_code_label(buf, sizeof(buf), EV_ABS, ABS_MT_SLOT), "ABS_MT_SLOT");
	check_int_eq(tt_prop_from_string("INPUT_PROP_DIRECT", &v), 0);
	check_int_eq(v, INPUT_PROP_DIRECT);
}

static void
test_addresses(void)
{
	char bt[] = "00:1A:7d:da:71:13";
	char usb[] = "usb-0000:00:14.0-1/input0";
	char two[] = "hci0 aa:bb:cc:dd:ee:ff/11:22:33:44:55:66";
	char longer[] = "00:11:22:33:44:55:66";

	check_int_eq(tt_str_count_addresses(bt), 1);
	check_int_eq(tt_str_mask_addresses(bt), 1);
	check_str_eq(bt, "xx:xx:xx:xx:xx:xx");
	check_int_eq(tt_str_count_addresses(bt), 0);
	check_int_eq(tt_str_mask_addresses(usb), 0);
	check_str_eq(usb, "usb-0000:00:14.0-1/input0");
	check_int_eq(tt_str_mask_addresses(two), 2);
	check_str_eq(two, "hci0 xx:xx:xx:xx:xx:xx/xx:xx:xx:xx:xx:xx");
	/* Seven pairs are not an address (an EUI-64 has eight). */
	check_int_eq(tt_str_count_addresses(longer), 0);
	check_int_eq(tt_str_count_addresses("00:11:22:33:44"), 0);
	check_int_eq(tt_str_count_addresses("x:00:11:22:33:44:55:66"), 0);
	check_int_eq(tt_str_count_addresses("5/46d/b01a:00:1a:7d:da:71:13"), 1);
	check_int_eq(tt_str_count_addresses(NULL), 0);
}

int
main(void)
{
	RUN(test_sanitize_plain);
	RUN(test_sanitize_controls);
	RUN(test_sanitize_utf8);
	RUN(test_sanitize_limit);
	RUN(test_parse_numbers);
	RUN(test_parse_duration);
	RUN(test_format_time);
	RUN(test_evnames);
	RUN(test_addresses);
	return tt_test_result();
}
