/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "model-json.h"

/* Length of the valid UTF-8 sequence at @s, 0 if invalid. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) { n = 2; cp = s[0] & 0x1f; }
	else if ((s[0] & 0xf0) == 0xe0) { n = 3; cp = s[0] & 0x0f; }
	else if ((s[0] & 0xf8) == 0xf0) { n = 4; cp = s[0] & 0x07; }
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void
tt_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*s) {
		size_t n;
		switch (*s) {
		case '"': fputs("\\\"", out); s++; continue;
		case '\\': fputs("\\\\", out); s++; continue;
		case '\n': fputs("\\n", out); s++; continue;
		case '\t': fputs("\\t", out); s++; continue;
		case '\r': fputs("\\r", out); s++; continue;
		default: break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

void
tt_json_double(FILE *out, double v, int decimals)
{
	if (!isfinite(v)) {
		fputs("null", out);
		return;
	}
	if (v == 0)
		v = 0;	/* no "-0" */
	fprintf(out, "%.*f", decimals, v);
}
