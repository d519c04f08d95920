// SPDX-License-Identifier: MIT
/* XI ownership chains, from the model's XI sequences and kernel links. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "model-xi-own.h"
#include "util-mem.h"
#include "util-stats.h"

/* What a chain needs of one client's sequence, kept after it ended. */
struct own_seq {
	int32_t src;		/* sourceid, or deviceid without one */
	uint32_t touchid;
	uint64_t serial;
	char client[32];
	uint32_t flags;		/* enum tt_xtouch_flags */
	enum tt_own_outcome outcome;
	int64_t begin_us, owned_us, resolved_us;
	size_t begin_line, owned_line, resolved_line;
};

struct own_link {
	int32_t src;
	uint32_t touchid;
	uint32_t device;
	uint64_t serial;
	int32_t slot, tracking_id;
	int64_t begin_us;
	size_t begin_line;
};

/* An AcceptTouch or RejectTouch the recorder sent. */
struct own_request {
	uint32_t touchid;
	char client[32];
	bool accept;
	int64_t time_us;
	size_t line;
};

/* An emulated ButtonPress a client got (a pointer grab or selection): it
 * owns the touch that emulates the pointer from then on, found by the
 * server time, which an emulated event shares with its TouchBegin. */
struct own_press {
	int32_t src;
	uint32_t server_time;
	char client[32];
	int64_t time_us;
	size_t line;
	int64_t decided_us;	/* -1 until its accept or reject */
	size_t decided_line;
	bool accept;
	bool released;
	bool found;		/* touchid is the touch it emulates */
	uint32_t touchid;
};

/* A TouchBegin (any client, raw too), to find the touch of a press. */
struct own_begin {
	int32_t src;
	uint32_t touchid;
	uint32_t server_time;
	bool emulating;
};

#define OWN_SELECTORS 8u	/* clients seen with TouchOwnership */

/* A TouchOwnership's line, until its sequence ends. */
struct own_line {
	uint64_t serial;
	size_t line;
};

struct tt_xi_own {
	struct own_seq *seqs;
	size_t nseqs, capseqs;
	struct own_link *links;
	size_t nlinks, caplinks;
	struct own_request *requests;
	size_t nrequests, caprequests;
	struct own_line *lines;
	size_t nlines, caplines;
	struct own_press *presses;
	size_t npresses, cappresses;
	struct own_begin *begins;
	size_t nbegins, capbegins;
	char selectors[OWN_SELECTORS][32];
	size_t nselectors;
	struct tt_xi_chain *chains;
	size_t nchains;
};

struct tt_xi_own *
tt_xi_own_new(void)
{
	return tt_zalloc(sizeof(struct tt_xi_own));
}

void
tt_xi_own_free(struct tt_xi_own *o)
{
	if (!o)
		return;
	free(o->seqs);
	free(o->links);
	free(o->lines);
	free(o->requests);
	free(o->presses);
	free(o->begins);
	free(o->chains);
	free(o);
}

void
tt_xi_own_ownership(struct tt_xi_own *o, const struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	/* Only the first TouchOwnership counts, as t->owned_us does. */
	if (ev->evtype != XI_TouchOwnership || t->owned_us != ev->time_us)
		return;
	o->lines = tt_grow(o->lines, o->nlines, &o->caplines, sizeof(*o->lines));
	o->lines[o->nlines++] = (struct own_line){ t->serial, line };
}

static size_t
take_owned_line(struct tt_xi_own *o, uint64_t serial)
{
	for (size_t i = 0; i < o->nlines; i++) {
		if (o->lines[i].serial == serial) {
			size_t line = o->lines[i].line;
			o->lines[i] = o->lines[--o->nlines];
			return line;
		}
	}
	return 0;
}

void
tt_xi_own_xend(struct tt_xi_own *o, const struct tt_xtouch *t)
{
	size_t owned_line = take_owned_line(o, t->serial);

	o->seqs = tt_grow(o->seqs, o->nseqs, &o->capseqs, sizeof(*o->seqs));
	struct own_seq *s = &o->seqs[o->nseqs++];
	*s = (struct own_seq){
		.src = t->sourceid ? t->sourceid : t->deviceid,
		.touchid = t->touchid,
		.serial = t->serial,
		.flags = t->flags,
		.outcome = t->outcome,
		.begin_us = t->begin_us,
		.owned_us = (t->flags & TT_XTOUCH_OWNED) ? t->owned_us : -1,
		.resolved_us = t->resolved_us,
		.begin_line = t->begin_line,
		.owned_line = owned_line,
		.resolved_line = t->resolved_line,
	};
	snprintf(s->client, sizeof(s->client), "%s", t->client);
}

void
tt_xi_own_kend(struct tt_xi_own *o, const struct tt_ktouch *k)
{
	if (k->link != TT_LINK_LINKED)
		return;
	o->links = tt_grow(o->links, o->nlinks, &o->caplinks, sizeof(*o->links));
	o->links[o->nlinks++] = (struct own_link){
		.src = k->xi_deviceid,
		.touchid = k->xi_touchid,
		.device = k->device,
		.serial = k->serial,
		.slot = k->slot,
		.tracking_id = k->tracking_id,
		.begin_us = k->begin_us,
		.begin_line = k->begin_line,
	};
}

static void
add_request(struct tt_xi_own *o, const struct tt_xi_event *ev, size_t line)
{
	o->requests = tt_grow(o->requests, o->nrequests, &o->caprequests, sizeof(*o->requests));
	struct own_request *r = &o->requests[o->nrequests++];
	*r = (struct own_request){
		.touchid = ev->touchid,
		.accept = ev->evtype == TT_XI_REQ_ACCEPT,
		.time_us = ev->time_us,
		.line = line,
	};
	snprintf(r->client, sizeof(r->client), "%s", ev->client ? ev->client : "");
}

static const char *
client_of(const struct tt_xi_event *ev)
{
	return ev->client ? ev->client : "";
}

/* A client that selected TouchOwnership: its TouchBegin alone does not
 * make it the owner. */
static void
add_selector(struct tt_xi_own *o, const char *client)
{
	for (size_t i = 0; i < o->nselectors; i++)
		if (strcmp(o->selectors[i], client) == 0)
			return;
	if (o->nselectors < OWN_SELECTORS)
		snprintf(o->selectors[o->nselectors++], sizeof(o->selectors[0]), "%s", client);
}

static bool
selects_ownership(const struct tt_xi_own *o, const char *client)
{
	/* The recorder's window and observer select it (timeline.md). */
	if (strcmp(client, "window") == 0 || strcmp(client, "observer") == 0)
		return true;
	for (size_t i = 0; i < o->nselectors; i++)
		if (strcmp(o->selectors[i], client) == 0)
			return true;
	return false;
}

static void
add_begin(struct tt_xi_own *o, const struct tt_xi_event *ev)
{
	o->begins = tt_grow(o->begins, o->nbegins, &o->capbegins, sizeof(*o->begins));
	o->begins[o->nbegins++] = (struct own_begin){
		.src = ev->sourceid ? ev->sourceid : ev->deviceid,
		.touchid = ev->detail,
		.server_time = ev->server_time,
		.emulating = ev->flags & XITouchEmulatingPointer,
	};
}

/* The client's press still waiting for its decision. */
static struct own_press *
open_press(struct tt_xi_own *o, const char *client, int32_t src)
{
	for (size_t i = o->npresses; i-- > 0;) {
		struct own_press *p = &o->presses[i];
		if (strcmp(p->client, client) != 0 || (src && p->src != src))
			continue;
		return p->released ? NULL : p;
	}
	return NULL;
}

static void
decide_press(struct own_press *p, bool accept, const struct tt_xi_event *ev, size_t line)
{
	if (!p || p->decided_us >= 0)
		return;
	p->accept = accept;
	p->decided_us = ev->time_us;
	p->decided_line = line;
}

/* The pointer events emulated from a touch. The server accepts the touch
 * for a pointer listener once it delivered one event past the ButtonPress
 * (Xorg; XI 2.2 says at once for an async grab); a replayed press (a sync
 * grab's AllowEvents(XIReplayDevice)) rejects it. */
static void
pointer_event(struct tt_xi_own *o, const struct tt_xi_event *ev, size_t line)
{
	int32_t src = ev->sourceid ? ev->sourceid : ev->deviceid;
	struct own_press *p;

	if (ev->evtype == TT_XI_REQ_ALLOW_EVENTS) {
		if (ev->detail == XIReplayDevice)
			decide_press(open_press(o, client_of(ev), 0), false, ev, line);
		return;
	}
	if (!(ev->flags & XIPointerEmulated))
		return;
	if (ev->evtype != XI_ButtonPress || ev->detail != 1) {
		p = open_press(o, client_of(ev), src);
		decide_press(p, true, ev, line);
		if (p && ev->evtype == XI_ButtonRelease && ev->detail == 1)
			p->released = true;
		return;
	}
	o->presses = tt_grow(o->presses, o->npresses, &o->cappresses, sizeof(*o->presses));
	o->presses[o->npresses++] = (struct own_press){
		.src = src, .server_time = ev->server_time, .time_us = ev->time_us, .line = line, .decided_us = -1,
	};
	snprintf(o->presses[o->npresses - 1].client, sizeof(o->presses[0].client), "%s", client_of(ev));
}

void
tt_xi_own_event(struct tt_xi_own *o, const struct tt_xi_event *ev, size_t line)
{
	switch (ev->evtype) {
	case TT_XI_REQ_ACCEPT:
	case TT_XI_REQ_REJECT:
		add_request(o, ev, line);
		break;
	case XI_TouchOwnership:
		add_selector(o, client_of(ev));
		break;
	case XI_TouchBegin:
	case XI_RawTouchBegin:
		add_begin(o, ev);
		break;
	case XI_ButtonPress:
	case XI_ButtonRelease:
	case XI_Motion:
	case TT_XI_REQ_ALLOW_EVENTS:
		pointer_event(o, ev, line);
		break;
	default:
		break;
	}
}

/* ---- building the chains ---- */

static int
cmp_key(int32_t asrc, uint32_t atouch, int32_t bsrc, uint32_t btouch)
{
	if (atouch != btouch)
		return atouch < btouch ? -1 : 1;
	return asrc < bsrc ? -1 : asrc > bsrc;
}

static int
cmp_seq(const void *a, const void *b)
{
	const struct own_seq *x = a, *y = b;
	int c = cmp_key(x->src, x->touchid, y->src, y->touchid);

	if (c)
		return c;
	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

static int
cmp_link(const void *a, const void *b)
{
	const struct own_link *x = a, *y = b;

	return cmp_key(x->src, x->touchid, y->src, y->touchid);
}

static int
cmp_chain(const void *a, const void *b)
{
	const struct tt_xi_chain *x = a, *y = b;

	if (x->base_line != y->base_line)
		return x->base_line < y->base_line ? -1 : 1;
	return cmp_key(x->sourceid, x->touchid, y->sourceid, y->touchid);
}

static const struct own_link *
find_link(const struct tt_xi_own *o, int32_t src, uint32_t touchid)
{
	struct own_link key = { .src = src, .touchid = touchid };

	if (!o->nlinks)
		return NULL;
	return bsearch(&key, o->links, o->nlinks, sizeof(*o->links), cmp_link);
}

static int
cmp_request(const void *a, const void *b)
{
	const struct own_request *x = a, *y = b;

	if (x->touchid != y->touchid)
		return x->touchid < y->touchid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* A decision the model did not see, its sequence having ended: the
 * client's first request for the touch after its TouchEnd. */
static void
late_decision(const struct tt_xi_own *o, struct own_seq *s)
{
	size_t lo = 0, hi = o->nrequests;

	if (s->outcome == TT_OWN_ACCEPTED || s->outcome == TT_OWN_REJECTED || (s->flags & TT_XTOUCH_RAW))
		return;
	while (lo < hi) {	/* the first request of the touch */
		size_t mid = (lo + hi) / 2;
		if (o->requests[mid].touchid < s->touchid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < o->nrequests && o->requests[i].touchid == s->touchid; i++) {
		const struct own_request *r = &o->requests[i];
		if (strcmp(r->client, s->client) != 0 || r->line < s->begin_line)
			continue;
		s->outcome = r->accept ? TT_OWN_ACCEPTED : TT_OWN_REJECTED;
		s->resolved_us = r->time_us;
		s->resolved_line = r->line;
		return;
	}
}

static bool
decided(const struct own_seq *s)
{
	return s->outcome == TT_OWN_ACCEPTED || s->outcome == TT_OWN_REJECTED;
}

/* A sequence that owned the touch at some point: it got TouchOwnership,
 * or it accepted or rejected (a grab that did not select TouchOwnership
 * learns nothing of it, but decides all the same). */
static bool
in_chain(const struct own_seq *s)
{
	return !(s->flags & TT_XTOUCH_RAW) && ((s->flags & TT_XTOUCH_OWNED) || decided(s));
}

/* @pending: a client of the touch saw XITouchPendingEnd: the finger
 * lifted while ownership was still undecided. */
static enum tt_xi_decision
decision_of(const struct own_seq *s, bool pending)
{
	if (s->outcome == TT_OWN_ACCEPTED)
		return TT_XI_DECIDED_ACCEPT;
	if (s->outcome == TT_OWN_REJECTED)
		return TT_XI_DECIDED_REJECT;
	if (pending || (s->flags & (TT_XTOUCH_PENDING_END | TT_XTOUCH_ACTIVE_AT_END)))
		return TT_XI_DECIDED_PENDING_END;
	return TT_XI_DECIDED_NONE;
}

static enum tt_xi_order
order_after(const struct tt_xi_stage *prev, const struct tt_xi_stage *st)
{
	if (prev->decision == TT_XI_DECIDED_ACCEPT)
		return TT_XI_ORDER_AFTER_ACCEPT;
	if (prev->decision != TT_XI_DECIDED_REJECT)
		return TT_XI_ORDER_UNDECIDED;
	if (st->owned_us < prev->decided_us)
		return TT_XI_ORDER_BEFORE_REJECT;
	return TT_XI_ORDER_OK;
}

static void
add_stage(struct tt_xi_chain *c, const struct own_seq *s, int64_t owned_us, size_t owned_line,
	  enum tt_xi_owned_by by, bool pending)
{
	struct tt_xi_stage *st = &c->stages[c->nstages];

	snprintf(st->client, sizeof(st->client), "%s", s->client);
	st->decision = decision_of(s, pending);
	st->owned_us = owned_us;
	st->owned_line = owned_line;
	st->owned_by = by;
	st->decided_us = decided(s) ? s->resolved_us : -1;
	st->decided_line = decided(s) ? s->resolved_line : 0;
	st->delay_us = owned_us - c->base_us;
	/* An early decision cost the chain nothing. */
	st->decision_us = st->decided_us < 0 ? -1 : st->decided_us > owned_us ? st->decided_us - owned_us : 0;
	st->order = c->nstages ? order_after(&c->stages[c->nstages - 1], st) : TT_XI_ORDER_OK;
	c->nstages++;
}

/* When @s would own the touch as the next stage, and whether only after
 * every client with a TouchOwnership (@late): a grab that decided before
 * it could own the touch (XI 2.2 lets a grab accept or reject early; an
 * early accept takes effect once every earlier grab rejected), or, for
 * the first stage, one that accepted while others still owned the touch
 * after it. */
static int64_t
stage_time(const struct own_seq *s, const struct tt_xi_stage *last, bool others, size_t *line, bool *late)
{
	*late = false;
	if (s->flags & TT_XTOUCH_OWNED) {
		*line = s->owned_line ? s->owned_line : s->begin_line;
		return s->owned_us;
	}
	if (last && last->decided_us >= 0) {
		*late = decided(s) && s->resolved_us < last->decided_us;
		*line = last->decided_line;
		return last->decided_us;
	}
	*late = !last && s->outcome == TT_OWN_ACCEPTED && others;
	*line = s->begin_line;
	return s->begin_us;
}

/* The server's listener order, where the recorder's client names say it
 * (timeline.md): "grab" or "grab1", "grab2"... outermost first, then the
 * window, then the observer on the root window; -1 for other names. The
 * receive times of different clients' events can disagree with that order
 * by a fraction of a millisecond (each client has its own connection), and
 * early decisions make several clients decide at once. */
static int
name_rank(const char *client)
{
	char *end;
	long n;

	if (strcmp(client, "grab") == 0)
		return 1;
	if (strcmp(client, "window") == 0)
		return 1000;
	if (strcmp(client, "observer") == 0)
		return 1001;
	if (strncmp(client, "grab", 4) != 0 || !client[4])
		return -1;
	n = strtol(client + 4, &end, 10);
	return *end || n < 1 || n > 999 ? -1 : (int)n;
}

/* The candidate of lowest name rank, when every candidate has one. */
static const struct own_seq *
by_name(const struct own_seq *g, size_t n, const bool *used)
{
	const struct own_seq *best = NULL;
	int best_rank = 0;

	for (size_t i = 0; i < n; i++) {
		if (used[i] || !in_chain(&g[i]))
			continue;
		int rank = name_rank(g[i].client);
		if (rank < 0)
			return NULL;
		if (!best || rank < best_rank) {
			best = &g[i];
			best_rank = rank;
		}
	}
	return best;
}

/* The next stage: by the listener order the names give, else the client
 * whose TouchOwnership came first, or one that decided without
 * TouchOwnership, which owned it from its TouchBegin when it is the first
 * and else from the previous owner's decision. */
static const struct own_seq *
next_stage(const struct own_seq *g, size_t n, const bool *used, const struct tt_xi_chain *c,
	   int64_t *owned_us, size_t *owned_line)
{
	const struct tt_xi_stage *last = c->nstages ? &c->stages[c->nstages - 1] : NULL;
	const struct own_seq *best = NULL;
	int64_t best_us = 0;
	size_t best_line = 0, ncand = 0;
	bool best_late = false;

	if ((best = by_name(g, n, used))) {
		*owned_us = stage_time(best, last, false, owned_line, &best_late);
		return best;
	}
	for (size_t i = 0; i < n; i++)
		ncand += !used[i] && in_chain(&g[i]);
	for (size_t i = 0; i < n; i++) {
		const struct own_seq *s = &g[i];
		size_t line;
		bool late;
		if (used[i] || !in_chain(s))
			continue;
		int64_t t = stage_time(s, last, ncand > 1, &line, &late);
		/* Ties: the undetermined one, which is in the first stage
		 * or took it over at that very decision. */
		if (!best || (best_late && !late) ||
		    (late == best_late && (t < best_us || (t == best_us && !(s->flags & TT_XTOUCH_OWNED))))) {
			best = s;
			best_us = t;
			best_line = line;
			best_late = late;
		}
	}
	*owned_us = best_us;
	*owned_line = best_line;
	return best;
}

/* No client owned or decided anything: the one that got the touch is its
 * owner from the start (a window without any grab above it), unless it
 * selected TouchOwnership: then its TouchBegin came as a listener's, and
 * without a TouchOwnership no record says who owned the touch. */
static const struct own_seq *
sole_owner(const struct tt_xi_own *o, const struct own_seq *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct own_seq *s = &g[i];
		if (!(s->flags & TT_XTOUCH_RAW) && s->outcome != TT_OWN_LOST && s->outcome != TT_OWN_ENDED_UNOWNED &&
		    !selects_ownership(o, s->client))
			return s;	/* the earliest: sorted by serial */
	}
	return NULL;
}

static void
chain_base(const struct tt_xi_own *o, struct tt_xi_chain *c, const struct own_seq *g, size_t n)
{
	const struct own_link *l = find_link(o, g[0].src, g[0].touchid);

	c->sourceid = g[0].src;
	c->touchid = g[0].touchid;
	c->slot = c->tracking_id = -1;
	if (l) {
		c->kernel = true;
		c->device = l->device;
		c->kernel_serial = l->serial;
		c->slot = l->slot;
		c->tracking_id = l->tracking_id;
		c->base_us = l->begin_us;
		c->base_line = l->begin_line;
		return;
	}
	c->base_us = g[0].begin_us;
	c->base_line = g[0].begin_line;
	for (size_t i = 1; i < n; i++) {
		if (g[i].begin_us < c->base_us) {
			c->base_us = g[i].begin_us;
			c->base_line = g[i].begin_line;
		}
	}
}

static bool
more_stages(const struct own_seq *g, size_t n, const bool *used)
{
	for (size_t i = 0; i < n; i++)
		if (!used[i] && in_chain(&g[i]))
			return true;
	return false;
}

/* ---- the pointer listener's stage ---- */

static int
cmp_press(const void *a, const void *b)
{
	const struct own_press *x = a, *y = b;

	if (x->found != y->found)
		return x->found ? -1 : 1;
	return cmp_key(x->src, x->touchid, y->src, y->touchid);
}

/* The touch a press was emulated from: the TouchBegin of its source with
 * its server time, the one flagged emulating the pointer where several
 * began in that millisecond. */
static void
find_press_touches(struct tt_xi_own *o)
{
	for (size_t i = 0; i < o->npresses; i++) {
		struct own_press *p = &o->presses[i];
		for (size_t k = 0; k < o->nbegins; k++) {
			const struct own_begin *b = &o->begins[k];
			if (b->src != p->src || b->server_time != p->server_time || (p->found && !b->emulating))
				continue;
			p->touchid = b->touchid;
			p->found = true;
			if (b->emulating)
				break;
		}
	}
	tt_sort(o->presses, o->npresses, sizeof(*o->presses), cmp_press);
}

static const struct own_press *
find_press(const struct tt_xi_own *o, int32_t src, uint32_t touchid)
{
	struct own_press key = { .src = src, .touchid = touchid, .found = true };

	if (!o->npresses)
		return NULL;
	return bsearch(&key, o->presses, o->npresses, sizeof(*o->presses), cmp_press);
}

/* The pointer client owns the touch from its ButtonPress, after the
 * stages that owned it earlier (touch grabs that rejected it); its
 * accept ends the chain, so nothing comes after it but what broke the
 * order. */
static void
add_pointer_stage(struct tt_xi_chain *c, const struct own_press *p)
{
	size_t k = 0;

	if (c->nstages == TT_XI_CHAIN_MAX)
		return;
	while (k < c->nstages && c->stages[k].owned_us <= p->time_us)
		k++;
	memmove(&c->stages[k + 1], &c->stages[k], (c->nstages - k) * sizeof(c->stages[0]));
	c->nstages++;
	struct tt_xi_stage *st = &c->stages[k];
	*st = (struct tt_xi_stage){
		.decision = p->decided_us < 0 ? TT_XI_DECIDED_NONE : p->accept ? TT_XI_DECIDED_ACCEPT :
			TT_XI_DECIDED_REJECT,
		.owned_us = p->time_us,
		.owned_by = TT_XI_OWNED_BY_BUTTON_PRESS,
		.owned_line = p->line,
		.decided_us = p->decided_us,
		.decided_line = p->decided_line,
		.delay_us = p->time_us - c->base_us,
		.decision_us = p->decided_us < 0 ? -1 : p->decided_us - p->time_us,
	};
	snprintf(st->client, sizeof(st->client), "%s", p->client);
	for (size_t i = k ? k : 1; i < c->nstages; i++)
		c->stages[i].order = order_after(&c->stages[i - 1], &c->stages[i]);
}

/* The chain of one touch from its sequences @g (sorted by serial). */
static void
build_chain(const struct tt_xi_own *o, struct tt_xi_chain *c, const struct own_seq *g, size_t n)
{
	_cleanup_free_ bool *used = tt_zalloc(n * sizeof(*used));
	const struct own_seq *s;
	const struct own_press *p;
	int64_t owned_us;
	size_t owned_line;
	bool pending = false;

	memset(c, 0, sizeof(*c));
	chain_base(o, c, g, n);
	for (size_t i = 0; i < n; i++)
		pending |= (g[i].flags & (TT_XTOUCH_PENDING_END | TT_XTOUCH_RAW)) == TT_XTOUCH_PENDING_END;
	while (c->nstages < TT_XI_CHAIN_MAX && (s = next_stage(g, n, used, c, &owned_us, &owned_line))) {
		enum tt_xi_owned_by by = (s->flags & TT_XTOUCH_OWNED) ? TT_XI_OWNED_BY_OWNERSHIP :
					 c->nstages ? TT_XI_OWNED_BY_PREVIOUS : TT_XI_OWNED_BY_BEGIN;
		used[s - g] = true;
		add_stage(c, s, owned_us, owned_line, by, pending && !more_stages(g, n, used));
	}
	if ((p = find_press(o, c->sourceid, c->touchid)))
		add_pointer_stage(c, p);
	else if (!c->nstages && (s = sole_owner(o, g, n)))
		add_stage(c, s, s->begin_us, s->begin_line, TT_XI_OWNED_BY_BEGIN, pending);
}

void
tt_xi_own_finish(struct tt_xi_own *o)
{
	size_t ngroups = 0;

	if (o->chains)
		return;
	tt_sort(o->seqs, o->nseqs, sizeof(*o->seqs), cmp_seq);
	tt_sort(o->links, o->nlinks, sizeof(*o->links), cmp_link);
	tt_sort(o->requests, o->nrequests, sizeof(*o->requests), cmp_request);
	for (size_t i = 0; i < o->nseqs; i++)
		late_decision(o, &o->seqs[i]);
	find_press_touches(o);
	o->chains = tt_reallocarray(NULL, o->nseqs ? o->nseqs : 1, sizeof(*o->chains));
	for (size_t i = 0; i < o->nseqs;) {
		size_t j = i + 1;
		while (j < o->nseqs && !cmp_key(o->seqs[i].src, o->seqs[i].touchid, o->seqs[j].src, o->seqs[j].touchid))
			j++;
		struct tt_xi_chain *c = &o->chains[ngroups];
		build_chain(o, c, &o->seqs[i], j - i);
		if (c->nstages)	/* raw events only: no client got it */
			ngroups++;
		i = j;
	}
	o->nchains = ngroups;
	tt_sort(o->chains, o->nchains, sizeof(*o->chains), cmp_chain);
}

const struct tt_xi_chain *
tt_xi_own_chains(const struct tt_xi_own *o, size_t *n)
{
	*n = o->nchains;
	return o->chains;
}

/* ---- names ---- */

const char *
tt_xi_decision_name(enum tt_xi_decision d)
{
	switch (d) {
	case TT_XI_DECIDED_NONE: return "none";
	case TT_XI_DECIDED_ACCEPT: return "accept";
	case TT_XI_DECIDED_REJECT: return "reject";
	case TT_XI_DECIDED_PENDING_END: return "pending-end";
	}
	return "?";
}

char
tt_xi_decision_letter(enum tt_xi_decision d)
{
	switch (d) {
	case TT_XI_DECIDED_NONE: return 'O';
	case TT_XI_DECIDED_ACCEPT: return 'A';
	case TT_XI_DECIDED_REJECT: return 'R';
	case TT_XI_DECIDED_PENDING_END: return 'P';
	}
	return '?';
}

const char *
tt_xi_order_name(enum tt_xi_order o)
{
	switch (o) {
	case TT_XI_ORDER_OK: return "ok";
	case TT_XI_ORDER_BEFORE_REJECT: return "owned-before-reject";
	case TT_XI_ORDER_AFTER_ACCEPT: return "owned-after-accept";
	case TT_XI_ORDER_UNDECIDED: return "owned-while-undecided";
	}
	return "?";
}

const char *
tt_xi_owned_by_name(enum tt_xi_owned_by b)
{
	switch (b) {
	case TT_XI_OWNED_BY_BEGIN: return "touch-begin";
	case TT_XI_OWNED_BY_OWNERSHIP: return "touch-ownership";
	case TT_XI_OWNED_BY_PREVIOUS: return "previous-decision";
	case TT_XI_OWNED_BY_BUTTON_PRESS: return "button-press";
	}
	return "?";
}

/* ---- per stage ---- */

/* By util-stats.h's rule, as analyze's other percentiles; -1 for none. */
static int64_t
rank(int64_t *v, size_t n, double q)
{
	if (!n)
		return -1;
	tt_sort(v, n, sizeof(*v), tt_cmp_i64);
	return tt_percentile(v, n, q);
}

static bool
stage_matches(const struct tt_xi_stage_stats *st, uint32_t position, const char *client)
{
	return st->position == position && strcmp(st->client, client) == 0;
}

/* The numbers of one stage, over every chain. */
static void
stage_numbers(const struct tt_xi_own *o, struct tt_xi_stage_stats *st)
{
	_cleanup_free_ int64_t *delays = tt_reallocarray(NULL, o->nchains + 1, sizeof(int64_t));
	_cleanup_free_ int64_t *decisions = tt_reallocarray(NULL, o->nchains + 1, sizeof(int64_t));
	size_t ndelays = 0;

	st->ndecisions = 0;
	for (size_t i = 0; i < o->nchains; i++) {
		const struct tt_xi_chain *c = &o->chains[i];
		if (c->nstages < st->position)
			continue;
		const struct tt_xi_stage *s = &c->stages[st->position - 1];
		if (strcmp(s->client, st->client) != 0)
			continue;
		delays[ndelays++] = s->delay_us;
		if (s->decision_us >= 0)
			decisions[st->ndecisions++] = s->decision_us;
		st->decisions[s->decision]++;
	}
	st->count = ndelays;
	st->median_delay_us = rank(delays, ndelays, 0.5);
	st->p95_delay_us = rank(delays, ndelays, 0.95);
	st->median_decision_us = rank(decisions, st->ndecisions, 0.5);
	st->p95_decision_us = rank(decisions, st->ndecisions, 0.95);
}

size_t
tt_xi_own_stage_stats(const struct tt_xi_own *o, struct tt_xi_stage_stats *out, size_t max)
{
	size_t n = 0;

	for (uint32_t pos = 1; pos <= TT_XI_CHAIN_MAX; pos++) {
		for (size_t i = 0; i < o->nchains; i++) {
			const struct tt_xi_chain *c = &o->chains[i];
			if (c->nstages < pos)
				continue;
			const char *client = c->stages[pos - 1].client;
			bool seen = false;
			for (size_t k = 0; k < n && k < max && !seen; k++)
				seen = stage_matches(&out[k], pos, client);
			if (seen)
				continue;
			if (n < max) {
				out[n] = (struct tt_xi_stage_stats){ .position = pos };
				snprintf(out[n].client, sizeof(out[n].client), "%s", client);
				stage_numbers(o, &out[n]);
			}
			n++;
		}
	}
	return n;
}

void
tt_xi_chain_format(const struct tt_xi_chain *c, bool utf8, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < c->nstages && len < size; i++) {
		const struct tt_xi_stage *st = &c->stages[i];
		int n = snprintf(buf + len, size - len, "%s%s %c", i ? (utf8 ? " \xe2\x86\x92 " : " -> ") : "", st->client,
				 tt_xi_decision_letter(st->decision));
		if (n > 0)
			len += (size_t)n;
		if (st->decided_us >= 0 && len < size) {
			/* An early decision takes effect when the client owns the touch. */
			int64_t t = st->decided_us > st->owned_us ? st->decided_us : st->owned_us;
			n = snprintf(buf + len, size - len, " +%.0f ms", (double)(t - c->base_us) / 1000.0);
			if (n > 0)
				len += (size_t)n;
		}
	}
}
