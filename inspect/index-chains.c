/* SPDX-License-Identifier: MIT */
/* The XI ownership chains as lane markers, staged while reading and
 * merged into the markers in time order. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

static int
cmp_xi_lane(const void *a, const void *b)
{
	const struct ti_lane *x = *(struct ti_lane *const *)a, *y = *(struct ti_lane *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->sourceid < y->sourceid ? -1 : x->sourceid > y->sourceid;
}

/* The lane of @st's client in the touch of @c, in @xl sorted by
 * cmp_xi_lane; NULL when its lane was not kept. */
static const struct ti_lane *
stage_lane(struct ti_lane **xl, size_t n, const struct tt_xi_chain *c, const struct tt_xi_stage *st)
{
	struct ti_lane key = { .id = (int32_t)c->touchid, .sourceid = c->sourceid };
	const struct ti_lane *kp = &key;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_xi_lane(&xl[mid], &kp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && cmp_xi_lane(&xl[lo], &kp) == 0; lo++)
		if (strcmp(xl[lo]->client, st->client) == 0)
			return xl[lo];
	return NULL;
}

/* The markers the events did not give, so every client's lane shows its
 * stage of the chain: the ownership of the owner from the start (at its
 * TouchBegin) and of a grab that learnt of it only by the previous
 * reject, and a decision sent after the grab's own TouchEnd. */
static size_t
stage_markers(const struct ti_lane *l, const struct tt_xi_chain *c, const struct tt_xi_stage *st,
	      struct ti_marker *out)
{
	size_t n = 0;

	if (st->owned_by != TT_XI_OWNED_BY_OWNERSHIP)
		out[n++] = (struct ti_marker){ .time_us = st->owned_us, .line = (uint32_t)st->owned_line,
					       .kind = TI_MARK_OWNERSHIP, .lane = l->index, .device = c->sourceid };
	if (st->decided_us >= 0 && l->outcome != TT_OWN_ACCEPTED && l->outcome != TT_OWN_REJECTED)
		out[n++] = (struct ti_marker){ .time_us = st->decided_us, .line = (uint32_t)st->decided_line,
					       .kind = st->decision == TT_XI_DECIDED_ACCEPT ? TI_MARK_ACCEPT :
						       TI_MARK_REJECT, .lane = l->index, .device = c->sourceid };
	return n;
}

static int
cmp_marker_time(const void *a, const void *b)
{
	const struct ti_marker *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Merges @add (sorted) into the markers, each before the first marker
 * later than it: the markers read keep their order. */
static void
merge_markers(struct tt_index *ix, struct ti_marker *add, size_t nadd)
{
	struct ti_marker *all = tt_reallocarray(NULL, ix->nmarkers + nadd + 1, sizeof(*all));
	size_t i = 0, j = 0, k = 0;

	qsort(add, nadd, sizeof(*add), cmp_marker_time);
	while (i < ix->nmarkers || j < nadd)
		all[k++] = j < nadd && (i == ix->nmarkers || add[j].time_us < ix->markers[i].time_us) ? add[j++] :
			   ix->markers[i++];
	free(ix->markers);
	ix->markers = all;
	ix->nmarkers = ix->capmarkers = k;
}

void
ti_chain_markers(struct tt_index *ix)
{
	size_t nchains, nxl = 0, nadd = 0, nstages = 0;
	const struct tt_xi_chain *c = tt_xi_own_chains(tt_stack_xi_own(ix->detect), &nchains);

	if (ix->lean || !nchains)
		return;
	for (size_t i = 0; i < nchains; i++)
		nstages += c[i].nstages;
	_cleanup_free_ struct ti_lane **xl = tt_reallocarray(NULL, ix->nlanes + 1, sizeof(*xl));
	_cleanup_free_ struct ti_marker *add = tt_reallocarray(NULL, 2 * nstages, sizeof(*add));
	for (size_t i = 0; i < ix->nlanes; i++)
		if (ix->lanes[i]->kind == TI_LANE_XI)
			xl[nxl++] = ix->lanes[i];
	qsort(xl, nxl, sizeof(*xl), cmp_xi_lane);
	for (size_t i = 0; i < nchains; i++) {
		for (size_t k = 0; k < c[i].nstages; k++) {
			const struct ti_lane *l = stage_lane(xl, nxl, &c[i], &c[i].stages[k]);
			if (l)
				nadd += stage_markers(l, &c[i], &c[i].stages[k], &add[nadd]);
		}
	}
	if (nadd)
		merge_markers(ix, add, nadd);
}
