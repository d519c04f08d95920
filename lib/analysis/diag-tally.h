/* SPDX-License-Identifier: MIT */
/*
 * The diagnostics of one recording counted per kind, with where the first
 * few of each kind were: what diff and replay --verify compare between two
 * recordings that went through the same pass (detect.h). A kind is the
 * catalog's (diag.h), so both commands report a difference under the name
 * validate and analyze use. Pure and allocation-free.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Places kept per kind: enough to find them in the file; the count is
 * always whole. */
#define TT_TALLY_WHERE 8

struct tt_diag_where {
	size_t line;		/* 0: no line (a whole file, a live device) */
	int64_t time_us;	/* -1: none */
};

struct tt_diag_tally {
	uint64_t count[TT_CHECK_COUNT];
	struct tt_diag_where where[TT_CHECK_COUNT][TT_TALLY_WHERE];
};

/* A tt_diag_fn: counts @d into @tally (a struct tt_diag_tally). */
void tt_diag_tally_add(void *tally, const struct tt_diag *d);

enum tt_tally_mode {
	/* Every kind whose count differs: diff's two recordings. */
	TT_TALLY_CHANGED,
	/* Kinds @b has more of than @a times @a_times: replay --verify, where
	 * @a is the recording (played @a_times times) and @b what the kernel
	 * delivered; what the recording already had is not the replay's. */
	TT_TALLY_MORE,
};

/* The kinds (in catalog order) that differ between @a and @b under
 * @mode, written to @out (room for TT_CHECK_COUNT); returns how many.
 * Kinds with @skip[kind] set (may be NULL) are not compared. */
size_t tt_diag_tally_compare(const struct tt_diag_tally *a, const struct tt_diag_tally *b,
			     enum tt_tally_mode mode, uint64_t a_times, const bool *skip,
			     enum tt_check *out);

/* How many of @kind @b has beyond @a times @a_times (0 when not more). */
uint64_t tt_diag_tally_excess(const struct tt_diag_tally *a, const struct tt_diag_tally *b,
			      uint64_t a_times, enum tt_check kind);

/* "line 40", "lines 40, 52, ..." ("+1.250000 s" for places without a
 * line, times relative to @origin_us) into @buf; "" when none. */
const char *tt_diag_tally_where_text(const struct tt_diag_tally *t, enum tt_check kind,
				     int64_t origin_us, char *buf, size_t size);

/* The kinds about the file rather than its events (bad-line,
 * reader-warning): a recording and its replay or conversion differ in
 * them by nature, and unreadable lines are trouble of their own. */
bool tt_check_is_reader(enum tt_check kind);
/* The kinds about XI events and their link to the kernel's. */
bool tt_check_is_xi(enum tt_check kind);
