/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/input.h>

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

struct rp_verify {
	const struct rp_schedule *s;
	struct vdev *devs;
	size_t reasons[RP_R_COUNT];
};

struct rp_verify *
rp_verify_new(const struct rp_schedule *s)
{
	struct rp_verify *v = tt_zalloc(sizeof(*v));

	v->s = s;
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
	free(v);
}

static void
push_frame(struct vframe **arr, size_t *n, size_t *cap, struct vframe f)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*arr = tt_reallocarray(*arr, *cap, sizeof(**arr));
	}
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
 * back before each frame (a few ioctls, only in --verify).
 */
static void
refresh_fuzz(struct vdev *d)
{
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
	refresh_fuzz(d);
	rp_kmodel_feed(&d->model, ev, n, &d->expected, v->reasons);
	/* Cut what was appended into frames at each SYN_REPORT. */
	size_t first = start;
	for (size_t i = start; i < d->expected.n; i++) {
		const struct input_event *e = &d->expected.ev[i];
		if (e->type == EV_SYN && e->code == SYN_REPORT) {
			push_frame(&d->eframes, &d->neframes, &d->ecap,
				   (struct vframe){ .tag = tag, .first = first, .n = i + 1 - first });
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
	res->ntimed = nerrs;
	if (nerrs) {
		res->kernel.median_us = rp_percentile(errs, nerrs, 50);
		res->kernel.p99_us = rp_percentile(errs, nerrs, 99);
		res->kernel.max_us = rp_percentile(errs, nerrs, 100);
		res->kernel.drift_us = errs[nerrs - 1] - errs[0];
	}
}
