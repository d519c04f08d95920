/* SPDX-License-Identifier: MIT */
/* touchtape diff: each kernel touch's samples, kept from its begin to the
 * comparison. Compact, as a two-hour recording has millions: int32 each,
 * the time as a delta from the sample before, only the axes the device
 * has. See diff.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* The axes compared besides the position, in the order of ddev.axes. */
static const uint16_t compared_axes[DIFF_MAX_AXES] = {
	ABS_MT_PRESSURE, ABS_MT_TOUCH_MAJOR, ABS_MT_TOUCH_MINOR, ABS_MT_WIDTH_MAJOR, ABS_MT_WIDTH_MINOR,
	ABS_MT_ORIENTATION, ABS_MT_DISTANCE, ABS_MT_TOOL_TYPE, ABS_MT_BLOB_ID,
};

/* A touch's samples while it is down, hung on tt_ktouch.user. */
struct dacc {
	const struct ddev *d;
	int32_t *smp;
	uint32_t ns, cap;
	int64_t last_us;
};

/* Single-touch devices give ABS_PRESSURE as the model's MT pressure. */
static bool
has_axis(const struct tt_device *dev, uint16_t code)
{
	if (tt_device_has(dev, EV_ABS, code))
		return true;
	return code == ABS_MT_PRESSURE && !tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) &&
	       tt_device_has(dev, EV_ABS, ABS_PRESSURE);
}

void
diff_samples_device(struct ddev *d)
{
	const struct tt_device *dev = d->dev;
	bool mt = tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	const struct tt_absinfo *ax = &dev->abs[mt ? ABS_MT_POSITION_X : ABS_X];
	const struct tt_absinfo *ay = &dev->abs[mt ? ABS_MT_POSITION_Y : ABS_Y];

	d->naxes = 0;
	for (size_t i = 0; i < DIFF_MAX_AXES; i++) {
		if (has_axis(dev, compared_axes[i]))
			d->axes[d->naxes++] = compared_axes[i];
	}
	if (d->mm) {
		d->sx = 1.0 / ax->resolution;
		d->sy = 1.0 / ay->resolution;
	} else {
		double range = fmax(1.0, fmax((double)ax->maximum - ax->minimum, (double)ay->maximum - ay->minimum));
		d->sx = d->sy = 1.0 / range;
	}
}

static void
add_sample(struct dacc *acc, const struct tt_ktouch *t, int64_t time_us, size_t line)
{
	uint32_t stride = diff_stride(acc->d);
	int64_t dt = acc->ns ? time_us - acc->last_us : 0;

	if (acc->ns == acc->cap) {
		acc->cap = acc->cap ? acc->cap * 2 : 16;
		acc->smp = tt_reallocarray(acc->smp, (size_t)acc->cap * stride, sizeof(*acc->smp));
	}
	int32_t *p = &acc->smp[(size_t)acc->ns++ * stride];
	p[0] = (int32_t)(dt < 0 ? 0 : dt > INT32_MAX ? INT32_MAX : dt);
	p[1] = (int32_t)(line - t->begin_line > INT32_MAX ? INT32_MAX : line - t->begin_line);
	p[2] = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	p[3] = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	for (uint32_t i = 0; i < acc->d->naxes; i++)
		p[4 + i] = t->values[TT_AXIS(acc->d->axes[i])];
	acc->last_us = time_us;
}

void
diff_samples_begin(const struct ddev *d, struct tt_ktouch *t)
{
	struct dacc *acc = tt_zalloc(sizeof(*acc));

	acc->d = d;
	t->user = acc;
	add_sample(acc, t, t->begin_us, t->begin_line);
}

void
diff_samples_update(struct tt_ktouch *t, const struct tt_kupdate *u)
{
	if (t->user)
		add_sample(t->user, t, u->time_us, u->line);
}

void
diff_samples_take(struct tt_ktouch *t, struct dtouch *k)
{
	struct dacc *acc = t->user;

	if (!acc)
		return;
	/* Give back what doubling left unused: the file's touches add up. */
	if (acc->ns)
		k->smp = tt_reallocarray(acc->smp, (size_t)acc->ns * diff_stride(acc->d), sizeof(*acc->smp));
	else
		free(acc->smp);
	k->ns = acc->ns;
	free(acc);
	t->user = NULL;
}

void
diff_samples_drop(struct tt_ktouch *t)
{
	struct dacc *acc = t->user;

	if (acc)
		free(acc->smp);
	free(acc);
	t->user = NULL;
}

size_t
diff_points(const struct ddev *d, const struct dtouch *k, uint32_t field, struct dpt **out)
{
	uint32_t stride = diff_stride(d);
	struct dpt *p = tt_reallocarray(NULL, k->ns ? k->ns : 1, sizeof(*p));
	int64_t t = 0;

	for (uint32_t i = 0; i < k->ns; i++) {
		const int32_t *s = &k->smp[(size_t)i * stride];
		t += s[0];
		p[i].t = t;
		p[i].line = k->line + (size_t)s[1];
		p[i].x = s[2] * d->sx;
		p[i].y = s[3] * d->sy;
		p[i].v = field ? s[field] : 0;
	}
	*out = p;
	return k->ns;
}

size_t
diff_points_at(const struct dpt *p, size_t n, size_t *start, int64_t t, int64_t w, size_t *end)
{
	while (*start + 1 < n && p[*start + 1].t < t - w)
		(*start)++;
	size_t j = *start;
	while (j + 1 < n && p[j + 1].t <= t + w)
		j++;
	*end = j;
	return *start;
}
