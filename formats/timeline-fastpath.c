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

/* A JSON integer: -?(0|[1-9][0-9]*), within [min, max]. */
static bool
integer(struct cursor *c, int64_t min, int64_t max, int64_t *out)
{
	const char *p = c->p;
	bool neg = false;
	uint64_t v = 0;
	int digits = 0;

	if (p < c->end && *p == '-') {
		neg = true;
		p++;
	}
	if (p >= c->end || *p < '0' || *p > '9')
		return false;
	if (*p == '0') {
		p++;
		if (p < c->end && *p >= '0' && *p <= '9')
			return false;	/* leading zero: not JSON */
	} else {
		while (p < c->end && *p >= '0' && *p <= '9') {
			if (++digits > 19)
				return false;
			v = v * 10 + (uint64_t)(*p - '0');
			p++;
		}
	}
	/* A fraction or exponent makes it a json-c double: decline. */
	if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E'))
		return false;
	if (v > (uint64_t)INT64_MAX)
		return false;
	int64_t s = neg ? -(int64_t)v : (int64_t)v;
	if (s < min || s > max)
		return false;
	*out = s;
	c->p = p;
	return true;
}

/* {"type":"frame","dev":D,"t":T and its flags, up to the events' "[". */
static bool
frame_head(struct cursor *c, int64_t *dev, int64_t *t, uint32_t *flags)
{
#define FLAG_KEY(s, flag) { s, sizeof(s) - 1, flag }
	static const struct { const char *lit; size_t len; uint32_t flag; } flag_keys[] = {
		FLAG_KEY(",\"dropped\":true", TT_FRAME_DROPPED),
		FLAG_KEY(",\"resync\":true", TT_FRAME_RESYNC),
		FLAG_KEY(",\"incomplete\":true", TT_FRAME_INCOMPLETE),
	};
#undef FLAG_KEY

	if (!LIT(c, "{\"type\":\"frame\",\"dev\":") ||
	    !integer(c, 0, UINT32_MAX, dev) ||
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
static bool
frame_event(struct cursor *c, struct tt_event *out)
{
	int64_t v[4] = { 0 };

	if (!LIT(c, "[") ||
	    !integer(c, 0, EV_MAX, &v[0]) || !LIT(c, ",") ||
	    !integer(c, 0, code_max[v[0]], &v[1]) || !LIT(c, ",") ||
	    !integer(c, INT32_MIN, INT32_MAX, &v[2]))
		return false;
	if (code_max[v[0]] < 0)
		return false;
	if (LIT(c, ",") && !integer(c, INT32_MIN, INT32_MAX, &v[3]))
		return false;
	if (!LIT(c, "]"))
		return false;
	*out = (struct tt_event){ (uint16_t)v[0], (uint16_t)v[1], (int32_t)v[2], (int32_t)v[3] };
	return true;
}

/* The events after "ev":[ up to and with the closing ]; their count in *n. */
static bool
frame_events(struct tt_reader *r, struct cursor *c, uint32_t *n)
{
	struct tt_event ev;
	uint32_t count = 0;

	if (LIT(c, "]")) {
		*n = 0;
		return true;
	}
	do {
		if (count >= TT_MAX_FRAME_EVENTS || !frame_event(c, &ev))
			return false;
		reader_frame_reserve(r, count + 1);
		r->frame.events[count++] = ev;
	} while (LIT(c, ","));
	if (!LIT(c, "]"))
		return false;
	*n = count;
	return true;
}

int
timeline_fast_frame(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec)
{
	struct cursor c = { line, line + len };
	struct tt_frame *f = &r->frame;
	int64_t dev, t;
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
	if (!LIT(&c, "}") || c.p != c.end)
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
	int64_t dev, t;
	uint8_t *data = NULL;
	uint32_t n;

	while (c.end > c.p && (c.end[-1] == ' ' || c.end[-1] == '\t' || c.end[-1] == '\r'))
		c.end--;
	if (!LIT(&c, "{\"type\":\"hid\",\"dev\":") ||
	    !integer(&c, 0, UINT32_MAX, &dev) ||
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
