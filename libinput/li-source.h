/* SPDX-License-Identifier: MIT */
/*
 * record --libinput: the libinput capture (li-capture.h) as a capture
 * source of the recorder (evdev/capture-source.h), added after the
 * recorder's preamble. Its start opens libinput's context on the loop,
 * adds the recorded nodes (writing their li_device records) and checks
 * the configuration applied; it reads the kernel sources before it writes
 * (a frame precedes what libinput made of it) and drains what libinput
 * still holds at the end.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "capture-source.h"
#include "li-capture.h"

struct tt_li_source_options {
	const struct tt_li_config *config;	/* NULL: libinput's defaults; not copied */
	bool mask_keys;		/* keyboard keys that type text written as 0 */
	char *const *nodes;	/* nodes[i]: the node of evdev record i; copied */
	size_t nnodes;
};

struct tt_li_source;

extern const struct tt_source_ops tt_li_source_ops;

/* The source, not started: nothing is opened yet. */
struct tt_li_source *tt_li_source_new(const struct tt_li_source_options *opts);
void tt_li_source_free(struct tt_li_source *ls);
