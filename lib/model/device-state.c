/* SPDX-License-Identifier: MIT */
/* A device's state through its events: see device-state.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "device-state.h"
#include "util-mem.h"

void
tt_device_state_init(struct tt_device_state *st, uint32_t num_slots)
{
	memset(st, 0, sizeof(*st));
	st->num_slots = num_slots;
	if (!num_slots)
		return;
	st->slots = tt_reallocarray(NULL, num_slots, sizeof(*st->slots));
	memset(st->slots, 0, num_slots * sizeof(*st->slots));
	for (uint32_t i = 0; i < num_slots; i++)
		st->slots[i].values[ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
}

void
tt_device_state_from_device(struct tt_device_state *st, const struct tt_device *dev)
{
	/* A Type A device's slot axes are no state, whatever its record
	 * holds. */
	bool slots = dev->slots && dev->num_slots && dev->mt_protocol != TT_MT_A;

	tt_device_state_init(st, slots ? dev->num_slots : 0);
	for (unsigned int c = 0; c < ABS_CNT; c++)
		st->abs[c] = dev->abs[c].value;
	if (slots) {
		memcpy(st->slots, dev->slots, dev->num_slots * sizeof(*st->slots));
		st->abs[ABS_MT_SLOT] = dev->current_slot;
	}
	memcpy(st->keys, dev->keys_down, sizeof(st->keys));
	memcpy(st->leds, dev->leds_on, sizeof(st->leds));
	memcpy(st->sw, dev->switches_on, sizeof(st->sw));
}

void
tt_device_state_release(struct tt_device_state *st)
{
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

void
tt_device_state_copy(struct tt_device_state *dst, const struct tt_device_state *src)
{
	struct tt_slot_state *slots = dst->slots;

	/* Same number of slots: the caller initialised both from one device. */
	*dst = *src;
	dst->slots = slots;
	if (src->num_slots)
		memcpy(dst->slots, src->slots, src->num_slots * sizeof(*src->slots));
}

bool
tt_device_state_equal(const struct tt_device_state *a, const struct tt_device_state *b)
{
	return a->num_slots == b->num_slots &&
	       memcmp(a->abs, b->abs, sizeof(a->abs)) == 0 &&
	       memcmp(a->keys, b->keys, sizeof(a->keys)) == 0 &&
	       memcmp(a->leds, b->leds, sizeof(a->leds)) == 0 &&
	       memcmp(a->sw, b->sw, sizeof(a->sw)) == 0 &&
	       (!a->num_slots || memcmp(a->slots, b->slots, a->num_slots * sizeof(*a->slots)) == 0);
}

static void
set_bit_to(uint8_t *map, unsigned int bit, bool on)
{
	if (on)
		set_bit(map, bit);
	else
		clear_bit(map, bit);
}

static void
apply_abs(struct tt_device_state *st, uint16_t code, int32_t value)
{
	int32_t slot = st->abs[ABS_MT_SLOT];

	if (code == ABS_MT_SLOT && st->num_slots) {
		if (value >= 0 && (uint32_t)value < st->num_slots)
			st->abs[ABS_MT_SLOT] = value;
	} else if (tt_is_slot_axis(code)) {
		if (st->num_slots && slot >= 0 && (uint32_t)slot < st->num_slots)
			st->slots[slot].values[code - TT_MT_FIRST] = value;
	} else {
		st->abs[code] = value;
	}
}

void
tt_device_state_apply_event(struct tt_device_state *st, uint16_t type, uint16_t code, int32_t value)
{
	switch (type) {
	case EV_ABS:
		if (code < ABS_CNT)
			apply_abs(st, code, value);
		return;
	case EV_KEY:
		if (code < KEY_CNT && value != 2)
			set_bit_to(st->keys, code, value != 0);
		return;
	case EV_LED:
		if (code < LED_CNT)
			set_bit_to(st->leds, code, value != 0);
		return;
	case EV_SW:
		if (code < SW_CNT)
			set_bit_to(st->sw, code, value != 0);
		return;
	default:
		return;
	}
}

void
tt_device_state_apply_frame(struct tt_device_state *st, const struct tt_frame *f)
{
	for (uint32_t i = 0; i < f->nevents; i++)
		tt_device_state_apply_event(st, f->events[i].type, f->events[i].code, f->events[i].value);
}

/* ---- from one state to another ---- */

struct diff {
	tt_device_state_push_fn push;
	void *userdata;
	int32_t slot;		/* the slot the reader was last told of */
	size_t pushed;		/* in the current frame */
};

static void
emit(struct diff *d, uint16_t type, uint16_t code, int32_t value)
{
	d->push(d->userdata, type, code, value);
	d->pushed++;
}

static void
select_slot(struct diff *d, int32_t slot)
{
	if (d->slot != slot)
		emit(d, EV_ABS, ABS_MT_SLOT, slot);
	d->slot = slot;
}

static void
end_frame(struct diff *d)
{
	if (d->pushed)
		d->push(d->userdata, EV_SYN, SYN_REPORT, 0);
	d->pushed = 0;
}

static int32_t
tracking_id(const struct tt_device_state *s, uint32_t slot)
{
	return s->slots[slot].values[ABS_MT_TRACKING_ID - TT_MT_FIRST];
}

/* The touches that ended or became another touch: a reader must see them
 * end before anything else. Marks them ended in @ended. */
static void
end_touches(struct diff *d, const struct tt_device_state *old, const struct tt_device_state *now,
	    bool *ended)
{
	for (uint32_t s = 0; s < old->num_slots; s++) {
		int32_t was = tracking_id(old, s);
		ended[s] = was != -1 && tracking_id(now, s) != was;
		if (!ended[s])
			continue;
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	end_frame(d);
}

static void
diff_bits(struct diff *d, uint16_t type, const uint8_t *old, const uint8_t *now, unsigned int bits)
{
	for (unsigned int b = 0; b < bits; b++)
		if (bit_is_set(old, b) != bit_is_set(now, b))
			emit(d, type, (uint16_t)b, bit_is_set(now, b));
}

/* A slot's new tracking ID first, then its other axes that changed:
 * those of a slot not in use too, since the kernel sends a touch that
 * begins there only the values that differ from them. */
static void
diff_slot(struct diff *d, const struct tt_device_state *old, const struct tt_device_state *now,
	  uint32_t s, bool ended)
{
	const unsigned int tid = ABS_MT_TRACKING_ID - TT_MT_FIRST;
	int32_t was = ended ? -1 : old->slots[s].values[tid];
	int32_t is = now->slots[s].values[tid];

	if (is != was) {
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, ABS_MT_TRACKING_ID, is);
	}
	for (unsigned int a = 0; a < TT_MT_AXES; a++) {
		if (a == tid || old->slots[s].values[a] == now->slots[s].values[a])
			continue;
		select_slot(d, (int32_t)s);
		emit(d, EV_ABS, (uint16_t)(TT_MT_FIRST + a), now->slots[s].values[a]);
	}
}

void
tt_device_state_diff(const struct tt_device_state *old, const struct tt_device_state *now,
		tt_device_state_push_fn push, void *userdata)
{
	struct diff d = { push, userdata, old->abs[ABS_MT_SLOT], 0 };
	_cleanup_free_ bool *ended = tt_zalloc((old->num_slots ? old->num_slots : 1) * sizeof(*ended));

	end_touches(&d, old, now, ended);
	diff_bits(&d, EV_KEY, old->keys, now->keys, KEY_CNT);
	diff_bits(&d, EV_LED, old->leds, now->leds, LED_CNT);
	diff_bits(&d, EV_SW, old->sw, now->sw, SW_CNT);
	for (unsigned int code = 0; code < ABS_CNT; code++)
		if (code != ABS_MT_SLOT && old->abs[code] != now->abs[code])
			emit(&d, EV_ABS, (uint16_t)code, now->abs[code]);
	for (uint32_t s = 0; s < old->num_slots && s < now->num_slots; s++)
		diff_slot(&d, old, now, s, ended[s]);
	if (old->num_slots)
		select_slot(&d, now->abs[ABS_MT_SLOT]);
	end_frame(&d);
}

void
tt_device_state_to_device(const struct tt_device_state *s, struct tt_device *dev)
{
	for (unsigned int code = 0; code < ABS_CNT; code++)
		if (bit_is_set(dev->codes[EV_ABS], code) && !tt_is_slot_axis(code))
			dev->abs[code].value = s->abs[code];
	if (s->num_slots && tt_device_set_slots(dev, s->num_slots) == 0) {
		for (uint32_t i = 0; i < dev->num_slots; i++)
			for (unsigned int code = TT_MT_FIRST; code <= TT_MT_LAST; code++)
				if (bit_is_set(dev->codes[EV_ABS], code))
					dev->slots[i].values[code - TT_MT_FIRST] =
						s->slots[i].values[code - TT_MT_FIRST];
		dev->current_slot = s->abs[ABS_MT_SLOT];
	}
	memcpy(dev->keys_down, s->keys, sizeof(dev->keys_down));
	memcpy(dev->leds_on, s->leds, sizeof(dev->leds_on));
	memcpy(dev->switches_on, s->sw, sizeof(dev->switches_on));
}

/* ---- a device record ---- */

void
tt_device_state_device(const struct tt_device_state *st, const struct tt_device *dev, struct tt_device *out)
{
	*out = *dev;
	if (st->num_slots) {
		out->slots = st->slots;
		out->current_slot = st->abs[ABS_MT_SLOT];
	}
	memcpy(out->keys_down, st->keys, sizeof(out->keys_down));
	memcpy(out->leds_on, st->leds, sizeof(out->leds_on));
	memcpy(out->switches_on, st->sw, sizeof(out->switches_on));
	/* With slots, abs[ABS_MT_SLOT] is the current slot: the axis keeps
	 * the record's value. */
	for (unsigned int c = 0; c < ABS_CNT; c++)
		if (c != ABS_MT_SLOT || !st->num_slots)
			out->abs[c].value = st->abs[c];
}

static void
push(struct tt_frame *f, uint16_t type, uint16_t code, int32_t value)
{
	f->events = tt_reallocarray(f->events, f->nevents + 1, sizeof(*f->events));
	f->events[f->nevents++] = (struct tt_event){ .type = type, .code = code, .value = value };
}

static void
push_slots(const struct tt_device_state *st, const struct tt_device *dev, struct tt_frame *f)
{

	for (uint32_t s = 0; s < st->num_slots; s++) {
		if (st->slots[s].values[ABS_MT_TRACKING_ID - TT_MT_FIRST] < 0)
			continue;
		push(f, EV_ABS, ABS_MT_SLOT, (int32_t)s);
		for (unsigned int c = TT_MT_FIRST; c <= TT_MT_LAST; c++) {
			if (bit_is_set(dev->codes[EV_ABS], c))
				push(f, EV_ABS, (uint16_t)c, st->slots[s].values[c - TT_MT_FIRST]);
		}
	}
}

bool
tt_device_state_frame(const struct tt_device_state *st, const struct tt_device *dev, int64_t time_us,
		      struct tt_frame *f)
{
	struct tt_frame out = { .device = dev->id, .time_us = time_us };

	push_slots(st, dev, &out);
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(st->keys, k))
			push(&out, EV_KEY, (uint16_t)k, 1);
	}
	if (!out.nevents)
		return false;
	/* The single-touch axes where the touches are. */
	for (unsigned int c = 0; c < TT_MT_FIRST; c++) {
		if (c != ABS_MT_SLOT && bit_is_set(dev->codes[EV_ABS], c))
			push(&out, EV_ABS, (uint16_t)c, st->abs[c]);
	}
	push(&out, EV_SYN, SYN_REPORT, 0);
	*f = out;
	return true;
}
