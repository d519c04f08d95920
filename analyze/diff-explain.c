/* SPDX-License-Identifier: MIT */
/* touchtape diff: what a touch in one file only explains. Its BTN_TOUCH
 * and BTN_TOOL_* changes (the kernel's count of fingers down follows the
 * touches) and the frames it sent are its consequences, reported once as
 * the touch; a button (a click) is no consequence and still shows. See
 * diff.h. */
#include "config.h"

#include <stdlib.h>

#include "diff.h"
#include "evnames.h"

/* BTN_TOOL_PEN..BTN_TOOL_QUINTTAP, BTN_TOUCH, BTN_TOOL_DOUBLETAP..QUADTAP:
 * not the stylus buttons between them. */
static bool
follows_touches(uint16_t type, uint16_t code)
{
	return type == EV_KEY && ((code >= BTN_TOOL_PEN && code <= BTN_TOOL_QUINTTAP) || code == BTN_TOUCH ||
				  (code >= BTN_TOOL_DOUBLETAP && code <= BTN_TOOL_QUADTAP));
}

static bool
unpaired_touch_at(const struct side *s, uint32_t dev, int64_t t_us, int64_t tol)
{
	for (size_t i = 0; i < s->nlone; i++) {
		const struct dlone *k = &s->lone[i];
		if (k->dev == dev && t_us >= k->begin_us - tol && t_us <= k->end_us + tol)
			return true;
	}
	return false;
}

bool
diff_key_explained(const struct differ *df, const struct dkey *k)
{
	int64_t tol = df->o->time_tol;

	return follows_touches(k->type, k->code) &&
	       (unpaired_touch_at(df->a, k->dev, k->t_us, tol) || unpaired_touch_at(df->b, k->dev, k->t_us, tol));
}

uint64_t
diff_unpaired_frames(const struct differ *df, size_t dev)
{
	uint64_t n = 0;

	for (size_t i = 0; i < df->a->nlone; i++)
		n += df->a->lone[i].dev == dev ? df->a->lone[i].nframes : 0;
	for (size_t i = 0; i < df->b->nlone; i++)
		n += df->b->lone[i].dev == dev ? df->b->lone[i].nframes : 0;
	return n;
}
