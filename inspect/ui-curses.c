/* SPDX-License-Identifier: MIT */
/*
 * The inspector on a terminal: the only file that includes curses. It
 * copies the abstract screen of view-model.c to the terminal, maps keys,
 * and handles resizing in one place. The terminal is restored from
 * atexit() and on fatal signals; SIGINT, SIGTERM and SIGHUP end the loop
 * like 'q'. Keys are read from /dev/tty, so the recording itself may
 * come through standard input (touchtape record -o - | touchtape
 * inspect -).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ui.h"

/* Last: <linux/input.h> (through the index) defines KEY_LEFT, KEY_END...
 * as evdev codes, and curses defines the same names as its key codes.
 * Here only curses's are meant. */
#undef KEY_LEFT
#undef KEY_RIGHT
#undef KEY_UP
#undef KEY_DOWN
#undef KEY_HOME
#undef KEY_END
#undef KEY_ENTER
#undef KEY_BACKSPACE
#include <curses.h>

static SCREEN *ui_screen;
static FILE *ui_tty_in;
static FILE *ui_tty_out;
static volatile sig_atomic_t ui_stop;

static void
ui_restore(void)
{
	if (ui_screen) {
		endwin();
		ui_screen = NULL;
	}
}

static void
on_stop_signal(int sig)
{
	(void)sig;
	ui_stop = 1;
}

static void
on_fatal_signal(int sig)
{
	/* Not async-signal-safe, but the process is dying anyway and a
	 * terminal left in raw mode is worse (tig and ncdu do the same). */
	ui_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install_signals(void)
{
	struct sigaction sa;
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP };

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_LENGTH(fatal); i++)
		sigaction(fatal[i], &sa, NULL);
	sa.sa_handler = on_stop_signal;
	sa.sa_flags = 0;	/* no SA_RESTART: getch() returns */
	for (size_t i = 0; i < ARRAY_LENGTH(stop); i++)
		sigaction(stop[i], &sa, NULL);
}

static const short colour_of[TV_C_COUNT] = {
	[TV_C_NORMAL] = -1,
	[TV_C_TITLE] = COLOR_BLUE,
	[TV_C_KERNEL] = COLOR_CYAN,
	[TV_C_XI] = COLOR_GREEN,
	[TV_C_RAW] = COLOR_MAGENTA,
	[TV_C_MARK] = COLOR_YELLOW,
	[TV_C_GOOD] = COLOR_GREEN,
	[TV_C_BAD] = COLOR_RED,
	[TV_C_DIM] = -1,
	[TV_C_HID] = COLOR_BLUE,
	[TV_C_LI] = COLOR_WHITE,
};

static bool ui_colours;

static void
setup_colours(void)
{
	if (!has_colors())
		return;
	start_color();
	use_default_colors();
	for (int c = 1; c < TV_C_COUNT; c++)
		init_pair((short)c, colour_of[c], -1);
	ui_colours = true;
}

static attr_t
curses_attr(uint8_t a)
{
	attr_t r = A_NORMAL;
	int c = a & TV_A_COLOR_MASK;

	if (a & TV_A_BOLD)
		r |= A_BOLD;
	if (a & TV_A_REVERSE)
		r |= A_REVERSE;
	if (a & TV_A_UNDERLINE)
		r |= A_UNDERLINE;
	if (c == TV_C_DIM)
		r |= A_DIM;
	if (c == TV_C_TITLE)
		r |= A_BOLD;
	if (ui_colours && c > 0 && c < TV_C_COUNT && colour_of[c] >= 0)
		r |= COLOR_PAIR(c);
	return r;
}

static void
blit(const struct tv_screen *s)
{
	for (int r = 0; r < s->rows && r < LINES; r++) {
		move(r, 0);
		for (int c = 0; c < s->cols && c < COLS; c++) {
			/* The bottom-right cell scrolls some terminals. */
			if (r == LINES - 1 && c == COLS - 1)
				break;
			const struct tv_cell *cell = &s->cells[r * s->cols + c];
			addch((chtype)(unsigned char)cell->ch | curses_attr(cell->attr));
		}
	}
	refresh();
}

static int
map_key(int ch)
{
	switch (ch) {
	case KEY_LEFT: return TV_KEY_LEFT;
	case KEY_RIGHT: return TV_KEY_RIGHT;
	case KEY_UP: return TV_KEY_UP;
	case KEY_DOWN: return TV_KEY_DOWN;
	case KEY_SLEFT: return TV_KEY_SLEFT;
	case KEY_SRIGHT: return TV_KEY_SRIGHT;
	case KEY_PPAGE: return TV_KEY_PGUP;
	case KEY_NPAGE: return TV_KEY_PGDN;
	case KEY_HOME: return TV_KEY_HOME;
	case KEY_END: return TV_KEY_END;
	case KEY_ENTER: case '\r': return TV_KEY_ENTER;
	case KEY_BACKSPACE: return TV_KEY_BACKSPACE;
	case KEY_RESIZE: return TV_KEY_RESIZE;
	case 12: return TV_KEY_REDRAW;	/* ctrl-L */
	default: return ch >= 0 && ch < 0x100 ? ch : TV_KEY_NONE;
	}
}

struct input {
	const struct tv_script_key *script;
	size_t n, pos;
};

/* The one input function: the script first, then the terminal. Returns
 * ERR after the timeout with nothing typed. */
static int
next_key(struct input *in, struct tv_screen *s)
{
	while (in->pos < in->n) {
		const struct tv_script_key *k = &in->script[in->pos++];
		if (k->key == TV_SCRIPT_DUMP)
			continue;	/* headless only */
		if (k->key == TV_SCRIPT_RESIZE) {
			resizeterm(k->rows, k->cols);
			return TV_KEY_RESIZE;
		}
		(void)s;
		return k->key;
	}
	int ch = getch();
	if (ch == ERR)
		return ERR;
	return map_key(ch);
}

static int
open_terminal(void)
{
	int fd;

	if (isatty(STDIN_FILENO)) {
		fd = dup(STDIN_FILENO);
	} else {
		fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	ui_tty_in = fdopen(fd, "r");
	if (!ui_tty_in) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	ui_tty_out = stdout;
	ui_screen = newterm(NULL, ui_tty_out, ui_tty_in);
	if (!ui_screen)
		return -ENOTTY;
	return 0;
}

int
tt_ui_curses_run(struct tv_state *st, const struct tv_script_key *script, size_t nscript)
{
	struct tv_screen s = { 0 };
	struct input in = { script, nscript, 0 };
	uint64_t shown_gen = UINT64_MAX;
	bool dirty = true;
	int rc = open_terminal();

	if (rc < 0) {
		tt_error("cannot use the terminal: %s", strerror(-rc));
		return -1;
	}
	atexit(ui_restore);
	install_signals();
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(100);
	setup_colours();
	tv_screen_init(&s, COLS, LINES);

	while (!st->quit && !ui_stop) {
		tt_index_lock(st->ix);
		uint64_t gen = tt_index_generation(st->ix);
		if (dirty || gen != shown_gen) {
			tv_render(st, &s);
			shown_gen = gen;
			dirty = false;
			tt_index_unlock(st->ix);
			blit(&s);
		} else {
			tt_index_unlock(st->ix);
		}
		int key = next_key(&in, &s);
		if (key == ERR || key == TV_KEY_NONE)
			continue;
		if (key == TV_KEY_RESIZE || key == TV_KEY_REDRAW) {
			/* The one place a new size is taken. */
			tv_screen_init(&s, COLS, LINES);
			clear();
			dirty = true;
			continue;
		}
		tt_index_lock(st->ix);
		tv_key(st, key, 0);
		tt_index_unlock(st->ix);
		dirty = true;
	}
	tv_screen_fini(&s);
	SCREEN *scr = ui_screen;
	ui_restore();
	if (scr)
		delscreen(scr);
	if (ui_tty_in)
		fclose(ui_tty_in);
	ui_tty_in = NULL;
	return 0;
}
