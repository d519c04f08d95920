/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util-mem.h"
#include "util-strings.h"

size_t
tt_utf8_seq_len(const unsigned char *s, size_t avail, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2; v = c & 0x1f; min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3; v = c & 0x0f; min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4; v = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

static bool
is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0);
}

bool
tt_str_is_clean(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = tt_utf8_seq_len(p + i, len - i, &cp);
		if (n == 0 || is_control(cp))
			return false;
		i += n;
	}
	return true;
}

char *
tt_str_sanitize(const char *in, size_t len, size_t maxbytes)
{
	const unsigned char *p = (const unsigned char *)(in ? in : "");
	/* Worst case every byte becomes the 3-byte U+FFFD. */
	size_t cap = (len < maxbytes ? len : maxbytes) * 3 + 1;
	char *out = tt_zalloc(cap);
	size_t o = 0, i = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = tt_utf8_seq_len(p + i, len - i, &cp);
		const char *rep = NULL;
		size_t replen;

		if (n == 0) {
			rep = "\xef\xbf\xbd";
			replen = 3;
			n = 1;
		} else if (is_control(cp)) {
			rep = "?";
			replen = 1;
		} else {
			replen = n;
		}
		if (o + replen > maxbytes || o + replen >= cap)
			break;
		memcpy(out + o, rep ? rep : (const char *)p + i, replen);
		o += replen;
		i += n;
	}
	out[o] = '\0';
	return out;
}

int
tt_parse_int64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno)
		return -errno;
	if (*end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int
tt_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno)
		return -errno;
	if (*end != '\0' || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int
tt_parse_duration_us(const char *s, int64_t *out)
{
	static const struct {
		const char *suffix;
		double factor;
	} units[] = {
		{ "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "m", 60e6 }, { "h", 3600e6 },
	};
	char *end;
	double v;
	double factor = 1e6;	/* plain numbers are seconds */

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -EINVAL;
	if (*end) {
		size_t i;
		for (i = 0; i < ARRAY_LENGTH(units); i++) {
			if (strcmp(end, units[i].suffix) == 0)
				break;
		}
		if (i == ARRAY_LENGTH(units))
			return -EINVAL;
		factor = units[i].factor;
	}
	v *= factor;
	if (!isfinite(v) || v < 0 || v > 9.2e18)
		return -ERANGE;
	*out = (int64_t)v;
	return 0;
}

const char *
tt_format_time(char *buf, size_t size, int64_t us)
{
	const char *sign = us < 0 ? "-" : "";
	uint64_t a = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;

	snprintf(buf, size, "%s%" PRIu64 ".%06" PRIu64, sign, a / 1000000, a % 1000000);
	return buf;
}

/* A hex pair and a ':' end just before @s: @s continues a run of pairs. */
static bool
after_pair(const char *s, const char *start)
{
	if (s - start < 3 || s[-1] != ':')
		return false;
	if (!isxdigit((unsigned char)s[-2]) || !isxdigit((unsigned char)s[-3]))
		return false;
	return s - start == 3 || !isxdigit((unsigned char)s[-4]);
}

/* An address starts at @s: hex pairs separated by ':', six of them, not
 * part of a longer run of hex digits or pairs (libinput's device group
 * "5/46d/b01a:00:1a:7d:da:71:13" holds one). */
static bool
address_at(const char *s, const char *start)
{
	if (s > start && (isxdigit((unsigned char)s[-1]) || after_pair(s, start)))
		return false;
	for (int i = 0; i < 6; i++) {
		const char *p = s + i * 3;
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
			return false;
		if (i < 5 && p[2] != ':')
			return false;
	}
	return !isxdigit((unsigned char)s[17]) && s[17] != ':';
}

static size_t
addresses(char *s, bool mask)
{
	size_t n = 0;

	for (char *p = s; *p; p++) {
		if (!address_at(p, s))
			continue;
		n++;
		for (int i = 0; mask && i < 17; i++)
			if (p[i] != ':')
				p[i] = 'x';
		p += 16;
	}
	return n;
}

size_t
tt_str_count_addresses(const char *s)
{
	return s ? addresses((char *)s, false) : 0;
}

size_t
tt_str_mask_addresses(char *s)
{
	return s ? addresses(s, true) : 0;
}
