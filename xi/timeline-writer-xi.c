/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer's XI records, "xi_device" and "xi"
 * (formats/timeline.md): flags and modifiers by name, valuators as maps.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "hex.h"
#include "json-emit.h"
#include "util-mem.h"
#include "util-strings.h"
#include "writer.h"
#include "writer-private.h"
#include "xi-names.h"

int
tt_writer_xi_device(struct tt_writer *w, const struct tt_xi_device *d)
{
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "xi_device");
	writer_kv_int(w, "deviceid", d->deviceid);
	writer_kv_str(w, "name", d->name ? d->name : "");
	writer_kv_str(w, "use", tt_xi_use_name(d->use));
	writer_kv_int(w, "attachment", d->attachment);
	writer_kv_bool(w, "enabled", d->enabled);
	if (d->touch_mode != TT_XI_TOUCH_NONE) {
		writer_key(w, "touch");
		writer_put(w, "{", 1);
		writer_kv_str(w, "mode", d->touch_mode == TT_XI_TOUCH_DIRECT ? "direct" : "dependent");
		writer_kv_int(w, "num_touches", d->num_touches);
		writer_put(w, "}", 1);
	}
	writer_kv_int(w, "buttons", d->num_buttons);
	writer_key(w, "valuators");
	writer_put(w, "[", 1);
	for (uint32_t i = 0; i < d->nvaluators; i++) {
		const struct tt_xi_valuator *v = &d->valuators[i];
		if (i)
			writer_put(w, ",", 1);
		writer_put(w, "{", 1);
		writer_kv_int(w, "number", v->number);
		writer_kv_str(w, "label", v->label);
		writer_key(w, "min");
		writer_put_double(w, v->min);
		writer_key(w, "max");
		writer_put_double(w, v->max);
		writer_key(w, "value");
		writer_put_double(w, v->value);
		writer_kv_int(w, "resolution", v->resolution);
		writer_kv_str(w, "mode", v->mode == XIModeAbsolute ? "absolute" : "relative");
		writer_put(w, "}", 1);
	}
	writer_put(w, "]", 1);
	writer_kv_str(w, "device_node", d->device_node);
	if (d->evdev_device >= 0)
		writer_kv_int(w, "evdev", d->evdev_device);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

static void
put_flags(struct tt_writer *w, int32_t evtype, uint32_t flags)
{
	bool first = true;

	writer_key(w, "flags");
	writer_put(w, "[", 1);
	for (unsigned int bit = 0; bit < 32; bit++) {
		uint32_t mask = 1u << bit;
		const char *name;
		if (!(flags & mask))
			continue;
		if (!first)
			writer_put(w, ",", 1);
		first = false;
		name = tt_xi_flag_name(evtype, mask);
		if (name)
			writer_put_string(w, name);
		else
			writer_put_int(w, mask);
	}
	writer_put(w, "]", 1);
}

static void
put_mods(struct tt_writer *w, const char *k, int32_t a, int32_t b, int32_t c, int32_t d)
{
	writer_key(w, k);
	writer_put(w, "[", 1);
	writer_put_int(w, a);
	writer_put(w, ",", 1);
	writer_put_int(w, b);
	writer_put(w, ",", 1);
	writer_put_int(w, c);
	writer_put(w, ",", 1);
	writer_put_int(w, d);
	writer_put(w, "]", 1);
}

static void
put_valuators(struct tt_writer *w, const char *k, const struct tt_xi_event *ev, const double *values)
{
	writer_key(w, k);
	writer_put(w, "{", 1);
	for (uint32_t i = 0; i < ev->nvaluators; i++) {
		char num[16];
		snprintf(num, sizeof(num), "%d", ev->valuator_numbers[i]);
		writer_key(w, num);
		writer_put_double(w, values[i]);
	}
	writer_put(w, "}", 1);
}

/* AcceptTouch/RejectTouch name a touch; the pointer client's requests
 * (GrabDevice, UngrabDevice, AllowEvents) a mode in detail instead. */
static void
put_xi_request(struct tt_writer *w, const struct tt_xi_event *ev)
{
	if (ev->evtype == TT_XI_REQ_ACCEPT || ev->evtype == TT_XI_REQ_REJECT)
		writer_kv_int(w, "touchid", ev->touchid);
	else
		writer_kv_int(w, "detail", ev->detail);
	writer_kv_int(w, "event_win", ev->event);
}

int
tt_writer_xi_event(struct tt_writer *w, const struct tt_xi_event *ev)
{
	const char *name = tt_xi_event_name(ev->evtype);

	if (!name)
		return -EINVAL;
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "xi");
	writer_kv_str(w, "xi", name);
	writer_kv_int(w, "t", ev->time_us);
	writer_kv_int(w, "server_time", ev->server_time);
	writer_kv_str(w, "client", ev->client);
	writer_kv_int(w, "deviceid", ev->deviceid);
	writer_kv_int(w, "sourceid", ev->sourceid);

	switch (tt_xi_event_class(ev->evtype)) {
	case TT_XI_CLASS_DEVICE:
		writer_kv_int(w, "detail", ev->detail);
		put_flags(w, ev->evtype, ev->flags);
		writer_key(w, "root_x"); writer_put_double(w, ev->root_x);
		writer_key(w, "root_y"); writer_put_double(w, ev->root_y);
		writer_key(w, "event_x"); writer_put_double(w, ev->event_x);
		writer_key(w, "event_y"); writer_put_double(w, ev->event_y);
		writer_kv_int(w, "root_win", ev->root);
		writer_kv_int(w, "event_win", ev->event);
		writer_kv_int(w, "child_win", ev->child);
		put_valuators(w, "valuators", ev, ev->valuator_values);
		writer_key(w, "buttons");
		writer_put(w, "[", 1);
		for (uint32_t i = 0; i < ev->nbuttons; i++) {
			if (i)
				writer_put(w, ",", 1);
			writer_put_int(w, ev->buttons[i]);
		}
		writer_put(w, "]", 1);
		put_mods(w, "mods", ev->mods_base, ev->mods_latched, ev->mods_locked, ev->mods_effective);
		put_mods(w, "group", ev->group_base, ev->group_latched, ev->group_locked, ev->group_effective);
		break;
	case TT_XI_CLASS_RAW:
		writer_kv_int(w, "detail", ev->detail);
		put_flags(w, ev->evtype, ev->flags);
		put_valuators(w, "valuators", ev, ev->valuator_values);
		if (ev->raw_values)
			put_valuators(w, "raw", ev, ev->raw_values);
		break;
	case TT_XI_CLASS_OWNERSHIP:
		writer_kv_int(w, "touchid", ev->touchid);
		put_flags(w, ev->evtype, ev->flags);
		writer_kv_int(w, "root_win", ev->root);
		writer_kv_int(w, "event_win", ev->event);
		writer_kv_int(w, "child_win", ev->child);
		break;
	case TT_XI_CLASS_REQUEST:
		put_xi_request(w, ev);
		break;
	case TT_XI_CLASS_HIERARCHY:
		put_flags(w, ev->evtype, ev->flags);
		writer_kv_int(w, "reason", ev->reason);
		writer_key(w, "changes");
		writer_put(w, "[", 1);
		for (uint32_t i = 0; i < ev->nchanges; i++) {
			const struct tt_xi_change *c = &ev->changes[i];
			if (i)
				writer_put(w, ",", 1);
			writer_put(w, "{", 1);
			writer_kv_int(w, "deviceid", c->deviceid);
			writer_kv_int(w, "attachment", c->attachment);
			writer_kv_str(w, "use", tt_xi_use_name(c->use));
			writer_kv_bool(w, "enabled", c->enabled);
			put_flags(w, XI_HierarchyChanged, c->flags);
			writer_put(w, "}", 1);
		}
		writer_put(w, "]", 1);
		break;
	}
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

int
tt_writer_marker(struct tt_writer *w, const struct tt_marker *m)
{
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "marker");
	writer_kv_int(w, "t", m->time_us);
	writer_kv_str(w, "kind", m->kind == TT_MARKER_OTHER && m->kind_name ?
			  m->kind_name : tt_marker_kind_name(m->kind));
	if (m->device >= 0)
		writer_kv_int(w, "dev", m->device);
	writer_kv_str(w, "text", m->text);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}
