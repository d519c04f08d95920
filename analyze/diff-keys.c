/* SPDX-License-Identifier: MIT */
/* touchtape diff: every EV_KEY press and release (buttons, BTN_TOUCH,
 * BTN_TOOL_*, keys; masked keyboard keys by their placeholder codes) and
 * every EV_SW change, paired by device, code, value and time: missing,
 * extra, or moved beyond the time tolerance. Autorepeats are left out:
 * they follow from the press and the release; so are BTN_TOUCH and
 * BTN_TOOL_* changes a touch in one file only explains (diff-explain.c).
 * See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "evnames.h"
#include "util-strings.h"

/* A change that is not the last one found moved this far at most. */
#define MOVED_MAX_US 1000000

/* Whether @e changes the key or switch's last value on @dev (and notes
 * it): a key's first event always does. */
static bool
key_changes(struct side *s, uint32_t dev, const struct tt_event *e)
{
	for (size_t i = 0; i < s->nklast; i++) {
		struct dkey *k = &s->klast[i];
		if (k->dev != dev || k->type != e->type || k->code != e->code)
			continue;
		if (k->value == e->value)
			return false;
		k->value = e->value;
		return true;
	}
	s->klast = tt_grow(s->klast, s->nklast, &s->capklast, sizeof(*s->klast));
	s->klast[s->nklast++] = (struct dkey){ .dev = dev, .type = e->type, .code = e->code, .value = e->value };
	return true;
}

void
diff_keys_frame(struct side *s, size_t dev, int64_t t_us, const struct tt_frame *f, size_t line)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (!(e->type == EV_KEY && (e->value == 0 || e->value == 1)) && e->type != EV_SW)
			continue;
		if (!key_changes(s, (uint32_t)dev, e))
			continue;
		s->keys = tt_grow(s->keys, s->nkeys, &s->capkeys, sizeof(*s->keys));
		s->keys[s->nkeys++] = (struct dkey){ .t_us = t_us, .line = line, .dev = (uint32_t)dev,
						     .type = e->type, .code = e->code, .value = e->value };
	}
}

static bool
same_change(const struct dkey *a, const struct dkey *b)
{
	return !b->matched && a->dev == b->dev && a->type == b->type && a->code == b->code && a->value == b->value;
}

static int
cmp_key(const void *x, const void *y)
{
	const struct dkey *a = x, *b = y;

	if (a->t_us != b->t_us)
		return a->t_us < b->t_us ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* The first change of @s at or after @t (s->keys sorted by time). */
static size_t
lower_bound(const struct side *s, int64_t t)
{
	size_t lo = 0, hi = s->nkeys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->keys[mid].t_us < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The unmatched change of B like @ka nearest in time within @tol. */
static ssize_t
nearest(const struct side *b, const struct dkey *ka, int64_t tol)
{
	ssize_t best = -1;
	int64_t best_dt = INT64_MAX;

	for (size_t j = lower_bound(b, ka->t_us - tol); j < b->nkeys && b->keys[j].t_us <= ka->t_us + tol; j++) {
		int64_t dt = llabs(b->keys[j].t_us - ka->t_us);
		if (same_change(ka, &b->keys[j]) && dt < best_dt) {
			best_dt = dt;
			best = (ssize_t)j;
		}
	}
	return best;
}

static const char *
kind_of(const struct dkey *k)
{
	return k->type == EV_SW ? "switch" : "key";
}

static const char *
what(const struct dkey *k)
{
	if (k->type == EV_SW)
		return k->value ? "on" : "off";
	return k->value ? "press" : "release";
}

static void
moved(struct differ *df, struct dkey *ka, struct dkey *kb)
{
	struct diff_num n = { fabs((double)(kb->t_us - ka->t_us)) / 1000.0, (double)df->o->time_tol / 1000.0, "ms" };
	char t[32];

	ka->matched = kb->matched = true;
	if (diff_key_explained(df, ka) || diff_key_explained(df, kb))
		return;
	diff_measured(df, kind_of(ka), &n, ka->line, kb->line, "device %u %s %s at +%s s: %.3f ms %s (tolerance %.3f ms)",
		      ka->dev, tt_code_name(ka->type, ka->code), what(ka), tt_format_time(t, sizeof(t), ka->t_us),
		      n.value, kb->t_us > ka->t_us ? "later" : "earlier", n.tolerance);
}

static void
unpaired(struct differ *df, const struct side *s, bool in_a)
{
	char t[32];

	for (size_t i = 0; i < s->nkeys; i++) {
		const struct dkey *k = &s->keys[i];
		if (k->matched || diff_key_explained(df, k))
			continue;
		diff_difference(df, kind_of(k), in_a ? k->line : 0, in_a ? 0 : k->line, "device %u %s %s at +%s s %s %s",
				k->dev, tt_code_name(k->type, k->code), what(k), tt_format_time(t, sizeof(t), k->t_us),
				in_a ? "is missing in" : "is only in", df->b->name);
	}
}

void
diff_compare_keys(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	ssize_t j;

	tt_sort(a->keys, a->nkeys, sizeof(*a->keys), cmp_key);
	tt_sort(b->keys, b->nkeys, sizeof(*b->keys), cmp_key);
	for (size_t i = 0; i < a->nkeys; i++) {
		if ((j = nearest(b, &a->keys[i], df->o->time_tol)) >= 0)
			a->keys[i].matched = b->keys[j].matched = true;
	}
	for (size_t i = 0; i < a->nkeys; i++) {
		if (!a->keys[i].matched && (j = nearest(b, &a->keys[i], MOVED_MAX_US)) >= 0)
			moved(df, &a->keys[i], &b->keys[j]);
	}
	unpaired(df, a, true);
	unpaired(df, b, false);
}
