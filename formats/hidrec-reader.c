/* SPDX-License-Identifier: MIT */
/*
 * hid-recorder files (hid-tools' hid-recorder, and the older C
 * hid-recorder) read as HID records: a header, a hid_device per device
 * and a hid record per report.
 *
 *	# comments, ignored (hid-tools writes the decoded descriptor there)
 *	D: 0				which device the lines below are about
 *	R: 215 05 0d 09 02 ...		descriptor: its length, then its bytes in hex
 *	N: Wacom, Inc. MSC Device	name
 *	P: usb-0000:00:1d.0-1.6.2/input0	physical path
 *	I: 3 056a 0221			bus, vendor, product, in hex
 *	E: 000085.391130 8 02 90 e0 ...	seconds.micros, length, bytes in hex
 *
 * Such files are pasted into mail and bug trackers, so a line may come
 * quoted ("> ", any depth), with CRLF ends, or wrapped: an R: or E: line
 * whose bytes fall short of its length goes on over the following lines
 * until it has them all. Every length is checked against the bytes given.
 *
 * Times are the file's own (hid-recorder counts from its start; a file
 * may begin at 85 s): kept as they are, so a round trip gives them back.
 * A device's record goes out before its first report, when the lines
 * switch to another device, or at the end of the file.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* What the file said so far of one device (a D: index). */
struct hidrec_dev {
	char *name;
	char *phys;
	uint16_t bus;
	uint32_t vendor;
	uint32_t product;
	uint8_t *descriptor;	/* NULL until its R: line is complete */
	uint32_t descriptor_len;
	size_t first_line;	/* where it was first mentioned */
	bool dirty;		/* changed since its record went out */
	size_t refused_line;	/* its R: line was refused there (0: not) */
	bool refusal_told;	/* its reports were said to be skipped */
};

/* An R: or E: line being assembled, perhaps over several lines. */
struct hidrec_bytes {
	char tag;		/* 'R' or 'E'; 0 when none */
	size_t line;
	uint32_t declared;
	uint32_t have;
	uint8_t *bytes;
	int64_t time_us;	/* E: */
	uint32_t device;	/* E: */
};

struct hidrec_priv {
	bool header_done;
	bool at_eof;
	bool skip_continuation;	/* after a bad R:/E: line, its wrapped rest */
	uint32_t current;	/* the last D: index */
	struct hidrec_dev *devs[TT_MAX_DEVICES];
	struct hidrec_bytes pend;
	bool report_ready;	/* r->hid_report waits behind its device */
	size_t report_line;
	char *held;		/* a line read ahead, to be read again */
	size_t held_lineno;
};

static void
bytes_reset(struct hidrec_bytes *b)
{
	free(b->bytes);
	memset(b, 0, sizeof(*b));
}

static struct hidrec_dev *dev_get(struct hidrec_priv *p, uint32_t idx, size_t line);

/* An R: or E: line refused: its bytes go, and an R: line's device
 * remembers it, so its reports are not each an error of their own. */
static void
bytes_refused(struct hidrec_priv *p)
{
	struct hidrec_bytes *b = &p->pend;

	if (b->tag == 'R')
		dev_get(p, b->device, b->line)->refused_line = b->line;
	bytes_reset(b);
	p->skip_continuation = true;
}

static void
dev_free(struct hidrec_dev *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->phys);
	free(d->descriptor);
	free(d);
}

static struct hidrec_dev *
dev_get(struct hidrec_priv *p, uint32_t idx, size_t line)
{
	if (!p->devs[idx]) {
		p->devs[idx] = tt_zalloc(sizeof(*p->devs[idx]));
		p->devs[idx]->first_line = line;
	}
	return p->devs[idx];
}

/* ---- records out ---- */

static int
emit_header(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	struct tt_header *h = &r->header;

	tt_header_clear(h);
	h->version = TT_FORMAT_VERSION;
	h->tool = tt_strdup("hid-recorder");
	h->source_format = tt_strdup("hid-recorder");
	r->have_header = true;
	p->header_done = true;
	rec->type = TT_RECORD_HEADER;
	rec->header = h;
	rec->line = 1;
	return 1;
}

static int
emit_device(struct tt_reader *r, uint32_t idx, struct tt_record *rec, size_t line)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_dev *d = p->devs[idx];
	struct tt_hid_device *out = tt_zalloc(sizeof(*out));

	out->id = idx;
	out->name = tt_strdup(d->name ? d->name : "");
	out->phys = d->phys ? tt_strdup(d->phys) : NULL;
	out->bus = d->bus;
	out->vendor = d->vendor;
	out->product = d->product;
	out->descriptor_len = d->descriptor_len;
	out->descriptor = tt_zalloc(d->descriptor_len);
	memcpy(out->descriptor, d->descriptor, d->descriptor_len);
	d->dirty = false;
	if (reader_add_hid_device(r, out) < 0) {
		tt_hid_device_free(out);
		return reader_fail(r, line, "device %u is described again more often than %u times",
				   idx, TT_MAX_DEVICES);
	}
	rec->type = TT_RECORD_HID_DEVICE;
	rec->hid_device = out;
	rec->line = line;
	return 1;
}

static int
emit_report(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;

	p->report_ready = false;
	rec->type = TT_RECORD_HID_REPORT;
	rec->hid_report = &r->hid_report;
	rec->line = p->report_line;
	return 1;
}

/* At the end: each described device whose record is not out yet. 0 when
 * none is left. */
static int
emit_remaining(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;

	for (uint32_t i = 0; i < TT_MAX_DEVICES; i++) {
		struct hidrec_dev *d = p->devs[i];
		if (!d || !d->dirty)
			continue;
		if (!d->descriptor) {
			d->dirty = false;
			if (d->refused_line)
				continue;	/* said at its R: line */
			return reader_fail(r, d->first_line, "device %u has no R: line (report descriptor)", i);
		}
		return emit_device(r, i, rec, d->first_line);
	}
	return 0;
}

/* ---- the bytes of R: and E: lines ---- */

/* Appends the hex bytes of @s to @b; -EINVAL with a message when a token
 * is not a byte or there are more than declared. */
static int
take_bytes(struct tt_reader *r, struct hidrec_bytes *b, const char *s, size_t lineno)
{
	for (;;) {
		size_t n;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return 0;
		n = strcspn(s, " \t");
		if (n > 2 || tt_hex_digit(s[0]) < 0 || (n == 2 && tt_hex_digit(s[1]) < 0))
			return reader_fail(r, lineno, "%c: \"%.*s\" is not a byte (one or two hex digits)",
					   b->tag, (int)(n > 16 ? 16 : n), s);
		if (b->have == b->declared)
			return reader_fail(r, b->line, "%c: declares %u bytes but holds more", b->tag, b->declared);
		b->bytes[b->have++] = (uint8_t)(n == 2 ? tt_hex_digit(s[0]) << 4 | tt_hex_digit(s[1])
					       : tt_hex_digit(s[0]));
		s += n;
	}
}

static int
finish_descriptor(struct tt_reader *r)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_dev *d = dev_get(p, p->pend.device, p->pend.line);

	free(d->descriptor);
	d->descriptor = steal(&p->pend.bytes);
	d->descriptor_len = p->pend.have;
	d->dirty = true;
	bytes_reset(&p->pend);
	return 0;
}

/* A complete E: line: the report, after its device's record if that
 * has to go out first. */
static int
finish_report(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_bytes *b = &p->pend;
	struct hidrec_dev *d = p->devs[b->device];

	if (d && !d->descriptor && d->refused_line) {
		if (!d->refusal_told)
			reader_warn(r, b->line, "the reports of device %u are skipped: its R: line (line %zu) was refused",
				    b->device, d->refused_line);
		d->refusal_told = true;
		bytes_reset(b);
		return 0;
	}
	if (!d || !d->descriptor) {
		int rc = reader_fail(r, b->line, "E: line for device %u before its R: line (report descriptor)",
				     b->device);
		bytes_reset(b);
		return rc;
	}
	tt_hid_report_clear(&r->hid_report);
	r->hid_report = (struct tt_hid_report){
		.device = b->device, .time_us = b->time_us,
		.len = b->have, .data = steal(&b->bytes),
	};
	p->report_line = b->line;
	bytes_reset(b);
	if (d->dirty) {
		p->report_ready = true;
		return emit_device(r, r->hid_report.device, rec, p->report_line);
	}
	return emit_report(r, rec);
}

/* 1 with a record, 0 when the bytes are not all there yet. */
static int
bytes_progress(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;

	if (p->pend.have < p->pend.declared)
		return 0;
	if (p->pend.tag == 'R')
		return finish_descriptor(r);
	return finish_report(r, rec);
}

static int
begin_bytes(struct tt_reader *r, char tag, uint32_t declared, const char *rest,
	    struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_bytes *b = &p->pend;
	int rc;

	b->tag = tag;
	b->line = r->lb.lineno;
	b->declared = declared;
	b->bytes = tt_zalloc(declared);
	b->device = p->current;
	rc = take_bytes(r, b, rest, b->line);
	if (rc < 0) {
		bytes_refused(p);
		return rc;
	}
	return bytes_progress(r, rec);
}

/* ---- numbers ---- */

/* A decimal of 1 to @maxdigits digits; the end, or NULL. */
static const char *
parse_dec(const char *s, unsigned int maxdigits, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int n = 0;

	while (*s >= '0' && *s <= '9' && n < maxdigits) {
		v = v * 10 + (uint64_t)(*s++ - '0');
		n++;
	}
	if (n == 0 || (*s >= '0' && *s <= '9'))
		return NULL;
	*out = v;
	return s;
}

/* A hex number of 1 to @maxdigits digits, then a space or the end. */
static const char *
parse_hexnum(const char *s, unsigned int maxdigits, uint32_t *out)
{
	uint32_t v = 0;
	unsigned int n = 0;

	while (tt_hex_digit(*s) >= 0 && n < maxdigits) {
		v = v << 4 | (uint32_t)tt_hex_digit(*s++);
		n++;
	}
	if (n == 0 || (*s && *s != ' ' && *s != '\t'))
		return NULL;
	*out = v;
	return s;
}

static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* ---- one line per tag ---- */

static int
line_d(struct tt_reader *r, const char *s, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	uint64_t idx;
	const char *end = parse_dec(s, 10, &idx);
	uint32_t was = p->current;

	if (!end || *skip_blanks(end))
		return reader_fail(r, r->lb.lineno, "D: expects a device index, not \"%.32s\"", s);
	if (idx >= TT_MAX_DEVICES)
		return reader_fail(r, r->lb.lineno, "D: device index %" PRIu64 " is out of range (0 to %u)",
				   idx, TT_MAX_DEVICES - 1);
	p->current = (uint32_t)idx;
	/* Leaving a described device: its record goes out now, in the
	 * order the file describes them. */
	if (was != p->current && p->devs[was] && p->devs[was]->dirty && p->devs[was]->descriptor)
		return emit_device(r, was, rec, p->devs[was]->first_line);
	return 0;
}

static int
line_r(struct tt_reader *r, const char *s, struct tt_record *rec)
{
	uint64_t len;
	const char *end = parse_dec(s, 10, &len);

	if (!end || (*end && *end != ' ' && *end != '\t'))
		return reader_fail(r, r->lb.lineno, "R: expects the descriptor's length, then its bytes");
	if (len < 1 || len > TT_MAX_HID_DESCRIPTOR)
		return reader_fail(r, r->lb.lineno, "R: a descriptor of %" PRIu64 " bytes; it must hold 1 to %u",
				   len, TT_MAX_HID_DESCRIPTOR);
	return begin_bytes(r, 'R', (uint32_t)len, end, rec);
}

/* "sec.micros": 1 to 6 digits after the point, as a fraction. */
static const char *
parse_time(const char *s, int64_t *us)
{
	uint64_t sec, frac;
	const char *p = parse_dec(s, 12, &sec);
	const char *end;

	if (!p || *p != '.')
		return NULL;
	end = parse_dec(p + 1, 6, &frac);
	if (!end)
		return NULL;
	for (long digits = end - (p + 1); digits < 6; digits++)
		frac *= 10;
	*us = (int64_t)(sec * 1000000 + frac);
	return end;
}

static int
line_e(struct tt_reader *r, const char *s, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	int64_t t;
	uint64_t len;
	const char *end = parse_time(s, &t);

	if (!end || (*end != ' ' && *end != '\t'))
		return reader_fail(r, r->lb.lineno, "E: expects a time as seconds.microseconds, not \"%.32s\"", s);
	end = parse_dec(skip_blanks(end), 10, &len);
	if (!end || (*end && *end != ' ' && *end != '\t'))
		return reader_fail(r, r->lb.lineno, "E: expects the report's length after its time");
	if (len < 1 || len > TT_MAX_HID_REPORT)
		return reader_fail(r, r->lb.lineno, "E: a report of %" PRIu64 " bytes; it must hold 1 to %u",
				   len, TT_MAX_HID_REPORT);
	p->pend.time_us = t;
	return begin_bytes(r, 'E', (uint32_t)len, end, rec);
}

static int
line_n_p(struct tt_reader *r, char tag, const char *s)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_dev *d = dev_get(p, p->current, r->lb.lineno);
	char **field = tag == 'N' ? &d->name : &d->phys;

	free(*field);
	*field = tt_str_sanitize(s, strlen(s), TT_MAX_STRING_BYTES);
	d->dirty = true;
	return 0;
}

static int
line_i(struct tt_reader *r, const char *s)
{
	struct hidrec_priv *p = r->priv;
	uint32_t v[3];
	const char *q = s;

	for (size_t i = 0; i < 3; i++) {
		q = parse_hexnum(skip_blanks(q), i == 0 ? 4 : 8, &v[i]);
		if (!q)
			return reader_fail(r, r->lb.lineno, "I: expects bus, vendor and product in hex, not \"%.40s\"", s);
	}
	if (*skip_blanks(q))
		return reader_fail(r, r->lb.lineno, "I: expects bus, vendor and product in hex, not \"%.40s\"", s);
	struct hidrec_dev *d = dev_get(p, p->current, r->lb.lineno);
	d->bus = (uint16_t)v[0];
	d->vendor = v[1];
	d->product = v[2];
	d->dirty = true;
	return 0;
}

/* ---- lines ---- */

/* The line without what mail and trackers add: "> " quotes at any depth,
 * a CR, and blanks at either end, except at the end of a name or a
 * physical path (N:, P:), which may end in a blank of its own. */
static char *
clean_line(char *line, size_t len)
{
	char *start = line;

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	while (*start == ' ' || *start == '\t' || *start == '>')
		start++;
	if ((start[0] == 'N' || start[0] == 'P') && start[1] == ':')
		return start;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		line[--len] = '\0';
	return start;
}

/* "X:" followed by a blank or the end: the tag, else 0. */
static char
line_tag(const char *s)
{
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] == ':' && (s[2] == ' ' || s[2] == '\t' || s[2] == '\0'))
		return s[0];
	return 0;
}

static int
dispatch_tag(struct tt_reader *r, char tag, const char *rest, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;

	/* hid-tools' "N: {name}": one blank after the colon, the rest is the value. */
	if (*rest == ' ' || *rest == '\t')
		rest++;
	p->skip_continuation = false;
	switch (tag) {
	case 'D': return line_d(r, rest, rec);
	case 'R': return line_r(r, rest, rec);
	case 'E': return line_e(r, rest, rec);
	case 'N':
	case 'P': return line_n_p(r, tag, rest);
	case 'I': return line_i(r, rest);
	}
	reader_warn(r, r->lb.lineno, "unknown line type \"%c:\"; ignored", tag);
	return 0;
}

/* The next line to look at: 1 with it, 0 at the end, negative on a read
 * error or an over-long line. */
static int
next_line(struct tt_reader *r, char **line)
{
	struct hidrec_priv *p = r->priv;
	size_t len;
	int status;

	if (p->held) {
		*line = p->held;	/* the caller frees it through p->held */
		r->lb.lineno = p->held_lineno;
		return 1;
	}
	status = linebuf_next(&r->lb, line, &len);
	if (status < 0) {
		/* The input ends here: -EIO tells the caller so. */
		r->done = true;
		reader_fail(r, r->lb.lineno, "%s", linebuf_error(&r->lb, status));
		return -EIO;
	}
	if (status == LINEBUF_EOF)
		return 0;
	if (status == LINEBUF_TOO_LONG)
		return reader_fail(r, r->lb.lineno, "line longer than %u bytes", TT_MAX_LINE_BYTES);
	*line = clean_line(*line, len);
	return 1;
}

/* An R: or E: line still short of bytes when something else comes: the
 * line was cut. The line that came is read again next time. */
static int
pending_cut(struct tt_reader *r, const char *line)
{
	struct hidrec_priv *p = r->priv;
	struct hidrec_bytes *b = &p->pend;
	size_t lineno = r->lb.lineno;
	int rc = reader_fail(r, b->line, "%c: declares %u bytes but holds %u (a line cut short?)",
			     b->tag, b->declared, b->have);

	bytes_refused(p);
	if (line && !p->held) {
		p->held = tt_strdup(line);
		p->held_lineno = lineno;
	}
	return rc;
}

/* One line: 1 with a record, 0 for none, negative on an error. */
static int
handle_line(struct tt_reader *r, char *line, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;
	char tag = line_tag(line);

	if (p->pend.tag && (tag || line[0] == '#'))
		return pending_cut(r, line);
	if (line[0] == '\0' || line[0] == '#')
		return 0;
	if (tag)
		return dispatch_tag(r, tag, line + 2, rec);
	if (p->pend.tag) {
		int rc = take_bytes(r, &p->pend, line, r->lb.lineno);
		if (rc < 0) {
			bytes_refused(p);
			return rc;
		}
		return bytes_progress(r, rec);
	}
	if (!p->skip_continuation)
		reader_warn(r, r->lb.lineno, "not a hid-recorder line; ignored");
	return 0;
}

static int
hidrec_next(struct tt_reader *r, struct tt_record *rec)
{
	struct hidrec_priv *p = r->priv;

	memset(rec, 0, sizeof(*rec));
	if (!p->header_done)
		return emit_header(r, rec);
	if (p->report_ready)
		return emit_report(r, rec);
	while (!p->at_eof) {
		_cleanup_free_ char *held = NULL;
		char *line;
		int rc = next_line(r, &line);

		if (rc < 0)
			return rc;
		if (rc == 0) {
			p->at_eof = true;
			if (p->pend.tag)
				return pending_cut(r, NULL);
			break;
		}
		held = steal(&p->held);
		rc = handle_line(r, line, rec);
		if (rc != 0)
			return rc;
	}
	int rc = emit_remaining(r, rec);
	if (rc == 0)
		r->done = true;
	return rc;
}

static void
hidrec_destroy(struct tt_reader *r)
{
	struct hidrec_priv *p = r->priv;

	if (!p)
		return;
	for (size_t i = 0; i < TT_MAX_DEVICES; i++)
		dev_free(p->devs[i]);
	bytes_reset(&p->pend);
	free(p->held);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops hidrec_ops = {
	.next = hidrec_next,
	.destroy = hidrec_destroy,
};

int
hidrec_reader_init(struct tt_reader *r)
{
	r->priv = tt_zalloc(sizeof(struct hidrec_priv));
	r->ops = &hidrec_ops;
	return 0;
}
