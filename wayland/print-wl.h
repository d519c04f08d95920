/* SPDX-License-Identifier: MIT */
/*
 * print's Wayland layer: each wl record on one line, as WAYLAND_DEBUG
 * shows an event (interface@object.event(arguments)), with the arguments
 * named and the touch id in its own column so a touch's lines line up.
 */
#pragma once

#include <stdio.h>

#include "timeline.h"

/* Without the newline: print adds the kernel touch first (print-wl-link.h). */
void print_wl_event(FILE *out, const struct tt_wl_event *ev);
