/* SPDX-License-Identifier: MIT */
/*
 * One streaming pass: the reader feeds the layer stack (lib/model/stack.h: the
 * model, the checker, the detectors, the libinput and Wayland layers),
 * whose callbacks append to compact arrays.
 * See index.h.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "log.h"
#include "index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

static const struct tt_model_callbacks callbacks = {
	.kernel_begin = on_kernel_begin,
	.kernel_update = on_kernel_update,
	.kernel_end = on_kernel_end,
	.frame = on_frame,
	.xi_begin = on_xi_begin,
	.xi_update = on_xi_update,
	.xi_ownership = on_xi_ownership,
	.xi_end = on_xi_end,
	.hid_begin = on_hid_begin,
	.hid_update = on_hid_update,
	.hid_end = on_hid_end,
	.hid_report = on_hid_report,
};

/* ---- the libinput layer ---- */

static const struct tt_li_callbacks li_callbacks = {
	.touch_end = on_li_touch_end,
	.gesture_end = on_li_gesture_end,
};

/* ---- the Wayland layer ---- */

static const struct tt_wl_callbacks wl_callbacks = {
	.touch_begin = on_wl_begin,
	.touch_update = on_wl_update,
	.touch_end = on_wl_end,
};

/* First the frame, so model callbacks see it as the last one. */
static void
index_frame_first(struct tt_index *ix, const struct tt_record *rec)
{
	index_frame(ix, rec);
	ix->in_frame = true;
}

/* What the index does with each record type (index-private.h); a new
 * layer adds its lines. A type without one is only fed to the stack. */
struct index_kind {
	bool (*chosen)(const struct tt_index *ix, const struct tt_record *rec);
	void (*index)(struct tt_index *ix, const struct tt_record *rec);
};

static const struct index_kind index_kinds[TT_RECORD_TYPES] = {
	[TT_RECORD_MARKER] = { ti_chosen_marker, index_marker },
	[TT_RECORD_DEVICE] = { ti_chosen_device, index_device },
	[TT_RECORD_FRAME] = { ti_chosen_frame, index_frame_first },
	[TT_RECORD_HID_DEVICE] = { ti_chosen_hid_device, index_hid_device },
	[TT_RECORD_HID_REPORT] = { ti_chosen_hid_report, NULL },
	[TT_RECORD_LI_DEVICE] = { ti_chosen_li_device, index_li_device },
	[TT_RECORD_LI_EVENT] = { ti_chosen_li_event, index_li_event },
};

static void
on_record(struct tt_index *ix, const struct tt_record *rec)
{
	if ((unsigned int)rec->type < TT_RECORD_TYPES) {
		const struct index_kind *k = &index_kinds[rec->type];
		if (k->chosen && !k->chosen(ix, rec))
			return;
		if (k->index)
			k->index(ix, rec);
	}
	tt_stack_feed(ix->detect, rec);
	ix->in_frame = false;
}

static void
on_warning(void *userdata, const char *message)
{
	struct tt_index *ix = userdata;

	ix->nwarnings++;
	if (!ix->first_warning)
		ix->first_warning = strdup(message);
	tt_stack_reader_warning(ix->detect, ix->name, message);
	if (!__atomic_load_n(&ix->quiet_warnings, __ATOMIC_RELAXED))
		tt_error("%s", message);	/* "touchtape inspect: FILE:LINE: warning: ..." */
}

int
tt_index_open(const char *path, struct tt_index **out, char **why)
{
	_cleanup_(tt_index_freep) struct tt_index *ix = tt_zalloc(sizeof(*ix));
	int rc;

	pthread_mutex_init(&ix->lock, NULL);
	/* Named as every reader names it (formats/reader.c). */
	ix->name = strdup(strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (!ix->name)
		abort();
	rc = tt_reader_open_why(path, &ix->reader, why);
	if (rc < 0)
		return rc;
	tt_reader_set_warn(ix->reader, on_warning, ix);
	ix->detect = tt_stack_new(NULL, on_diag, ix);
	tt_stack_subscribe(ix->detect, &callbacks, ix);
	tt_stack_subscribe_li(ix->detect, &li_callbacks, ix);
	tt_stack_subscribe_wl(ix->detect, &wl_callbacks, ix);
	ix->stats = tt_stack_stats(ix->detect);
	*out = steal(&ix);
	return 0;
}

struct tt_stack *
tt_index_stack(struct tt_index *ix)
{
	return ix->detect;
}

static void
finish(struct tt_index *ix)
{
	tt_stack_finish(ix->detect);
	ti_chain_markers(ix);
	/* A sequence still open at the end keeps its lane as it was. */
	ix->done = true;
	ix->generation++;
}

int
tt_index_step(struct tt_index *ix, size_t max)
{
	struct tt_record rec;
	size_t n = 0;
	int rc;

	if (ix->done)
		return 0;
	while ((max == 0 || n < max) && !__atomic_load_n(&ix->stop, __ATOMIC_RELAXED)) {
		rc = tt_reader_next(ix->reader, &rec);
		tt_index_lock(ix);
		if (rc == 0 || rc == -EIO) {
			ix->read_stopped = rc == -EIO;
			finish(ix);
			tt_index_unlock(ix);
			return rc;
		}
		if (rc < 0) {
			ix->nerrors++;
			if (!ix->first_error)
				ix->first_error = strdup(tt_reader_error(ix->reader));
			tt_stack_reader_error(ix->detect, ix->name, tt_reader_error(ix->reader));
		} else {
			on_record(ix, &rec);
		}
		ix->generation++;
		tt_index_unlock(ix);
		n++;
	}
	return 1;
}

void
tt_index_set_lean(struct tt_index *ix, bool lean)
{
	ix->lean = lean;
}

void
tt_index_request_stop(struct tt_index *ix)
{
	__atomic_store_n(&ix->stop, true, __ATOMIC_RELAXED);
}

void
tt_index_free(struct tt_index *ix)
{
	if (!ix)
		return;
	tt_stack_free(ix->detect);
	tt_reader_free(ix->reader);
	for (size_t i = 0; i < ix->ndevs; i++) {
		free(ix->devs[i].name);
		tt_device_free(ix->devs[i].copy);
	}
	free(ix->devs);
	for (size_t i = 0; i < ix->nlanes; i++) {
		free(ix->lanes[i]->kupd);
		free(ix->lanes[i]);
	}
	free(ix->lanes);
	free(ix->frames);
	free(ix->ev_tc);
	free(ix->ev_val);
	free(ix->spare);
	free(ix->markers);
	free(ix->text);
	free(ix->first_error);
	free(ix->first_warning);
	free(ix->devices);
	free(ix->hid_choice);
	for (size_t i = 0; i < ix->nhdevs; i++) {
		free(ix->hdevs[i].name);
		free(ix->hdevs[i].evdev);
	}
	free(ix->hdevs);
	for (size_t i = 0; i < ix->nlidevs; i++)
		li_device_free(&ix->lidevs[i]);
	free(ix->lidevs);
	free(ix->name);
	pthread_mutex_destroy(&ix->lock);
	free(ix);
}
