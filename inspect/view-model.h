/* SPDX-License-Identifier: MIT */
/*
 * The inspector's UI without curses: the state (cursor time, zoom,
 * selected lane, filters, search) and its rendering into an abstract
 * screen of cells. ui-curses.c copies that screen to the terminal; the
 * headless mode and --text dump it as text, which the golden tests diff.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "index.h"

/* Keys: printable ASCII as themselves, the rest here. */
enum tv_key {
	TV_KEY_NONE = 0,
	TV_KEY_ENTER = '\n',
	TV_KEY_ESC = 27,
	TV_KEY_BACKSPACE = 127,
	TV_KEY_LEFT = 0x100,
	TV_KEY_RIGHT,
	TV_KEY_UP,
	TV_KEY_DOWN,
	TV_KEY_SLEFT,		/* shift-left */
	TV_KEY_SRIGHT,
	TV_KEY_PGUP,
	TV_KEY_PGDN,
	TV_KEY_HOME,
	TV_KEY_END,
	TV_KEY_RESIZE,		/* the screen was resized already */
	TV_KEY_REDRAW,		/* ctrl-L */
};

/* Cell attributes: a colour class in the low bits, flags above. */
enum tv_attr {
	TV_C_NORMAL = 0,
	TV_C_TITLE,
	TV_C_KERNEL,
	TV_C_XI,
	TV_C_RAW,
	TV_C_MARK,
	TV_C_GOOD,		/* accepted */
	TV_C_BAD,		/* rejected, anomaly, drop */
	TV_C_DIM,
	TV_C_HID,
	TV_C_LI,		/* libinput touches and gestures */
	TV_C_COUNT,
	TV_A_COLOR_MASK = 0x0f,
	TV_A_BOLD = 0x10,
	TV_A_REVERSE = 0x20,
	TV_A_UNDERLINE = 0x40,
};

struct tv_cell {
	char ch;		/* printable ASCII */
	uint8_t attr;
};

struct tv_screen {
	int cols, rows;
	struct tv_cell *cells;
};

void tv_screen_init(struct tv_screen *s, int cols, int rows);
void tv_screen_fini(struct tv_screen *s);
/* Writes the screen as text, trailing blanks removed. */
void tv_screen_dump(const struct tv_screen *s, FILE *out);

/* What kind of device tv_state.filter_dev names. */
enum tv_dev_kind {
	TV_DEV_KERNEL,		/* an evdev device record id */
	TV_DEV_XI,		/* an XI source (or master) device id */
	TV_DEV_HID,		/* a HID device id */
};

enum tv_source {
	TV_SRC_ALL,
	TV_SRC_KERNEL,
	TV_SRC_XI,
	TV_SRC_HID,
	TV_SRC_LI,
	TV_SRC_COUNT,
};

struct tv_state {
	struct tt_index *ix;
	int64_t cursor;		/* µs */
	int64_t view_start;	/* time of the first lane column */
	int64_t scale;		/* µs per column, >= 1 */
	int64_t sel;		/* selected lane index, -1 */
	int64_t filter_dev;	/* -1 all; else a device id of filter_kind */
	enum tv_dev_kind filter_kind;
	enum tv_source source;
	bool help;
	bool prompting;
	char prompt[64];
	size_t prompt_len;
	char last_search[64];
	char message[160];
	bool follow;		/* keep the cursor at the end while the index grows */
	bool quit;
	bool started;		/* the view was fitted once */
	bool autofit;		/* refit as the index grows, until a key is pressed */
	int lane_top;		/* first lane row shown */
	/* Layout of the last render. */
	int lane_cols;		/* columns of the time area */
	int label_cols;
	int lane_rows;
};

void tv_state_init(struct tv_state *st, struct tt_index *ix);
/* Applies one key (with the index lock held by the caller when an
 * indexer runs); @cols: columns of the time area, 0 for the last
 * render's. */
void tv_key(struct tv_state *st, int key, int cols);
/* Renders the whole UI into @s (with the index lock held by the caller
 * when an indexer runs). */
void tv_render(struct tv_state *st, struct tv_screen *s);
/* The lane view only, for --text: every lane overlapping [from, to] on
 * @width columns, as many rows as there are lanes. */
void tv_render_text(struct tt_index *ix, int64_t from, int64_t to, int width, FILE *out);

/* Parses a key script (view-script.c): characters stand for themselves;
 * <Left>, <Right>, <Up>, <Down>, <S-Left>, <S-Right>, <PgUp>, <PgDn>,
 * <Home>, <End>, <Enter>, <Esc>, <BS>, <Tab>, <lt> ('<'), <Dump>,
 * <Resize:COLSxROWS>. 0 with the keys in a new array *out (the caller
 * frees it) and their number in *n; -1 with the offending offset in *bad. */
#define TV_SCRIPT_DUMP 0x1000
#define TV_SCRIPT_RESIZE 0x2000	/* + data in tv_script_resize */
struct tv_script_key {
	int key;
	int cols, rows;		/* for TV_SCRIPT_RESIZE */
};
int tv_parse_script(const char *script, struct tv_script_key **out, size_t *n, size_t *bad);
/* The name of a key for messages and dumps ("<Left>", "q"). */
const char *tv_key_name(int key, char *buf, size_t size);
/* The same without the brackets, as the help screen shows it ("Left"). */
const char *tv_key_label(int key, char *buf, size_t size);
