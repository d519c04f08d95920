/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gzip-out.h"
#include "util-io.h"

#define CHUNK (64 * 1024)

struct tt_gz_out {
	int dest;
	FILE *plain;	/* unlinked temporary file */
};

bool
tt_gz_path(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

int
tt_gz_out_new(int dest_fd, struct tt_gz_out **out)
{
	struct tt_gz_out *g = tt_zalloc(sizeof(*g));

	g->dest = dest_fd;
	g->plain = tmpfile();
	if (!g->plain) {
		int rc = -errno;
		free(g);
		return rc;
	}
	*out = g;
	return 0;
}

int
tt_gz_out_fd(const struct tt_gz_out *g)
{
	return fileno(g->plain);
}

/* Deflates @len bytes of @in (0 with Z_FINISH at the end) and writes
 * what comes out. */
static int
deflate_chunk(z_stream *z, int dest, unsigned char *in, size_t len, int flush)
{
	unsigned char out[CHUNK];

	z->next_in = in;
	z->avail_in = (uInt)len;
	do {
		z->next_out = out;
		z->avail_out = sizeof(out);
		if (deflate(z, flush) == Z_STREAM_ERROR)
			return -EINVAL;
		int rc = tt_write_all(dest, out, sizeof(out) - z->avail_out);
		if (rc < 0)
			return rc;
	} while (z->avail_out == 0);
	return 0;
}

static int
compress_file(int src, int dest)
{
	_cleanup_free_ unsigned char *in = tt_zalloc(CHUNK);
	z_stream z = { 0 };
	ssize_t n;
	int rc = 0;

	/* 16 + MAX_WBITS: a gzip header and trailer, not zlib's. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	do {
		do {
			n = read(src, in, CHUNK);
		} while (n < 0 && errno == EINTR);
		if (n < 0) {
			rc = -errno;
			break;
		}
		rc = deflate_chunk(&z, dest, in, (size_t)n, n == 0 ? Z_FINISH : Z_NO_FLUSH);
	} while (rc == 0 && n > 0);
	deflateEnd(&z);
	return rc;
}

int
tt_gz_out_finish(struct tt_gz_out *g)
{
	if (fflush(g->plain) != 0 || lseek(fileno(g->plain), 0, SEEK_SET) < 0)
		return -errno;
	return compress_file(fileno(g->plain), g->dest);
}

void
tt_gz_out_free(struct tt_gz_out *g)
{
	if (!g)
		return;
	if (g->plain)
		fclose(g->plain);
	free(g);
}
