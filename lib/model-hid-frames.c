/* SPDX-License-Identifier: MIT */
/* The HID layer's report-to-frame link: each HID report that completed a
 * frame and the evdev frame it produced. See struct tt_hframe in model.h.
 *
 * Both halves wait: a frame until no report nearer in time can come (the
 * recorder may read the report after the frame, up to hid_before_us
 * later), a report until no frame can (hid_after_us). Nearest in time
 * wins, because not every report produces a frame (nothing changed) and
 * not every frame comes from a report (hid-multitouch's release timer),
 * so counting them off in order would drift. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model-private.h"

static void
push(struct tt_hframe **list, size_t *n, size_t *cap, const struct tt_hframe *item)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*list = tt_reallocarray(*list, *cap, sizeof(**list));
	}
	(*list)[(*n)++] = *item;
}

static void
drop(struct tt_hframe *list, size_t *n, size_t i)
{
	memmove(&list[i], &list[i + 1], (*n - i - 1) * sizeof(*list));
	(*n)--;
}

static const struct tt_hid_device *
hid_device(const struct tt_model *m, uint32_t id)
{
	for (size_t i = 0; i < m->nhdevs; i++) {
		if (m->hdevs[i].id == id)
			return m->hdevs[i].dev;
	}
	return NULL;
}

static bool
lists(const struct tt_hid_device *d, uint32_t evdev)
{
	for (uint32_t i = 0; d && i < d->nevdev; i++) {
		if (d->evdev_devices[i] == evdev)
			return true;
	}
	return false;
}

void
tt_model_hid_frames_report(struct tt_model *m, const struct hdev *h, const struct tt_record *rec,
			   uint8_t report_id)
{
	struct tt_hframe r = {
		.hid_device = h->id, .report_id = report_id,
		.report_us = rec->hid_report->time_us, .report_line = rec->line,
	};

	if (m->link_on && h->dev->nevdev)
		push(&m->hreps, &m->nhreps, &m->caphreps, &r);
}

void
tt_model_hid_frames_evdev(struct tt_model *m, const struct mdev *d, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	struct tt_hframe fr = { .evdev_device = d->id, .frame_us = f->time_us, .frame_line = rec->line };
	bool listed = false;

	if (!m->link_on || (f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC)))
		return;
	for (size_t i = 0; i < m->nhdevs && !listed; i++)
		listed = lists(m->hdevs[i].dev, d->id);
	if (listed)
		push(&m->hframes, &m->nhframes, &m->caphframes, &fr);
}

/* The frame @i takes the nearest report that may have produced it. */
static void
resolve_frame(struct tt_model *m, size_t i)
{
	struct tt_hframe l = m->hframes[i];
	size_t best = SIZE_MAX;
	int64_t best_dt = INT64_MAX;

	for (size_t k = 0; k < m->nhreps; k++) {
		const struct tt_hframe *r = &m->hreps[k];
		int64_t d = l.frame_us - r->report_us;
		int64_t dt = d < 0 ? -d : d;
		if (d < -m->hid_before_us || d > m->hid_after_us || dt >= best_dt ||
		    !lists(hid_device(m, r->hid_device), l.evdev_device))
			continue;
		best = k;
		best_dt = dt;
	}
	drop(m->hframes, &m->nhframes, i);
	if (best == SIZE_MAX)
		return;	/* the kernel made it by itself */
	l.hid_device = m->hreps[best].hid_device;
	l.report_id = m->hreps[best].report_id;
	l.report_us = m->hreps[best].report_us;
	l.report_line = m->hreps[best].report_line;
	drop(m->hreps, &m->nhreps, best);
	if (m->cb.hid_frame)
		m->cb.hid_frame(m->data, &l);
}

void
tt_model_hid_frames_advance(struct tt_model *m, int64_t now)
{
	/* Oldest first, so an earlier frame has the first pick. */
	while (m->nhframes && now - m->hframes[0].frame_us > m->hid_before_us)
		resolve_frame(m, 0);
	/* A report no frame still waiting or to come can take: those are
	 * all later than now - before_us. */
	for (size_t k = 0; k < m->nhreps;) {
		if (now - m->hreps[k].report_us > m->hid_after_us + m->hid_before_us)
			drop(m->hreps, &m->nhreps, k);
		else
			k++;
	}
}

void
tt_model_hid_frames_finish(struct tt_model *m)
{
	while (m->nhframes)
		resolve_frame(m, 0);
	m->nhreps = 0;
}

void
tt_model_hid_frames_free(struct tt_model *m)
{
	free(m->hreps);
	free(m->hframes);
}
