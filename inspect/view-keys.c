/* SPDX-License-Identifier: MIT */
/* The inspector's keys: one table for what a key does and what the help
 * screen says, the actions it names, and the help screen. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "util-strings.h"
#include "view-private.h"

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
	if (!tv_step_frame(st, dir))
		tv_set_message(st, dir > 0 ? "last frame" : "first frame");
}

static void
act_touch_event(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	tv_step_touch_event(st, dir);
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
		st->cursor = tv_rec_begin(st->ix);
	} else {
		st->cursor = tv_rec_end(st->ix);
		st->follow = !tt_index_done(st->ix);
	}
}

static void
act_select(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	tv_move_selection(st, dir);
}

static void
act_zoom(struct tv_state *st, int dir, int cols)
{
	tv_zoom(st, dir, cols);
}

static void
act_fit(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	tv_fit(st, cols);
}

static void
act_begin_end(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	tv_jump_begin_end(st, dir);
}

static void
act_ownership(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	tv_jump_marker(st, dir, true);
}

static void
act_anomaly(struct tv_state *st, int dir, int cols)
{
	(void)cols;
	tv_jump_marker(st, dir, false);
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
	tv_search(st, st->last_search);
}

static void
act_device(struct tv_state *st, int dir, int cols)
{
	(void)dir;
	(void)cols;
	tv_cycle_device(st);
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
	tv_set_message(st, "source: %s", what[st->source]);
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
	if (st->cursor < tv_rec_begin(st->ix))
		st->cursor = tv_rec_begin(st->ix);
	if (st->cursor > tv_rec_end(st->ix))
		st->cursor = tv_rec_end(st->ix);
	if (st->cursor != before && !keeps_follow)
		st->follow = false;
	tv_scroll_to_cursor(st, cols);
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
		tv_prompt_key(st, key);
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
void
tv_render_help(struct tv_screen *s)
{
	char label[64];
	int row = 0;

	tv_puts_at(s, row++, 0, s->cols, TV_A_BOLD, "touchtape inspect: keys");
	row++;
	for (size_t i = 0; i < ARRAY_LENGTH(keymap); i++)
		tv_printf_at(s, row++, 0, s->cols, TV_C_NORMAL, "  %-20s %s",
			     key_row_label(&keymap[i], label, sizeof(label)), keymap[i].help);
	for (size_t i = 0; i < ARRAY_LENGTH(help_legend); i++)
		tv_puts_at(s, row++, 0, s->cols, TV_C_NORMAL, help_legend[i]);
}
