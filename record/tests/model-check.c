/* SPDX-License-Identifier: MIT */
/*
 * Compares a touchtape recording with the events injected into a uinput
 * device, through replay/kernel-model.c: the model of what the kernel's
 * input core (drivers/input/input.c) lets through that replay --verify
 * uses: unsupported codes dropped, unchanged values and states dropped,
 * fuzz, ABS_MT_SLOT staged, empty packets dropped, long packets split.
 *
 * The model starts from the state in the recording's device record (what
 * the kernel reported when recording began: rp_kmodel_set_state()). Every
 * expected packet must be a frame of the recording, in order, with the
 * same events, and nothing else may be there: no loosening.
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
#include "kernel-model.h"
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

static void
push_packet(struct packets *ps, const struct ev3 *ev, size_t n, int64_t t, uint32_t flags)
{
	ps->p = tt_grow(ps->p, ps->n, &ps->cap, sizeof(*ps->p));
	struct packet *p = &ps->p[ps->n++];
	p->n = n;
	p->ev = tt_reallocarray(NULL, n ? n : 1, sizeof(*ev));
	memcpy(p->ev, ev, n * sizeof(*ev));
	p->time_us = t;
	p->flags = flags;
}

/* What the kernel delivers, from replay/kernel-model.c (the model --verify
 * uses), started from the recording's device state. */
struct model {
	struct rp_kmodel k;
	struct rp_evbuf out;
	size_t reasons[RP_R_COUNT];
};

static void
model_init(struct model *m, const struct tt_device *dev)
{
	struct input_absinfo abs[ABS_CNT];

	memset(m, 0, sizeof(*m));
	for (unsigned int c = 0; c < ABS_CNT; c++)
		abs[c] = (struct input_absinfo){
			.value = dev->abs[c].value, .minimum = dev->abs[c].minimum,
			.maximum = dev->abs[c].maximum, .fuzz = dev->abs[c].fuzz,
			.flat = dev->abs[c].flat, .resolution = dev->abs[c].resolution,
		};
	rp_kmodel_init(&m->k, dev, abs);
	rp_kmodel_set_state(&m->k, dev);
}

static void
model_event(struct model *m, unsigned int type, unsigned int code, int32_t value)
{
	struct input_event ev = { .type = (uint16_t)type, .code = (uint16_t)code, .value = value };

	rp_kmodel_feed(&m->k, &ev, 1, &m->out, m->reasons);
}

/* The model's output cut into packets at each SYN_REPORT (the events of
 * a packet still being built are not delivered yet). */
static void
model_packets(const struct model *m, struct packets *out)
{
	size_t start = 0;

	for (size_t i = 0; i < m->out.n; i++) {
		if (m->out.ev[i].type != EV_SYN || m->out.ev[i].code != SYN_REPORT)
			continue;
		struct ev3 *ev = tt_reallocarray(NULL, i + 1 - start, sizeof(*ev));
		for (size_t k = start; k <= i; k++)
			ev[k - start] = (struct ev3){ m->out.ev[k].type, m->out.ev[k].code, m->out.ev[k].value };
		push_packet(out, ev, i + 1 - start, 0, 0);
		free(ev);
		start = i + 1;
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

static bool
is_mt_value(unsigned int code)
{
	return code >= ABS_MT_TOUCH_MAJOR && code <= ABS_MT_TOOL_Y;
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
	struct packets want = { 0 };
	model_packets(&m, &want);
	printf("%zu events injected, max_vals %u\n", injected, m.k.max_vals);
	return compare(&want, &got);
}
