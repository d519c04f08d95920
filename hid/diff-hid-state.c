/* SPDX-License-Identifier: MIT */
/* touchtape diff: what a HID contact's reports say besides where it is,
 * as a user notices it: its Tip Switch (a tip up and down in the middle
 * of a touch is a lifted finger to everything above), In Range (hover)
 * and Confidence (cleared: a palm, which hid-multitouch reports as
 * MT_TOOL_PALM and libinput ignores). Per paired contact, each change is
 * paired with the same change of the other within the time tolerance, as
 * keys are (diff-keys.c); one with no partner is a difference of kind
 * "hid". A contact that went on after a tip up and down only one file
 * has is chained to the contact it continues (the model ends a contact at
 * its tip up), and the tip up and down is the difference. See diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/diff.h"
#include "util-strings.h"

/* A change the other contact makes too, this far off at most, moved. */
#define MOVED_MAX_US 1000000

struct dhcollect {
	uint32_t state0, known0;	/* at the begin */
	uint32_t state, known;		/* the latest */
	struct dhstate *chg;
	size_t n, cap;
};

struct dhcollect *
diff_hstate_new(const struct tt_htouch *t)
{
	struct dhcollect *c = tt_zalloc(sizeof(*c));

	c->state0 = c->state = t->state & t->state_known;
	c->known0 = c->known = t->state_known;
	return c;
}

void
diff_hstate_change(struct dhcollect *c, const struct tt_htouch *t, const struct tt_hupdate *u)
{
	uint32_t state = t->state & t->state_known;

	if (!c)
		return;
	/* A bit a report no longer carries is off. */
	for (uint32_t bit = TT_HSTATE_IN_RANGE; bit <= TT_HSTATE_CONFIDENCE; bit <<= 1) {
		if (!((state ^ c->state) & bit))
			continue;
		c->chg = tt_grow(c->chg, c->n, &c->cap, sizeof(*c->chg));
		c->chg[c->n++] = (struct dhstate){ .t_us = u->time_us, .line = u->line, .bit = bit,
						   .on = state & bit };
	}
	c->state = state;
	c->known |= t->state_known;
}

void
diff_hstate_take(struct dhcollect *c, struct dhid *h)
{
	if (!c)
		return;
	h->state0 = c->state0;
	h->known = c->known;
	h->chg = steal(&c->chg);
	h->nchg = c->n;
	free(c);
}

static const char *
bit_name(uint32_t bit)
{
	return bit == TT_HSTATE_IN_RANGE ? "in range" : "confidence";
}

/* A chain's changes in time: those of each contact, and at each
 * continuation's begin what its first report changed. */
struct hseq {
	struct dhstate *v;
	size_t n, cap;
};

static void
seq_add(struct hseq *q, const struct dhstate *c)
{
	q->v = tt_grow(q->v, q->n, &q->cap, sizeof(*q->v));
	q->v[q->n++] = *c;
}

static void
chain_changes(const struct dhid *all, const struct dhid *h, struct hseq *q)
{
	uint32_t state = h->state0;

	for (const struct dhid *c = h;; c = &all[c->next]) {
		for (uint32_t bit = TT_HSTATE_IN_RANGE; c != h && bit <= TT_HSTATE_CONFIDENCE; bit <<= 1) {
			if ((c->state0 ^ state) & bit)
				seq_add(q, &(struct dhstate){ c->begin_us, c->line, bit, c->state0 & bit, false });
		}
		for (size_t i = 0; i < c->nchg; i++)
			seq_add(q, &c->chg[i]);
		state = c->state0;
		for (size_t i = 0; i < c->nchg; i++)
			state = (state & ~c->chg[i].bit) | (c->chg[i].on ? c->chg[i].bit : 0);
		if (c->next < 0)
			break;
	}
}

/* The unmatched change of @q like @c nearest in time within @tol. */
static struct dhstate *
nearest(const struct hseq *q, const struct dhstate *c, int64_t tol)
{
	struct dhstate *best = NULL;

	for (size_t j = 0; j < q->n; j++) {
		struct dhstate *o = &q->v[j];
		if (o->matched || o->bit != c->bit || o->on != c->on || llabs(o->t_us - c->t_us) > tol)
			continue;
		if (!best || llabs(o->t_us - c->t_us) < llabs(best->t_us - c->t_us))
			best = o;
	}
	return best;
}

struct hctx {
	struct differ *df;
	const struct dhid *ha;
	char at[32];
};

static void
moved(const struct hctx *x, struct dhstate *ca, struct dhstate *cb)
{
	struct differ *df = x->df;
	struct diff_num n = { fabs((double)(cb->t_us - ca->t_us)) / 1000.0, (double)df->o->time_tol / 1000.0, "ms" };
	char t[32];

	ca->matched = cb->matched = true;
	diff_measured(df, "hid", &n, ca->line, cb->line, "HID device %u contact %d at +%s s: %s %s at +%s s: "
		      "%.3f ms %s (tolerance %.3f ms)", x->ha->dev, x->ha->contact, x->at, bit_name(ca->bit),
		      ca->on ? "on" : "off", tt_format_time(t, sizeof(t), ca->t_us), n.value,
		      cb->t_us > ca->t_us ? "later" : "earlier", n.tolerance);
}

static void
unpaired(const struct hctx *x, const struct hseq *q, bool in_a)
{
	struct differ *df = x->df;
	const struct diff_num n = { 1, 0, "count" };
	char t[32];

	for (size_t i = 0; i < q->n; i++) {
		const struct dhstate *c = &q->v[i];
		if (c->matched)
			continue;
		diff_measured(df, "hid", &n, in_a ? c->line : 0, in_a ? 0 : c->line, "HID device %u contact %d "
			      "at +%s s: %s %s at +%s s %s %s", x->ha->dev, x->ha->contact, x->at, bit_name(c->bit),
			      c->on ? "on" : "off", tt_format_time(t, sizeof(t), c->t_us),
			      in_a ? "is missing in" : "is only in", df->b->name);
	}
}

/* The bits only one file's reports carry are left out. */
static void
keep_known(struct hseq *q, uint32_t known)
{
	size_t k = 0;

	for (size_t i = 0; i < q->n; i++) {
		if (q->v[i].bit & known)
			q->v[k++] = q->v[i];
	}
	q->n = k;
}

static void
compare_begin(const struct hctx *x, const struct dhid *hb, uint32_t known)
{
	const struct diff_num n = { 1, 0, "count" };

	for (uint32_t bit = TT_HSTATE_IN_RANGE; bit <= TT_HSTATE_CONFIDENCE; bit <<= 1) {
		if ((known & bit) && ((x->ha->state0 ^ hb->state0) & bit))
			diff_measured(x->df, "hid", &n, x->ha->line, hb->line, "HID device %u contact %d at +%s s: "
				      "begins with %s %s, in %s %s", x->ha->dev, x->ha->contact, x->at, bit_name(bit),
				      x->ha->state0 & bit ? "on" : "off", x->df->b->name, hb->state0 & bit ? "on" : "off");
	}
}

void
diff_compare_hid_state(struct differ *df, const struct dhid *ha, const struct dhid *hb)
{
	struct hseq qa = { 0 }, qb = { 0 };
	struct hctx x = { df, ha, "" };
	uint32_t known = ha->known & hb->known;
	struct dhstate *o;

	tt_format_time(x.at, sizeof(x.at), ha->begin_us);
	compare_begin(&x, hb, known);
	chain_changes(df->a->hid, ha, &qa);
	chain_changes(df->b->hid, hb, &qb);
	keep_known(&qa, known);
	keep_known(&qb, known);
	for (size_t i = 0; i < qa.n; i++) {
		if ((o = nearest(&qb, &qa.v[i], df->o->time_tol)))
			qa.v[i].matched = o->matched = true;
	}
	for (size_t i = 0; i < qa.n; i++) {
		if (!qa.v[i].matched && (o = nearest(&qb, &qa.v[i], MOVED_MAX_US)))
			moved(&x, &qa.v[i], o);
	}
	unpaired(&x, &qa, true);
	unpaired(&x, &qb, false);
	free(qa.v);
	free(qb.v);
}

/* The contact of @s before its @i-th on the same device with the same ID. */
static struct dhid *
before(struct side *s, size_t i)
{
	const struct dhid *u = &s->hid[i];

	while (i-- > 0) {
		struct dhid *p = &s->hid[i];
		if (p->dev != u->dev)
			return NULL;
		if (p->contact == u->contact)
			return p->end_us <= u->begin_us ? p : NULL;
	}
	return NULL;
}

static int64_t
chain_end(const struct side *s, const struct dhid *h)
{
	while (h->next >= 0)
		h = &s->hid[h->next];
	return h->end_us;
}

static void
gaps_of(struct differ *df, struct side *s, const struct side *o, bool in_a)
{
	const struct diff_num n = { 1, 0, "count" };
	char up[32], down[32];

	for (size_t i = 0; i < s->nhid; i++) {
		struct dhid *u = &s->hid[i];
		struct dhid *p = u->matched ? NULL : before(s, i);
		if (!p || p->pair < 0 || chain_end(o, &o->hid[p->pair]) + df->o->time_tol < u->begin_us)
			continue;
		p->next = (ssize_t)i;
		u->cont = u->matched = true;
		u->pair = p->pair;
		diff_measured(df, "hid", &n, in_a ? p->end_line : 0, in_a ? 0 : p->end_line, "HID device %u contact %d: "
			      "tip up at +%s s and down at +%s s %s %s", u->dev, u->contact,
			      tt_format_time(up, sizeof(up), p->end_us), tt_format_time(down, sizeof(down), u->begin_us),
			      in_a ? "is missing in" : "is only in", df->b->name);
	}
}

void
diff_hid_tip_gaps(struct differ *df)
{
	gaps_of(df, df->a, df->b, true);
	gaps_of(df, df->b, df->a, false);
}
