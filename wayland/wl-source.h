/* SPDX-License-Identifier: MIT */
/*
 * record --wayland: the Wayland client (wl-capture.h) as a capture source
 * of the recorder (evdev/capture-source.h), added after the recorder's
 * preamble. Connect it first (tt_wl_capture_connect()), so a missing
 * compositor is said before any file is made; its start maps the surface
 * and writes the wayland-connected marker. It reads the kernel sources
 * before it writes (a frame precedes what the compositor made of it) and
 * drains what the compositor sent at the end. A compositor that goes
 * away ends the recording only when the Wayland client was all there was
 * to record.
 */
#pragma once

#include <stdbool.h>

#include "capture-source.h"
#include "wl-capture.h"

struct tt_wl_source;

extern const struct tt_source_ops tt_wl_source_ops;

/* Takes @cap over. @alone: nothing else is recorded. */
struct tt_wl_source *tt_wl_source_new(struct tt_wl_capture *cap, bool alone);
