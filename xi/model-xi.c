/* SPDX-License-Identifier: MIT */
/* The touch-sequence model's XI side: XI touch sequences and their
 * ownership (accept, reject), fed from the XI records. See model.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "model-private.h"

/* ---- XI touches ---- */

static struct xt *
find_xt(struct tt_model *m, const struct tt_xi_event *ev, uint32_t touchid, bool raw)
{
	const char *client = ev->client ? ev->client : "";

	for (size_t i = 0; i < m->nxt; i++) {
		struct xt *x = m->xt[i];
		if (x->pub.touchid != touchid || !!(x->pub.flags & TT_XTOUCH_RAW) != raw)
			continue;
		if (strncmp(x->pub.client, client, sizeof(x->pub.client) - 1) != 0)
			continue;
		if (x->pub.deviceid == ev->deviceid || (ev->sourceid && x->pub.sourceid == ev->sourceid))
			return x;
	}
	return NULL;
}

static void
remove_xt(struct tt_model *m, struct xt *x)
{
	for (size_t i = 0; i < m->nxt; i++) {
		if (m->xt[i] == x) {
			m->xt[i] = m->xt[--m->nxt];
			break;
		}
	}
	free(x);
}

void
tt_model_xt_end(struct tt_model *m, struct xt *x, int64_t t, size_t line)
{
	struct tt_xtouch *p = &x->pub;

	p->end_us = t;
	p->end_line = line;
	if (p->flags & TT_XTOUCH_RAW) {
		p->outcome = TT_OWN_NONE;
	} else if (p->outcome == TT_OWN_ACCEPTED || p->outcome == TT_OWN_REJECTED) {
		/* stays */
	} else if (p->flags & TT_XTOUCH_ACTIVE_AT_END) {
		if (p->flags & TT_XTOUCH_OWNED)
			p->outcome = TT_OWN_OWNED;
		else if (x->own_involved || x->accepted_elsewhere || (p->flags & TT_XTOUCH_PENDING_END))
			p->outcome = TT_OWN_UNRESOLVED;
		else
			p->outcome = TT_OWN_NONE;
	} else if (p->flags & TT_XTOUCH_OWNED) {
		p->outcome = TT_OWN_OWNED;
	} else if (x->accepted_elsewhere) {
		p->outcome = TT_OWN_LOST;
		if (p->resolved_us < 0) {
			p->resolved_us = t;
			p->resolved_line = line;
		}
	} else if (x->own_involved) {
		p->outcome = TT_OWN_ENDED_UNOWNED;
	} else {
		p->outcome = TT_OWN_NONE;
	}
	if (m->cb.xi_end)
		m->cb.xi_end(m->data, p);
	remove_xt(m, x);
}

static void
xi_position(struct tt_xtouch *p, const struct tt_xi_event *ev)
{
	p->root_x = ev->root_x;
	p->root_y = ev->root_y;
}

/* A sequence that begins after another client accepted or rejected its
 * touch is in that ownership contest all the same. */
static void
involve_early(struct tt_model *m, struct xt *x)
{
	size_t n = m->nresolved < ARRAY_LENGTH(m->resolved) ? m->nresolved : ARRAY_LENGTH(m->resolved);

	for (size_t i = 0; i < n; i++) {
		const struct xi_resolution *r = &m->resolved[i];
		if (r->touchid != x->pub.touchid || strcmp(r->client, x->pub.client) == 0)
			continue;
		x->own_involved = true;
		if (r->accept)
			x->accepted_elsewhere = true;
		else
			x->rejected_elsewhere = true;
	}
}

static void
remember_resolution(struct tt_model *m, uint32_t touchid, bool accept, const char *client)
{
	struct xi_resolution *r = &m->resolved[m->nresolved++ % ARRAY_LENGTH(m->resolved)];

	r->touchid = touchid;
	r->accept = accept;
	snprintf(r->client, sizeof(r->client), "%s", client);
}

static void
xi_touch_event(struct tt_model *m, const struct tt_xi_event *ev, size_t line)
{
	bool raw = ev->evtype >= XI_RawTouchBegin && ev->evtype <= XI_RawTouchEnd;
	int kind = raw ? ev->evtype - XI_RawTouchBegin : ev->evtype - XI_TouchBegin;
	struct xt *x = find_xt(m, ev, ev->detail, raw);

	if (kind == 0) {
		if (x)	/* begins twice: the checker says so; start over */
			tt_model_xt_end(m, x, ev->time_us, line);
		x = tt_zalloc(sizeof(*x));
		struct tt_xtouch *p = &x->pub;
		p->serial = ++m->xserial;
		p->deviceid = ev->deviceid;
		p->sourceid = ev->sourceid;
		p->touchid = ev->detail;
		snprintf(p->client, sizeof(p->client), "%s", ev->client ? ev->client : "");
		p->flags = raw ? TT_XTOUCH_RAW : 0;
		if (ev->flags & XITouchEmulatingPointer)
			p->flags |= TT_XTOUCH_EMULATING_POINTER;
		p->begin_us = p->end_us = ev->time_us;
		p->begin_line = p->end_line = line;
		p->owned_us = -1;
		p->resolved_us = -1;
		xi_position(p, ev);
		p->begin_root_x = ev->root_x;
		p->begin_root_y = ev->root_y;
		m->xt = tt_grow(m->xt, m->nxt, &m->capxt, sizeof(*m->xt));
		m->xt[m->nxt++] = x;
		if (!raw)
			involve_early(m, x);
		if (m->cb.xi_begin)
			m->cb.xi_begin(m->data, p);
		tt_model_link_xi_touch(m, ev, line);
		return;
	}
	/* Before the check below: an update of a touch whose begin the
	 * recording lacks still carries the flags the link waits for. */
	if (kind == 1 && !raw)
		tt_model_link_xi_touch(m, ev, line);
	if (!x)
		return;	/* update or end without begin: the checker reports it */
	if (ev->flags & XITouchPendingEnd)
		x->pub.flags |= TT_XTOUCH_PENDING_END;
	if (ev->flags & XITouchEmulatingPointer)
		x->pub.flags |= TT_XTOUCH_EMULATING_POINTER;
	if (!raw)
		xi_position(&x->pub, ev);
	x->pub.end_us = ev->time_us;
	if (kind == 1) {
		x->pub.nupdates++;
		x->got_update = true;
		if (m->cb.xi_update)
			m->cb.xi_update(m->data, &x->pub, ev, line);
	} else {
		tt_model_xt_end(m, x, ev->time_us, line);
	}
}

/* Every active regular sequence of @touchid: ownership is now in play. */
static void
mark_involved(struct tt_model *m, uint32_t touchid, const char *accepted_by, const char *rejected_by)
{
	for (size_t i = 0; i < m->nxt; i++) {
		struct xt *x = m->xt[i];
		if (x->pub.touchid != touchid || (x->pub.flags & TT_XTOUCH_RAW))
			continue;
		x->own_involved = true;
		if (accepted_by && strcmp(x->pub.client, accepted_by) != 0)
			x->accepted_elsewhere = true;
		if (rejected_by && strcmp(x->pub.client, rejected_by) != 0)
			x->rejected_elsewhere = true;
	}
}

static void
xi_ownership_event(struct tt_model *m, const struct tt_xi_event *ev, size_t line)
{
	const char *client = ev->client ? ev->client : "";

	if (ev->evtype == XI_TouchOwnership) {
		mark_involved(m, ev->touchid, NULL, NULL);
		struct xt *x = find_xt(m, ev, ev->touchid, false);
		if (!x)
			return;
		if (x->got_update || x->rejected_elsewhere)
			x->pub.flags |= TT_XTOUCH_BEGAN_UNOWNED;
		x->pub.flags |= TT_XTOUCH_OWNED;
		if (x->pub.owned_us < 0)
			x->pub.owned_us = ev->time_us;
		x->pub.outcome = TT_OWN_OWNED;
		if (m->cb.xi_ownership)
			m->cb.xi_ownership(m->data, &x->pub, ev, line);
		return;
	}
	bool accept = ev->evtype == TT_XI_REQ_ACCEPT;
	mark_involved(m, ev->touchid, accept ? client : NULL, accept ? NULL : client);
	remember_resolution(m, ev->touchid, accept, client);
	struct xt *x = find_xt(m, ev, ev->touchid, false);
	if (!x) {
		/* Requests name the master or the slave: try any device. */
		for (size_t i = 0; i < m->nxt && !x; i++) {
			struct xt *c = m->xt[i];
			if (c->pub.touchid == ev->touchid && !(c->pub.flags & TT_XTOUCH_RAW) &&
			    strcmp(c->pub.client, client) == 0)
				x = c;
		}
	}
	if (!x)
		return;
	x->pub.outcome = accept ? TT_OWN_ACCEPTED : TT_OWN_REJECTED;
	x->pub.resolved_us = ev->time_us;
	x->pub.resolved_line = line;
	if (m->cb.xi_ownership)
		m->cb.xi_ownership(m->data, &x->pub, ev, line);
}

void
tt_model_feed_xi(struct tt_model *m, const struct tt_record *rec)
{
	const struct tt_xi_event *ev = rec->xi_event;

	tt_model_link_advance(m, ev->time_us);
	switch (ev->evtype) {
	case XI_TouchBegin: case XI_TouchUpdate: case XI_TouchEnd:
	case XI_RawTouchBegin: case XI_RawTouchUpdate: case XI_RawTouchEnd:
		xi_touch_event(m, ev, rec->line);
		break;
	case XI_TouchOwnership: case TT_XI_REQ_ACCEPT: case TT_XI_REQ_REJECT:
		xi_ownership_event(m, ev, rec->line);
		break;
	default:
		break;
	}
}
