/* SPDX-License-Identifier: MIT */
/* What analyze and diff keep of the Wayland layer (wl-summary.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "li-summary.h"
#include "stack.h"
#include "util-stats.h"
#include "wl-summary.h"

static void
add_latency(int64_t **v, size_t *n, size_t *cap, int64_t us)
{
	*v = tt_grow(*v, *n, cap, sizeof(**v));
	(*v)[(*n)++] = us;
}

static void
on_touch_end(void *data, struct tt_wl_touch *t)
{
	struct wl_summary *s = data;

	s->touches = tt_grow(s->touches, s->ntouches, &s->captouches, sizeof(*s->touches));
	s->touches[s->ntouches] = *t;
	s->touches[s->ntouches++].user = NULL;
	s->cancelled += t->cancelled;
	s->active_at_end += t->active_at_end;
	if (t->link == TT_LINK_NOT_DELIVERED)
		s->unlinked++;
	if (t->link != TT_LINK_LINKED)
		return;
	s->linked++;
	add_latency(&s->latencies, &s->nlatencies, &s->caplatencies, t->latency_us);
	if (t->has_stamp)
		add_latency(&s->stamp_latencies, &s->nstamp_latencies, &s->capstamp_latencies,
			    t->stamp_latency_us);
}

void
wl_summary_init(struct wl_summary *s, struct tt_stack *stack)
{
	static const struct tt_wl_callbacks cb = { .touch_end = on_touch_end };

	memset(s, 0, sizeof(*s));
	s->m = tt_stack_wl(stack);
	tt_stack_subscribe_wl(stack, &cb, s);
}

static void
count_kind(struct wl_summary *s, const struct tt_wl_event *ev)
{
	char name[sizeof(s->kinds->name)];

	tt_wl_event_label(ev, name, sizeof(name));
	for (size_t i = 0; i < s->nkinds; i++) {
		if (strcmp(s->kinds[i].name, name) == 0) {
			s->kinds[i].n++;
			return;
		}
	}
	/* Interfaces and events are few; a hostile file's made-up names
	 * stop being told apart at some point. */
	if (s->nkinds >= 256)
		return;
	s->kinds = tt_grow(s->kinds, s->nkinds, &s->capkinds, sizeof(*s->kinds));
	memcpy(s->kinds[s->nkinds].name, name, sizeof(name));
	s->kinds[s->nkinds++].n = 1;
}

void
wl_summary_feed(struct wl_summary *s, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_WL_EVENT)
		count_kind(s, rec->wl_event);
}

static int
cmp_serial(const void *a, const void *b)
{
	uint64_t x = ((const struct tt_wl_touch *)a)->serial, y = ((const struct tt_wl_touch *)b)->serial;
	return (x > y) - (x < y);
}

void
wl_summary_finish(struct wl_summary *s)
{
	s->has_layer = tt_wl_model_has_layer(s->m);
	tt_sort(s->touches, s->ntouches, sizeof(*s->touches), cmp_serial);
	tt_sort(s->latencies, s->nlatencies, sizeof(*s->latencies), tt_cmp_i64);
	tt_sort(s->stamp_latencies, s->nstamp_latencies, sizeof(*s->stamp_latencies), tt_cmp_i64);
}

void
wl_summary_clear(struct wl_summary *s)
{
	free(s->touches);
	free(s->kinds);
	free(s->latencies);
	free(s->stamp_latencies);
	memset(s, 0, sizeof(*s));
}

uint64_t
wl_summary_kind(const struct wl_summary *s, const char *name)
{
	for (size_t i = 0; i < s->nkinds; i++) {
		if (strcmp(s->kinds[i].name, name) == 0)
			return s->kinds[i].n;
	}
	return 0;
}
