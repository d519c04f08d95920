/* SPDX-License-Identifier: MIT */
/* The touch-sequence model on Type A devices: each frame lists its
 * contacts anonymously (SYN_MT_REPORT); they are paired with the touches
 * down by nearest distance, and the rest begin or end touches. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "model-private.h"

/* Type A: the contacts of one frame, paired with the active touches. */
struct contact {
	int32_t values[TT_MT_AXES];
	uint32_t set;	/* axes this frame gave */
	struct kt *match;
};

static int
lowest_free_slot(const struct mdev *d)
{
	for (int32_t s = 0;; s++) {
		bool used = false;
		for (uint32_t i = 0; i < d->nactive && !used; i++)
			used = d->active[i]->pub.slot == s;
		if (!used)
			return s;
	}
}

struct pair {
	double dist;
	uint32_t a, c;
};

static int
cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return (x->dist > y->dist) - (x->dist < y->dist);
}

static void
pair_nearest(struct mdev *d, struct contact *cs, uint32_t n)
{
	const int ix = TT_AXIS(ABS_MT_POSITION_X), iy = TT_AXIS(ABS_MT_POSITION_Y);

	if (!n || !d->nactive)
		return;
	/* Greedy nearest pairs: good enough for fingers that move less
	 * between two frames than they are apart. */
	size_t np = (size_t)n * d->nactive;
	_cleanup_free_ struct pair *pairs = tt_reallocarray(NULL, np, sizeof(*pairs));
	_cleanup_free_ bool *taken = tt_zalloc(d->nactive * sizeof(bool));
	size_t k = 0;
	for (uint32_t a = 0; a < d->nactive; a++) {
		for (uint32_t c = 0; c < n; c++)
			taken[a] |= cs[c].match == d->active[a];
	}
	for (uint32_t c = 0; c < n; c++) {
		for (uint32_t a = 0; a < d->nactive; a++) {
			double dx = (double)cs[c].values[ix] - d->active[a]->pub.values[ix];
			double dy = (double)cs[c].values[iy] - d->active[a]->pub.values[iy];
			pairs[k++] = (struct pair){ hypot(dx, dy), a, c };
		}
	}
	qsort(pairs, np, sizeof(*pairs), cmp_pair);
	for (size_t i = 0; i < np; i++) {
		if (taken[pairs[i].a] || cs[pairs[i].c].match)
			continue;
		taken[pairs[i].a] = true;
		cs[pairs[i].c].match = d->active[pairs[i].a];
	}
}

/* By ABS_MT_TRACKING_ID where the contact has one; the others (devices
 * without IDs, or frames that leave the ID out) by nearest position. */
static void
pair_contacts(struct mdev *d, struct contact *cs, uint32_t n)
{
	const int iid = TT_AXIS(ABS_MT_TRACKING_ID);
	bool all = true;

	if (d->has_tracking) {
		for (uint32_t c = 0; c < n; c++) {
			if (!(cs[c].set & (1u << iid))) {
				all = false;
				continue;
			}
			for (uint32_t a = 0; a < d->nactive; a++) {
				if (d->active[a]->pub.tracking_id == cs[c].values[iid]) {
					cs[c].match = d->active[a];
					break;
				}
			}
		}
		if (all)
			return;
	}
	pair_nearest(d, cs, n);
}

static void
apply_contacts(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
	       struct contact *cs, uint32_t n)
{
	const int iid = TT_AXIS(ABS_MT_TRACKING_ID);
	struct kt *keep[TT_MAX_SLOTS];
	uint32_t nkeep = 0;

	pair_contacts(d, cs, n);
	/* Ends first, so their slots are free for the begins. */
	for (uint32_t a = 0; a < d->nactive; a++) {
		bool matched = false;
		for (uint32_t c = 0; c < n && !matched; c++)
			matched = cs[c].match == d->active[a];
		if (!matched)
			tt_model_end_touch(m, d->active[a], f->time_us, line, 0);
		else
			keep[nkeep++] = d->active[a];
	}
	memcpy(d->active, keep, nkeep * sizeof(*keep));
	d->nactive = nkeep;

	for (uint32_t c = 0; c < n; c++) {
		struct kt *k = cs[c].match;
		uint32_t changed = 0;

		if (!k) {
			if (d->nactive >= TT_MAX_SLOTS)
				continue;
			k = tt_model_new_touch(m, d, lowest_free_slot(d), f->time_us, line);
			if (d->has_tracking && (cs[c].set & (1u << iid))) {
				k->pub.tracking_id = cs[c].values[iid];
			} else {
				k->pub.tracking_id = (int32_t)++d->next_synthetic;
				k->pub.flags |= TT_KTOUCH_SYNTHETIC_ID;
			}
			d->active[d->nactive++] = k;
		}
		for (int i = 0; i < TT_MT_AXES; i++) {
			if (!(cs[c].set & (1u << i)) || i == iid)
				continue;
			if (k->pub.values[i] != cs[c].values[i] || k->is_new)
				changed |= 1u << i;
			k->pub.values[i] = cs[c].values[i];
		}
		tt_model_note_known(k, (k->is_new ? d->has_axes : k->pub.unknown) & ~cs[c].set);
		if (k->is_new) {
			tt_model_emit_begin(m, d, k);
		} else if (changed) {
			struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = changed };
			k->pub.nframes++;
			if (m->cb.kernel_update)
				m->cb.kernel_update(m->data, &k->pub, &u);
		}
	}
}

/* Some Type A drivers (bcm5974) keep reporting a lifted finger with
 * ABS_MT_TOUCH_MAJOR 0, others with ABS_MT_PRESSURE 0: not a contact. */
static bool
is_contact(const struct contact *c)
{
	if (!c->set)
		return false;
	if ((c->set & (1u << TT_AXIS(ABS_MT_TOUCH_MAJOR))) && c->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)] == 0)
		return false;
	if ((c->set & (1u << TT_AXIS(ABS_MT_PRESSURE))) && c->values[TT_AXIS(ABS_MT_PRESSURE)] == 0)
		return false;
	return true;
}

void
tt_model_frame_type_a(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line)
{
	struct contact cs[TT_MAX_SLOTS];
	struct contact cur = { .set = 0 };
	uint32_t n = 0;
	bool mt_content = false, touch_up = false;

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_SYN && e->code == SYN_MT_REPORT) {
			mt_content = true;
			if (is_contact(&cur) && n < TT_MAX_SLOTS)
				cs[n++] = cur;
			memset(&cur, 0, sizeof(cur));
		} else if (e->type == EV_ABS && e->code >= TT_MT_FIRST && e->code <= TT_MT_LAST) {
			mt_content = true;
			cur.values[TT_AXIS(e->code)] = e->value;
			cur.set |= 1u << TT_AXIS(e->code);
		} else if (e->type == EV_KEY && e->code == BTN_TOUCH && e->value == 0) {
			touch_up = true;
		}
	}
	if (is_contact(&cur) && n < TT_MAX_SLOTS)
		cs[n++] = cur;	/* a last contact without its SYN_MT_REPORT */
	if (!mt_content && !touch_up)
		return;	/* a frame about something else: contacts unchanged */
	apply_contacts(m, d, f, line, cs, n);
}
