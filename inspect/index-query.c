/* SPDX-License-Identifier: MIT */
/* Queries of the index: frames, updates, markers and lanes at a time,
 * labels, memory, and the accessors the view reads through. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

int64_t
tt_index_frame_at(const struct tt_index *ix, int64_t t, int64_t device)
{
	size_t lo = 0, hi = ix->nframes;

	/* Frames are in file order, which is time order in any valid file. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->frames[mid].time_us <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		if (device < 0 || ix->devs[ix->frames[i].device].id == (uint32_t)device)
			return (int64_t)i;
		if (lo - i > 100000)
			break;
	}
	return -1;
}

uint32_t
tt_index_frame_nevents(const struct tt_index *ix, size_t f)
{
	uint32_t end = f + 1 < ix->nframes ? ix->frames[f + 1].first : (uint32_t)ix->nevents;
	return end - ix->frames[f].first;
}

int64_t
tt_index_kupd_at(const struct ti_lane *l, size_t f)
{
	size_t lo = 0, hi = l->nupd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->kupd[mid].frame == TI_NO_FRAME || l->kupd[mid].frame <= f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

int64_t
tt_index_xupd_at(const struct ti_lane *l, int64_t t)
{
	size_t lo = 0, hi = l->nupd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->xupd[mid].time_us <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

int64_t
tt_index_upd_time(const struct tt_index *ix, const struct ti_lane *l, size_t i)
{
	if (l->kind == TI_LANE_KERNEL)
		return l->kupd[i].frame == TI_NO_FRAME ? l->begin_us : ix->frames[l->kupd[i].frame].time_us;
	return l->xupd[i].time_us;
}

const char *
tt_index_marker_text(const struct tt_index *ix, const struct ti_marker *m)
{
	if (!m->text || m->text > ix->ntext)
		return NULL;
	return ix->text + m->text - 1;
}

bool
tt_index_marker_is_diag(const struct tt_index *ix, const struct ti_marker *m)
{
	return (m->kind == TI_MARK_ANOMALY || m->kind == TI_MARK_DROPPED) && tt_index_marker_text(ix, m);
}

const char *
ti_marker_kind_name(enum ti_marker_kind k)
{
	static const char *names[TI_MARK_COUNT] = {
		[TI_MARK_OWNERSHIP] = "ownership",
		[TI_MARK_ACCEPT] = "accept",
		[TI_MARK_REJECT] = "reject",
		[TI_MARK_PENDING_END] = "pending-end",
		[TI_MARK_EMULATING] = "emulating-pointer",
		[TI_MARK_DROPPED] = "SYN_DROPPED",
		[TI_MARK_RESYNC] = "resync",
		[TI_MARK_DEVICE_REMOVED] = "device-removed",
		[TI_MARK_ANOMALY] = "anomaly",
		[TI_MARK_RECORD] = "marker",
	};
	return (unsigned)k < TI_MARK_COUNT ? names[k] : "?";
}

const char *
tt_index_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size)
{
	(void)ix;
	switch (l->kind) {
	case TI_LANE_KERNEL:
		snprintf(buf, size, "dev%u s%d #%d%s", l->device, l->slot, l->id,
			 (l->flags & TT_KTOUCH_SYNTHETIC_ID) ? "*" : "");
		break;
	case TI_LANE_XI:
		snprintf(buf, size, "xi%d t%d %s", l->sourceid ? l->sourceid : (int32_t)l->device,
			 l->id, l->client[0] ? l->client : "-");
		break;
	case TI_LANE_XI_RAW:
		snprintf(buf, size, "raw%d t%d %s", l->sourceid ? l->sourceid : (int32_t)l->device,
			 l->id, l->client[0] ? l->client : "-");
		break;
	case TI_LANE_HID:
		if (l->id < 0)
			snprintf(buf, size, "hid%u pen", l->device);
		else
			snprintf(buf, size, "hid%u c%d", l->device, l->id);
		break;
	case TI_LANE_LI:
		snprintf(buf, size, "li%u s%d", l->device, l->slot);
		break;
	case TI_LANE_LI_GESTURE:
		snprintf(buf, size, "li%u %s %df", l->device,
			 l->ended ? tt_li_gesture_kind_name((enum tt_li_gesture_kind)l->li_gesture) : "gesture",
			 l->li_fingers);
		break;
	case TI_LANE_WL:
		snprintf(buf, size, "wl t%d %s", l->id, l->client[0] ? l->client : "-");
		break;
	}
	return buf;
}

size_t
tt_index_memory(const struct tt_index *ix)
{
	size_t n = sizeof(*ix);

	n += ix->capframes * sizeof(*ix->frames);
	n += ix->capevents * (sizeof(*ix->ev_tc) + sizeof(*ix->ev_val));
	n += ix->caplanes * sizeof(*ix->lanes);
	for (size_t i = 0; i < ix->nlanes; i++) {
		const struct ti_lane *l = ix->lanes[i];
		n += sizeof(*l) + (size_t)l->capupd * 16;
	}
	n += ix->capmarkers * sizeof(*ix->markers);
	n += ix->captext;
	n += ix->ndevs * (sizeof(*ix->devs) + sizeof(struct tt_device));
	return n;
}

void
tt_index_lock(struct tt_index *ix)
{
	pthread_mutex_lock(&ix->lock);
}

void
tt_index_unlock(struct tt_index *ix)
{
	pthread_mutex_unlock(&ix->lock);
}

const char *
tt_index_name(const struct tt_index *ix)
{
	return ix->name;
}

const struct tt_stats *
tt_index_stats(const struct tt_index *ix)
{
	return ix->stats;
}

const struct tt_xi_own *
tt_index_xi_own(const struct tt_index *ix)
{
	return tt_stack_xi_own(ix->detect);
}

int64_t
tt_index_first_us(const struct tt_index *ix)
{
	return ix->stats->have_time ? ix->stats->first_us : 0;
}

int64_t
tt_index_last_us(const struct tt_index *ix)
{
	return ix->stats->have_time ? ix->stats->last_us : 0;
}

size_t
tt_index_nhid_devices(const struct tt_index *ix)
{
	return ix->nhdevs;
}

const struct ti_hid_device *
tt_index_hid_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->hdevs[i];
}

const struct ti_hid_device *
tt_index_hid_device(const struct tt_index *ix, uint32_t id)
{
	return ti_find_hdev(ix, id);
}

size_t
tt_index_nli_devices(const struct tt_index *ix)
{
	return ix->nlidevs;
}

const struct ti_li_device *
tt_index_li_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->lidevs[i];
}

const struct tt_li_counts *
tt_index_li_counts(const struct tt_index *ix, size_t *n)
{
	return tt_li_model_counts(tt_stack_li_const(ix->detect), n);
}

bool
tt_index_has_li(const struct tt_index *ix)
{
	return tt_li_model_has_layer(tt_stack_li_const(ix->detect));
}

bool
tt_index_has_wl(const struct tt_index *ix)
{
	return tt_wl_model_has_layer(tt_stack_wl_const(ix->detect));
}

void
tt_index_wl_counts(const struct tt_index *ix, uint64_t *touches, uint64_t *linked, uint64_t *cancelled)
{
	*touches = ix->wl_touches;
	*linked = ix->wl_linked;
	*cancelled = ix->wl_cancelled;
}

bool
tt_index_done(const struct tt_index *ix)
{
	return ix->done;
}

uint64_t
tt_index_generation(const struct tt_index *ix)
{
	return ix->generation;
}

size_t
tt_index_ndevices(const struct tt_index *ix)
{
	return ix->ndevs;
}

const struct ti_device *
tt_index_device_at(const struct tt_index *ix, size_t i)
{
	return &ix->devs[i];
}

size_t
tt_index_nframes(const struct tt_index *ix)
{
	return ix->nframes;
}

const struct ti_frame *
tt_index_frame(const struct tt_index *ix, size_t f)
{
	return &ix->frames[f];
}

size_t
tt_index_nevents(const struct tt_index *ix)
{
	return ix->nevents;
}

struct tt_event
tt_index_frame_event(const struct tt_index *ix, size_t f, uint32_t i)
{
	uint32_t e = ix->frames[f].first + i;

	return (struct tt_event){
		.type = ix->ev_tc[e] >> 10,
		.code = ix->ev_tc[e] & 0x3ff,
		.value = ix->ev_val[e],
	};
}

size_t
tt_index_nlanes(const struct tt_index *ix)
{
	return ix->nlanes;
}

const struct ti_lane *
tt_index_lane(const struct tt_index *ix, size_t i)
{
	return ix->lanes[i];
}

size_t
tt_index_nmarkers(const struct tt_index *ix)
{
	return ix->nmarkers;
}

const struct ti_marker *
tt_index_marker(const struct tt_index *ix, size_t i)
{
	return &ix->markers[i];
}

void
tt_index_read_status(const struct tt_index *ix, struct ti_read_status *out)
{
	*out = (struct ti_read_status){
		.nerrors = ix->nerrors,
		.first_error = ix->first_error,
		.stopped = ix->read_stopped,
		.nwarnings = ix->nwarnings,
		.first_warning = ix->first_warning,
	};
}

const struct tt_header *
tt_index_header(const struct tt_index *ix)
{
	return ix->reader ? tt_reader_header(ix->reader) : NULL;
}

struct tt_reader *
tt_index_reader(struct tt_index *ix)
{
	return ix->reader;
}

void
tt_index_quiet_warnings(struct tt_index *ix)
{
	__atomic_store_n(&ix->quiet_warnings, true, __ATOMIC_RELAXED);
}
