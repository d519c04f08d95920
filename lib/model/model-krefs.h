/* SPDX-License-Identifier: MIT */
/*
 * The recent kernel touches a later layer links its touches to (the
 * libinput and Wayland models, libinput/model-li.c and wayland/model-wl.c): each
 * kept from its begin until the caller prunes it, some time after its end.
 * A plain array: a window holds a few touches.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct tt_kref {
	uint64_t serial;	/* tt_ktouch.serial */
	uint32_t device;
	int32_t slot, tracking_id;
	int64_t begin_us, end_us;	/* end INT64_MAX while down */
	size_t begin_line;
	double nx, ny;		/* the caller's: begin position normalized, or -1 */
	bool claimed;		/* the caller's: linked already */
};

struct tt_krefs {
	struct tt_kref *v;
	size_t n, cap;
};

/* @t began: its entry, down, unclaimed, nx/ny -1. */
struct tt_kref *tt_krefs_begin(struct tt_krefs *r, const struct tt_ktouch *t);
/* @t ended: its entry's end time. */
void tt_krefs_end(struct tt_krefs *r, const struct tt_ktouch *t);
/* Forgets the touches that ended before @keep_after. */
void tt_krefs_prune(struct tt_krefs *r, int64_t keep_after);
void tt_krefs_clear(struct tt_krefs *r);
