/* SPDX-License-Identifier: MIT */
/*
 * What analyze and diff keep of a recording's Wayland layer: every
 * wl_touch sequence with its link to the kernel touch (wayland/model-wl.h),
 * the events received per interface and event name, and the latencies
 * of the linked touches (kernel frame to the client's receive time, and
 * to the compositor's own timestamp where given). One struct per touch:
 * a recording holds thousands at most.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model-wl.h"

struct wl_kind_count {
	char name[48];		/* "wl_touch.down" */
	uint64_t n;
};

struct wl_summary {
	struct tt_wl_model *m;	/* the stack's */
	bool has_layer;
	struct tt_wl_touch *touches;	/* in down order after finish */
	size_t ntouches, captouches;
	struct wl_kind_count *kinds;	/* in the order first seen */
	size_t nkinds, capkinds;
	uint64_t linked, unlinked, cancelled, active_at_end;
	int64_t *latencies;	/* linked touches, µs; sorted after finish */
	size_t nlatencies, caplatencies;
	int64_t *stamp_latencies;	/* linked touches with a compositor time; sorted */
	size_t nstamp_latencies, capstamp_latencies;
};

struct tt_stack;
/* Subscribes to @stack's Wayland layer; wl_summary_feed() gets every
 * record the stack gets, wl_summary_finish() runs after the stack's
 * finish. */
void wl_summary_init(struct wl_summary *s, struct tt_stack *stack);
void wl_summary_feed(struct wl_summary *s, const struct tt_record *rec);
void wl_summary_finish(struct wl_summary *s);
void wl_summary_clear(struct wl_summary *s);
/* The events of @name ("wl_touch.down") counted; 0 when none. */
uint64_t wl_summary_kind(const struct wl_summary *s, const char *name);
