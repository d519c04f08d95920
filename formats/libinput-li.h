/* SPDX-License-Identifier: MIT */
/*
 * libinput record's "libinput:" event entries ({time: 1.234567, type:
 * TOUCH_DOWN, slot: 0, point: [x, y], ...}) as li records. The YAML is
 * read by the libinput-record reader (libinput-states.c); this turns one
 * entry's keys, already split into scalars and number pairs, into a
 * tt_li_event.
 */
#pragma once

#include <stddef.h>

#include "timeline.h"

#define LI_ENTRY_MAX_KEYS 32

struct li_entry_value {
	char key[32];
	char text[64];		/* a scalar value, "" for a list */
	double num[2];		/* a list's first two numbers */
	size_t nnum;
};

/* Fills @ev (cleared first) from an entry's @n values; @ev->time_us is
 * left at @default_time when the entry has no time (DEVICE_ADDED). 0, or
 * -EINVAL with a message in @error. */
int li_entry_to_event(const struct li_entry_value *v, size_t n, int64_t default_time,
		      struct tt_li_event *ev, char *error, size_t size);
