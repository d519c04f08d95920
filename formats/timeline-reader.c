/* SPDX-License-Identifier: MIT */
/*
 * The timeline reader: one json-c parse per line, then every key checked
 * for presence, type and range and copied into plain structs. Nothing
 * outside formats/ sees json-c. This file reads the lines and dispatches
 * each record by its "type" to its kind's parser (lib/model/record-layer.h);
 * each layer's records are parsed in their own file (timeline-device.c,
 * -xi.c, -hid.c, -li.c, -wl.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "json-get.h"
#include "reader-private.h"
#include "record-layer.h"
#include "timeline-fastpath.h"
#include "timeline-reader-private.h"
#include "timeline-surroundings.h"
#include "util-mem.h"
#include "util-strings.h"
#include "xi-names.h"

struct timeline_priv {
	struct json_tokener *tok;
	bool header_seen;
	bool fastpath;	/* off with TT_READER_NO_FASTPATH=1, for tests */
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct json_object *, json_object_put);

/* ---- header ---- */

/* A header being parsed is cleared on every early return. */
static void
header_clearp(struct tt_header *h)
{
	tt_header_clear(h);
}

/* The optional "x_server": {"vendor", "release"}. */
static int
parse_x_server(struct json_object *o, struct tt_header *h, struct jerr *err)
{
	struct json_object *xs;
	int64_t v;
	int rc;

	rc = jget_object(o, "x_server", false, &xs, err);
	if (rc <= 0)
		return rc;
	if ((rc = jget_string(xs, "vendor", false, &h->x_vendor, err)) < 0 ||
	    (rc = jget_int(xs, "release", false, INT32_MIN, INT32_MAX, &v, err)) < 0)
		return rc;
	if (rc > 0)
		h->x_release = (int32_t)v;
	return 0;
}

static int
parse_header(struct tt_reader *r, struct json_object *o, struct jerr *err)
{
	_cleanup_(header_clearp) struct tt_header h = { 0 };
	struct json_object *start;
	_cleanup_free_ char *format = NULL;
	int64_t v;
	int rc;

	if ((rc = jget_string(o, "format", true, &format, err)) < 0)
		return rc;
	if (strcmp(format, TT_FORMAT_NAME) != 0)
		return jerr_set(err, "\"format\" is \"%.64s\", expected \"%s\"", format, TT_FORMAT_NAME);
	if ((rc = jget_int(o, "version", true, 1, INT32_MAX, &v, err)) < 0)
		return rc;
	if (v > TT_FORMAT_VERSION)
		return jerr_set(err, "version %" PRId64 " is newer than this touchtape reads (%d); upgrade touchtape",
				v, TT_FORMAT_VERSION);
	h.version = (int)v;
	if ((rc = jget_object(o, "start", true, &start, err)) < 0 ||
	    (rc = jget_int(start, "monotonic_us", true, 0, TIME_MAX, &h.start_monotonic_us, err)) < 0 ||
	    (rc = jget_int(start, "realtime_us", true, 0, TIME_MAX, &h.start_realtime_us, err)) < 0 ||
	    (rc = jget_string(o, "tool", false, &h.tool, err)) < 0 ||
	    (rc = jget_string(o, "kernel", false, &h.kernel, err)) < 0 ||
	    (rc = jget_string(o, "source_format", false, &h.source_format, err)) < 0 ||
	    (rc = jget_bool(o, "keycodes_masked", false, &h.keycodes_masked, err)) < 0 ||
	    (rc = parse_x_server(o, &h, err)) < 0 ||
	    (rc = timeline_parse_system(o, &h, err)) < 0)
		return rc;
	tt_header_clear(&r->header);
	r->header = h;
	memset(&h, 0, sizeof(h));	/* r->header owns the strings now */
	r->have_header = true;
	return 0;
}

/* ---- frames ---- */

static int
parse_event(struct json_object *e, uint32_t idx, struct tt_event *out, struct jerr *err)
{
	size_t n;
	unsigned int type, code;
	int64_t value, dt = 0;
	char what[48];
	int rc;

	if (!json_object_is_type(e, json_type_array))
		return jerr_set(err, "event %u must be an array [type, code, value]", idx);
	n = json_object_array_length(e);
	if (n < 3 || n > 4)
		return jerr_set(err, "event %u must have 3 or 4 elements, not %zu", idx, n);
	snprintf(what, sizeof(what), "event %u type", idx);
	if ((rc = jval_type(json_object_array_get_idx(e, 0), what, &type, err)) < 0)
		return rc;
	snprintf(what, sizeof(what), "event %u code", idx);
	if ((rc = jval_code(json_object_array_get_idx(e, 1), what, type, &code, err)) < 0)
		return rc;
	snprintf(what, sizeof(what), "event %u value", idx);
	if ((rc = jval_int(json_object_array_get_idx(e, 2), what, INT32_MIN, INT32_MAX, &value, err)) < 0)
		return rc;
	if (n == 4) {
		snprintf(what, sizeof(what), "event %u time offset", idx);
		if ((rc = jval_int(json_object_array_get_idx(e, 3), what, INT32_MIN, INT32_MAX, &dt, err)) < 0)
			return rc;
	}
	*out = (struct tt_event){ (uint16_t)type, (uint16_t)code, (int32_t)value, (int32_t)dt };
	return 0;
}

int
timeline_parse_frame(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_frame *f = &r->frame;
	struct json_object *ev;
	int64_t dev, t;
	bool flag;
	size_t n;
	int rc;

	if ((rc = jget_int(o, "dev", true, 0, UINT32_MAX, &dev, err)) < 0 ||
	    (rc = jget_int(o, "t", true, TIME_MIN, TIME_MAX, &t, err)) < 0 ||
	    (rc = jget_array(o, "ev", true, &ev, err)) < 0)
		return rc;
	if (!reader_find_device(r, (uint32_t)dev))
		return jerr_set(err, "frame for device %" PRId64 ", which no device record declared", dev);
	n = json_object_array_length(ev);
	if (n > TT_MAX_FRAME_EVENTS)
		return jerr_set(err, "a frame of %zu events is over the limit of %u", n, TT_MAX_FRAME_EVENTS);
	reader_frame_reserve(r, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		rc = parse_event(json_object_array_get_idx(ev, i), (uint32_t)i, &f->events[i], err);
		if (rc < 0)
			return rc;
	}
	f->device = (uint32_t)dev;
	f->time_us = t;
	f->nevents = (uint32_t)n;
	f->flags = 0;
	static const struct { const char *key; uint32_t flag; } flags[] = {
		{ "dropped", TT_FRAME_DROPPED },
		{ "resync", TT_FRAME_RESYNC },
		{ "incomplete", TT_FRAME_INCOMPLETE },
	};
	for (size_t i = 0; i < ARRAY_LENGTH(flags); i++) {
		flag = false;
		if ((rc = jget_bool(o, flags[i].key, false, &flag, err)) < 0)
			return rc;
		if (flag)
			f->flags |= flags[i].flag;
	}
	rec->frame = f;
	return 0;
}

/* ---- markers ---- */

int
timeline_parse_marker(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct tt_marker *m = &r->marker;
	int64_t v;
	int rc;

	tt_marker_clear(m);
	if ((rc = jget_int(o, "t", true, TIME_MIN, TIME_MAX, &m->time_us, err)) < 0 ||
	    (rc = jget_string(o, "kind", true, &m->kind_name, err)) < 0 ||
	    (rc = jget_string(o, "text", false, &m->text, err)) < 0)
		return rc;
	m->kind = tt_marker_kind_from_name(m->kind_name);
	if ((rc = jget_int(o, "dev", false, 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	if (rc > 0)
		m->device = v;
	rec->marker = m;
	return 0;
}

/* ---- line dispatch ---- */

static int
parse_record(struct tt_reader *r, struct json_object *o, struct tt_record *rec, struct jerr *err)
{
	struct timeline_priv *p = r->priv;
	const struct tt_record_kind *kind;
	_cleanup_free_ char *type = NULL;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return jerr_set(err, "a record must be a JSON object");

	if (!p->header_seen) {
		rc = parse_header(r, o, err);
		if (rc < 0)
			return rc;
		p->header_seen = true;
		rec->type = TT_RECORD_HEADER;
		rec->header = &r->header;
		return 0;
	}

	if ((rc = jget_string(o, "type", true, &type, err)) < 0)
		return rc;
	kind = tt_record_kind_named(type);
	if (kind && kind->parse) {
		rec->type = kind->type;
		return kind->parse(r, o, rec, err);
	}
	/* Newer writers may add record types; readers skip them. */
	return 1;
}

/* json-c builds the whole line's tree before anything can be checked,
 * and an empty [] or {} costs it a few hundred bytes: a 4 MiB line of
 * them would take a gigabyte. So count the values first (each '[', '{',
 * ',' and ':' outside strings starts at most one) and refuse a line with
 * more than any record needs. */
static const char *
too_many_values(const char *line, size_t len)
{
	size_t values = 1, objects = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		char c = line[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '[' || c == '{' || c == ',' || c == ':')
			values++;
		if (c == '{')
			objects++;
	}
	if (values > TT_MAX_JSON_VALUES)
		return "values";
	if (objects > TT_MAX_JSON_OBJECTS)
		return "objects";
	return NULL;
}

static const char *
tokener_message(struct json_tokener *tok)
{
	return json_tokener_error_desc(json_tokener_get_error(tok));
}

static bool
is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	}
	return true;
}

/* The next line that is not blank (a person may add blank lines): 1 with
 * the line, 0 at the end of the file, negative when it cannot be read. */
static int
next_line(struct tt_reader *r, char **line, size_t *len, bool *last)
{
	struct timeline_priv *p = r->priv;
	int status;

	do {
		status = linebuf_next(&r->lb, line, len);
		if (status < 0) {
			r->done = true;
			reader_fail(r, r->lb.lineno, "%s", linebuf_error(&r->lb, status));
			return -EIO;
		}
		if (status == LINEBUF_EOF) {
			r->done = true;
			if (!p->header_seen)
				return reader_fail(r, r->lb.lineno, "no header: the file holds no records");
			return 0;
		}
		if (status == LINEBUF_TOO_LONG)
			return reader_fail(r, r->lb.lineno, "line longer than %u bytes", TT_MAX_LINE_BYTES);
	} while (is_blank(*line, *len));
	if (*len > INT32_MAX)
		return reader_fail(r, r->lb.lineno, "line too long");
	*last = status == LINEBUF_LAST;
	return 1;
}

/* json-c stops at the end of the first value; only whitespace may follow it. */
static bool
value_ends_line(struct json_tokener *tok, const char *line, size_t len)
{
	size_t end = json_tokener_get_parse_end(tok);

	return end >= len || is_blank(line + end, len - end);
}

/* The line as one JSON value: 1 with it, 0 when the last line of the file
 * is cut short (ignored), negative when it is not one valid value. */
static int
parse_json_line(struct tt_reader *r, const char *line, size_t len, bool last,
		struct json_object **out)
{
	struct timeline_priv *p = r->priv;
	size_t lineno = r->lb.lineno;
	const char *what = too_many_values(line, len);

	if (what)
		return reader_fail(r, lineno, "more JSON %s on one line than a record can have (at most %u values, %u objects)",
				   what, TT_MAX_JSON_VALUES, TT_MAX_JSON_OBJECTS);
	json_tokener_reset(p->tok);
	_cleanup_(json_object_putp) struct json_object *o = json_tokener_parse_ex(p->tok, line, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(p->tok);
	bool fed_end = jerr == json_tokener_continue;

	if (fed_end) {
		/* A partial object: feed the end so the tokener decides (it
		 * may be a complete bare value). */
		o = json_tokener_parse_ex(p->tok, "", 1);
		jerr = json_tokener_get_error(p->tok);
		if (!o && last) {
			reader_warn(r, lineno, "the last line is cut short (recording interrupted?); ignored");
			r->done = true;
			return 0;
		}
	}
	if (jerr != json_tokener_success)
		return reader_fail(r, lineno, "invalid JSON: %s", tokener_message(p->tok));
	if (!o)
		return reader_fail(r, lineno, "a record must be a JSON object, not null");
	/* After the end was fed, the parse end counts in that buffer; the
	 * line itself was all read. */
	if (!fed_end && !value_ends_line(p->tok, line, len))
		return reader_fail(r, lineno, "invalid JSON: more than one value on the line");
	*out = steal(&o);
	return 1;
}

static int
next_record(struct tt_reader *r, struct tt_record *rec)
{
	struct timeline_priv *p = r->priv;

	for (;;) {
		_cleanup_(json_object_putp) struct json_object *o = NULL;
		struct jerr err = { { 0 } };
		char *line;
		size_t len;
		bool last = false;
		int rc = next_line(r, &line, &len, &last);

		if (rc <= 0)
			return rc;
		memset(rec, 0, sizeof(*rec));
		rec->line = r->lb.lineno;
		if (p->fastpath && p->header_seen &&
		    (timeline_fast_frame(r, line, len, rec) || timeline_fast_hid(r, line, len, rec)))
			return 1;
		rc = parse_json_line(r, line, len, last, &o);
		if (rc <= 0)
			return rc;
		rc = parse_record(r, o, rec, &err);
		if (rc < 0)
			return reader_fail(r, r->lb.lineno, "%s", err.msg);
		if (rc == 0)
			return 1;
		/* An unknown record type, skipped. */
	}
}

static int
timeline_next(struct tt_reader *r, struct tt_record *rec)
{
	struct timeline_priv *p = r->priv;
	int rc = next_record(r, rec);

	/* The header says what the lines after it mean: without one they
	 * cannot be read, and an error on each of them would only bury the
	 * one that matters. */
	if (rc < 0 && !p->header_seen && !r->done) {
		size_t n = strlen(r->error);
		snprintf(r->error + n, sizeof(r->error) - n, " (in the header; the rest of the file is not read)");
		r->done = true;
		return -EIO;
	}
	return rc;
}

static void
timeline_destroy(struct tt_reader *r)
{
	struct timeline_priv *p = r->priv;

	if (!p)
		return;
	json_tokener_free(p->tok);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops timeline_ops = {
	.next = timeline_next,
	.destroy = timeline_destroy,
};

int
timeline_reader_init(struct tt_reader *r)
{
	struct timeline_priv *p = tt_zalloc(sizeof(*p));

	p->tok = json_tokener_new_ex(TT_JSON_MAX_DEPTH);
	if (!p->tok) {
		free(p);
		return -ENOMEM;
	}
	/* Strict JSON and valid UTF-8 only: what the writer produces. */
	json_tokener_set_flags(p->tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	const char *nofast = getenv("TT_READER_NO_FASTPATH");
	p->fastpath = !(nofast && strcmp(nofast, "1") == 0);
	r->priv = p;
	r->ops = &timeline_ops;
	return 0;
}
