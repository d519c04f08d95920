/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json-emit.h"
#include "util-mem.h"
#include "util-strings.h"

void
tt_json_emit_init_file(struct tt_json_emit *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

void
tt_json_emit_init_buffer(struct tt_json_emit *j)
{
	memset(j, 0, sizeof(*j));
}

void
tt_json_emit_release(struct tt_json_emit *j)
{
	if (!j)
		return;
	free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}

void
tt_json_emit_reset(struct tt_json_emit *j)
{
	j->len = 0;
	j->depth = 0;
	j->after_key = false;
	j->nonempty[0] = false;
}

void
tt_json_emit_reserve(struct tt_json_emit *j, size_t n)
{
	size_t cap;

	if (j->out || j->cap - j->len >= n)
		return;
	cap = j->cap ? j->cap : 4096;
	while (cap - j->len < n)
		cap *= 2;
	j->buf = tt_reallocarray(j->buf, cap, 1);
	j->cap = cap;
}

void
tt_json_emit_raw(struct tt_json_emit *j, const char *s, size_t n)
{
	if (j->out) {
		fwrite(s, 1, n, j->out);
		return;
	}
	tt_json_emit_reserve(j, n);
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static void
raw_str(struct tt_json_emit *j, const char *s)
{
	tt_json_emit_raw(j, s, strlen(s));
}

/* The escape for a byte that cannot stand as it is, or NULL. */
static const char *
escape_of(unsigned char c, char tmp[8])
{
	switch (c) {
	case '"': return "\\\"";
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\t': return "\\t";
	case '\r': return "\\r";
	default: break;
	}
	if (c < 0x20 || c == 0x7f) {
		snprintf(tmp, 8, "\\u%04x", c);
		return tmp;
	}
	return NULL;
}

void
tt_json_emit_escaped(struct tt_json_emit *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + strlen(str);
	char tmp[8];
	uint32_t cp;

	tt_json_emit_raw(j, "\"", 1);
	while (*s) {
		const char *esc = escape_of(*s, tmp);
		size_t n;

		if (esc) {
			raw_str(j, esc);
			s++;
			continue;
		}
		n = tt_utf8_seq_len(s, (size_t)(end - s), &cp);
		if (n == 0) {
			raw_str(j, "\\ufffd");
			s++;
			continue;
		}
		tt_json_emit_raw(j, (const char *)s, n);
		s += n;
	}
	tt_json_emit_raw(j, "\"", 1);
}

static bool *
level(struct tt_json_emit *j)
{
	unsigned int d = j->depth < TT_JSON_EMIT_MAX_DEPTH ? j->depth : TT_JSON_EMIT_MAX_DEPTH - 1;

	return &j->nonempty[d];
}

/* Before a value or a key: the comma, unless a key precedes it. Values
 * at the top level are separate documents (JSON Lines, or one value of a
 * line its caller lays out itself): no comma there. */
static void
separate(struct tt_json_emit *j)
{
	bool *nonempty = level(j);
	bool after_key = j->after_key;

	j->after_key = false;
	if (j->depth == 0 || after_key)
		return;
	if (*nonempty)
		tt_json_emit_raw(j, ",", 1);
	*nonempty = true;
}

static void
open_level(struct tt_json_emit *j, const char *bracket)
{
	separate(j);
	raw_str(j, bracket);
	j->depth++;
	*level(j) = false;
}

static void
close_level(struct tt_json_emit *j, const char *bracket)
{
	if (j->depth > 0)
		j->depth--;
	j->after_key = false;
	raw_str(j, bracket);
}

void
tt_json_emit_separator(struct tt_json_emit *j)
{
	separate(j);
}

void
tt_json_emit_newline(struct tt_json_emit *j, const char *indent)
{
	separate(j);
	tt_json_emit_raw(j, "\n", 1);
	raw_str(j, indent);
	/* The comma is written: the value or key that follows needs none. */
	j->after_key = true;
}

void tt_json_emit_object_begin(struct tt_json_emit *j) { open_level(j, "{"); }
void tt_json_emit_object_end(struct tt_json_emit *j) { close_level(j, "}"); }
void tt_json_emit_array_begin(struct tt_json_emit *j) { open_level(j, "["); }
void tt_json_emit_array_end(struct tt_json_emit *j) { close_level(j, "]"); }

void
tt_json_emit_key(struct tt_json_emit *j, const char *k)
{
	separate(j);
	tt_json_emit_escaped(j, k);
	tt_json_emit_raw(j, ":", 1);
	j->after_key = true;
}

void
tt_json_emit_string(struct tt_json_emit *j, const char *s)
{
	separate(j);
	if (s)
		tt_json_emit_escaped(j, s);
	else
		raw_str(j, "null");
}

/* Integers are the timeline writer's hot path: no printf. */
void
tt_json_emit_int(struct tt_json_emit *j, int64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	separate(j);
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	tt_json_emit_raw(j, p, (size_t)(tmp + sizeof(tmp) - p));
}

void
tt_json_emit_bool(struct tt_json_emit *j, bool v)
{
	separate(j);
	raw_str(j, v ? "true" : "false");
}

void
tt_json_emit_null(struct tt_json_emit *j)
{
	separate(j);
	raw_str(j, "null");
}

void
tt_json_emit_fixed(struct tt_json_emit *j, double v, int decimals)
{
	char tmp[352];	/* DBL_MAX with its 309 digits and the decimals */

	separate(j);
	if (!isfinite(v)) {
		raw_str(j, "null");
		return;
	}
	if (v == 0)
		v = 0;	/* no "-0" */
	if (decimals < 0)
		decimals = 0;
	if (decimals > 17)
		decimals = 17;
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, v);
	raw_str(j, tmp);
}

void
tt_json_emit_real(struct tt_json_emit *j, double v)
{
	char tmp[40];

	separate(j);
	if (!isfinite(v))
		v = 0;
	/* %.17g round-trips every double; trim to what is needed. JSON has
	 * no "inf" and needs a digit before an exponent: %g of a finite
	 * value gives neither problem. */
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	raw_str(j, tmp);
}

void
tt_json_emit_member_string(struct tt_json_emit *j, const char *k, const char *s)
{
	tt_json_emit_key(j, k);
	tt_json_emit_string(j, s);
}

void
tt_json_emit_member_int(struct tt_json_emit *j, const char *k, int64_t v)
{
	tt_json_emit_key(j, k);
	tt_json_emit_int(j, v);
}

void
tt_json_emit_member_bool(struct tt_json_emit *j, const char *k, bool v)
{
	tt_json_emit_key(j, k);
	tt_json_emit_bool(j, v);
}

void
tt_json_emit_member_fixed(struct tt_json_emit *j, const char *k, double v, int decimals)
{
	tt_json_emit_key(j, k);
	tt_json_emit_fixed(j, v, decimals);
}

void
tt_json_emit_member_int_or_null(struct tt_json_emit *j, const char *k, int64_t v)
{
	tt_json_emit_key(j, k);
	if (v >= 0)
		tt_json_emit_int(j, v);
	else
		tt_json_emit_null(j);
}
