/* SPDX-License-Identifier: MIT */
/* A growable array of struct input_event: one frame as written to uinput
 * with a single write(2). */
#pragma once

#include <stddef.h>
#include <stdio.h>
#include <linux/input.h>

struct rp_evbuf {
	struct input_event *ev;
	size_t n;
	size_t cap;
};

void rp_evbuf_push(struct rp_evbuf *b, unsigned int type, unsigned int code, int value);
void rp_evbuf_reset(struct rp_evbuf *b);
void rp_evbuf_release(struct rp_evbuf *b);
/* Prints " CODE value" for each event (names from lib/tables/evnames.h). */
void rp_print_events(FILE *out, const struct input_event *ev, size_t n);
