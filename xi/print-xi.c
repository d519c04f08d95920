/* SPDX-License-Identifier: MIT */
/* print's XI layer: XI devices and events as xinput test-xi2 shows them,
 * flags spelled out. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "print/print-private.h"
#include "util-plural.h"
#include "util-strings.h"
#include "xi-names.h"

static void
print_flags(struct printer *p, int32_t evtype, uint32_t flags)
{
	fprintf(p->out, " flags:");
	if (!flags)
		fprintf(p->out, " none");
	for (unsigned int b = 0; b < 32; b++) {
		uint32_t m = 1u << b;
		if (!(flags & m))
			continue;
		const char *n = tt_xi_flag_name(evtype, m);
		if (n)
			fprintf(p->out, " %s", n);
		else
			fprintf(p->out, " 0x%x", m);
	}
}

static const char *
use_label(int32_t use)
{
	const char *n = tt_xi_use_name(use);
	return n ? n : "unknown use";
}

void
print_xi_event(struct printer *p, const struct tt_record *rec)
{
	const struct tt_xi_event *ev = rec->xi_event;
	char ts[32];
	const char *name = tt_xi_event_name(ev->evtype);

	tt_format_time(ts, sizeof(ts), ev->time_us);
	fprintf(p->out, "%s XI    %-16s", ts, name ? name : "?");
	if (ev->client)
		fprintf(p->out, " [%s]", ev->client);
	switch (tt_xi_event_class(ev->evtype)) {
	case TT_XI_CLASS_DEVICE:
	case TT_XI_CLASS_RAW:
		fprintf(p->out, " device %d (%d) detail %u", ev->deviceid, ev->sourceid, ev->detail);
		print_flags(p, ev->evtype, ev->flags);
		if (tt_xi_event_class(ev->evtype) == TT_XI_CLASS_DEVICE)
			fprintf(p->out, " root %.2f/%.2f event %.2f/%.2f", ev->root_x, ev->root_y,
				ev->event_x, ev->event_y);
		for (uint32_t i = 0; i < ev->nvaluators; i++)
			fprintf(p->out, "%s%d: %.2f", i ? " " : " valuators ", ev->valuator_numbers[i],
				ev->valuator_values[i]);
		for (uint32_t i = 0; ev->raw_values && i < ev->nvaluators; i++)
			fprintf(p->out, "%s%d: %.2f", i ? " " : " raw ", ev->valuator_numbers[i],
				ev->raw_values[i]);
		if (tt_xi_event_class(ev->evtype) == TT_XI_CLASS_DEVICE)
			fprintf(p->out, " windows: root 0x%x event 0x%x child 0x%x", ev->root, ev->event,
				ev->child);
		break;
	case TT_XI_CLASS_OWNERSHIP:
		fprintf(p->out, " device %d (%d) touch %u: now owned by %s", ev->deviceid,
			ev->sourceid, ev->touchid, ev->client ? ev->client : "this client");
		print_flags(p, ev->evtype, ev->flags);
		fprintf(p->out, " windows: root 0x%x event 0x%x child 0x%x", ev->root, ev->event,
			ev->child);
		break;
	case TT_XI_CLASS_REQUEST:
		if (ev->evtype != TT_XI_REQ_ACCEPT && ev->evtype != TT_XI_REQ_REJECT) {
			/* the pointer client's grab, ungrab, allow events */
			fprintf(p->out, " device %d on window 0x%x mode %u", ev->deviceid, ev->event,
				ev->detail);
			break;
		}
		fprintf(p->out, " device %d touch %u on window 0x%x: %s", ev->deviceid, ev->touchid,
			ev->event, ev->evtype == TT_XI_REQ_ACCEPT ?
			"accepted, the other listeners get TouchEnd" :
			"rejected, ownership passes to the next listener");
		break;
	case TT_XI_CLASS_HIERARCHY:
		fprintf(p->out, " device %d reason %d", ev->deviceid, ev->reason);
		for (uint32_t i = 0; i < ev->nchanges; i++) {
			fprintf(p->out, "\n%*s device %d %s", (int)strlen(ts), "", ev->changes[i].deviceid,
				use_label(ev->changes[i].use));
			print_flags(p, XI_HierarchyChanged, ev->changes[i].flags);
		}
		break;
	}
	if (tt_xi_event_class(ev->evtype) == TT_XI_CLASS_REQUEST)
		fputc('\n', p->out);	/* our own request: no server time */
	else
		fprintf(p->out, " (server time %u)\n", ev->server_time);
}

void
print_xi_device(struct printer *p, const struct tt_record *rec)
{
	const struct tt_xi_device *d = rec->xi_device;

	fprintf(p->out, "# XI device %d: \"%s\" %s, attached to %d%s\n", d->deviceid, d->name,
		use_label(d->use), d->attachment, d->enabled ? "" : ", disabled");
	if (d->touch_mode != TT_XI_TOUCH_NONE)
		fprintf(p->out, "#   touch: %s, up to %d %s\n",
			d->touch_mode == TT_XI_TOUCH_DIRECT ? "direct" : "dependent", d->num_touches,
			tt_plural(d->num_touches, "touch", "touches"));
	if (d->device_node)
		fprintf(p->out, "#   device node %s%s\n", d->device_node,
			d->evdev_device >= 0 ? " (linked to an evdev device record)" : "");
	for (uint32_t i = 0; i < d->nvaluators; i++)
		fprintf(p->out, "#   valuator %d \"%s\" %.2f..%.2f\n", d->valuators[i].number,
			d->valuators[i].label ? d->valuators[i].label : "", d->valuators[i].min,
			d->valuators[i].max);
}
