/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record reader (file version 1), on libyaml's event API so
 * the events list streams: memory stays bounded whatever the length.
 *
 *	version: 1
 *	ndevices: N
 *	libinput: {version: "1.23.0", git: ...}
 *	system: {os: ..., kernel: ..., dmi: ...}
 *	devices:
 *	- node: /dev/input/event1
 *	  evdev: {name: ..., id: [bus, vid, pid, ver],
 *	          codes: {TYPE: [CODE, ...]}, absinfo: {CODE: [min, max, fuzz, flat, res]},
 *	          properties: [PROP, ...]}
 *	  hid: [bytes], udev: {properties: [...]}, quirks: [...]
 *	  events:
 *	  - evdev: [[sec, usec, type, code, value], ...]
 *	  - libinput: [{time: ..., type: ...}, ...]
 *
 * Devices get the record ids 0, 1, ... in file order. Each device's
 * frames follow its device record (the file keeps them per device); the
 * times are the file's, which libinput already counts from the first
 * event of the recording. libinput: event entries (--with-libinput)
 * become li records on the same clock (libinput-li.c). udev:'s
 * properties and quirks: become the device's surroundings (its "udev",
 * "hwdb" and "quirks"), system:'s os and dmi and libinput:'s version the
 * header's; hid:, and udev: or quirks: in a shape libinput does not
 * write, have no timeline equivalent and become "note" markers, as do
 * the libinput: and system: sections (for what the header does not hold).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "evnames.h"
#include "libinput-li.h"
#include "reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

#define MAX_NOTES 8

enum li_state {
	LI_START,
	LI_TOP,			/* top-level keys */
	LI_DEVICES,		/* in the devices sequence */
	LI_DEVICE,		/* in one device's mapping */
	LI_EVENTS,		/* in a device's events sequence */
	LI_ITEM,		/* in one "- evdev:"/"- libinput:" mapping */
	LI_EVDEV,		/* in an evdev event list */
	LI_LIBINPUT,		/* in a libinput event list */
	LI_END,
};

struct note {
	char *text;
	size_t line;
	int64_t device;
};

struct li_priv {
	yaml_parser_t parser;
	bool parser_ok;
	enum li_state state;
	bool header_sent;
	bool version_seen;

	/* Device being read. */
	struct tt_device *dev;
	uint32_t next_id;
	bool dev_sent;
	size_t dev_line;
	uint32_t cur_dev;
	bool warned_order;

	struct note notes[MAX_NOTES];
	size_t nnotes;

	/* Frame being built. */
	uint32_t nevents;
	size_t frame_line;
	int64_t frame_time;
	int64_t last_time;

	/* Bytes since the last newline, to bound a line. */
	size_t run;
	bool too_long;
	size_t lines_read;	/* lines begun so far */
	/* Bytes read since the parser last produced an event: libyaml keeps
	 * a scalar whole however many lines it spans. */
	size_t since_event;
	size_t event_line;
	bool too_big;
	/* Collections open: libyaml's scanner costs O(depth) per token. */
	unsigned int depth;
};

/* libinput record nests 8 levels (devices, events, evdev, one event);
 * anything far deeper is not a recording. */
#define MAX_DEPTH 64

/* ---- input ---- */

static int
read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	struct tt_reader *r = data;
	struct li_priv *p = r->priv;
	struct linebuf *lb = &r->lb;
	size_t n;

	/* The bytes format detection already read, then the rest,
	 * decompressed when the file is gzip. */
	ssize_t got = linebuf_read(lb, buffer, size);
	if (got < 0) {
		linebuf_error(lb, (int)got);	/* kept in lb->error for yaml_fail */
		return 0;
	}
	n = (size_t)got;
	for (size_t i = 0; i < n; i++) {
		if (p->run == 0)
			p->lines_read++;
		if (buffer[i] == '\n')
			p->run = 0;
		else if (++p->run > TT_MAX_LINE_BYTES) {
			p->too_long = true;
			return 0;
		}
	}
	p->since_event += n;
	if (p->since_event > TT_MAX_LINE_BYTES) {
		p->too_big = true;
		return 0;
	}
	*size_read = n;
	return 1;
}

/* ---- events ---- */

/* Every libyaml event is freed by the scope that read it. A zeroed event
 * (one libyaml never filled) frees as nothing. */
static void
yaml_event_deletep(yaml_event_t *ev)
{
	yaml_event_delete(ev);
}
#define _cleanup_yaml_event_ _cleanup_(yaml_event_deletep)

static int
yaml_fail(struct tt_reader *r)
{
	struct li_priv *p = r->priv;
	yaml_parser_t *y = &p->parser;

	r->done = true;
	if (p->too_long)
		return reader_fail(r, y->mark.line + 1, "line longer than %u bytes", TT_MAX_LINE_BYTES);
	if (r->lb.error[0])
		return reader_fail(r, p->lines_read ? p->lines_read : 1, "%s", r->lb.error);
	if (p->too_big)
		return reader_fail(r, p->event_line, "more than %u bytes of YAML after this line without a "
				   "complete value (a huge multi-line scalar or comment?)", TT_MAX_LINE_BYTES);
	if (y->error == YAML_READER_ERROR) {
		/* libyaml places a reader error (bad UTF-8, a control
		 * character) only by byte offset; the characters it decoded
		 * beyond the scanner's position say how many lines on it is. */
		size_t line = y->mark.line + 1;
		for (const yaml_char_t *c = y->buffer.pointer; c && c < y->buffer.last; c++) {
			if (*c == '\n')
				line++;
		}
		return reader_fail(r, line, "not valid YAML: %s", y->problem ? y->problem : "read error");
	}
	bool tab_hint = y->problem && strstr(y->problem, "cannot start any token");
	/* At the end of a last line without a newline libyaml counts one
	 * line more than the file has. */
	size_t line = y->problem_mark.line + 1;
	if (line > p->lines_read && p->lines_read > 0)
		line = p->lines_read;
	return reader_fail(r, line, "not valid YAML: %s%s%s%s",
			   y->problem ? y->problem : "syntax error",
			   y->context ? " " : "", y->context ? y->context : "",
			   tab_hint ? " (a tab? YAML does not allow tabs for indentation)" : "");
}

static size_t
ev_line(const yaml_event_t *ev)
{
	return ev->start_mark.line + 1;
}

/* The next parser event; on a YAML error the file cannot go on. The
 * caller frees @ev (_cleanup_yaml_event_), whatever this returns. */
static int
next_event(struct tt_reader *r, yaml_event_t *ev)
{
	struct li_priv *p = r->priv;

	if (!yaml_parser_parse(&p->parser, ev))
		return yaml_fail(r);
	p->since_event = 0;
	p->event_line = ev->end_mark.line + 1;
	if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
		if (++p->depth > MAX_DEPTH) {
			r->done = true;
			return reader_fail(r, ev_line(ev), "YAML nested more than %d levels deep", MAX_DEPTH);
		}
	} else if ((ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT) && p->depth) {
		p->depth--;
	}
	/* Past the end of the stream libyaml hands out empty events forever;
	 * a caller still asking for more is reading a document that ended
	 * inside a construct (found by the fuzzer: it looped). */
	if (ev->type == YAML_NO_EVENT) {
		r->done = true;
		return reader_fail(r, p->parser.mark.line + 1, "the YAML document ends too early");
	}
	return 0;
}

/* Skips the rest of a node whose start event was @ev. */
static int
skip_node(struct tt_reader *r, const yaml_event_t *start)
{
	int depth;

	if (start->type != YAML_SEQUENCE_START_EVENT && start->type != YAML_MAPPING_START_EVENT)
		return 0;
	depth = 1;
	while (depth > 0) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (next_event(r, &ev) < 0)
			return -EINVAL;
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		else if (ev.type == YAML_STREAM_END_EVENT)
			depth = 0;
	}
	return 0;
}

static const char *
scalar(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

static bool
key_is(const yaml_event_t *ev, const char *key)
{
	return ev->type == YAML_SCALAR_EVENT && strcmp(scalar(ev), key) == 0;
}

/* Reads a scalar value; fails on anything else (which is skipped). */
static int
read_scalar(struct tt_reader *r, const char *what, char **out, size_t *line)
{
	_cleanup_yaml_event_ yaml_event_t ev = { 0 };

	if (next_event(r, &ev) < 0)
		return -EINVAL;
	*line = ev_line(&ev);
	if (ev.type != YAML_SCALAR_EVENT) {
		int rc = reader_fail(r, ev_line(&ev), "%s must be a single value", what);
		skip_node(r, &ev);
		return rc;
	}
	*out = tt_strndup(scalar(&ev), ev.data.scalar.length);
	return 0;
}

static int
parse_int(struct tt_reader *r, const char *s, size_t line, const char *what,
	  int64_t min, int64_t max, int64_t *out)
{
	int64_t v;

	/* libinput writes decimal; hex (0x..) appears in hand-made files. */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		char *end;
		errno = 0;
		unsigned long long u = strtoull(s + 2, &end, 16);
		if (errno || *end || end == s + 2 || u > INT64_MAX)
			return reader_fail(r, line, "%s: \"%.32s\" is not a number", what, s);
		v = (int64_t)u;
	} else if (tt_parse_int64(s, &v) < 0) {
		return reader_fail(r, line, "%s: \"%.32s\" is not a number", what, s);
	}
	if (v < min || v > max)
		return reader_fail(r, line, "%s: %" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]",
				   what, v, min, max);
	*out = v;
	return 0;
}

/* Reads a flow or block sequence of integers into @vals (at most @max;
 * more is an error). Returns the count, or <0. */
static int
read_int_seq(struct tt_reader *r, const yaml_event_t *start, const char *what,
	     int64_t min, int64_t maxv, int64_t *vals, size_t max)
{
	size_t n = 0;
	int rc = 0;

	if (start->type != YAML_SEQUENCE_START_EVENT) {
		rc = reader_fail(r, ev_line(start), "%s must be a list of numbers", what);
		skip_node(r, start);
		return rc;
	}
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (next_event(r, &ev) < 0)
			return -EINVAL;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (ev.type != YAML_SCALAR_EVENT) {
			if (rc == 0)
				rc = reader_fail(r, ev_line(&ev), "%s must be a list of numbers", what);
			skip_node(r, &ev);
		} else if (n >= max) {
			if (rc == 0)
				rc = reader_fail(r, ev_line(&ev), "%s has more than %zu entries", what, max);
		} else if (rc == 0) {
			rc = parse_int(r, scalar(&ev), ev_line(&ev), what, min, maxv, &vals[n]);
			if (rc == 0)
				n++;
		}
		if (r->done)
			return -EINVAL;
	}
	return rc < 0 ? rc : (int)n;
}

/* ---- device description ---- */

/* Calls @fn for each key/value pair of the mapping being read, up to its
 * end. @fn returns 0 or <0; the first failure is returned after the whole
 * mapping was read, so one bad entry costs only itself. */
typedef int (*pair_fn)(struct tt_reader *r, struct tt_device *dev,
		       const yaml_event_t *key, const yaml_event_t *val);

static int
each_pair(struct tt_reader *r, struct tt_device *dev, pair_fn fn)
{
	int rc = 0;

	for (;;) {
		_cleanup_yaml_event_ yaml_event_t key = { 0 };
		_cleanup_yaml_event_ yaml_event_t val = { 0 };
		if (next_event(r, &key) < 0)
			return -EINVAL;
		if (key.type == YAML_MAPPING_END_EVENT)
			return rc;
		if (next_event(r, &val) < 0)
			return -EINVAL;
		int t = fn(r, dev, &key, &val);
		if (t < 0 && rc == 0)
			rc = t;
		if (r->done)
			return -EINVAL;
	}
}

/* A mapping key that must be a number in [0, max]. */
static int
key_number(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *val,
	   const char *what, int64_t max, int64_t *out)
{
	int rc = key->type == YAML_SCALAR_EVENT
		? parse_int(r, scalar(key), ev_line(key), what, 0, max, out)
		: reader_fail(r, ev_line(key), "%s: keys must be numbers", what);

	if (rc < 0)
		skip_node(r, val);
	return rc;
}

/* codes: {TYPE: [CODE, ...]} */
static int
code_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	int64_t codes[KEY_CNT];
	int64_t type;
	int rc = key_number(r, key, val, "codes: event type", EV_MAX, &type);

	if (rc < 0)
		return rc;
	if (tt_code_max((unsigned int)type) < 0) {
		skip_node(r, val);
		return reader_fail(r, ev_line(key), "codes: %" PRId64 " is not a valid event type", type);
	}
	int n = read_int_seq(r, val, "codes", 0, tt_code_max((unsigned int)type), codes, KEY_CNT);
	for (int i = 0; i < n; i++) {
		tt_device_enable(dev, (unsigned int)type, (unsigned int)codes[i]);
		/* An axis without absinfo: 0..1, as evemu has it. */
		if (type == EV_ABS && dev->abs[codes[i]].maximum == 0 && dev->abs[codes[i]].minimum == 0)
			dev->abs[codes[i]].maximum = 1;
	}
	/* A type listed without codes still exists. */
	set_bit(dev->types, (unsigned int)type);
	return n < 0 ? n : 0;
}

/* absinfo: {CODE: [min, max, fuzz, flat, resolution]} */
static int
absinfo_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	int64_t code, v[5];
	int rc = key_number(r, key, val, "absinfo: axis", ABS_MAX, &code);
	int n;

	if (rc < 0)
		return rc;
	n = read_int_seq(r, val, "absinfo", INT32_MIN, INT32_MAX, v, 5);
	if (n < 0)
		return n;
	if (n != 5)
		return reader_fail(r, ev_line(val), "absinfo: axis %" PRId64 " needs [min, max, fuzz, flat, resolution]", code);
	if (v[0] > v[1])
		return reader_fail(r, ev_line(val), "absinfo: axis %" PRId64 ": min %" PRId64 " is above max %" PRId64,
				   code, v[0], v[1]);
	dev->abs[code] = (struct tt_absinfo){
		.minimum = (int32_t)v[0], .maximum = (int32_t)v[1], .fuzz = (int32_t)v[2],
		.flat = (int32_t)v[3], .resolution = (int32_t)v[4],
	};
	return 0;
}

static int
evdev_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	if (key_is(key, "name") && val->type == YAML_SCALAR_EVENT) {
		free(dev->name);
		dev->name = tt_str_sanitize(scalar(val), val->data.scalar.length, TT_MAX_STRING_BYTES);
		return 0;
	}
	if (key_is(key, "id")) {
		int64_t id[4];
		int n = read_int_seq(r, val, "id", 0, UINT16_MAX, id, 4);
		if (n < 0)
			return n;
		if (n != 4)
			return reader_fail(r, ev_line(val), "id: needs [bustype, vendor, product, version]");
		dev->bustype = (uint16_t)id[0];
		dev->vendor = (uint16_t)id[1];
		dev->product = (uint16_t)id[2];
		dev->version = (uint16_t)id[3];
		return 0;
	}
	if (key_is(key, "codes") && val->type == YAML_MAPPING_START_EVENT)
		return each_pair(r, dev, code_entry);
	if (key_is(key, "absinfo") && val->type == YAML_MAPPING_START_EVENT)
		return each_pair(r, dev, absinfo_entry);
	if (key_is(key, "properties")) {
		int64_t props[INPUT_PROP_CNT];
		int n = read_int_seq(r, val, "properties", 0, INPUT_PROP_MAX, props, INPUT_PROP_CNT);
		for (int i = 0; i < n; i++)
			set_bit(dev->props, (unsigned int)props[i]);
		return n < 0 ? n : 0;
	}
	/* "absinfo:" with nothing under it */
	if (key_is(key, "absinfo") && val->type == YAML_SCALAR_EVENT && val->data.scalar.length == 0)
		return 0;
	if (key_is(key, "name") || key_is(key, "codes") || key_is(key, "absinfo")) {
		skip_node(r, val);
		return reader_fail(r, ev_line(val), "evdev: unexpected value for %s", scalar(key));
	}
	/* Keys of newer writers. */
	skip_node(r, val);
	return 0;
}

static int
parse_evdev(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *start)
{
	if (start->type != YAML_MAPPING_START_EVENT) {
		skip_node(r, start);
		return reader_fail(r, ev_line(start), "evdev: must be a mapping");
	}
	return each_pair(r, dev, evdev_entry);
}

/* A node rendered as compact YAML flow text, one event at a time. */
struct flow_text {
	char *buf;
	size_t size;
	size_t len;
	int depth;
	bool is_map[TT_JSON_MAX_DEPTH];
	size_t count[TT_JSON_MAX_DEPTH];
};

/* Appends @s whole or not at all: a cut note never ends mid-word. */
static void
flow_append(struct flow_text *ft, const char *s)
{
	size_t n = strlen(s);

	if (ft->len + n < ft->size) {
		memcpy(ft->buf + ft->len, s, n + 1);
		ft->len += n;
	}
}

static void
flow_event(struct flow_text *ft, const yaml_event_t *ev)
{
	enum { MAXD = TT_JSON_MAX_DEPTH };
	bool item = ev->type == YAML_SCALAR_EVENT || ev->type == YAML_SEQUENCE_START_EVENT ||
		    ev->type == YAML_MAPPING_START_EVENT;

	if (item && ft->depth > 0 && ft->depth <= MAXD) {
		size_t c = ft->count[ft->depth - 1]++;
		if (c > 0)
			flow_append(ft, ft->is_map[ft->depth - 1] && c % 2 ? ": " : ", ");
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		flow_append(ft, scalar(ev));
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		flow_append(ft, ev->type == YAML_SEQUENCE_START_EVENT ? "[" : "{");
		if (ft->depth < MAXD) {
			ft->is_map[ft->depth] = ev->type == YAML_MAPPING_START_EVENT;
			ft->count[ft->depth] = 0;
		}
		ft->depth++;
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		flow_append(ft, ev->type == YAML_SEQUENCE_END_EVENT ? "]" : "}");
		ft->depth--;
		break;
	default:
		break;
	}
}

/* Renders a node as compact flow text for a note (bounded), appended to
 * @buf: the YAML flow syntax, so a person reads it as the file had it. */
static int
node_text(struct tt_reader *r, const yaml_event_t *start, char *buf, size_t size)
{
	struct flow_text ft = { .buf = buf, .size = size, .len = strlen(buf) };

	flow_event(&ft, start);
	while (ft.depth > 0) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (next_event(r, &ev) < 0)
			return -EINVAL;
		flow_event(&ft, &ev);
	}
	return 0;
}

static void
add_note(struct tt_reader *r, int64_t device, size_t line, const char *text)
{
	struct li_priv *p = r->priv;

	if (p->nnotes >= MAX_NOTES) {
		reader_warn(r, line, "too many sections without a timeline equivalent; \"%.40s\" is dropped", text);
		return;
	}
	p->notes[p->nnotes++] = (struct note){
		tt_str_sanitize(text, strlen(text), TT_MAX_STRING_BYTES), line, device,
	};
}

/* ---- records ---- */

static int
emit_header(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	p->header_sent = true;
	r->header.version = TT_FORMAT_VERSION;
	if (!r->header.tool)
		r->header.tool = tt_strdup("libinput record");
	r->header.source_format = tt_strdup("libinput-record");
	r->have_header = true;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_HEADER;
	rec->header = &r->header;
	rec->line = 1;
	return 1;
}

static int
emit_device(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct tt_device *dev = steal(&p->dev);

	p->dev_sent = true;
	if (!dev->name)
		dev->name = tt_strdup("");
	tt_device_find_hwdb(dev);
	if (tt_device_has(dev, EV_ABS, ABS_MT_SLOT) && !tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1)) {
		const struct tt_absinfo *a = &dev->abs[ABS_MT_SLOT];
		if (a->minimum != 0 || a->maximum < 0 || a->maximum >= (int32_t)TT_MAX_SLOTS) {
			/* @a points into @dev: the message first. */
			int rc = reader_fail(r, p->dev_line, "ABS_MT_SLOT range [%d, %d] is not 0 to at most %u slots",
					     a->minimum, a->maximum, TT_MAX_SLOTS - 1);
			tt_device_free(dev);
			return rc;
		}
		dev->mt_protocol = TT_MT_B;
		tt_device_set_slots(dev, (uint32_t)a->maximum + 1);
	} else if (!tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1) &&
		   tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X)) {
		dev->mt_protocol = TT_MT_A;
	}
	if (reader_add_device(r, dev) < 0) {
		tt_device_free(dev);
		return reader_fail(r, p->dev_line, "more than %u devices in one file", TT_MAX_DEVICES);
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_DEVICE;
	rec->device = dev;
	rec->line = p->dev_line;
	return 1;
}

static int
emit_note(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct note n = p->notes[0];

	memmove(&p->notes[0], &p->notes[1], (p->nnotes - 1) * sizeof(p->notes[0]));
	p->nnotes--;
	tt_marker_clear(&r->marker);
	r->marker.kind = TT_MARKER_NOTE;
	r->marker.kind_name = tt_strdup("note");
	r->marker.text = n.text;
	r->marker.device = n.device;
	r->marker.time_us = p->last_time;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_MARKER;
	rec->marker = &r->marker;
	rec->line = n.line;
	return 1;
}

static int
emit_frame(struct tt_reader *r, struct tt_record *rec, uint32_t flags)
{
	struct li_priv *p = r->priv;
	struct tt_frame *f = &r->frame;

	/* An unfinished frame's events are still relative to its first
	 * event; the frame's time is its last event's. */
	if ((flags & TT_FRAME_INCOMPLETE) && p->nevents) {
		int32_t last = f->events[p->nevents - 1].dt_us;
		for (uint32_t i = 0; i < p->nevents; i++)
			f->events[i].dt_us -= last;
		p->frame_time += last;
	}
	f->device = p->cur_dev;
	f->time_us = p->frame_time;
	f->nevents = p->nevents;
	f->flags = flags;
	if (p->nevents && f->events[p->nevents - 1].type == EV_SYN &&
	    f->events[p->nevents - 1].code == SYN_DROPPED)
		f->flags |= TT_FRAME_DROPPED;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_FRAME;
	rec->frame = f;
	rec->line = p->frame_line;
	p->nevents = 0;
	return 1;
}

/* One [sec, usec, type, code, value]; 1 when it ends a frame. */
static int
evdev_event(struct tt_reader *r, const yaml_event_t *start)
{
	struct li_priv *p = r->priv;
	int64_t v[5];
	size_t line = ev_line(start);
	int n = read_int_seq(r, start, "evdev event", INT32_MIN, INT64_MAX / 2, v, 5);

	if (n < 0)
		return n;
	if (n != 5)
		return reader_fail(r, line, "an evdev event needs [sec, usec, type, code, value]");
	if (v[0] < 0 || v[0] > TT_MAX_TIME_US / 1000000 || v[1] < 0 || v[1] > 999999)
		return reader_fail(r, line, "evdev event time %" PRId64 ".%06" PRId64 " is out of range", v[0], v[1]);
	if (v[2] > EV_MAX || tt_code_max((unsigned int)v[2]) < 0)
		return reader_fail(r, line, "event type %" PRId64 " is not a valid type", v[2]);
	if (v[3] < 0 || v[3] > tt_code_max((unsigned int)v[2]))
		return reader_fail(r, line, "code %" PRId64 " is out of range for type %" PRId64, v[3], v[2]);
	if (v[4] < INT32_MIN || v[4] > INT32_MAX)
		return reader_fail(r, line, "value %" PRId64 " is not a 32-bit number", v[4]);
	if (p->nevents >= TT_MAX_FRAME_EVENTS) {
		p->nevents = 0;
		return reader_fail(r, line, "a frame of more than %u events (no SYN_REPORT?); its events are dropped",
				   TT_MAX_FRAME_EVENTS);
	}
	int64_t t = v[0] * 1000000 + v[1];
	if (p->nevents == 0) {
		p->frame_line = line;
		p->frame_time = t;
	}
	reader_frame_reserve(r, p->nevents + 1);
	int64_t dt = t - p->frame_time;
	if (dt > INT32_MAX || dt < INT32_MIN)
		return reader_fail(r, line, "events of one frame are more than 35 minutes apart");
	r->frame.events[p->nevents++] = (struct tt_event){
		(uint16_t)v[2], (uint16_t)v[3], (int32_t)v[4], (int32_t)dt,
	};
	p->last_time = t;
	if (v[2] == EV_SYN && (v[3] == SYN_REPORT || v[3] == SYN_DROPPED)) {
		/* The frame's time is its last event's. */
		for (uint32_t i = 0; i < p->nevents; i++)
			r->frame.events[i].dt_us -= (int32_t)dt;
		p->frame_time = t;
		return 1;
	}
	return 0;
}

/* ---- parser states ----
 *
 * One function per state of li_next(). Each gets the event that state
 * reads next (li_next() frees it) and returns 0 to read on, 1 when @rec
 * holds a record, or <0 on an error. */

/* The value of a top-level key this reader does not use: skipped. */
static int
skip_value(struct tt_reader *r)
{
	_cleanup_yaml_event_ yaml_event_t v = { 0 };

	if (next_event(r, &v) == 0)
		skip_node(r, &v);
	return 0;
}

static int
state_start(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_MAPPING_START_EVENT) {
		p->state = LI_TOP;
	} else if (ev->type == YAML_STREAM_END_EVENT) {
		p->state = LI_END;
	} else if (ev->type != YAML_STREAM_START_EVENT && ev->type != YAML_DOCUMENT_START_EVENT) {
		int rc = reader_fail(r, ev_line(ev), "a libinput recording is a YAML mapping (version:, devices:)");
		r->done = true;
		return rc;
	}
	return 0;
}

/* devices: the header goes out before the first device. */
static int
top_devices(struct tt_reader *r, const yaml_event_t *key, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t seq = { 0 };
	int rc;

	if (!p->version_seen) {
		rc = reader_fail(r, ev_line(key), "no \"version: 1\" before the devices");
		r->done = true;
		return rc;
	}
	if (next_event(r, &seq) < 0)
		return -EINVAL;
	if (seq.type != YAML_SEQUENCE_START_EVENT) {
		rc = reader_fail(r, ev_line(&seq), "devices: must be a list");
		skip_node(r, &seq);
		return rc;
	}
	p->state = LI_DEVICES;
	if (!p->header_sent)
		return emit_header(r, rec);
	return 0;
}

static int
top_version(struct tt_reader *r)
{
	struct li_priv *p = r->priv;
	_cleanup_free_ char *s = NULL;
	size_t line;
	int64_t v;
	int rc;

	rc = read_scalar(r, "version", &s, &line);
	if (rc == 0)
		rc = parse_int(r, s, line, "version", 1, INT32_MAX, &v);
	if (rc == 0 && v != 1)
		rc = reader_fail(r, line, "libinput-record version %" PRId64 " is not supported (only 1)", v);
	if (rc < 0) {
		r->done = true;
		return rc;
	}
	p->version_seen = true;
	return 0;
}

static void
set_header_string(char **field, const char *val, size_t len)
{
	free(*field);
	*field = tt_str_sanitize(val, len, TT_MAX_STRING_BYTES);
}

/* system: kernel, os ("ID:VERSION_ID", as libinput record writes
 * os-release's two) and dmi (the DMI modalias) into the header. */
static void
system_pair(struct tt_reader *r, const char *key, const char *val)
{
	struct tt_header *h = &r->header;

	if (strcmp(key, "kernel") == 0) {
		set_header_string(&h->kernel, val, strlen(val));
	} else if (strcmp(key, "dmi") == 0) {
		set_header_string(&h->dmi_modalias, val, strlen(val));
	} else if (strcmp(key, "os") == 0) {
		const char *colon = strchr(val, ':');
		set_header_string(&h->os_id, val, colon ? (size_t)(colon - val) : strlen(val));
		if (colon)
			set_header_string(&h->os_version_id, colon + 1, strlen(colon + 1));
	}
}

/* One "key: value" of libinput: or system:, appended to the note @text;
 * the tool's version and the kernel also go into the header. */
static void
info_pair(struct tt_reader *r, bool is_system, const yaml_event_t *k, const yaml_event_t *v,
	  char *text, size_t size)
{
	if (k->type != YAML_SCALAR_EVENT || v->type != YAML_SCALAR_EVENT) {
		skip_node(r, v);
		return;
	}

	const char *val = scalar(v);
	if (!is_system && strcmp(scalar(k), "version") == 0) {
		char tool[128];
		snprintf(tool, sizeof(tool), "libinput record %.64s", val);
		free(r->header.tool);
		r->header.tool = tt_str_sanitize(tool, strlen(tool), 128);
		set_header_string(&r->header.libinput_version, val, strlen(val));
	} else if (is_system) {
		system_pair(r, scalar(k), val);
	}
	size_t len = strlen(text);
	snprintf(text + len, size - len, " %.64s: %.600s", scalar(k), val);
}

/* Reads the pairs of an info mapping up to its end, or up to a YAML error
 * (the note keeps what was read). */
static void
info_pairs(struct tt_reader *r, bool is_system, char *text, size_t size)
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t k = { 0 };
		_cleanup_yaml_event_ yaml_event_t v = { 0 };

		if (next_event(r, &k) < 0 || k.type == YAML_MAPPING_END_EVENT)
			return;
		if (next_event(r, &v) < 0)
			return;
		info_pair(r, is_system, &k, &v, text, size);
	}
}

/* libinput: and system: have no timeline equivalent but a note. */
static int
top_info(struct tt_reader *r, const yaml_event_t *key)
{
	bool is_system = key_is(key, "system");
	_cleanup_yaml_event_ yaml_event_t m = { 0 };
	char text[1024];

	if (next_event(r, &m) < 0)
		return 0;
	if (m.type != YAML_MAPPING_START_EVENT) {
		skip_node(r, &m);
		return 0;
	}
	snprintf(text, sizeof(text), "libinput-record %s:", is_system ? "system" : "libinput");
	info_pairs(r, is_system, text, sizeof(text));
	add_note(r, -1, ev_line(key), text);
	return 0;
}

static int
state_top(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_MAPPING_END_EVENT) {
		p->state = LI_END;
		return 0;
	}
	if (key_is(ev, "devices"))
		return top_devices(r, ev, rec);
	if (key_is(ev, "version"))
		return top_version(r);
	if (key_is(ev, "libinput") || key_is(ev, "system"))
		return top_info(r, ev);
	/* ndevices and keys of newer writers. */
	if (ev->type == YAML_SCALAR_EVENT)
		return skip_value(r);

	int rc = reader_fail(r, ev_line(ev), "unexpected YAML at the top level");
	skip_node(r, ev);
	return rc;
}

static int
state_devices(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_TOP;
		return 0;
	}
	if (ev->type != YAML_MAPPING_START_EVENT) {
		int rc = reader_fail(r, ev_line(ev), "each device must be a mapping (node:, evdev:, events:)");
		skip_node(r, ev);
		return rc;
	}
	tt_device_free(p->dev);
	p->dev = tt_device_new(p->next_id);
	p->cur_dev = p->next_id++;
	p->dev_sent = false;
	p->dev_line = ev_line(ev);
	p->nevents = 0;
	p->state = LI_DEVICE;
	return 0;
}

/* The end of a device's mapping: its last frame, or the device itself
 * when it had no events. */
static int
device_end(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	p->state = LI_DEVICES;
	if (p->nevents) {
		reader_warn(r, p->frame_line, "the device's last frame has no SYN_REPORT");
		return emit_frame(r, rec, TT_FRAME_INCOMPLETE);
	}
	if (!p->dev_sent)
		return emit_device(r, rec);
	return 0;
}

/* events: the device record goes out before its first frame. */
static int
device_events(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *v, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	if (v->type == YAML_SEQUENCE_START_EVENT) {
		p->state = LI_EVENTS;
		if (p->cur_dev > 0 && !p->warned_order) {
			p->warned_order = true;
			reader_warn(r, ev_line(key), "libinput-record keeps each device's events "
				    "apart: device %u's frames follow the earlier devices' "
				    "instead of being interleaved by time", p->cur_dev);
		}
	} else if (!(v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0)) {
		int rc = reader_fail(r, ev_line(v), "events: must be a list");
		skip_node(r, v);
		return rc;
	}
	if (!p->dev_sent)
		return emit_device(r, rec);
	return 0;
}

/* hid:, udev:, quirks: kept as a note. */
static int
device_note(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *v)
{
	struct li_priv *p = r->priv;
	char text[TT_MAX_STRING_BYTES];
	int rc = 0;

	snprintf(text, sizeof(text), "libinput-record %s: ", scalar(key));
	if (v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0)
		strcat(text, "(empty)");
	else
		rc = node_text(r, v, text, sizeof(text));
	add_note(r, p->cur_dev, ev_line(key), text);
	return rc;
}

/* Calls @fn for each item of the sequence being read, up to its end. */
static int
each_item(struct tt_reader *r, struct tt_device *dev,
	  void (*fn)(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item))
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t item = { 0 };
		if (next_event(r, &item) < 0)
			return -EINVAL;
		if (item.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		fn(r, dev, &item);
	}
}

/* One "NAME=VALUE" of udev: properties:; anything else is left out with
 * a warning. */
static void
udev_property(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item)
{
	_cleanup_free_ char *copy = NULL;
	char *eq;

	if (item->type != YAML_SCALAR_EVENT) {
		reader_warn(r, ev_line(item), "udev: properties: an entry that is not NAME=VALUE; left out");
		skip_node(r, item);
		return;
	}
	copy = tt_strndup(scalar(item), item->data.scalar.length);
	eq = strchr(copy, '=');
	if (eq)
		*eq = '\0';
	if (!eq || tt_properties_add(&dev->udev, &dev->nudev, copy, eq + 1) < 0) {
		_cleanup_free_ char *shown = tt_str_sanitize(scalar(item), item->data.scalar.length, 64);
		reader_warn(r, ev_line(item), "udev: property \"%s\" is not NAME=VALUE with a udev "
			    "name, or one too many; left out", shown);
	}
}

static int
udev_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	if (key_is(key, "properties") && val->type == YAML_SEQUENCE_START_EVENT)
		return each_item(r, dev, udev_property);
	return skip_node(r, val);
}

/* udev: {properties: [NAME=VALUE, ...]}: the device's udev properties
 * (the hwdb overrides among them are told when the device goes out). */
static int
device_udev(struct tt_reader *r, struct tt_device *dev)
{
	dev->has_udev = true;
	return each_pair(r, dev, udev_entry);
}

static void
quirk_line(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item)
{
	if (item->type != YAML_SCALAR_EVENT || tt_device_add_quirk(dev, scalar(item)) < 0) {
		reader_warn(r, ev_line(item), "quirks: an entry that is not a line, or one too many; left out");
		skip_node(r, item);
	}
}

/* quirks: [line, ...], or nothing: libinput matched none. */
static int
device_quirks(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *v)
{
	dev->has_quirks = true;
	return v->type == YAML_SEQUENCE_START_EVENT ? each_item(r, dev, quirk_line) : 0;
}

static bool
is_empty(const yaml_event_t *v)
{
	return v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0;
}

static int
state_device(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t v = { 0 };

	if (ev->type == YAML_MAPPING_END_EVENT)
		return device_end(r, rec);
	if (next_event(r, &v) < 0)
		return -EINVAL;
	if (p->dev_sent && !key_is(ev, "events")) {
		reader_warn(r, ev_line(ev), "device section after its events; ignored");
		skip_node(r, &v);
		return 0;
	}
	if (key_is(ev, "node") && v.type == YAML_SCALAR_EVENT) {
		free(p->dev->node);
		p->dev->node = tt_str_sanitize(scalar(&v), v.data.scalar.length, TT_MAX_STRING_BYTES);
		return 0;
	}
	if (key_is(ev, "evdev")) {
		int rc = parse_evdev(r, p->dev, &v);
		return rc < 0 ? rc : 0;
	}
	if (key_is(ev, "events"))
		return device_events(r, ev, &v, rec);
	if (key_is(ev, "udev") && v.type == YAML_MAPPING_START_EVENT)
		return device_udev(r, p->dev) < 0 ? -EINVAL : 0;
	if (key_is(ev, "quirks") && (v.type == YAML_SEQUENCE_START_EVENT || is_empty(&v)))
		return device_quirks(r, p->dev, &v) < 0 ? -EINVAL : 0;
	if (key_is(ev, "hid") || key_is(ev, "udev") || key_is(ev, "quirks")) {
		int rc = device_note(r, ev, &v);
		return rc < 0 ? rc : 0;
	}
	skip_node(r, &v);
	return 0;
}

static int
state_events(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_DEVICE;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		p->state = LI_ITEM;
	} else {
		int rc = reader_fail(r, ev_line(ev), "each events entry must be \"- evdev:\" or \"- libinput:\"");
		skip_node(r, ev);
		return rc;
	}
	return 0;
}

static int
state_item(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t v = { 0 };
	bool evdev = key_is(ev, "evdev");
	bool li = key_is(ev, "libinput");

	if (ev->type == YAML_MAPPING_END_EVENT) {
		p->state = LI_EVENTS;
		return 0;
	}
	if (next_event(r, &v) < 0)
		return -EINVAL;
	if (!(evdev || li) || v.type != YAML_SEQUENCE_START_EVENT) {
		int rc = reader_fail(r, ev_line(ev), "unknown events entry; expected evdev: or libinput: with a list");
		skip_node(r, &v);
		return rc;
	}
	p->state = evdev ? LI_EVDEV : LI_LIBINPUT;
	return 0;
}

static int
state_evdev(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	int rc;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_ITEM;
		return 0;
	}
	rc = evdev_event(r, ev);
	if (rc > 0)
		return emit_frame(r, rec, 0);
	return rc;
}

/* One value of a libinput: entry: a scalar, or a list whose first two
 * numbers are kept; anything else is skipped. */
static int
entry_value(struct tt_reader *r, const yaml_event_t *v, struct li_entry_value *out)
{
	if (v->type == YAML_SCALAR_EVENT) {
		snprintf(out->text, sizeof(out->text), "%s", scalar(v));
		return 0;
	}
	if (v->type != YAML_SEQUENCE_START_EVENT)
		return skip_node(r, v);
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t item = { 0 };
		char *end;
		if (next_event(r, &item) < 0)
			return -EINVAL;
		if (item.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (item.type != YAML_SCALAR_EVENT) {
			skip_node(r, &item);
			continue;
		}
		double d = strtod(scalar(&item), &end);
		if (!*end && end != scalar(&item) && out->nnum < 2)
			out->num[out->nnum++] = d;
	}
}

/* Reads the rest of one {time:, type:, ...} mapping into @vals. */
static int
read_entry(struct tt_reader *r, struct li_entry_value *vals, size_t *n)
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t k = { 0 };
		_cleanup_yaml_event_ yaml_event_t v = { 0 };
		if (next_event(r, &k) < 0)
			return -EINVAL;
		if (k.type == YAML_MAPPING_END_EVENT)
			return 0;
		if (next_event(r, &v) < 0)
			return -EINVAL;
		if (k.type != YAML_SCALAR_EVENT || *n >= LI_ENTRY_MAX_KEYS) {
			skip_node(r, &k);
			skip_node(r, &v);
			continue;
		}
		struct li_entry_value *e = &vals[(*n)++];
		memset(e, 0, sizeof(*e));
		snprintf(e->key, sizeof(e->key), "%s", scalar(&k));
		if (entry_value(r, &v, e) < 0)
			return -EINVAL;
	}
}

static int
state_libinput(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct li_entry_value vals[LI_ENTRY_MAX_KEYS];
	char text[1024] = "libinput: ";
	size_t n = 0;
	int rc;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_ITEM;
		return 0;
	}
	if (ev->type != YAML_MAPPING_START_EVENT) {
		/* Not an event entry: kept as a note, as the file has it. */
		rc = node_text(r, ev, text, sizeof(text));
		if (rc == 0)
			add_note(r, p->cur_dev, ev_line(ev), text);
		return rc;
	}
	if ((rc = read_entry(r, vals, &n)) < 0)
		return rc;
	if (li_entry_to_event(vals, n, p->last_time, &r->li, text, sizeof(text)) < 0)
		return reader_fail(r, ev_line(ev), "%s", text);
	r->li.device = p->cur_dev;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_LI_EVENT;
	rec->li_event = &r->li;
	rec->line = ev_line(ev);
	return 1;
}

typedef int (*state_fn)(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec);

static const state_fn states[] = {
	[LI_START] = state_start,
	[LI_TOP] = state_top,
	[LI_DEVICES] = state_devices,
	[LI_DEVICE] = state_device,
	[LI_EVENTS] = state_events,
	[LI_ITEM] = state_item,
	[LI_EVDEV] = state_evdev,
	[LI_LIBINPUT] = state_libinput,
};

/* Notes wait for the header, and for the device they belong to. */
static bool
note_due(const struct li_priv *p)
{
	return p->nnotes && p->header_sent &&
	       (p->state == LI_TOP || p->dev_sent || p->state == LI_END);
}

/* The bytes themselves could not be read (a cut or corrupt gzip
 * stream): the rest of the file is lost, which is trouble, not a bad
 * line. */
static bool
stream_failed(const struct tt_reader *r)
{
	return r->lb.error[0] != '\0';
}

static int
li_next(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	for (;;) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		int rc;

		if (note_due(p))
			return emit_note(r, rec);
		if (p->state == LI_END) {
			r->done = true;
			if (!p->header_sent)
				return reader_fail(r, 1, "no libinput-record content (version:, devices:)");
			return 0;
		}
		if (next_event(r, &ev) < 0)
			return stream_failed(r) ? -EIO : -EINVAL;
		rc = states[p->state](r, &ev, rec);
		if (rc < 0 && stream_failed(r))
			return -EIO;
		if (rc != 0)
			return rc;
	}
}

static void
li_destroy(struct tt_reader *r)
{
	struct li_priv *p = r->priv;

	if (!p)
		return;
	if (p->parser_ok)
		yaml_parser_delete(&p->parser);
	tt_device_free(p->dev);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i].text);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops li_ops = {
	.next = li_next,
	.destroy = li_destroy,
};

int
libinput_reader_init(struct tt_reader *r)
{
	struct li_priv *p = tt_zalloc(sizeof(*p));

	if (!yaml_parser_initialize(&p->parser)) {
		free(p);
		return -ENOMEM;
	}
	p->parser_ok = true;
	r->priv = p;
	r->ops = &li_ops;
	yaml_parser_set_input(&p->parser, read_handler, r);
	return 0;
}
