/* SPDX-License-Identifier: MIT */
/* touchtape diff: a multitouch device's own single-touch axes
 * (ABS_PRESSURE, ABS_TOOL_WIDTH, ABS_DISTANCE). Touchpads often report
 * pressure only there, not per slot (ABS_MT_PRESSURE): without this, a
 * replay that halves it would compare equal. Compared per device over
 * time, value by value, as the per-touch axes are (diff-axes.c). See
 * diff.h. */
#include "config.h"

#include <stdlib.h>

#include "diff.h"

static const uint16_t device_axes[] = { ABS_PRESSURE, ABS_TOOL_WIDTH, ABS_DISTANCE };

/* A single-touch device's ABS_PRESSURE is its touch's already. */
static bool
compared(const struct tt_device *dev, uint16_t code)
{
	return tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) && tt_device_has(dev, EV_ABS, code);
}

void
diff_devaxes_frame(struct side *s, size_t dev, int64_t t_us, const struct tt_frame *f, size_t line)
{
	const struct tt_device *d = s->devs[dev].dev;

	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (e->type != EV_ABS || e->code > ABS_MAX || !compared(d, e->code))
			continue;
		s->dvals = tt_grow(s->dvals, s->ndvals, &s->capdvals, sizeof(*s->dvals));
		s->dvals[s->ndvals++] = (struct dval){ .t_us = t_us, .line = line, .dev = (uint32_t)dev,
						       .code = e->code, .value = e->value };
	}
}

/* The changes of @code on device @dev, in time order (frames come so). */
static size_t
series(const struct side *s, size_t dev, uint16_t code, struct dpt **out)
{
	struct dpt *p = tt_reallocarray(NULL, s->ndvals ? s->ndvals : 1, sizeof(*p));
	size_t n = 0;

	for (size_t i = 0; i < s->ndvals; i++) {
		const struct dval *v = &s->dvals[i];
		if (v->dev == dev && v->code == code)
			p[n++] = (struct dpt){ .t = v->t_us, .line = v->line, .v = v->value };
	}
	*out = p;
	return n;
}

static void
compare_one(struct differ *df, size_t dev, uint16_t code)
{
	_cleanup_free_ struct dpt *pa = NULL;
	_cleanup_free_ struct dpt *pb = NULL;
	size_t na = series(df->a, dev, code, &pa);
	size_t nb = series(df->b, dev, code, &pb);
	struct dpt zero = { 0 };

	/* One side never moving it differs from the other moving it from 0. */
	if (!na && !nb)
		return;
	diff_compare_values(df, dev, -1, 0, code, na ? pa : &zero, na ? na : 1, nb ? pb : &zero, nb ? nb : 1);
}

void
diff_compare_device_axes(struct differ *df)
{
	for (size_t i = 0; i < df->a->ndevs && i < df->b->ndevs; i++) {
		const struct tt_device *da = df->a->devs[i].dev, *db = df->b->devs[i].dev;
		for (size_t c = 0; c < ARRAY_LENGTH(device_axes); c++) {
			if (compared(da, device_axes[c]) && compared(db, device_axes[c]))
				compare_one(df, i, device_axes[c]);
		}
	}
}
