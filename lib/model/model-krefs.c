/* SPDX-License-Identifier: MIT */
/* The recent kernel touches of the later layers' links (model-krefs.h). */
#include "config.h"

#include <stdlib.h>

#include "model-krefs.h"

struct tt_kref *
tt_krefs_begin(struct tt_krefs *r, const struct tt_ktouch *t)
{
	r->v = tt_grow(r->v, r->n, &r->cap, sizeof(*r->v));
	r->v[r->n] = (struct tt_kref){
		.serial = t->serial, .device = t->device, .slot = t->slot, .tracking_id = t->tracking_id,
		.begin_us = t->begin_us, .end_us = INT64_MAX, .begin_line = t->begin_line, .nx = -1, .ny = -1,
	};
	return &r->v[r->n++];
}

void
tt_krefs_end(struct tt_krefs *r, const struct tt_ktouch *t)
{
	for (size_t i = r->n; i-- > 0;) {
		if (r->v[i].serial == t->serial) {
			r->v[i].end_us = t->end_us;
			return;
		}
	}
}

void
tt_krefs_prune(struct tt_krefs *r, int64_t keep_after)
{
	size_t j = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].end_us >= keep_after)
			r->v[j++] = r->v[i];
	}
	r->n = j;
}

void
tt_krefs_clear(struct tt_krefs *r)
{
	free(r->v);
	*r = (struct tt_krefs){ 0 };
}
