/* SPDX-License-Identifier: MIT */
/* A device's state through its frames: see device-state.h. */
#include "config.h"

#include <string.h>

#include "bitmap.h"
#include "device-state.h"
#include "util-mem.h"

void
tt_device_state_init(struct tt_device_state *st, const struct tt_device *dev)
{
	*st = (struct tt_device_state){ .dev = dev, .current_slot = dev->current_slot };
	if (dev->slots && dev->num_slots) {
		st->slots = tt_reallocarray(NULL, dev->num_slots, sizeof(*st->slots));
		memcpy(st->slots, dev->slots, dev->num_slots * sizeof(*st->slots));
	}
	memcpy(st->keys_down, dev->keys_down, sizeof(st->keys_down));
	memcpy(st->leds_on, dev->leds_on, sizeof(st->leds_on));
	memcpy(st->switches_on, dev->switches_on, sizeof(st->switches_on));
	for (unsigned int c = 0; c < ABS_CNT; c++)
		st->abs[c] = dev->abs[c].value;
}

void
tt_device_state_clear(struct tt_device_state *st)
{
	free(st->slots);
	st->slots = NULL;
}

static void
put_bit(uint8_t *map, unsigned int bit, bool on)
{
	if (on)
		set_bit(map, bit);
	else
		clear_bit(map, bit);
}

/* As the kernel's evdev state follows it (replay/neutral.c does the
 * same for a replayed device); Type A contacts have no state to keep. */
static void
apply_abs(struct tt_device_state *st, uint16_t code, int32_t value)
{
	bool mt = code >= TT_MT_FIRST && code <= TT_MT_LAST;

	if (mt && st->dev->mt_protocol == TT_MT_A)
		return;
	if (code == ABS_MT_SLOT && st->slots) {
		if (value >= 0 && (uint32_t)value < st->dev->num_slots)
			st->current_slot = value;
	} else if (mt && st->slots) {
		if (st->current_slot >= 0 && (uint32_t)st->current_slot < st->dev->num_slots)
			st->slots[st->current_slot].values[code - TT_MT_FIRST] = value;
	} else if (!mt) {
		st->abs[code] = value;
	}
}

void
tt_device_state_apply(struct tt_device_state *st, const struct tt_frame *f)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];

		if (e->type == EV_KEY && e->code < KEY_CNT && e->value != 2)
			put_bit(st->keys_down, e->code, e->value);
		else if (e->type == EV_LED && e->code < LED_CNT)
			put_bit(st->leds_on, e->code, e->value);
		else if (e->type == EV_SW && e->code < SW_CNT)
			put_bit(st->switches_on, e->code, e->value);
		else if (e->type == EV_ABS && e->code < ABS_CNT)
			apply_abs(st, e->code, e->value);
	}
}

void
tt_device_state_device(const struct tt_device_state *st, struct tt_device *out)
{
	*out = *st->dev;
	out->current_slot = st->current_slot;
	if (st->slots)
		out->slots = st->slots;
	memcpy(out->keys_down, st->keys_down, sizeof(out->keys_down));
	memcpy(out->leds_on, st->leds_on, sizeof(out->leds_on));
	memcpy(out->switches_on, st->switches_on, sizeof(out->switches_on));
	for (unsigned int c = 0; c < ABS_CNT; c++)
		out->abs[c].value = st->abs[c];
}

static void
push(struct tt_frame *f, uint16_t type, uint16_t code, int32_t value)
{
	f->events = tt_reallocarray(f->events, f->nevents + 1, sizeof(*f->events));
	f->events[f->nevents++] = (struct tt_event){ .type = type, .code = code, .value = value };
}

static void
push_slots(const struct tt_device_state *st, struct tt_frame *f)
{
	const struct tt_device *dev = st->dev;

	for (uint32_t s = 0; st->slots && s < dev->num_slots; s++) {
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
tt_device_state_frame(const struct tt_device_state *st, int64_t time_us, struct tt_frame *f)
{
	struct tt_frame out = { .device = st->dev->id, .time_us = time_us };

	push_slots(st, &out);
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(st->keys_down, k))
			push(&out, EV_KEY, (uint16_t)k, 1);
	}
	if (!out.nevents)
		return false;
	/* The single-touch axes where the touches are. */
	for (unsigned int c = 0; c < TT_MT_FIRST; c++) {
		if (c != ABS_MT_SLOT && bit_is_set(st->dev->codes[EV_ABS], c))
			push(&out, EV_ABS, (uint16_t)c, st->abs[c]);
	}
	push(&out, EV_SYN, SYN_REPORT, 0);
	*f = out;
	return true;
}
