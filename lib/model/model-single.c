/* SPDX-License-Identifier: MIT */
/* The touch-sequence model on single-touch devices: BTN_TOUCH and
 * ABS_X/ABS_Y make one touch, as the kernel's input_mt emulation would. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "model-private.h"

void
tt_model_frame_single(struct tt_model *m, struct mdev *d, const struct tt_frame *f, size_t line,
		      bool was_down)
{
	bool down = bit_is_set(d->keys, BTN_TOUCH);
	struct kt *k = d->nactive ? d->active[0] : NULL;
	int32_t v[3] = { d->abs_vals[ABS_X], d->abs_vals[ABS_Y], d->abs_vals[ABS_PRESSURE] };
	static const int axes[3] = { TT_AXIS(ABS_MT_POSITION_X), TT_AXIS(ABS_MT_POSITION_Y),
				     TT_AXIS(ABS_MT_PRESSURE) };

	if (k && !down) {
		d->nactive = 0;
		tt_model_end_touch(m, k, f->time_us, line, 0);
		return;
	}
	if (!down)
		return;
	if (!k || !was_down) {
		k = tt_model_new_touch(m, d, 0, f->time_us, line);
		k->pub.tracking_id = (int32_t)++d->next_synthetic;
		k->pub.flags |= TT_KTOUCH_SYNTHETIC_ID;
		for (int i = 0; i < 3; i++)
			k->pub.values[axes[i]] = v[i];
		d->active[0] = k;
		d->nactive = 1;
		tt_model_emit_begin(m, d, k);
		return;
	}
	uint32_t changed = 0;
	for (int i = 0; i < 3; i++) {
		if (k->pub.values[axes[i]] != v[i])
			changed |= 1u << axes[i];
		k->pub.values[axes[i]] = v[i];
	}
	if (changed) {
		struct tt_kupdate u = { .time_us = f->time_us, .line = line, .changed = changed };
		k->pub.nframes++;
		if (m->cb.kernel_update)
			m->cb.kernel_update(m->data, &k->pub, &u);
	}
}
