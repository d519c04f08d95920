/* SPDX-License-Identifier: MIT */
/* touchtape diff: the HID layer, where both files have one: the reports
 * per file, and each HID contact paired by device and begin time, its
 * path (as the kernel touches' paths, in fractions of the logical
 * ranges), its end time and its reports. See diff.h. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/diff.h"
#include "util-strings.h"

/* What diff keeps of a contact while it lasts (->user). */
struct hcollect {
	struct dacc *acc;
	struct dhcollect *state;
};

static void
add_sample(struct tt_htouch *t, int64_t time_us, size_t line)
{
	struct hcollect *c = t->user;
	int32_t v[4] = { 0, 0, t->x, t->y };

	if (c)
		diff_acc_add(c->acc, time_us, line - t->begin_line, v);
}

static void
on_hbegin(void *data, struct tt_htouch *t)
{
	struct hcollect *c = tt_zalloc(sizeof(*c));

	(void)data;
	c->acc = diff_acc_new(4);
	c->state = diff_hstate_new(t);
	t->user = c;
	add_sample(t, t->begin_us, t->begin_line);
}

static void
on_hupdate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	(void)data;
	add_sample(t, u->time_us, u->line);
}

static void
on_hstate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	struct hcollect *c = t->user;

	(void)data;
	if (c)
		diff_hstate_change(c->state, t, u);
}

static void
on_hend(void *data, struct tt_htouch *t)
{
	struct side *s = data;
	struct hcollect *c = t->user;

	s->hid = tt_grow(s->hid, s->nhid, &s->caphid, sizeof(*s->hid));
	s->hid[s->nhid++] = (struct dhid){
		.dev = t->device, .contact = t->contact_id, .begin_us = t->begin_us, .end_us = t->end_us,
		.line = t->begin_line, .end_line = t->end_line, .nreports = t->nreports, .next = -1, .pair = -1,
		.sx = t->x_max > t->x_min ? 1.0 / (t->x_max - t->x_min) : 0,
		.sy = t->y_max > t->y_min ? 1.0 / (t->y_max - t->y_min) : 0,
	};
	struct dhid *h = &s->hid[s->nhid - 1];
	if (c) {
		h->enc = diff_acc_take(c->acc, &h->ns);
		diff_hstate_take(c->state, h);
		free(c);
	}
	t->user = NULL;
}

static void
on_hreport(void *data, const struct tt_hreport *r)
{
	struct side *s = data;

	(void)r;
	s->has_hid = true;
	s->hid_reports++;
}

void
diff_hid_subscribe(struct side *s, struct tt_stack *st)
{
	const struct tt_model_callbacks cb = { .hid_begin = on_hbegin, .hid_update = on_hupdate,
					       .hid_state = on_hstate, .hid_end = on_hend, .hid_report = on_hreport };

	tt_stack_subscribe(st, &cb, s);
}

static int
cmp_hid(const void *x, const void *y)
{
	const struct dhid *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (a->begin_us > b->begin_us) - (a->begin_us < b->begin_us);
}

/* The samples of @h and the contacts chained to it (->next), in time
 * since @h's begin. Returns their number; *out is the caller's to free. */
static size_t
decode_chain(const struct side *s, const struct dhid *h, struct dpt **out)
{
	struct dpt *all = NULL;
	size_t n = 0, cap = 0;

	for (const struct dhid *c = h; c; c = c->next >= 0 ? &s->hid[c->next] : NULL) {
		struct diff_scale sc = { 4, c->line, c->sx, c->sy };
		_cleanup_free_ struct dpt *p = NULL;
		size_t np = diff_decode(c->enc, c->ns, &sc, 0, &p);
		for (size_t i = 0; i < np; i++) {
			all = tt_grow(all, n, &cap, sizeof(*all));
			all[n] = p[i];
			all[n++].t += c->begin_us - h->begin_us;
		}
	}
	*out = all;
	return n;
}

/* Where the two contacts' paths part most, as fractions of the ranges. */
static void
compare_path(struct differ *df, const struct dhid *ha, const struct dhid *hb, const char *t)
{
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = decode_chain(df->a, ha, &pa);
	size_t nb = decode_chain(df->b, hb, &pb);
	struct diff_parting g = { 0 };
	char at[32];

	if (!na || !nb)
		return;
	diff_path_parting(pa, na, pb, nb, diff_path_window(pa, na, pb, nb), &g);
	struct diff_num n = { g.max, df->o->path_tol_frac, "fraction" };
	if (n.value > n.tolerance)
		diff_measured(df, "hid-path", &n, g.la, g.lb, "HID device %u contact %d at +%s s: paths part by "
			      "%.2f%% of the range at +%s s into the contact (RMS %.2f, tolerance %.2f)", ha->dev,
			      ha->contact, t, n.value * 100, tt_format_time(at, sizeof(at), g.t),
			      sqrt(g.sum2 / (double)g.n) * 100, n.tolerance * 100);
}

/* The last contact of @h's chain, and the reports of all of it. */
static const struct dhid *
chain_tail(const struct side *s, const struct dhid *h, uint64_t *nreports)
{
	*nreports = h->nreports;
	while (h->next >= 0) {
		h = &s->hid[h->next];
		*nreports += h->nreports;
	}
	return h;
}

static void
compare_contact(struct differ *df, const struct dhid *ha, const struct dhid *hb)
{
	uint64_t ra, rb;
	const struct dhid *ea = chain_tail(df->a, ha, &ra), *eb = chain_tail(df->b, hb, &rb);
	struct diff_num n;
	char t[32];

	tt_format_time(t, sizeof(t), ha->begin_us);
	compare_path(df, ha, hb, t);
	diff_compare_hid_state(df, ha, hb);
	n = (struct diff_num){ fabs((double)ra - (double)rb), diff_count_tolerance(df, ra, rb), "count" };
	if (n.value > n.tolerance)
		diff_measured(df, "hid-rhythm", &n, ha->line, hb->line, "HID device %u contact %d at +%s s: %" PRIu64
			      " vs %" PRIu64 " reports (tolerance %.0f)", ha->dev, ha->contact, t, ra, rb, n.tolerance);
	n = (struct diff_num){ fabs((double)(eb->end_us - ea->end_us)) / 1000.0, (double)df->o->time_tol / 1000.0, "ms" };
	if (n.value > n.tolerance)
		diff_measured(df, "hid-contact", &n, ha->line, hb->line, "HID device %u contact %d at +%s s: ends "
			      "%.3f ms %s (tolerance %.3f ms)", ha->dev, ha->contact, t, n.value,
			      eb->end_us > ea->end_us ? "later" : "earlier", n.tolerance);
}

/* Each contact of A with the one of B on the same device that begins
 * nearest in time, within the time tolerance (both sorted). */
static void
pair_contacts(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	size_t j0 = 0;

	for (size_t i = 0; i < a->nhid; i++) {
		struct dhid *ha = &a->hid[i];
		struct dhid *best = NULL;
		while (j0 < b->nhid && cmp_hid(&b->hid[j0], &(struct dhid){ .dev = ha->dev,
				.begin_us = ha->begin_us - df->o->time_tol }) < 0)
			j0++;
		for (size_t j = j0; j < b->nhid && b->hid[j].dev == ha->dev &&
				    b->hid[j].begin_us <= ha->begin_us + df->o->time_tol; j++) {
			if (!b->hid[j].matched && (!best || llabs(b->hid[j].begin_us - ha->begin_us) <
							     llabs(best->begin_us - ha->begin_us)))
				best = &b->hid[j];
		}
		if (!best)
			continue;
		ha->matched = best->matched = true;
		ha->pair = best - b->hid;
		best->pair = (ssize_t)i;
	}
}

static void
unpaired(struct differ *df, const struct side *s, bool in_a)
{
	char t[32];

	for (size_t i = 0; i < s->nhid; i++) {
		const struct dhid *h = &s->hid[i];
		if (!h->matched)
			diff_difference(df, "hid-contact", in_a ? h->line : 0, in_a ? 0 : h->line,
					"HID device %u contact %d at +%s s %s %s", h->dev, h->contact,
					tt_format_time(t, sizeof(t), h->begin_us), in_a ? "is missing in" : "is only in",
					df->b->name);
	}
}

/* Times relative to the file's anchor. */
static void
to_anchor(struct side *s)
{
	for (size_t i = 0; i < s->nhid; i++) {
		struct dhid *h = &s->hid[i];
		h->begin_us -= s->anchor;
		h->end_us -= s->anchor;
		for (size_t k = 0; k < h->nchg; k++)
			h->chg[k].t_us -= s->anchor;
	}
}

void
diff_compare_hid(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	struct diff_num n = { fabs((double)a->hid_reports - (double)b->hid_reports),
			      diff_count_tolerance(df, a->hid_reports, b->hid_reports),
			      "count" };

	if (!a->has_hid || !b->has_hid)
		return;
	to_anchor(a);
	to_anchor(b);
	tt_sort(a->hid, a->nhid, sizeof(*a->hid), cmp_hid);
	tt_sort(b->hid, b->nhid, sizeof(*b->hid), cmp_hid);
	if (n.value > n.tolerance)
		diff_measured(df, "hid-rhythm", &n, 0, 0, "HID: %" PRIu64 " vs %" PRIu64 " reports (tolerance %.0f)",
			      a->hid_reports, b->hid_reports, n.tolerance);
	pair_contacts(df);
	diff_hid_tip_gaps(df);
	for (size_t i = 0; i < a->nhid; i++) {
		if (a->hid[i].pair >= 0 && !a->hid[i].cont)
			compare_contact(df, &a->hid[i], &b->hid[a->hid[i].pair]);
	}
	unpaired(df, a, true);
	unpaired(df, b, false);
}
