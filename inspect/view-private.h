/* SPDX-License-Identifier: MIT */
/* Shared by the inspector's view files: view-model.c (the screen and
 * its layout), view-lanes.c, view-nav.c, view-keys.c and view-panes.c. */
#pragma once

#include "view-model.h"

/* A rectangle of the screen that fills line by line. */
struct tv_pane {
	int row, col, width, height;
	int line;
};

/* The lanes shown, in row order (view-lanes.c). */
struct lane_list {
	const struct ti_lane **v;
	size_t n;
};

/* Writes @text from @col, at most @width columns, ASCII only (other
 * characters show as '?'); returns the columns used. */
int tv_puts_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *text);
void tv_fill_row(struct tv_screen *s, int row, int col, int width, uint8_t attr);
/* "12.345678" seconds; "1.5ms", "250us", "2.5s". */
const char *tv_fmt_time(char *buf, size_t size, int64_t us);
const char *tv_fmt_span(char *buf, size_t size, int64_t us);
/* The end of a lane, or the end of the input so far while it is down. */
int64_t tv_lane_end(const struct tt_index *ix, const struct ti_lane *l);
/* The first marker at or after @t. */
size_t tv_marker_lower(const struct tt_index *ix, int64_t t);
uint8_t tv_marker_attr(enum ti_marker_kind k);
const struct ti_lane *tv_selected(const struct tv_state *st);

void tv_frame_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p);
void tv_slot_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p);
void tv_touch_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p);

/* view-model.c */
int tv_printf_at(struct tv_screen *s, int row, int col, int width, uint8_t attr, const char *fmt, ...) _printf_(6, 7);
void tv_put(struct tv_screen *s, int row, int col, char ch, uint8_t attr);

/* view-lanes.c */
int tv_col_of(const struct tv_state *st, int64_t t);
void tv_draw_axis(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width);
void tv_draw_lane(const struct tv_state *st, struct tv_screen *s, int row, int x0, int width, const struct ti_lane *l);
void tv_draw_markers(const struct tv_state *st, struct tv_screen *s, int x0, int width, int marker_row,
		     const struct lane_list *lanes, int first_row, int nrows);
bool tv_filter_kernel(const struct tv_state *st);
bool tv_is_xi_lane(const struct ti_lane *l);
uint8_t tv_lane_attr(const struct ti_lane *l);
void tv_lane_label(const struct tt_index *ix, const struct ti_lane *l, char *buf, size_t size, int width);
int64_t tv_lane_next_update(const struct tt_index *ix, const struct ti_lane *l, int64_t t);
bool tv_lane_passes(const struct tv_state *st, const struct ti_lane *l);
void tv_visible_lanes(const struct tv_state *st, int64_t from, int64_t to, struct lane_list *out);

/* view-nav.c */
void tv_cycle_device(struct tv_state *st);
void tv_fit(struct tv_state *st, int cols);
void tv_jump_begin_end(struct tv_state *st, int dir);
void tv_jump_marker(struct tv_state *st, int dir, bool ownership);
void tv_move_selection(struct tv_state *st, int dir);
void tv_prompt_key(struct tv_state *st, int key);
int64_t tv_rec_begin(const struct tt_index *ix);
int64_t tv_rec_end(const struct tt_index *ix);
void tv_scroll_to_cursor(struct tv_state *st, int cols);
void tv_search(struct tv_state *st, const char *q);
void tv_set_message(struct tv_state *st, const char *fmt, ...) _printf_(2, 3);
const char *tv_source_name(enum tv_source src);
bool tv_step_frame(struct tv_state *st, int dir);
void tv_step_touch_event(struct tv_state *st, int dir);
void tv_zoom(struct tv_state *st, int dir, int cols);

/* view-keys.c */
void tv_render_help(struct tv_screen *s);
