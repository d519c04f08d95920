/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "neutral.h"
#include "util-mem.h"

#define MT_INDEX(code) ((code) - TT_MT_FIRST)

static uint32_t
type_b_slots(const struct tt_device *dev)
{
	return dev->mt_protocol == TT_MT_B ? dev->num_slots : 0;
}

void
rp_state_init_created(struct rp_state *st, const struct tt_device *dev)
{
	memset(st, 0, sizeof(*st));
	st->dev = dev;
	/* uinput starts every slot empty with all axes 0, at slot 0, no key
	 * down, each other axis at its absinfo value. */
	tt_device_state_init(&st->s, type_b_slots(dev));
	for (unsigned int c = 0; c < ABS_CNT; c++)
		st->s.abs[c] = dev->abs[c].value;
	st->s.abs[ABS_MT_SLOT] = 0;
}

void
rp_state_init_recorded(struct rp_state *st, const struct tt_device *dev)
{
	memset(st, 0, sizeof(*st));
	st->dev = dev;
	tt_device_state_from_device(&st->s, dev);
	if (st->s.num_slots && (st->s.abs[ABS_MT_SLOT] < 0 || (uint32_t)st->s.abs[ABS_MT_SLOT] >= st->s.num_slots))
		st->s.abs[ABS_MT_SLOT] = 0;
	/* Only keys the device has can be down. */
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(st->s.keys, k) && !tt_device_has(dev, EV_KEY, k))
			clear_bit(st->s.keys, k);
	}
}

void
rp_state_copy(struct rp_state *dst, const struct rp_state *src)
{
	*dst = *src;
	tt_device_state_init(&dst->s, src->s.num_slots);
	tt_device_state_copy(&dst->s, &src->s);
}

void
rp_state_release(struct rp_state *st)
{
	tt_device_state_release(&st->s);
}

/* Type A contacts are no state of the device, but a replay must know
 * whether the last frame had any to end them. */
static void
follow_type_a(struct rp_state *st, const struct input_event *e)
{
	if (e->type == EV_ABS && tt_is_slot_axis(e->code)) {
		st->a_data = true;
	} else if (e->type == EV_SYN && e->code == SYN_MT_REPORT) {
		if (st->a_data)
			st->a_in_frame++;
		st->a_data = false;
	} else if (e->type == EV_SYN && e->code == SYN_REPORT) {
		st->a_contacts = st->a_in_frame > 0;
		st->a_in_frame = 0;
		st->a_data = false;
	}
}

void
rp_state_apply(struct rp_state *st, const struct input_event *ev, size_t n)
{
	bool type_a = st->dev->mt_protocol == TT_MT_A;

	for (size_t i = 0; i < n; i++) {
		tt_device_state_apply_event(&st->s, ev[i].type, ev[i].code, ev[i].value);
		if (type_a)
			follow_type_a(st, &ev[i]);
	}
}

static bool
any_key_down(const struct rp_state *st)
{
	for (size_t i = 0; i < sizeof(st->s.keys); i++) {
		if (st->s.keys[i])
			return true;
	}
	return false;
}

static bool
any_slot_active(const struct rp_state *st)
{
	for (uint32_t s = 0; s < st->s.num_slots; s++) {
		if (st->s.slots[s].values[MT_INDEX(ABS_MT_TRACKING_ID)] >= 0)
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
	for (uint32_t s = 0; s < st->s.num_slots; s++) {
		if (st->s.slots[s].values[MT_INDEX(ABS_MT_TRACKING_ID)] < 0)
			continue;
		/* Always name the slot: cheap, and right even if a
		 * recorded ABS_MT_SLOT was out of range. */
		rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, (int)s);
		rp_evbuf_push(out, EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	/* BTN_TOUCH first, then the tools, then everything else still down. */
	if (bit_is_set(st->s.keys, BTN_TOUCH))
		rp_evbuf_push(out, EV_KEY, BTN_TOUCH, 0);
	for (unsigned int k = BTN_TOOL_PEN; k <= BTN_TOOL_LENS; k++) {
		if (bit_is_set(st->s.keys, k))
			rp_evbuf_push(out, EV_KEY, k, 0);
	}
	for (unsigned int k = BTN_TOOL_DOUBLETAP; k <= BTN_TOOL_TRIPLETAP; k++) {
		if (bit_is_set(st->s.keys, k))
			rp_evbuf_push(out, EV_KEY, k, 0);
	}
	if (bit_is_set(st->s.keys, BTN_TOOL_QUADTAP))
		rp_evbuf_push(out, EV_KEY, BTN_TOOL_QUADTAP, 0);
	if (bit_is_set(st->s.keys, BTN_TOOL_QUINTTAP))
		rp_evbuf_push(out, EV_KEY, BTN_TOOL_QUINTTAP, 0);
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		bool tool = (k >= BTN_TOOL_PEN && k <= BTN_TOOL_LENS) ||
			    k == BTN_TOUCH || (k >= BTN_TOOL_DOUBLETAP && k <= BTN_TOOL_TRIPLETAP) ||
			    k == BTN_TOOL_QUADTAP || k == BTN_TOOL_QUINTTAP;
		if (!tool && bit_is_set(st->s.keys, k))
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
	int32_t slot = cur->s.abs[ABS_MT_SLOT];

	for (uint32_t s = 0; s < target->s.num_slots && s < cur->s.num_slots; s++) {
		const int32_t *v = target->s.slots[s].values;
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
			if (v[MT_INDEX(c)] != cur->s.slots[s].values[MT_INDEX(c)])
				rp_evbuf_push(out, EV_ABS, c, v[MT_INDEX(c)]);
		}
	}
	if (target->s.num_slots && target->s.abs[ABS_MT_SLOT] != slot)
		rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, target->s.abs[ABS_MT_SLOT]);
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		if (tt_is_slot_axis(c) || c == ABS_MT_SLOT || !tt_device_has(dev, EV_ABS, c))
			continue;
		if (target->s.abs[c] != cur->s.abs[c])
			rp_evbuf_push(out, EV_ABS, c, target->s.abs[c]);
	}
	for (unsigned int k = 0; k < KEY_CNT; k++) {
		if (bit_is_set(target->s.keys, k) && !bit_is_set(cur->s.keys, k))
			rp_evbuf_push(out, EV_KEY, k, 1);
	}
	if (out->n == before)
		return 0;
	rp_evbuf_push(out, EV_SYN, SYN_REPORT, 0);
	return out->n - before;
}
