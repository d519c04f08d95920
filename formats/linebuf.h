/* SPDX-License-Identifier: MIT */
/*
 * Reads a file descriptor line by line with a bounded buffer: a line
 * longer than the limit is reported and skipped, never buffered whole.
 *
 * What every format shares about text files lives here, so no reader
 * has to know: gzip-compressed input (recognised by its magic bytes, not
 * its name, so pipes work too) is inflated on the fly in fixed-size
 * pieces, a UTF-8 byte order mark at the start is dropped, and the CR of
 * a CRLF line end is removed.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct linebuf_gz;

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
	bool started;		/* the first bytes were looked at (gzip magic) */
	bool bom_checked;
	struct linebuf_gz *gz;	/* inflating, or NULL for plain text */
	char error[160];	/* why the last call failed */
};

enum linebuf_status {
	LINEBUF_LINE = 1,	/* a whole line, newline removed */
	LINEBUF_EOF = 0,
	LINEBUF_LAST = 2,	/* the last line, without a newline */
	LINEBUF_TOO_LONG = 3,	/* a line over max_line: skipped */
};

void linebuf_init(struct linebuf *lb, int fd, size_t max_line);
/* Frees the buffer and the inflate state; does not close the fd. */
void linebuf_release(struct linebuf *lb);

/* Reads ahead until @want bytes are buffered or the input ends, without
 * consuming them: *data and *len show what is there (decompressed, the
 * byte order mark removed). 0 or -errno. */
int linebuf_peek(struct linebuf *lb, size_t want, const char **data, size_t *len);

/* Returns an enum linebuf_status, or -errno on a read error (then
 * linebuf_error() says what; lineno is the line being read). *line
 * points into the buffer and stays valid until the next call; it is
 * NUL-terminated at *len. A CR before the newline is removed. */
int linebuf_next(struct linebuf *lb, char **line, size_t *len);

/* For parsers that want bytes, not lines (libyaml): the buffered bytes
 * first, then the input, decompressed. >0, 0 at the end, or -errno. */
ssize_t linebuf_read(struct linebuf *lb, void *buf, size_t size);

/* What the error @status of the last call means, for a message:
 * "read error: ..." or what is wrong with the gzip data. */
const char *linebuf_error(struct linebuf *lb, int status);
