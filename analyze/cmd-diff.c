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
#include <sys/stat.h>

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
	struct ddev *d = side_dev(s, t->device, NULL);

	if (!d)
		return;
	diff_samples_begin(d, t);
	diff_pair_begin(d, t);
	diff_stats_add(&s->st, 1, 1, 0);
}

static void
on_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct side *s = data;

	if (t->user)
		diff_stats_add(&s->st, 0, 1, 0);
	diff_samples_update(t, u);
}

/* Kernel touches relative to their device's first frame: what a replay
 * keeps. */
static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct side *s = data;
	size_t ord;
	struct ddev *d = side_dev(s, t->device, &ord);
	struct dtouch k = { 0 };

	if (!d) {
		diff_samples_drop(t);
		return;
	}
	s->nk++;
	k.dev = ord;
	k.slot = t->slot;
	k.begin_us = t->begin_us - d->first_us;
	k.end_us = t->end_us - d->first_us;
	tt_model_position(d->dev, t->begin_x, t->begin_y, &k.bx, &k.by);
	tt_model_position(d->dev, t->values[TT_AXIS(ABS_MT_POSITION_X)], t->values[TT_AXIS(ABS_MT_POSITION_Y)],
			  &k.ex, &k.ey);
	k.line = t->begin_line;
	k.active_at_end = t->flags & TT_KTOUCH_ACTIVE_AT_END;
	k.link = t->link;
	k.xi_source = t->xi_deviceid;
	k.xi_touchid = t->xi_touchid;
	k.pair = -1;
	k.serial = s->kserial++;
	k.nframes = t->nframes;
	diff_samples_take(t, &k);
	diff_pair_end(d, t->serial, &k);
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
	x->kpair = -1;
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
	} else if (d && f->time_us < d->last_frame_us) {
		s->backwards = true;
	}
	if (d) {
		d->last_frame_us = f->time_us;
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

/* XI touches relative to the file's first record, as a replay keeps
 * them. */
static void
make_relative(struct side *s)
{
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

	fprintf(s->msgs, "%s\n", message);
	tt_stack_reader_warning(s->detect, s->name, message);
}

/* Opens @path to be read through the layer stack (lib/model/stack.h): its
 * touches come from the model's callbacks, its diagnostics into
 * s->diags, its messages into s->msgs. 0, or -1 after an error said
 * there (s->failed). */
static int
side_open(struct side *s, const char *path, const struct tt_read_options *ro)
{
	const struct tt_model_callbacks cb = { .kernel_begin = on_kbegin, .kernel_update = on_kupdate,
					       .kernel_end = on_kend, .xi_end = on_xend, .frame = on_frame };
	struct tt_detect_options dopts = { .only_device = ro->ndevices ? (int64_t)ro->devices[0] : -1 };
	int rc;

	s->msgs = open_memstream(&s->msgbuf, &s->msglen);
	if (!s->msgs)
		abort();
	tt_log_set_stream(s->msgs);
	rc = tt_open_recording_opts(path, ro, &s->r);
	tt_log_set_stream(NULL);
	if (rc < 0) {
		s->failed = s->eof = true;
		return -1;
	}
	s->name = tt_reader_name(s->r);
	s->detect = tt_stack_new(&dopts, tt_diag_tally_add, &s->diags);
	tt_stack_subscribe(s->detect, &cb, s);
	diff_hid_subscribe(s, s->detect);
	li_summary_init(&s->li, s->detect);
	wl_summary_init(&s->wl, s->detect);
	tt_reader_set_warn(s->r, on_warn, s);
	return 0;
}

/* The end of input: the stack ends what is open. */
static void
side_finish(struct side *s)
{
	tt_stack_finish(s->detect);
	li_summary_finish(&s->li);
	wl_summary_finish(&s->wl);
	tt_reader_set_warn(s->r, NULL, NULL);
	tt_stack_free(s->detect);
	s->detect = NULL;
	s->eof = true;
}

/* One record of @s, only what the reading options keep fed on; at the
 * end, side_finish(). An unreadable file ends it (s->failed). */
static void
side_read(struct side *s, const struct tt_read_options *ro)
{
	struct tt_record rec;
	int rc = tt_reader_next(s->r, &rec);

	if (rc == 0) {
		side_finish(s);
	} else if (rc < 0) {
		tt_error("%s", tt_reader_error(s->r));
		tt_stack_reader_error(s->detect, s->name, tt_reader_error(s->r));
		if (rc == -EIO)
			s->failed = s->eof = true;
	} else {
		see_end(s, &rec);
		if (!tt_read_options_keep(ro, &rec))
			return;
		see_record(s, ro, &rec);
		tt_stack_feed(s->detect, &rec);
		li_summary_feed(&s->li, &rec);
		wl_summary_feed(&s->wl, &rec);
	}
}

/* After @s was read: its messages, then what the reading options ask of
 * it. 0, or -1 after an error said. */
static int
side_check(struct side *s, const struct tt_read_options *ro)
{
	fclose(s->msgs);
	s->msgs = NULL;
	fwrite(s->msgbuf, 1, s->msglen, stderr);
	if (s->failed || tt_read_options_finish(ro, s->r) < 0)
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

/* Which file to read on: the one behind in time since its start. */
static struct side *
behind(struct side *a, struct side *b)
{
	if (a->eof || b->eof)
		return a->eof ? b : a;
	if (!a->have_anchor || !a->have_last)
		return a;
	if (!b->have_anchor || !b->have_last)
		return b;
	return a->last_us - a->anchor <= b->last_us - b->anchor ? a : b;
}

/* Reads both files side by side, comparing what each step allows. 0, -1
 * after an error that ends the comparison, 1 when a frame went back in
 * time before df->hold: the files must be read again with it. */
static int
read_both(struct differ *df, const char *pa, const char *pb, const struct tt_read_options *ro)
{
	struct side *a = df->a, *b = df->b;

	int64_t only = ro->ndevices ? (int64_t)ro->devices[0] : -1;

	if (side_open(a, pa, ro) < 0)
		return -1;
	side_open(b, pb, ro);
	diff_grade_attach(df, a, only);
	diff_grade_attach(df, b, only);
	while (!a->eof || !b->eof) {
		struct side *s = behind(a, b);
		tt_log_set_stream(s->msgs);
		side_read(s, ro);
		tt_log_set_stream(NULL);
		/* As when A was read to its end first: B unread. */
		if (a->failed)
			return -1;
		if (!df->hold && (a->backwards || b->backwards))
			return 1;
		diff_pair_step(df);
		diff_devaxes_step(df);
	}
	diff_pair_step(df);
	return 0;
}

static int
cmp_x(const void *a, const void *b)
{
	const struct dxtouch *x = a, *y = b;
	return (x->begin_us > y->begin_us) - (x->begin_us < y->begin_us);
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

/* The kernel touches linked to XI in the order they were paired in. */
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

/* Which kernel touch each XI touch came from, through the model's link. */
static void
find_kernel_touches(struct side *s)
{
	tt_sort(s->k, s->nks, sizeof(*s->k), cmp_k);
	for (size_t i = 0; i < s->nx; i++) {
		struct dxtouch *x = &s->x[i];
		for (size_t j = 0; j < s->nks; j++) {
			const struct dtouch *k = &s->k[j];
			if (k->xi_source == x->source && k->xi_touchid == x->touchid) {
				x->kernel = (ssize_t)k->serial;
				x->kpair = k->pair;
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
		if (xa->kernel < 0 || xa->kpair < 0)
			continue;
		for (size_t j = 0; j < b->nx; j++) {
			struct dxtouch *xb = &b->x[j];
			if (!xb->matched && xb->kernel == xa->kpair && same_stream(xa, xb)) {
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

	/* After the kernel touches were paired. */
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
	if (s->msgs)
		fclose(s->msgs);
	free(s->msgbuf);
	tt_grade_free(s->grade);
	tt_stack_free(s->detect);
	tt_reader_free(s->r);
	diff_pair_clear(s);
	for (size_t i = 0; i < s->ndevs; i++)
		diff_devaxes_clear(&s->devs[i]);
	free(s->keys);
	free(s->klast);
	for (size_t i = 0; i < s->nhid; i++) {
		free(s->hid[i].enc);
		free(s->hid[i].chg);
	}
	free(s->hid);
	free(s->x);
	li_summary_clear(&s->li);
	wl_summary_clear(&s->wl);
	memset(s, 0, sizeof(*s));
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

/* With TT_DIFF_STATS=1: the most diff held of each file at a time. */
static void
print_stats(const struct differ *df)
{
	const char *e = getenv("TT_DIFF_STATS");
	const struct side *sides[] = { df->a, df->b };

	if (!e || strcmp(e, "1") != 0)
		return;
	for (size_t i = 0; i < ARRAY_LENGTH(sides); i++)
		fprintf(stderr, "diff stats: %s: held at most %" PRIu64 " kernel touches, %" PRIu64 " samples, %"
			PRIu64 " device axis values\n", i ? "b" : "a", sides[i]->st.max_touches,
			sides[i]->st.max_samples, sides[i]->st.max_values);
}

/* Everything compared once both files are read. */
static int
compare(struct differ *df)
{
	const struct diff_opts *o = df->o;
	struct dbuf *found = steal(&df->buf);
	struct tt_json_emit json;

	print_stats(df);
	if (o->json) {
		tt_json_emit_init_file(&json, stdout);
		df->json = &json;
	}
	diff_output_begin(df);
	compare_devices(df);
	df->buf = found;
	diff_buf_flush(df);
	if (!(o->ignore & DIFF_IGNORE_AXES))
		diff_compare_device_axes(df);
	if (!(o->ignore & DIFF_IGNORE_RHYTHM))
		diff_compare_rhythm(df);
	if (!(o->ignore & DIFF_IGNORE_KEYS))
		diff_compare_keys(df);
	if (!(o->ignore & DIFF_IGNORE_HID))
		diff_compare_hid(df);
	if (!o->kernel_only)
		diff_compare_surroundings(df);
	if (diff_xi_compared(df))
		compare_xi(df);
	if (!o->kernel_only)
		diff_compare_li(df);
	if (!o->kernel_only)
		diff_compare_wl(df);
	diff_compare_grade(df);
	diff_output_end(df);
	if (o->json)
		tt_json_emit_release(&json);
	df->json = NULL;
	return verdict(df);
}

/* Whether @path can be read again: a frame back in time makes diff
 * read both files again, holding every touch to the end. */
static bool
rereadable(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads and compares the files: an exit status. */
static int
run(struct differ *df, char **paths, const struct tt_read_options *ro)
{
	int rc;

	df->hold = !rereadable(paths[0]) || !rereadable(paths[1]);
	for (;;) {
		df->buf = diff_buf_new();
		rc = read_both(df, paths[0], paths[1], ro);
		if (rc <= 0)
			break;
		diff_buf_free(df->buf);
		side_clear(df->a);
		side_clear(df->b);
		df->hold = true;
	}
	/* A's messages and checks first; B was not read when A failed. */
	if (side_check(df->a, ro) < 0 || rc < 0 || side_check(df->b, ro) < 0)
		return TT_EXIT_TROUBLE;
	return compare(df);
}

int
tt_cmd_diff(int argc, char **argv)
{
	struct diff_opts o;
	_cleanup_(tt_read_options_clear) struct tt_read_options ro;
	struct side *a = tt_zalloc(sizeof(*a)), *b = tt_zalloc(sizeof(*b));
	struct differ df = { .a = a, .b = b, .o = &o };
	int status;

	/* diff reads two files: --desc is for whichever is evemu, --device
	 * and --from/--to apply to both. */
	tt_read_options_init(&ro, "diff", TT_READ_ALL | TT_READ_DESC_SOME);
	diff_opts_default(&o);
	status = diff_parse_args(argc, argv, &o, &ro);
	if (status == 0)
		status = run(&df, &argv[optind], &ro);
	else if (status < 0)
		status = TT_EXIT_OK;
	diff_buf_free(df.buf);
	side_clear(a);
	side_clear(b);
	free(a);
	free(b);
	tt_grade_profile_free(o.profile);
	return status;
}
