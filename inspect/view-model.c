/* SPDX-License-Identifier: MIT */
/*
 * The inspector's state and its rendering to an abstract screen. Layout:
 *
 *   row 0        title: file, cursor time, zoom, filters, indexing state
 *   row 1        time axis, the cursor as 'v'
 *   row 2        global markers (SYN_DROPPED, device removal, anomalies)
 *   rows 3..     one row per touch sequence overlapping the view: kernel
 *                lanes in begin order, each followed by the XI lanes it
 *                became; XI lanes without a kernel touch in begin order
 *   bottom pane  the frame at the cursor | slot tables | selected touch
 *   last row     keys, messages, or the search prompt
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "util-strings.h"
#include "view-private.h"

#define LABEL_MAX 28

/* ---- screen ---- */

void
tv_screen_init(struct tv_screen *s, int cols, int rows)
{
	free(s->cells);
	s->cols = cols < 1 ? 1 : cols;
	s->rows = rows < 1 ? 1 : rows;
	s->cells = tt_reallocarray(NULL, (size_t)s->cols * (size_t)s->rows, sizeof(*s->cells));
	for (int i = 0; i < s->cols * s->rows; i++)
		s->cells[i] = (struct tv_cell){ ' ', 0 };
}

void
tv_screen_fini(struct tv_screen *s)
{
	free(s->cells);
	s->cells = NULL;
}

void
tv_screen_dump(const struct tv_screen *s, FILE *out)
{
	_cleanup_free_ char *line = tt_reallocarray(NULL, (size_t)s->cols + 1, 1);

	for (int r = 0; r < s->rows; r++) {
		int n = 0, last = 0;
		for (int c = 0; c < s->cols; c++) {
			line[n++] = s->cells[r * s->cols + c].ch;
			if (line[n - 1] != ' ')
				last = n;
		}
		line[last] = '\0';
		fprintf(out, "%s\n", line);
	}
}

static void
put(struct tv_screen *s, int row, int col, char ch, uint8_t attr)
{
	if (row < 0 || row >= s->rows || col < 0 || col >= s->cols)
		return;
	s->cells[row * s->cols + col] = (struct tv_cell){ ch, attr };
}

/* Writes @text from @col, at most @width columns; non-ASCII bytes show
 * as '?' (names were sanitized already; this keeps cells one byte). */
int
tv_puts_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *text)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)text; *p && n < width; p++) {
		if ((*p & 0xc0) == 0x80)
			continue;	/* UTF-8 continuation: one '?' per character */
		put(s, row, col + n, (*p >= 0x20 && *p < 0x7f) ? (char)*p : '?', attr);
		n++;
	}
	return n;
}

static int
printf_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *fmt, ...)
	_printf_(6, 7);

static int
printf_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tv_puts_at(s, row, col, width, attr, buf);
}

void
tv_fill_row(struct tv_screen *s, int row, int col, int width, uint8_t attr)
{
	for (int c = col; c < col + width; c++)
		put(s, row, c, ' ', attr);
}

const char *
tv_fmt_time(char *buf, size_t size, int64_t us)
{
	return tt_format_time(buf, size, us);
}

const char *
tv_fmt_span(char *buf, size_t size, int64_t us)
{
	if (us < 0)
		us = -us;
	if (us >= 1000000)
		snprintf(buf, size, "%.3gs", (double)us / 1e6);
	else if (us >= 1000)
		snprintf(buf, size, "%.3gms", (double)us / 1e3);
	else
		snprintf(buf, size, "%" PRId64 "us", us);
	return buf;
}

/* ---- lanes ---- */

static bool
is_xi_lane(const struct ti_lane *l)
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
	case TV_SRC_XI: return is_xi_lane(l);
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
static bool
filter_kernel(const struct tv_state *st)
{
	return st->filter_dev >= 0 && st->filter_kind == TV_DEV_KERNEL;
}

static bool
lane_passes(const struct tv_state *st, const struct ti_lane *l)
{
	if (!tt_index_lane_chosen(st->ix, l) || !source_passes(st->source, l))
		return false;
	if (st->filter_dev < 0)
		return true;
	if (st->filter_kind == TV_DEV_XI)
		return is_xi_lane(l) && (l->sourceid == st->filter_dev || (int64_t)l->device == st->filter_dev);
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

struct lane_list {
	const struct ti_lane **v;
	size_t n;
};

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
static void
visible_lanes(const struct tv_state *st, int64_t from, int64_t to, struct lane_list *out)
{
	const struct tt_index *ix = st->ix;
	const struct ti_lane **vis = tt_reallocarray(NULL, tt_index_nlanes(ix) + 1, sizeof(*vis));
	size_t n = 0;

	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (l->begin_us > to || tv_lane_end(ix, l) < from || !lane_passes(st, l))
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

static int64_t
lane_next_update(const struct tt_index *ix, const struct ti_lane *l, int64_t t)
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
	size_t i = lane_next_update(ix, l, t0 - 1);

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

static uint8_t
lane_attr(const struct ti_lane *l)
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
static void
lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size, int width)
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

static int
col_of(const struct tv_state *st, int64_t t)
{
	if (t < st->view_start)
		return -1;
	int64_t c = (t - st->view_start) / st->scale;
	return c > INT32_MAX ? INT32_MAX : (int)c;
}

static void
draw_lane(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width,
	  const struct ti_lane *l)
{
	const struct tt_index *ix = st->ix;
	uint8_t a = lane_attr(l);
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
		put(s, row, x0 + c, ch, a);
	}
	if (!l->ended) {
		int c = col_of(st, end);
		if (c >= 0 && c < width)
			put(s, row, x0 + c, '>', a | TV_A_BOLD);
	}
}

static void
draw_markers(const struct tv_state *st, struct tv_screen *s, int x0, int width, int marker_row,
	     const struct lane_list *lanes, int first_row, int nrows)
{
	const struct tt_index *ix = st->ix;
	int64_t to = st->view_start + (int64_t)width * st->scale;

	for (size_t i = tv_marker_lower(ix, st->view_start); i < tt_index_nmarkers(ix); i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		if (m->time_us >= to)
			break;
		int c = col_of(st, m->time_us);
		if (c < 0 || c >= width)
			continue;
		char ch = marker_char(m->kind);
		if (m->lane < 0) {
			if (m->device >= 0 && filter_kernel(st) && m->device != st->filter_dev)
				continue;
			put(s, marker_row, x0 + c, ch, tv_marker_attr(m->kind));
			continue;
		}
		for (int r = 0; r < nrows && (size_t)(st->lane_top + r) < lanes->n; r++) {
			if (lanes->v[st->lane_top + r]->index == (uint64_t)m->lane) {
				put(s, first_row + r, x0 + c, ch, tv_marker_attr(m->kind));
				break;
			}
		}
	}
}

static void
draw_axis(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width)
{
	char tb[32];
	int step = 14;

	for (int c = 0; c + step <= width + 1; c += step) {
		int64_t t = st->view_start + (int64_t)c * st->scale;
		put(s, row, x0 + c, '|', TV_C_DIM);
		/* Enough decimals to tell ticks apart. */
		double span = (double)st->scale * step / 1e6;
		int dec = span >= 1 ? 1 : span >= 0.1 ? 2 : span >= 0.01 ? 3 : span >= 0.001 ? 4 : 6;
		snprintf(tb, sizeof(tb), "%.*f", dec, (double)t / 1e6);
		tv_puts_at(s, row, x0 + c + 1, step - 2 < width - c - 1 ? step - 2 : width - c - 1, TV_C_DIM, tb);
	}
}

/* ---- state ---- */

static int64_t
rec_begin(const struct tt_index *ix)
{
	return tt_index_first_us(ix);
}

static int64_t
rec_end(const struct tt_index *ix)
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
static void
fit(struct tv_state *st, int cols)
{
	int64_t span = rec_end(st->ix) - rec_begin(st->ix);

	if (cols < 1)
		cols = 1;
	st->scale = span / cols + 1;
	st->view_start = rec_begin(st->ix);
}

/* Keeps the cursor inside the view. */
static void
scroll_to_cursor(struct tv_state *st, int cols)
{
	int64_t w = (int64_t)(cols > 0 ? cols : 1) * st->scale;

	if (st->cursor < st->view_start || st->cursor >= st->view_start + w)
		st->view_start = st->cursor - w / 2;
}

static void
set_message(struct tv_state *st, const char *fmt, ...) _printf_(2, 3);

static void
set_message(struct tv_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->message, sizeof(st->message), fmt, ap);
	va_end(ap);
}

static const char *
source_name(enum tv_source src)
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
	return filter_kernel(st) && tt_index_device_at(st->ix, f->device)->id == (uint32_t)st->filter_dev;
}

/* The next (dir > 0) or previous "frame": a kernel frame of a shown
 * device, or an XI event of a shown XI lane. */
static bool
step_frame(struct tv_state *st, int dir)
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
			if (l->kind == TI_LANE_KERNEL || !lane_passes(st, l))
				continue;
			if (dir > 0) {
				if (l->begin_us > best || tv_lane_end(ix, l) <= st->cursor)
					continue;
				size_t u = lane_next_update(ix, l, st->cursor);
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

static void
step_touch_event(struct tv_state *st, int dir)
{
	const struct tt_index *ix = st->ix;
	const struct ti_lane *l = tv_selected(st);

	if (!l) {
		set_message(st, "no touch selected");
		return;
	}
	if (dir > 0) {
		size_t u = lane_next_update(ix, l, st->cursor);
		if (u < l->nupd)
			st->cursor = tt_index_upd_time(ix, l, u);
		else if (l->ended && l->end_us > st->cursor)
			st->cursor = l->end_us;
		else
			set_message(st, "no later event of this touch");
	} else {
		if (l->ended && st->cursor > l->end_us) {
			st->cursor = l->end_us;
			return;
		}
		size_t u = lane_next_update(ix, l, st->cursor - 1);
		if (u > 0)
			st->cursor = tt_index_upd_time(ix, l, u - 1);
		else
			set_message(st, "no earlier event of this touch");
	}
}

/* Next/previous lane begin or end. */
static void
jump_begin_end(struct tv_state *st, int dir)
{
	const struct tt_index *ix = st->ix;
	int64_t best = dir > 0 ? INT64_MAX : INT64_MIN;
	int64_t lane = -1;

	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (!lane_passes(st, l))
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
		set_message(st, "no %s touch begin or end", dir > 0 ? "later" : "earlier");
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
	if (m->lane >= 0 && !lane_passes(st, tt_index_lane(st->ix, m->lane)))
		return false;
	return true;
}

static void
jump_marker(struct tv_state *st, int dir, bool ownership)
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
		set_message(st, "no %s %s", dir > 0 ? "later" : "earlier",
			    ownership ? "ownership change" : "anomaly");
		return;
	}
	st->cursor = found->time_us;
	if (found->lane >= 0)
		st->sel = found->lane;
	const char *text = tt_index_marker_text(ix, found);
	set_message(st, "line %u: %s%s%s", found->line, ti_marker_kind_name(found->kind),
		    text ? ": " : "", text ? text : "");
}

static const char *const dev_kind_prefix[] = {
	[TV_DEV_KERNEL] = "dev", [TV_DEV_XI] = "xi", [TV_DEV_HID] = "hid",
};

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
static void
cycle_device(struct tv_state *st)
{
	static const char *const what[] = { [TV_DEV_KERNEL] = "kernel", [TV_DEV_XI] = "XI", [TV_DEV_HID] = "HID" };
	const struct tt_index *ix = st->ix;
	struct dev_cands c = { .n = 0 };
	size_t cur = SIZE_MAX;

	for (size_t i = 0; i < tt_index_ndevices(ix); i++)
		add_cand(&c, tt_index_device_at(ix, i)->id, TV_DEV_KERNEL);
	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (is_xi_lane(l) && tt_index_lane_chosen(ix, l))
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
		set_message(st, "showing all devices");
	} else {
		st->filter_dev = c.id[next];
		st->filter_kind = c.kind[next];
		set_message(st, "showing %s device %" PRId64 " only", what[c.kind[next]], c.id[next]);
	}
	st->lane_top = 0;
}

static void
search(struct tv_state *st, const char *q)
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
			set_message(st, "not a time: %.40s (try @1.5 or 250ms)", q);
			return;
		}
		st->cursor = v;
		set_message(st, "time %.40s", q);
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
		set_message(st, "search: @TIME, #TRACKING_ID, xTOUCH_ID or a number");
		return;
	}
	/* The next lane (after the selected one, wrapping) with that id. */
	size_t n = tt_index_nlanes(ix);
	size_t start = st->sel >= 0 ? (size_t)st->sel + 1 : 0;
	for (size_t k = 0; k < n; k++) {
		const struct ti_lane *l = tt_index_lane(ix, (start + k) % n);
		if (l->id != v || !lane_passes(st, l))
			continue;
		if ((kind == 1 && l->kind != TI_LANE_KERNEL) || (kind == 2 && !is_xi_lane(l)))
			continue;
		st->sel = l->index;
		st->cursor = l->begin_us;
		char lb[64];
		set_message(st, "found %s", tt_index_lane_label(ix, l, lb, sizeof(lb)));
		return;
	}
	set_message(st, "no touch with id %" PRId64, v);
}

static void
zoom(struct tv_state *st, int dir, int cols)
{
	int64_t c = (st->cursor - st->view_start) / (st->scale > 0 ? st->scale : 1);

	if (dir > 0)
		st->scale = st->scale / 2 > 0 ? st->scale / 2 : 1;
	else if (st->scale < INT64_MAX / 4)
		st->scale *= 2;
	st->view_start = st->cursor - c * st->scale;
	(void)cols;
}

static void
move_selection(struct tv_state *st, int dir)
{
	struct lane_list ll;
	int64_t w = (int64_t)st->lane_cols * st->scale;

	visible_lanes(st, st->view_start, st->view_start + w, &ll);
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

static void
prompt_key(struct tv_state *st, int key)
{
	if (key == TV_KEY_ESC) {
		st->prompting = false;
		st->message[0] = '\0';
	} else if (key == TV_KEY_ENTER || key == '\r') {
		st->prompting = false;
		st->prompt[st->prompt_len] = '\0';
		if (st->prompt_len)
			snprintf(st->last_search, sizeof(st->last_search), "%s", st->prompt);
		search(st, st->last_search);
	} else if (key == TV_KEY_BACKSPACE || key == 8) {
		if (st->prompt_len)
			st->prompt_len--;
	} else if (key >= 0x20 && key < 0x7f && st->prompt_len + 1 < sizeof(st->prompt)) {
		st->prompt[st->prompt_len++] = (char)key;
	}
	st->prompt[st->prompt_len] = '\0';
}

/* ---- keys: one table for what a key does and what help says ---- */

static void
act_quit(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	st->quit = true;
}

static void
act_help(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	st->help = true;
}

static void
act_frame(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	if (!step_frame(st, dir))
		set_message(st, dir > 0 ? "last frame" : "first frame");
}

static void
act_touch_event(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	step_touch_event(st, dir);
}

static void
act_second(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	st->cursor += dir * 1000000;
}

/* The end follows a file that grows. */
static void
act_start_end(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	if (dir < 0) {
		st->cursor = rec_begin(st->ix);
	} else {
		st->cursor = rec_end(st->ix);
		st->follow = !tt_index_done(st->ix);
	}
}

static void
act_select(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	move_selection(st, dir);
}

static void
act_zoom(struct tv_state *st, int dir, int cols)
{
	zoom(st, dir, cols);
}

static void
act_fit(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	fit(st, cols);
}

static void
act_begin_end(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	jump_begin_end(st, dir);
}

static void
act_ownership(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	jump_marker(st, dir, true);
}

static void
act_anomaly(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	jump_marker(st, dir, false);
}

static void
act_prompt(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	st->prompting = true;
	st->prompt_len = 0;
	st->prompt[0] = '\0';
}

static void
act_search_again(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	search(st, st->last_search);
}

static void
act_device(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	cycle_device(st);
}

static void
act_source(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	static const char *what[TV_SRC_COUNT] = {
		[TV_SRC_ALL] = "every layer", [TV_SRC_KERNEL] = "kernel only",
		[TV_SRC_XI] = "XI only", [TV_SRC_HID] = "HID only", [TV_SRC_LI] = "libinput only",
	};

	st->source = (st->source + 1) % TV_SRC_COUNT;
	set_message(st, "source: %s", what[st->source]);
	st->lane_top = 0;
}

#define KEYS_MAX 3

/* @fwd keys run @fn with +1 (or alone), @back keys with -1; help shows
 * them in pairs, back/forward ("Left/Right h/l"), and says @help. */
struct key_row {
	int back[KEYS_MAX];
	int fwd[KEYS_MAX];
	void (*fn)(struct tv_state *st, int dir, int cols);
	const char *help;
};

static const struct key_row keymap[] = {
	{ { TV_KEY_LEFT, 'h' }, { TV_KEY_RIGHT, 'l' }, act_frame,
	  "previous/next frame (kernel frame or XI event)" },
	{ { TV_KEY_SLEFT, 'H' }, { TV_KEY_SRIGHT, 'L' }, act_touch_event,
	  "previous/next event of the selected touch" },
	{ { TV_KEY_PGUP, 'b' }, { TV_KEY_PGDN, 'f' }, act_second, "one second back/forward" },
	{ { TV_KEY_HOME, 'g' }, { TV_KEY_END, 'G' }, act_start_end,
	  "start/end of the recording (End follows a live pipe)" },
	{ { TV_KEY_UP, 'k' }, { TV_KEY_DOWN, 'j' }, act_select, "select the previous/next touch lane" },
	{ { '-', 'o' }, { '+', 'i', '=' }, act_zoom, "zoom out/in of time around the cursor" },
	{ { 0 }, { 'z' }, act_fit, "fit the whole recording" },
	{ { 'E' }, { 'e' }, act_begin_end, "previous/next touch begin or end" },
	{ { 'W' }, { 'w' }, act_ownership,
	  "previous/next ownership change (owner, accept, reject, pending end)" },
	{ { 'A' }, { 'a' }, act_anomaly, "previous/next anomaly (checker, SYN_DROPPED, device removal)" },
	{ { 0 }, { '/' }, act_prompt,
	  "search: @1.5 or 250ms (time), #22 (tracking ID), x5 (XI touch id), 7 (any)" },
	{ { 0 }, { 'n' }, act_search_again, "repeat the last search" },
	{ { 0 }, { 'd' }, act_device,
	  "filter by device: all, each kernel device, each XI device, each HID device" },
	{ { 0 }, { 's' }, act_source, "filter by source: all, kernel, XI, HID, libinput" },
	{ { 0 }, { '?' }, act_help, "this help" },
	{ { 0 }, { 'q' }, act_quit, "quit" },
};

static bool
key_in(const int *keys, int key)
{
	for (size_t i = 0; i < KEYS_MAX && keys[i]; i++) {
		if (keys[i] == key)
			return true;
	}
	return false;
}

/* The row of @key and the direction it goes, or NULL. */
static const struct key_row *
find_key(int key, int *dir)
{
	for (size_t i = 0; i < ARRAY_LENGTH(keymap); i++) {
		*dir = key_in(keymap[i].fwd, key) ? 1 : key_in(keymap[i].back, key) ? -1 : 0;
		if (*dir)
			return &keymap[i];
	}
	return NULL;
}

/* "Left/Right h/l", "-/+ o/i =", "z": the keys of a row, as help shows them. */
static const char *
key_row_label(const struct key_row *r, char *buf, size_t size)
{
	char nb[16], nf[16];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < KEYS_MAX && (r->back[i] || r->fwd[i]); i++) {
		const char *b = r->back[i] ? tv_key_label(r->back[i], nb, sizeof(nb)) : "";
		const char *f = r->fwd[i] ? tv_key_label(r->fwd[i], nf, sizeof(nf)) : "";
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s%s%s", i ? " " : "", b,
				      *b && *f ? "/" : "", f);
		if (n >= size)
			break;
	}
	return buf;
}

/* After any key: the cursor stays inside the recording and in view; a
 * move other than to the end stops following a live file. */
static void
settle(struct tv_state *st, int64_t before, bool keeps_follow, int cols)
{
	if (st->cursor < rec_begin(st->ix))
		st->cursor = rec_begin(st->ix);
	if (st->cursor > rec_end(st->ix))
		st->cursor = rec_end(st->ix);
	if (st->cursor != before && !keeps_follow)
		st->follow = false;
	scroll_to_cursor(st, cols);
}

void
tv_key(struct tv_state *st, int key, int cols)
{
	int64_t before = st->cursor;
	const struct key_row *r = NULL;
	int dir = 0;

	if (cols <= 0)
		cols = st->lane_cols > 0 ? st->lane_cols : 60;
	st->autofit = false;
	if (st->prompting) {
		prompt_key(st, key);
	} else {
		/* Any key leaves the help; q quits from there too. */
		if (st->help) {
			st->help = false;
			if (key != 'q')
				return;
		}
		st->message[0] = '\0';
		r = find_key(key, &dir);
		if (r)
			r->fn(st, dir, cols);
	}
	settle(st, before, r && r->fn == act_start_end && dir > 0, cols);
}

/* ---- whole screen ---- */

static const char *const help_legend[] = {
	"",
	"Lanes: [ begin  ] end  o both  > still down at the end  = kernel frames  ~ XI events",
	"       : raw XI events  + HID reports  * libinput touch  % libinput gesture",
	"       ^ Wayland touch  - down, no change",
	"Markers: O ownership  A accept  R reject  P pending end  E emulating pointer",
	"         D SYN_DROPPED  S resync  X device removed  ! anomaly  N marker record",
	"",
	"Press any key to return.",
};

/* The keys from the table they run from, then the legend. */
static void
render_help(struct tv_screen *s)
{
	char label[64];
	int row = 0;

	tv_puts_at(s, row++, 0, s->cols, TV_A_BOLD, "touchtape inspect: keys");
	row++;
	for (size_t i = 0; i < ARRAY_LENGTH(keymap); i++)
		printf_at(s, row++, 0, s->cols, TV_C_NORMAL, "  %-20s %s",
			  key_row_label(&keymap[i], label, sizeof(label)), keymap[i].help);
	for (size_t i = 0; i < ARRAY_LENGTH(help_legend); i++)
		tv_puts_at(s, row++, 0, s->cols, TV_C_NORMAL, help_legend[i]);
}

/* The row of the selected lane among @ll, choosing one (the lane under
 * the cursor, else the first) when @cursor and the selection is not
 * shown; SIZE_MAX when there is none. */
static size_t
keep_selection(struct tv_state *st, const struct lane_list *ll, bool cursor)
{
	size_t pos = SIZE_MAX;

	for (size_t i = 0; i < ll->n; i++) {
		if ((int64_t)ll->v[i]->index == st->sel)
			pos = i;
	}
	if (pos != SIZE_MAX || !ll->n)
		return pos;
	for (size_t i = 0; i < ll->n && pos == SIZE_MAX; i++) {
		if (ll->v[i]->begin_us <= st->cursor && tv_lane_end(st->ix, ll->v[i]) >= st->cursor)
			pos = i;
	}
	if (pos == SIZE_MAX)
		pos = 0;
	if (cursor)
		st->sel = ll->v[pos]->index;
	return pos;
}

/* Scrolls the lanes so the selection (row @pos) is in the @nrows shown. */
static void
scroll_lanes(struct tv_state *st, size_t pos, size_t n, int nrows, bool cursor)
{
	if (pos != SIZE_MAX && cursor) {
		if ((int)pos < st->lane_top)
			st->lane_top = (int)pos;
		if ((int)pos >= st->lane_top + nrows)
			st->lane_top = (int)pos - nrows + 1;
	}
	if (st->lane_top > (int)n - nrows)
		st->lane_top = (int)n - nrows;
	if (st->lane_top < 0)
		st->lane_top = 0;
	st->lane_rows = nrows;
}

/* Label and body of each lane shown, from row @top. */
static void
draw_lane_rows(const struct tv_state *st, struct tv_screen *s, int top, int nrows, const struct lane_list *ll,
	       bool cursor)
{
	int lw = st->label_cols;
	char lb[128];

	for (int r = 0; r < nrows && (size_t)(st->lane_top + r) < ll->n; r++) {
		const struct ti_lane *l = ll->v[st->lane_top + r];
		bool sel = cursor && (int64_t)l->index == st->sel;
		/* The selection shows without attributes too: '>' before it. */
		int lx = cursor ? 1 : 0;
		lane_label(st->ix, l, lb, sizeof(lb), lw - lx);
		if (sel)
			for (int c = 0; c < lw; c++)
				put(s, top + r, c, c == 0 ? '>' : ' ', TV_A_REVERSE | TV_A_BOLD);
		tv_puts_at(s, top + r, lx, lw - lx, sel ? TV_A_REVERSE | TV_A_BOLD : lane_attr(l), lb);
		draw_lane(st, s, top + r, lw + 1, st->lane_cols, l);
	}
}

/* The cursor: 'v' on the axis, a column in reverse below it. */
static void
draw_cursor(const struct tv_state *st, struct tv_screen *s, int top, int rows)
{
	int x0 = st->label_cols + 1;
	int c = col_of(st, st->cursor);

	if (c < 0 || c >= st->lane_cols)
		return;
	put(s, top, x0 + c, 'v', TV_A_BOLD);
	for (int r = top + 1; r < top + rows; r++) {
		struct tv_cell *cell = &s->cells[r * s->cols + x0 + c];
		if (cell->ch == ' ')
			cell->ch = '.';
		cell->attr |= TV_A_REVERSE;
	}
}

static void
render_lanes(struct tv_state *st, struct tv_screen *s, int top, int rows, bool cursor)
{
	const struct tt_index *ix = st->ix;
	int lw = st->label_cols, x0 = lw + 1, w = st->lane_cols;
	int nrows = rows - 2 > 0 ? rows - 2 : 0;
	struct lane_list ll;

	draw_axis(st, s, top, x0, w);
	tv_puts_at(s, top, 0, lw, TV_C_DIM, "time (s)");
	tv_puts_at(s, top + 1, 0, lw, TV_C_DIM, "markers");
	visible_lanes(st, st->view_start, st->view_start + (int64_t)w * st->scale, &ll);
	/* Keep the selection on a shown lane, and in view. */
	scroll_lanes(st, keep_selection(st, &ll, cursor), ll.n, nrows, cursor);
	draw_lane_rows(st, s, top + 2, nrows, &ll, cursor);
	if (!ll.n)
		tv_puts_at(s, top + 2, x0, w, TV_C_DIM,
			   tt_index_nlanes(ix) ? "(no touch in this time range)" : "(no touch sequences)");
	draw_markers(st, s, x0, w, top + 1, &ll, top + 2, nrows);
	if (cursor)
		draw_cursor(st, s, top, rows);
	free(ll.v);
}

/* The first render fits the recording (or, live, its last ten seconds);
 * a live view keeps the cursor at the end. */
static void
place_view(struct tv_state *st)
{
	const struct tt_index *ix = st->ix;

	if ((!st->started || (st->autofit && !st->follow)) && (tt_index_stats(ix)->have_time || tt_index_done(ix))) {
		st->started = true;
		fit(st, st->lane_cols);
		st->cursor = rec_begin(ix);
		if (st->follow) {
			st->scale = 10000000 / st->lane_cols + 1;
			st->cursor = rec_end(ix);
			scroll_to_cursor(st, st->lane_cols);
		}
	}
	if (st->follow) {
		st->cursor = rec_end(ix);
		if (st->cursor >= st->view_start + (int64_t)st->lane_cols * st->scale)
			scroll_to_cursor(st, st->lane_cols);
	}
}

static void
render_title(const struct tv_state *st, struct tv_screen *s)
{
	const struct tt_index *ix = st->ix;
	const char *name = tt_index_name(ix);
	char tb[32], sb[32], filt[64];

	tv_fill_row(s, 0, 0, s->cols, TV_C_TITLE | TV_A_REVERSE);
	if (st->filter_dev >= 0)
		snprintf(filt, sizeof(filt), "%s%" PRId64, dev_kind_prefix[st->filter_kind], st->filter_dev);
	else
		snprintf(filt, sizeof(filt), "all");
	/* The file's name last and without its directory: a long path must
	 * not push the cursor time and scale off a narrow screen. */
	const char *base = strrchr(name, '/');
	printf_at(s, 0, 0, s->cols, TV_C_TITLE | TV_A_REVERSE, " t=%s  %s/col  dev:%s src:%s%s  %s",
		  tv_fmt_time(tb, sizeof(tb), st->cursor), tv_fmt_span(sb, sizeof(sb), st->scale), filt,
		  source_name(st->source),
		  tt_index_done(ix) ? "" : st->follow ? "  [live]" : "  [reading]", base ? base + 1 : name);
}

/* The frame, slot and touch panes side by side, @h rows from @top. */
static void
render_panes(struct tv_state *st, struct tv_screen *s, int top, int h)
{
	int w1 = s->cols * 30 / 100, w2 = s->cols * 36 / 100;
	struct tv_pane p1 = { top, 0, w1 - 1, h, 0 };
	struct tv_pane p2 = { top, w1, w2 - 1, h, 0 };
	struct tv_pane p3 = { top, w1 + w2, s->cols - w1 - w2, h, 0 };

	tv_frame_pane(st, s, &p1);
	tv_slot_pane(st, s, &p2);
	tv_touch_pane(st, s, &p3);
}

static void
render_status(const struct tv_state *st, struct tv_screen *s)
{
	int last = s->rows - 1;

	if (st->prompting)
		printf_at(s, last, 0, s->cols, TV_A_BOLD, "/%s_", st->prompt);
	else if (st->message[0])
		tv_puts_at(s, last, 0, s->cols, TV_C_MARK, st->message);
	else
		tv_puts_at(s, last, 0, s->cols, TV_C_DIM,
			"?:help q:quit <>:frame HL:touch ev PgUp/Dn:1s +-:zoom e:begin/end w:owner a:anomaly /:search d s:filter");
}

void
tv_render(struct tv_state *st, struct tv_screen *s)
{
	for (int i = 0; i < s->cols * s->rows; i++)
		s->cells[i] = (struct tv_cell){ ' ', 0 };
	if (st->help) {
		render_help(s);
		return;
	}
	st->label_cols = s->cols / 4 < LABEL_MAX ? s->cols / 4 : LABEL_MAX;
	st->lane_cols = s->cols - st->label_cols - 1;
	if (st->lane_cols < 1)
		st->lane_cols = 1;
	place_view(st);
	render_title(st, s);

	int pane_h = s->rows >= 16 ? (s->rows - 4) / 2 : 0;
	if (pane_h > 14)
		pane_h = 14;
	int lanes_rows = s->rows - 2 - pane_h;
	render_lanes(st, s, 1, lanes_rows, true);
	if (pane_h > 0)
		render_panes(st, s, 1 + lanes_rows, pane_h);
	render_status(st, s);
}

void
tv_render_text(struct tt_index *ix, int64_t from, int64_t to, int width, FILE *out)
{
	struct tv_state st;
	struct tv_screen s = { 0 };
	struct lane_list ll;

	tv_state_init(&st, ix);
	if (width < 20)
		width = 20;
	st.label_cols = width / 4 < LABEL_MAX ? width / 4 : LABEL_MAX;
	st.lane_cols = width - st.label_cols - 1;
	if (to <= from)
		to = from + 1;
	st.scale = (to - from) / st.lane_cols + 1;
	st.view_start = from;
	st.cursor = from;
	st.started = true;
	visible_lanes(&st, from, st.view_start + (int64_t)st.lane_cols * st.scale, &ll);
	int rows = (int)ll.n + 3;
	free(ll.v);
	tv_screen_init(&s, width, rows);
	char tb[32], tb2[32], sb[32];
	printf_at(&s, 0, 0, width, 0, "%s: %s to %s s, %s per column", tt_index_name(ix), tv_fmt_time(tb, sizeof(tb), from),
		  tv_fmt_time(tb2, sizeof(tb2), to), tv_fmt_span(sb, sizeof(sb), st.scale));
	render_lanes(&st, &s, 1, rows - 1, false);
	tv_screen_dump(&s, out);
	fprintf(out, "lanes: [ begin  ] end  o both  > down at the end  = kernel frames  ~ XI events  : raw XI\n"
		"       + HID reports  * libinput touch events  %% libinput gesture updates  ^ Wayland touch moves\n"
		"markers: O owner  A accept  R reject  P pending end  E emulating pointer  D SYN_DROPPED\n"
		"         S resync  X device removed  ! anomaly  N marker record\n");
	tv_screen_fini(&s);
}
