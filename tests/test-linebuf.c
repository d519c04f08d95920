/* SPDX-License-Identifier: MIT */
/* The line buffer stays bounded by the longest line, whatever the file's
 * length and however lines fall across reads. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

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

int
main(void)
{
	RUN(test_bounded);
	return tt_test_result();
}
