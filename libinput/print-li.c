/* SPDX-License-Identifier: MIT */
/* print's libinput layer: libinput's devices and events the way libinput
 * debug-events shows them. */
#include "config.h"

#include <stdio.h>

#include "print/print-private.h"
#include "util-plural.h"
#include "util-strings.h"

void
print_li_device(struct printer *p, const struct tt_record *rec)
{
	const struct tt_li_device *d = rec->li_device;

	fprintf(p->out, "# libinput device on dev%u (%s): \"%s\"", d->device,
		d->sysname ? d->sysname : "?", d->name ? d->name : "");
	for (unsigned int bit = 0; bit < 32; bit++) {
		const char *n = tt_li_capability_name(1u << bit);
		if ((d->capabilities & (1u << bit)) && n)
			fprintf(p->out, " %s", n);
	}
	if (d->has_size)
		fprintf(p->out, ", %.1fx%.1fmm", d->width_mm, d->height_mm);
	fputc('\n', p->out);
	for (uint32_t i = 0; i < d->nsettings; i++)
		fprintf(p->out, "%s%s=%s", i ? "," : "#   config ", d->settings[i].name,
			d->settings[i].value);
	if (d->nsettings)
		fputc('\n', p->out);
}

static void
print_li_tablet(struct printer *p, const struct tt_li_event *ev)
{
	bool tip = ev->kind == TT_LI_TABLET_TOOL_TIP;

	fprintf(p->out, " %.2f/%.2fmm", ev->x, ev->y);
	if (ev->kind == TT_LI_TABLET_TOOL_PROXIMITY || tip)
		fprintf(p->out, " %s %s", tt_li_tool_name(ev->tool),
			ev->pressed ? (tip ? "down" : "in") : (tip ? "up" : "out"));
	if (ev->tablet_axes & TT_LI_AXIS_PRESSURE)
		fprintf(p->out, " pressure %.2f", ev->pressure);
}

static void
print_li_gesture(struct printer *p, const struct tt_li_event *ev)
{
	fprintf(p->out, " %d %s", ev->fingers, tt_plural(ev->fingers, "finger", "fingers"));
	if (ev->kind == TT_LI_GESTURE_SWIPE_UPDATE || ev->kind == TT_LI_GESTURE_PINCH_UPDATE)
		fprintf(p->out, " %6.2f/%6.2f", ev->dx, ev->dy);
	if (ev->kind == TT_LI_GESTURE_PINCH_UPDATE)
		fprintf(p->out, " scale %.2f angle %+.2f", ev->scale, ev->angle);
	if (ev->cancelled)
		fprintf(p->out, " cancelled");
}

/* The fields of an event the way libinput debug-events shows them. */
static void
print_li_fields(struct printer *p, const struct tt_li_event *ev)
{
	switch (tt_li_event_class(ev->kind)) {
	case TT_LI_CLASS_TOUCH:
		fprintf(p->out, " %d (%d)", ev->slot, ev->seat_slot);
		if (ev->kind == TT_LI_TOUCH_DOWN || ev->kind == TT_LI_TOUCH_MOTION)
			fprintf(p->out, " %.2f/%.2fmm", ev->x, ev->y);
		break;
	case TT_LI_CLASS_MOTION:
		fprintf(p->out, " %6.2f/%6.2f (%+.2f/%+.2f unaccelerated)", ev->dx, ev->dy,
			ev->dx_unaccel, ev->dy_unaccel);
		break;
	case TT_LI_CLASS_ABSOLUTE:
	case TT_LI_CLASS_TABLET:
		print_li_tablet(p, ev);
		break;
	case TT_LI_CLASS_KEY:
	case TT_LI_CLASS_BUTTON:
	case TT_LI_CLASS_PAD:
	case TT_LI_CLASS_SWITCH:
		fprintf(p->out, " %u %s", ev->code, ev->pressed ? "pressed" : "released");
		break;
	case TT_LI_CLASS_SCROLL:
		fprintf(p->out, " vert %.2f%s horiz %.2f%s", ev->vert, ev->has_vert ? "" : "/-",
			ev->horiz, ev->has_horiz ? "" : "/-");
		if (ev->kind == TT_LI_POINTER_SCROLL_WHEEL)
			fprintf(p->out, " (v120 %.0f/%.0f)", ev->vert_v120, ev->horiz_v120);
		break;
	case TT_LI_CLASS_GESTURE:
		print_li_gesture(p, ev);
		break;
	case TT_LI_CLASS_DEVICE:
	case TT_LI_CLASS_TOUCH_FRAME:
		break;
	}
}

void
print_li_event(struct printer *p, const struct tt_record *rec)
{
	const struct tt_li_event *ev = rec->li_event;
	char ts[32];

	tt_format_time(ts, sizeof(ts), ev->time_us);
	fprintf(p->out, "%s LI    dev%-3u %-24s", ts, ev->device,
		ev->kind == TT_LI_OTHER && ev->kind_name ? ev->kind_name : tt_li_event_name(ev->kind));
	print_li_fields(p, ev);
	fputc('\n', p->out);
}
