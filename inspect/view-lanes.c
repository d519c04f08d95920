/* SPDX-License-Identifier: MIT */
/* The inspector's lanes: which touch sequences pass the filters, which
 * overlap the view and in what order, and drawing each as one row. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "util-strings.h"
#include "view-private.h"

/* ---- lanes ---- */

bool
tv_is_xi_lane(const struct ti_lane *l)
{
	return l->kind == TI_LANE_XI || l->kind == TI_LANE_XI_RAW;
}

static bool
is_li_lane(const struct ti_lane *l)
{
	return l->kind == TI_LANE_LI || l->kind == TI_LANE_LI_GESTURE;
}

static bool
source_passes(enum tv_source src, const struct ti_lane *l)
{
	switch (src) {
	case TV_SRC_KERNEL: return l->kind == TI_LANE_KERNEL;
	case TV_SRC_XI: return tv_is_xi_lane(l);
	case TV_SRC_HID: return l->kind == TI_LANE_HID;
	case TV_SRC_LI: return is_li_lane(l);
	default: return true;
	}
}

/* A HID device's lanes show with an evdev device it produced, linked to
 * one of its touches or not. */
static bool
hid_lane_of(const struct tt_index *ix, const struct ti_lane *l, int64_t dev)
{
	const struct ti_hid_device *h = tt_index_hid_device(ix, l->device);

	for (uint32_t i = 0; h && i < h->nevdev; i++) {
		if (h->evdev[i] == dev)
			return true;
	}
	return false;
}

/* A HID device's lanes, and the kernel touches they became. */
static bool
hid_lane_is(const struct tt_index *ix, const struct ti_lane *l, int64_t hid)
{
	if (l->kind == TI_LANE_KERNEL && l->hid_linked >= 0)
		l = tt_index_lane(ix, l->hid_linked);
	return l->kind == TI_LANE_HID && (int64_t)l->device == hid;
}

/* The filter names an evdev device. */
bool
tv_filter_kernel(const struct tv_state *st)
{
	return st->filter_dev >= 0 && st->filter_kind == TV_DEV_KERNEL;
}

bool
tv_lane_passes(const struct tv_state *st, const struct ti_lane *l)
{
	if (!tt_index_lane_chosen(st->ix, l) || !source_passes(st->source, l))
		return false;
	if (st->filter_dev < 0)
		return true;
	if (st->filter_kind == TV_DEV_XI)
		return tv_is_xi_lane(l) && (l->sourceid == st->filter_dev || (int64_t)l->device == st->filter_dev);
	if (st->filter_kind == TV_DEV_HID)
		return hid_lane_is(st->ix, l, st->filter_dev);
	if (l->kind == TI_LANE_KERNEL)
		return (int64_t)l->device == st->filter_dev;
	if (l->kind == TI_LANE_HID && hid_lane_of(st->ix, l, st->filter_dev))
		return true;
	/* libinput's lanes carry the evdev device, gestures too. */
	if (is_li_lane(l))
		return (int64_t)l->device == st->filter_dev;
	/* XI lanes of a kernel device: those its touches became. */
	return l->linked >= 0 && (int64_t)tt_index_lane(st->ix, l->linked)->device == st->filter_dev;
}

int64_t
tv_lane_end(const struct tt_index *ix, const struct ti_lane *l)
{
	if (!l->ended && tt_index_stats(ix)->have_time && tt_index_last_us(ix) > l->end_us)
		return tt_index_last_us(ix);
	return l->end_us;
}

static size_t
find_pos(const struct ti_lane **v, size_t n, uint32_t index)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid]->index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo]->index == index ? lo : SIZE_MAX;
}

/* The lanes overlapping [from, to] that pass the filters, kernel lanes
 * each followed by the XI lanes they became. */
void
tv_visible_lanes(const struct tv_state *st, int64_t from, int64_t to, struct lane_list *out)
{
	const struct tt_index *ix = st->ix;
	const struct ti_lane **vis = tt_reallocarray(NULL, tt_index_nlanes(ix) + 1, sizeof(*vis));
	size_t n = 0;

	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (l->begin_us > to || tv_lane_end(ix, l) < from || !tv_lane_passes(st, l))
			continue;
		vis[n++] = l;
	}
	/* Children: XI lanes whose kernel lane is visible too. */
	size_t *first = tt_reallocarray(NULL, n + 1, sizeof(*first));
	size_t *next = tt_reallocarray(NULL, n + 1, sizeof(*next));
	size_t *last = tt_reallocarray(NULL, n + 1, sizeof(*last));
	bool *child = tt_reallocarray(NULL, n + 1, sizeof(*child));
	for (size_t i = 0; i < n; i++) {
		first[i] = next[i] = last[i] = SIZE_MAX;
		child[i] = false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ti_lane *l = vis[i];
		if (l->kind == TI_LANE_KERNEL || l->linked < 0)
			continue;
		size_t p = find_pos(vis, n, (uint32_t)l->linked);
		if (p == SIZE_MAX || vis[p]->kind != TI_LANE_KERNEL)
			continue;
		child[i] = true;
		if (first[p] == SIZE_MAX)
			first[p] = i;
		else
			next[last[p]] = i;
		last[p] = i;
	}
	out->v = tt_reallocarray(NULL, n + 1, sizeof(*out->v));
	out->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (child[i])
			continue;
		out->v[out->n++] = vis[i];
		for (size_t c = first[i]; c != SIZE_MAX; c = next[c])
			out->v[out->n++] = vis[c];
	}
	free(first);
	free(next);
	free(last);
	free(child);
	free(vis);
}

int64_t
tv_lane_next_update(const struct tt_index *ix, const struct ti_lane *l, int64_t t)
{
	/* First update strictly after t. */
	size_t lo = 0, hi = l->nupd;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tt_index_upd_time(ix, l, mid) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool
lane_has_update(const struct tt_index *ix, const struct ti_lane *l, int64_t t0, int64_t t1)
{
	size_t i = tv_lane_next_update(ix, l, t0 - 1);

	return i < l->nupd && tt_index_upd_time(ix, l, i) < t1;
}

static char
marker_char(enum ti_marker_kind k)
{
	switch (k) {
	case TI_MARK_OWNERSHIP: return 'O';
	case TI_MARK_ACCEPT: return 'A';
	case TI_MARK_REJECT: return 'R';
	case TI_MARK_PENDING_END: return 'P';
	case TI_MARK_EMULATING: return 'E';
	case TI_MARK_DROPPED: return 'D';
	case TI_MARK_RESYNC: return 'S';
	case TI_MARK_DEVICE_REMOVED: return 'X';
	case TI_MARK_ANOMALY: return '!';
	case TI_MARK_RECORD: return 'N';
	default: return '?';
	}
}

uint8_t
tv_marker_attr(enum ti_marker_kind k)
{
	switch (k) {
	case TI_MARK_ACCEPT: return TV_C_GOOD | TV_A_BOLD;
	case TI_MARK_REJECT:
	case TI_MARK_DROPPED:
	case TI_MARK_DEVICE_REMOVED:
	case TI_MARK_ANOMALY: return TV_C_BAD | TV_A_BOLD;
	default: return TV_C_MARK | TV_A_BOLD;
	}
}

uint8_t
tv_lane_attr(const struct ti_lane *l)
{
	switch (l->kind) {
	case TI_LANE_KERNEL: return TV_C_KERNEL;
	case TI_LANE_XI: return TV_C_XI;
	case TI_LANE_HID: return TV_C_HID;
	case TI_LANE_LI:
	case TI_LANE_LI_GESTURE: return TV_C_LI;
	case TI_LANE_WL: return TV_C_XI;
	default: return TV_C_RAW;
	}
}

/* What a lane's body shows where it was updated, and its flag for
 * "still down when the recording ends". */
static char
lane_body(const struct ti_lane *l)
{
	switch (l->kind) {
	case TI_LANE_KERNEL: return '=';
	case TI_LANE_XI: return '~';
	case TI_LANE_HID: return '+';
	case TI_LANE_LI: return '*';
	case TI_LANE_LI_GESTURE: return '%';
	case TI_LANE_WL: return '^';
	default: return ':';
	}
}

static uint32_t
lane_active_at_end(const struct ti_lane *l)
{
	switch (l->kind) {
	case TI_LANE_KERNEL: return TT_KTOUCH_ACTIVE_AT_END;
	case TI_LANE_HID: return TT_HTOUCH_ACTIVE_AT_END;
	case TI_LANE_LI:
	case TI_LANE_LI_GESTURE:
	case TI_LANE_WL: return TI_LI_ACTIVE_AT_END;
	default: return TT_XTOUCH_ACTIVE_AT_END;
	}
}

/* A span in at most @width characters: as tv_fmt_span(), else with one
 * decimal, else in whole units, else NULL. A number cut short of its unit
 * reads as another number ("+7.33" for 7.33 ms), so a label is never cut
 * there. */
static const char *
fmt_span_fit(char *buf, size_t size, int64_t us, int width)
{
	if ((int)strlen(tv_fmt_span(buf, size, us)) <= width)
		return buf;
	if (us < 0)
		us = -us;
	for (int decimals = 1; decimals >= 0 && us >= 1000; decimals--) {
		if (us >= 1000000)
			snprintf(buf, size, "%.*fs", decimals, (double)us / 1e6);
		else
			snprintf(buf, size, "%.*fms", decimals, (double)us / 1e3);
		if ((int)strlen(buf) <= width)
			return buf;
	}
	return NULL;
}

/* @width: the columns the label gets; an XI or HID lane's latency is
 * shortened or left out to fit, the name may be cut. The latency is
 * always the later layer's: an XI touch "+1.5ms" after its kernel touch,
 * a kernel touch "+0.4ms" after the HID contact it was made of (the
 * kernel may stamp its frame before hidraw is read: then "-"). */
void
tv_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size, int width)
{
	char lb[64], sb[32];

	tt_index_lane_label(ix, l, lb, sizeof(lb));
	/* @buf: at least 128 bytes. */
	if (l->kind != TI_LANE_KERNEL && l->linked >= 0) {
		const struct ti_lane *k = tt_index_lane(ix, l->linked);
		int64_t lat = l->kind == TI_LANE_HID ? k->begin_us - l->begin_us : l->begin_us - k->begin_us;
		/* The sign here: fmt_span_fit() drops it when it shortens. */
		const char *span = fmt_span_fit(sb, sizeof(sb), lat < 0 ? -lat : lat, width - (int)strlen(lb) - 4);
		if (span)
			snprintf(buf, size, " `%s %c%s", lb, lat < 0 ? '-' : '+', span);
		else
			snprintf(buf, size, " `%s", lb);
	} else {
		snprintf(buf, size, "%s", lb);
	}
}

/* First marker at or after @t (markers are in read order, which is time
 * order in a valid file). */
size_t
tv_marker_lower(const struct tt_index *ix, int64_t t)
{
	size_t lo = 0, hi = tt_index_nmarkers(ix);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tt_index_marker(ix, mid)->time_us < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
tv_col_of(const struct tv_state *st, int64_t t)
{
	if (t < st->view_start)
		return -1;
	int64_t c = (t - st->view_start) / st->scale;
	return c > INT32_MAX ? INT32_MAX : (int)c;
}

void
tv_draw_lane(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width,
	     const struct ti_lane *l)
{
	const struct tt_index *ix = st->ix;
	uint8_t a = tv_lane_attr(l);
	int64_t end = tv_lane_end(ix, l);
	char body = lane_body(l);

	for (int c = 0; c < width; c++) {
		int64_t t0 = st->view_start + (int64_t)c * st->scale, t1 = t0 + st->scale;
		char ch;
		if (l->begin_us >= t1 || end < t0)
			continue;
		bool b = l->begin_us >= t0, e = end < t1 && l->ended;
		if (e && (l->flags & lane_active_at_end(l)))
			ch = '>';	/* still down when the recording ends */
		else if (b && e)
			ch = 'o';
		else if (b)
			ch = '[';
		else if (e)
			ch = ']';
		else if (lane_has_update(ix, l, t0, t1))
			ch = body;
		else
			ch = '-';
		tv_put(s, row, x0 + c, ch, a);
	}
	if (!l->ended) {
		int c = tv_col_of(st, end);
		if (c >= 0 && c < width)
			tv_put(s, row, x0 + c, '>', a | TV_A_BOLD);
	}
}

void
tv_draw_markers(const struct tv_state *st, struct tv_screen *s, int x0, int width, int marker_row,
	        const struct lane_list *lanes, int first_row, int nrows)
{
	const struct tt_index *ix = st->ix;
	int64_t to = st->view_start + (int64_t)width * st->scale;

	for (size_t i = tv_marker_lower(ix, st->view_start); i < tt_index_nmarkers(ix); i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		if (m->time_us >= to)
			break;
		int c = tv_col_of(st, m->time_us);
		if (c < 0 || c >= width)
			continue;
		char ch = marker_char(m->kind);
		if (m->lane < 0) {
			if (m->device >= 0 && tv_filter_kernel(st) && m->device != st->filter_dev)
				continue;
			tv_put(s, marker_row, x0 + c, ch, tv_marker_attr(m->kind));
			continue;
		}
		for (int r = 0; r < nrows && (size_t)(st->lane_top + r) < lanes->n; r++) {
			if (lanes->v[st->lane_top + r]->index == (uint64_t)m->lane) {
				tv_put(s, first_row + r, x0 + c, ch, tv_marker_attr(m->kind));
				break;
			}
		}
	}
}

void
tv_draw_axis(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width)
{
	char tb[32];
	int step = 14;

	for (int c = 0; c + step <= width + 1; c += step) {
		int64_t t = st->view_start + (int64_t)c * st->scale;
		tv_put(s, row, x0 + c, '|', TV_C_DIM);
		/* Enough decimals to tell ticks apart. */
		double span = (double)st->scale * step / 1e6;
		int dec = span >= 1 ? 1 : span >= 0.1 ? 2 : span >= 0.01 ? 3 : span >= 0.001 ? 4 : 6;
		snprintf(tb, sizeof(tb), "%.*f", dec, (double)t / 1e6);
		tv_puts_at(s, row, x0 + c + 1, step - 2 < width - c - 1 ? step - 2 : width - c - 1, TV_C_DIM, tb);
	}
}
