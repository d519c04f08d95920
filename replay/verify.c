/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/input.h>

#include "stack.h"
#include "evdev-capture.h"
#include "verify.h"
#include "util-mem.h"

struct vframe {
	int64_t tag;		/* expected: the player's tag; received: -1 */
	int64_t time_us;	/* received: kernel time */
	size_t first;		/* index into the device's event buffer */
	size_t n;
};

struct vdev {
	struct rp_verify *v;
	struct tt_capture *cap;
	struct rp_kmodel model;
	bool attached;
	struct rp_evbuf expected;	/* all expected events */
	struct vframe *eframes;
	size_t neframes, ecap;
	struct rp_evbuf received;
	struct vframe *rframes;
	size_t nrframes, rcap;
	size_t received_dropped;	/* SYN_DROPPED seen by our reader */
};

/* The anomalies (lib/detect.h, the pass validate and analyze run) of
 * what the kernel must deliver and of what it delivered, each stream in
 * the order it happened. */
struct vdiag {
	struct tt_stack *detect;
	struct tt_diag_tally tally;
	int64_t first_us;	/* delivered: the first frame's kernel time */
	bool have_first;
	struct tt_event *ev;	/* an expected frame converted */
	size_t cap;
};

struct rp_verify {
	const struct rp_schedule *s;
	struct vdev *devs;
	size_t reasons[RP_R_COUNT];
	struct vdiag expected, delivered;
	int64_t nexpected;	/* the expected stream's clock */
	struct tt_device *ddevs;	/* the devices as the detection sees them */
};

/*
 * The devices the two streams come from, as created: shallow copies of
 * the schedule's with the state of a new uinput device, every slot empty
 * and nothing pressed (what the replay then writes sets them up). Their
 * own slot arrays too: a device given slots for codes its description
 * lacked (undeclared.h) still points at the reader's, which has fewer.
 */
static struct tt_device *
detect_devices(const struct rp_schedule *s)
{
	struct tt_device *ddevs = tt_reallocarray(NULL, s->ndevices ? s->ndevices : 1, sizeof(*ddevs));

	for (size_t i = 0; i < s->ndevices; i++) {
		struct tt_device *dd = &ddevs[i];
		*dd = *s->devices[i].dev;
		dd->slots = NULL;
		memset(dd->keys_down, 0, sizeof(dd->keys_down));
		memset(dd->leds_on, 0, sizeof(dd->leds_on));
		memset(dd->switches_on, 0, sizeof(dd->switches_on));
		if (tt_device_set_slots(dd, dd->num_slots) < 0)
			dd->num_slots = 0;
	}
	return ddevs;
}

static void
vdiag_init(struct vdiag *vd, const struct rp_schedule *s, const struct tt_device *ddevs)
{
	vd->detect = tt_stack_new(NULL, tt_diag_tally_add, &vd->tally);
	for (size_t i = 0; i < s->ndevices; i++) {
		struct tt_record rec = { .type = TT_RECORD_DEVICE, .device = &ddevs[i] };
		tt_stack_feed(vd->detect, &rec);
	}
}

static void
vdiag_release(struct vdiag *vd)
{
	tt_stack_free(vd->detect);
	free(vd->ev);
}

static void
vdiag_feed(struct vdiag *vd, const struct tt_frame *f, size_t line)
{
	struct tt_record rec = { .type = TT_RECORD_FRAME, .line = line, .frame = f };

	if (!vd->have_first) {
		vd->first_us = f->time_us;
		vd->have_first = true;
	}
	tt_stack_feed(vd->detect, &rec);
}

/* Each expected frame (what the kernel must deliver for a written one:
 * the recording's frame, or one replay adds to lift or set up touches,
 * through the kernel's filtering, kernel-model.h) under the line of the
 * recording's frame (the tag says which; 0 for replay's own) and on a
 * clock of its own, one microsecond a frame: only their order is known
 * here. */
static void
expected_diag(struct rp_verify *v, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct vdiag *vd = &v->expected;
	const struct rp_schedule *s = v->s;
	size_t line = tag >= 0 && s->nframes ? s->frames[(size_t)tag % s->nframes].line : 0;

	if (n > vd->cap) {
		vd->cap = n;
		vd->ev = tt_reallocarray(vd->ev, n, sizeof(*vd->ev));
	}
	for (size_t i = 0; i < n; i++)
		vd->ev[i] = (struct tt_event){ .type = ev[i].type, .code = ev[i].code, .value = ev[i].value };
	struct tt_frame f = { .device = s->devices[dev].dev->id, .time_us = v->nexpected++,
			      .nevents = (uint32_t)n, .events = vd->ev };
	vdiag_feed(vd, &f, line);
}

struct rp_verify *
rp_verify_new(const struct rp_schedule *s)
{
	struct rp_verify *v = tt_zalloc(sizeof(*v));

	v->s = s;
	v->ddevs = detect_devices(s);
	vdiag_init(&v->expected, s, v->ddevs);
	vdiag_init(&v->delivered, s, v->ddevs);
	v->devs = tt_reallocarray(NULL, s->ndevices ? s->ndevices : 1, sizeof(*v->devs));
	memset(v->devs, 0, (s->ndevices ? s->ndevices : 1) * sizeof(*v->devs));
	for (size_t i = 0; i < s->ndevices; i++)
		v->devs[i].v = v;
	return v;
}

void
rp_verify_free(struct rp_verify *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->s->ndevices; i++) {
		struct vdev *d = &v->devs[i];
		tt_capture_free(d->cap);
		if (d->attached)
			rp_kmodel_release(&d->model);
		rp_evbuf_release(&d->expected);
		rp_evbuf_release(&d->received);
		free(d->eframes);
		free(d->rframes);
	}
	free(v->devs);
	vdiag_release(&v->expected);
	vdiag_release(&v->delivered);
	for (size_t i = 0; i < v->s->ndevices; i++)
		free(v->ddevs[i].slots);
	free(v->ddevs);
	free(v);
}

static void
push_frame(struct vframe **arr, size_t *n, size_t *cap, struct vframe f)
{
	*arr = tt_grow(*arr, *n, cap, sizeof(**arr));
	(*arr)[(*n)++] = f;
}

static int
on_frame(void *userdata, const struct tt_frame *f)
{
	struct vdev *d = userdata;
	struct vframe vf = { .tag = -1, .time_us = f->time_us, .first = d->received.n, .n = f->nevents };

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type == EV_SYN && e->code == SYN_DROPPED)
			d->received_dropped++;
		rp_evbuf_push(&d->received, e->type, e->code, e->value);
	}
	push_frame(&d->rframes, &d->nrframes, &d->rcap, vf);
	/* Under the recording's device id, as the expected frames are. */
	struct tt_frame df = *f;
	df.device = d->v->s->devices[d - d->v->devs].dev->id;
	vdiag_feed(&d->v->delivered, &df, 0);
	return 0;
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	struct vdev *d = data;

	(void)loop;
	(void)source;
	(void)events;
	tt_capture_dispatch(d->cap, 0, on_frame, d);
}

int
rp_verify_attach(struct rp_verify *v, uint32_t dev, const char *node,
		 const struct input_absinfo *abs, struct tt_loop *loop)
{
	struct vdev *d = &v->devs[dev];
	int rc = tt_capture_open(node, dev, TT_CAPTURE_SHOW_KEYCODES, &d->cap);

	if (rc < 0)
		return rc;
	rp_kmodel_init(&d->model, v->s->devices[dev].dev, abs);
	d->attached = true;
	if (!tt_loop_add(loop, tt_capture_fd(d->cap), on_readable, d))
		return -errno;
	return 0;
}

/*
 * Someone else may change the device's fuzz while it plays: libinput's
 * udev rules set it to 0 (and keep the value in a property) about a
 * second after the device appears. The kernel then filters with the new
 * fuzz, so the model must too: while any axis still has a fuzz, read it
 * back just before each frame is written (a few ioctls, only in
 * --verify). Read after the write, a change that landed in between made
 * the model filter a frame the kernel had filtered with the old fuzz.
 */
void
rp_verify_writing(struct rp_verify *v, uint32_t dev)
{
	struct vdev *d = &v->devs[dev];

	if (!d->attached)
		return;
	int fd = tt_capture_fd(d->cap);

	for (unsigned int c = 0; c < ABS_CNT; c++) {
		struct input_absinfo ai;
		if (d->model.fuzz[c] == 0)
			continue;
		if (ioctl(fd, EVIOCGABS(c), &ai) == 0)
			d->model.fuzz[c] = ai.fuzz;
	}
}

void
rp_verify_written(struct rp_verify *v, uint32_t dev, const struct input_event *ev,
		  size_t n, int64_t tag)
{
	struct vdev *d = &v->devs[dev];
	size_t start = d->expected.n;

	if (!d->attached)
		return;
	rp_kmodel_feed(&d->model, ev, n, &d->expected, v->reasons);
	/* Cut what was appended into frames at each SYN_REPORT. */
	size_t first = start;
	for (size_t i = start; i < d->expected.n; i++) {
		const struct input_event *e = &d->expected.ev[i];
		if (e->type == EV_SYN && e->code == SYN_REPORT) {
			push_frame(&d->eframes, &d->neframes, &d->ecap,
				   (struct vframe){ .tag = tag, .first = first, .n = i + 1 - first });
			expected_diag(v, dev, &d->expected.ev[first], i + 1 - first, tag);
			first = i + 1;
		}
	}
}

static bool
complete(const struct rp_verify *v)
{
	for (size_t i = 0; i < v->s->ndevices; i++) {
		const struct vdev *d = &v->devs[i];
		if (d->attached && d->nrframes < d->neframes)
			return false;
	}
	return true;
}

void
rp_verify_drain(struct rp_verify *v, struct tt_loop *loop, int timeout_ms)
{
	for (int waited = 0; !complete(v) && waited < timeout_ms; waited += 10)
		tt_loop_dispatch(loop, 10);
}

static bool
same_frame(const struct input_event *a, size_t na, const struct input_event *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		if (a[i].type != b[i].type || a[i].code != b[i].code || a[i].value != b[i].value)
			return false;
	}
	return true;
}

/* Anomalies the delivery has beyond what was expected: the replay's (or
 * the kernel's), never the recording's own, which are expected too, nor
 * what the kernel's filtering makes of it. */
static void
compare_diags(struct rp_verify *v, FILE *out, struct rp_verify_result *res)
{
	const struct tt_diag_tally *w = &v->expected.tally, *dl = &v->delivered.tally;
	enum tt_check kinds[TT_CHECK_COUNT];
	size_t n;

	tt_stack_finish(v->expected.detect);
	tt_stack_finish(v->delivered.detect);
	n = tt_diag_tally_compare(w, dl, TT_TALLY_MORE, 1, NULL, kinds);
	for (size_t i = 0; i < n; i++) {
		enum tt_check c = kinds[i];
		char where[200];
		uint64_t more = tt_diag_tally_excess(w, dl, 1, c);

		res->new_anomalies[c] = more;
		res->anomalies += more;
		tt_diag_tally_where_text(dl, c, v->delivered.first_us, where, sizeof(where));
		fprintf(out, "anomaly %s (%s): %" PRIu64 " delivered, %" PRIu64 " expected (%s of the delivery)\n",
			tt_check_name(c), tt_severity_name(tt_check_severity(c)), dl->count[c], w->count[c], where);
	}
}

void
rp_verify_compare(struct rp_verify *v, const struct rp_stats *stats, FILE *out,
		  size_t max_shown, struct rp_verify_result *res)
{
	_cleanup_free_ int64_t *errs = tt_reallocarray(NULL, stats->nlateness + 1, sizeof(int64_t));
	size_t nerrs = 0;

	memset(res, 0, sizeof(*res));
	memcpy(res->reasons, v->reasons, sizeof(res->reasons));
	for (size_t di = 0; di < v->s->ndevices; di++) {
		struct vdev *d = &v->devs[di];
		uint32_t id = v->s->devices[di].dev->id;
		size_t n = d->neframes < d->nrframes ? d->neframes : d->nrframes;
		int64_t last_tag = -1;

		if (!d->attached)
			continue;
		res->expected_frames += d->neframes;
		res->received_frames += d->nrframes;
		for (size_t i = 0; i < n; i++) {
			const struct vframe *e = &d->eframes[i], *r = &d->rframes[i];
			const struct input_event *ee = &d->expected.ev[e->first];
			const struct input_event *re = &d->received.ev[r->first];

			if (!same_frame(ee, e->n, re, r->n)) {
				if (res->unexplained++ < max_shown) {
					fprintf(out, "device %" PRIu32 " delivered frame %zu differs:\n  expected:", id, i);
					rp_print_events(out, ee, e->n);
					fprintf(out, "\n  received:");
					rp_print_events(out, re, r->n);
					fputc('\n', out);
				}
			}
			/* The first delivered frame of each recorded frame times it. */
			if (e->tag >= 0 && e->tag != last_tag && (size_t)e->tag < stats->nlateness)
				errs[nerrs++] = r->time_us - stats->deadlines_us[e->tag];
			last_tag = e->tag;
		}
		if (d->neframes != d->nrframes) {
			size_t diff = d->neframes > d->nrframes ? d->neframes - d->nrframes
								: d->nrframes - d->neframes;
			res->unexplained += diff;
			fprintf(out, "device %" PRIu32 ": %zu frames expected, %zu delivered%s\n", id,
				d->neframes, d->nrframes,
				d->received_dropped ? " (the reader saw SYN_DROPPED: its buffer overflowed)" : "");
		}
	}
	compare_diags(v, out, res);
	res->ntimed = nerrs;
	if (nerrs)
		rp_summarize(errs, nerrs, &res->kernel);
}
