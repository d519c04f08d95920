/* SPDX-License-Identifier: MIT */
/* What analyze and diff keep of the libinput layer (li-summary.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "li-summary.h"
#include "stack.h"
#include "util-stats.h"
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

/* The model counts taps; the summary also keeps when each was, for diff
 * to pair them. */
static void
on_tap(void *data, uint32_t device, int64_t time_us, uint32_t button, size_t line)
{
	struct li_summary *s = data;

	s->taps = tt_grow(s->taps, s->ntaps, &s->captaps, sizeof(*s->taps));
	s->taps[s->ntaps++] = (struct li_tap){
		.device = device, .time_us = time_us, .button = button, .line = line,
	};
}

void
li_summary_init(struct li_summary *s, struct tt_stack *stack)
{
	static const struct tt_li_callbacks cb = {
		.touch_end = on_touch, .gesture_end = on_gesture, .tap = on_tap,
	};

	memset(s, 0, sizeof(*s));
	s->m = tt_stack_li(stack);
	tt_stack_subscribe_li(stack, &cb, s);
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
	if (rec->type == TT_RECORD_MARKER && rec->marker->kind == TT_MARKER_LI_LOG)
		note_log(s, rec);
}

void
li_summary_finish(struct li_summary *s)
{
	size_t n;
	const struct tt_li_counts *c;

	c = tt_li_model_counts(s->m, &n);
	s->counts = tt_reallocarray(NULL, n ? n : 1, sizeof(*s->counts));
	/* With no libinput layer the arrays are NULL: memcpy and qsort
	 * may not be given NULL even for 0 elements (UBSan says so). */
	if (n > 0)
		memcpy(s->counts, c, n * sizeof(*c));
	s->ncounts = n;
	s->has_layer = tt_li_model_has_layer(s->m);
	tt_sort(s->latencies, s->nlatencies, sizeof(*s->latencies), tt_cmp_i64);
	tt_sort(s->gesture_latencies, s->ngesture_latencies, sizeof(*s->gesture_latencies), tt_cmp_i64);
}

void
li_summary_clear(struct li_summary *s)
{
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

const char *
li_tap_button_name(uint32_t button)
{
	static const char *names[] = { "left", "right", "middle" };
	return button < 3 ? names[button] : "?";
}
