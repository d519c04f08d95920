/* SPDX-License-Identifier: MIT */
/* The line buffer stays bounded by the longest line, whatever the file's
 * length and however lines fall across reads; gzip input (through a pipe,
 * in small pieces) reads as the plain text, a BOM and CRs removed; bad
 * gzip data is an error that says what is wrong, and a gzip bomb costs no
 * more memory than a plain long line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gzip-out.h"
#include "linebuf.h"
#include "test-common.h"

static void
test_bounded(void)
{
	/* Lines of every length from 1 to 300 bytes, 40 MB in all, in a
	 * regular file: reads return whole 64 KiB chunks, and line ends fall
	 * on every offset of them, including exactly on a chunk's end. */
	size_t total = 40u * 1024 * 1024;
	char *text = malloc(total);
	size_t off = 0;
	for (unsigned int i = 0; off < total; i++) {
		size_t n = 1 + i % 300;
		if (off + n > total)
			n = total - off;
		memset(text + off, 'x', n - 1);
		text[off + n - 1] = '\n';
		off += n;
	}
	const char *path = tt_test_tmpfile(text, total);
	free(text);
	int fds[1] = { open(path, O_RDONLY) };
	check(fds[0] >= 0);
	unlink(path);

	struct linebuf lb;
	char *line;
	size_t len, lines = 0, maxcap = 0;
	int st;
	linebuf_init(&lb, fds[0], 4096);
	while ((st = linebuf_next(&lb, &line, &len)) > 0) {
		lines++;
		if (len > 300 || line[len] != '\0')
			tt_test_failures++;
		if (lb.cap > maxcap)
			maxcap = lb.cap;
	}
	check_int_eq(st, 0);
	check(lines > 250000);
	/* One 64 KiB read plus the longest line, rounded up to a power of
	 * two: 128 KiB. It used to double on an off-by-one. */
	check(maxcap <= 128 * 1024);
	fprintf(stderr, "%zu lines, buffer at most %zu bytes\n", lines, maxcap);
	linebuf_release(&lb);
	close(fds[0]);
}

/* @text compressed with gzip, in a temporary file; *len is its size. */
static char *
gzip_text(const char *text, size_t n, size_t *len)
{
	const char *path = tt_test_tmpfile("", 0);
	int fd = open(path, O_RDWR);
	struct tt_gz_out *g = NULL;

	unlink(path);
	check(fd >= 0);
	check_int_eq(tt_gz_out_new(fd, &g), 0);
	check(write(tt_gz_out_fd(g), text, n) == (ssize_t)n);
	check_int_eq(tt_gz_out_finish(g), 0);
	tt_gz_out_free(g);
	*len = (size_t)lseek(fd, 0, SEEK_CUR);
	char *gz = malloc(*len);
	check(pread(fd, gz, *len, 0) == (ssize_t)*len);
	close(fd);
	return gz;
}

/* A pipe that a child fills with @data in @piece-byte writes. */
static int
pipe_feed(const char *data, size_t len, size_t piece)
{
	int p[2];

	check(pipe(p) == 0);
	pid_t pid = fork();
	check(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		for (size_t off = 0; off < len; off += piece) {
			size_t n = len - off < piece ? len - off : piece;
			if (write(p[1], data + off, n) != (ssize_t)n)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void
test_gzip_pipe(void)
{
	/* A BOM, CRLF lines of 0 to 999 bytes, 2 MB in all. */
	size_t cap = 3u * 1024 * 1024, off = 3, nlines = 0;
	char *text = malloc(cap);
	memcpy(text, "\xef\xbb\xbf", 3);
	while (off < 2u * 1024 * 1024) {
		size_t n = (nlines * 7919) % 1000;
		for (size_t i = 0; i < n; i++)
			text[off + i] = (char)('a' + (nlines + i) % 26);
		memcpy(text + off + n, "\r\n", 2);
		off += n + 2;
		nlines++;
	}
	size_t gzlen;
	char *gz = gzip_text(text, off, &gzlen);
	int fd = pipe_feed(gz, gzlen, 1000);

	struct linebuf lb;
	char *line;
	size_t len, got = 0, bad = 0, maxcap = 0;
	int st;
	linebuf_init(&lb, fd, 4096);
	while ((st = linebuf_next(&lb, &line, &len)) == LINEBUF_LINE) {
		size_t n = (got * 7919) % 1000;
		if (len != n || line[len] != '\0' || (n && line[0] != (char)('a' + got % 26)))
			bad++;
		got++;
		if (lb.cap > maxcap)
			maxcap = lb.cap;
	}
	check_int_eq(st, LINEBUF_EOF);
	check_int_eq(got, nlines);
	check_int_eq(bad, 0);
	check_int_eq(lb.lineno, nlines);
	check(maxcap <= 256 * 1024);
	linebuf_release(&lb);
	close(fd);
	wait(NULL);
	free(gz);
	free(text);
}

/* Reads @data to the end; returns the first error, and its line. */
static int
read_error(const char *data, size_t len, size_t *lineno, char *msg, size_t msgsize)
{
	int fd = pipe_feed(data, len, 4096);
	struct linebuf lb;
	char *line;
	size_t n;
	int st;

	linebuf_init(&lb, fd, 4096);
	while ((st = linebuf_next(&lb, &line, &n)) > 0)
		;
	*lineno = lb.lineno;
	snprintf(msg, msgsize, "%s", st < 0 ? linebuf_error(&lb, st) : "");
	linebuf_release(&lb);
	close(fd);
	wait(NULL);
	return st;
}

static void
test_gzip_bad(void)
{
	char text[4096];
	char msg[256];
	size_t gzlen, line;

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = i % 64 == 63 ? '\n' : (char)('0' + i % 10);
	char *gz = gzip_text(text, sizeof(text), &gzlen);

	/* Cut short: every cut of the compressed data after its magic
	 * bytes is an error (one byte is not recognisable as gzip). */
	size_t errors = 0;
	for (size_t cut = 2; cut < gzlen; cut++) {
		if (read_error(gz, cut, &line, msg, sizeof(msg)) == -EBADMSG && strstr(msg, "cut short"))
			errors++;

	}
	check_int_eq(errors, gzlen - 2);
	/* The whole file reads, and the line number of a cut is the line
	 * being read. */
	check_int_eq(read_error(gz, gzlen, &line, msg, sizeof(msg)), 0);
	check_int_eq(line, 64);

	/* Garbage after the magic bytes. */
	check_int_eq(read_error("\x1f\x8bnot deflate at all\n", 22, &line, msg, sizeof(msg)), -EBADMSG);
	check_contains(msg, "not valid gzip data");
	check_int_eq(line, 1);

	/* Garbage after the end: reported, not ignored. */
	char *trail = malloc(gzlen + 8);
	memcpy(trail, gz, gzlen);
	memcpy(trail + gzlen, "garbage\n", 8);
	check_int_eq(read_error(trail, gzlen + 8, &line, msg, sizeof(msg)), -EBADMSG);
	check_contains(msg, "garbage after the end of the gzip data");

	/* Two members (cat a.gz b.gz) read as one text, like gzip -d. */
	char *two = malloc(2 * gzlen);
	memcpy(two, gz, gzlen);
	memcpy(two + gzlen, gz, gzlen);
	check_int_eq(read_error(two, 2 * gzlen, &line, msg, sizeof(msg)), 0);
	check_int_eq(line, 128);
	free(two);
	free(trail);
	free(gz);
}

/* 64 MB of one line, compressed to some 64 KB: skipped as too long with
 * the buffer bounded, the rest of it not handed out as a line. */
static void
test_gzip_bomb(void)
{
	size_t n = 64u * 1024 * 1024, gzlen;
	char *text = malloc(n);
	memcpy(text, "first\n", 6);
	memset(text + 6, 'x', n - 6);
	char *gz = gzip_text(text, n, &gzlen);
	free(text);
	check(gzlen < n / 100);

	int fd = pipe_feed(gz, gzlen, 65536);
	struct linebuf lb;
	char *line;
	size_t len;
	linebuf_init(&lb, fd, 4096);
	check_int_eq(linebuf_next(&lb, &line, &len), LINEBUF_LINE);
	check_str_eq(line, "first");
	check_int_eq(linebuf_next(&lb, &line, &len), LINEBUF_TOO_LONG);
	check_int_eq(lb.lineno, 2);
	check_int_eq(linebuf_next(&lb, &line, &len), LINEBUF_EOF);
	check(lb.cap <= 256 * 1024);
	linebuf_release(&lb);
	close(fd);
	wait(NULL);
	free(gz);
}

int
main(void)
{
	/* A child writing into a pipe the reader stopped reading. */
	signal(SIGPIPE, SIG_IGN);
	RUN(test_bounded);
	RUN(test_gzip_pipe);
	RUN(test_gzip_bad);
	RUN(test_gzip_bomb);
	return tt_test_result();
}
