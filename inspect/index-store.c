/* SPDX-License-Identifier: MIT */
/* The index's arrays: growing them, the devices, the anomaly texts, the
 * markers and the lanes. */
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

void *
ti_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n += n / 2 + 16;
	*cap = n;
	return tt_reallocarray(p, n, size);
}

struct ti_device *
ti_find_dev(struct tt_index *ix, uint32_t id, size_t *pos)
{
	for (size_t i = 0; i < ix->ndevs; i++) {
		if (ix->devs[i].id == id) {
			if (pos)
				*pos = i;
			return &ix->devs[i];
		}
	}
	return NULL;
}

const struct ti_device *
tt_index_device(const struct tt_index *ix, uint32_t id)
{
	return ti_find_dev((struct tt_index *)ix, id, NULL);
}

uint32_t
ti_add_text(struct tt_index *ix, const char *s)
{
	size_t len = strlen(s) + 1;

	if (ix->ntext + len > TEXT_POOL_MAX) {
		ix->text_dropped++;
		return 0;
	}
	ix->text = ti_grow(ix->text, &ix->captext, ix->ntext + len, 1);
	memcpy(ix->text + ix->ntext, s, len);
	ix->ntext += len;
	return (uint32_t)(ix->ntext - len + 1);
}

struct ti_marker *
ti_add_marker(struct tt_index *ix, enum ti_marker_kind kind, int64_t t, size_t line, int64_t lane,
	      int64_t device)
{
	struct ti_marker *m;

	/* A summary shows the first few anomalies and nothing else of the
	 * markers; the rest would only grow with the file. */
	if (ix->lean && ((kind != TI_MARK_ANOMALY && kind != TI_MARK_DROPPED) ||
			 ix->nmarkers >= TI_LEAN_MARKERS)) {
		m = &ix->scratch;
		memset(m, 0, sizeof(*m));
		return m;
	}
	ix->markers = ti_grow(ix->markers, &ix->capmarkers, ix->nmarkers + 1, sizeof(*ix->markers));
	m = &ix->markers[ix->nmarkers++];
	memset(m, 0, sizeof(*m));
	m->time_us = t;
	m->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	m->kind = (uint8_t)kind;
	m->lane = lane;
	m->device = device;
	return m;
}

struct ti_lane *
ti_add_lane(struct tt_index *ix, enum ti_lane_kind kind)
{
	struct ti_lane *l;

	if (ix->nspare) {
		/* Lean: a lane that ended keeps its place in the array. */
		l = ix->spare[--ix->nspare];
		uint32_t index = l->index;
		memset(l, 0, sizeof(*l));
		l->index = index;
	} else {
		l = tt_zalloc(sizeof(*l));
		ix->lanes = ti_grow(ix->lanes, &ix->caplanes, ix->nlanes + 1, sizeof(*ix->lanes));
		l->index = (uint32_t)ix->nlanes;
		ix->lanes[ix->nlanes++] = l;
	}
	l->kind = kind;
	l->linked = -1;
	l->tool = -1;
	l->owned_us = -1;
	l->resolved_us = -1;
	l->xi_begin_us = -1;
	l->hid_linked = -1;
	l->hid_begin_us = -1;
	l->li_latency_us = -1;
	l->li_linked = -1;
	l->wl_linked = -1;
	return l;
}

/* Lean: the summary needs nothing more of an ended lane. */
void
ti_release_lane(struct tt_index *ix, struct ti_lane *l)
{
	if (!ix->lean)
		return;
	ix->spare = ti_grow(ix->spare, &ix->capspare, ix->nspare + 1, sizeof(*ix->spare));
	ix->spare[ix->nspare++] = l;
}

void
on_diag(void *userdata, const struct tt_diag *diag)
{
	struct tt_index *ix = userdata;
	struct ti_marker *m;

	/* SYN_DROPPED has its own marker (added with its frame, just
	 * before): it carries the diagnostic. */
	m = ix->nmarkers ? &ix->markers[ix->nmarkers - 1] : NULL;
	if (diag->check != TT_CHECK_SYN_DROPPED || !m || m->kind != TI_MARK_DROPPED ||
	    m->line != diag->line || m->text)
		m = ti_add_marker(ix, TI_MARK_ANOMALY, diag->time_us, diag->line, -1, diag->device);
	m->check = (uint8_t)diag->check;
	m->severity = (uint8_t)diag->severity;
	m->text = ti_add_text(ix, diag->message);
	m->lane = -1;
}
