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

void
tv_put(struct tv_screen *s, int row, int col, char ch, uint8_t attr)
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
		tv_put(s, row, col + n, (*p >= 0x20 && *p < 0x7f) ? (char)*p : '?', attr);
		n++;
	}
	return n;
}

int
tv_printf_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *fmt, ...)
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
		tv_put(s, row, c, ' ', attr);
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

/* ---- whole screen ---- */

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
		tv_lane_label(st->ix, l, lb, sizeof(lb), lw - lx);
		if (sel)
			for (int c = 0; c < lw; c++)
				tv_put(s, top + r, c, c == 0 ? '>' : ' ', TV_A_REVERSE | TV_A_BOLD);
		tv_puts_at(s, top + r, lx, lw - lx, sel ? TV_A_REVERSE | TV_A_BOLD : tv_lane_attr(l), lb);
		tv_draw_lane(st, s, top + r, lw + 1, st->lane_cols, l);
	}
}

/* The cursor: 'v' on the axis, a column in reverse below it. */
static void
draw_cursor(const struct tv_state *st, struct tv_screen *s, int top, int rows)
{
	int x0 = st->label_cols + 1;
	int c = tv_col_of(st, st->cursor);

	if (c < 0 || c >= st->lane_cols)
		return;
	tv_put(s, top, x0 + c, 'v', TV_A_BOLD);
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

	tv_draw_axis(st, s, top, x0, w);
	tv_puts_at(s, top, 0, lw, TV_C_DIM, "time (s)");
	tv_puts_at(s, top + 1, 0, lw, TV_C_DIM, "markers");
	tv_visible_lanes(st, st->view_start, st->view_start + (int64_t)w * st->scale, &ll);
	/* Keep the selection on a shown lane, and in view. */
	scroll_lanes(st, keep_selection(st, &ll, cursor), ll.n, nrows, cursor);
	draw_lane_rows(st, s, top + 2, nrows, &ll, cursor);
	if (!ll.n)
		tv_puts_at(s, top + 2, x0, w, TV_C_DIM,
			   tt_index_nlanes(ix) ? "(no touch in this time range)" : "(no touch sequences)");
	tv_draw_markers(st, s, x0, w, top + 1, &ll, top + 2, nrows);
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
		tv_fit(st, st->lane_cols);
		st->cursor = tv_rec_begin(ix);
		if (st->follow) {
			st->scale = 10000000 / st->lane_cols + 1;
			st->cursor = tv_rec_end(ix);
			tv_scroll_to_cursor(st, st->lane_cols);
		}
	}
	if (st->follow) {
		st->cursor = tv_rec_end(ix);
		if (st->cursor >= st->view_start + (int64_t)st->lane_cols * st->scale)
			tv_scroll_to_cursor(st, st->lane_cols);
	}
}

static const char *const dev_kind_prefix[] = {
	[TV_DEV_KERNEL] = "dev", [TV_DEV_XI] = "xi", [TV_DEV_HID] = "hid",
};

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
	tv_printf_at(s, 0, 0, s->cols, TV_C_TITLE | TV_A_REVERSE, " t=%s  %s/col  dev:%s src:%s%s  %s",
		     tv_fmt_time(tb, sizeof(tb), st->cursor), tv_fmt_span(sb, sizeof(sb), st->scale), filt,
		     tv_source_name(st->source),
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
		tv_printf_at(s, last, 0, s->cols, TV_A_BOLD, "/%s_", st->prompt);
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
		tv_render_help(s);
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
	tv_visible_lanes(&st, from, st.view_start + (int64_t)st.lane_cols * st.scale, &ll);
	int rows = (int)ll.n + 3;
	free(ll.v);
	tv_screen_init(&s, width, rows);
	char tb[32], tb2[32], sb[32];
	tv_printf_at(&s, 0, 0, width, 0, "%s: %s to %s s, %s per column", tt_index_name(ix), tv_fmt_time(tb, sizeof(tb), from),
		     tv_fmt_time(tb2, sizeof(tb2), to), tv_fmt_span(sb, sizeof(sb), st.scale));
	render_lanes(&st, &s, 1, rows - 1, false);
	tv_screen_dump(&s, out);
	fprintf(out, "lanes: [ begin  ] end  o both  > down at the end  = kernel frames  ~ XI events  : raw XI\n"
		"       + HID reports  * libinput touch events  %% libinput gesture updates  ^ Wayland touch moves\n"
		"markers: O owner  A accept  R reject  P pending end  E emulating pointer  D SYN_DROPPED\n"
		"         S resync  X device removed  ! anomaly  N marker record\n");
	tv_screen_fini(&s);
}
