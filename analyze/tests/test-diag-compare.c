/* SPDX-License-Identifier: MIT */
/*
 * The comparison diff and replay --verify make of two recordings'
 * anomalies (lib/analysis/diag-tally.h), on the real pass (lib/analysis/detect.h) over
 * hand-made recordings: diff reports every kind whose count changed;
 * --verify only what the delivery has more of than what was written, so
 * a recording's own jumps are never the replay's, fewer is never a
 * finding, and each loop may repeat what the recording has.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>

#include "stack-run.h"
#include "diag-tally.h"
#include "reader.h"
#include "test-common.h"

/* The anomalies of tests/data/analyze/NAME.jsonl, through the pass every
 * command runs. */
static struct tt_diag_tally
tally_of(const char *name)
{
	struct tt_diag_tally t = { 0 };
	struct tt_reader *r = NULL;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/data/analyze/%s.jsonl", tt_test_srcdir(), name);
	check(tt_reader_open(path, &r) == 0);
	if (!r)
		return t;
	check(tt_stack_run(r, NULL, tt_diag_tally_add, &t, NULL) == 0);
	tt_reader_free(r);
	return t;
}

static void
test_diff_counts_changed(void)
{
	struct tt_diag_tally no = tally_of("jump-no"), yes = tally_of("jump-yes");
	enum tt_check kinds[TT_CHECK_COUNT];

	check_int_eq(yes.count[TT_CHECK_JUMP], 1);
	check_int_eq(no.count[TT_CHECK_JUMP], 0);
	check_int_eq(tt_diag_tally_compare(&no, &no, TT_TALLY_CHANGED, 1, NULL, kinds), 0);
	check_int_eq(tt_diag_tally_compare(&no, &yes, TT_TALLY_CHANGED, 1, NULL, kinds), 1);
	check_int_eq(kinds[0], TT_CHECK_JUMP);
	/* Either way round: fewer is a difference too. */
	check_int_eq(tt_diag_tally_compare(&yes, &no, TT_TALLY_CHANGED, 1, NULL, kinds), 1);
	check_int_eq(kinds[0], TT_CHECK_JUMP);

	bool skip[TT_CHECK_COUNT] = { [TT_CHECK_JUMP] = true };
	check_int_eq(tt_diag_tally_compare(&no, &yes, TT_TALLY_CHANGED, 1, skip, kinds), 0);
}

static void
test_verify_blames_only_more(void)
{
	struct tt_diag_tally no = tally_of("jump-no"), yes = tally_of("jump-yes");
	struct tt_diag_tally flicker = tally_of("contact-count-flicker-yes");
	enum tt_check kinds[TT_CHECK_COUNT];

	/* A jump the recording has, delivered again: not the replay's. */
	check_int_eq(tt_diag_tally_compare(&yes, &yes, TT_TALLY_MORE, 1, NULL, kinds), 0);
	/* Written without, delivered with: one new jump. */
	check_int_eq(tt_diag_tally_compare(&no, &yes, TT_TALLY_MORE, 1, NULL, kinds), 1);
	check_int_eq(kinds[0], TT_CHECK_JUMP);
	check_int_eq(tt_diag_tally_excess(&no, &yes, 1, TT_CHECK_JUMP), 1);
	/* Written with, delivered without (the kernel smoothed it): none. */
	check_int_eq(tt_diag_tally_compare(&yes, &no, TT_TALLY_MORE, 1, NULL, kinds), 0);
	check_int_eq(tt_diag_tally_excess(&yes, &no, 1, TT_CHECK_JUMP), 0);
	/* Another kind altogether is new, under its catalog name. */
	check(flicker.count[TT_CHECK_CONTACT_FLICKER] > 0);
	check_int_eq(tt_diag_tally_compare(&no, &flicker, TT_TALLY_MORE, 1, NULL, kinds), 1);
	check_str_eq(tt_check_name(kinds[0]), "contact-count-flicker");
}

static void
test_verify_loops(void)
{
	struct tt_diag_tally written = { 0 }, delivered = { 0 };
	struct tt_diag d;
	enum tt_check kinds[TT_CHECK_COUNT];

	tt_diag_init(&d, TT_CHECK_JUMP, 10, 1000, 0);
	tt_diag_tally_add(&written, &d);
	for (int i = 0; i < 3; i++)
		tt_diag_tally_add(&delivered, &d);
	/* A recording with one jump played three times: three delivered. */
	check_int_eq(tt_diag_tally_compare(&written, &delivered, TT_TALLY_MORE, 3, NULL, kinds), 0);
	check_int_eq(tt_diag_tally_compare(&written, &delivered, TT_TALLY_MORE, 2, NULL, kinds), 1);
	check_int_eq(tt_diag_tally_excess(&written, &delivered, 2, TT_CHECK_JUMP), 1);
}

static void
test_where(void)
{
	struct tt_diag_tally t = { 0 };
	struct tt_diag d;
	char buf[200];

	check_str_eq(tt_diag_tally_where_text(&t, TT_CHECK_JUMP, 0, buf, sizeof(buf)), "");
	tt_diag_init(&d, TT_CHECK_JUMP, 40, 5000, 0);
	tt_diag_tally_add(&t, &d);
	check_str_eq(tt_diag_tally_where_text(&t, TT_CHECK_JUMP, 0, buf, sizeof(buf)), "line 40");
	for (size_t line = 41; line < 50; line++) {
		tt_diag_init(&d, TT_CHECK_JUMP, line, 5000, 0);
		tt_diag_tally_add(&t, &d);
	}
	check_int_eq(t.count[TT_CHECK_JUMP], 10);
	check_str_eq(tt_diag_tally_where_text(&t, TT_CHECK_JUMP, 0, buf, sizeof(buf)),
		     "lines 40, 41, 42, 43, 44, 45, 46, 47, ...");
	/* A live device's have times, from the start of the delivery. */
	tt_diag_init(&d, TT_CHECK_SYN_DROPPED, 0, 1500000, 0);
	tt_diag_tally_add(&t, &d);
	check_str_eq(tt_diag_tally_where_text(&t, TT_CHECK_SYN_DROPPED, 1000000, buf, sizeof(buf)),
		     "at +0.500000 s");
	/* Cut to the buffer, never past it. */
	check_int_eq(strlen(tt_diag_tally_where_text(&t, TT_CHECK_JUMP, 0, buf, 12)), 11);
}

static void
test_kinds(void)
{
	check(tt_check_is_reader(TT_CHECK_BAD_LINE));
	check(tt_check_is_reader(TT_CHECK_READER_WARNING));
	check(!tt_check_is_reader(TT_CHECK_JUMP));
	check(tt_check_is_xi(TT_CHECK_NOT_DELIVERED));
	check(tt_check_is_xi(TT_CHECK_OWNERSHIP_UNRESOLVED));
	check(!tt_check_is_xi(TT_CHECK_SYN_DROPPED));
}

int
main(void)
{
	RUN(test_diff_counts_changed);
	RUN(test_verify_blames_only_more);
	RUN(test_verify_loops);
	RUN(test_where);
	RUN(test_kinds);
	return tt_test_result();
}
