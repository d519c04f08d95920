/* SPDX-License-Identifier: MIT */
/* The terminal UI (ui-curses.c, the only file that includes curses). */
#pragma once

#include <stddef.h>

#include "view-model.h"

/* Runs the interactive viewer on the terminal until 'q' (or SIGINT,
 * SIGTERM, SIGHUP). Keys come from @script first (may be NULL), then
 * from the terminal. The index may be growing in another thread: the
 * screen is redrawn as it does. Returns 0, or -1 when no terminal could
 * be set up (with a message printed). */
int tt_ui_curses_run(struct tv_state *st, const struct tv_script_key *script, size_t nscript);
