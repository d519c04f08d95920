/* SPDX-License-Identifier: MIT */
/*
 * A fast path for frame lines in exactly the form the writer produces:
 *
 *   {"type":"frame","dev":D,"t":T[,"dropped":true][,"resync":true][,"incomplete":true],"ev":[[a,b,c(,d)],...]}
 *
 * and, as they are nearly every line of a HID recording, for hid lines:
 *
 *   {"type":"hid","dev":D,"t":T,"data":"0401a00c..."}
 *
 * Frames are nearly every line of a recording, and building a json-c tree
 * per line caps reading at about 1.5 million events per second. This
 * parser accepts only that canonical form, with no whitespace, and only
 * values the json-c path would accept; for anything else — other spacing,
 * names instead of numbers, unknown keys, any value out of range — it
 * declines and the json-c path decides, so both accept and reject exactly
 * the same lines with the same messages. tests/test-fastpath.c and the
 * fuzzer compare the two on the same input.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "hex.h"
#include "reader-private.h"
#include "timeline-fastpath.h"
#include "util-mem.h"

static int code_max[EV_CNT];
static bool code_max_ready;

static void
init_code_max(void)
{
	for (unsigned int t = 0; t < EV_CNT; t++)
		code_max[t] = tt_code_max(t);
	code_max_ready = true;
}

/* The line is NUL-terminated at its length (the reader's line buffer
 * promises it) and end points at that NUL or at the trailing whitespace
 * before it: bytes that no token starts with. So the scanners below look
 * at *p without comparing p against end — the byte at end stops them —
 * and no successful step moves p past end. */
struct cursor {
	const char *p;
	const char *end;
};

static bool
lit(struct cursor *c, const char *s, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return false;
	c->p += n;
	return true;
}
#define LIT(c, s) lit((c), (s), sizeof(s) - 1)

static inline bool
chr(struct cursor *c, char ch)
{
	if (*c->p != ch)
		return false;
	c->p++;
	return true;
}

/* The magnitude of a JSON integer, 0 or [1-9][0-9]*, at most 19 digits
 * (the sum may wrap past that: declined). Every caller requires a
 * separator (',', ']' or '}') right after the number, which also turns
 * away what this stops before: a digit after a leading 0, a fraction or
 * an exponent (json-c would read a double). */
static inline bool
digits(struct cursor *c, uint64_t *out)
{
	const char *p = c->p;
	unsigned int d = (unsigned int)(*p - '0');
	uint64_t v = d;

	if (d > 9)
		return false;
	p++;
	if (d != 0) {
		while ((d = (unsigned int)(*p - '0')) <= 9) {
			v = v * 10 + d;
			p++;
		}
	}
	if (p - c->p > 19)
		return false;
	*out = v;
	c->p = p;
	return true;
}

/* A non-negative JSON integer up to @max; a "-0" goes to json-c. */
static inline bool
natural(struct cursor *c, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (!digits(c, &v) || v > max)
		return false;
	*out = v;
	return true;
}

/* A JSON integer, -?(0|[1-9][0-9]*), within [min, max]. */
static inline bool
integer(struct cursor *c, int64_t min, int64_t max, int64_t *out)
{
	bool neg = *c->p == '-';
	uint64_t v;

	c->p += neg;
	if (!digits(c, &v) || v > (uint64_t)INT64_MAX)
		return false;
	int64_t s = neg ? -(int64_t)v : (int64_t)v;
	if (s < min || s > max)
		return false;
	*out = s;
	return true;
}

/* {"type":"frame","dev":D,"t":T and its flags, up to the events' "[". */
static bool
frame_head(struct cursor *c, uint64_t *dev, int64_t *t, uint32_t *flags)
{
#define FLAG_KEY(s, flag) { s, sizeof(s) - 1, flag }
	static const struct { const char *lit; size_t len; uint32_t flag; } flag_keys[] = {
		FLAG_KEY(",\"dropped\":true", TT_FRAME_DROPPED),
		FLAG_KEY(",\"resync\":true", TT_FRAME_RESYNC),
		FLAG_KEY(",\"incomplete\":true", TT_FRAME_INCOMPLETE),
	};
#undef FLAG_KEY

	if (!LIT(c, "{\"type\":\"frame\",\"dev\":") ||
	    !natural(c, UINT32_MAX, dev) ||
	    !LIT(c, ",\"t\":") ||
	    !integer(c, -TT_MAX_TIME_US, TT_MAX_TIME_US, t))
		return false;
	*flags = 0;
	/* In the writer's order, each at most once. */
	for (size_t i = 0; i < ARRAY_LENGTH(flag_keys); i++) {
		if (lit(c, flag_keys[i].lit, flag_keys[i].len))
			*flags |= flag_keys[i].flag;
	}
	return LIT(c, ",\"ev\":[");
}

/* One [type,code,value(,offset)] with every number in its range. */
static inline bool
frame_event(struct cursor *c, struct tt_event *out)
{
	uint64_t type, code;
	int64_t value, dt = 0;

	if (!chr(c, '[') ||
	    !natural(c, EV_MAX, &type) || !chr(c, ',') || code_max[type] < 0 ||
	    !natural(c, (uint64_t)code_max[type], &code) || !chr(c, ',') ||
	    !integer(c, INT32_MIN, INT32_MAX, &value))
		return false;
	if (chr(c, ',') && !integer(c, INT32_MIN, INT32_MAX, &dt))
		return false;
	if (!chr(c, ']'))
		return false;
	*out = (struct tt_event){ (uint16_t)type, (uint16_t)code, (int32_t)value, (int32_t)dt };
	return true;
}

/* The events after "ev":[ up to and with the closing ]; their count in *n. */
static bool
frame_events(struct tt_reader *r, struct cursor *c, uint32_t *n)
{
	uint32_t count = 0;

	if (chr(c, ']')) {
		*n = 0;
		return true;
	}
	do {
		if (count >= TT_MAX_FRAME_EVENTS)
			return false;
		if (count >= r->frame_cap)
			reader_frame_reserve(r, count + 1);
		if (!frame_event(c, &r->frame.events[count]))
			return false;
		count++;
	} while (chr(c, ','));
	if (!chr(c, ']'))
		return false;
	*n = count;
	return true;
}

int
timeline_fast_frame(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec)
{
	struct cursor c = { line, line + len };
	struct tt_frame *f = &r->frame;
	uint64_t dev;
	int64_t t;
	uint32_t flags;
	uint32_t n;

	/* Trailing spaces, tabs and \r are whitespace to json-c too. */
	while (c.end > c.p && (c.end[-1] == ' ' || c.end[-1] == '\t' || c.end[-1] == '\r'))
		c.end--;

	if (!frame_head(&c, &dev, &t, &flags))
		return 0;
	if (!reader_find_device(r, (uint32_t)dev))
		return 0;
	if (!code_max_ready)
		init_code_max();
	if (!frame_events(r, &c, &n))
		return 0;
	if (!chr(&c, '}') || c.p != c.end)
		return 0;

	f->device = (uint32_t)dev;
	f->time_us = t;
	f->flags = flags;
	f->nevents = n;
	rec->type = TT_RECORD_FRAME;
	rec->frame = f;
	return 1;
}

/* The hex digits of "data" up to its closing quote: nothing but digits
 * (an escape or any other character: decline), an even count, 1 to
 * TT_MAX_HID_REPORT bytes. */
static bool
hid_data(struct cursor *c, uint8_t **data, uint32_t *len)
{
	const char *start = c->p;
	size_t bad;

	while (c->p < c->end && *c->p != '"')
		c->p++;
	if (c->p >= c->end)
		return false;
	if (tt_hex_decode(start, (size_t)(c->p - start), TT_MAX_HID_REPORT, data, len, &bad) < 0)
		return false;
	c->p++;
	return true;
}

int
timeline_fast_hid(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec)
{
	struct cursor c = { line, line + len };
	uint64_t dev;
	int64_t t;
	uint8_t *data = NULL;
	uint32_t n;

	while (c.end > c.p && (c.end[-1] == ' ' || c.end[-1] == '\t' || c.end[-1] == '\r'))
		c.end--;
	if (!LIT(&c, "{\"type\":\"hid\",\"dev\":") ||
	    !natural(&c, UINT32_MAX, &dev) ||
	    !LIT(&c, ",\"t\":") ||
	    !integer(&c, -TT_MAX_TIME_US, TT_MAX_TIME_US, &t) ||
	    !LIT(&c, ",\"data\":\""))
		return 0;
	if (!reader_find_hid_device(r, (uint32_t)dev))
		return 0;
	if (!hid_data(&c, &data, &n))
		return 0;
	if (!LIT(&c, "}") || c.p != c.end) {
		free(data);
		return 0;
	}
	tt_hid_report_clear(&r->hid_report);
	r->hid_report = (struct tt_hid_report){ (uint32_t)dev, t, n, data };
	rec->type = TT_RECORD_HID_REPORT;
	rec->hid_report = &r->hid_report;
	return 1;
}
