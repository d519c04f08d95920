/* SPDX-License-Identifier: MIT */
/*
 * Every file a command writes (convert -o, analyze --plot, replay --report)
 * goes through here, so that no command can destroy what it reads or leave
 * half a file where a good one was:
 *
 * - an output that is the same file as one of the inputs (same device and
 *   inode: through symlinks and hard links too) is refused;
 * - a regular file is written to a temporary file beside it and renamed
 *   into place, after fsync, only by tt_output_commit(); freeing an output
 *   that was not committed removes the temporary file, and so does
 *   SIGINT, SIGTERM or SIGHUP while it exists;
 * - "-" (or NULL) is standard output, and anything that is not a regular
 *   file (/dev/null, a FIFO) is written in place: there is nothing to
 *   rename there.
 *
 * Messages for people are printed here (tt_error); the functions return 0
 * or a negative errno, and callers exit with TT_EXIT_TROUBLE.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "util-mem.h"

struct tt_output;

/* Opens @path for writing. @inputs is a NULL-terminated list of the
 * paths the command reads ("-" and NULL entries are skipped); -EEXIST
 * when @path is one of them. *out is set only on success. */
int tt_output_open(const char *path, const char *const *inputs, struct tt_output **out);

/* The descriptor to write to; it stays owned by @o. */
int tt_output_fd(const struct tt_output *o);
/* A stdio stream on the same file, created on first use and owned by @o.
 * NULL when it cannot be created (errno says why). */
FILE *tt_output_stream(struct tt_output *o);
/* The name for messages: the path, or "<stdout>". */
const char *tt_output_name(const struct tt_output *o);

/* Flushes, fsyncs and renames the temporary file onto the path. 0 or a
 * negative errno (said on stderr); on failure the previous file is as it
 * was, and the temporary file goes with tt_output_free(). */
int tt_output_commit(struct tt_output *o);

/* Closes @o; an output not committed removes its temporary file. */
void tt_output_free(struct tt_output *o);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_output *, tt_output_free);

/* True when @a and @b name the same existing file (stat(2), so symlinks
 * are followed; hard links share an inode). */
bool tt_same_file(const char *a, const char *b);

/* Refuses (-EEXIST, said on stderr as "OUT is the input file IN") when
 * @path is one of @inputs. Used by tt_output_open() and by record, which
 * writes its file in place. */
int tt_output_check_inputs(const char *path, const char *const *inputs);
