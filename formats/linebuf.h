/* SPDX-License-Identifier: MIT */
/*
 * Reads a file descriptor line by line with a bounded buffer: a line
 * longer than the limit is reported and skipped, never buffered whole.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct linebuf {
	int fd;
	char *buf;
	size_t cap;		/* allocated */
	size_t len;		/* valid bytes in buf */
	size_t start;		/* first byte of the next line */
	size_t max_line;
	size_t lineno;		/* number of the line last returned */
	bool eof;
	bool skipping;		/* discarding the rest of an over-long line */
};

enum linebuf_status {
	LINEBUF_LINE = 1,	/* a whole line, newline removed */
	LINEBUF_EOF = 0,
	LINEBUF_LAST = 2,	/* the last line, without a newline */
	LINEBUF_TOO_LONG = 3,	/* a line over max_line: skipped */
};

void linebuf_init(struct linebuf *lb, int fd, size_t max_line);
void linebuf_release(struct linebuf *lb);
/* Lets the caller hand back bytes it already read (format detection). */
void linebuf_prime(struct linebuf *lb, const char *data, size_t len);

/* Returns an enum linebuf_status, or -errno on a read error. *line points
 * into the buffer and stays valid until the next call; it is
 * NUL-terminated at *len. */
int linebuf_next(struct linebuf *lb, char **line, size_t *len);
