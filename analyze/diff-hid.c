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

#include "diff.h"
#include "util-strings.h"

static void
add_sample(struct tt_htouch *t, int64_t time_us, size_t line)
{
	int32_t v[4] = { 0, 0, t->x, t->y };

	if (t->user)
		diff_acc_add(t->user, time_us, line - t->begin_line, v);
}

static void
on_hbegin(void *data, struct tt_htouch *t)
{
	(void)data;
	t->user = diff_acc_new(4);
	add_sample(t, t->begin_us, t->begin_line);
}

static void
on_hupdate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	(void)data;
	add_sample(t, u->time_us, u->line);
}

static void
on_hend(void *data, struct tt_htouch *t)
{
	struct side *s = data;

	s->hid = tt_grow(s->hid, s->nhid, &s->caphid, sizeof(*s->hid));
	s->hid[s->nhid++] = (struct dhid){
		.dev = t->device, .contact = t->contact_id, .begin_us = t->begin_us, .end_us = t->end_us,
		.line = t->begin_line, .nreports = t->nreports,
		.sx = t->x_max > t->x_min ? 1.0 / (t->x_max - t->x_min) : 0,
		.sy = t->y_max > t->y_min ? 1.0 / (t->y_max - t->y_min) : 0,
	};
	struct dhid *h = &s->hid[s->nhid - 1];
	if (t->user)
		h->enc = diff_acc_take(t->user, &h->ns);
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
	const struct tt_model_callbacks cb = { .hid_begin = on_hbegin, .hid_update = on_hupdate, .hid_end = on_hend,
					       .hid_report = on_hreport };

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

/* Where the two contacts' paths part most, as fractions of the ranges. */
static void
compare_path(struct differ *df, const struct dhid *ha, const struct dhid *hb, const char *t)
{
	struct diff_scale sa = { 4, ha->line, ha->sx, ha->sy }, sb = { 4, hb->line, hb->sx, hb->sy };
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = diff_decode(ha->enc, ha->ns, &sa, 0, &pa);
	size_t nb = diff_decode(hb->enc, hb->ns, &sb, 0, &pb);
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

static void
compare_contact(struct differ *df, struct dhid *ha, struct dhid *hb)
{
	struct diff_num n;
	char t[32];

	ha->matched = hb->matched = true;
	tt_format_time(t, sizeof(t), ha->begin_us);
	compare_path(df, ha, hb, t);
	n = (struct diff_num){ fabs((double)ha->nreports - (double)hb->nreports),
			       diff_count_tolerance(df, ha->nreports, hb->nreports),
			       "count" };
	if (n.value > n.tolerance)
		diff_measured(df, "hid-rhythm", &n, ha->line, hb->line, "HID device %u contact %d at +%s s: %" PRIu64
			      " vs %" PRIu64 " reports (tolerance %.0f)", ha->dev, ha->contact, t, ha->nreports,
			      hb->nreports, n.tolerance);
	n = (struct diff_num){ fabs((double)(hb->end_us - ha->end_us)) / 1000.0, (double)df->o->time_tol / 1000.0, "ms" };
	if (n.value > n.tolerance)
		diff_measured(df, "hid-contact", &n, ha->line, hb->line, "HID device %u contact %d at +%s s: ends "
			      "%.3f ms %s (tolerance %.3f ms)", ha->dev, ha->contact, t, n.value,
			      hb->end_us > ha->end_us ? "later" : "earlier", n.tolerance);
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
		if (best)
			compare_contact(df, ha, best);
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

void
diff_compare_hid(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	struct diff_num n = { fabs((double)a->hid_reports - (double)b->hid_reports),
			      diff_count_tolerance(df, a->hid_reports, b->hid_reports),
			      "count" };

	if (!a->has_hid || !b->has_hid)
		return;
	for (size_t i = 0; i < a->nhid; i++) {
		a->hid[i].begin_us -= a->anchor;
		a->hid[i].end_us -= a->anchor;
	}
	for (size_t i = 0; i < b->nhid; i++) {
		b->hid[i].begin_us -= b->anchor;
		b->hid[i].end_us -= b->anchor;
	}
	tt_sort(a->hid, a->nhid, sizeof(*a->hid), cmp_hid);
	tt_sort(b->hid, b->nhid, sizeof(*b->hid), cmp_hid);
	if (n.value > n.tolerance)
		diff_measured(df, "hid-rhythm", &n, 0, 0, "HID: %" PRIu64 " vs %" PRIu64 " reports (tolerance %.0f)",
			      a->hid_reports, b->hid_reports, n.tolerance);
	pair_contacts(df);
	unpaired(df, a, true);
	unpaired(df, b, false);
}
