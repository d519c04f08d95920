/* SPDX-License-Identifier: MIT */
/* --verify of replayed evdev frames (verify.h, RP_VERIFY_WRITTEN): the
 * expected frames are what the kernel must deliver for each write
 * (kernel-model.h), and the anomalies of both streams are counted. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/input.h>

#include "stack.h"
#include "util-mem.h"
#include "verify-reader.h"

/* The anomalies (lib/analysis/detect.h, the pass validate and analyze run) of
 * one stream, in the order it happened. */
struct vdiag {
	struct tt_stack *detect;
	struct tt_diag_tally tally;
	int64_t first_us;	/* delivered: the first frame's kernel time */
	bool have_first;
	struct tt_event *ev;	/* an expected frame converted */
	size_t cap;
};

struct rp_written {
	const struct rp_schedule *s;
	struct vdiag expected, delivered;
	int64_t nexpected;		/* the expected stream's clock */
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

struct rp_written *
rp_written_new(const struct rp_schedule *s)
{
	struct rp_written *w = tt_zalloc(sizeof(*w));

	w->s = s;
	w->ddevs = detect_devices(s);
	vdiag_init(&w->expected, s, w->ddevs);
	vdiag_init(&w->delivered, s, w->ddevs);
	return w;
}

void
rp_written_free(struct rp_written *w)
{
	if (!w)
		return;
	vdiag_release(&w->expected);
	vdiag_release(&w->delivered);
	for (size_t i = 0; i < w->s->ndevices; i++)
		free(w->ddevs[i].slots);
	free(w->ddevs);
	free(w);
}

/* Each delivered frame, under the recording's device id, as the expected
 * frames are. */
void
rp_written_delivered(struct rp_verify *v, const struct rp_vreader *r, const struct tt_frame *f)
{
	struct tt_frame df = *f;

	df.device = r->id;
	vdiag_feed(&v->w->delivered, &df, 0);
}

/* Each expected frame (what the kernel must deliver for a written one:
 * the recording's frame, or one replay adds to lift or set up touches,
 * through the kernel's filtering, kernel-model.h) under the line of the
 * recording's frame (the tag says which; 0 for replay's own) and on a
 * clock of its own, one microsecond a frame: only their order is known
 * here. */
static void
expected_diag(struct rp_written *w, uint32_t dev, const struct input_event *ev, size_t n, int64_t tag)
{
	struct vdiag *vd = &w->expected;
	const struct rp_schedule *s = w->s;
	size_t line = tag >= 0 && s->nframes ? s->frames[(size_t)tag % s->nframes].line : 0;

	if (n > vd->cap) {
		vd->cap = n;
		vd->ev = tt_reallocarray(vd->ev, n, sizeof(*vd->ev));
	}
	for (size_t i = 0; i < n; i++)
		vd->ev[i] = (struct tt_event){ .type = ev[i].type, .code = ev[i].code, .value = ev[i].value };
	struct tt_frame f = { .device = s->devices[dev].dev->id, .time_us = w->nexpected++,
			      .nevents = (uint32_t)n, .events = vd->ev };
	vdiag_feed(vd, &f, line);
}

struct rp_verify *
rp_verify_new(const struct rp_schedule *s)
{
	struct rp_verify *v = rp_verify_alloc(RP_VERIFY_WRITTEN, s->ndevices);

	v->s = s;
	v->w = rp_written_new(s);
	return v;
}

int
rp_verify_attach(struct rp_verify *v, uint32_t dev, const char *node,
		 const struct input_absinfo *abs, struct tt_loop *loop)
{
	struct rp_vreader *r;
	int rc = rp_verify_open(v, dev, node, v->s->devices[dev].dev->id, loop, &r);

	if (rc < 0)
		return rc;
	r->dev = dev;
	rp_kmodel_init(&r->model, v->s->devices[dev].dev, abs);
	r->modelled = true;
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
	struct rp_vreader *r = v->readers[dev];

	if (!r || !r->modelled)
		return;
	int fd = tt_capture_fd(r->cap);

	for (unsigned int c = 0; c < ABS_CNT; c++) {
		struct input_absinfo ai;
		if (r->model.fuzz[c] == 0)
			continue;
		if (ioctl(fd, EVIOCGABS(c), &ai) == 0)
			r->model.fuzz[c] = ai.fuzz;
	}
}

void
rp_verify_written(struct rp_verify *v, uint32_t dev, const struct input_event *ev,
		  size_t n, int64_t tag)
{
	struct rp_vreader *r = v->readers[dev];
	struct rp_evbuf *out;
	size_t first;

	if (!r || !r->modelled)
		return;
	out = &r->expected.ev;
	first = out->n;
	rp_kmodel_feed(&r->model, ev, n, out, v->reasons);
	/* Cut what was appended into frames at each SYN_REPORT. */
	for (size_t i = first; i < out->n; i++) {
		if (out->ev[i].type != EV_SYN || out->ev[i].code != SYN_REPORT)
			continue;
		rp_vstream_add(&r->expected, (struct rp_vframe){ .tag = tag, .first = first,
								  .n = i + 1 - first });
		expected_diag(v->w, dev, &out->ev[first], i + 1 - first, tag);
		first = i + 1;
	}
}

/* Anomalies the delivery has beyond what was expected: the replay's (or
 * the kernel's), never the recording's own, which are expected too, nor
 * what the kernel's filtering makes of it. */
void
rp_written_anomalies(struct rp_verify *v, FILE *out, struct rp_verify_result *res)
{
	const struct tt_diag_tally *w = &v->w->expected.tally, *dl = &v->w->delivered.tally;
	enum tt_check kinds[TT_CHECK_COUNT];
	size_t n;

	tt_stack_finish(v->w->expected.detect);
	tt_stack_finish(v->w->delivered.detect);
	n = tt_diag_tally_compare(w, dl, TT_TALLY_MORE, 1, NULL, kinds);
	for (size_t i = 0; i < n; i++) {
		enum tt_check c = kinds[i];
		char where[200];
		uint64_t more = tt_diag_tally_excess(w, dl, 1, c);

		res->new_anomalies[c] = more;
		res->anomalies += more;
		tt_diag_tally_where_text(dl, c, v->w->delivered.first_us, where, sizeof(where));
		fprintf(out, "anomaly %s (%s): %" PRIu64 " delivered, %" PRIu64 " expected (%s of the delivery)\n",
			tt_check_name(c), tt_severity_name(tt_check_severity(c)), dl->count[c], w->count[c], where);
	}
}
