/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "kernel-model.h"
#include "util-mem.h"

static const char *const reason_names[RP_R_COUNT] = {
	[RP_R_UNCHANGED] = "unchanged-value-dropped",
	[RP_R_FUZZ_DROPPED] = "fuzz-dropped",
	[RP_R_FUZZ_SMOOTHED] = "fuzz-smoothed",
	[RP_R_SLOT_STAGED] = "slot-not-sent",
	[RP_R_SLOT_INSERTED] = "slot-inserted",
	[RP_R_STATE_UNCHANGED] = "state-unchanged-dropped",
	[RP_R_REL_ZERO] = "rel-zero-dropped",
	[RP_R_UNSUPPORTED] = "unsupported-code-dropped",
	[RP_R_SYN_DROPPED] = "syn-code-not-injectable",
	[RP_R_EMPTY_FRAME] = "empty-frame-dropped",
	[RP_R_SPLIT] = "frame-split",
	[RP_R_OUTSIDE_ABSINFO] = "outside-absinfo-delivered",
};

const char *
rp_reason_name(enum rp_reason r)
{
	return r < RP_R_COUNT ? reason_names[r] : "unknown";
}

static bool
has(const struct rp_kmodel *m, unsigned int type, unsigned int code)
{
	return type < EV_CNT && bit_is_set(m->evbits, type) && code < KEY_CNT &&
	       bit_is_set(m->codes[type], code);
}

/* input_estimate_events_per_packet() */
static uint32_t
estimate_packet(const struct rp_kmodel *m, const struct input_absinfo *abs)
{
	uint32_t mt_slots = 0, events;

	if (m->num_slots) {
		mt_slots = m->num_slots;
	} else if (has(m, EV_ABS, ABS_MT_TRACKING_ID)) {
		int64_t n = (int64_t)abs[ABS_MT_TRACKING_ID].maximum - abs[ABS_MT_TRACKING_ID].minimum + 1;
		mt_slots = (uint32_t)(n < 2 ? 2 : n > 32 ? 32 : n);
	} else if (has(m, EV_ABS, ABS_MT_POSITION_X)) {
		mt_slots = 2;
	}
	events = mt_slots + 1;
	if (bit_is_set(m->evbits, EV_ABS)) {
		for (unsigned int c = 0; c < ABS_CNT; c++) {
			if (has(m, EV_ABS, c))
				events += (c == ABS_MT_SLOT || tt_is_slot_axis(c)) ? mt_slots : 1;
		}
	}
	if (bit_is_set(m->evbits, EV_REL)) {
		for (unsigned int c = 0; c < REL_CNT; c++)
			events += has(m, EV_REL, c);
	}
	events += 7;
	/* uinput_create_device(): a Type A device gets a hint of 60. */
	if (!m->num_slots && has(m, EV_ABS, ABS_MT_POSITION_X) && events < 60)
		events = 60;
	return events;
}

void
rp_kmodel_init(struct rp_kmodel *m, const struct tt_device *dev,
	       const struct input_absinfo *abs)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->evbits, dev->types, sizeof(m->evbits));
	clear_bit(m->evbits, EV_FF);	/* not recreated */
	clear_bit(m->evbits, EV_PWR);
	set_bit(m->evbits, EV_SYN);
	memcpy(m->codes, dev->codes, sizeof(m->codes));
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		m->abs[c] = abs[c].value;
		m->fuzz[c] = abs[c].fuzz;
		m->min[c] = abs[c].minimum;
		m->max[c] = abs[c].maximum;
	}
	if (has(m, EV_ABS, ABS_MT_SLOT)) {
		m->num_slots = (uint32_t)(abs[ABS_MT_SLOT].maximum + 1);
		m->slots = tt_reallocarray(NULL, m->num_slots, sizeof(*m->slots));
		memset(m->slots, 0, m->num_slots * sizeof(*m->slots));
		for (uint32_t s = 0; s < m->num_slots; s++)
			m->slots[s][ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
	}
	m->rep[REP_DELAY] = dev->rep_delay;
	m->rep[REP_PERIOD] = dev->rep_period;
	m->max_vals = estimate_packet(m, abs) + 2;
}

void
rp_kmodel_set_state(struct rp_kmodel *m, const struct tt_device *dev)
{
	for (unsigned int c = 0; c < ABS_CNT; c++)
		m->abs[c] = dev->abs[c].value;
	for (uint32_t s = 0; s < m->num_slots; s++) {
		for (unsigned int a = 0; a < TT_MT_AXES; a++)
			m->slots[s][a] = s < dev->num_slots && dev->slots ? dev->slots[s].values[a] : 0;
		if (s >= dev->num_slots || !dev->slots)
			m->slots[s][ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
	}
	if (m->num_slots && dev->current_slot >= 0 && (uint32_t)dev->current_slot < m->num_slots)
		m->slot = m->slot_reported = dev->current_slot;
	memcpy(m->keys, dev->keys_down, sizeof(m->keys));
	memcpy(m->led, dev->leds_on, sizeof(m->led));
	memcpy(m->sw, dev->switches_on, sizeof(m->sw));
}

void
rp_kmodel_release(struct rp_kmodel *m)
{
	free(m->slots);
	m->slots = NULL;
}

/* input_defuzz_abs_event() */
static int32_t
defuzz(int32_t value, int32_t old, int32_t fuzz)
{
	int64_t v = value, o = old, f = fuzz;

	if (f) {
		if (v > o - f / 2 && v < o + f / 2)
			return old;
		if (v > o - f && v < o + f)
			return (int32_t)((o * 3 + v) / 4);
		if (v > o - f * 2 && v < o + f * 2)
			return (int32_t)((o + v) / 2);
	}
	return value;
}

enum disp { IGNORE = 0, PASS = 1, PASS_SLOT = 2, FLUSH = 4 };

static int
handle_abs(struct rp_kmodel *m, unsigned int code, int32_t *pval, size_t reasons[])
{
	int32_t *pold = NULL;
	bool new_slot = false;

	if (code == ABS_MT_SLOT) {
		if (m->num_slots && *pval >= 0 && (uint32_t)*pval < m->num_slots)
			m->slot = *pval;
		/* Counted as staged now; a later insertion is counted apart. */
		reasons[RP_R_SLOT_STAGED]++;
		return IGNORE;
	}
	if (!tt_is_slot_axis(code))
		pold = &m->abs[code];
	else if (m->num_slots) {
		pold = &m->slots[m->slot][code - TT_MT_FIRST];
		new_slot = m->slot != m->slot_reported;
	}
	if (pold) {
		int32_t v = defuzz(*pval, *pold, m->fuzz[code]);
		if (v == *pold) {
			reasons[v == *pval ? RP_R_UNCHANGED : RP_R_FUZZ_DROPPED]++;
			return IGNORE;
		}
		if (v != *pval)
			reasons[RP_R_FUZZ_SMOOTHED]++;
		*pval = v;
		*pold = v;
	}
	if (rp_abs_outside(code, *pval, m->min[code], m->max[code]))
		reasons[RP_R_OUTSIDE_ABSINFO]++;
	if (new_slot) {
		m->slot_reported = m->slot;
		return PASS | PASS_SLOT;
	}
	return PASS;
}

static int
handle_toggle(uint8_t *bits, unsigned int code, int32_t value, size_t reasons[])
{
	if (!!bit_is_set(bits, code) == !!value) {
		reasons[RP_R_STATE_UNCHANGED]++;
		return IGNORE;
	}
	if (value)
		set_bit(bits, code);
	else
		clear_bit(bits, code);
	return PASS;
}

/* input_handle_event()'s disposition, with *value possibly smoothed. */
static int
disposition(struct rp_kmodel *m, const struct input_event *e, int32_t *value, size_t reasons[])
{
	if (e->type == EV_SYN) {
		switch (e->code) {
		case SYN_CONFIG:
		case SYN_MT_REPORT:
			return PASS;
		case SYN_REPORT:
			return PASS | FLUSH;
		default:
			reasons[RP_R_SYN_DROPPED]++;
			return IGNORE;
		}
	}
	if (!has(m, e->type, e->code)) {
		reasons[RP_R_UNSUPPORTED]++;
		return IGNORE;
	}
	switch (e->type) {
	case EV_KEY:
		if (*value == 2)
			return PASS;
		return handle_toggle(m->keys, e->code, *value, reasons);
	case EV_SW:
		return handle_toggle(m->sw, e->code, *value, reasons);
	case EV_LED:
		return handle_toggle(m->led, e->code, *value, reasons);
	case EV_ABS:
		return handle_abs(m, e->code, value, reasons);
	case EV_REL:
		if (*value)
			return PASS;
		reasons[RP_R_REL_ZERO]++;
		return IGNORE;
	case EV_REP:
		if (e->code < REP_CNT && *value >= 0 && m->rep[e->code] != *value) {
			m->rep[e->code] = *value;
			return PASS;
		}
		reasons[RP_R_STATE_UNCHANGED]++;
		return IGNORE;
	default:	/* EV_MSC, EV_SND (always passed), ... */
		return PASS;
	}
}

void
rp_kmodel_feed(struct rp_kmodel *m, const struct input_event *ev, size_t n,
	       struct rp_evbuf *out, size_t reasons[RP_R_COUNT])
{
	/* Events held for the frame start at out->n - m->num_vals. */
	for (size_t i = 0; i < n; i++) {
		int32_t value = ev[i].value;
		int d = disposition(m, &ev[i], &value, reasons);

		if (d & PASS) {
			if (d & PASS_SLOT) {
				rp_evbuf_push(out, EV_ABS, ABS_MT_SLOT, m->slot);
				/* A written ABS_MT_SLOT counted as staged is
				 * delivered after all; otherwise the kernel
				 * made one up. */
				if (reasons[RP_R_SLOT_STAGED])
					reasons[RP_R_SLOT_STAGED]--;
				else
					reasons[RP_R_SLOT_INSERTED]++;
				m->num_vals++;
			}
			rp_evbuf_push(out, ev[i].type, ev[i].code, value);
			m->num_vals++;
		}
		if (d & FLUSH) {
			if (m->num_vals < 2) {
				out->n -= m->num_vals;	/* nothing but SYN_REPORT */
				reasons[RP_R_EMPTY_FRAME]++;
			}
			m->num_vals = 0;
		} else if (m->num_vals && m->num_vals >= m->max_vals - 2) {
			rp_evbuf_push(out, EV_SYN, SYN_REPORT, 0);
			reasons[RP_R_SPLIT]++;
			m->num_vals = 0;
		}
	}
}
