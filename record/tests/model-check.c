/* SPDX-License-Identifier: MIT */
/*
 * Compares a touchtape recording with the events injected into a uinput
 * device, through a model of what the kernel's input core lets through
 * (drivers/input/input.c):
 *
 *  - events of a type or code the device does not have are dropped;
 *  - EV_KEY: value 2 (repeat) always passes; otherwise only a change of the
 *    key's state passes. EV_SW, EV_LED, EV_SND: only changes. EV_REL: only
 *    non-zero values. EV_MSC: always.
 *  - EV_ABS (input_handle_abs_event): ABS_MT_SLOT is only staged; a per-slot
 *    axis is compared with that slot's value (Type B, i.e. the device has
 *    ABS_MT_SLOT) and the staged slot is emitted (as ABS_MT_SLOT) before the
 *    first event that passes for a new slot; other axes are compared with
 *    the device's value. Comparisons go through input_defuzz_abs_event()
 *    with the axis's fuzz; an unchanged value is dropped. Type A (no slots)
 *    MT axes bypass the filter.
 *  - SYN_REPORT ends a packet, but an empty packet (nothing passed since the
 *    last one) is dropped; SYN_MT_REPORT passes; a packet that reaches
 *    max_vals - 2 values is flushed with a SYN_REPORT of the kernel's own
 *    (max_vals from input_estimate_events_per_packet() and uinput's hint).
 *
 * The model starts from the state in the recording's device record (what
 * the kernel reported when recording began). Every expected packet must be
 * a frame of the recording, in order, with the same events, and nothing
 * else may be there: no loosening.
 *
 * Usage: model-check RECORDING DEVICE_ID EVEMU_FILE...
 *        model-check --state RECORDING DEVICE_ID  (prints the slot state)
 *        model-check --keys RECORDING DEVICE_ID   (prints EV_KEY events)
 *        model-check --final RECORDING DEVICE_ID  (slot state after all frames)
 * Exit: 0 match, 1 mismatch, 2 usage or unreadable input.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "reader.h"
#include "util-mem.h"

struct ev3 {
	uint16_t type, code;
	int32_t value;
};

struct packet {
	size_t n;
	struct ev3 *ev;
	int64_t time_us;
	uint32_t flags;
};

struct packets {
	size_t n, cap;
	struct packet *p;
};

struct model {
	const struct tt_device *dev;
	int32_t abs[ABS_CNT];
	int32_t (*slots)[TT_MT_AXES];
	int num_slots;		/* 0: no slots (mt == NULL in the kernel) */
	int staged_slot;	/* mt->slot */
	int32_t abs_slot;	/* absinfo[ABS_MT_SLOT].value */
	uint8_t key[TT_BITMAP_BYTES(KEY_CNT)];
	uint8_t led[TT_BITMAP_BYTES(LED_CNT)];
	uint8_t sw[TT_BITMAP_BYTES(SW_CNT)];
	uint8_t snd[TT_BITMAP_BYTES(SND_CNT)];
	size_t max_vals;
	struct ev3 *vals;
	size_t nvals;
	struct packets out;
};

static void
push_packet(struct packets *ps, const struct ev3 *ev, size_t n, int64_t t, uint32_t flags)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 256;
		ps->p = tt_reallocarray(ps->p, ps->cap, sizeof(*ps->p));
	}
	struct packet *p = &ps->p[ps->n++];
	p->n = n;
	p->ev = tt_reallocarray(NULL, n ? n : 1, sizeof(*ev));
	memcpy(p->ev, ev, n * sizeof(*ev));
	p->time_us = t;
	p->flags = flags;
}

static bool
is_mt_value(unsigned int code)
{
	return code >= ABS_MT_TOUCH_MAJOR && code <= ABS_MT_TOOL_Y;
}

/* input_estimate_events_per_packet() */
static size_t
estimate_packet(const struct model *m)
{
	const struct tt_device *d = m->dev;
	int mt_slots;
	size_t events;

	if (m->num_slots) {
		mt_slots = m->num_slots;
	} else if (tt_device_has(d, EV_ABS, ABS_MT_TRACKING_ID)) {
		mt_slots = d->abs[ABS_MT_TRACKING_ID].maximum - d->abs[ABS_MT_TRACKING_ID].minimum + 1;
		mt_slots = mt_slots < 2 ? 2 : mt_slots > 32 ? 32 : mt_slots;
	} else if (tt_device_has(d, EV_ABS, ABS_MT_POSITION_X)) {
		mt_slots = 2;
	} else {
		mt_slots = 0;
	}
	events = (size_t)mt_slots + 1;
	if (bit_is_set(d->types, EV_ABS))
		for (unsigned int i = 0; i < ABS_CNT; i++)
			if (tt_device_has(d, EV_ABS, i))
				events += (i == ABS_MT_SLOT || is_mt_value(i)) ? (size_t)mt_slots : 1;
	if (bit_is_set(d->types, EV_REL))
		for (unsigned int i = 0; i < REL_CNT; i++)
			if (tt_device_has(d, EV_REL, i))
				events++;
	return events + 7;
}

static void
model_init(struct model *m, const struct tt_device *dev)
{
	memset(m, 0, sizeof(*m));
	m->dev = dev;
	for (unsigned int c = 0; c < ABS_CNT; c++)
		m->abs[c] = dev->abs[c].value;
	if (tt_device_has(dev, EV_ABS, ABS_MT_SLOT)) {
		m->num_slots = dev->abs[ABS_MT_SLOT].maximum + 1;
		m->slots = tt_reallocarray(NULL, (size_t)m->num_slots, sizeof(*m->slots));
		for (int s = 0; s < m->num_slots; s++) {
			for (int a = 0; a < TT_MT_AXES; a++)
				m->slots[s][a] = (uint32_t)s < dev->num_slots && dev->slots ?
					dev->slots[s].values[a] : 0;
			if ((uint32_t)s >= dev->num_slots)
				m->slots[s][ABS_MT_TRACKING_ID - TT_MT_FIRST] = -1;
		}
		m->staged_slot = dev->current_slot;
		m->abs_slot = dev->current_slot;
	}
	memcpy(m->key, dev->keys_down, sizeof(m->key));
	memcpy(m->led, dev->leds_on, sizeof(m->led));
	memcpy(m->sw, dev->switches_on, sizeof(m->sw));
	/* input_register_device(): max_vals = max(hint, estimate) + 2, where
	 * uinput_create_device() hints 60 events per packet for a Type A
	 * device (ABS_MT_POSITION_X without ABS_MT_SLOT). */
	size_t hint = !m->num_slots && tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) ? 60 : 0;
	size_t estimate = estimate_packet(m);
	m->max_vals = (hint > estimate ? hint : estimate) + 2;
	m->vals = tt_reallocarray(NULL, m->max_vals + 2, sizeof(*m->vals));
}

/* input_defuzz_abs_event() */
static int32_t
defuzz(int32_t value, int32_t old, int32_t fuzz)
{
	if (fuzz) {
		if (value > old - fuzz / 2 && value < old + fuzz / 2)
			return old;
		if (value > old - fuzz && value < old + fuzz)
			return (old * 3 + value) / 4;
		if (value > old - fuzz * 2 && value < old + fuzz * 2)
			return (old + value) / 2;
	}
	return value;
}

enum { IGNORE = 0, PASS = 1, SLOT = 2, FLUSH = 4 };

static int
handle_abs(struct model *m, unsigned int code, int32_t *value)
{
	int32_t *old;
	bool new_slot = false;

	if (code == ABS_MT_SLOT) {
		if (m->num_slots && *value >= 0 && *value < m->num_slots)
			m->staged_slot = *value;
		return IGNORE;
	}
	if (!is_mt_value(code)) {
		old = &m->abs[code];
	} else if (m->num_slots) {
		old = &m->slots[m->staged_slot][code - TT_MT_FIRST];
		new_slot = m->staged_slot != m->abs_slot;
	} else {
		return PASS;	/* Type A: no filtering */
	}
	*value = defuzz(*value, *old, m->dev->abs[code].fuzz);
	if (*old == *value)
		return IGNORE;
	*old = *value;
	if (new_slot) {
		m->abs_slot = m->staged_slot;
		return PASS | SLOT;
	}
	return PASS;
}

static int
toggle(uint8_t *bits, unsigned int code, int32_t value)
{
	if (!!bit_is_set(bits, code) == !!value)
		return IGNORE;
	if (value)
		set_bit(bits, code);
	else
		clear_bit(bits, code);
	return PASS;
}

static int
disposition(struct model *m, unsigned int type, unsigned int code, int32_t *value)
{
	const struct tt_device *d = m->dev;

	switch (type) {
	case EV_SYN:
		if (code == SYN_REPORT)
			return PASS | FLUSH;
		if (code == SYN_MT_REPORT || code == SYN_CONFIG)
			return PASS;
		return IGNORE;
	case EV_KEY:
		if (!tt_device_has(d, type, code))
			return IGNORE;
		if (*value == 2)
			return PASS;
		return toggle(m->key, code, *value);
	case EV_SW:
		return tt_device_has(d, type, code) ? toggle(m->sw, code, *value) : IGNORE;
	case EV_LED:
		return tt_device_has(d, type, code) ? toggle(m->led, code, *value) : IGNORE;
	case EV_SND:
		return tt_device_has(d, type, code) ? toggle(m->snd, code, *value) : IGNORE;
	case EV_ABS:
		return tt_device_has(d, type, code) ? handle_abs(m, code, value) : IGNORE;
	case EV_REL:
		return tt_device_has(d, type, code) && *value ? PASS : IGNORE;
	case EV_MSC:
		return tt_device_has(d, type, code) ? PASS : IGNORE;
	default:
		return IGNORE;
	}
}

/* input_handle_event() */
static void
model_event(struct model *m, unsigned int type, unsigned int code, int32_t value)
{
	if (type != EV_SYN && !bit_is_set(m->dev->types, type))
		return;
	int disp = disposition(m, type, code, &value);

	if (disp & PASS) {
		if (disp & SLOT)
			m->vals[m->nvals++] = (struct ev3){ EV_ABS, ABS_MT_SLOT, m->abs_slot };
		m->vals[m->nvals++] = (struct ev3){ (uint16_t)type, (uint16_t)code, value };
	}
	if (disp & FLUSH) {
		if (m->nvals >= 2)
			push_packet(&m->out, m->vals, m->nvals, 0, 0);
		m->nvals = 0;
	} else if (m->nvals >= m->max_vals - 2) {
		m->vals[m->nvals++] = (struct ev3){ EV_SYN, SYN_REPORT, 0 };
		push_packet(&m->out, m->vals, m->nvals, 0, 0);
		m->nvals = 0;
	}
}

/* "E: 1234.567890 0003 0035 4711": the injected events, in order. */
static int
inject_file(struct model *m, const char *path, size_t *count)
{
	_cleanup_fclose_ FILE *f = fopen(path, "r");
	char line[512];

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int type, code;
		int value;
		if (strncmp(line, "E:", 2) != 0)
			continue;
		if (sscanf(line, "E: %*s %x %x %d", &type, &code, &value) != 3) {
			fprintf(stderr, "%s: bad line: %s", path, line);
			return -1;
		}
		model_event(m, type, code, value);
		(*count)++;
	}
	return 0;
}

static int
read_recording(const char *path, uint32_t id, struct tt_reader **rp, struct packets *got)
{
	struct tt_record rec;
	char *why = NULL;
	int rc = tt_reader_open_why(path, rp, &why);

	if (rc < 0) {
		fprintf(stderr, "%s\n", why ? why : path);
		free(why);
		return -1;
	}
	while ((rc = tt_reader_next(*rp, &rec)) != 0) {
		if (rc < 0) {
			fprintf(stderr, "%s\n", tt_reader_error(*rp));
			return -1;
		}
		if (rec.type != TT_RECORD_FRAME || rec.frame->device != id)
			continue;
		struct ev3 *ev = tt_reallocarray(NULL, rec.frame->nevents + 1, sizeof(*ev));
		for (uint32_t i = 0; i < rec.frame->nevents; i++)
			ev[i] = (struct ev3){ rec.frame->events[i].type, rec.frame->events[i].code,
					      rec.frame->events[i].value };
		push_packet(got, ev, rec.frame->nevents, rec.frame->time_us, rec.frame->flags);
		free(ev);
	}
	if (!tt_reader_device(*rp, id)) {
		fprintf(stderr, "%s: no device %u\n", path, id);
		return -1;
	}
	return 0;
}

static void
print_packet(const char *what, size_t index, const struct packet *p)
{
	char cb[32];

	fprintf(stderr, "  %s frame %zu (%zu events%s):", what, index, p->n,
		p->flags ? ", flagged" : "");
	for (size_t i = 0; i < p->n && i < 24; i++)
		fprintf(stderr, " %s=%d", tt_code_label(cb, sizeof(cb), p->ev[i].type, p->ev[i].code),
			p->ev[i].value);
	fprintf(stderr, "%s\n", p->n > 24 ? " ..." : "");
}

static int
compare(const struct packets *want, const struct packets *got)
{
	int64_t last = INT64_MIN;
	size_t nev = 0;

	for (size_t i = 0; i < got->n; i++) {
		if (got->p[i].flags) {
			fprintf(stderr, "FAIL: recorded frame %zu is flagged (dropped/resync/incomplete)\n", i);
			return 1;
		}
		if (got->p[i].time_us < last || got->p[i].time_us < 0) {
			fprintf(stderr, "FAIL: frame %zu: time %" PRId64 " goes backwards or below 0\n",
				i, got->p[i].time_us);
			return 1;
		}
		last = got->p[i].time_us;
	}
	for (size_t i = 0; i < want->n || i < got->n; i++) {
		if (i >= got->n || i >= want->n) {
			fprintf(stderr, "FAIL: %zu frames expected, %zu recorded\n", want->n, got->n);
			if (i < want->n)
				print_packet("first missing", i, &want->p[i]);
			else
				print_packet("first extra", i, &got->p[i]);
			return 1;
		}
		const struct packet *w = &want->p[i], *g = &got->p[i];
		bool same = w->n == g->n;
		for (size_t k = 0; same && k < w->n; k++)
			same = w->ev[k].type == g->ev[k].type && w->ev[k].code == g->ev[k].code &&
			       w->ev[k].value == g->ev[k].value;
		if (!same) {
			fprintf(stderr, "FAIL: frame %zu differs\n", i);
			print_packet("expected", i, w);
			print_packet("recorded", i, g);
			return 1;
		}
		nev += w->n;
	}
	printf("ok: %zu frames, %zu events as the kernel model predicts\n", want->n, nev);
	return 0;
}

static int
dump_state(const struct tt_device *dev)
{
	printf("protocol %d slots %u current %d\n", dev->mt_protocol, dev->num_slots, dev->current_slot);
	for (uint32_t s = 0; s < dev->num_slots; s++) {
		const int32_t *v = dev->slots[s].values;
		printf("slot %u tracking %d x %d y %d\n", s, v[ABS_MT_TRACKING_ID - TT_MT_FIRST],
		       v[ABS_MT_POSITION_X - TT_MT_FIRST], v[ABS_MT_POSITION_Y - TT_MT_FIRST]);
	}
	for (unsigned int c = 0; c < KEY_CNT; c++)
		if (bit_is_set(dev->keys_down, c))
			printf("key down %u\n", c);
	return 0;
}

/* Applies every recorded frame (resync included) to the device record's
 * slot state and prints the result. */
static int
dump_final(const struct tt_device *dev, const struct packets *got)
{
	int32_t (*slots)[TT_MT_AXES] = tt_reallocarray(NULL, dev->num_slots ? dev->num_slots : 1,
						       sizeof(*slots));
	int cur = dev->current_slot;

	for (uint32_t s = 0; s < dev->num_slots; s++)
		memcpy(slots[s], dev->slots[s].values, sizeof(slots[s]));
	for (size_t i = 0; i < got->n; i++)
		for (size_t k = 0; k < got->p[i].n; k++) {
			const struct ev3 *e = &got->p[i].ev[k];
			if (e->type != EV_ABS)
				continue;
			if (e->code == ABS_MT_SLOT)
				cur = e->value;
			else if (is_mt_value(e->code) && cur >= 0 && (uint32_t)cur < dev->num_slots)
				slots[cur][e->code - TT_MT_FIRST] = e->value;
		}
	for (uint32_t s = 0; s < dev->num_slots; s++)
		printf("slot %u tracking %d x %d y %d\n", s, slots[s][ABS_MT_TRACKING_ID - TT_MT_FIRST],
		       slots[s][ABS_MT_POSITION_X - TT_MT_FIRST], slots[s][ABS_MT_POSITION_Y - TT_MT_FIRST]);
	free(slots);
	return 0;
}

static void
dump_keys(const struct packets *got)
{
	for (size_t i = 0; i < got->n; i++)
		for (size_t k = 0; k < got->p[i].n; k++) {
			const struct ev3 *e = &got->p[i].ev[k];
			if (e->type == EV_KEY)
				printf("key %u %d\n", e->code, e->value);
			else if (e->type == EV_MSC && e->code == MSC_SCAN)
				printf("scan %d\n", e->value);
		}
}

int
main(int argc, char **argv)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	struct packets got = { 0 };
	struct model m;
	const char *mode = NULL;
	size_t injected = 0;

	if (argc > 1 && argv[1][0] == '-' && argv[1][1] == '-') {
		mode = argv[1];
		argv++;
		argc--;
	}
	if (argc < 3 || (!mode && argc < 4)) {
		fprintf(stderr, "usage: model-check [--state|--keys] RECORDING DEVICE_ID [EVEMU_FILE...]\n");
		return 2;
	}
	uint32_t id = (uint32_t)strtoul(argv[2], NULL, 10);
	if (read_recording(argv[1], id, &r, &got) < 0)
		return 2;
	const struct tt_device *dev = tt_reader_device(r, id);
	if (mode && strcmp(mode, "--state") == 0)
		return dump_state(dev);
	if (mode && strcmp(mode, "--final") == 0)
		return dump_final(dev, &got);
	if (mode && strcmp(mode, "--keys") == 0) {
		dump_keys(&got);
		return 0;
	}
	model_init(&m, dev);
	for (int i = 3; i < argc; i++)
		if (inject_file(&m, argv[i], &injected) < 0)
			return 2;
	printf("%zu events injected, max_vals %zu\n", injected, m.max_vals);
	return compare(&m.out, &got);
}
