/* SPDX-License-Identifier: MIT */
/* What analyze and diff keep of the libinput layer (li-summary.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "li-summary.h"
#include "util-strings.h"

static void
on_touch(void *data, const struct tt_li_touch *t)
{
	struct li_summary *s = data;

	if (!t->kernel_serial)
		return;
	s->latencies = tt_grow(s->latencies, s->nlatencies, &s->caplatencies, sizeof(*s->latencies));
	s->latencies[s->nlatencies++] = t->latency_us;
}

static void
on_gesture(void *data, const struct tt_li_gesture *g)
{
	struct li_summary *s = data;

	s->gestures = tt_grow(s->gestures, s->ngestures, &s->capgestures, sizeof(*s->gestures));
	s->gestures[s->ngestures++] = *g;
	if (g->latency_us < 0)
		return;
	s->gesture_latencies = tt_grow(s->gesture_latencies, s->ngesture_latencies,
				    &s->capgesture_latencies, sizeof(*s->gesture_latencies));
	s->gesture_latencies[s->ngesture_latencies++] = g->latency_us;
}

void
li_summary_init(struct li_summary *s)
{
	static const struct tt_li_callbacks cb = { .touch_end = on_touch, .gesture_end = on_gesture };

	memset(s, 0, sizeof(*s));
	s->m = tt_li_model_new(&cb, s);
}

/* The model counts taps; the summary also keeps when each was, for diff
 * to pair them: a tap is the press the model's tap count grew at. */
static void
note_tap(struct li_summary *s, const struct tt_record *rec, uint64_t before[3])
{
	size_t n;
	const struct tt_li_counts *c = tt_li_model_counts(s->m, &n);

	for (size_t i = 0; i < n; i++) {
		if (c[i].device != rec->li_event->device)
			continue;
		for (uint32_t b = 0; b < 3; b++) {
			if (c[i].tap_buttons[b] == before[b])
				continue;
			s->taps = tt_grow(s->taps, s->ntaps, &s->captaps, sizeof(*s->taps));
			s->taps[s->ntaps++] = (struct li_tap){
				.device = c[i].device, .time_us = rec->li_event->time_us,
				.button = b, .line = rec->line,
			};
		}
	}
}

static void
tap_counts(const struct li_summary *s, uint32_t device, uint64_t out[3])
{
	size_t n;
	const struct tt_li_counts *c = tt_li_model_counts(s->m, &n);

	memset(out, 0, 3 * sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (c[i].device == device)
			memcpy(out, c[i].tap_buttons, 3 * sizeof(*out));
	}
}

static void
note_log(struct li_summary *s, const struct tt_record *rec)
{
	const char *text = rec->marker->text ? rec->marker->text : "";

	s->logs = tt_grow(s->logs, s->nlogs, &s->caplogs, sizeof(*s->logs));
	s->logs[s->nlogs++] = (struct li_log){
		.time_us = rec->marker->time_us, .device = rec->marker->device, .line = rec->line,
		.text = tt_str_sanitize(text, strlen(text), 512),
	};
}

void
li_summary_feed(struct li_summary *s, const struct tt_record *rec)
{
	uint64_t before[3];
	bool button = rec->type == TT_RECORD_LI_EVENT && rec->li_event->kind == TT_LI_POINTER_BUTTON &&
		      rec->li_event->pressed;

	if (rec->type == TT_RECORD_MARKER && rec->marker->kind == TT_MARKER_LI_LOG)
		note_log(s, rec);
	if (button)
		tap_counts(s, rec->li_event->device, before);
	tt_li_model_feed(s->m, rec);
	if (button)
		note_tap(s, rec, before);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void
li_sort_latencies(int64_t *v, size_t n)
{
	tt_sort(v, n, sizeof(*v), cmp_i64);
}

void
li_summary_finish(struct li_summary *s)
{
	size_t n;
	const struct tt_li_counts *c;

	tt_li_model_finish(s->m);
	c = tt_li_model_counts(s->m, &n);
	s->counts = tt_reallocarray(NULL, n ? n : 1, sizeof(*s->counts));
	/* With no libinput layer the arrays are NULL: memcpy and qsort
	 * may not be given NULL even for 0 elements (UBSan says so). */
	if (n > 0)
		memcpy(s->counts, c, n * sizeof(*c));
	s->ncounts = n;
	s->has_layer = tt_li_model_has_layer(s->m);
	li_sort_latencies(s->latencies, s->nlatencies);
	li_sort_latencies(s->gesture_latencies, s->ngesture_latencies);
}

void
li_summary_clear(struct li_summary *s)
{
	tt_li_model_free(s->m);
	free(s->counts);
	free(s->gestures);
	free(s->taps);
	free(s->latencies);
	free(s->gesture_latencies);
	for (size_t i = 0; i < s->nlogs; i++)
		free(s->logs[i].text);
	free(s->logs);
	memset(s, 0, sizeof(*s));
}

bool
li_summary_any(const struct li_summary *s)
{
	return s->has_layer || s->nlogs;
}

const char *
li_gesture_direction(const struct tt_li_gesture *g)
{
	if (g->kind == TT_LI_GESTURE_PINCH)
		return g->scale < 1.0 ? "in" : g->scale > 1.0 ? "out" : "";
	if (g->kind == TT_LI_GESTURE_HOLD || (g->dx == 0 && g->dy == 0))
		return "";
	if (fabs(g->dx) > fabs(g->dy))
		return g->dx > 0 ? "right" : "left";
	return g->dy > 0 ? "down" : "up";
}

int64_t
li_percentile(const int64_t *v, size_t n, double q)
{
	size_t rank;

	if (!n)
		return -1;
	rank = (size_t)ceil(q * (double)n);
	return v[rank ? rank - 1 : 0];
}

const char *
li_tap_button_name(uint32_t button)
{
	static const char *names[] = { "left", "right", "middle" };
	return button < 3 ? names[button] : "?";
}
