/* SPDX-License-Identifier: MIT */
/* record --guide: the exercises, their prompts and progress (guide.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "guide.h"

struct exercise {
	enum tt_guide_exercise id;
	const char *what[2];	/* touchscreen, touchpad */
	const char *target;	/* when it is done */
};

static const struct exercise exercises[] = {
	{ TT_GUIDE_STATIONARY,
	  { "Hold one finger still in the middle of the screen.",
	    "Hold one finger still in the middle of the touchpad." },
	  "5 s held, then lift it" },
	{ TT_GUIDE_LINE,
	  { "Draw a straight line from one corner to the opposite one, then back (a ruler helps).",
	    "Draw a straight line from one corner to the opposite one, then back (a ruler helps)." },
	  "two strokes" },
	{ TT_GUIDE_EDGE,
	  { "Slide a finger along each of the four edges, as close to the edge as you can.",
	    "Slide a finger along each of the four edges, as close to the edge as you can." },
	  "four strokes" },
	{ TT_GUIDE_SEPARATION,
	  { "Put two fingers down apart and move them together until they touch.",
	    "Put two fingers down apart and move them together until they touch." },
	  "two fingers, then one" },
	{ TT_GUIDE_TAP,
	  { "Tap ten times, anywhere.", "Tap ten times, anywhere." },
	  "ten taps" },
	{ TT_GUIDE_CONTACTS,
	  { "Put down as many fingers as fit, then lift them.",
	    "Put down as many fingers as fit, then lift them." },
	  "all fingers down" },
};
#define NEXERCISES (sizeof(exercises) / sizeof(exercises[0]))

struct tt_guide {
	enum tt_guide_kind kind;
	FILE *tty;
	struct tt_guide_ops ops;
	void *data;
	size_t at;		/* the exercise shown; NEXERCISES when done */
	bool running;		/* between its begin and end markers */
	int64_t began_us, last_draw_us;
	uint32_t down, most_down;
	uint64_t touches;	/* touches begun in this exercise */
	int64_t held_since_us;	/* a touch down since; -1 */
	int64_t held_us;	/* the longest hold */
};

int
tt_guide_kind_from_name(const char *name, enum tt_guide_kind *out)
{
	if (strcmp(name, "touchscreen") == 0)
		*out = TT_GUIDE_TOUCHSCREEN;
	else if (strcmp(name, "touchpad") == 0)
		*out = TT_GUIDE_TOUCHPAD;
	else
		return -EINVAL;
	return 0;
}

const char *
tt_guide_kind_name(enum tt_guide_kind kind)
{
	return kind == TT_GUIDE_TOUCHPAD ? "touchpad" : "touchscreen";
}

struct tt_guide *
tt_guide_new(enum tt_guide_kind kind, FILE *tty, const struct tt_guide_ops *ops, void *data)
{
	struct tt_guide *g = tt_zalloc(sizeof(*g));

	g->kind = kind;
	g->tty = tty;
	g->ops = *ops;
	g->data = data;
	return g;
}

void
tt_guide_free(struct tt_guide *g)
{
	free(g);
}

bool
tt_guide_finished(const struct tt_guide *g)
{
	return g->at >= NEXERCISES;
}

static void
show(struct tt_guide *g)
{
	const struct exercise *e;

	if (tt_guide_finished(g)) {
		fprintf(g->tty, "\nAll done: the recording stops.\n");
		fflush(g->tty);
		g->ops.done(g->data);
		return;
	}
	e = &exercises[g->at];
	fprintf(g->tty, "\nExercise %zu of %zu (%s): %s\n  Press Enter to start, s to skip, q to stop.\n",
		g->at + 1, NEXERCISES, tt_guide_exercise_name(e->id), e->what[g->kind]);
	fflush(g->tty);
}

void
tt_guide_start(struct tt_guide *g, int64_t now_us)
{
	(void)now_us;
	fprintf(g->tty, "touchtape record --guide %s: %zu exercises for the grade.\n", tt_guide_kind_name(g->kind),
		NEXERCISES);
	show(g);
}

static int
begin(struct tt_guide *g, int64_t now_us)
{
	int rc = g->ops.marker(g->data, true, exercises[g->at].id);

	if (rc < 0)
		return rc;
	g->running = true;
	g->began_us = g->last_draw_us = now_us;
	g->touches = g->most_down = 0;
	g->held_since_us = g->down ? now_us : -1;
	g->held_us = 0;
	fprintf(g->tty, "  Go: %s. Press Enter when done (s to skip).\n", exercises[g->at].target);
	fflush(g->tty);
	return 0;
}

static int
end(struct tt_guide *g, bool skipped)
{
	int rc = g->running ? g->ops.marker(g->data, false, exercises[g->at].id) : 0;

	g->running = false;
	fprintf(g->tty, "\r  %s.%40s\n", skipped ? "Skipped" : "Done", "");
	g->at++;
	show(g);
	return rc;
}

int
tt_guide_key(struct tt_guide *g, int key, int64_t now_us)
{
	if (tt_guide_finished(g))
		return 0;
	switch (key) {
	case '\n':
	case '\r':
		return g->running ? end(g, false) : begin(g, now_us);
	case 's':
		return end(g, true);
	case 'q': {
		int rc = g->running ? g->ops.marker(g->data, false, exercises[g->at].id) : 0;
		g->running = false;
		g->at = NEXERCISES;
		fprintf(g->tty, "\nStopped.\n");
		g->ops.done(g->data);
		return rc;
	}
	default:
		return 0;
	}
}

void
tt_guide_frame(struct tt_guide *g, uint32_t ndown, int64_t now_us)
{
	if (g->running && ndown > g->down)
		g->touches += ndown - g->down;
	if (ndown && g->held_since_us < 0)
		g->held_since_us = now_us;
	if (!ndown)
		g->held_since_us = -1;
	if (g->held_since_us >= 0 && now_us - g->held_since_us > g->held_us)
		g->held_us = now_us - g->held_since_us;
	if (ndown > g->most_down)
		g->most_down = ndown;
	g->down = ndown;
}

void
tt_guide_tick(struct tt_guide *g, int64_t now_us)
{
	if (!g->running || now_us - g->last_draw_us < 200000)
		return;
	g->last_draw_us = now_us;
	fprintf(g->tty, "\r  %.1f s: %" PRIu64 " touch%s, %" PRIu32 " down now, at most %" PRIu32
		", longest hold %.1f s   ", (double)(now_us - g->began_us) / 1e6, g->touches,
		g->touches == 1 ? "" : "es", g->down, g->most_down, (double)g->held_us / 1e6);
	fflush(g->tty);
}
