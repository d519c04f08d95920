/* SPDX-License-Identifier: MIT */
/*
 * The panes under the lanes: the kernel frame at the cursor, the slot
 * table of each touch device, and the whole life of the selected touch.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "util-plural.h"
#include "util-strings.h"
#include "view-private.h"

static const char *
short_code(char *buf, size_t size, unsigned int type, unsigned int code)
{
	char cb[32];
	const char *n = tt_code_label(cb, sizeof(cb), type, code);

	if (type == EV_ABS && strncmp(n, "ABS_MT_", 7) == 0)
		n += 4;
	snprintf(buf, size, "%s", n);
	return buf;
}

static const char *
tool_name(int32_t tool)
{
	switch (tool) {
	case MT_TOOL_FINGER: return "finger";
	case MT_TOOL_PEN: return "pen";
	case MT_TOOL_PALM: return "palm";
	case MT_TOOL_DIAL: return "dial";
	default: return "";
	}
}

static void
pane_title(struct tv_screen *s, struct tv_pane *p, const char *title)
{
	tv_fill_row(s, p->row, p->col, p->width, TV_A_UNDERLINE | TV_A_BOLD);
	tv_puts_at(s, p->row, p->col, p->width, TV_A_UNDERLINE | TV_A_BOLD, title);
	p->line = 1;
}

static void
pane_line(struct tv_screen *s, struct tv_pane *p, uint8_t attr, const char *fmt, ...) _printf_(4, 5);

static void
pane_line(struct tv_screen *s, struct tv_pane *p, uint8_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (p->line >= p->height)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tv_puts_at(s, p->row + p->line, p->col, p->width, attr, buf);
	p->line++;
}

/* The kernel lane of (device, slot) active at frame @fi. */
static const struct ti_lane *
lane_at(const struct tt_index *ix, uint32_t device, int32_t slot, size_t fi)
{
	int64_t t = tt_index_frame(ix, fi)->time_us;

	for (size_t i = tt_index_nlanes(ix); i-- > 0;) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (l->kind != TI_LANE_KERNEL || l->device != device || l->slot != slot)
			continue;
		if (l->begin_us <= t && (tv_lane_end(ix, l) >= t))
			return l;
		if (tv_lane_end(ix, l) < t - 60000000)
			break;
	}
	return NULL;
}

/* The slot in effect at the start of frame @fi of its device. */
static int32_t
slot_before(const struct tt_index *ix, size_t fi)
{
	uint16_t dev = tt_index_frame(ix, fi)->device;
	size_t budget = 20000;

	for (size_t f = fi; f-- > 0 && budget; budget--) {
		if (tt_index_frame(ix, f)->device != dev)
			continue;
		uint32_t n = tt_index_frame_nevents(ix, f);
		for (uint32_t i = n; i-- > 0;) {
			struct tt_event e = tt_index_frame_event(ix, f, i);
			if (e.type == EV_ABS && e.code == ABS_MT_SLOT)
				return e.value;
		}
	}
	return 0;
}

/* The frame of the same device before @fi, or -1. */
static int64_t
prev_frame(const struct tt_index *ix, int64_t fi)
{
	uint16_t dev = tt_index_frame(ix, fi)->device;

	for (int64_t k = fi - 1; k >= 0 && fi - k < 100000; k--) {
		if (tt_index_frame(ix, k)->device == dev)
			return k;
	}
	return -1;
}

static void
frame_title(const struct tt_index *ix, struct tv_screen *s, struct tv_pane *p, int64_t fi)
{
	const struct ti_frame *f = tt_index_frame(ix, fi);
	const struct ti_device *d = tt_index_device_at(ix, f->device);
	int64_t prev = prev_frame(ix, fi);
	char tb[32], sb[32], title[96];

	snprintf(title, sizeof(title), "frame dev%u %s%s%s line %u", d->id, tv_fmt_time(tb, sizeof(tb), f->time_us),
		 prev >= 0 ? " +" : "",
		 prev >= 0 ? tv_fmt_span(sb, sizeof(sb), f->time_us - tt_index_frame(ix, prev)->time_us) : "",
		 f->line);
	pane_title(s, p, title);
	if (f->flags & TT_FRAME_DROPPED)
		pane_line(s, p, TV_C_BAD | TV_A_BOLD, "SYN_DROPPED: events lost");
	if (f->flags & TT_FRAME_RESYNC)
		pane_line(s, p, TV_C_MARK, "resync after a drop");
	if (f->flags & TT_FRAME_INCOMPLETE)
		pane_line(s, p, TV_C_BAD, "incomplete: device gone");
}

/* A Type B touch's axis value, as the previous update of its lane had
 * it: " +3", or "" when there is none. */
static void
axis_delta(const struct tt_index *ix, const struct ti_device *d, int32_t slot, size_t fi,
	   const struct tt_event *ev, char *buf, size_t size)
{
	const struct ti_lane *l = lane_at(ix, d->id, slot, fi);
	int64_t u = l ? tt_index_kupd_at(l, fi) : -1;

	if (u <= 0)
		return;
	const struct ti_kupd *a = &l->kupd[u - 1];
	int32_t old = ev->code == ABS_MT_POSITION_X ? a->x : ev->code == ABS_MT_POSITION_Y ? a->y :
		      ev->code == ABS_MT_PRESSURE ? a->pressure : a->major;
	snprintf(buf, size, " %+" PRId64, (int64_t)ev->value - old);
}

static bool
is_tracked_axis(unsigned int code)
{
	return code == ABS_MT_POSITION_X || code == ABS_MT_POSITION_Y || code == ABS_MT_PRESSURE ||
	       code == ABS_MT_TOUCH_MAJOR;
}

/* One line per event but SYN_REPORT, with what changed. */
static void
frame_events(const struct tt_index *ix, struct tv_screen *s, struct tv_pane *p, size_t fi)
{
	const struct ti_device *d = tt_index_device_at(ix, tt_index_frame(ix, fi)->device);
	int32_t slot = d->mt == TT_MT_B ? slot_before(ix, fi) : 0;
	uint32_t n = tt_index_frame_nevents(ix, fi);
	char cb[32];

	for (uint32_t i = 0; i < n; i++) {
		struct tt_event ev = tt_index_frame_event(ix, fi, i);
		char delta[32] = "";
		if (ev.type == EV_SYN && ev.code == SYN_REPORT)
			continue;
		if (ev.type == EV_ABS && ev.code == ABS_MT_SLOT)
			slot = ev.value;
		else if (ev.type == EV_ABS && d->mt == TT_MT_B && is_tracked_axis(ev.code))
			axis_delta(ix, d, slot, fi, &ev, delta, sizeof(delta));
		else if (ev.type == EV_ABS && ev.code == ABS_MT_TRACKING_ID)
			snprintf(delta, sizeof(delta), " %s", ev.value == -1 ? "up" : "down");
		pane_line(s, p, ev.type == EV_SYN ? TV_C_DIM : TV_C_NORMAL, "%-16s %7d%s",
			  short_code(cb, sizeof(cb), ev.type, ev.code), ev.value, delta);
	}
	if (p->line >= p->height && n > 1)
		tv_puts_at(s, p->row + p->height - 1, p->col + p->width - 5, 5, TV_C_DIM, " ... ");
}

void
tv_frame_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p)
{
	const struct tt_index *ix = st->ix;
	int64_t fi = tt_index_frame_at(ix, st->cursor,
				       st->filter_dev >= 0 && st->filter_kind == TV_DEV_KERNEL ? st->filter_dev : -1);

	if (fi < 0) {
		pane_title(s, p, "frame");
		pane_line(s, p, TV_C_DIM, "no kernel frame at the cursor");
		return;
	}
	frame_title(ix, s, p, fi);
	frame_events(ix, s, p, (size_t)fi);
}

void
tv_slot_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p)
{
	const struct tt_index *ix = st->ix;
	int64_t t = st->cursor;

	pane_title(s, p, "slots: slot id x y pressure size tool");
	for (size_t di = 0; di < tt_index_ndevices(ix); di++) {
		const struct ti_device *d = tt_index_device_at(ix, di);
		const struct tt_stats_device *sd = tt_stats_device(tt_index_stats(ix), d->id);
		if (!d->touch && (!sd || !sd->touch_sequences))
			continue;
		if (st->filter_dev >= 0 && (st->filter_kind != TV_DEV_KERNEL || d->id != (uint32_t)st->filter_dev))
			continue;
		int64_t fi = tt_index_frame_at(ix, t, d->id);
		pane_line(s, p, TV_A_BOLD, "dev%u %s (%s%s)", d->id, d->name,
			  d->mt == TT_MT_B ? "B" : d->mt == TT_MT_A ? "A" : "single", d->removed && d->removed_us <= t ? ", removed" : "");
		int shown = 0;
		for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
			const struct ti_lane *l = tt_index_lane(ix, i);
			if (l->kind != TI_LANE_KERNEL || l->device != d->id || l->begin_us > t)
				continue;
			/* Down at t: begun, and not yet released by a frame at or before t. */
			if (l->ended && l->end_us <= t && !(l->flags & TT_KTOUCH_ACTIVE_AT_END && l->end_us == t))
				continue;
			int64_t u = fi >= 0 ? tt_index_kupd_at(l, (size_t)fi) : (l->nupd ? 0 : -1);
			if (u < 0)
				continue;
			const struct ti_kupd *k = &l->kupd[u];
			pane_line(s, p, (int64_t)l->index == st->sel ? TV_A_REVERSE : TV_C_KERNEL,
				  "%2d %5d %6d %6d %4d %3d %s", l->slot, l->id, k->x, k->y, k->pressure,
				  k->major, tool_name(l->tool));
			shown++;
		}
		if (!shown)
			pane_line(s, p, TV_C_DIM, "   no touch down");
	}
}

static const char *
kflags(char *buf, size_t size, uint32_t f)
{
	snprintf(buf, size, "%s%s%s%s%s%s", f & TT_KTOUCH_BEFORE_START ? " before-start" : "",
		 f & TT_KTOUCH_ACTIVE_AT_END ? " active-at-end" : "",
		 f & TT_KTOUCH_SYNTHETIC_ID ? " numbered" : "", f & TT_KTOUCH_REPLACED ? " replaced" : "",
		 f & TT_KTOUCH_CUT_BY_DROP ? " cut-by-drop" : "", f & TT_KTOUCH_DEVICE_GONE ? " device-gone" : "");
	return buf;
}

static uint8_t
outcome_attr(enum tt_own_outcome o, uint8_t other)
{
	if (o == TT_OWN_ACCEPTED)
		return TV_C_GOOD;
	if (o == TT_OWN_REJECTED || o == TT_OWN_UNRESOLVED)
		return TV_C_BAD;
	return other;
}

/* Title, begin, end, duration, updates and distance: every touch. */
static void
touch_header(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char lb[64], tb[32], sb[32], title[96];
	bool kernel = l->kind == TI_LANE_KERNEL;

	snprintf(title, sizeof(title), "touch %s", tt_index_lane_label(ix, l, lb, sizeof(lb)));
	pane_title(s, p, title);
	pane_line(s, p, TV_C_NORMAL, "begin %s line %zu", tv_fmt_time(tb, sizeof(tb), l->begin_us), l->begin_line);
	if (l->ended)
		pane_line(s, p, TV_C_NORMAL, "end   %s line %zu", tv_fmt_time(tb, sizeof(tb), l->end_us), l->end_line);
	else
		pane_line(s, p, TV_C_MARK, "still down (live)");
	if (l->kind == TI_LANE_HID || l->kind == TI_LANE_LI || l->kind == TI_LANE_LI_GESTURE || l->kind == TI_LANE_WL) {
		pane_line(s, p, TV_C_NORMAL, "%s, %u %s", tv_fmt_span(sb, sizeof(sb), tv_lane_end(ix, l) - l->begin_us),
			  l->nupd, l->kind == TI_LANE_HID ? tt_plural(l->nupd, "report", "reports")
							  : tt_plural(l->nupd, "event", "events"));
		return;
	}
	pane_line(s, p, TV_C_NORMAL, "%s, %u %s, %.1f %s", tv_fmt_span(sb, sizeof(sb), tv_lane_end(ix, l) - l->begin_us),
		  l->nupd, kernel ? tt_plural(l->nupd, "frame", "frames") : tt_plural(l->nupd, "event", "events"),
		  l->distance, !kernel ? "px" : l->distance_mm ? "mm" : "units");
}

/* Who owned the touch when: each client's sequence of it. */
static void
xi_clients(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char tb[32];

	for (size_t i = l->index + 1; i < tt_index_nlanes(ix) && p->line < p->height; i++) {
		const struct ti_lane *x = tt_index_lane(ix, i);
		if (x->begin_us > tv_lane_end(ix, l) + 1000000)
			break;
		if (x->linked != (int64_t)l->index || x->kind != TI_LANE_XI)
			continue;
		char ob[32] = "", rb[32] = "";
		if (x->owned_us >= 0)
			snprintf(ob, sizeof(ob), " owner@%s", tv_fmt_time(tb, sizeof(tb), x->owned_us));
		if (x->resolved_us >= 0)
			snprintf(rb, sizeof(rb), " @%s", tv_fmt_time(tb, sizeof(tb), x->resolved_us));
		pane_line(s, p, outcome_attr(x->outcome, TV_C_XI), " %s:%s %s%s", x->client[0] ? x->client : "-", ob,
			  x->ended ? tt_own_outcome_name(x->outcome) : "...", rb);
	}
}

/* The HID contact the kernel touch was made of, when its device has a
 * HID layer in the recording. */
static void
kernel_from_hid(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char lb[64], sb[32];

	if (l->hid_link == TT_LINK_LINKED && l->hid_linked >= 0)
		pane_line(s, p, TV_C_HID, "from %s, %s later",
			  tt_index_lane_label(ix, tt_index_lane(ix, l->hid_linked), lb, sizeof(lb)),
			  tv_fmt_span(sb, sizeof(sb), l->begin_us - l->hid_begin_us));
	else if (l->hid_link == TT_LINK_LINKED)
		pane_line(s, p, TV_C_HID, "from a HID contact, %s later",
			  tv_fmt_span(sb, sizeof(sb), l->begin_us - l->hid_begin_us));
	else if (l->hid_link == TT_LINK_NOT_DELIVERED)
		pane_line(s, p, TV_C_BAD, "no HID contact paired with it");
}

static void
kernel_touch(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char fb[128], sb[32];

	if (l->flags)
		pane_line(s, p, TV_C_MARK, "flags:%s", kflags(fb, sizeof(fb), l->flags));
	kernel_from_hid(ix, l, s, p);
	if (l->li_linked >= 0) {
		const struct ti_lane *li = tt_index_lane(ix, l->li_linked);
		pane_line(s, p, TV_C_LI, "became %s +%s", tt_index_lane_label(ix, li, fb, sizeof(fb)),
			  tv_fmt_span(sb, sizeof(sb), li->begin_us - l->begin_us));
	}
	if (l->wl_linked >= 0) {
		const struct ti_lane *wl = tt_index_lane(ix, l->wl_linked);
		pane_line(s, p, TV_C_XI, "became %s +%s", tt_index_lane_label(ix, wl, fb, sizeof(fb)),
			  tv_fmt_span(sb, sizeof(sb), wl->begin_us - l->begin_us));
	}
	switch (l->link) {
	case TT_LINK_LINKED:
		pane_line(s, p, TV_C_XI, "became XI dev %d touch %u +%s", l->xi_deviceid, l->xi_touchid,
			  tv_fmt_span(sb, sizeof(sb), l->xi_begin_us - l->begin_us));
		xi_clients(ix, l, s, p);
		break;
	case TT_LINK_NOT_DELIVERED:
		pane_line(s, p, TV_C_BAD, "no XI touch came of it");
		break;
	default:
		if (l->ended)
			pane_line(s, p, TV_C_DIM, "no XI data to link");
		break;
	}
}

/* The ownership history, from the markers of this lane. */
static void
xi_history(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char tb[32];

	for (size_t i = tv_marker_lower(ix, l->begin_us); i < tt_index_nmarkers(ix) && p->line < p->height; i++) {
		const struct ti_marker *m = tt_index_marker(ix, i);
		if (m->time_us > tv_lane_end(ix, l))
			break;
		if (m->lane != (int64_t)l->index)
			continue;
		pane_line(s, p, tv_marker_attr(m->kind), "%s %s", tv_fmt_time(tb, sizeof(tb), m->time_us),
			  ti_marker_kind_name(m->kind));
	}
}

static void
xi_touch(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char lb[64], tb[32], sb[32];

	if (l->linked >= 0) {
		const struct ti_lane *k = tt_index_lane(ix, l->linked);
		pane_line(s, p, TV_C_KERNEL, "from %s, %s later", tt_index_lane_label(ix, k, lb, sizeof(lb)),
			  tv_fmt_span(sb, sizeof(sb), l->begin_us - k->begin_us));
	}
	if (l->flags & TT_XTOUCH_EMULATING_POINTER)
		pane_line(s, p, TV_C_MARK, "emulating pointer");
	if (l->kind == TI_LANE_XI)
		pane_line(s, p, outcome_attr(l->outcome, TV_C_NORMAL), "ownership: %s",
			  l->ended ? tt_own_outcome_name(l->outcome) : "(in progress)");
	if (l->owned_us >= 0)
		pane_line(s, p, TV_C_NORMAL, "owned at %s", tv_fmt_time(tb, sizeof(tb), l->owned_us));
	xi_history(ix, l, s, p);
}

static void
hid_touch(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char lb[64], sb[32];

	if (l->flags)
		pane_line(s, p, TV_C_MARK, "flags:%s%s%s", l->flags & TT_HTOUCH_VANISHED ? " vanished" : "",
			  l->flags & TT_HTOUCH_ACTIVE_AT_END ? " active-at-end" : "",
			  l->flags & TT_HTOUCH_DEVICE_GONE ? " device-gone" : "");
	if (l->nupd)
		pane_line(s, p, TV_C_NORMAL, "last at %.0f/%.0f (logical)", l->xupd[l->nupd - 1].x,
			  l->xupd[l->nupd - 1].y);
	if (l->linked >= 0) {
		const struct ti_lane *k = tt_index_lane(ix, l->linked);
		pane_line(s, p, TV_C_KERNEL, "became %s, %s later", tt_index_lane_label(ix, k, lb, sizeof(lb)),
			  tv_fmt_span(sb, sizeof(sb), k->begin_us - l->begin_us));
	} else if (l->ended && l->link == TT_LINK_NOT_DELIVERED) {
		pane_line(s, p, TV_C_BAD, "no kernel touch came of it");
	} else if (l->ended) {
		pane_line(s, p, TV_C_DIM, "no evdev device to link");
	}
}

/* The kernel touch a libinput or Wayland touch came from. */
static void
from_kernel(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char lb[64], sb[32];

	if (l->linked >= 0) {
		const struct ti_lane *k = tt_index_lane(ix, l->linked);
		pane_line(s, p, TV_C_KERNEL, "from %s, %s later", tt_index_lane_label(ix, k, lb, sizeof(lb)),
			  tv_fmt_span(sb, sizeof(sb), l->begin_us - k->begin_us));
	} else if (l->ended && l->link == TT_LINK_NOT_DELIVERED) {
		pane_line(s, p, TV_C_BAD, "no kernel touch it came from");
	}
}

/* A libinput touch: where it came from (the libinput model's link). */
static void
li_touch(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	pane_line(s, p, TV_C_NORMAL, "slot %d, seat slot %d%s%s", l->slot, l->li_seat_slot,
		  l->flags & TI_LI_CANCELLED ? ", cancelled" : "",
		  l->flags & TI_LI_ACTIVE_AT_END ? ", active at end" : "");
	if (l->nupd)
		pane_line(s, p, TV_C_NORMAL, "last at %.2f/%.2f mm", l->xupd[l->nupd - 1].x, l->xupd[l->nupd - 1].y);
	from_kernel(ix, l, s, p);
}

/* A Wayland touch: its client, where it ended, the kernel touch it
 * came from (the Wayland model's link). */
static void
wl_touch(const struct tt_index *ix, const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	pane_line(s, p, TV_C_NORMAL, "client %s, id %d%s%s", l->client[0] ? l->client : "-", l->id,
		  l->flags & TI_LI_CANCELLED ? ", cancelled" : "", l->flags & TI_LI_ACTIVE_AT_END ? ", active at end" : "");
	if (l->nupd)
		pane_line(s, p, TV_C_NORMAL, "last at %.2f/%.2f surface", l->xupd[l->nupd - 1].x, l->xupd[l->nupd - 1].y);
	from_kernel(ix, l, s, p);
}

/* A libinput gesture: the model's numbers for it. */
static void
li_gesture(const struct ti_lane *l, struct tv_screen *s, struct tv_pane *p)
{
	char sb[32];

	pane_line(s, p, TV_C_NORMAL, "%d fingers, %u kernel %s during it%s%s", l->li_fingers, l->li_nkernel,
		  tt_plural(l->li_nkernel, "touch", "touches"), l->flags & TI_LI_CANCELLED ? ", cancelled" : "",
		  l->flags & TI_LI_ACTIVE_AT_END ? ", active at end" : "");
	if (l->li_latency_us >= 0)
		pane_line(s, p, TV_C_NORMAL, "began %s after the last finger landed",
			  tv_fmt_span(sb, sizeof(sb), l->li_latency_us));
}

void
tv_touch_pane(const struct tv_state *st, struct tv_screen *s, struct tv_pane *p)
{
	const struct ti_lane *l = tv_selected(st);

	if (!l) {
		pane_title(s, p, "touch");
		pane_line(s, p, TV_C_DIM, "no touch selected (Up/Down)");
		return;
	}
	touch_header(st->ix, l, s, p);
	if (l->kind == TI_LANE_KERNEL)
		kernel_touch(st->ix, l, s, p);
	else if (l->kind == TI_LANE_HID)
		hid_touch(st->ix, l, s, p);
	else if (l->kind == TI_LANE_LI)
		li_touch(st->ix, l, s, p);
	else if (l->kind == TI_LANE_LI_GESTURE)
		li_gesture(l, s, p);
	else if (l->kind == TI_LANE_WL)
		wl_touch(st->ix, l, s, p);
	else
		xi_touch(st->ix, l, s, p);
}
