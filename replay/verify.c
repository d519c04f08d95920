/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "hid-verify.h"
#include "report.h"
#include "util-mem.h"
#include "verify-reader.h"

/* The kernel's tracking ids wrap at this (TRKID_MAX). */
#define TRKID_MASK 0xffff
#define SHOWN_MAX 50

_Static_assert((int)RP_HR_COUNT <= (int)RP_R_COUNT, "the reasons of both kinds fit a result");

static const char *
written_reason(int r)
{
	return rp_reason_name(r);
}

static const char *
recorded_reason(int r)
{
	return rp_hid_reason_name(r);
}

/* An empty result of @v's kind. */
static void
result_init(const struct rp_verify *v, struct rp_verify_result *res)
{
	memset(res, 0, sizeof(*res));
	res->kind = v->kind;
	res->reason_name = v->kind == RP_VERIFY_RECORDED ? recorded_reason : written_reason;
}

void
rp_vstream_add(struct rp_vstream *s, struct rp_vframe vf)
{
	s->frames = tt_grow(s->frames, s->n, &s->cap, sizeof(*s->frames));
	s->frames[s->n++] = vf;
}

void
rp_vstream_push(struct rp_vstream *s, struct rp_vframe vf, const struct input_event *ev, size_t n)
{
	vf.first = s->ev.n;
	vf.n = n;
	for (size_t i = 0; i < n; i++)
		rp_evbuf_push(&s->ev, ev[i].type, ev[i].code, ev[i].value);
	rp_vstream_add(s, vf);
}

static void
vstream_release(struct rp_vstream *s)
{
	rp_evbuf_release(&s->ev);
	free(s->frames);
}

struct rp_verify *
rp_verify_alloc(enum rp_verify_kind kind, size_t nreaders)
{
	struct rp_verify *v = tt_zalloc(sizeof(*v));

	v->kind = kind;
	result_init(v, &v->res);
	v->nreaders = nreaders;
	v->readers = tt_zalloc((nreaders ? nreaders : 1) * sizeof(*v->readers));
	return v;
}

static void
reader_free(struct rp_verify *v, struct rp_vreader *r)
{
	if (!r)
		return;
	if (r->src)
		tt_loop_remove(v->loop, r->src);
	tt_capture_free(r->cap);
	if (r->modelled)
		rp_kmodel_release(&r->model);
	vstream_release(&r->expected);
	vstream_release(&r->delivered);
	free(r);
}

void
rp_verify_free(struct rp_verify *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nreaders; i++)
		reader_free(v, v->readers[i]);
	free(v->readers);
	rp_written_free(v->w);
	free(v);
}

static int
on_frame(void *userdata, const struct tt_frame *f)
{
	struct rp_vreader *r = userdata;
	struct rp_vframe vf = { .tag = -1, .time_us = f->time_us, .first = r->delivered.ev.n,
				.n = f->nevents };

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_SYN && e->code == SYN_DROPPED)
			r->dropped++;
		rp_evbuf_push(&r->delivered.ev, e->type, e->code, e->value);
	}
	rp_vstream_add(&r->delivered, vf);
	if (r->v->w)
		rp_written_delivered(r->v, r, f);
	return 0;
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	struct rp_vreader *r = data;

	(void)loop;
	(void)source;
	(void)events;
	tt_capture_dispatch(r->cap, 0, on_frame, r);
}

int
rp_verify_open(struct rp_verify *v, size_t slot, const char *node, uint32_t id,
	       struct tt_loop *loop, struct rp_vreader **out)
{
	struct rp_vreader *r = tt_zalloc(sizeof(*r));
	int rc = tt_capture_open(node, id, TT_CAPTURE_SHOW_KEYCODES, &r->cap);

	if (rc < 0) {
		free(r);
		return rc;
	}
	if (slot == SIZE_MAX) {
		slot = v->nreaders++;
		v->readers = tt_reallocarray(v->readers, v->nreaders, sizeof(*v->readers));
	}
	*r = (struct rp_vreader){ .v = v, .id = id, .cap = r->cap, .lift_from = SIZE_MAX };
	snprintf(r->node, sizeof(r->node), "%s", node);
	v->readers[slot] = r;
	v->loop = loop;
	r->src = tt_loop_add(loop, tt_capture_fd(r->cap), on_readable, r);
	if (!r->src)
		return -errno;
	*out = r;
	return 0;
}

bool
rp_verify_any(const struct rp_verify *v)
{
	for (size_t i = 0; v && i < v->nreaders; i++) {
		if (v->readers[i])
			return true;
	}
	return false;
}

/* Reads until @quiet_ms pass with nothing new, at most @timeout_ms. */
static void
read_until_quiet(struct tt_loop *loop, int quiet_ms, int timeout_ms)
{
	int quiet = 0;

	for (int waited = 0; waited < timeout_ms && quiet < quiet_ms; waited += 10) {
		int rc = tt_loop_dispatch(loop, 10);
		quiet = rc > 0 ? 0 : quiet + 10;
		if (rc < 0)
			return;
	}
}

void
rp_verify_lifting(struct rp_verify *v, struct tt_loop *loop)
{
	if (!rp_verify_any(v))
		return;
	/* uhid hands a report to the driver within the write: its frames
	 * are in the evdev buffers already. */
	read_until_quiet(loop, 20, 200);
	for (size_t i = 0; i < v->nreaders; i++) {
		struct rp_vreader *r = v->readers[i];
		if (r && r->lift_from == SIZE_MAX)
			r->lift_from = r->delivered.n;
	}
}

static bool
complete(const struct rp_verify *v)
{
	for (size_t i = 0; i < v->nreaders; i++) {
		const struct rp_vreader *r = v->readers[i];
		if (r && r->delivered.n < r->expected.n)
			return false;
	}
	return true;
}

void
rp_verify_drain(struct rp_verify *v, struct tt_loop *loop, int timeout_ms)
{
	if (v->kind == RP_VERIFY_RECORDED) {
		if (rp_verify_any(v))
			read_until_quiet(loop, 100, timeout_ms);
		return;
	}
	for (int waited = 0; !complete(v) && waited < timeout_ms; waited += 10)
		tt_loop_dispatch(loop, 10);
}

/* ------------------------------------------------------------------ */
/* Comparing. */

struct ids {
	bool have_first;
	int32_t first_id;	/* the first tracking id seen */
};

static int32_t
norm_id(struct ids *sd, int32_t id)
{
	if (id < 0)
		return id;
	if (!sd->have_first) {
		sd->have_first = true;
		sd->first_id = id;
	}
	return (int32_t)((uint32_t)(id - sd->first_id) & TRKID_MASK);
}

/* One reader's comparison. */
struct cmp {
	const struct rp_verify *v;
	const struct rp_stats *stats;
	FILE *out;
	size_t max_shown;
	struct rp_verify_result *res;
	struct ids rec, del;		/* RECORDED: tracking ids by order */
	bool ids_differ, stamps_differ;
	int64_t *errs;			/* WRITTEN: kernel time errors */
	size_t nerrs;
};

static bool
same_event(struct cmp *c, const struct input_event *a, const struct input_event *b)
{
	if (a->type != b->type || a->code != b->code)
		return false;
	if (c->v->kind == RP_VERIFY_WRITTEN)
		return a->value == b->value;
	if (a->type == EV_MSC && a->code == MSC_TIMESTAMP) {
		c->stamps_differ |= a->value != b->value;
		return true;
	}
	if (a->type == EV_ABS && a->code == ABS_MT_TRACKING_ID) {
		c->ids_differ |= a->value != b->value;
		return norm_id(&c->rec, a->value) == norm_id(&c->del, b->value);
	}
	return a->value == b->value;
}

static bool
same_frame(struct cmp *c, const struct input_event *a, size_t na, const struct input_event *b,
	   size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		if (!same_event(c, &a[i], &b[i]))
			return false;
	}
	return true;
}

static void
show_diff(struct cmp *c, const struct rp_vreader *r, size_t i)
{
	const struct rp_vframe *e = &r->expected.frames[i], *d = &r->delivered.frames[i];
	bool recorded = c->v->kind == RP_VERIFY_RECORDED;

	if (recorded)
		fprintf(c->out, "%s: line %zu: device %" PRIu32 " frame %zu differs:\n  recorded: ",
			r->node, e->line, r->id, i);
	else
		fprintf(c->out, "device %" PRIu32 " delivered frame %zu differs:\n  expected:", r->id, i);
	rp_print_events(c->out, &r->expected.ev.ev[e->first], e->n);
	fprintf(c->out, recorded ? "\n  delivered:" : "\n  received:");
	rp_print_events(c->out, &r->delivered.ev.ev[d->first], d->n);
	fputc('\n', c->out);
}

static void
show_count(struct cmp *c, const struct rp_vreader *r, size_t played)
{
	if (c->v->kind == RP_VERIFY_RECORDED)
		fprintf(c->out, "%s: device %" PRIu32 ": %zu frames recorded, %zu delivered by the "
			"driver\n", r->node, r->id, r->expected.n, played);
	else
		fprintf(c->out, "device %" PRIu32 ": %zu frames expected, %zu delivered%s\n", r->id,
			r->expected.n, played,
			r->dropped ? " (the reader saw SYN_DROPPED: its buffer overflowed)" : "");
}

/* Frame @i, expected and delivered: a difference, or what explains it
 * (RECORDED), and (WRITTEN) the kernel's time of each recorded frame's
 * first delivered frame. */
static void
compare_frame(struct cmp *c, const struct rp_vreader *r, size_t i, int64_t *last_tag)
{
	const struct rp_vframe *e = &r->expected.frames[i], *d = &r->delivered.frames[i];

	c->ids_differ = c->stamps_differ = false;
	if (!same_frame(c, &r->expected.ev.ev[e->first], e->n, &r->delivered.ev.ev[d->first], d->n)) {
		if (c->res->unexplained++ < c->max_shown)
			show_diff(c, r, i);
	} else if (c->v->kind == RP_VERIFY_RECORDED) {
		c->res->reasons[RP_HR_TRACKING_ID] += c->ids_differ;
		c->res->reasons[RP_HR_TIMESTAMP] += c->stamps_differ;
	}
	if (e->tag >= 0 && e->tag != *last_tag && (size_t)e->tag < c->stats->nlateness)
		c->errs[c->nerrs++] = d->time_us - c->stats->deadlines_us[e->tag];
	*last_tag = e->tag;
}

static void
compare_reader(struct cmp *c, const struct rp_vreader *r)
{
	size_t played = r->lift_from < r->delivered.n ? r->lift_from : r->delivered.n;
	size_t n = r->expected.n < played ? r->expected.n : played;
	int64_t last_tag = -1;

	c->rec = c->del = (struct ids){ 0 };
	c->res->expected_frames += r->expected.n;
	c->res->received_frames += r->delivered.n;
	for (size_t i = 0; i < n; i++)
		compare_frame(c, r, i, &last_tag);
	if (c->v->kind == RP_VERIFY_RECORDED)
		c->res->reasons[RP_HR_LIFT] += r->delivered.n - played;
	if (r->expected.n != played) {
		c->res->unexplained += r->expected.n > played ? r->expected.n - played
							      : played - r->expected.n;
		show_count(c, r, played);
	}
}

void
rp_verify_compare(struct rp_verify *v, const struct rp_stats *stats, FILE *out,
		  size_t max_shown, struct rp_verify_result *res)
{
	_cleanup_free_ int64_t *errs = tt_reallocarray(NULL, stats->nlateness + 1, sizeof(int64_t));
	struct cmp c = { .v = v, .stats = stats, .out = out, .max_shown = max_shown, .res = res,
			 .errs = errs };

	result_init(v, res);
	memcpy(res->reasons, v->reasons, sizeof(res->reasons));
	for (size_t i = 0; i < v->nreaders; i++) {
		if (v->readers[i]) {
			res->readers++;
			compare_reader(&c, v->readers[i]);
		}
	}
	if (v->w)
		rp_written_anomalies(v, out, res);
	res->ntimed = c.nerrs;
	if (c.nerrs)
		rp_summarize(errs, c.nerrs, &res->kernel);
}

/* ------------------------------------------------------------------ */
/* The pipeline's interface (side.h). */

/* Whether there is a verdict to give: a replay of evdev frames reads
 * every device back, and says so even when it has none (a keyboard left
 * out); a replay of HID reports only when the driver made a device the
 * recording has frames of. */
static bool
has_verdict(const struct rp_verify *v)
{
	return v->kind == RP_VERIFY_WRITTEN || rp_verify_any(v);
}

static bool
ops_drain(void *data, struct tt_loop *loop, int timeout_ms)
{
	struct rp_verify *v = data;

	if (!has_verdict(v))
		return false;
	rp_verify_drain(v, loop, timeout_ms);
	return true;
}

static bool
ops_conclude(void *data, const struct rp_stats *st, FILE *out)
{
	struct rp_verify *v = data;

	if (!has_verdict(v))
		return false;
	rp_verify_compare(v, st, out, SHOWN_MAX, &v->res);
	rp_report_print_verify(out, &v->res);
	return v->res.unexplained || v->res.anomalies;
}

static void
ops_report(void *data, FILE *f)
{
	rp_report_verify(f, &((struct rp_verify *)data)->res);
}

const struct rp_verify_ops rp_verify_ops = {
	.drain = ops_drain,
	.conclude = ops_conclude,
	.report = ops_report,
};
