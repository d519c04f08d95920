/* SPDX-License-Identifier: MIT */
/*
 * The evemu reader: every version of the text format evemu-record and
 * evemu-describe have written (no version line, 1.1, 1.2 with resolution
 * in A: lines, 1.3 with L:/S: lines and Kernel/DMI comments), description
 * and events in one file or split (--desc), and events-only files whose
 * device is inferred from the events.
 *
 * Line syntax (what evemu's own sscanf()s accept, made strict):
 *	N: name
 *	I: bustype vendor product version        (hex)
 *	P: 8 hex bytes                           (property bits, 64 per line)
 *	B: type 8 hex bytes                      (code bits, 64 per line per type)
 *	A: code min max fuzz flat [resolution]   (code hex, numbers decimal)
 *	L: led state / S: switch state           (hex, decimal)
 *	E: sec.usec type code value              (usec: up to 6 digits, an
 *	                                          integer like evemu reads it)
 * Comments start with '#', also after an E: line. The frames come out
 * exactly as a timeline file's would: header, device, one frame per
 * SYN_REPORT, times in µs relative to the first event.
 *
 * This file turns lines into records; the description lines are
 * assembled in evemu-desc.c, lines are read (and an events-only file's
 * device inferred) in evemu-lines.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evnames.h"
#include "evemu-private.h"
#include "reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- line classification ---- */

static bool
is_desc_kind(char c)
{
	return c == 'N' || c == 'I' || c == 'P' || c == 'B' || c == 'A' || c == 'L' || c == 'S';
}

/* "X:" followed by a blank or the end: an evemu line of kind X. */
char
evemu_line_kind(const char *s)
{
	if ((is_desc_kind(s[0]) || s[0] == 'E') && s[1] == ':' &&
	    (s[2] == ' ' || s[2] == '\t' || s[2] == '\0'))
		return s[0];
	return 0;
}

/* ---- events ---- */

int
evemu_parse_event_line(struct tt_reader *r, const char *s, size_t line,
		 int64_t *time, struct tt_event *ev)
{
	uint64_t sec = 0;
	uint32_t usec = 0, type, code;
	int32_t value;
	unsigned int n = 0;

	s = evemu_skip_ws(s);
	if (*s == '-')
		return reader_fail(r, line, "E: negative time");
	while (*s >= '0' && *s <= '9') {
		sec = sec * 10 + (uint64_t)(*s - '0');
		if (sec > (uint64_t)(TT_MAX_TIME_US / 1000000))
			return reader_fail(r, line, "E: time out of range");
		s++;
		n++;
	}
	if (n == 0 || *s != '.')
		return reader_fail(r, line, "E: needs a time sec.usec, type, code and value");
	s++;
	n = 0;
	while (*s >= '0' && *s <= '9') {
		usec = usec * 10 + (uint32_t)(*s - '0');
		s++;
		if (++n > 6)
			return reader_fail(r, line, "E: microseconds have more than 6 digits");
	}
	if (n == 0)
		return reader_fail(r, line, "E: needs a time sec.usec, type, code and value");
	if (!(s = evemu_parse_hex(s, 4, &type)) || !(s = evemu_parse_hex(s, 4, &code)))
		return reader_fail(r, line, "E: type and code must be hex numbers of at most 4 digits");
	if (!(s = evemu_parse_dec(s, &value)))
		return reader_fail(r, line, "E: the value must be a 32-bit decimal number");
	if (!evemu_at_end(s))
		return reader_fail(r, line, "E: unexpected text after the value");
	int max = tt_code_max(type);
	if (type >= EV_CNT || max < 0)
		return reader_fail(r, line, "E: event type 0x%04x is not a valid type", type);
	if (code > (uint32_t)max)
		return reader_fail(r, line, "E: code 0x%04x is out of range for type 0x%02x (max 0x%x)",
				   code, type, (unsigned int)max);
	*time = (int64_t)sec * 1000000 + usec;
	*ev = (struct tt_event){ (uint16_t)type, (uint16_t)code, value, 0 };
	return 0;
}

/* Appends an event to the frame being built; 1 when it ends the frame. */
static int
frame_add(struct tt_reader *r, int64_t time, const struct tt_event *ev, size_t line)
{
	struct evemu_priv *p = r->priv;

	if (p->nevents == 0)
		p->frame_line = line;
	if (p->nevents >= TT_MAX_FRAME_EVENTS) {
		if (!p->overflow)
			reader_fail(r, line, "a frame of more than %u events (no SYN_REPORT?); its events are dropped",
				    TT_MAX_FRAME_EVENTS);
		p->overflow = true;
		p->nevents = 0;
		return -EINVAL;
	}
	reader_frame_reserve(r, p->nevents + 1);
	if (p->nevents + 1 > p->ev_times_cap) {
		p->ev_times_cap = r->frame_cap;
		p->ev_times = tt_reallocarray(p->ev_times, p->ev_times_cap, sizeof(*p->ev_times));
	}
	r->frame.events[p->nevents] = *ev;
	p->ev_times[p->nevents] = time;
	p->nevents++;
	if (ev->type == EV_SYN && (ev->code == SYN_REPORT || ev->code == SYN_DROPPED))
		return 1;
	return 0;
}

/* Hands out the frame built so far. */
static int
frame_emit(struct tt_reader *r, struct tt_record *rec, uint32_t flags)
{
	struct evemu_priv *p = r->priv;
	struct tt_frame *f = &r->frame;
	int64_t ft = p->ev_times[p->nevents - 1];
	const struct tt_event *last = &f->events[p->nevents - 1];

	f->device = 0;
	f->time_us = ft - p->t0;
	f->nevents = p->nevents;
	f->flags = flags;
	if (last->type == EV_SYN && last->code == SYN_DROPPED)
		f->flags |= TT_FRAME_DROPPED;
	for (uint32_t i = 0; i < p->nevents; i++) {
		int64_t dt = p->ev_times[i] - ft;
		if (dt > INT32_MAX || dt < INT32_MIN) {
			p->nevents = 0;
			return reader_fail(r, p->frame_line,
					   "events of one frame are more than 35 minutes apart");
		}
		f->events[i].dt_us = (int32_t)dt;
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_FRAME;
	rec->line = p->frame_line;
	rec->frame = f;
	p->nevents = 0;
	p->overflow = false;
	return 1;
}

/* ---- the record stream ---- */

/* The description is complete (first E: line, or EOF): decide which one
 * to use. */
static int
settle_description(struct tt_reader *r, size_t line)
{
	struct evemu_priv *p = r->priv;

	if (!p->desc.have_name && p->commented.have_name) {
		reader_warn(r, line, "the device description is commented out (umockdev style); using it");
		evemu_desc_release(&p->desc);
		p->desc = p->commented;
		p->commented.dev = NULL;
		evemu_desc_init(&p->commented);
	}
	if (!p->desc.have_name && !p->inferring) {
		if (p->desc.nlines)
			return reader_fail(r, line, "the device description has no N: line");
		char what[128];
		free(p->desc.dev->name);
		p->desc.dev->name = tt_strdup("evemu events-only device (inferred)");
		int rc = evemu_infer_pass(r, what, sizeof(what));
		if (rc < 0)
			return rc;
		reader_warn(r, line, "events-only recording without a description: the device is inferred from "
			    "the events as %s (give its description with --desc FILE)", what);
		return 1;	/* restart reading */
	}
	if (p->desc.have_name && !p->desc.have_id && !p->desc_from_companion)
		reader_warn(r, line, "the description has no I: line; bus, vendor, product and version are 0");
	return evemu_desc_finish(r, &p->desc);
}

static void
fill_header(struct tt_reader *r)
{
	struct evemu_priv *p = r->priv;
	struct tt_header *h = &r->header;
	char tool[64];

	tt_header_clear(h);
	h->version = TT_FORMAT_VERSION;
	if (p->major)
		snprintf(tool, sizeof(tool), "evemu (file format %d.%d)", p->major, p->minor);
	else
		snprintf(tool, sizeof(tool), "evemu");
	h->tool = tt_strdup(tool);
	h->kernel = p->kernel ? tt_strdup(p->kernel) : NULL;
	h->source_format = tt_strdup("evemu");
	if (p->have_t0) {
		if (p->t0 >= EPOCH_THRESHOLD_US)
			h->start_realtime_us = p->t0;
		else
			h->start_monotonic_us = p->t0;
	}
	r->have_header = true;
}

static int
emit_header(struct tt_reader *r, struct tt_record *rec)
{
	struct evemu_priv *p = r->priv;

	fill_header(r);
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_HEADER;
	rec->header = &r->header;
	rec->line = 1;
	p->state = ST_DEVICE;
	return 1;
}

static int
emit_device(struct tt_reader *r, struct tt_record *rec)
{
	struct evemu_priv *p = r->priv;
	struct tt_device *dev = steal(&p->desc.dev);

	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_DEVICE;
	rec->line = 1;
	rec->device = dev;
	reader_add_device(r, dev);
	p->state = ST_MARKERS;
	return 1;
}

/* The DMI comment has no place in the header: a note. 0 without one. */
static int
emit_markers(struct tt_reader *r, struct tt_record *rec)
{
	struct evemu_priv *p = r->priv;
	size_t n;

	p->state = ST_EVENTS;
	if (!p->dmi)
		return 0;
	tt_marker_clear(&r->marker);
	r->marker.kind = TT_MARKER_NOTE;
	r->marker.kind_name = tt_strdup("note");
	n = strlen(p->dmi) + 16;
	r->marker.text = tt_zalloc(n);
	snprintf(r->marker.text, n, "evemu DMI: %s", p->dmi);
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_MARKER;
	rec->line = 1;
	rec->marker = &r->marker;
	return 1;
}

/* settle_description() at the end of the description: 0 when the header
 * is next, >0 when the file was rewound to infer the device. */
static int
settle(struct tt_reader *r, size_t line)
{
	struct evemu_priv *p = r->priv;
	int rc = settle_description(r, line);

	if (rc < 0) {
		r->done = true;
		return rc;
	}
	if (rc == 0)
		p->state = ST_HEADER;
	return rc;
}

/* End of file: the description ends there (0 to read on), or the events
 * do (the last frame, or 0 with r->done set). */
static int
at_eof(struct tt_reader *r, struct tt_record *rec, size_t line)
{
	struct evemu_priv *p = r->priv;

	if (p->state == ST_DESC) {
		if (!p->content_seen && !p->desc.have_name && !p->commented.have_name) {
			r->done = true;
			return reader_fail(r, line, "no evemu description or events in the file");
		}
		int rc = settle(r, line);
		return rc < 0 ? rc : 0;
	}
	r->done = true;
	if (p->nevents) {
		reader_warn(r, p->frame_line, "the last frame has no SYN_REPORT (recording cut short?)");
		return frame_emit(r, rec, TT_FRAME_INCOMPLETE);
	}
	return 0;
}

/* A line that is no evemu line: tolerated before the content (pasted
 * terminal output), an error after. */
static int
stray_line(struct tt_reader *r, size_t line)
{
	struct evemu_priv *p = r->priv;

	if (p->content_seen)
		return reader_fail(r, line, "not an evemu line (expected N:, I:, P:, B:, A:, L:, S:, E: or a # comment)");
	if (p->preamble++ == 0)
		reader_warn(r, line, "text before the evemu content (pasted terminal output?); ignored");
	return 0;
}

/* N:, I:, P:, B:, A:, L:, S: in the file; @s is the whole line. */
static int
file_desc_line(struct tt_reader *r, char kind, const char *s, size_t line)
{
	struct evemu_priv *p = r->priv;

	if (p->state != ST_DESC)
		return reader_fail(r, line, "%c: description line after the events (one device per evemu file)", kind);
	if (p->desc_from_companion) {
		reader_warn(r, line, "the file has its own description; the one from %s is not used",
			    r->companion);
		p->desc_from_companion = false;
		evemu_desc_init(&p->desc);
	}
	return evemu_desc_line(r, &p->desc, kind, s + 2, r->name, line);
}

/* The first E: line ends the description; the event waits until the
 * header and device records are out. */
static int
first_event(struct tt_reader *r, int64_t time, const struct tt_event *ev, size_t line)
{
	struct evemu_priv *p = r->priv;
	int rc = settle(r, line);

	if (rc != 0)
		return rc < 0 ? rc : 0;	/* >0: rewound to infer the device */
	p->have_t0 = true;
	p->t0 = time;
	p->pending = true;
	p->pending_ev = *ev;
	p->pending_time = time;
	p->pending_line = line;
	return 0;
}

/* An E: line (@s the whole line): 1 when it ends a frame, now in @rec. */
static int
event_line(struct tt_reader *r, struct tt_record *rec, const char *s, size_t line)
{
	struct evemu_priv *p = r->priv;
	int64_t time;
	struct tt_event ev;
	int rc = evemu_parse_event_line(r, s + 2, line, &time, &ev);

	if (rc < 0)
		return rc;
	if (p->state == ST_DESC)
		return first_event(r, time, &ev, line);
	if (time - p->t0 > TT_MAX_TIME_US || time - p->t0 < -TT_MAX_TIME_US)
		return reader_fail(r, line, "E: time out of range");
	rc = frame_add(r, time, &ev, line);
	if (rc > 0)
		return frame_emit(r, rec, 0);
	return rc;
}

/* One line of the file: 0 to read on, 1 with a record, <0. */
static int
file_line(struct tt_reader *r, struct tt_record *rec, const char *s, size_t line)
{
	struct evemu_priv *p = r->priv;
	const char *t = evemu_skip_ws(s);
	char kind;

	if (*t == '\0')
		return 0;
	if (*t == '#') {
		if (p->state == ST_DESC)
			evemu_parse_comment(p, r, t, line);
		return 0;
	}
	kind = evemu_line_kind(t);
	if (!kind)
		return stray_line(r, line);
	p->content_seen = true;
	if (kind != 'E')
		return file_desc_line(r, kind, t, line);
	return event_line(r, rec, t, line);
}

static int
evemu_next(struct tt_reader *r, struct tt_record *rec)
{
	struct evemu_priv *p = r->priv;

	if (r->companion && !p->companion_done) {
		int rc = evemu_read_companion(r);
		if (rc < 0)
			return rc;
	}

	for (;;) {
		char *s;
		size_t line;
		int rc;

		switch (p->state) {
		case ST_HEADER:
			return emit_header(r, rec);
		case ST_DEVICE:
			return emit_device(r, rec);
		case ST_MARKERS:
			if (emit_markers(r, rec))
				return 1;
			continue;
		case ST_DESC:
		case ST_EVENTS:
			break;
		}
		if (p->pending) {
			p->pending = false;
			if (frame_add(r, p->pending_time, &p->pending_ev, p->pending_line) > 0)
				return frame_emit(r, rec, 0);
		}
		rc = evemu_next_line(r, &r->lb, r->name, &s, &line);
		if (rc < 0)
			return rc;
		if (rc == 0)
			rc = at_eof(r, rec, line);
		else
			rc = file_line(r, rec, s, line);
		if (rc != 0 || r->done)
			return rc;
	}
}

static void
evemu_destroy(struct tt_reader *r)
{
	struct evemu_priv *p = r->priv;

	if (!p)
		return;
	evemu_desc_release(&p->desc);
	evemu_desc_release(&p->commented);
	free(p->kernel);
	free(p->dmi);
	free(p->ev_times);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops evemu_ops = {
	.next = evemu_next,
	.destroy = evemu_destroy,
};

int
evemu_reader_init(struct tt_reader *r)
{
	struct evemu_priv *p = tt_zalloc(sizeof(*p));

	evemu_desc_init(&p->desc);
	evemu_desc_init(&p->commented);
	p->state = ST_DESC;
	r->priv = p;
	r->ops = &evemu_ops;
	return 0;
}
