/* SPDX-License-Identifier: MIT */
/*
 * print's link of the Wayland layer: for each wl_touch event, the kernel
 * touch its touch came from, as wayland/model-wl.h pairs them. Every record
 * goes through print_wl_link_feed() before it is printed; print_wl_link_kernel()
 * then says where the touch of a wl_touch event came from. The link is
 * made at the down when the kernel frame came before it in the file (the
 * normal order), else at the first event after that frame.
 */
#pragma once

#include <stdio.h>

#include "timeline.h"
#include "util-mem.h"

struct print_wl_link;

struct print_wl_link *print_wl_link_new(void);
void print_wl_link_free(struct print_wl_link *pw);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct print_wl_link *, print_wl_link_free);

void print_wl_link_feed(struct print_wl_link *pw, const struct tt_record *rec);
/* " <- dev0 s1 #3 +2.1ms" (the kernel touch and the latency) for a
 * wl_touch event whose touch is linked, else nothing. */
void print_wl_link_kernel(const struct print_wl_link *pw, const struct tt_wl_event *ev, FILE *out);
