/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record reader's input and libyaml events: the bytes fed to
 * the parser with their bounds (line length, scalar size, depth), and the
 * small readers of scalars, integers and sequences the states use.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "evnames.h"
#include "libinput-reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- input ---- */

int
li_read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
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

size_t
li_ev_line(const yaml_event_t *ev)
{
	return ev->start_mark.line + 1;
}

/* The next parser event; on a YAML error the file cannot go on. The
 * caller frees @ev (_cleanup_yaml_event_), whatever this returns. */
int
li_next_event(struct tt_reader *r, yaml_event_t *ev)
{
	struct li_priv *p = r->priv;

	if (!yaml_parser_parse(&p->parser, ev))
		return yaml_fail(r);
	p->since_event = 0;
	p->event_line = ev->end_mark.line + 1;
	if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
		if (++p->depth > MAX_DEPTH) {
			r->done = true;
			return reader_fail(r, li_ev_line(ev), "YAML nested more than %d levels deep", MAX_DEPTH);
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
int
li_skip_node(struct tt_reader *r, const yaml_event_t *start)
{
	int depth;

	if (start->type != YAML_SEQUENCE_START_EVENT && start->type != YAML_MAPPING_START_EVENT)
		return 0;
	depth = 1;
	while (depth > 0) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (li_next_event(r, &ev) < 0)
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

const char *
li_scalar(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

bool
li_key_is(const yaml_event_t *ev, const char *key)
{
	return ev->type == YAML_SCALAR_EVENT && strcmp(li_scalar(ev), key) == 0;
}

/* Reads a scalar value; fails on anything else (which is skipped). */
int
li_read_scalar(struct tt_reader *r, const char *what, char **out, size_t *line)
{
	_cleanup_yaml_event_ yaml_event_t ev = { 0 };

	if (li_next_event(r, &ev) < 0)
		return -EINVAL;
	*line = li_ev_line(&ev);
	if (ev.type != YAML_SCALAR_EVENT) {
		int rc = reader_fail(r, li_ev_line(&ev), "%s must be a single value", what);
		li_skip_node(r, &ev);
		return rc;
	}
	*out = tt_strndup(li_scalar(&ev), ev.data.scalar.length);
	return 0;
}

int
li_parse_int(struct tt_reader *r, const char *s, size_t line, const char *what,
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
int
li_read_int_seq(struct tt_reader *r, const yaml_event_t *start, const char *what,
	     int64_t min, int64_t maxv, int64_t *vals, size_t max)
{
	size_t n = 0;
	int rc = 0;

	if (start->type != YAML_SEQUENCE_START_EVENT) {
		rc = reader_fail(r, li_ev_line(start), "%s must be a list of numbers", what);
		li_skip_node(r, start);
		return rc;
	}
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (li_next_event(r, &ev) < 0)
			return -EINVAL;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (ev.type != YAML_SCALAR_EVENT) {
			if (rc == 0)
				rc = reader_fail(r, li_ev_line(&ev), "%s must be a list of numbers", what);
			li_skip_node(r, &ev);
		} else if (n >= max) {
			if (rc == 0)
				rc = reader_fail(r, li_ev_line(&ev), "%s has more than %zu entries", what, max);
		} else if (rc == 0) {
			rc = li_parse_int(r, li_scalar(&ev), li_ev_line(&ev), what, min, maxv, &vals[n]);
			if (rc == 0)
				n++;
		}
		if (r->done)
			return -EINVAL;
	}
	return rc < 0 ? rc : (int)n;
}
