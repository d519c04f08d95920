/* SPDX-License-Identifier: MIT */
/*
 * A fast path for frame lines in exactly the form the writer produces:
 *
 *   {"type":"frame","dev":D,"t":T[,"dropped":true][,"resync":true][,"incomplete":true],"ev":[[a,b,c(,d)],...]}
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
#include <string.h>

#include "evnames.h"
#include "reader-private.h"
#include "timeline-fastpath.h"

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

int
timeline_fast_frame(struct tt_reader *r, const char *line, size_t len, struct tt_record *rec)
{
	struct cursor c = { line, line + len };
	struct tt_frame *f = &r->frame;
	int64_t dev, t, v[4];
	uint32_t flags = 0, n = 0;

	/* Trailing spaces, tabs and \r are whitespace to json-c too. */
	while (c.end > c.p && (c.end[-1] == ' ' || c.end[-1] == '\t' || c.end[-1] == '\r'))
		c.end--;

	if (!LIT(&c, "{\"type\":\"frame\",\"dev\":") ||
	    !integer(&c, 0, UINT32_MAX, &dev) ||
	    !LIT(&c, ",\"t\":") ||
	    !integer(&c, -TT_MAX_TIME_US, TT_MAX_TIME_US, &t))
		return 0;
	if (LIT(&c, ",\"dropped\":true"))
		flags |= TT_FRAME_DROPPED;
	if (LIT(&c, ",\"resync\":true"))
		flags |= TT_FRAME_RESYNC;
	if (LIT(&c, ",\"incomplete\":true"))
		flags |= TT_FRAME_INCOMPLETE;
	if (!LIT(&c, ",\"ev\":["))
		return 0;
	if (!reader_find_device(r, (uint32_t)dev))
		return 0;
	if (!code_max_ready)
		init_code_max();

	if (!LIT(&c, "]")) {
		for (;;) {
			int k = 0;

			if (n >= TT_MAX_FRAME_EVENTS || !LIT(&c, "["))
				return 0;
			if (!integer(&c, 0, EV_MAX, &v[0]) || !LIT(&c, ",") ||
			    !integer(&c, 0, code_max[v[0]], &v[1]) || !LIT(&c, ",") ||
			    !integer(&c, INT32_MIN, INT32_MAX, &v[2]))
				return 0;
			if (code_max[v[0]] < 0)
				return 0;
			k = 3;
			if (LIT(&c, ",")) {
				if (!integer(&c, INT32_MIN, INT32_MAX, &v[3]))
					return 0;
				k = 4;
			}
			if (!LIT(&c, "]"))
				return 0;
			reader_frame_reserve(r, n + 1);
			f->events[n++] = (struct tt_event){ (uint16_t)v[0], (uint16_t)v[1],
							    (int32_t)v[2], k == 4 ? (int32_t)v[3] : 0 };
			if (LIT(&c, "]"))
				break;
			if (!LIT(&c, ","))
				return 0;
		}
	}
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
