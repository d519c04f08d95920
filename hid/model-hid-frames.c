/* SPDX-License-Identifier: MIT */
/* The HID layer's report-to-frame link: each HID report that completed a
 * frame and the evdev frame it produced. See struct tt_hframe in model.h.
 *
 * Both halves wait: a frame until no report nearer in time can come (the
 * recorder may read the report after the frame, up to hid_before_us
 * later), a report until no frame can (hid_after_us). Counting them off
 * in order would drift: not every report produces a frame (nothing
 * changed) and not every frame comes from a report (hid-multitouch's
 * release timer). Nearest in time alone is not enough either: the
 * recorder reads hidraw a few milliseconds after the kernel stamped the
 * frame, as long as the reports are apart. So a frame first takes a
 * report that left the same state: the contacts down and their
 * positions, which hid-multitouch hands on as they are. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model-private.h"

static void
push(struct hpair **list, size_t *n, size_t *cap, const struct hpair *item)
{
	*list = tt_grow(*list, *n, cap, sizeof(**list));
	(*list)[(*n)++] = *item;
}

static void
drop(struct hpair *list, size_t *n, size_t i)
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

/* A contact down at x, y, as a term of an order-free sum. */
static uint64_t
mix(int32_t x, int32_t y)
{
	uint64_t v = ((uint64_t)(uint32_t)x << 32 | (uint32_t)y) * 0x9e3779b97f4a7c15ull;

	return (v ^ (v >> 29)) * 0xbf58476d1ce4e5b9ull + 1;
}

void
tt_model_hid_frames_report(struct tt_model *m, const struct hdev *h, const struct tt_record *rec,
			   uint8_t report_id, uint32_t collection)
{
	struct hpair r = {
		.l = { .hid_device = h->id, .report_id = report_id,
		       .report_us = rec->hid_report->time_us, .report_line = rec->line },
	};

	if (!m->link_on || !h->dev->nevdev)
		return;
	for (size_t i = 0; i < h->nactive; i++) {
		const struct tt_htouch *t = &h->active[i]->pub;
		if (t->collection == collection)
			r.state += mix(t->x, t->y);
	}
	push(&m->hreps, &m->nhreps, &m->caphreps, &r);
}

void
tt_model_hid_frames_evdev(struct tt_model *m, const struct mdev *d, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	bool listed = false;

	/* Cheap in a file without HID devices: nothing to pair with. */
	if (!m->nhdevs || !m->link_on || d->kind == MDEV_NONE || (f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC)))
		return;
	for (size_t i = 0; i < m->nhdevs && !listed; i++)
		listed = lists(m->hdevs[i].dev, d->id);
	if (!listed)
		return;

	struct hpair fr = { .l = { .evdev_device = d->id, .frame_us = f->time_us, .frame_line = rec->line } };
	const struct tt_ktouch *down[TT_MAX_SLOTS];
	size_t n = tt_model_active(m, d->id, down, ARRAY_LENGTH(down));
	for (size_t i = 0; i < n; i++)
		fr.state += mix(down[i]->values[TT_AXIS(ABS_MT_POSITION_X)], down[i]->values[TT_AXIS(ABS_MT_POSITION_Y)]);
	push(&m->hframes, &m->nhframes, &m->caphframes, &fr);
}

/* The report for frame @f: the nearest that left its state, else the
 * nearest; SIZE_MAX for none. */
static size_t
best_report(const struct tt_model *m, const struct hpair *f)
{
	size_t best = SIZE_MAX;
	int64_t best_dt = INT64_MAX;
	bool best_same = false;

	for (size_t k = 0; k < m->nhreps; k++) {
		const struct hpair *r = &m->hreps[k];
		int64_t d = f->l.frame_us - r->l.report_us;
		int64_t dt = d < 0 ? -d : d;
		bool same = r->state == f->state;
		if (d < -m->hid_before_us || d > m->hid_after_us || !lists(hid_device(m, r->l.hid_device), f->l.evdev_device))
			continue;
		if ((same && !best_same) || (same == best_same && dt < best_dt)) {
			best = k;
			best_dt = dt;
			best_same = same;
		}
	}
	return best;
}

static void
resolve_frame(struct tt_model *m, size_t i)
{
	struct tt_hframe l = m->hframes[i].l;
	size_t best = best_report(m, &m->hframes[i]);

	drop(m->hframes, &m->nhframes, i);
	if (best == SIZE_MAX)
		return;	/* the kernel made it by itself */
	l.hid_device = m->hreps[best].l.hid_device;
	l.report_id = m->hreps[best].l.report_id;
	l.report_us = m->hreps[best].l.report_us;
	l.report_line = m->hreps[best].l.report_line;
	drop(m->hreps, &m->nhreps, best);
	if (m->cb.hid_frame)
		m->cb.hid_frame(m->data, &l);
}

void
tt_model_hid_frames_advance(struct tt_model *m, int64_t now)
{
	/* Oldest first, so an earlier frame has the first pick. */
	while (m->nhframes && now - m->hframes[0].l.frame_us > m->hid_before_us)
		resolve_frame(m, 0);
	/* A report no frame still waiting or to come can take: those are
	 * all later than now - before_us. */
	for (size_t k = 0; k < m->nhreps;) {
		if (now - m->hreps[k].l.report_us > m->hid_after_us + m->hid_before_us)
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
