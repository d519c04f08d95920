/* SPDX-License-Identifier: MIT */
/* touchtape diff: each kernel touch's samples, kept from its begin to the
 * comparison. Compact, as an hour of ten fingers has millions: each field
 * (the time since the sample before, the line, x, y, the axes the device
 * has) as the change from the sample before, zigzag and varint encoded:
 * a few bytes a sample, most changes being small. See diff.h. */
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

/* A touch's samples while it is down, hung on tt_ktouch.user (or
 * tt_htouch.user). */
struct dacc {
	uint32_t stride;
	uint8_t *enc;
	size_t len, cap;
	uint32_t ns;
	int64_t last_us;
	int32_t prev[4 + DIFF_MAX_AXES];
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

/* A varint of at most 5 bytes: 7 bits a byte, the high bit for more. */
static void
put(struct dacc *acc, int32_t delta)
{
	uint32_t z = ((uint32_t)delta << 1) ^ (uint32_t)(delta >> 31);

	if (acc->len + 5 > acc->cap) {
		acc->cap = acc->cap ? acc->cap * 2 : 64;
		acc->enc = tt_reallocarray(acc->enc, acc->cap, 1);
	}
	do {
		acc->enc[acc->len++] = (uint8_t)((z & 0x7f) | (z > 0x7f ? 0x80 : 0));
		z >>= 7;
	} while (z);
}

static int32_t
get(const uint8_t **p)
{
	uint32_t z = 0;

	for (unsigned shift = 0; shift < 35; shift += 7) {
		uint8_t b = *(*p)++;
		z |= (uint32_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return (int32_t)((z >> 1) ^ (uint32_t)-(int32_t)(z & 1));
}

struct dacc *
diff_acc_new(uint32_t stride)
{
	struct dacc *acc = tt_zalloc(sizeof(*acc));

	acc->stride = stride;
	return acc;
}

void
diff_acc_add(struct dacc *acc, int64_t time_us, size_t line_offset, const int32_t *v)
{
	int64_t dt = acc->ns ? time_us - acc->last_us : 0;

	/* The time is a delta already; the rest change from the last. */
	put(acc, (int32_t)(dt < 0 ? 0 : dt > INT32_MAX ? INT32_MAX : dt));
	put(acc, (int32_t)(line_offset > INT32_MAX ? INT32_MAX : line_offset) - acc->prev[1]);
	acc->prev[1] = (int32_t)(line_offset > INT32_MAX ? INT32_MAX : line_offset);
	for (uint32_t i = 2; i < acc->stride; i++) {
		put(acc, (int32_t)((uint32_t)v[i] - (uint32_t)acc->prev[i]));
		acc->prev[i] = v[i];
	}
	acc->ns++;
	acc->last_us = time_us;
}

uint8_t *
diff_acc_take(struct dacc *acc, uint32_t *ns)
{
	/* Give back what doubling left unused: the file's touches add up. */
	uint8_t *enc = acc->len ? tt_reallocarray(acc->enc, acc->len, 1) : NULL;

	if (!acc->len)
		free(acc->enc);
	*ns = acc->ns;
	free(acc);
	return enc;
}

void
diff_acc_free(struct dacc *acc)
{
	if (acc)
		free(acc->enc);
	free(acc);
}

static void
add_sample(struct dacc *acc, const struct ddev *d, const struct tt_ktouch *t, int64_t time_us, size_t line)
{
	int32_t v[4 + DIFF_MAX_AXES];

	v[2] = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	v[3] = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	for (uint32_t i = 0; i < d->naxes; i++)
		v[4 + i] = t->values[TT_AXIS(d->axes[i])];
	diff_acc_add(acc, time_us, line - t->begin_line, v);
}

/* A kernel touch's device rides along: its axes say what to keep. */
struct kacc {
	struct dacc *acc;
	const struct ddev *d;
};

void
diff_samples_begin(const struct ddev *d, struct tt_ktouch *t)
{
	struct kacc *k = tt_zalloc(sizeof(*k));

	k->acc = diff_acc_new(diff_stride(d));
	k->d = d;
	t->user = k;
	add_sample(k->acc, d, t, t->begin_us, t->begin_line);
}

void
diff_samples_update(struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct kacc *k = t->user;

	if (k)
		add_sample(k->acc, k->d, t, u->time_us, u->line);
}

void
diff_samples_take(struct tt_ktouch *t, struct dtouch *k)
{
	struct kacc *ka = t->user;

	if (!ka)
		return;
	k->enc = diff_acc_take(ka->acc, &k->ns);
	free(ka);
	t->user = NULL;
}

void
diff_samples_forget(void *user)
{
	struct kacc *k = user;

	if (k)
		diff_acc_free(k->acc);
	free(k);
}

void
diff_samples_drop(struct tt_ktouch *t)
{
	diff_samples_forget(t->user);
	t->user = NULL;
}

size_t
diff_decode(const uint8_t *enc, uint32_t ns, const struct diff_scale *sc, uint32_t field, struct dpt **out)
{
	struct dpt *p = tt_reallocarray(NULL, ns ? ns : 1, sizeof(*p));
	int32_t v[4 + DIFF_MAX_AXES] = { 0 };
	int64_t t = 0;

	for (uint32_t i = 0; i < ns; i++) {
		t += get(&enc);
		for (uint32_t f = 1; f < sc->stride; f++)
			v[f] = (int32_t)((uint32_t)v[f] + (uint32_t)get(&enc));
		p[i].t = t;
		p[i].line = sc->line0 + (size_t)v[1];
		p[i].x = v[2] * sc->sx;
		p[i].y = v[3] * sc->sy;
		p[i].v = field ? v[field] : 0;
	}
	*out = p;
	return ns;
}

size_t
diff_points(const struct ddev *d, const struct dtouch *k, uint32_t field, struct dpt **out)
{
	struct diff_scale sc = { diff_stride(d), k->line, d->sx, d->sy };

	return diff_decode(k->enc, k->ns, &sc, field, out);
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
