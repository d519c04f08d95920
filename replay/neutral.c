/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "neutral.h"
#include "util-mem.h"

#define MT_INDEX(code) ((code) - TT_MT_FIRST)

static bool
is_mt_axis(unsigned int code)
{
	return code >= TT_MT_FIRST && code <= TT_MT_LAST;
}

static void
init_common(struct rp_state *st, const struct tt_device *dev)
{
	memset(st, 0, sizeof(*st));
	st->dev = dev;
	for (unsigned int c = 0; c < ABS_CNT; c++)
		st->abs[c] = dev->abs[c].value;
	if (dev->mt_protocol == TT_MT_B && dev->num_slots) {
		st->num_slots = dev->num_slots;
		st->slots = tt_reallocarray(NULL, st->num_slots, sizeof(*st->slots));
		for (uint32_t s = 0; s < st->num_slots; s++) {
			memset(&st->slots[s], 0, sizeof(st->slots[s]));
			st->slots[s].values[MT_INDEX(ABS_MT_TRACKING_ID)] = -1;
		}
	}
}

void
rp_state_init_created(struct rp_state *st, const struct tt_device *dev)
{
	init_common(st, dev);
	/* uinput starts every slot empty with all axes 0, at slot 0. */
	st->abs[ABS_MT_SLOT] = 0;
}

void
rp_state_init_recorded(struct rp_state *st, const struct tt_device *dev)
{
	init_common(st, dev);
	if (st->slots && dev->slots) {
		memcpy(st->slots, dev->slots, st->num_slots * sizeof(*st->slots));
		if (dev->current_slot >= 0 && (uint32_t)dev->current_slot < st->num_slots)
			st->slot = dev->current_slot;
	}
	memcpy(st->keys, dev->keys_down, sizeof(st->keys));
	/* Only keys the device has can be down. */
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(st->keys, k) && !tt_device_has(dev, EV_KEY, k))
			clear_bit(st->keys, k);
	}
}

void
rp_state_copy(struct rp_state *dst, const struct rp_state *src)
{
	*dst = *src;
	if (src->slots) {
		dst->slots = tt_reallocarray(NULL, src->num_slots, sizeof(*dst->slots));
		memcpy(dst->slots, src->slots, src->num_slots * sizeof(*dst->slots));
	}
}

void
rp_state_release(struct rp_state *st)
{
	free(st->slots);
	st->slots = NULL;
	st->num_slots = 0;
}

static void
apply_one(struct rp_state *st, const struct input_event *e)
{
	switch (e->type) {
	case EV_KEY:
		if (e->code < KEY_CNT && e->value != 2) {
			if (e->value)
				set_bit(st->keys, e->code);
			else
				clear_bit(st->keys, e->code);
		}
		break;
	case EV_ABS:
		if (e->code >= ABS_CNT)
			break;
		if (st->dev->mt_protocol == TT_MT_A && is_mt_axis(e->code)) {
			st->a_data = true;
		} else if (e->code == ABS_MT_SLOT && st->slots) {
			if (e->value >= 0 && (uint32_t)e->value < st->num_slots)
				st->slot = e->value;
		} else if (is_mt_axis(e->code) && st->slots) {
			st->slots[st->slot].values[MT_INDEX(e->code)] = e->value;
		} else {
			st->abs[e->code] = e->value;
		}
		break;
	case EV_SYN:
		if (e->code == SYN_MT_REPORT) {
			if (st->a_data)
				st->a_in_frame++;
			st->a_data = false;
		} else if (e->code == SYN_REPORT) {
			if (st->dev->mt_protocol == TT_MT_A)
				st->a_contacts = st->a_in_frame > 0;
			st->a_in_frame = 0;
			st->a_data = false;
		}
		break;
	default:
		break;
	}
}

void
rp_state_apply(struct rp_state *st, const struct input_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		apply_one(st, &ev[i]);
}

static bool
any_key_down(const struct rp_state *st)
{
	for (size_t i = 0; i < sizeof(st->keys); i++) {
		if (st->keys[i])
			return true;
	}
	return false;
}

static bool
any_slot_active(const struct rp_state *st)
{
	for (uint32_t s = 0; s < st->num_slots; s++) {
		if (st->slots[s].values[MT_INDEX(ABS_MT_TRACKING_ID)] >= 0)
			return true;
	}
	return false;
}

bool
rp_state_is_neutral(const struct rp_state *st)
{
	return !any_slot_active(st) && !any_key_down(st) && !st->a_contacts;
}

size_t
rp_state_neutral_frame(const struct rp_state *st, bool always, struct rp_evbuf *out)
{
	size_t before = out->n;

	if (!always && rp_state_is_neutral(st))
		return 0;
	for (uint32_t s = 0; s < st->num_slots; s++) {
		if (st->slots[s].values[MT_INDEX(ABS_MT_TRACKING_ID)] < 0)
			continue;
		/* Always name the slot: cheap, and right even if a
		 * recorded ABS_MT_SLOT was out of range. */
		rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, (int)s);
		rp_evbuf_push(out, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	/* BTN_TOUCH first, then the tools, then everything else still down. */
	if (bit_is_set(st->keys, BTN_TOUCH))
		rp_evbuf_push(out, EV_KEY, BTN_TOUCH, 0);
	for (unsigned int k = BTN_TOOL_PEN; k <= BTN_TOOL_LENS; k++) {
		if (bit_is_set(st->keys, k))
			rp_evbuf_push(out, EV_KEY, k, 0);
	}
	for (unsigned int k = BTN_TOOL_DOUBLETAP; k <= BTN_TOOL_TRIPLETAP; k++) {
		if (bit_is_set(st->keys, k))
			rp_evbuf_push(out, EV_KEY, k, 0);
	}
	if (bit_is_set(st->keys, BTN_TOOL_QUADTAP))
		rp_evbuf_push(out, EV_KEY, BTN_TOOL_QUADTAP, 0);
	if (bit_is_set(st->keys, BTN_TOOL_QUINTTAP))
		rp_evbuf_push(out, EV_KEY, BTN_TOOL_QUINTTAP, 0);
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		bool tool = (k >= BTN_TOOL_PEN && k <= BTN_TOOL_LENS) ||
			    k == BTN_TOUCH || (k >= BTN_TOOL_DOUBLETAP && k <= BTN_TOOL_TRIPLETAP) ||
			    k == BTN_TOOL_QUADTAP || k == BTN_TOOL_QUINTTAP;
		if (!tool && bit_is_set(st->keys, k))
			rp_evbuf_push(out, EV_KEY, k, 0);
	}
	if (st->dev->mt_protocol == TT_MT_A)
		rp_evbuf_push(out, EV_SYN, SYN_MT_REPORT, 0);
	rp_evbuf_push(out, EV_SYN, SYN_REPORT, 0);
	return out->n - before;
}

size_t
rp_state_prepare_frame(const struct rp_state *cur, const struct rp_state *target,
		       struct rp_evbuf *out)
{
	const struct tt_device *dev = target->dev;
	size_t before = out->n;
	int32_t slot = cur->slot;

	for (uint32_t s = 0; s < target->num_slots && s < cur->num_slots; s++) {
		const int32_t *v = target->slots[s].values;
		if (v[MT_INDEX(ABS_MT_TRACKING_ID)] < 0)
			continue;
		if ((int32_t)s != slot) {
			rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, (int)s);
			slot = (int32_t)s;
		}
		rp_evbuf_push(out, EV_ABS, ABS_MT_TRACKING_ID, v[MT_INDEX(ABS_MT_TRACKING_ID)]);
		for (unsigned int c = TT_MT_FIRST; c <= TT_MT_LAST; c++) {
			if (c == ABS_MT_TRACKING_ID || c == ABS_MT_SLOT || !tt_device_has(dev, EV_ABS, c))
				continue;
			if (v[MT_INDEX(c)] != cur->slots[s].values[MT_INDEX(c)])
				rp_evbuf_push(out, EV_ABS, c, v[MT_INDEX(c)]);
		}
	}
	if (target->num_slots && target->slot != slot)
		rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, target->slot);
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		if (is_mt_axis(c) || c == ABS_MT_SLOT || !tt_device_has(dev, EV_ABS, c))
			continue;
		if (target->abs[c] != cur->abs[c])
			rp_evbuf_push(out, EV_ABS, c, target->abs[c]);
	}
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(target->keys, k) && !bit_is_set(cur->keys, k))
			rp_evbuf_push(out, EV_KEY, k, 1);
	}
	if (out->n == before)
		return 0;
	rp_evbuf_push(out, EV_SYN, SYN_REPORT, 0);
	return out->n - before;
}
