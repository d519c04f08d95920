/* SPDX-License-Identifier: MIT */
/* record --guide's state machine (record/guide.h): the keys a person
 * presses give the markers around each exercise, a skipped one has none,
 * 'q' ends it, and the progress counts touches and holds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "guide.h"
#include "test-common.h"

struct seen {
	char log[512];
	int done;
	int fail_at;		/* the marker that fails (1-based), 0: none */
	int nmarkers;
};

static int
on_marker(void *data, bool begin, enum tt_guide_exercise e)
{
	struct seen *s = data;
	size_t len = strlen(s->log);

	s->nmarkers++;
	snprintf(s->log + len, sizeof(s->log) - len, "%s%s:%s", len ? " " : "", begin ? "begin" : "end",
		 tt_guide_exercise_name(e));
	return s->nmarkers == s->fail_at ? -EIO : 0;
}

static void
on_done(void *data)
{
	((struct seen *)data)->done++;
}

static const struct tt_guide_ops ops = { .marker = on_marker, .done = on_done };

static void
test_walk_through(void)
{
	struct seen s = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *tty = open_memstream(&text, &len);
	_cleanup_(tt_guide_freep) struct tt_guide *g = tt_guide_new(TT_GUIDE_TOUCHSCREEN, tty, &ops, &s);

	tt_guide_start(g, 0);
	check_int_eq(tt_guide_key(g, '\n', 1000), 0);	/* stationary begins */
	tt_guide_frame(g, 1, 2000);
	tt_guide_frame(g, 1, 5002000);
	tt_guide_tick(g, 5002000);
	tt_guide_frame(g, 0, 5100000);
	check_int_eq(tt_guide_key(g, '\n', 5200000), 0);	/* ends */
	check_int_eq(tt_guide_key(g, 's', 5300000), 0);		/* line skipped */
	check_int_eq(tt_guide_key(g, '\r', 5400000), 0);	/* edge begins */
	check_int_eq(tt_guide_key(g, 'x', 5500000), 0);		/* ignored */
	check_int_eq(tt_guide_key(g, 's', 5600000), 0);		/* skipped while running: ended */
	check(!tt_guide_finished(g));
	for (int i = 0; i < 6; i++)
		tt_guide_key(g, '\n', 6000000 + i);
	check(tt_guide_finished(g));
	check_int_eq(s.done, 1);
	check_int_eq(tt_guide_key(g, '\n', 7000000), 0);	/* after the end: nothing */
	check_str_eq(s.log, "begin:stationary end:stationary begin:edge end:edge begin:separation "
			    "end:separation begin:tap end:tap begin:contacts end:contacts");
	fclose(tty);
	check_contains(text, "Exercise 1 of 6 (stationary): Hold one finger still in the middle of the screen.");
	check_contains(text, "5.0 s: 1 touch, 1 down now, at most 1, longest hold 5.0 s");
	check_contains(text, "Skipped.");
	check_contains(text, "All done: the recording stops.");
	free(text);
}

static void
test_quit_and_failure(void)
{
	struct seen s = { .fail_at = 2 };
	FILE *tty = fopen("/dev/null", "w");
	_cleanup_(tt_guide_freep) struct tt_guide *g = tt_guide_new(TT_GUIDE_TOUCHPAD, tty, &ops, &s);

	tt_guide_start(g, 0);
	check_int_eq(tt_guide_key(g, '\n', 1), 0);
	/* 'q' while running ends the exercise first; its marker failing is said. */
	check_int_eq(tt_guide_key(g, 'q', 2), -EIO);
	check(tt_guide_finished(g));
	check_int_eq(s.done, 1);
	check_str_eq(s.log, "begin:stationary end:stationary");
	fclose(tty);
}

static void
test_kinds(void)
{
	enum tt_guide_kind k;

	check_int_eq(tt_guide_kind_from_name("touchpad", &k), 0);
	check_int_eq(k, TT_GUIDE_TOUCHPAD);
	check_int_eq(tt_guide_kind_from_name("tablet", &k), -EINVAL);
	check_str_eq(tt_guide_kind_name(TT_GUIDE_TOUCHSCREEN), "touchscreen");
}

int
main(void)
{
	RUN(test_walk_through);
	RUN(test_quit_and_failure);
	RUN(test_kinds);
	return tt_test_result();
}
