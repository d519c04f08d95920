/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "evbuf.h"
#include "evnames.h"
#include "util-mem.h"

void
rp_evbuf_push(struct rp_evbuf *b, unsigned int type, unsigned int code, int value)
{
	b->ev = tt_grow(b->ev, b->n, &b->cap, sizeof(*b->ev));
	memset(&b->ev[b->n], 0, sizeof(b->ev[b->n]));
	b->ev[b->n].type = (__u16)type;
	b->ev[b->n].code = (__u16)code;
	b->ev[b->n].value = value;
	b->n++;
}

void
rp_evbuf_reset(struct rp_evbuf *b)
{
	b->n = 0;
}

void
rp_evbuf_release(struct rp_evbuf *b)
{
	free(b->ev);
	*b = (struct rp_evbuf){ 0 };
}

void
rp_print_events(FILE *out, const struct input_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char buf[32];
		fprintf(out, " %s %d", tt_code_label(buf, sizeof(buf), ev[i].type, ev[i].code),
			ev[i].value);
	}
}
