/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "linebuf.h"
#include "util-mem.h"

#define CHUNK (64 * 1024)

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

void
linebuf_prime(struct linebuf *lb, const char *data, size_t len)
{
	ensure_room(lb, len);
	memcpy(lb->buf + lb->len, data, len);
	lb->len += len;
}

static int
fill(struct linebuf *lb)
{
	ssize_t n;

	ensure_room(lb, CHUNK);
	do {
		n = read(lb->fd, lb->buf + lb->len, CHUNK);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		lb->eof = true;
	lb->len += (size_t)n;
	return 0;
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
			*nl = '\0';
			*line = begin;
			*len = n;
			return LINEBUF_LINE;
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
				lb->skipping = false;
				lb->lineno++;
				return LINEBUF_TOO_LONG;
			}
			if (avail == 0)
				return LINEBUF_EOF;
			lb->lineno++;
			ensure_room(lb, 1);
			begin = lb->buf + lb->start;
			begin[avail] = '\0';
			lb->start = lb->len;
			*line = begin;
			*len = avail;
			return LINEBUF_LAST;
		}

		int rc = fill(lb);
		if (rc < 0)
			return rc;
		if (lb->skipping)
			scanned = 0;
	}
}
