/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <linux/input.h>

#include "evbuf.h"
#include "evdev-capture.h"
#include "hid-verify.h"
#include "reader.h"
#include "util-mem.h"

/* Recorded frames this much older than a device's first HID report are
 * the state before the HID recording began: the evdev frame of a report
 * is stamped by the kernel before the recorder reads the report. */
#define BEFORE_MARGIN_US 20000
/* The kernel's tracking ids wrap at this (TRKID_MAX). */
#define TRKID_MASK 0xffff

struct hframe {
	size_t first;
	size_t n;
};

struct hpair {
	struct rp_hid_verify *v;
	uint32_t hid;		/* schedule index */
	uint32_t evdev_id;	/* the recorded evdev device */
	char node[32];
	struct tt_capture *cap;
	struct tt_loop_source *src;
	struct rp_evbuf received;
	struct hframe *frames;
	size_t nframes, cap_frames;
	size_t lift_from;	/* frames from here on are the lift's */
};

struct rp_hid_verify {
	const struct rp_hid_schedule *s;
	struct tt_loop *loop;
	struct hpair *pairs;
	size_t npairs;
};

static const char *const reason_names[RP_HR_COUNT] = {
	[RP_HR_TRACKING_ID] = "tracking id renumbered by the kernel",
	[RP_HR_TIMESTAMP] = "MSC_TIMESTAMP counted from the driver's start",
	[RP_HR_BEFORE_REPORTS] = "recorded before the first HID report",
	[RP_HR_LIFT] = "replay's lift at the end",
};

const char *
rp_hid_reason_name(enum rp_hid_reason r)
{
	return r < RP_HR_COUNT ? reason_names[r] : "?";
}

struct rp_hid_verify *
rp_hid_verify_new(const struct rp_hid_schedule *s)
{
	struct rp_hid_verify *v = tt_zalloc(sizeof(*v));

	v->s = s;
	return v;
}

void
rp_hid_verify_free(struct rp_hid_verify *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->npairs; i++) {
		struct hpair *p = &v->pairs[i];
		if (p->src)
			tt_loop_remove(v->loop, p->src);
		tt_capture_free(p->cap);
		rp_evbuf_release(&p->received);
		free(p->frames);
	}
	free(v->pairs);
	free(v);
}

static int
on_frame(void *userdata, const struct tt_frame *f)
{
	struct hpair *p = userdata;
	struct hframe hf = { .first = p->received.n, .n = f->nevents };

	for (uint32_t i = 0; i < f->nevents; i++)
		rp_evbuf_push(&p->received, f->events[i].type, f->events[i].code, f->events[i].value);
	p->frames = tt_grow(p->frames, p->nframes, &p->cap_frames, sizeof(*p->frames));
	p->frames[p->nframes++] = hf;
	return 0;
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	struct hpair *p = data;

	(void)loop;
	(void)source;
	(void)events;
	tt_capture_dispatch(p->cap, 0, on_frame, p);
}

/* The recorded evdev device of HID device @hid named @name, or -1. */
static int64_t
recorded_device(const struct rp_hid_verify *v, uint32_t hid, const char *name)
{
	const struct tt_hid_device *hd = v->s->devices[hid].dev;

	for (uint32_t i = 0; i < hd->nevdev; i++) {
		const struct tt_device *d = tt_reader_device(v->s->reader, hd->evdev_devices[i]);
		if (d && d->name && strcmp(d->name, name) == 0)
			return d->id;
	}
	return -1;
}

int
rp_hid_verify_attach(struct rp_hid_verify *v, uint32_t hid, const char *node, const char *name,
		     struct tt_loop *loop)
{
	int64_t id = recorded_device(v, hid, name);
	struct hpair *p;
	int rc;

	if (id < 0)
		return 0;
	v->pairs = tt_reallocarray(v->pairs, v->npairs + 1, sizeof(*v->pairs));
	p = &v->pairs[v->npairs];
	*p = (struct hpair){ .v = v, .hid = hid, .evdev_id = (uint32_t)id, .lift_from = SIZE_MAX };
	snprintf(p->node, sizeof(p->node), "%s", node);
	rc = tt_capture_open(node, (uint32_t)id, TT_CAPTURE_SHOW_KEYCODES, &p->cap);
	if (rc < 0)
		return rc;
	v->npairs++;
	v->loop = loop;
	p->src = tt_loop_add(loop, tt_capture_fd(p->cap), on_readable, p);
	if (!p->src)
		return -errno;
	return 1;
}

bool
rp_hid_verify_any(const struct rp_hid_verify *v)
{
	return v && v->npairs > 0;
}

/* Reads until @quiet_ms pass with nothing new, at most @timeout_ms. */
static void
read_until_quiet(struct rp_hid_verify *v, struct tt_loop *loop, int quiet_ms, int timeout_ms)
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
rp_hid_verify_lifting(struct rp_hid_verify *v, struct tt_loop *loop)
{
	if (!rp_hid_verify_any(v))
		return;
	/* uhid hands a report to the driver within the write: its frames
	 * are in the evdev buffers already. */
	read_until_quiet(v, loop, 20, 200);
	for (size_t i = 0; i < v->npairs; i++) {
		if (v->pairs[i].lift_from == SIZE_MAX)
			v->pairs[i].lift_from = v->pairs[i].nframes;
	}
}

void
rp_hid_verify_drain(struct rp_hid_verify *v, struct tt_loop *loop, int timeout_ms)
{
	if (rp_hid_verify_any(v))
		read_until_quiet(v, loop, 100, timeout_ms);
}

/* ------------------------------------------------------------------ */
/* Comparing. */

struct side {
	bool have_first;
	int32_t first_id;	/* the first tracking id seen */
};

static int32_t
norm_id(struct side *sd, int32_t id)
{
	if (id < 0)
		return id;
	if (!sd->have_first) {
		sd->have_first = true;
		sd->first_id = id;
	}
	return (int32_t)((uint32_t)(id - sd->first_id) & TRKID_MASK);
}

struct cmp {
	struct side rec, del;
	bool ids_differ, stamps_differ;
};

static bool
is_stamp(const struct input_event *e)
{
	return e->type == EV_MSC && e->code == MSC_TIMESTAMP;
}

static bool
same_event(struct cmp *c, const struct input_event *a, const struct input_event *b)
{
	if (a->type != b->type || a->code != b->code)
		return false;
	if (is_stamp(a)) {
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

static int64_t
first_report_us(const struct rp_hid_schedule *s, uint32_t hid)
{
	for (size_t i = 0; i < s->nreports; i++) {
		if (s->reports[i].dev == hid)
			return s->reports[i].time_us;
	}
	return INT64_MAX;
}

static void
show_diff(FILE *out, const struct hpair *p, const struct rp_hid_evframe *e, size_t i)
{
	const struct hframe *r = &p->frames[i];

	fprintf(out, "%s: line %zu: device %" PRIu32 " frame %zu differs:\n  recorded: ",
		p->node, e->line, p->evdev_id, i);
	rp_print_events(out, e->events, e->nevents);
	fprintf(out, "\n  delivered:");
	rp_print_events(out, &p->received.ev[r->first], r->n);
	fputc('\n', out);
}

struct walk {
	FILE *out;
	size_t max_shown;
	struct rp_hid_verify_result *res;
	struct cmp c;
	size_t i;		/* delivered frame */
};

static void
compare_frame(struct walk *w, const struct hpair *p, const struct rp_hid_evframe *e)
{
	size_t i = w->i++;
	const struct hframe *r;

	w->res->expected_frames++;
	if (i >= p->nframes || i >= p->lift_from)
		return;	/* counted as missing */
	r = &p->frames[i];
	w->c.ids_differ = w->c.stamps_differ = false;
	if (!same_frame(&w->c, e->events, e->nevents, &p->received.ev[r->first], r->n)) {
		if (w->res->unexplained++ < w->max_shown)
			show_diff(w->out, p, e, i);
		return;
	}
	w->res->reasons[RP_HR_TRACKING_ID] += w->c.ids_differ;
	w->res->reasons[RP_HR_TIMESTAMP] += w->c.stamps_differ;
}

static void
compare_pair(struct walk *w, const struct rp_hid_schedule *s, const struct hpair *p)
{
	int64_t first = first_report_us(s, p->hid);
	size_t played = p->lift_from < p->nframes ? p->lift_from : p->nframes;
	size_t expected_before = w->res->expected_frames;

	w->c = (struct cmp){ 0 };
	w->i = 0;
	for (size_t k = 0; k < s->nevframes; k++) {
		const struct rp_hid_evframe *e = &s->evframes[k];
		if (e->device != p->evdev_id)
			continue;
		if (e->time_us < first - BEFORE_MARGIN_US) {
			w->res->reasons[RP_HR_BEFORE_REPORTS]++;
			continue;
		}
		compare_frame(w, p, e);
	}
	w->res->received_frames += p->nframes;
	w->res->reasons[RP_HR_LIFT] += p->nframes - played;
	size_t expected = w->res->expected_frames - expected_before;
	if (expected != played) {
		size_t diff = expected > played ? expected - played : played - expected;
		w->res->unexplained += diff;
		fprintf(w->out, "%s: device %" PRIu32 ": %zu frames recorded, %zu delivered by the "
			"driver\n", p->node, p->evdev_id, expected, played);
	}
}

void
rp_hid_verify_compare(struct rp_hid_verify *v, FILE *out, size_t max_shown,
		      struct rp_hid_verify_result *res)
{
	struct walk w = { .out = out, .max_shown = max_shown, .res = res };

	memset(res, 0, sizeof(*res));
	res->pairs = v->npairs;
	for (size_t i = 0; i < v->npairs; i++)
		compare_pair(&w, v->s, &v->pairs[i]);
}

void
rp_hid_verify_print(FILE *out, const struct rp_hid_verify_result *res)
{
	fprintf(out, "verify: %zu evdev device%s compared, %zu frames recorded, %zu delivered, "
		"%zu unexplained difference%s\n", res->pairs, res->pairs == 1 ? "" : "s",
		res->expected_frames, res->received_frames, res->unexplained,
		res->unexplained == 1 ? "" : "s");
	for (int r = 0; r < RP_HR_COUNT; r++) {
		if (res->reasons[r])
			fprintf(out, "  explained: %zu x %s\n", res->reasons[r], rp_hid_reason_name(r));
	}
}
