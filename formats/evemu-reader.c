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
#include "reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* Timestamps from 2001 on are wall-clock (epoch) times; smaller ones are
 * relative (evemu-record) or uptime-style (CLOCK_MONOTONIC). */
#define EPOCH_THRESHOLD_US (INT64_C(1000000000) * 1000000)

/* A description being assembled from N:/I:/P:/B:/A:/L:/S: lines. */
struct desc {
	struct tt_device *dev;
	bool have_name;
	bool have_id;
	size_t nlines;
	size_t pbytes;			/* P: bytes so far */
	size_t mbytes[EV_CNT];		/* B: bytes so far per type */
	size_t slot_line;		/* where ABS_MT_SLOT's A: line was */
	/* "Value" from the evtest-style comments (1.2+): absinfo values. */
	int32_t comment_value[ABS_CNT];
	uint8_t have_comment_value[TT_BITMAP_BYTES(ABS_CNT)];
	unsigned int comment_type;
	int comment_code;
};

enum evemu_state {
	ST_DESC,		/* reading the description */
	ST_HEADER,		/* header record next */
	ST_DEVICE,		/* device record next */
	ST_MARKERS,		/* note markers next */
	ST_EVENTS,
};

struct evemu_priv {
	enum evemu_state state;
	struct desc desc;		/* uncommented description lines */
	struct desc commented;		/* "# N: ..." umockdev-style */
	bool desc_from_companion;
	bool companion_done;
	bool content_seen;		/* some evemu line was seen */
	size_t preamble;		/* non-evemu lines before any evemu line */
	int major, minor;
	char *kernel;
	char *dmi;

	/* Events. */
	bool have_t0;
	int64_t t0;
	bool pending;			/* an E: line read while in ST_DESC */
	struct tt_event pending_ev;
	int64_t pending_time;
	size_t pending_line;
	int64_t *ev_times;		/* absolute time of each event in r->frame */
	uint32_t ev_times_cap;
	uint32_t nevents;
	size_t frame_line;
	bool overflow;

	/* Inferring a device from an events-only file (first pass). */
	bool inferring;
};

/* ---- number parsing: strict, bounded, no locale, no floats ---- */

static const char *
skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Hex of at most @maxdigits digits. Returns the end, or NULL. */
static const char *
parse_hex(const char *s, unsigned int maxdigits, uint32_t *out)
{
	uint32_t v = 0;
	unsigned int n = 0;

	s = skip_ws(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (n < 9) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v * 16 + (uint32_t)d;
		s++;
		n++;
	}
	if (n == 0 || n > maxdigits)
		return NULL;
	*out = v;
	return s;
}

/* Signed decimal with optional leading zeros ("-001"), within int32. */
static const char *
parse_dec(const char *s, int32_t *out)
{
	bool neg = false;
	int64_t v = 0;
	unsigned int n = 0;

	s = skip_ws(s);
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return NULL;
		s++;
		n++;
	}
	if (n == 0)
		return NULL;
	if (neg)
		v = -v;
	if (v > INT32_MAX || v < INT32_MIN)
		return NULL;
	*out = (int32_t)v;
	return s;
}

/* The rest of a line may hold blanks and a comment, nothing else. */
static bool
at_end(const char *s)
{
	s = skip_ws(s);
	return *s == '\0' || *s == '#';
}

/* ---- description lines ---- */

static void
desc_init(struct desc *d)
{
	tt_device_free(d->dev);
	memset(d, 0, sizeof(*d));
	d->dev = tt_device_new(0);
	d->comment_code = -1;
}

static void
desc_release(struct desc *d)
{
	tt_device_free(d->dev);
	d->dev = NULL;
}

static int
parse_bytes(const char *s, uint8_t bytes[8])
{
	for (int i = 0; i < 8; i++) {
		uint32_t v;
		s = parse_hex(s, 2, &v);
		if (!s)
			return -1;
		bytes[i] = (uint8_t)v;
	}
	return at_end(s) ? 0 : -1;
}

/* Each description line's parser gets the text after "X:" and fails with
 * a message naming @name:@line. */

static int
desc_name(struct desc *d, const char *s)
{
	struct tt_device *dev = d->dev;
	size_t len;

	s = skip_ws(s);
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	free(dev->name);
	dev->name = tt_str_sanitize(s, len, TT_MAX_STRING_BYTES);
	d->have_name = true;
	return 0;
}

static int
desc_id(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_device *dev = d->dev;
	uint32_t w[4];

	for (int i = 0; i < 4; i++) {
		s = parse_hex(s, 4, &w[i]);
		if (!s)
			return reader_fail_in(r, name, line, "I: needs four hex numbers of at most 4 digits: bus vendor product version");
	}
	if (!at_end(s))
		return reader_fail_in(r, name, line, "I: unexpected text after the version");
	dev->bustype = (uint16_t)w[0];
	dev->vendor = (uint16_t)w[1];
	dev->product = (uint16_t)w[2];
	dev->version = (uint16_t)w[3];
	d->have_id = true;
	return 0;
}

/* P: and B: lines each carry the next 64 bits of a bitmap; past the
 * largest known bit the count stops growing (and cannot overflow). */
static void
bitmap_advance(size_t *bytes, size_t limit)
{
	if (*bytes < limit)
		*bytes += 8;
	else
		*bytes = limit + 8;
}

static int
desc_props(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	uint8_t bytes[8];

	if (parse_bytes(s, bytes) < 0)
		return reader_fail_in(r, name, line, "P: needs 8 hex bytes");
	for (unsigned int i = 0; i < 64; i++) {
		if (!bit_is_set(bytes, i))
			continue;
		size_t prop = d->pbytes * 8 + i;
		if (prop >= INPUT_PROP_CNT) {
			reader_warn(r, line, "property %zu is beyond the known properties; ignored", prop);
			continue;
		}
		set_bit(d->dev->props, (unsigned int)prop);
	}
	bitmap_advance(&d->pbytes, INPUT_PROP_CNT);
	return 0;
}

static int
desc_codes(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_device *dev = d->dev;
	uint8_t bytes[8];
	uint32_t v;

	s = parse_hex(s, 2, &v);
	if (!s || parse_bytes(s, bytes) < 0)
		return reader_fail_in(r, name, line, "B: needs an event type and 8 hex bytes");
	if (v >= EV_CNT || tt_code_max(v) < 0)
		return reader_fail_in(r, name, line, "B: event type 0x%02x is not a valid type", v);
	int max = tt_code_max(v);
	for (unsigned int i = 0; i < 64; i++) {
		if (!bit_is_set(bytes, i))
			continue;
		size_t code = d->mbytes[v] * 8 + i;
		if (code > (size_t)max) {
			reader_warn(r, line, "code %zu of type 0x%02x is beyond the largest known code %d; ignored",
				    code, v, max);
			continue;
		}
		tt_device_enable(dev, v, (unsigned int)code);
		/* evemu gives ABS axes without an A: line 0..1. */
		if (v == EV_ABS) {
			dev->abs[code].minimum = 0;
			dev->abs[code].maximum = 1;
		}
	}
	bitmap_advance(&d->mbytes[v], KEY_CNT);
	return 0;
}

static int
desc_absinfo(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_absinfo *abs;
	uint32_t v;
	int32_t a[5];
	int n;

	s = parse_hex(s, 2, &v);
	if (!s)
		return reader_fail_in(r, name, line, "A: needs an axis code in hex");
	for (n = 0; n < 5; n++) {
		const char *e = parse_dec(s, &a[n]);
		if (!e)
			break;
		s = e;
	}
	if (n < 4 || !at_end(s))
		return reader_fail_in(r, name, line, "A: needs code, min, max, fuzz, flat and optionally resolution (32-bit decimal numbers)");
	if (v >= ABS_CNT)
		return reader_fail_in(r, name, line, "A: axis code 0x%02x is out of range", v);
	if (a[0] > a[1])
		return reader_fail_in(r, name, line, "A: axis 0x%02x: min %d is above max %d", v, a[0], a[1]);
	abs = &d->dev->abs[v];
	abs->minimum = a[0];
	abs->maximum = a[1];
	abs->fuzz = a[2];
	abs->flat = a[3];
	abs->resolution = n == 5 ? a[4] : 0;
	if (v == ABS_MT_SLOT)
		d->slot_line = line;
	return 0;
}

/* L: (LED) and S: (switch) lines: a code and its state. */
static int
desc_state(struct tt_reader *r, struct desc *d, char kind, const char *s, const char *name, size_t line)
{
	bool led = kind == 'L';
	unsigned int count = led ? LED_CNT : SW_CNT;
	uint8_t *on = led ? d->dev->leds_on : d->dev->switches_on;
	int32_t state;
	uint32_t v;

	s = parse_hex(s, 2, &v);
	if (!s || !(s = parse_dec(s, &state)) || !at_end(s))
		return reader_fail_in(r, name, line, "%c: needs a code in hex and a state", kind);
	if (v >= count)
		return reader_fail_in(r, name, line, "%c: %s 0x%02x is out of range", kind, led ? "LED" : "switch", v);
	if (state)
		set_bit(on, v);
	return 0;
}

/* Parses one description line of @kind; @s is the text after "X:". */
static int
desc_line(struct tt_reader *r, struct desc *d, char kind, const char *s,
	  const char *name, size_t line)
{
	d->nlines++;
	switch (kind) {
	case 'N':
		return desc_name(d, s);
	case 'I':
		return desc_id(r, d, s, name, line);
	case 'P':
		return desc_props(r, d, s, name, line);
	case 'B':
		return desc_codes(r, d, s, name, line);
	case 'A':
		return desc_absinfo(r, d, s, name, line);
	case 'L':
	case 'S':
		return desc_state(r, d, kind, s, name, line);
	}
	return reader_fail_in(r, name, line, "unknown line");
}

/* The evtest-style comment block evemu 1.2+ writes has each axis's
 * current value; it is the only place the format keeps it. */
static void
desc_comment(struct desc *d, const char *s)
{
	int32_t val;

	s = skip_ws(s);
	if (strncmp(s, "Event type ", 11) == 0) {
		int32_t t;
		if (parse_dec(s + 11, &t) && t >= 0)
			d->comment_type = (unsigned int)t;
		d->comment_code = -1;
	} else if (strncmp(s, "Event code ", 11) == 0) {
		int32_t c;
		if (parse_dec(s + 11, &c) && c >= 0 && c < ABS_CNT)
			d->comment_code = c;
		else
			d->comment_code = -1;
	} else if (strncmp(s, "Value", 5) == 0 && d->comment_type == EV_ABS && d->comment_code >= 0) {
		const char *e = parse_dec(s + 5, &val);
		if (e && at_end(e)) {
			d->comment_value[d->comment_code] = val;
			set_bit(d->have_comment_value, (unsigned int)d->comment_code);
		}
	}
}

/* Turns the assembled description into a device: MT protocol, slots,
 * absinfo values. */
static int
desc_finish(struct tt_reader *r, struct desc *d)
{
	struct tt_device *dev = d->dev;

	if (!dev->name)
		dev->name = tt_strdup("");
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (bit_is_set(d->have_comment_value, code) && tt_device_has(dev, EV_ABS, code))
			dev->abs[code].value = d->comment_value[code];
	}
	/* HID devices with more axes than the kernel has names for spill
	 * into the ABS_MT range; like libevdev, ABS_RESERVED (0x2e) marks
	 * such a "fake MT" device, which has no slots. */
	bool fake_mt = tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1);
	if (tt_device_has(dev, EV_ABS, ABS_MT_SLOT) && !fake_mt) {
		const struct tt_absinfo *a = &dev->abs[ABS_MT_SLOT];
		if (a->minimum != 0 || a->maximum < 0 || a->maximum >= (int32_t)TT_MAX_SLOTS)
			return reader_fail(r, d->slot_line,
					   "ABS_MT_SLOT range [%d, %d] is not 0 to at most %u slots",
					   a->minimum, a->maximum, TT_MAX_SLOTS - 1);
		dev->mt_protocol = TT_MT_B;
		tt_device_set_slots(dev, (uint32_t)a->maximum + 1);
		if (a->value >= 0 && a->value <= a->maximum)
			dev->current_slot = a->value;
	} else if (!fake_mt && (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) ||
				tt_device_has(dev, EV_ABS, ABS_MT_POSITION_Y))) {
		dev->mt_protocol = TT_MT_A;
	}
	return 0;
}

/* ---- line classification ---- */

static bool
is_desc_kind(char c)
{
	return c == 'N' || c == 'I' || c == 'P' || c == 'B' || c == 'A' || c == 'L' || c == 'S';
}

/* "X:" followed by a blank or the end: an evemu line of kind X. */
static char
line_kind(const char *s)
{
	if ((is_desc_kind(s[0]) || s[0] == 'E') && s[1] == ':' &&
	    (s[2] == ' ' || s[2] == '\t' || s[2] == '\0'))
		return s[0];
	return 0;
}

/* ---- events ---- */

static int
parse_event_line(struct tt_reader *r, const char *s, size_t line,
		 int64_t *time, struct tt_event *ev)
{
	uint64_t sec = 0;
	uint32_t usec = 0, type, code;
	int32_t value;
	unsigned int n = 0;

	s = skip_ws(s);
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
	if (!(s = parse_hex(s, 4, &type)) || !(s = parse_hex(s, 4, &code)))
		return reader_fail(r, line, "E: type and code must be hex numbers of at most 4 digits");
	if (!(s = parse_dec(s, &value)))
		return reader_fail(r, line, "E: the value must be a 32-bit decimal number");
	if (!at_end(s))
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

/* ---- reading lines ---- */

/* Next line with the CR of a CRLF removed: 1, 0 at EOF, <0 on error. */
static int
next_line(struct tt_reader *r, struct linebuf *lb, const char *name, char **out, size_t *lineno)
{
	for (;;) {
		char *line;
		size_t len;
		int status = linebuf_next(lb, &line, &len);

		*lineno = lb->lineno;
		if (status < 0) {
			r->done = true;
			reader_fail_in(r, name, lb->lineno, "%s", linebuf_error(lb, status));
			return -EIO;
		}
		if (status == LINEBUF_EOF)
			return 0;
		if (status == LINEBUF_TOO_LONG)
			return reader_fail_in(r, name, lb->lineno, "line longer than %u bytes", TT_MAX_LINE_BYTES);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (memchr(line, '\0', len))
			return reader_fail_in(r, name, lb->lineno, "NUL byte in a text line");
		*out = line;
		return 1;
	}
}

static void
parse_comment(struct evemu_priv *p, struct tt_reader *r, const char *s, size_t line)
{
	const char *c = s + 1;
	int32_t major, minor;

	const char *v = skip_ws(c);
	if (strncmp(v, "EVEMU ", 6) == 0 && (v = parse_dec(v + 6, &major)) && *v == '.' &&
	    parse_dec(v + 1, &minor) && major >= 0 && minor >= 0) {
		p->major = major;
		p->minor = minor;
		if (major > 1 || (major == 1 && minor > 3))
			reader_warn(r, line, "evemu file format %d.%d is newer than 1.3; reading it as 1.3",
				    major, minor);
		return;
	}
	c = skip_ws(c);
	if (strncmp(c, "Kernel:", 7) == 0 && !p->kernel) {
		c = skip_ws(c + 7);
		p->kernel = tt_str_sanitize(c, strlen(c), TT_MAX_STRING_BYTES);
		return;
	}
	if (strncmp(c, "DMI:", 4) == 0 && !p->dmi) {
		c = skip_ws(c + 4);
		p->dmi = tt_str_sanitize(c, strlen(c), TT_MAX_STRING_BYTES);
		return;
	}
	/* umockdev-style commented-out description: "# N: name". */
	char kind = line_kind(c);
	if (kind && kind != 'E') {
		desc_line(r, &p->commented, kind, c + 2, r->name, line);
		return;
	}
	desc_comment(p->desc_from_companion ? &p->commented : &p->desc, s + 1);
}

/* Reads the --desc file's description into p->desc. */
static int
read_companion(struct tt_reader *r)
{
	struct evemu_priv *p = r->priv;
	struct linebuf lb;
	int fd = open(r->companion, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	p->companion_done = true;
	if (fd < 0)
		return reader_fail_in(r, r->companion, 0, "cannot open the description: %s", strerror(errno));
	linebuf_init(&lb, fd, TT_MAX_LINE_BYTES);
	for (;;) {
		char *s;
		size_t line;
		int status = next_line(r, &lb, r->companion, &s, &line);
		if (status == 0)
			break;
		if (status < 0) {
			rc = status;
			if (status == -EIO) {
				r->done = false;
				break;
			}
			continue;
		}
		const char *t = skip_ws(s);
		if (*t == '\0')
			continue;
		if (*t == '#') {
			parse_comment(p, r, t, line);
			continue;
		}
		char kind = line_kind(t);
		if (kind == 'E') {
			reader_warn(r, line, "%s has events; only its description is used", r->companion);
			break;
		}
		if (!kind) {
			rc = reader_fail_in(r, r->companion, line, "not an evemu description line");
			continue;
		}
		if ((rc = desc_line(r, &p->desc, kind, t + 2, r->companion, line)) < 0)
			continue;
	}
	linebuf_release(&lb);
	close(fd);
	if (!p->desc.have_name)
		return reader_fail_in(r, r->companion, 0, "no device description (N: line) in the file");
	p->desc_from_companion = true;
	return rc < 0 ? rc : 0;
}

/* ---- inferring a device from events (events-only files) ---- */

struct infer {
	int32_t min[ABS_CNT], max[ABS_CNT];
	uint8_t seen_abs[TT_BITMAP_BYTES(ABS_CNT)];
};

/* A tracking ID of -1 (a contact lifted) exists only in the slotted
 * Type B protocol. A Type B device whose recording only ever used slot 0
 * never sends ABS_MT_SLOT, so without this it would pass for Type A and
 * its lift for a new touch with tracking ID -1. */
static void
infer_type_b(struct tt_device *dev, const struct infer *inf)
{
	if (!bit_is_set(inf->seen_abs, ABS_MT_TRACKING_ID) || inf->min[ABS_MT_TRACKING_ID] >= 0 ||
	    bit_is_set(inf->seen_abs, ABS_MT_SLOT))
		return;
	/* One slot: the only one the recording shows. */
	tt_device_enable(dev, EV_ABS, ABS_MT_SLOT);
	dev->abs[ABS_MT_SLOT].minimum = 0;
	dev->abs[ABS_MT_SLOT].maximum = 0;
}

static void
infer_device(struct tt_device *dev, const struct infer *inf)
{
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (!bit_is_set(inf->seen_abs, code))
			continue;
		struct tt_absinfo *a = &dev->abs[code];
		a->minimum = inf->min[code] < 0 ? inf->min[code] : 0;
		a->maximum = inf->max[code] > 0 ? inf->max[code] : 1;
		if (code == ABS_MT_TRACKING_ID) {
			a->minimum = 0;
			if (a->maximum < 65535)
				a->maximum = 65535;
		}
		if (code == ABS_MT_SLOT)
			a->minimum = 0;
	}
	infer_type_b(dev, inf);
	if (tt_device_has(dev, EV_KEY, BTN_TOOL_FINGER))
		set_bit(dev->props, INPUT_PROP_POINTER);
	else if (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) ||
		 (tt_device_has(dev, EV_ABS, ABS_X) && tt_device_has(dev, EV_KEY, BTN_TOUCH)))
		set_bit(dev->props, INPUT_PROP_DIRECT);
}

/* First pass over an events-only file: which codes and ranges the events
 * use. Then rewinds so the second pass reads the events. */
static int
infer_pass(struct tt_reader *r)
{
	struct evemu_priv *p = r->priv;
	_cleanup_free_ struct infer *inf = tt_zalloc(sizeof(*inf));
	struct tt_device *dev = p->desc.dev;
	size_t nerrors = r->nerrors;

	if (lseek(r->lb.fd, 0, SEEK_SET) < 0)
		return reader_fail(r, 1, "events-only recording without a description, and the input cannot be "
				   "read twice to infer the device; give the description with --desc FILE");
	linebuf_release(&r->lb);
	linebuf_init(&r->lb, r->lb.fd, TT_MAX_LINE_BYTES);
	for (;;) {
		char *s;
		size_t line;
		int64_t t;
		struct tt_event ev;
		int status = next_line(r, &r->lb, r->name, &s, &line);
		if (status == 0)
			break;
		if (status == -EIO)
			return status;
		if (status < 0)
			continue;
		s = (char *)skip_ws(s);
		if (line_kind(s) != 'E' || parse_event_line(r, s + 2, line, &t, &ev) < 0)
			continue;
		if (ev.type == EV_SYN)
			continue;
		tt_device_enable(dev, ev.type, ev.code);
		if (ev.type == EV_ABS) {
			if (!bit_is_set(inf->seen_abs, ev.code)) {
				inf->min[ev.code] = inf->max[ev.code] = ev.value;
				set_bit(inf->seen_abs, ev.code);
			}
			if (ev.value < inf->min[ev.code])
				inf->min[ev.code] = ev.value;
			if (ev.value > inf->max[ev.code])
				inf->max[ev.code] = ev.value;
		}
	}
	/* The second pass reports the errors again, at their lines. */
	r->nerrors = nerrors;
	infer_device(dev, inf);
	if (lseek(r->lb.fd, 0, SEEK_SET) < 0)
		return reader_fail(r, 1, "cannot rewind: %s", strerror(errno));
	linebuf_release(&r->lb);
	linebuf_init(&r->lb, r->lb.fd, TT_MAX_LINE_BYTES);
	p->inferring = true;
	p->content_seen = false;
	p->preamble = p->preamble ? 1 : 0;
	return 0;
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
		desc_release(&p->desc);
		p->desc = p->commented;
		p->commented.dev = NULL;
		desc_init(&p->commented);
	}
	if (!p->desc.have_name && !p->inferring) {
		if (p->desc.nlines)
			return reader_fail(r, line, "the device description has no N: line");
		reader_warn(r, line, "events-only recording without a description: the device is inferred from "
			    "the events (give its description with --desc FILE)");
		free(p->desc.dev->name);
		p->desc.dev->name = tt_strdup("evemu events-only device (inferred)");
		int rc = infer_pass(r);
		if (rc < 0)
			return rc;
		return 1;	/* restart reading */
	}
	if (p->desc.have_name && !p->desc.have_id && !p->desc_from_companion)
		reader_warn(r, line, "the description has no I: line; bus, vendor, product and version are 0");
	return desc_finish(r, &p->desc);
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
		desc_init(&p->desc);
	}
	return desc_line(r, &p->desc, kind, s + 2, r->name, line);
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
	int rc = parse_event_line(r, s + 2, line, &time, &ev);

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
	const char *t = skip_ws(s);
	char kind;

	if (*t == '\0')
		return 0;
	if (*t == '#') {
		if (p->state == ST_DESC)
			parse_comment(p, r, t, line);
		return 0;
	}
	kind = line_kind(t);
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
		int rc = read_companion(r);
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
		rc = next_line(r, &r->lb, r->name, &s, &line);
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
	desc_release(&p->desc);
	desc_release(&p->commented);
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

	desc_init(&p->desc);
	desc_init(&p->commented);
	p->state = ST_DESC;
	r->priv = p;
	r->ops = &evemu_ops;
	return 0;
}
