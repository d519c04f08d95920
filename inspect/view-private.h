/* SPDX-License-Identifier: MIT */
/* Shared by view-model.c (lanes, keys, layout) and view-panes.c. */
#pragma once

#include "view-model.h"

/* A rectangle of the screen that fills line by line. */
struct tv_pane {
	int row, col, width, height;
	int line;
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
