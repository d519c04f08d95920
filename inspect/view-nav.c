/* SPDX-License-Identifier: MIT */
/* The inspector's navigation: the cursor stepping by frame, touch event,
 * begin or end and marker, device cycling, search and zoom. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "util-strings.h"
#include "view-private.h"

/* ---- state ---- */

int64_t
tv_rec_begin(const struct tt_index *ix)
{
	return tt_index_first_us(ix);
}

int64_t
tv_rec_end(const struct tt_index *ix)
{
	return tt_index_last_us(ix);
}

void
tv_state_init(struct tv_state *st, struct tt_index *ix)
{
	memset(st, 0, sizeof(*st));
	st->ix = ix;
	st->sel = -1;
	st->filter_dev = -1;
	st->scale = 10000;
	st->autofit = true;
}

/* Fits the whole recording into @cols columns. */
void
tv_fit(struct tv_state *st, int cols)
{
	int64_t span = tv_rec_end(st->ix) - tv_rec_begin(st->ix);

	if (cols < 1)
		cols = 1;
	st->scale = span / cols + 1;
	st->view_start = tv_rec_begin(st->ix);
}

/* Keeps the cursor inside the view. */
void
tv_scroll_to_cursor(struct tv_state *st, int cols)
{
	int64_t w = (int64_t)(cols > 0 ? cols : 1) * st->scale;

	if (st->cursor < st->view_start || st->cursor >= st->view_start + w)
		st->view_start = st->cursor - w / 2;
}

void
tv_set_message(struct tv_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->message, sizeof(st->message), fmt, ap);
	va_end(ap);
}

const char *
tv_source_name(enum tv_source src)
{
	static const char *names[TV_SRC_COUNT] = {
		[TV_SRC_ALL] = "all", [TV_SRC_KERNEL] = "kernel", [TV_SRC_XI] = "xi", [TV_SRC_HID] = "hid",
		[TV_SRC_LI] = "libinput",
	};
	return names[src];
}

static bool
frame_passes(const struct tv_state *st, const struct ti_frame *f)
{
	if (st->source == TV_SRC_XI || st->source == TV_SRC_HID || st->source == TV_SRC_LI)
		return false;
	if (st->filter_dev < 0)
		return true;
	return tv_filter_kernel(st) && tt_index_device_at(st->ix, f->device)->id == (uint32_t)st->filter_dev;
}

/* The next (dir > 0) or previous "frame": a kernel frame of a shown
 * device, or an XI event of a shown XI lane. */
bool
tv_step_frame(struct tv_state *st, int dir)
{
	const struct tt_index *ix = st->ix;
	int64_t best = dir > 0 ? INT64_MAX : INT64_MIN;
	int64_t fi = tt_index_frame_at(ix, st->cursor, -1);

	if (dir > 0) {
		for (size_t i = (size_t)(fi + 1); i < tt_index_nframes(ix); i++) {
			if (frame_passes(st, tt_index_frame(ix, i)) && tt_index_frame(ix, i)->time_us > st->cursor) {
				best = tt_index_frame(ix, i)->time_us;
				break;
			}
		}
	} else {
		for (int64_t i = fi; i >= 0; i--) {
			if (frame_passes(st, tt_index_frame(ix, i)) && tt_index_frame(ix, i)->time_us < st->cursor) {
				best = tt_index_frame(ix, i)->time_us;
				break;
			}
		}
	}
	if (st->source != TV_SRC_KERNEL) {
		for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
			const struct ti_lane *l = tt_index_lane(ix, i);
			if (l->kind == TI_LANE_KERNEL || !tv_lane_passes(st, l))
				continue;
			if (dir > 0) {
				if (l->begin_us > best || tv_lane_end(ix, l) <= st->cursor)
					continue;
				size_t u = tv_lane_next_update(ix, l, st->cursor);
				if (u < l->nupd && l->xupd[u].time_us < best)
					best = l->xupd[u].time_us;
			} else {
				if (l->begin_us >= st->cursor || tv_lane_end(ix, l) < best)
					continue;
				int64_t u = tt_index_xupd_at(l, st->cursor - 1);
				if (u >= 0 && l->xupd[u].time_us > best)
					best = l->xupd[u].time_us;
			}
		}
	}
	if (best == INT64_MAX || best == INT64_MIN)
		return false;
	st->cursor = best;
	return true;
}

const struct ti_lane *
tv_selected(const struct tv_state *st)
{
	if (st->sel < 0 || (size_t)st->sel >= tt_index_nlanes(st->ix))
		return NULL;
	return tt_index_lane(st->ix, st->sel);
}

void
tv_step_touch_event(struct tv_state *st, int dir)
{
	const struct tt_index *ix = st->ix;
	const struct ti_lane *l = tv_selected(st);

	if (!l) {
		tv_set_message(st, "no touch selected");
		return;
	}
	if (dir > 0) {
		size_t u = tv_lane_next_update(ix, l, st->cursor);
		if (u < l->nupd)
			st->cursor = tt_index_upd_time(ix, l, u);
		else if (l->ended && l->end_us > st->cursor)
			st->cursor = l->end_us;
		else
			tv_set_message(st, "no later event of this touch");
	} else {
		if (l->ended && st->cursor > l->end_us) {
			st->cursor = l->end_us;
			return;
		}
		size_t u = tv_lane_next_update(ix, l, st->cursor - 1);
		if (u > 0)
			st->cursor = tt_index_upd_time(ix, l, u - 1);
		else
			tv_set_message(st, "no earlier event of this touch");
	}
}

/* Next/previous lane begin or end. */
void
tv_jump_begin_end(struct tv_state *st, int dir)
{
	const struct tt_index *ix = st->ix;
	int64_t best = dir > 0 ? INT64_MAX : INT64_MIN;
	int64_t lane = -1;

	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (!tv_lane_passes(st, l))
			continue;
		int64_t ts[2] = { l->begin_us, l->ended ? l->end_us : INT64_MIN };
		for (int k = 0; k < 2; k++) {
			if (ts[k] == INT64_MIN)
				continue;
			if ((dir > 0 && ts[k] > st->cursor && ts[k] < best) ||
			    (dir < 0 && ts[k] < st->cursor && ts[k] > best)) {
				best = ts[k];
				lane = (int64_t)i;
			}
		}
	}
	if (lane < 0) {
		tv_set_message(st, "no %s touch begin or end", dir > 0 ? "later" : "earlier");
		return;
	}
	st->cursor = best;
	st->sel = lane;
}

static bool
marker_wanted(const struct tv_state *st, const struct ti_marker *m, bool ownership)
{
	if (ownership) {
		if (m->kind != TI_MARK_OWNERSHIP && m->kind != TI_MARK_ACCEPT && m->kind != TI_MARK_REJECT &&
		    m->kind != TI_MARK_PENDING_END)
			return false;
	} else if (m->kind != TI_MARK_ANOMALY && m->kind != TI_MARK_DROPPED &&
		   m->kind != TI_MARK_DEVICE_REMOVED && m->kind != TI_MARK_RESYNC) {
		return false;
	}
	if (m->lane >= 0 && !tv_lane_passes(st, tt_index_lane(st->ix, m->lane)))
		return false;
	return true;
}

void
tv_jump_marker(struct tv_state *st, int dir, bool ownership)
{
	const struct tt_index *ix = st->ix;
	const struct ti_marker *found = NULL;

	if (dir > 0) {
		for (size_t i = tv_marker_lower(ix, st->cursor); i < tt_index_nmarkers(ix) && !found; i++) {
			if (tt_index_marker(ix, i)->time_us > st->cursor && marker_wanted(st, tt_index_marker(ix, i), ownership))
				found = tt_index_marker(ix, i);
		}
	} else {
		for (size_t i = tv_marker_lower(ix, st->cursor); i-- > 0 && !found;) {
			if (tt_index_marker(ix, i)->time_us < st->cursor && marker_wanted(st, tt_index_marker(ix, i), ownership))
				found = tt_index_marker(ix, i);
		}
	}
	if (!found) {
		tv_set_message(st, "no %s %s", dir > 0 ? "later" : "earlier",
			       ownership ? "ownership change" : "anomaly");
		return;
	}
	st->cursor = found->time_us;
	if (found->lane >= 0)
		st->sel = found->lane;
	const char *text = tt_index_marker_text(ix, found);
	tv_set_message(st, "line %u: %s%s%s", found->line, ti_marker_kind_name(found->kind),
		       text ? ": " : "", text ? text : "");
}

struct dev_cands {
	int64_t id[TT_MAX_DEVICES + 64 + TT_MAX_DEVICES];
	enum tv_dev_kind kind[TT_MAX_DEVICES + 64 + TT_MAX_DEVICES];
	size_t n;
};

static void
add_cand(struct dev_cands *c, int64_t id, enum tv_dev_kind kind)
{
	for (size_t k = 0; k < c->n; k++) {
		if (c->id[k] == id && c->kind[k] == kind)
			return;
	}
	if (c->n < ARRAY_LENGTH(c->id)) {
		c->id[c->n] = id;
		c->kind[c->n++] = kind;
	}
}

/* Device filter cycle: all, each kernel device, each XI source device,
 * each HID device. */
void
tv_cycle_device(struct tv_state *st)
{
	static const char *const what[] = { [TV_DEV_KERNEL] = "kernel", [TV_DEV_XI] = "XI", [TV_DEV_HID] = "HID" };
	const struct tt_index *ix = st->ix;
	struct dev_cands c = { .n = 0 };
	size_t cur = SIZE_MAX;

	for (size_t i = 0; i < tt_index_ndevices(ix); i++)
		add_cand(&c, tt_index_device_at(ix, i)->id, TV_DEV_KERNEL);
	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (tv_is_xi_lane(l) && tt_index_lane_chosen(ix, l))
			add_cand(&c, l->sourceid ? l->sourceid : (int64_t)l->device, TV_DEV_XI);
	}
	for (size_t i = 0; i < tt_index_nhid_devices(ix); i++)
		add_cand(&c, tt_index_hid_device_at(ix, i)->id, TV_DEV_HID);
	for (size_t i = 0; i < c.n; i++) {
		if (st->filter_dev == c.id[i] && st->filter_kind == c.kind[i])
			cur = i;
	}
	size_t next = cur == SIZE_MAX ? 0 : cur + 1;
	if (next >= c.n) {
		st->filter_dev = -1;
		tv_set_message(st, "showing all devices");
	} else {
		st->filter_dev = c.id[next];
		st->filter_kind = c.kind[next];
		tv_set_message(st, "showing %s device %" PRId64 " only", what[c.kind[next]], c.id[next]);
	}
	st->lane_top = 0;
}

void
tv_search(struct tv_state *st, const char *q)
{
	const struct tt_index *ix = st->ix;
	int64_t v;
	int kind = 0;	/* 0 any id, 1 tracking ID, 2 XI touch id */

	while (*q == ' ')
		q++;
	if (!*q)
		return;
	if (*q == '@' || strpbrk(q, ".sm")) {
		if (tt_parse_duration_us(q + (*q == '@'), &v) < 0) {
			tv_set_message(st, "not a time: %.40s (try @1.5 or 250ms)", q);
			return;
		}
		st->cursor = v;
		tv_set_message(st, "time %.40s", q);
		return;
	}
	if (*q == '#') {
		kind = 1;
		q++;
	} else if (*q == 'x' || *q == 't') {
		kind = 2;
		q++;
	}
	if (tt_parse_int64(q, &v) < 0) {
		tv_set_message(st, "search: @TIME, #TRACKING_ID, xTOUCH_ID or a number");
		return;
	}
	/* The next lane (after the selected one, wrapping) with that id. */
	size_t n = tt_index_nlanes(ix);
	size_t start = st->sel >= 0 ? (size_t)st->sel + 1 : 0;
	for (size_t k = 0; k < n; k++) {
		const struct ti_lane *l = tt_index_lane(ix, (start + k) % n);
		if (l->id != v || !tv_lane_passes(st, l))
			continue;
		if ((kind == 1 && l->kind != TI_LANE_KERNEL) || (kind == 2 && !tv_is_xi_lane(l)))
			continue;
		st->sel = l->index;
		st->cursor = l->begin_us;
		char lb[64];
		tv_set_message(st, "found %s", tt_index_lane_label(ix, l, lb, sizeof(lb)));
		return;
	}
	tv_set_message(st, "no touch with id %" PRId64, v);
}

void
tv_zoom(struct tv_state *st, int dir, int cols)
{
	int64_t c = (st->cursor - st->view_start) / (st->scale > 0 ? st->scale : 1);

	if (dir > 0)
		st->scale = st->scale / 2 > 0 ? st->scale / 2 : 1;
	else if (st->scale < INT64_MAX / 4)
		st->scale *= 2;
	st->view_start = st->cursor - c * st->scale;
	(void)cols;
}

void
tv_move_selection(struct tv_state *st, int dir)
{
	struct lane_list ll;
	int64_t w = (int64_t)st->lane_cols * st->scale;

	tv_visible_lanes(st, st->view_start, st->view_start + w, &ll);
	size_t pos = SIZE_MAX;
	for (size_t i = 0; i < ll.n; i++) {
		if ((int64_t)ll.v[i]->index == st->sel)
			pos = i;
	}
	if (ll.n) {
		if (pos == SIZE_MAX)
			pos = 0;
		else if (dir < 0 && pos > 0)
			pos--;
		else if (dir > 0 && pos + 1 < ll.n)
			pos++;
		st->sel = ll.v[pos]->index;
	}
	free(ll.v);
}

void
tv_prompt_key(struct tv_state *st, int key)
{
	if (key == TV_KEY_ESC) {
		st->prompting = false;
		st->message[0] = '\0';
	} else if (key == TV_KEY_ENTER || key == '\r') {
		st->prompting = false;
		st->prompt[st->prompt_len] = '\0';
		if (st->prompt_len)
			snprintf(st->last_search, sizeof(st->last_search), "%s", st->prompt);
		tv_search(st, st->last_search);
	} else if (key == TV_KEY_BACKSPACE || key == 8) {
		if (st->prompt_len)
			st->prompt_len--;
	} else if (key >= 0x20 && key < 0x7f && st->prompt_len + 1 < sizeof(st->prompt)) {
		st->prompt[st->prompt_len++] = (char)key;
	}
	st->prompt[st->prompt_len] = '\0';
}
