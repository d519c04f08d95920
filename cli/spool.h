/* SPDX-License-Identifier: MIT */
/*
 * Holding back what a command writes on a descriptor (standard output)
 * until its input is known good: a --device the file lacks or a --from
 * past its end is found only while reading, and by then print and convert
 * would have written a header. The descriptor is pointed at an unlinked
 * temporary file; tt_spool_release() copies what was written to the real
 * target and points the descriptor back at it (whoever holds the number,
 * a FILE or a writer, writes on through it); tt_spool_discard() drops it.
 *
 * Where no temporary file can be made, nothing is held: the writes go
 * straight through, as without a spool.
 */
#pragma once

#include <stdbool.h>

struct tt_spool {
	int fd;		/* the descriptor held */
	int saved;	/* where it pointed before; -1 when not holding */
};

/* Starts holding @fd. Always succeeds (see above). Flush any FILE on @fd
 * before. */
void tt_spool_hold(struct tt_spool *s, int fd);
/* Whether @s holds its descriptor. */
bool tt_spool_holding(const struct tt_spool *s);
/* Writes what was held to the real target and lets writes through. 0 or
 * a negative errno (the target could not be written). Flush any FILE on
 * the descriptor before. A spool not holding: 0. */
int tt_spool_release(struct tt_spool *s);
/* Drops what was held and points the descriptor back. */
void tt_spool_discard(struct tt_spool *s);
