/* SPDX-License-Identifier: MIT */
/* touchtape diff of the Wayland layer: what a Wayland client received of
 * the same touches in two recordings (two compositors, two versions):
 * the wl_touch sequences and how many were linked to kernel touches, the
 * events per interface and name, and the latencies. The protocol rules
 * broken are compared with the other diagnostics (diff-diag.c). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/diff.h"
#include "util-stats.h"

/* Latencies this close are the same: scheduling noise is a fraction of
 * a millisecond, a compositor that holds touches back differs by a
 * frame or more. */
#define LATENCY_FRACTION 0.25

static void
count_diff(struct differ *df, const char *what, uint64_t a, uint64_t b)
{
	if (a != b)
		diff_difference(df, "wayland", 0, 0, "wayland: %s %" PRIu64 " vs %" PRIu64, what, a, b);
}

/* wl_seat's events (capabilities, name) come when the client binds the
 * seat and again whenever a device joins or leaves it: how many depends
 * on whether the replayed device was made before or after the client
 * started, which a replay does not reproduce. What the seat delivered of
 * the touches is in wl_touch's counts. */
static bool
seat_setup(const char *kind)
{
	return strncmp(kind, "wl_seat.", 8) == 0;
}

static void
kinds_missing(struct differ *df, const struct wl_summary *from, const struct wl_summary *to, bool from_a)
{
	for (size_t i = 0; i < from->nkinds; i++) {
		const struct wl_kind_count *k = &from->kinds[i];
		uint64_t other = wl_summary_kind(to, k->name);

		if (seat_setup(k->name))
			continue;
		/* Counted once, from a's side, when both have the kind. */
		if (other && !from_a)
			continue;
		if (k->n != other)
			diff_difference(df, "wayland", 0, 0, "wayland: %s events %" PRIu64 " vs %" PRIu64, k->name,
					from_a ? k->n : other, from_a ? other : k->n);
	}
}

/* Within a quarter of the larger, or --latency-tolerance @floor_us. */
static bool
latency_close(int64_t a, int64_t b, int64_t floor_us)
{
	int64_t big = llabs(a) > llabs(b) ? llabs(a) : llabs(b);
	int64_t tol = (int64_t)(LATENCY_FRACTION * (double)big);

	return llabs(a - b) <= (tol > floor_us ? tol : floor_us);
}

static void
latency_diff(struct differ *df, const char *what, const int64_t *va, size_t na, const int64_t *vb, size_t nb)
{
	static const struct { const char *name; double q; } qs[] = { { "median", 0.5 }, { "p95", 0.95 } };

	if (!na || !nb)
		return;
	for (size_t i = 0; i < ARRAY_LENGTH(qs); i++) {
		int64_t a = tt_percentile(va, na, qs[i].q), b = tt_percentile(vb, nb, qs[i].q);
		if (!latency_close(a, b, df->o->latency_tol))
			diff_difference(df, "wayland", 0, 0, "wayland: %s %s %" PRId64 " vs %" PRId64 " us", what, qs[i].name,
					a, b);
	}
}

void
diff_compare_wl(struct differ *df)
{
	const struct wl_summary *a = &df->a->wl, *b = &df->b->wl;

	if (!a->has_layer && !b->has_layer)
		return;
	if (a->has_layer != b->has_layer) {
		diff_difference(df, "wayland", 0, 0, "a Wayland layer only in %s", a->has_layer ? df->a->name : df->b->name);
		return;
	}
	count_diff(df, "touch sequences", a->ntouches, b->ntouches);
	count_diff(df, "touches linked to kernel touches", a->linked, b->linked);
	count_diff(df, "touches unlinked", a->unlinked, b->unlinked);
	count_diff(df, "touches cancelled", a->cancelled, b->cancelled);
	count_diff(df, "touches active at end", a->active_at_end, b->active_at_end);
	kinds_missing(df, a, b, true);
	kinds_missing(df, b, a, false);
	latency_diff(df, "latency_us", a->latencies, a->nlatencies, b->latencies, b->nlatencies);
	latency_diff(df, "stamp_latency_us", a->stamp_latencies, a->nstamp_latencies, b->stamp_latencies,
		     b->nstamp_latencies);
}
