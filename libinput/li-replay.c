/* SPDX-License-Identifier: MIT */
/* replay --libinput: the kernel's delivery and libinput's events of a
 * replay, written as one timeline (li-replay.h). */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evdev-capture.h"
#include "li-capture.h"
#include "li-replay.h"
#include "log.h"
#include "output.h"
#include "util-time.h"
#include "writer.h"

struct li_dev {
	struct rp_li *li;
	struct tt_capture *cap;
	char *node;
	uint32_t id;
};

struct rp_li {
	struct tt_output *out;
	struct tt_writer *w;
	struct tt_li_capture *cap;
	const struct tt_li_config *config;
	unsigned int capture_flags;
	int64_t start_us;	/* CLOCK_MONOTONIC at the file's time 0 */
	struct li_dev **devs;	/* each the userdata of its loop source */
	size_t ndevs;
	size_t nframes;
	size_t nevents;		/* libinput's, once its capture is closed */
	int error;		/* the first write error */
};

static void
note_error(struct rp_li *li, int rc)
{
	if (rc < 0 && !li->error) {
		li->error = rc;
		tt_error("%s: %s", tt_output_name(li->out), strerror(-rc));
	}
}

int
rp_li_open(const struct rp_li_options *o, struct rp_li **out)
{
	_cleanup_(rp_li_freep) struct rp_li *li = tt_zalloc(sizeof(*li));
	struct tt_header h;
	int rc;

	if ((rc = tt_output_open(o->output, o->inputs, &li->out)) < 0)
		return rc;
	if ((rc = tt_writer_new(tt_output_fd(li->out), &li->w)) < 0) {
		tt_error("%s: %s", tt_output_name(li->out), strerror(-rc));
		return rc;
	}
	li->config = o->config;
	li->capture_flags = o->show_keycodes ? TT_CAPTURE_SHOW_KEYCODES : 0;
	tt_header_init_now(&h);
	h.keycodes_masked = !o->show_keycodes;
	li->start_us = h.start_monotonic_us;
	note_error(li, tt_writer_header(li->w, &h));
	tt_header_clear(&h);
	if (li->error)
		return li->error;
	*out = steal(&li);
	return 0;
}

static int
on_frame(void *userdata, const struct tt_frame *f)
{
	struct li_dev *d = userdata;

	note_error(d->li, tt_writer_frame(d->li->w, f));
	d->li->nframes++;
	return 0;
}

static void
read_dev(struct li_dev *d)
{
	int rc = tt_capture_dispatch(d->cap, d->li->start_us, on_frame, d);

	/* The replay takes its devices away at the end: nothing lost then. */
	if (rc < 0 && rc != -ENODEV && rc != -EAGAIN)
		note_error(d->li, rc);
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *data)
{
	(void)loop;
	(void)source;
	(void)events;
	read_dev(data);
}

/* libinput's records come after the frames they were made of. */
static void
read_all(void *userdata)
{
	struct rp_li *li = userdata;

	for (size_t i = 0; i < li->ndevs; i++)
		read_dev(li->devs[i]);
}

static void
on_write_error(void *userdata, int error)
{
	note_error(userdata, error);
}

int
rp_li_attach(struct rp_li *li, struct tt_loop *loop, uint32_t id, const char *node)
{
	struct li_dev *d;
	int rc;

	li->devs = tt_reallocarray(li->devs, li->ndevs + 1, sizeof(*li->devs));
	d = li->devs[li->ndevs++] = tt_zalloc(sizeof(*d));
	d->li = li;
	d->id = id;
	d->node = tt_strdup(node);
	if ((rc = tt_capture_open(node, id, li->capture_flags, &d->cap)) < 0) {
		tt_error("--libinput: cannot read %s back: %s", node, strerror(-rc));
		return rc;
	}
	if (!tt_loop_add(loop, tt_capture_fd(d->cap), on_readable, d)) {
		rc = -errno;
		tt_error("--libinput: %s: %s", node, strerror(-rc));
		return rc;
	}
	note_error(li, tt_writer_device(li->w, tt_capture_device(d->cap)));
	return li->error;
}

int
rp_li_start(struct rp_li *li, struct tt_loop *loop)
{
	struct tt_li_capture_options o = {
		.loop = loop, .writer = li->w, .config = li->config, .start_us = li->start_us,
		.mask_keys = !(li->capture_flags & TT_CAPTURE_SHOW_KEYCODES),
		.before_write = read_all, .on_error = on_write_error, .userdata = li,
	};
	int rc;

	if ((rc = tt_li_capture_new(&o, &li->cap)) < 0)
		return rc;
	for (size_t i = 0; i < li->ndevs; i++) {
		if ((rc = tt_li_capture_add(li->cap, li->devs[i]->node, li->devs[i]->id)) < 0)
			return rc;
	}
	return tt_li_capture_check_config(li->cap);
}

void
rp_li_drain(struct rp_li *li, struct tt_loop *loop, int ms)
{
	int64_t end = tt_now_us(CLOCK_MONOTONIC) + (int64_t)ms * 1000;

	while (tt_now_us(CLOCK_MONOTONIC) < end)
		tt_loop_dispatch(loop, 10);
	read_all(li);
	if (li->cap)
		tt_li_capture_dispatch(li->cap);
}

int
rp_li_commit(struct rp_li *li)
{
	read_all(li);
	if (li->cap) {
		tt_li_capture_dispatch(li->cap);
		li->nevents = tt_li_capture_nevents(li->cap);
	}
	/* Nothing is written after this: what the devices' removal makes
	 * libinput say is not part of the replay. */
	tt_li_capture_free(li->cap);
	li->cap = NULL;
	if (li->error)
		return li->error;
	tt_writer_free(li->w);
	li->w = NULL;
	return tt_output_commit(li->out);
}

void
rp_li_counts(const struct rp_li *li, size_t *frames, size_t *events)
{
	*frames = li->nframes;
	*events = li->cap ? tt_li_capture_nevents(li->cap) : li->nevents;
}

const char *
rp_li_output_name(const struct rp_li *li)
{
	return tt_output_name(li->out);
}

void
rp_li_free(struct rp_li *li)
{
	if (!li)
		return;
	tt_li_capture_free(li->cap);
	for (size_t i = 0; i < li->ndevs; i++) {
		tt_capture_free(li->devs[i]->cap);
		free(li->devs[i]->node);
		free(li->devs[i]);
	}
	free(li->devs);
	tt_writer_free(li->w);
	tt_output_free(li->out);
	free(li);
}

bool
rp_li_udev_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}
