/* SPDX-License-Identifier: MIT */
/*
 * record --guide as a capture source (evdev/capture-source.h): the keys
 * a person presses on the terminal (stdin) and the touches of the written
 * frames drive the guide (guide.h), whose markers go into the file; when
 * the exercises are done the recording stops.
 */
#pragma once

#include "capture-source.h"
#include "guide.h"

struct tt_guide_source;

/* A source for the guide of @kind; its prompts go to stderr. NULL when
 * out of memory. */
struct tt_guide_source *tt_guide_source_new(enum tt_guide_kind kind);

extern const struct tt_source_ops tt_guide_source_ops;
