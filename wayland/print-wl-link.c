/* SPDX-License-Identifier: MIT */
/* print's link of the Wayland layer (print-wl.h). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "model-wl.h"
#include "stack.h"
#include "print-wl-link.h"
#include "print-wl.h"
#include "print/print-private.h"

/* The touches remembered, per client and id, after their up too (the
 * up is printed after the model has ended the touch). */
#define PW_TOUCHES 64

struct pw_touch {
	char client[32];
	int32_t id;
	bool used;
	enum tt_link_status link;
	uint32_t device;
	int32_t slot, tracking_id;
	int64_t latency_us;
};

struct print_wl_link {
	struct tt_stack *stack;	/* its Wayland layer links the touches */
	struct tt_wl_model *m;	/* the stack's */
	struct pw_touch touches[PW_TOUCHES];
	size_t next;
};

static struct pw_touch *
find(const struct print_wl_link *pw, const char *client, int32_t id)
{
	for (size_t i = 0; i < PW_TOUCHES; i++) {
		const struct pw_touch *p = &pw->touches[i];
		if (p->used && p->id == id && strcmp(p->client, client) == 0)
			return (struct pw_touch *)p;
	}
	return NULL;
}

static void
fill(struct pw_touch *p, const struct tt_wl_touch *t)
{
	p->link = t->link;
	p->device = t->kernel_device;
	p->slot = t->kernel_slot;
	p->tracking_id = t->kernel_tracking_id;
	p->latency_us = t->latency_us;
}

static void
note(struct print_wl_link *pw, const struct tt_wl_touch *t)
{
	struct pw_touch *p = find(pw, t->client, t->id);

	if (!p) {
		p = &pw->touches[pw->next++ % PW_TOUCHES];
		p->used = true;
		p->id = t->id;
		snprintf(p->client, sizeof(p->client), "%s", t->client);
	}
	fill(p, t);
}

static void
on_begin(void *data, struct tt_wl_touch *t)
{
	struct print_wl_link *pw = data;
	struct pw_touch *p = find(pw, t->client, t->id);

	/* A new down: what the id was before is gone. */
	if (p)
		p->link = TT_LINK_NONE;
	note(pw, t);
}

static void
on_update(void *data, struct tt_wl_touch *t, const struct tt_wl_event *ev, size_t line)
{
	(void)ev;
	(void)line;
	note(data, t);
}

static void
on_end(void *data, struct tt_wl_touch *t)
{
	note(data, t);
}

struct print_wl_link *
print_wl_link_new(void)
{
	static const struct tt_wl_callbacks cb = { on_begin, on_update, on_end };
	struct print_wl_link *pw = tt_zalloc(sizeof(*pw));

	pw->stack = tt_stack_new(NULL, NULL, NULL);
	tt_stack_subscribe_wl(pw->stack, &cb, pw);
	pw->m = tt_stack_wl(pw->stack);
	return pw;
}

void
print_wl_link_free(struct print_wl_link *pw)
{
	if (!pw)
		return;
	tt_stack_free(pw->stack);
	free(pw);
}

void
print_wl_link_feed(struct print_wl_link *pw, const struct tt_record *rec)
{
	tt_stack_feed(pw->stack, rec);
}

void
print_wl_link_kernel(const struct print_wl_link *pw, const struct tt_wl_event *ev, FILE *out)
{
	const struct tt_wl_touch *t;
	const struct pw_touch *p;
	struct pw_touch now;
	int32_t id;

	if (!tt_wl_event_touch_id(ev, &id))
		return;
	t = tt_wl_model_touch(pw->m, ev->client, id);
	p = find(pw, ev->client ? ev->client : "", id);

	/* An open touch has the newest link (its kernel frame may have come
	 * after its down). */
	if (t) {
		fill(&now, t);
		p = &now;
	}
	if (p && p->link == TT_LINK_LINKED)
		fprintf(out, " <- dev%" PRIu32 " s%" PRId32 " #%" PRId32 " +%.1fms", p->device, p->slot,
			p->tracking_id, p->latency_us / 1000.0);
}

/* A wl record's line, and the kernel touch its touch came from. */
void
print_wl_record(struct printer *p, const struct tt_record *rec)
{
	print_wl_event(p->out, rec->wl_event);
	print_wl_link_kernel(p->wl, rec->wl_event, p->out);
	fputc('\n', p->out);
}
