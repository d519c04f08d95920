/* SPDX-License-Identifier: MIT */
/*
 * Compressed output for convert: `-o x.jsonl.gz` (or .evemu.gz, .yml.gz)
 * writes gzip, decided by the name; reading needs no name, the readers
 * recognise gzip by its magic bytes (formats/linebuf.h).
 *
 * The writers keep writing plain text to a file descriptor: the one
 * tt_gz_out_fd() returns, an unlinked temporary file. tt_gz_out_finish()
 * then compresses it into the destination, so memory stays bounded and
 * the writers need not know.
 *
 *	_cleanup_(tt_gz_out_freep) struct tt_gz_out *gz = NULL;
 *	tt_gz_out_new(fd, &gz);
 *	tt_writer_new(tt_gz_out_fd(gz), &w);
 *	...
 *	tt_gz_out_finish(gz);
 */
#pragma once

#include <stdbool.h>

#include "util-mem.h"

struct tt_gz_out;

/* True when @path names a gzip file (ends in ".gz"). */
bool tt_gz_path(const char *path);

/* Does not take ownership of @dest_fd. 0 or a negative errno. */
int tt_gz_out_new(int dest_fd, struct tt_gz_out **out);
/* Where the writers write the plain text; owned by @g. */
int tt_gz_out_fd(const struct tt_gz_out *g);
/* Compresses everything written so far into the destination. 0 or a
 * negative errno (a write error on the destination, -ENOSPC...). */
int tt_gz_out_finish(struct tt_gz_out *g);
void tt_gz_out_free(struct tt_gz_out *g);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_gz_out *, tt_gz_out_free);
