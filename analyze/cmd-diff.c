/* SPDX-License-Identifier: MIT */
/* touchtape diff: two recordings compared touch by touch, the regression
 * check after a replay. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "stack.h"
#include "diff.h"
#include "log.h"
#include "read-options.h"
#include "model.h"
#include "reader.h"
#include "util-plural.h"
#include "util-strings.h"

static struct ddev *
side_dev(struct side *s, uint32_t id, size_t *ordinal)
{
	for (size_t i = 0; i < s->ndevs; i++) {
		if (s->devs[i].id == id) {
			if (ordinal)
				*ordinal = i;
			return &s->devs[i];
		}
	}
	return NULL;
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct side *s = data;
	const struct ddev *d = side_dev(s, t->device, NULL);

	if (d)
		diff_samples_begin(d, t);
}

static void
on_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	(void)data;
	diff_samples_update(t, u);
}

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct side *s = data;
	size_t ord;
	struct ddev *d = side_dev(s, t->device, &ord);

	if (!d) {
		diff_samples_drop(t);
		return;
	}
	s->k = tt_grow(s->k, s->nk, &s->capk, sizeof(*s->k));
	struct dtouch *k = &s->k[s->nk++];
	memset(k, 0, sizeof(*k));
	k->dev = ord;
	k->slot = t->slot;
	k->begin_us = t->begin_us;
	k->end_us = t->end_us;
	tt_model_position(d->dev, t->begin_x, t->begin_y, &k->bx, &k->by);
	tt_model_position(d->dev, t->values[TT_AXIS(ABS_MT_POSITION_X)], t->values[TT_AXIS(ABS_MT_POSITION_Y)],
			  &k->ex, &k->ey);
	k->line = t->begin_line;
	k->active_at_end = t->flags & TT_KTOUCH_ACTIVE_AT_END;
	k->link = t->link;
	k->xi_source = t->xi_deviceid;
	k->xi_touchid = t->xi_touchid;
	k->pair = -1;
	k->nframes = t->nframes;
	diff_samples_take(t, k);
}

static void
on_xend(void *data, struct tt_xtouch *t)
{
	struct side *s = data;

	s->x = tt_grow(s->x, s->nx, &s->capx, sizeof(*s->x));
	struct dxtouch *x = &s->x[s->nx++];
	memset(x, 0, sizeof(*x));
	snprintf(x->client, sizeof(x->client), "%s", t->client);
	x->raw = t->flags & TT_XTOUCH_RAW;
	x->begin_us = t->begin_us;
	x->end_us = t->end_us;
	x->outcome = t->outcome;
	x->emulating = t->flags & TT_XTOUCH_EMULATING_POINTER;
	x->began_unowned = t->flags & TT_XTOUCH_BEGAN_UNOWNED;
	x->active_at_end = t->flags & TT_XTOUCH_ACTIVE_AT_END;
	x->line = t->begin_line;
	/* The key the model links kernel touches with (model-link.c). */
	x->source = t->sourceid ? t->sourceid : t->deviceid;
	x->touchid = t->touchid;
	x->kernel = -1;
}

static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct side *s = data;
	size_t ord;
	struct ddev *d = side_dev(s, dev->id, &ord);

	if (d && !d->have_time) {
		d->first_us = f->time_us;
		d->have_time = true;
	}
	if (d) {
		diff_rhythm_frame(d, f->time_us, n);
		diff_keys_frame(s, ord, f->time_us - d->first_us, f, line);
		diff_devaxes_frame(s, ord, f->time_us - d->first_us, f, line);
	}
	if (!s->have_anchor) {
		s->anchor = f->time_us;
		s->have_anchor = true;
	}
}

static void
add_device(struct side *s, const struct tt_read_options *ro, const struct tt_device *dev)
{
	if (side_dev(s, dev->id, NULL) || s->ndevs == TT_MAX_DEVICES || !tt_read_options_has_device(ro, dev->id))
		return;
	struct ddev *d = &s->devs[s->ndevs++];
	d->id = dev->id;
	d->dev = dev;
	d->mm = tt_model_has_mm(dev);
	diff_samples_device(d);
}

static void
see_record(struct side *s, const struct tt_read_options *ro, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_DEVICE)
		add_device(s, ro, rec->device);
	if (rec->type == TT_RECORD_XI_EVENT) {
		s->has_xi = true;
		if (!s->have_anchor) {
			s->anchor = rec->xi_event->time_us;
			s->have_anchor = true;
		}
	}
}

static void
see_end(struct side *s, const struct tt_record *rec)
{
	int64_t t;

	switch (rec->type) {
	case TT_RECORD_FRAME: t = rec->frame->time_us; break;
	case TT_RECORD_XI_EVENT: t = rec->xi_event->time_us; break;
	case TT_RECORD_MARKER: t = rec->marker->time_us; break;
	default: return;
	}
	if (!s->have_last || t > s->last_us)
		s->last_us = t;
	s->have_last = true;
}

/* Kernel touches relative to their device's first frame, XI touches to
 * the file's first record: what a replay keeps. */
static void
make_relative(struct side *s)
{
	for (size_t i = 0; i < s->nk; i++) {
		int64_t t0 = s->devs[s->k[i].dev].first_us;
		s->k[i].begin_us -= t0;
		s->k[i].end_us -= t0;
	}
	for (size_t i = 0; i < s->nx; i++) {
		s->x[i].begin_us -= s->anchor;
		s->x[i].end_us -= s->anchor;
	}
}

/* A reader warning: said on stderr, as the reader says it by itself,
 * and counted in the pass, as analyze counts it. */
static void
on_warn(void *data, const char *message)
{
	struct side *s = data;

	fprintf(stderr, "%s\n", message);
	tt_stack_reader_warning(s->detect, s->name, message);
}

/* Reads @path through the layer stack (lib/stack.h): its touches come
 * from the model's callbacks, its diagnostics into s->diags. Only what
 * the reading options keep is read. 0, or -1 after an error said. */
static int
load(struct side *s, const char *path, const struct tt_read_options *ro)
{
	const struct tt_model_callbacks cb = { .kernel_begin = on_kbegin, .kernel_update = on_kupdate,
					       .kernel_end = on_kend, .xi_end = on_xend, .frame = on_frame };
	struct tt_detect_options dopts = { .only_device = ro->ndevices ? (int64_t)ro->devices[0] : -1 };
	_cleanup_(tt_stack_freep) struct tt_stack *d = NULL;
	struct tt_record rec;
	int rc;

	if (tt_open_recording_opts(path, ro, &s->r) < 0)
		return -1;
	s->name = tt_reader_name(s->r);
	d = s->detect = tt_stack_new(&dopts, tt_diag_tally_add, &s->diags);
	tt_stack_subscribe(d, &cb, s);
	diff_hid_subscribe(s, d);
	li_summary_init(&s->li, d);
	wl_summary_init(&s->wl, d);
	tt_reader_set_warn(s->r, on_warn, s);
	while ((rc = tt_reader_next(s->r, &rec)) != 0) {
		if (rc < 0) {
			tt_error("%s", tt_reader_error(s->r));
			tt_stack_reader_error(d, s->name, tt_reader_error(s->r));
			if (rc == -EIO)
				return -1;
			continue;
		}
		see_end(s, &rec);
		if (!tt_read_options_keep(ro, &rec))
			continue;
		see_record(s, ro, &rec);
		tt_stack_feed(d, &rec);
		li_summary_feed(&s->li, &rec);
		wl_summary_feed(&s->wl, &rec);
	}
	tt_stack_finish(d);
	li_summary_finish(&s->li);
	wl_summary_finish(&s->wl);
	tt_reader_set_warn(s->r, NULL, NULL);
	s->detect = NULL;
	if (tt_read_options_finish(ro, s->r) < 0)
		return -1;
	/* As in replay and inspect: a part past the end is a mistake, not
	 * an empty recording that matches any other. */
	if (ro->have_from && (!s->have_last || ro->from_us > s->last_us)) {
		char tb[32];
		tt_usage_error("diff", "--from %s is past the end of %s: nothing at or after it",
			       tt_format_time(tb, sizeof(tb), ro->from_us), s->name);
		return -1;
	}
	make_relative(s);
	return 0;
}

static int
cmp_k(const void *a, const void *b)
{
	const struct dtouch *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->begin_us != y->begin_us)
		return x->begin_us < y->begin_us ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

static int
cmp_x(const void *a, const void *b)
{
	const struct dxtouch *x = a, *y = b;
	return (x->begin_us > y->begin_us) - (x->begin_us < y->begin_us);
}

static double
pos_tolerance(const struct differ *df, const struct ddev *d)
{
	if (d->mm)
		return df->o->pos_tol_mm;
	bool mt = tt_device_has(d->dev, EV_ABS, ABS_MT_POSITION_X);
	const struct tt_absinfo *ax = &d->dev->abs[mt ? ABS_MT_POSITION_X : ABS_X];
	const struct tt_absinfo *ay = &d->dev->abs[mt ? ABS_MT_POSITION_Y : ABS_Y];
	double range = fmax((double)ax->maximum - ax->minimum, (double)ay->maximum - ay->minimum);
	return fmax(1.0, range * df->o->pos_tol_frac);
}

static const char *
unit(const struct ddev *d)
{
	return d->mm ? "mm" : "units";
}

static void
compare_place(struct differ *df, const struct dtouch *ka, const char *what, double xa, double ya, double xb,
	      double yb, size_t lb)
{
	const struct ddev *d = &df->a->devs[ka->dev];
	struct diff_num n = { hypot(xa - xb, ya - yb), pos_tolerance(df, d), unit(d) };
	char t[32];

	if (n.value <= n.tolerance)
		return;
	diff_measured(df, "position", &n, ka->line, lb,
		      "device %zu slot %d touch at +%s s: %s position (%.1f, %.1f) vs (%.1f, %.1f) %s, "
		      "%.1f %s apart (tolerance %.1f)", ka->dev, ka->slot, tt_format_time(t, sizeof(t), ka->begin_us),
		      what, xa, ya, xb, yb, n.unit, n.value, n.unit, n.tolerance);
}

/* What lies inside the two touches, unless --ignore'd. */
static void
compare_inside(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	if (!(df->o->ignore & DIFF_IGNORE_PATH))
		diff_compare_path(df, ka, kb);
	if (!(df->o->ignore & DIFF_IGNORE_AXES))
		diff_compare_axes(df, ka, kb);
	if (!(df->o->ignore & DIFF_IGNORE_RHYTHM))
		diff_compare_touch_rhythm(df, ka, kb);
}

static void
compare_pair(struct differ *df, const struct dtouch *ka, const struct dtouch *kb)
{
	struct diff_num n = { fabs((double)(kb->end_us - ka->end_us)) / 1000.0, (double)df->o->time_tol / 1000.0,
			      "ms" };
	char t[32];

	tt_format_time(t, sizeof(t), ka->begin_us);
	if (ka->slot != kb->slot)
		diff_difference(df, "slot", ka->line, kb->line, "device %zu touch at +%s s: slot %d vs %d", ka->dev, t,
				ka->slot, kb->slot);
	compare_place(df, ka, "begin", ka->bx, ka->by, kb->bx, kb->by, kb->line);
	compare_place(df, ka, "end", ka->ex, ka->ey, kb->ex, kb->ey, kb->line);
	if (llabs(ka->end_us - kb->end_us) > df->o->time_tol)
		diff_measured(df, "end", &n, ka->line, kb->line,
			      "device %zu slot %d touch at +%s s: ends %.3f ms %s (tolerance %.3f ms)", ka->dev,
			      ka->slot, t, n.value, kb->end_us > ka->end_us ? "later" : "earlier", n.tolerance);
	if (ka->active_at_end != kb->active_at_end)
		diff_difference(df, "end", ka->line, kb->line, "device %zu slot %d touch at +%s s: %s at the end in %s only",
				ka->dev, ka->slot, t, "still down", ka->active_at_end ? df->a->name : df->b->name);
	if (diff_xi_compared(df) && ka->link != kb->link &&
	    (ka->link == TT_LINK_NOT_DELIVERED || kb->link == TT_LINK_NOT_DELIVERED))
		diff_difference(df, "xi", ka->line, kb->line, "device %zu slot %d touch at +%s s: X delivery %s vs %s",
				ka->dev, ka->slot, t, tt_link_status_name(ka->link), tt_link_status_name(kb->link));
	compare_inside(df, ka, kb);
}

/* touchtape replay names its devices "touchtape replay: NAME", and
 * "touchtape replay: NAME (pid PID.ID)" when it recreates their
 * surroundings (replay/replay-surroundings.h). */
static const char *
base_name(const char *name)
{
	static const char prefix[] = "touchtape replay: ";

	return strncmp(name, prefix, sizeof(prefix) - 1) == 0 ? name + sizeof(prefix) - 1 : name;
}

/* The length of @name without replay's tag " (pid PID.ID)". */
static size_t
untagged_len(const char *name)
{
	const char *tag = strrchr(name, '(');
	unsigned int pid, id;
	int end = 0;

	if (tag && tag > name && tag[-1] == ' ' && sscanf(tag, "(pid %u.%u)%n", &pid, &id, &end) == 2 &&
	    tag[end] == '\0')
		return (size_t)(tag - 1 - name);
	return strlen(name);
}

/* Whether @a and @b are the same name, the replay's prefix and tag aside. */
static bool
same_name(const char *a, const char *b)
{
	size_t la, lb;

	a = base_name(a);
	b = base_name(b);
	la = untagged_len(a);
	lb = untagged_len(b);
	return la == lb && strncmp(a, b, la) == 0;
}

static void
compare_devices(struct differ *df)
{
	const struct side *a = df->a, *b = df->b;

	if (a->ndevs != b->ndevs)
		diff_difference(df, "device", 0, 0, "%zu device%s vs %zu", a->ndevs, tt_plural_s(a->ndevs), b->ndevs);
	for (size_t i = 0; i < a->ndevs && i < b->ndevs; i++) {
		if (!same_name(a->devs[i].dev->name, b->devs[i].dev->name))
			diff_difference(df, "device", 0, 0, "device %zu is \"%s\" vs \"%s\"", i, a->devs[i].dev->name,
					b->devs[i].dev->name);
	}
}

/* The touch of B that @ka pairs with: on the same device, beginning
 * within the time tolerance, the nearest in time and place; -1 for none. */
static ssize_t
best_match(const struct differ *df, const struct dtouch *ka, double tol)
{
	const struct side *b = df->b;
	ssize_t best = -1;
	double best_score = INFINITY;

	for (size_t j = 0; j < b->nk; j++) {
		const struct dtouch *kb = &b->k[j];
		if (kb->matched || kb->dev != ka->dev)
			continue;
		int64_t dt = llabs(kb->begin_us - ka->begin_us);
		if (dt > df->o->time_tol)
			continue;
		/* Rank by time and place; a shifted touch still pairs. */
		double score = (double)dt / (double)df->o->time_tol + hypot(ka->bx - kb->bx, ka->by - kb->by) / tol +
			       (ka->slot != kb->slot ? 1.0 : 0.0);
		if (score < best_score) {
			best_score = score;
			best = (ssize_t)j;
		}
	}
	return best;
}

static void
compare_kernel(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	char t[32];

	compare_devices(df);
	tt_sort(a->k, a->nk, sizeof(*a->k), cmp_k);
	tt_sort(b->k, b->nk, sizeof(*b->k), cmp_k);
	for (size_t i = 0; i < a->nk; i++) {
		struct dtouch *ka = &a->k[i];
		const struct ddev *d = &a->devs[ka->dev];
		ssize_t best = best_match(df, ka, pos_tolerance(df, d));
		if (best < 0)
			continue;
		ka->matched = true;
		ka->pair = best;
		b->k[best].matched = true;
		compare_pair(df, ka, &b->k[best]);
	}
	for (size_t i = 0; i < a->nk; i++) {
		const struct dtouch *k = &a->k[i];
		if (!k->matched)
			diff_difference(df, "touch-missing", k->line, 0, "device %zu slot %d touch at +%s s (%.1f, %.1f) %s is missing in %s",
					k->dev, k->slot, tt_format_time(t, sizeof(t), k->begin_us), k->bx, k->by,
					unit(&a->devs[k->dev]), b->name);
	}
	for (size_t i = 0; i < b->nk; i++) {
		const struct dtouch *k = &b->k[i];
		if (!k->matched)
			diff_difference(df, "touch-extra", 0, k->line, "device %zu slot %d touch at +%s s (%.1f, %.1f) %s is only in %s",
					k->dev, k->slot, tt_format_time(t, sizeof(t), k->begin_us), k->bx, k->by,
					k->dev < b->ndevs ? unit(&b->devs[k->dev]) : "units", b->name);
	}
}

/* Which kernel touch each XI touch came from, through the model's link. */
static void
find_kernel_touches(struct side *s)
{
	for (size_t i = 0; i < s->nx; i++) {
		struct dxtouch *x = &s->x[i];
		for (size_t j = 0; j < s->nk; j++) {
			const struct dtouch *k = &s->k[j];
			if (k->link == TT_LINK_LINKED && k->xi_source == x->source &&
			    k->xi_touchid == x->touchid) {
				x->kernel = (ssize_t)j;
				break;
			}
		}
	}
}

/* The same client's view of a touch: one client's regular or raw events. */
static bool
same_stream(const struct dxtouch *xa, const struct dxtouch *xb)
{
	return xb->raw == xa->raw && strcmp(xb->client, xa->client) == 0;
}

static void
compare_xpair(struct differ *df, struct dxtouch *xa, struct dxtouch *xb)
{
	const struct side *a = df->a, *b = df->b;
	const char *what = xa->raw ? "raw touch" : "touch";
	char t[32];

	xa->matched = xb->matched = true;
	tt_format_time(t, sizeof(t), xa->begin_us);
	if (xa->emulating != xb->emulating)
		diff_difference(df, "xi", xa->line, xb->line, "XI %s [%s] at +%s s: emulating pointer in %s only", what,
			   xa->client, t, xa->emulating ? a->name : b->name);
	if (xa->active_at_end != xb->active_at_end)
		diff_difference(df, "xi", xa->line, xb->line, "XI %s [%s] at +%s s: never ended in %s only", what,
			   xa->client, t, xa->active_at_end ? a->name : b->name);
	/* A client's sequence ends when it rejects, or loses to an accept,
	 * and begins unowned when another client owns first: with another
	 * outcome, these follow from it and would only repeat it. */
	if (xa->outcome != xb->outcome) {
		diff_difference(df, "xi", xa->line, xb->line,
			   "XI %s [%s] at +%s s: ownership %s vs %s (its end follows, not compared)", what,
			   xa->client, t, tt_own_outcome_name(xa->outcome), tt_own_outcome_name(xb->outcome));
		return;
	}
	if (xa->began_unowned != xb->began_unowned)
		diff_difference(df, "xi", xa->line, xb->line, "XI %s [%s] at +%s s: began unowned in %s only", what,
			   xa->client, t, xa->began_unowned ? a->name : b->name);
	if (!xa->active_at_end && !xb->active_at_end && llabs(xa->end_us - xb->end_us) > df->o->time_tol)
		diff_difference(df, "xi", xa->line, xb->line, "XI %s [%s] at +%s s: ends %.3f ms %s (tolerance %.3f ms)",
			   what, xa->client, t, fabs((double)(xb->end_us - xa->end_us)) / 1000.0,
			   xb->end_us > xa->end_us ? "later" : "earlier", (double)df->o->time_tol / 1000.0);
}

/* Two fingers that begin together reach X in either order: an XI touch is
 * the same touch in B when it came from the kernel touch paired with its
 * own kernel touch. */
static void
pair_xi_by_link(struct differ *df)
{
	struct side *a = df->a, *b = df->b;

	for (size_t i = 0; i < a->nx; i++) {
		struct dxtouch *xa = &a->x[i];
		if (xa->kernel < 0 || a->k[xa->kernel].pair < 0)
			continue;
		for (size_t j = 0; j < b->nx; j++) {
			struct dxtouch *xb = &b->x[j];
			if (!xb->matched && xb->kernel == a->k[xa->kernel].pair && same_stream(xa, xb)) {
				compare_xpair(df, xa, xb);
				break;
			}
		}
	}
}

/* Without a link on both sides: the client's touches in begin order,
 * within the time tolerance. Two linked touches that the link did not
 * pair came from different fingers. */
static void
pair_xi_by_order(struct differ *df)
{
	struct side *a = df->a, *b = df->b;

	for (size_t i = 0; i < a->nx; i++) {
		struct dxtouch *xa = &a->x[i];
		if (xa->matched)
			continue;
		for (size_t j = 0; j < b->nx; j++) {
			struct dxtouch *xb = &b->x[j];
			if (xb->matched || !same_stream(xa, xb) || (xa->kernel >= 0 && xb->kernel >= 0) ||
			    llabs(xb->begin_us - xa->begin_us) > df->o->time_tol)
				continue;
			compare_xpair(df, xa, xb);
			break;
		}
	}
}

static void
compare_xi(struct differ *df)
{
	struct side *a = df->a, *b = df->b;
	char t[32];

	/* After compare_kernel(): the kernel arrays are sorted and paired. */
	tt_sort(a->x, a->nx, sizeof(*a->x), cmp_x);
	tt_sort(b->x, b->nx, sizeof(*b->x), cmp_x);
	find_kernel_touches(a);
	find_kernel_touches(b);
	pair_xi_by_link(df);
	pair_xi_by_order(df);
	for (size_t i = 0; i < a->nx; i++) {
		if (!a->x[i].matched)
			diff_difference(df, "xi", a->x[i].line, 0, "XI %s [%s] at +%s s is missing in %s",
				   a->x[i].raw ? "raw touch" : "touch", a->x[i].client,
				   tt_format_time(t, sizeof(t), a->x[i].begin_us), b->name);
	}
	for (size_t i = 0; i < b->nx; i++) {
		if (!b->x[i].matched)
			diff_difference(df, "xi", 0, b->x[i].line, "XI %s [%s] at +%s s is only in %s",
				   b->x[i].raw ? "raw touch" : "touch", b->x[i].client,
				   tt_format_time(t, sizeof(t), b->x[i].begin_us), b->name);
	}
}

static void
side_clear(struct side *s)
{
	tt_reader_free(s->r);
	for (size_t i = 0; i < s->nk; i++)
		free(s->k[i].enc);
	free(s->keys);
	free(s->klast);
	free(s->dvals);
	for (size_t i = 0; i < s->nhid; i++) {
		free(s->hid[i].enc);
		free(s->hid[i].chg);
	}
	free(s->hid);
	free(s->k);
	free(s->x);
	li_summary_clear(&s->li);
	wl_summary_clear(&s->wl);
}

/* What was left out may be just where the files differ: no verdict
 * from a partial comparison. */
static int
verdict(const struct differ *df)
{
	const struct side *sides[] = { df->a, df->b };
	int status = df->ndiff ? TT_EXIT_FAILURE : TT_EXIT_OK;

	for (size_t i = 0; i < ARRAY_LENGTH(sides); i++) {
		size_t n = tt_reader_nerrors(sides[i]->r);
		if (n) {
			tt_error("%s: %zu line%s could not be read: the comparison is incomplete",
				 sides[i]->name, n, tt_plural_s(n));
			status = TT_EXIT_TROUBLE;
		}
	}
	return status;
}

static int
compare(struct side *a, struct side *b, const struct diff_opts *o)
{
	struct tt_json_emit json;
	struct differ df = { .a = a, .b = b, .o = o, .json = o->json ? &json : NULL };

	if (o->json)
		tt_json_emit_init_file(&json, stdout);
	diff_output_begin(&df);
	compare_kernel(&df);
	if (!(o->ignore & DIFF_IGNORE_AXES))
		diff_compare_device_axes(&df);
	if (!(o->ignore & DIFF_IGNORE_RHYTHM))
		diff_compare_rhythm(&df);
	if (!(o->ignore & DIFF_IGNORE_KEYS))
		diff_compare_keys(&df);
	if (!(o->ignore & DIFF_IGNORE_HID))
		diff_compare_hid(&df);
	if (!o->kernel_only)
		diff_compare_surroundings(&df);
	if (diff_xi_compared(&df))
		compare_xi(&df);
	if (!o->kernel_only)
		diff_compare_li(&df);
	if (!o->kernel_only)
		diff_compare_wl(&df);
	diff_output_end(&df);
	if (o->json)
		tt_json_emit_release(&json);
	return verdict(&df);
}

int
tt_cmd_diff(int argc, char **argv)
{
	struct diff_opts o;
	_cleanup_(tt_read_options_clear) struct tt_read_options ro;
	struct side *a = tt_zalloc(sizeof(*a)), *b = tt_zalloc(sizeof(*b));
	int status;

	/* diff reads two files: --desc is for whichever is evemu, --device
	 * and --from/--to apply to both. */
	tt_read_options_init(&ro, "diff", TT_READ_ALL | TT_READ_DESC_SOME);
	diff_opts_default(&o);
	status = diff_parse_args(argc, argv, &o, &ro);
	if (status == 0) {
		if (load(a, argv[optind], &ro) < 0 || load(b, argv[optind + 1], &ro) < 0)
			status = TT_EXIT_TROUBLE;
		else
			status = compare(a, b, &o);
	} else if (status < 0) {
		status = TT_EXIT_OK;
	}
	side_clear(a);
	side_clear(b);
	free(a);
	free(b);
	return status;
}
