/* SPDX-License-Identifier: MIT */
/* The shared pass: checker, model-based detectors and the numbers every
 * command prints. See detect.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "detect.h"
#include "detect-motion.h"
#include "evnames.h"
#include "model-xi-own.h"
#include "stack.h"
#include "util-mem.h"
#include "util-stats.h"

/* What the detectors keep of a device. */
struct det_dev {
	bool used;
	uint32_t id;
	const struct tt_device *dev;
	bool mismatch;		/* button/slot disagreement being reported */
	/* Type A flicker: the last two frames with contact content. */
	uint32_t cnt1, cnt2;
	size_t line1;
	int64_t t1;
	int nseen;
	uint64_t drop_gen;	/* bumped by every SYN_DROPPED and resync frame */
	struct tt_motion_dev motion;	/* jumps and stalls */
	/* What the frame checks ask of the device's codes, looked up once:
	 * BTN_TOUCH, and bit i for each tool_codes[i] it has. */
	bool has_btn_touch;
	uint8_t tools;
	/* Its touches' motion, indexed by slot: a slot holds one touch
	 * down at a time. A touch that ended but waits for its links
	 * (model.h) may see the next one of its slot begin first: the
	 * serial says whose the entry is. */
	struct det_touch *touches;
	size_t ntouches;
};

/* What the jump and stall detectors keep of a kernel touch. */
struct det_touch {
	uint64_t serial;	/* tt_ktouch.serial; 0: free */
	struct tt_motion_touch motion;
};

struct latencies {
	int64_t *v;
	size_t n, cap;
};

/* What the HID numbers keep of a HID device. */
struct det_hid {
	uint32_t id;
	struct latencies lat;
	int64_t last_us;
	bool have_last;
	uint32_t prev_active;
};

struct tt_detect {
	struct tt_detect_options opts;
	tt_diag_fn fn;
	void *diag_data;
	struct tt_checker *checker;
	struct tt_model *model;	/* the stack's: asked about the slot state */
	struct tt_xi_own *xi_own;	/* the ownership chains */
	struct det_dev devs[TT_MAX_DEVICES];
	size_t ndevs;
	struct det_hid *hids;
	size_t nhids;
	struct latencies all_lat;
	struct tt_stats stats;
};

/* ---- the numbers ---- */

int64_t
tt_stats_duration(const struct tt_stats *s)
{
	return s->have_time ? s->last_us - s->first_us : 0;
}

uint64_t
tt_stats_diag_total(const struct tt_stats *s)
{
	uint64_t n = 0;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		n += s->diags[c];
	return n;
}

const struct tt_stats_device *
tt_stats_device(const struct tt_stats *s, uint32_t id)
{
	for (size_t i = 0; i < s->ndevs; i++) {
		if (s->devs[i].id == id)
			return &s->devs[i];
	}
	return NULL;
}

const struct tt_stats_hid *
tt_stats_hid(const struct tt_stats *s, uint32_t id)
{
	for (size_t i = 0; i < s->nhids; i++) {
		if (s->hids[i].id == id)
			return &s->hids[i];
	}
	return NULL;
}

static struct tt_stats_device *
stats_dev(struct tt_detect *d, uint32_t id)
{
	return (struct tt_stats_device *)tt_stats_device(&d->stats, id);
}

static void
see_time(struct tt_stats *s, int64_t t)
{
	if (!s->have_time || t < s->first_us)
		s->first_us = t;
	if (!s->have_time || t > s->last_us)
		s->last_us = t;
	s->have_time = true;
}

static void
count_client(struct tt_stats *s, const char *client, bool raw)
{
	size_t k;

	for (k = 0; k < s->nclients; k++) {
		if (strcmp(s->clients[k].client, client) == 0)
			break;
	}
	if (k == s->nclients) {
		if (k == ARRAY_LENGTH(s->clients))
			return;
		snprintf(s->clients[k].client, sizeof(s->clients[k].client), "%s", client);
		s->nclients++;
	}
	if (raw)
		s->clients[k].raw++;
	else
		s->clients[k].touch++;
}

/* ---- the stream ---- */

static void
emit(struct tt_detect *d, struct tt_diag *diag)
{
	/* --device: what is about another evdev device is not shown. */
	if (d->opts.only_device >= 0 && diag->device >= 0 && diag->touchid < 0 &&
	    diag->device != d->opts.only_device)
		return;
	if ((unsigned)diag->check < TT_CHECK_COUNT)
		d->stats.diags[diag->check]++;
	if (d->fn)
		d->fn(d->diag_data, diag);
}

/* The checker sees a hid_device record before the kernel model does:
 * the model parses its descriptor then and keeps the parse for itself. */
static int
parse_with_model(void *data, const struct tt_hid_device *dev, const char **why)
{
	return tt_model_hid_parse(data, dev, why);
}

static void
on_check(void *data, const struct tt_diag *diag)
{
	struct tt_detect *d = data;
	struct tt_diag copy = *diag;

	emit(d, &copy);
}

static void
report(struct tt_detect *d, struct tt_diag *diag, const char *fmt, ...) _printf_(3, 4);

static void
report(struct tt_detect *d, struct tt_diag *diag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
	va_end(ap);
	emit(d, diag);
}

static struct tt_diag *
kdiag(struct tt_diag *diag, enum tt_check check, size_t line, int64_t t, const struct tt_ktouch *k)
{
	tt_diag_init(diag, check, line, t, k->device);
	diag->slot = k->slot;
	diag->tracking_id = k->tracking_id;
	return diag;
}

static struct tt_diag *
xdiag(struct tt_diag *diag, enum tt_check check, const struct tt_xtouch *x)
{
	tt_diag_init(diag, check, x->begin_line, x->begin_us, x->deviceid);
	diag->touchid = x->touchid;
	snprintf(diag->client, sizeof(diag->client), "%s", x->client);
	return diag;
}

static struct det_dev *
find_dev(struct tt_detect *d, uint32_t id)
{
	for (size_t i = 0; i < d->ndevs; i++) {
		if (d->devs[i].used && d->devs[i].id == id)
			return &d->devs[i];
	}
	return NULL;
}

/* ---- kernel touches ---- */

static const unsigned int tool_codes[] = {
	BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
};

/* @t's entry in its device's table: NULL when it has none (another
 * touch of its slot began since, or the device was declared again). */
static struct det_touch *
touch_of(struct det_dev *dd, const struct tt_ktouch *t)
{
	if (!dd || t->slot < 0 || (size_t)t->slot >= dd->ntouches)
		return NULL;
	struct det_touch *dt = &dd->touches[t->slot];
	return dt->serial == t->serial ? dt : NULL;
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct tt_detect *d = data;
	struct det_dev *dd = find_dev(d, t->device);
	struct tt_stats_device *sd = stats_dev(d, t->device);

	if (sd)
		sd->touch_sequences++;
	if (!dd || t->slot < 0)
		return;
	if ((size_t)t->slot >= dd->ntouches) {
		size_t n = (size_t)t->slot + 1;
		dd->touches = tt_reallocarray(dd->touches, n, sizeof(*dd->touches));
		memset(&dd->touches[dd->ntouches], 0, (n - dd->ntouches) * sizeof(*dd->touches));
		dd->ntouches = n;
	}
	struct det_touch *dt = &dd->touches[t->slot];
	dt->serial = t->serial;
	tt_motion_touch_init(&dt->motion, t->values[TT_AXIS(ABS_MT_POSITION_X)],
			     t->values[TT_AXIS(ABS_MT_POSITION_Y)],
			     !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y))),
			     dd->drop_gen, t->begin_us);
}

/* Jumps and stalls (detect-motion.h) are judged between two positions
 * the device reported, with no events lost in between. */
static void
detect_motion(struct tt_detect *d, struct det_dev *dd, struct tt_ktouch *t, struct det_touch *dt,
	      const struct tt_kupdate *u)
{
	int32_t x = t->values[TT_AXIS(ABS_MT_POSITION_X)], y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	bool known = !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)));
	/* After a drop, positions are a guess until the slots settle. */
	bool comparable = dt->motion.drop_gen == dd->drop_gen && tt_model_settled(d->model, t->device);
	struct tt_motion_find found[4];
	size_t n = tt_motion_update(&dd->motion, &dt->motion, x, y, known, comparable, dd->drop_gen, u->line,
				    u->time_us, found, ARRAY_LENGTH(found));
	struct tt_diag diag;

	for (size_t i = 0; i < n; i++)
		report(d, kdiag(&diag, found[i].kind == TT_MOTION_STALL ? TT_CHECK_STALL : TT_CHECK_JUMP,
				found[i].line, found[i].time_us, t), "%s", found[i].message);
}

static void
on_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct tt_detect *d = data;
	struct det_dev *dd = find_dev(d, t->device);
	struct det_touch *dt = touch_of(dd, t);

	if (dt)
		detect_motion(d, dd, t, dt, u);
}

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct tt_detect *d = data;
	struct tt_diag diag;

	if (t->flags & TT_KTOUCH_ACTIVE_AT_END)
		report(d, kdiag(&diag, TT_CHECK_TOUCH_ACTIVE_AT_END, t->begin_line, t->begin_us, t),
		       "touch is still down at the end of the recording");
	if (t->link == TT_LINK_NOT_DELIVERED)
		report(d, kdiag(&diag, TT_CHECK_NOT_DELIVERED, t->begin_line, t->begin_us, t),
		       "the X server delivered no touch sequence for this touch");
	tt_xi_own_kend(d->xi_own, t);
	if (t->link == TT_LINK_LINKED) {
		d->stats.linked++;
		d->stats.latency_sum_us += t->xi_begin_us - t->begin_us;
	} else if (t->link == TT_LINK_NOT_DELIVERED) {
		d->stats.not_delivered++;
	}
	struct det_touch *dt = touch_of(find_dev(d, t->device), t);
	if (dt)
		dt->serial = 0;
}

/* ---- frames ---- */

/* BTN_TOOL_* against the touches down. Touchpads with fewer slots than
 * fingers report more fingers than slots: allowed when every slot is in
 * use. */
static bool
tools_disagree(const struct det_dev *s, const uint8_t *keys, uint32_t n, char *why, size_t size)
{
	const struct tt_device *dev = s->dev;
	uint32_t capacity = dev->mt_protocol == TT_MT_B ? dev->num_slots : UINT32_MAX;
	bool any_tool = s->tools != 0;

	for (unsigned int i = 0; any_tool && i < ARRAY_LENGTH(tool_codes); i++) {
		if (!(s->tools & (1u << i)) || !bit_is_set(keys, tool_codes[i]))
			continue;
		uint32_t fingers = i + 1;
		bool ok = fingers == n || (fingers > n && n >= capacity) ||
			  (i == ARRAY_LENGTH(tool_codes) - 1 && n > fingers);
		if (!ok)
			snprintf(why, size, "%s is set with %u touch%s down", tt_code_name(EV_KEY, tool_codes[i]), n,
				 n == 1 ? "" : "es");
		return !ok;
	}
	if (any_tool && n > 0 && !bit_is_set(keys, BTN_TOOL_PEN) && !bit_is_set(keys, BTN_TOOL_RUBBER)) {
		snprintf(why, size, "no BTN_TOOL_* is set with %u touch%s down", n, n == 1 ? "" : "es");
		return true;
	}
	return false;
}

static bool
buttons_disagree(const struct det_dev *s, const uint8_t *keys, uint32_t n, char *why, size_t size)
{
	if (s->has_btn_touch && bit_is_set(keys, BTN_TOUCH) != (n > 0)) {
		snprintf(why, size, "BTN_TOUCH is %d with %u touch%s down", bit_is_set(keys, BTN_TOUCH) ? 1 : 0, n,
			 n == 1 ? "" : "es");
		return true;
	}
	return tools_disagree(s, keys, n, why, size);
}

static bool
has_contact_content(const struct tt_frame *f)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if ((e->type == EV_SYN && e->code == SYN_MT_REPORT) ||
		    (e->type == EV_ABS && e->code >= TT_MT_FIRST && e->code <= TT_MT_LAST))
			return true;
	}
	return false;
}

static void
detect_flicker(struct tt_detect *d, struct det_dev *s, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct tt_diag diag;

	if (s->dev->mt_protocol != TT_MT_A || !has_contact_content(f))
		return;
	if (s->nseen >= 2 && s->cnt2 == n && s->cnt1 != n) {
		tt_diag_init(&diag, TT_CHECK_CONTACT_FLICKER, s->line1, s->t1, s->id);
		report(d, &diag, "Type A contact count went %u -> %u -> %u in consecutive frames",
		       s->cnt2, s->cnt1, n);
	}
	s->cnt2 = s->cnt1;
	s->cnt1 = n;
	s->line1 = line;
	s->t1 = f->time_us;
	s->nseen++;
}

static void
detect_buttons(struct tt_detect *d, struct det_dev *s, const struct tt_frame *f, size_t line, uint32_t n)
{
	const uint8_t *keys = tt_model_keys(d->model, s->id);
	struct tt_diag diag;
	char why[128];

	if (!keys || !buttons_disagree(s, keys, n, why, sizeof(why))) {
		s->mismatch = false;
		return;
	}
	if (!s->mismatch) {
		tt_diag_init(&diag, TT_CHECK_BUTTON_MISMATCH, line, f->time_us, s->id);
		report(d, &diag, "%s", why);
	}
	s->mismatch = true;
}

static void
count_frame(struct tt_detect *d, const struct tt_frame *f, uint32_t n)
{
	struct tt_stats_device *sd = stats_dev(d, f->device);

	d->stats.frames++;
	d->stats.events += f->nevents;
	if (!sd)
		return;
	sd->frames++;
	sd->events += f->nevents;
	if (f->flags & TT_FRAME_DROPPED)
		sd->syn_dropped++;
	if (n > sd->max_simultaneous)
		sd->max_simultaneous = n;
	if (!sd->have_time)
		sd->first_us = f->time_us;
	sd->last_us = f->time_us;
	sd->have_time = true;
}

static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct tt_detect *d = data;
	struct det_dev *s = find_dev(d, dev->id);

	count_frame(d, f, n);
	if (s) {
		tt_motion_frame(&s->motion, f->time_us, n);
		/* A drop and its resync are not what the device did; until
		 * the slots are known again the touches down are a guess. */
		if (f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC)) {
			s->drop_gen++;
			s->nseen = 0;
		} else if (dev->mt_protocol != TT_MT_NONE && !(f->flags & TT_FRAME_INCOMPLETE) &&
			   tt_model_settled(d->model, dev->id)) {
			detect_buttons(d, s, f, line, n);
		}
		if (!(f->flags & (TT_FRAME_DROPPED | TT_FRAME_RESYNC)))
			detect_flicker(d, s, f, line, n);
	}
}

/* ---- XI touches ---- */

static void
on_xbegin(void *data, struct tt_xtouch *t)
{
	struct tt_detect *d = data;

	count_client(&d->stats, t->client, t->flags & TT_XTOUCH_RAW);
}

static void
on_xownership(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	struct tt_detect *d = data;

	tt_xi_own_ownership(d->xi_own, t, ev, line);
}

static void
on_xend(void *data, struct tt_xtouch *t)
{
	struct tt_detect *d = data;
	struct tt_diag diag;

	if (t->flags & TT_XTOUCH_ACTIVE_AT_END)
		report(d, xdiag(&diag, TT_CHECK_XI_NEVER_ENDED, t), "the XI %stouch sequence never ended",
		       (t->flags & TT_XTOUCH_RAW) ? "raw " : "");
	if (t->outcome == TT_OWN_UNRESOLVED)
		report(d, xdiag(&diag, TT_CHECK_OWNERSHIP_UNRESOLVED, t),
		       "ownership was never resolved (not owned, accepted or rejected by the end)");
	if (!(t->flags & TT_XTOUCH_RAW) && (unsigned)t->outcome < TT_OWN_COUNT)
		d->stats.outcomes[t->outcome]++;
	tt_xi_own_xend(d->xi_own, t);
}

/* The protocol's order: each owner after the previous one rejected. */
static void
detect_ownership_order(struct tt_detect *d)
{
	size_t n;
	const struct tt_xi_chain *chains = tt_xi_own_chains(d->xi_own, &n);

	for (size_t i = 0; i < n; i++) {
		const struct tt_xi_chain *c = &chains[i];
		for (size_t k = 1; k < c->nstages; k++) {
			const struct tt_xi_stage *prev = &c->stages[k - 1], *st = &c->stages[k];
			struct tt_diag diag;
			if (st->order == TT_XI_ORDER_OK)
				continue;
			tt_diag_init(&diag, TT_CHECK_XI_OWNERSHIP_ORDER, st->owned_line, st->owned_us, c->sourceid);
			diag.touchid = c->touchid;
			snprintf(diag.client, sizeof(diag.client), "%s", st->client);
			report(d, &diag, "%s owned the touch %s %s %s", st->client,
			       st->order == TT_XI_ORDER_UNDECIDED ? "though" :
			       st->order == TT_XI_ORDER_BEFORE_REJECT ? "before" : "after", prev->client,
			       st->order == TT_XI_ORDER_BEFORE_REJECT ? "rejected it" :
			       st->order == TT_XI_ORDER_AFTER_ACCEPT ? "accepted it" : "never decided");
		}
	}
}

/* ---- HID ---- */

/* det_hid i and its numbers, d->stats.hids[i], are added together. */
static struct det_hid *
find_hid(struct tt_detect *d, uint32_t id, struct tt_stats_hid **sh)
{
	for (size_t i = 0; i < d->nhids; i++) {
		if (d->hids[i].id == id) {
			*sh = &d->stats.hids[i];
			return &d->hids[i];
		}
	}
	return NULL;
}

static void
add_hid(struct tt_detect *d, const struct tt_hid_device *dev)
{
	struct tt_stats_hid *sh;

	if (find_hid(d, dev->id, &sh) || d->nhids >= TT_MAX_DEVICES)
		return;	/* declared again: the numbers go on */
	d->hids = tt_reallocarray(d->hids, d->nhids + 1, sizeof(*d->hids));
	struct det_hid *h = &d->hids[d->nhids++];
	memset(h, 0, sizeof(*h));
	h->id = dev->id;
	sh = &d->stats.hids[d->stats.nhids++];
	memset(sh, 0, sizeof(*sh));
	sh->id = dev->id;
	sh->intervals.max_us = -1;
}

static void
push_latency(struct latencies *l, int64_t v)
{
	l->v = tt_grow(l->v, l->n, &l->cap, sizeof(*l->v));
	l->v[l->n++] = v;
}

static struct tt_diag *
hdiag(struct tt_diag *diag, enum tt_check check, size_t line, int64_t t)
{
	/* HID device ids are their own id space: the message names them. */
	tt_diag_init(diag, check, line, t, -1);
	return diag;
}

static void
detect_report(struct tt_detect *d, const struct tt_hreport *r)
{
	uint32_t id = r->device->id;
	int64_t t = r->report->time_us;
	struct tt_diag diag;

	if (!r->parsed)
		return;	/* the checker said why */
	if (!r->declared)
		report(d, hdiag(&diag, TT_CHECK_HID_UNDECLARED_REPORT, r->line, t),
		       "HID device %u: report ID %u is not an input report its descriptor declares", id,
		       r->report_id);
	if (r->short_report)
		report(d, hdiag(&diag, TT_CHECK_HID_SHORT_REPORT, r->line, t),
		       "HID device %u: report ID %u has %u bytes, its descriptor declares %u", id, r->report_id,
		       r->report->len, r->declared_bytes);
	if (r->frame_cut)
		report(d, hdiag(&diag, TT_CHECK_HID_CONTACT_COUNT, r->line, t),
		       "HID device %u: a new frame began after %u of the %u contacts Contact Count announced",
		       id, r->cut_received, r->cut_expected);
	if (r->beyond_count)
		report(d, hdiag(&diag, TT_CHECK_HID_CONTACT_COUNT, r->line, t),
		       "HID device %u: Contact Count %d leaves out %u more contact%s with Tip Switch set", id,
		       r->contact_count, r->beyond_count, r->beyond_count == 1 ? "" : "s");
}

static void
on_hreport(void *data, const struct tt_hreport *r)
{
	struct tt_detect *d = data;
	struct tt_stats_hid *sh = NULL;
	struct det_hid *h = find_hid(d, r->device->id, &sh);
	int64_t t = r->report->time_us;

	d->stats.hid_reports++;
	if (h) {
		sh->reports++;
		if (!sh->have_time)
			sh->first_us = t;
		sh->last_us = t;
		sh->have_time = true;
		if (h->have_last && h->prev_active && r->nactive && t >= h->last_us)
			tt_interval_hist_add(&sh->intervals, t - h->last_us);
		h->last_us = t;
		h->have_last = true;
		h->prev_active = r->nactive;
	}
	detect_report(d, r);
}

static void
on_hbegin(void *data, struct tt_htouch *t)
{
	struct tt_detect *d = data;
	struct tt_stats_hid *sh = NULL;

	if (find_hid(d, t->device, &sh))
		sh->contacts++;
}

static void
count_hid_link(struct tt_detect *d, const struct tt_htouch *t)
{
	struct tt_stats_hid *sh = NULL;
	struct det_hid *h = find_hid(d, t->device, &sh);
	int64_t latency = t->kernel_begin_us - t->begin_us;

	if (t->link == TT_LINK_LINKED) {
		d->stats.hid_links.linked++;
		push_latency(&d->all_lat, latency);
		if (h) {
			sh->links.linked++;
			push_latency(&h->lat, latency);
		}
	} else if (t->link == TT_LINK_NOT_DELIVERED) {
		d->stats.hid_links.not_delivered++;
		if (h)
			sh->links.not_delivered++;
	}
}

static void
on_hend(void *data, struct tt_htouch *t)
{
	struct tt_detect *d = data;
	struct tt_diag diag;

	if (t->flags & TT_HTOUCH_VANISHED)
		report(d, hdiag(&diag, TT_CHECK_HID_CONTACT_VANISHED, t->end_line, t->end_us),
		       "HID device %u: contact %d (down since line %zu) is no longer reported, without a tip up",
		       t->device, t->contact_id, t->begin_line);
	count_hid_link(d, t);
}

static void
on_hframe(void *data, const struct tt_hframe *l)
{
	struct tt_detect *d = data;
	struct tt_stats_hid *sh = NULL;

	d->stats.hid_links.frames++;
	if (find_hid(d, l->hid_device, &sh))
		sh->links.frames++;
}

static void
latency_numbers(struct latencies *l, struct tt_stats_hid_links *out)
{
	if (!l->n)
		return;
	tt_sort(l->v, l->n, sizeof(*l->v), tt_cmp_i64);
	out->median_latency_us = tt_median(l->v, l->n);
	out->p95_latency_us = tt_percentile(l->v, l->n, 0.95);
}

/* By util-stats.h's rule; a rank beyond the histogram is taken as its
 * end, 10 s. */
static int64_t
hist_rank(const struct tt_stats_hid *sh, double q)
{
	int64_t v;

	if (tt_interval_hist_percentile(&sh->intervals, q, &v) < 0)
		return 10000000;
	return v;
}

static void
hid_numbers(struct tt_detect *d)
{
	for (size_t i = 0; i < d->nhids; i++) {
		struct det_hid *h = &d->hids[i];
		struct tt_stats_hid *sh = &d->stats.hids[i];
		latency_numbers(&h->lat, &sh->links);
		if (sh->intervals.n) {
			sh->median_interval_us = hist_rank(sh, 0.5);
			sh->p95_interval_us = hist_rank(sh, 0.95);
		}
	}
	latency_numbers(&d->all_lat, &d->stats.hid_links);
}

/* ---- feeding ---- */

static void
add_device(struct tt_detect *d, const struct tt_device *dev)
{
	struct det_dev *s = find_dev(d, dev->id);
	struct tt_stats_device *sd = stats_dev(d, dev->id);

	if (!s) {
		if (d->ndevs >= TT_MAX_DEVICES)
			return;
		s = &d->devs[d->ndevs++];
	}
	tt_motion_dev_release(&s->motion);
	free(s->touches);
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->id = dev->id;
	s->dev = dev;
	s->has_btn_touch = tt_device_has(dev, EV_KEY, BTN_TOUCH);
	for (unsigned int i = 0; i < ARRAY_LENGTH(tool_codes); i++)
		s->tools |= (uint8_t)(tt_device_has(dev, EV_KEY, tool_codes[i]) << i);
	tt_motion_dev_init(&s->motion, dev, d->opts.jump_mm, d->opts.jump_units);
	if (!sd && d->stats.ndevs < TT_MAX_DEVICES) {
		sd = &d->stats.devs[d->stats.ndevs++];
		sd->id = dev->id;
	}
}

static void
detect_feed(void *self, const struct tt_record *rec)
{
	struct tt_detect *d = self;
	int64_t t;

	if (tt_record_time(rec, &t))
		see_time(&d->stats, t);
	if (rec->type == TT_RECORD_DEVICE)
		add_device(d, rec->device);
	else if (rec->type == TT_RECORD_HID_DEVICE)
		add_hid(d, rec->hid_device);
	else if (rec->type == TT_RECORD_XI_EVENT) {
		d->stats.xi_events++;
		tt_xi_own_event(d->xi_own, rec->xi_event, rec->line);
	}
	tt_checker_feed(d->checker, rec);
}

static void
detect_end_input(void *self)
{
	struct tt_detect *d = self;

	tt_checker_finish(d->checker);
}

static void
detect_conclude(void *self)
{
	struct tt_detect *d = self;

	hid_numbers(d);
	tt_xi_own_finish(d->xi_own);
	detect_ownership_order(d);
}

const struct tt_layer_ops *
tt_detect_layer(void)
{
	static const struct tt_layer_ops ops = {
		.name = "diagnostics",
		.feed = detect_feed,
		.end_input = detect_end_input,
		.conclude = detect_conclude,
		.kernel = {
			.kernel_begin = on_kbegin,
			.kernel_update = on_kupdate,
			.kernel_end = on_kend,
			.frame = on_frame,
			.xi_begin = on_xbegin,
			.xi_ownership = on_xownership,
			.xi_end = on_xend,
			.hid_begin = on_hbegin,
			.hid_end = on_hend,
			.hid_report = on_hreport,
			.hid_frame = on_hframe,
		},
	};
	return &ops;
}

tt_diag_fn
tt_detect_check_fn(void)
{
	return on_check;
}

struct tt_detect *
tt_detect_new(const struct tt_detect_options *opts, struct tt_model *model, tt_diag_fn fn, void *diag_data)
{
	struct tt_detect *d = tt_zalloc(sizeof(*d));

	d->opts.only_device = -1;
	if (opts)
		d->opts = *opts;
	if (!(d->opts.jump_mm > 0))
		d->opts.jump_mm = TT_DETECT_DEFAULT_JUMP_MM;
	d->fn = fn;
	d->diag_data = diag_data;
	d->checker = tt_checker_new(on_check, d);
	d->model = model;
	if (model)
		tt_checker_set_hid_parse(d->checker, parse_with_model, model);
	d->xi_own = tt_xi_own_new();
	return d;
}

void
tt_detect_free(struct tt_detect *d)
{
	if (!d)
		return;
	tt_checker_free(d->checker);
	tt_xi_own_free(d->xi_own);
	for (size_t i = 0; i < d->nhids; i++) {
		tt_interval_hist_clear(&d->stats.hids[i].intervals);
		free(d->hids[i].lat.v);
	}
	free(d->hids);
	free(d->all_lat.v);
	for (size_t i = 0; i < d->ndevs; i++) {
		tt_motion_dev_release(&d->devs[i].motion);
		free(d->devs[i].touches);
	}
	free(d);
}

void
tt_detect_reader_error(struct tt_detect *d, const char *file, const char *message)
{
	struct tt_diag diag;

	tt_diag_from_reader(&diag, TT_CHECK_BAD_LINE, file, message);
	emit(d, &diag);
}

void
tt_detect_reader_warning(struct tt_detect *d, const char *file, const char *message)
{
	struct tt_diag diag;

	tt_diag_from_reader(&diag, TT_CHECK_READER_WARNING, file, message);
	emit(d, &diag);
}

const struct tt_xi_own *
tt_detect_xi_own(const struct tt_detect *d)
{
	return d->xi_own;
}

const struct tt_stats *
tt_detect_stats(const struct tt_detect *d)
{
	return &d->stats;
}
