/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "linebuf.h"
#include "util-mem.h"

#define CHUNK (64 * 1024)

/* Compressed bytes wait in a fixed buffer and come out CHUNK at a time,
 * so a gzip bomb costs time, never memory: the line limit applies to
 * what it inflates to, as to any plain file. */
struct linebuf_gz {
	z_stream z;
	unsigned char in[CHUNK];
	bool member_end;	/* a gzip member ended; another may follow */
};

void
linebuf_init(struct linebuf *lb, int fd, size_t max_line)
{
	memset(lb, 0, sizeof(*lb));
	lb->fd = fd;
	lb->max_line = max_line;
}

void
linebuf_release(struct linebuf *lb)
{
	free(lb->buf);
	lb->buf = NULL;
	lb->cap = lb->len = lb->start = 0;
	if (lb->gz) {
		inflateEnd(&lb->gz->z);
		free(lb->gz);
		lb->gz = NULL;
	}
}

static void
ensure_room(struct linebuf *lb, size_t want)
{
	if (lb->start > 0 && (lb->start >= lb->len || lb->cap - lb->len < want + 1)) {
		memmove(lb->buf, lb->buf + lb->start, lb->len - lb->start);
		lb->len -= lb->start;
		lb->start = 0;
	}
	if (lb->cap - lb->len < want + 1) {
		size_t ncap = lb->cap ? lb->cap : CHUNK;
		while (ncap - lb->len < want + 1)
			ncap *= 2;
		lb->buf = tt_reallocarray(lb->buf, ncap, 1);
		lb->cap = ncap;
	}
}

static ssize_t
read_fd(int fd, void *buf, size_t size)
{
	ssize_t n;

	do {
		n = read(fd, buf, size);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

__attribute__((format(printf, 2, 3)))
static int
gz_fail(struct linebuf *lb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lb->error, sizeof(lb->error), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* Inflates up to @size bytes: >0, 0 at the end of the last member, or a
 * negative errno (-EBADMSG: lb->error says what is wrong). */
static ssize_t
gz_read(struct linebuf *lb, unsigned char *out, size_t size)
{
	struct linebuf_gz *gz = lb->gz;

	gz->z.next_out = out;
	gz->z.avail_out = (uInt)size;
	while (gz->z.avail_out == size) {
		if (gz->z.avail_in == 0) {
			ssize_t n = read_fd(lb->fd, gz->in, sizeof(gz->in));
			if (n < 0)
				return n;
			if (n == 0 && gz->member_end)
				return 0;
			if (n == 0)
				return gz_fail(lb, "the gzip data is cut short (truncated file?)");
			gz->z.next_in = gz->in;
			gz->z.avail_in = (uInt)n;
		}
		bool next_member = gz->member_end;
		if (next_member) {
			/* Concatenated .gz files read as one, like gzip -d. */
			inflateReset(&gz->z);
			gz->member_end = false;
		}
		int zrc = inflate(&gz->z, Z_NO_FLUSH);
		if (zrc == Z_STREAM_END)
			gz->member_end = true;
		else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return gz_fail(lb, "%s (%s)", next_member ? "garbage after the end of the gzip data" : "not valid gzip data",
				       gz->z.msg ? gz->z.msg : "zlib error");
	}
	return (ssize_t)(size - gz->z.avail_out);
}

/* The first read of the stream: gzip magic switches to inflating. */
static ssize_t
start_source(struct linebuf *lb, unsigned char *out, size_t size)
{
	size_t got = 0;

	lb->started = true;
	while (got < 2) {
		ssize_t n = read_fd(lb->fd, out + got, size - got);
		if (n <= 0) {
			if (n < 0)
				return n;
			break;
		}
		got += (size_t)n;
	}
	if (got < 2 || out[0] != 0x1f || out[1] != 0x8b)
		return (ssize_t)got;

	struct linebuf_gz *gz = tt_zalloc(sizeof(*gz));
	if (inflateInit2(&gz->z, 16 + MAX_WBITS) != Z_OK) {
		free(gz);
		return -ENOMEM;
	}
	memcpy(gz->in, out, got);
	gz->z.next_in = gz->in;
	gz->z.avail_in = (uInt)got;
	lb->gz = gz;
	return gz_read(lb, out, size);
}

static ssize_t
source_read(struct linebuf *lb, unsigned char *out, size_t size)
{
	if (!lb->started)
		return start_source(lb, out, size);
	if (lb->gz)
		return gz_read(lb, out, size);
	return read_fd(lb->fd, out, size);
}

/* A byte order mark can only be at the very start of the text. */
static void
check_bom(struct linebuf *lb)
{
	if (lb->bom_checked || (lb->len - lb->start < 3 && !lb->eof))
		return;
	lb->bom_checked = true;
	if (lb->lineno == 0 && lb->start == 0 && lb->len >= 3 && memcmp(lb->buf, "\xef\xbb\xbf", 3) == 0)
		lb->start = 3;
}

static int
fill(struct linebuf *lb)
{
	ssize_t n;

	ensure_room(lb, CHUNK);
	n = source_read(lb, (unsigned char *)lb->buf + lb->len, CHUNK);
	if (n < 0)
		return (int)n;
	if (n == 0)
		lb->eof = true;
	lb->len += (size_t)n;
	check_bom(lb);
	return 0;
}

int
linebuf_peek(struct linebuf *lb, size_t want, const char **data, size_t *len)
{
	if (!lb->buf)
		ensure_room(lb, 1);
	while (!lb->eof && (lb->len - lb->start < want || !lb->bom_checked)) {
		int rc = fill(lb);
		if (rc < 0)
			return rc;
	}
	*data = lb->buf + lb->start;
	*len = lb->len - lb->start;
	return 0;
}

ssize_t
linebuf_read(struct linebuf *lb, void *buf, size_t size)
{
	size_t n;

	if (!lb->buf)
		ensure_room(lb, 1);
	while (lb->start >= lb->len && !lb->eof) {
		int rc = fill(lb);
		if (rc < 0)
			return rc;
	}
	n = lb->len - lb->start;
	if (n > size)
		n = size;
	memcpy(buf, lb->buf + lb->start, n);
	lb->start += n;
	return (ssize_t)n;
}

const char *
linebuf_error(struct linebuf *lb, int status)
{
	if (status == -EBADMSG && lb->error[0])
		return lb->error;
	snprintf(lb->error, sizeof(lb->error), "read error: %s", strerror(-status));
	return lb->error;
}

/* Hands out @n bytes at @begin as a line, without the CR of a CRLF. */
static int
emit(struct linebuf *lb, char *begin, size_t n, char **line, size_t *len, int status)
{
	if (n && begin[n - 1] == '\r')
		n--;
	begin[n] = '\0';
	*line = begin;
	*len = n;
	return status;
}

int
linebuf_next(struct linebuf *lb, char **line, size_t *len)
{
	size_t scanned = 0;

	if (!lb->buf)
		ensure_room(lb, 1);
	for (;;) {
		char *begin = lb->buf + lb->start;
		size_t avail = lb->len - lb->start;
		char *nl = avail > scanned ? memchr(begin + scanned, '\n', avail - scanned) : NULL;

		if (nl) {
			size_t n = (size_t)(nl - begin);
			lb->start += n + 1;
			lb->lineno++;
			if (lb->skipping || n > lb->max_line) {
				lb->skipping = false;
				return LINEBUF_TOO_LONG;
			}
			return emit(lb, begin, n, line, len, LINEBUF_LINE);
		}
		scanned = avail;

		if (avail > lb->max_line) {
			/* Drop what we have of the over-long line and keep
			 * discarding until its newline. */
			lb->skipping = true;
			lb->start = lb->len;
			scanned = 0;
		}

		if (lb->eof) {
			if (lb->skipping) {
				/* The rest of the over-long last line goes too,
				 * or the next call would hand it out as a line. */
				lb->skipping = false;
				lb->start = lb->len;
				lb->lineno++;
				return LINEBUF_TOO_LONG;
			}
			if (avail == 0)
				return LINEBUF_EOF;
			lb->lineno++;
			ensure_room(lb, 1);
			begin = lb->buf + lb->start;
			lb->start = lb->len;
			return emit(lb, begin, avail, line, len, LINEBUF_LAST);
		}

		int rc = fill(lb);
		if (rc < 0) {
			lb->lineno++;	/* the line being read */
			return rc;
		}
		if (lb->skipping)
			scanned = 0;
	}
}
