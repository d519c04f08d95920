/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer. Lines are composed by hand rather than through
 * json-c's object tree: a recorder writes a frame for every SYN_REPORT
 * and must not allocate per event. Each line is composed in one buffer
 * of the JSON emitter (json-emit.h), whose escaping every string takes
 * after sanitizing, so every line is valid JSON and valid UTF-8, and goes
 * out with one write().
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "hex.h"
#include "json-emit.h"
#include "util-mem.h"
#include "util-strings.h"
#include "util-time.h"
#include "writer.h"
#include "writer-private.h"
#include "xi-names.h"

struct tt_writer {
	int fd;
	int error;		/* sticky: the first write error */
	struct tt_json_emit line;	/* the record being composed */
};

static void
put(struct tt_writer *w, const char *s, size_t n)
{
	tt_json_emit_raw(&w->line, s, n);
}

static void
puts_(struct tt_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void
put_int(struct tt_writer *w, int64_t v)
{
	tt_json_emit_int(&w->line, v);
}

static void
put_double(struct tt_writer *w, double v)
{
	tt_json_emit_real(&w->line, v);
}

/* Sanitized first: a timeline keeps no control characters at all, not
 * even escaped ones. */
static void
put_string(struct tt_writer *w, const char *s)
{
	_cleanup_free_ char *clean = NULL;
	size_t len = strlen(s);

	if (len > TT_MAX_STRING_BYTES || !tt_str_is_clean(s, len)) {
		clean = tt_str_sanitize(s, len, TT_MAX_STRING_BYTES);
		s = clean;
	}
	tt_json_emit_escaped(&w->line, s);
}

static void
key(struct tt_writer *w, const char *k)
{
	if (w->line.len > 0 && w->line.buf[w->line.len - 1] != '{')
		put(w, ",", 1);
	put(w, "\"", 1);
	puts_(w, k);
	put(w, "\":", 2);
}

static void
kv_int(struct tt_writer *w, const char *k, int64_t v)
{
	key(w, k);
	put_int(w, v);
}

static void
kv_str(struct tt_writer *w, const char *k, const char *v)
{
	if (!v)
		return;
	key(w, k);
	put_string(w, v);
}

static void
kv_bool(struct tt_writer *w, const char *k, bool v)
{
	key(w, k);
	puts_(w, v ? "true" : "false");
}

static void
put_code_name(struct tt_writer *w, unsigned int type, unsigned int code)
{
	char buf[16];
	put(w, "\"", 1);
	puts_(w, tt_code_label_exact(buf, sizeof(buf), type, code));
	put(w, "\"", 1);
}

/* Sends the composed line with as many write(2)s as it takes. */
static int
flush_line(struct tt_writer *w)
{
	size_t off = 0;

	put(w, "\n", 1);
	if (w->error) {
		tt_json_emit_reset(&w->line);
		return w->error;
	}
	while (off < w->line.len) {
		ssize_t n = write(w->fd, w->line.buf + off, w->line.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			w->error = -errno;
			break;
		}
		off += (size_t)n;
	}
	tt_json_emit_reset(&w->line);
	return w->error;
}

int
tt_writer_new(int fd, struct tt_writer **out)
{
	struct tt_writer *w;

	if (fd < 0)
		return -EBADF;
	w = tt_zalloc(sizeof(*w));
	w->fd = fd;
	tt_json_emit_init_buffer(&w->line);
	*out = w;
	return 0;
}

void
tt_writer_free(struct tt_writer *w)
{
	if (!w)
		return;
	tt_json_emit_release(&w->line);
	free(w);
}

void
tt_header_init_now(struct tt_header *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	h->version = TT_FORMAT_VERSION;
	h->tool = tt_strdup(PACKAGE_NAME " " PACKAGE_VERSION);
	if (uname(&u) == 0)
		h->kernel = tt_strdup(u.release);
	/* Taken back to back so the two clocks describe the same instant. */
	h->start_monotonic_us = tt_now_us(CLOCK_MONOTONIC);
	h->start_realtime_us = tt_now_us(CLOCK_REALTIME);
}

/* ---- surroundings (formats/timeline.md, "Surroundings") ---- */

static void
put_system(struct tt_writer *w, const struct tt_header *h)
{
	if (!tt_header_has_system(h))
		return;
	key(w, "system");
	put(w, "{", 1);
	kv_str(w, "dmi_modalias", h->dmi_modalias);
	kv_str(w, "os_id", h->os_id);
	kv_str(w, "os_version_id", h->os_version_id);
	kv_str(w, "libinput_version", h->libinput_version);
	kv_str(w, "libevdev_version", h->libevdev_version);
	put(w, "}", 1);
}

/* A name that could not be read back is left out rather than refused:
 * the rest of the record is still worth having. */
static void
put_property_map(struct tt_writer *w, const char *k, const struct tt_property *list, uint32_t n)
{
	key(w, k);
	put(w, "{", 1);
	for (uint32_t i = 0; i < n && i < TT_MAX_PROPERTIES; i++) {
		if (tt_property_name_is_valid(list[i].name))
			kv_str(w, list[i].name, list[i].value ? list[i].value : "");
	}
	put(w, "}", 1);
}

static void
put_surroundings(struct tt_writer *w, const struct tt_device *dev)
{
	kv_str(w, "syspath", dev->syspath);
	kv_str(w, "driver", dev->driver);
	if (dev->has_udev)
		put_property_map(w, "udev", dev->udev, dev->nudev);
	if (dev->has_udev || dev->nhwdb)
		put_property_map(w, "hwdb", dev->hwdb, dev->nhwdb);
	if (dev->has_quirks || dev->nquirks) {
		key(w, "quirks");
		put(w, "[", 1);
		for (uint32_t i = 0; i < dev->nquirks && i < TT_MAX_QUIRKS; i++) {
			if (i)
				put(w, ",", 1);
			put_string(w, dev->quirks[i]);
		}
		put(w, "]", 1);
	}
}

int
tt_writer_header(struct tt_writer *w, const struct tt_header *h)
{
	put(w, "{", 1);
	kv_str(w, "format", TT_FORMAT_NAME);
	kv_int(w, "version", TT_FORMAT_VERSION);
	kv_str(w, "tool", h->tool ? h->tool : PACKAGE_NAME " " PACKAGE_VERSION);
	kv_str(w, "kernel", h->kernel);
	if (h->x_vendor) {
		key(w, "x_server");
		put(w, "{", 1);
		kv_str(w, "vendor", h->x_vendor);
		kv_int(w, "release", h->x_release);
		put(w, "}", 1);
	}
	key(w, "start");
	put(w, "{", 1);
	kv_int(w, "monotonic_us", h->start_monotonic_us);
	kv_int(w, "realtime_us", h->start_realtime_us);
	put(w, "}", 1);
	kv_bool(w, "keycodes_masked", h->keycodes_masked);
	kv_str(w, "source_format", h->source_format);
	put_system(w, h);
	put(w, "}", 1);
	return flush_line(w);
}

static void
put_code_list(struct tt_writer *w, const uint8_t *bits, unsigned int type, unsigned int count)
{
	bool first = true;

	put(w, "[", 1);
	for (unsigned int c = 0; c < count; c++) {
		if (!bit_is_set(bits, c))
			continue;
		if (!first)
			put(w, ",", 1);
		first = false;
		put_code_name(w, type, c);
	}
	put(w, "]", 1);
}

static void
put_props(struct tt_writer *w, const uint8_t *props)
{
	bool first = true;

	put(w, "[", 1);
	for (unsigned int p = 0; p < INPUT_PROP_CNT; p++) {
		const char *name;
		if (!bit_is_set(props, p))
			continue;
		if (!first)
			put(w, ",", 1);
		first = false;
		name = tt_prop_name(p);
		unsigned int back;
		if (name && tt_prop_from_string(name, &back) == 0 && back == p) {
			put(w, "\"", 1);
			puts_(w, name);
			put(w, "\"", 1);
		} else {
			put_int(w, p);
		}
	}
	put(w, "]", 1);
}

static bool
slot_is_default(const struct tt_device *dev, const struct tt_slot_state *s)
{
	for (unsigned int i = 0; i < TT_MT_AXES; i++) {
		unsigned int code = TT_MT_FIRST + i;
		int32_t def = code == ABS_MT_TRACKING_ID ? -1 : 0;
		if (tt_device_has(dev, EV_ABS, code) && s->values[i] != def)
			return false;
	}
	return true;
}

static void
put_mt(struct tt_writer *w, const struct tt_device *dev)
{
	bool first = true;

	key(w, "mt");
	put(w, "{", 1);
	kv_str(w, "protocol", dev->mt_protocol == TT_MT_B ? "B" : "A");
	if (dev->mt_protocol == TT_MT_B) {
		kv_int(w, "slots", dev->num_slots);
		kv_int(w, "current_slot", dev->current_slot);
		key(w, "state");
		put(w, "[", 1);
		for (uint32_t s = 0; s < dev->num_slots; s++) {
			const struct tt_slot_state *st = &dev->slots[s];
			if (slot_is_default(dev, st))
				continue;
			if (!first)
				put(w, ",", 1);
			first = false;
			put(w, "{", 1);
			kv_int(w, "slot", s);
			for (unsigned int i = 0; i < TT_MT_AXES; i++) {
				unsigned int code = TT_MT_FIRST + i;
				char buf[16];
				if (!tt_device_has(dev, EV_ABS, code))
					continue;
				key(w, tt_code_label_exact(buf, sizeof(buf), EV_ABS, code));
				put_int(w, st->values[i]);
			}
			put(w, "}", 1);
		}
		put(w, "]", 1);
	}
	put(w, "}", 1);
}

int
tt_writer_device(struct tt_writer *w, const struct tt_device *dev)
{
	char buf[16];

	put(w, "{", 1);
	kv_str(w, "type", "device");
	kv_int(w, "id", dev->id);
	kv_str(w, "name", dev->name ? dev->name : "");
	kv_str(w, "node", dev->node);
	kv_str(w, "phys", dev->phys);
	kv_str(w, "uniq", dev->uniq);
	key(w, "input_id");
	put(w, "{", 1);
	kv_int(w, "bustype", dev->bustype);
	kv_int(w, "vendor", dev->vendor);
	kv_int(w, "product", dev->product);
	kv_int(w, "version", dev->version);
	put(w, "}", 1);
	if (dev->driver_version)
		kv_int(w, "driver_version", dev->driver_version);
	key(w, "properties");
	put_props(w, dev->props);

	key(w, "codes");
	put(w, "{", 1);
	for (unsigned int t = 0; t < EV_CNT; t++) {
		int max = tt_code_max(t);
		if (!bit_is_set(dev->types, t) || max < 0)
			continue;
		key(w, tt_type_label(buf, sizeof(buf), t));
		put_code_list(w, dev->codes[t], t, (unsigned int)max + 1);
	}
	put(w, "}", 1);

	if (bit_is_set(dev->types, EV_ABS)) {
		key(w, "absinfo");
		put(w, "{", 1);
		for (unsigned int c = 0; c < ABS_CNT; c++) {
			const struct tt_absinfo *a = &dev->abs[c];
			if (!tt_device_has(dev, EV_ABS, c))
				continue;
			key(w, tt_code_label_exact(buf, sizeof(buf), EV_ABS, c));
			put(w, "{", 1);
			kv_int(w, "value", a->value);
			kv_int(w, "min", a->minimum);
			kv_int(w, "max", a->maximum);
			kv_int(w, "fuzz", a->fuzz);
			kv_int(w, "flat", a->flat);
			kv_int(w, "resolution", a->resolution);
			put(w, "}", 1);
		}
		put(w, "}", 1);
	}
	if (bit_is_set(dev->types, EV_REP)) {
		key(w, "rep");
		put(w, "{", 1);
		kv_int(w, "delay", dev->rep_delay);
		kv_int(w, "period", dev->rep_period);
		put(w, "}", 1);
	}
	if (dev->mt_protocol != TT_MT_NONE)
		put_mt(w, dev);

	key(w, "state");
	put(w, "{", 1);
	key(w, "keys_down");
	put_code_list(w, dev->keys_down, EV_KEY, KEY_CNT);
	key(w, "leds_on");
	put_code_list(w, dev->leds_on, EV_LED, LED_CNT);
	key(w, "switches_on");
	put_code_list(w, dev->switches_on, EV_SW, SW_CNT);
	put(w, "}", 1);
	if (dev->grabbed_by_other)
		kv_bool(w, "grabbed_by_other", true);
	put_surroundings(w, dev);
	put(w, "}", 1);
	return flush_line(w);
}

int
tt_writer_frame(struct tt_writer *w, const struct tt_frame *f)
{
	if (f->nevents > TT_MAX_FRAME_EVENTS)
		return -E2BIG;

	puts_(w, "{\"type\":\"frame\",\"dev\":");
	put_int(w, f->device);
	puts_(w, ",\"t\":");
	put_int(w, f->time_us);
	if (f->flags & TT_FRAME_DROPPED)
		puts_(w, ",\"dropped\":true");
	if (f->flags & TT_FRAME_RESYNC)
		puts_(w, ",\"resync\":true");
	if (f->flags & TT_FRAME_INCOMPLETE)
		puts_(w, ",\"incomplete\":true");
	puts_(w, ",\"ev\":[");
	tt_json_emit_reserve(&w->line, (size_t)f->nevents * 48 + 4);
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		if (i)
			put(w, ",", 1);
		put(w, "[", 1);
		put_int(w, e->type);
		put(w, ",", 1);
		put_int(w, e->code);
		put(w, ",", 1);
		put_int(w, e->value);
		if (e->dt_us) {
			put(w, ",", 1);
			put_int(w, e->dt_us);
		}
		put(w, "]", 1);
	}
	puts_(w, "]}");
	return flush_line(w);
}

int
tt_writer_xi_device(struct tt_writer *w, const struct tt_xi_device *d)
{
	put(w, "{", 1);
	kv_str(w, "type", "xi_device");
	kv_int(w, "deviceid", d->deviceid);
	kv_str(w, "name", d->name ? d->name : "");
	kv_str(w, "use", tt_xi_use_name(d->use));
	kv_int(w, "attachment", d->attachment);
	kv_bool(w, "enabled", d->enabled);
	if (d->touch_mode != TT_XI_TOUCH_NONE) {
		key(w, "touch");
		put(w, "{", 1);
		kv_str(w, "mode", d->touch_mode == TT_XI_TOUCH_DIRECT ? "direct" : "dependent");
		kv_int(w, "num_touches", d->num_touches);
		put(w, "}", 1);
	}
	kv_int(w, "buttons", d->num_buttons);
	key(w, "valuators");
	put(w, "[", 1);
	for (uint32_t i = 0; i < d->nvaluators; i++) {
		const struct tt_xi_valuator *v = &d->valuators[i];
		if (i)
			put(w, ",", 1);
		put(w, "{", 1);
		kv_int(w, "number", v->number);
		kv_str(w, "label", v->label);
		key(w, "min");
		put_double(w, v->min);
		key(w, "max");
		put_double(w, v->max);
		key(w, "value");
		put_double(w, v->value);
		kv_int(w, "resolution", v->resolution);
		kv_str(w, "mode", v->mode == XIModeAbsolute ? "absolute" : "relative");
		put(w, "}", 1);
	}
	put(w, "]", 1);
	kv_str(w, "device_node", d->device_node);
	if (d->evdev_device >= 0)
		kv_int(w, "evdev", d->evdev_device);
	put(w, "}", 1);
	return flush_line(w);
}

static void
put_flags(struct tt_writer *w, int32_t evtype, uint32_t flags)
{
	bool first = true;

	key(w, "flags");
	put(w, "[", 1);
	for (unsigned int bit = 0; bit < 32; bit++) {
		uint32_t mask = 1u << bit;
		const char *name;
		if (!(flags & mask))
			continue;
		if (!first)
			put(w, ",", 1);
		first = false;
		name = tt_xi_flag_name(evtype, mask);
		if (name)
			put_string(w, name);
		else
			put_int(w, mask);
	}
	put(w, "]", 1);
}

static void
put_mods(struct tt_writer *w, const char *k, int32_t a, int32_t b, int32_t c, int32_t d)
{
	key(w, k);
	put(w, "[", 1);
	put_int(w, a);
	put(w, ",", 1);
	put_int(w, b);
	put(w, ",", 1);
	put_int(w, c);
	put(w, ",", 1);
	put_int(w, d);
	put(w, "]", 1);
}

static void
put_valuators(struct tt_writer *w, const char *k, const struct tt_xi_event *ev, const double *values)
{
	key(w, k);
	put(w, "{", 1);
	for (uint32_t i = 0; i < ev->nvaluators; i++) {
		char num[16];
		snprintf(num, sizeof(num), "%d", ev->valuator_numbers[i]);
		key(w, num);
		put_double(w, values[i]);
	}
	put(w, "}", 1);
}

/* AcceptTouch/RejectTouch name a touch; the pointer client's requests
 * (GrabDevice, UngrabDevice, AllowEvents) a mode in detail instead. */
static void
put_xi_request(struct tt_writer *w, const struct tt_xi_event *ev)
{
	if (ev->evtype == TT_XI_REQ_ACCEPT || ev->evtype == TT_XI_REQ_REJECT)
		kv_int(w, "touchid", ev->touchid);
	else
		kv_int(w, "detail", ev->detail);
	kv_int(w, "event_win", ev->event);
}

int
tt_writer_xi_event(struct tt_writer *w, const struct tt_xi_event *ev)
{
	const char *name = tt_xi_event_name(ev->evtype);

	if (!name)
		return -EINVAL;
	put(w, "{", 1);
	kv_str(w, "type", "xi");
	kv_str(w, "xi", name);
	kv_int(w, "t", ev->time_us);
	kv_int(w, "server_time", ev->server_time);
	kv_str(w, "client", ev->client);
	kv_int(w, "deviceid", ev->deviceid);
	kv_int(w, "sourceid", ev->sourceid);

	switch (tt_xi_event_class(ev->evtype)) {
	case TT_XI_CLASS_DEVICE:
		kv_int(w, "detail", ev->detail);
		put_flags(w, ev->evtype, ev->flags);
		key(w, "root_x"); put_double(w, ev->root_x);
		key(w, "root_y"); put_double(w, ev->root_y);
		key(w, "event_x"); put_double(w, ev->event_x);
		key(w, "event_y"); put_double(w, ev->event_y);
		kv_int(w, "root_win", ev->root);
		kv_int(w, "event_win", ev->event);
		kv_int(w, "child_win", ev->child);
		put_valuators(w, "valuators", ev, ev->valuator_values);
		key(w, "buttons");
		put(w, "[", 1);
		for (uint32_t i = 0; i < ev->nbuttons; i++) {
			if (i)
				put(w, ",", 1);
			put_int(w, ev->buttons[i]);
		}
		put(w, "]", 1);
		put_mods(w, "mods", ev->mods_base, ev->mods_latched, ev->mods_locked, ev->mods_effective);
		put_mods(w, "group", ev->group_base, ev->group_latched, ev->group_locked, ev->group_effective);
		break;
	case TT_XI_CLASS_RAW:
		kv_int(w, "detail", ev->detail);
		put_flags(w, ev->evtype, ev->flags);
		put_valuators(w, "valuators", ev, ev->valuator_values);
		if (ev->raw_values)
			put_valuators(w, "raw", ev, ev->raw_values);
		break;
	case TT_XI_CLASS_OWNERSHIP:
		kv_int(w, "touchid", ev->touchid);
		put_flags(w, ev->evtype, ev->flags);
		kv_int(w, "root_win", ev->root);
		kv_int(w, "event_win", ev->event);
		kv_int(w, "child_win", ev->child);
		break;
	case TT_XI_CLASS_REQUEST:
		put_xi_request(w, ev);
		break;
	case TT_XI_CLASS_HIERARCHY:
		put_flags(w, ev->evtype, ev->flags);
		kv_int(w, "reason", ev->reason);
		key(w, "changes");
		put(w, "[", 1);
		for (uint32_t i = 0; i < ev->nchanges; i++) {
			const struct tt_xi_change *c = &ev->changes[i];
			if (i)
				put(w, ",", 1);
			put(w, "{", 1);
			kv_int(w, "deviceid", c->deviceid);
			kv_int(w, "attachment", c->attachment);
			kv_str(w, "use", tt_xi_use_name(c->use));
			kv_bool(w, "enabled", c->enabled);
			put_flags(w, XI_HierarchyChanged, c->flags);
			put(w, "}", 1);
		}
		put(w, "]", 1);
		break;
	}
	put(w, "}", 1);
	return flush_line(w);
}

int
tt_writer_marker(struct tt_writer *w, const struct tt_marker *m)
{
	put(w, "{", 1);
	kv_str(w, "type", "marker");
	kv_int(w, "t", m->time_us);
	kv_str(w, "kind", m->kind == TT_MARKER_OTHER && m->kind_name ?
			  m->kind_name : tt_marker_kind_name(m->kind));
	if (m->device >= 0)
		kv_int(w, "dev", m->device);
	kv_str(w, "text", m->text);
	put(w, "}", 1);
	return flush_line(w);
}

/* ---- HID ---- */

/* Bytes as one lowercase hex string, composed in place. */
static void
put_hex(struct tt_writer *w, const uint8_t *data, size_t n)
{
	char buf[512];

	tt_json_emit_reserve(&w->line, 2 * n + 2);
	put(w, "\"", 1);
	for (size_t i = 0; i < n; i += sizeof(buf) / 2) {
		size_t k = n - i < sizeof(buf) / 2 ? n - i : sizeof(buf) / 2;
		tt_hex_encode(buf, data + i, k);
		put(w, buf, 2 * k);
	}
	put(w, "\"", 1);
}

static void
kv_hex(struct tt_writer *w, const char *k, const uint8_t *data, size_t n)
{
	key(w, k);
	put_hex(w, data, n);
}

/* What the reader would refuse is not written: a file this writer made
 * always reads back. */
static bool
hid_device_is_valid(const struct tt_hid_device *d)
{
	if (!d->name || d->descriptor_len < 1 || d->descriptor_len > TT_MAX_HID_DESCRIPTOR ||
	    d->nevdev > TT_MAX_DEVICES || d->nfeatures > TT_MAX_HID_FEATURES)
		return false;
	for (uint32_t i = 0; i < d->nfeatures; i++) {
		const struct tt_hid_feature *f = &d->features[i];
		if (f->error ? !strerrorname_np(-f->error) : f->len < 1 || f->len > TT_MAX_HID_REPORT)
			return false;
	}
	return true;
}

static void
put_hid_features(struct tt_writer *w, const struct tt_hid_device *d)
{
	key(w, "features");
	put(w, "[", 1);
	for (uint32_t i = 0; i < d->nfeatures; i++) {
		const struct tt_hid_feature *f = &d->features[i];
		if (i)
			put(w, ",", 1);
		put(w, "{", 1);
		kv_int(w, "report_id", f->report_id);
		if (f->error)
			kv_str(w, "error", strerrorname_np(-f->error));
		else
			kv_hex(w, "data", f->data, f->len);
		put(w, "}", 1);
	}
	put(w, "]", 1);
}

int
tt_writer_hid_device(struct tt_writer *w, const struct tt_hid_device *d)
{
	if (!hid_device_is_valid(d))
		return -EINVAL;
	put(w, "{", 1);
	kv_str(w, "type", "hid_device");
	kv_int(w, "id", d->id);
	kv_str(w, "name", d->name);
	kv_str(w, "phys", d->phys);
	kv_str(w, "uniq", d->uniq);
	kv_str(w, "node", d->node);
	kv_int(w, "bus", d->bus);
	kv_int(w, "vendor", d->vendor);
	kv_int(w, "product", d->product);
	kv_int(w, "version", d->version);
	kv_int(w, "country", d->country);
	kv_hex(w, "descriptor", d->descriptor, d->descriptor_len);
	if (d->nevdev) {
		key(w, "evdev");
		put(w, "[", 1);
		for (uint32_t i = 0; i < d->nevdev; i++) {
			if (i)
				put(w, ",", 1);
			put_int(w, d->evdev_devices[i]);
		}
		put(w, "]", 1);
	}
	if (d->nfeatures)
		put_hid_features(w, d);
	put(w, "}", 1);
	return flush_line(w);
}

int
tt_writer_hid_report(struct tt_writer *w, const struct tt_hid_report *rep)
{
	if (rep->len < 1 || rep->len > TT_MAX_HID_REPORT)
		return -EINVAL;
	put(w, "{", 1);
	kv_str(w, "type", "hid");
	kv_int(w, "dev", rep->device);
	kv_int(w, "t", rep->time_us);
	kv_hex(w, "data", rep->data, rep->len);
	put(w, "}", 1);
	return flush_line(w);
}

/* ---- the libinput layer ---- */

static void
kv_double(struct tt_writer *w, const char *k, double v)
{
	key(w, k);
	put_double(w, v);
}

static void
kv_pair(struct tt_writer *w, const char *k, double a, double b)
{
	key(w, k);
	put(w, "[", 1);
	put_double(w, a);
	put(w, ",", 1);
	put_double(w, b);
	put(w, "]", 1);
}

static void
put_li_capabilities(struct tt_writer *w, uint32_t caps)
{
	bool first = true;

	key(w, "capabilities");
	put(w, "[", 1);
	for (unsigned int bit = 0; bit < 32; bit++) {
		const char *name = tt_li_capability_name(1u << bit);
		if (!(caps & (1u << bit)) || !name)
			continue;
		if (!first)
			put(w, ",", 1);
		first = false;
		put_string(w, name);
	}
	put(w, "]", 1);
}

int
tt_writer_li_device(struct tt_writer *w, const struct tt_li_device *d)
{
	put(w, "{", 1);
	kv_str(w, "type", "li_device");
	kv_int(w, "dev", d->device);
	kv_str(w, "sysname", d->sysname);
	kv_str(w, "name", d->name);
	put_li_capabilities(w, d->capabilities);
	if (d->has_size)
		kv_pair(w, "size_mm", d->width_mm, d->height_mm);
	if (d->tap_fingers > 0)
		kv_int(w, "tap_fingers", d->tap_fingers);
	key(w, "config");
	put(w, "{", 1);
	for (uint32_t i = 0; i < d->nsettings; i++)
		kv_str(w, d->settings[i].name, d->settings[i].value);
	put(w, "}", 1);
	put(w, "}", 1);
	return flush_line(w);
}

static void
put_li_tablet(struct tt_writer *w, const struct tt_li_event *ev)
{
	kv_str(w, "tool", tt_li_tool_name(ev->tool));
	if (ev->tool_serial)
		kv_int(w, "serial", (int64_t)ev->tool_serial);
	kv_pair(w, "mm", ev->x, ev->y);
	kv_pair(w, "norm", ev->x_norm, ev->y_norm);
	if (ev->tablet_axes & TT_LI_AXIS_PRESSURE)
		kv_double(w, "pressure", ev->pressure);
	if (ev->tablet_axes & TT_LI_AXIS_DISTANCE)
		kv_double(w, "distance", ev->distance);
	if (ev->tablet_axes & TT_LI_AXIS_TILT)
		kv_pair(w, "tilt", ev->tilt_x, ev->tilt_y);
	if (ev->tablet_axes & TT_LI_AXIS_ROTATION)
		kv_double(w, "rotation", ev->rotation);
	if (ev->tablet_axes & TT_LI_AXIS_SLIDER)
		kv_double(w, "slider", ev->slider);
	if (ev->tablet_axes & TT_LI_AXIS_WHEEL)
		kv_double(w, "wheel", ev->wheel);
	switch (ev->kind) {
	case TT_LI_TABLET_TOOL_PROXIMITY: kv_str(w, "proximity", ev->pressed ? "in" : "out"); break;
	case TT_LI_TABLET_TOOL_TIP: kv_str(w, "tip", ev->pressed ? "down" : "up"); break;
	case TT_LI_TABLET_TOOL_BUTTON:
		kv_int(w, "button", ev->code);
		kv_str(w, "state", ev->pressed ? "pressed" : "released");
		break;
	default: break;
	}
}

static void
put_li_scroll(struct tt_writer *w, const struct tt_li_event *ev)
{
	if (ev->has_vert)
		kv_double(w, "vert", ev->vert);
	if (ev->has_horiz)
		kv_double(w, "horiz", ev->horiz);
	if (ev->kind != TT_LI_POINTER_SCROLL_WHEEL)
		return;
	if (ev->has_vert)
		kv_double(w, "vert_v120", ev->vert_v120);
	if (ev->has_horiz)
		kv_double(w, "horiz_v120", ev->horiz_v120);
}

static void
put_li_gesture(struct tt_writer *w, const struct tt_li_event *ev)
{
	bool pinch = ev->kind >= TT_LI_GESTURE_PINCH_BEGIN && ev->kind <= TT_LI_GESTURE_PINCH_END;

	kv_int(w, "fingers", ev->fingers);
	if (ev->kind == TT_LI_GESTURE_SWIPE_UPDATE || ev->kind == TT_LI_GESTURE_PINCH_UPDATE) {
		kv_pair(w, "delta", ev->dx, ev->dy);
		kv_pair(w, "unaccel", ev->dx_unaccel, ev->dy_unaccel);
	}
	if (pinch) {
		kv_double(w, "scale", ev->scale);
		if (ev->kind == TT_LI_GESTURE_PINCH_UPDATE)
			kv_double(w, "angle", ev->angle);
	}
	if (ev->cancelled)
		kv_bool(w, "cancelled", true);
}

static void
put_li_touch(struct tt_writer *w, const struct tt_li_event *ev)
{
	kv_int(w, "slot", ev->slot);
	kv_int(w, "seat_slot", ev->seat_slot);
	if (ev->kind == TT_LI_TOUCH_DOWN || ev->kind == TT_LI_TOUCH_MOTION) {
		kv_pair(w, "mm", ev->x, ev->y);
		kv_pair(w, "norm", ev->x_norm, ev->y_norm);
	}
}

/* The fields of @ev's class; see formats/timeline.md, "li". */
static void
put_li_fields(struct tt_writer *w, const struct tt_li_event *ev)
{
	switch (tt_li_event_class(ev->kind)) {
	case TT_LI_CLASS_DEVICE:
	case TT_LI_CLASS_TOUCH_FRAME:
		break;
	case TT_LI_CLASS_KEY:
		kv_int(w, "key", ev->code);
		kv_str(w, "state", ev->pressed ? "pressed" : "released");
		kv_int(w, "seat_count", ev->seat_count);
		break;
	case TT_LI_CLASS_BUTTON:
		kv_int(w, "button", ev->code);
		kv_str(w, "state", ev->pressed ? "pressed" : "released");
		kv_int(w, "seat_count", ev->seat_count);
		break;
	case TT_LI_CLASS_MOTION:
		kv_pair(w, "delta", ev->dx, ev->dy);
		kv_pair(w, "unaccel", ev->dx_unaccel, ev->dy_unaccel);
		break;
	case TT_LI_CLASS_ABSOLUTE:
		kv_pair(w, "mm", ev->x, ev->y);
		kv_pair(w, "norm", ev->x_norm, ev->y_norm);
		break;
	case TT_LI_CLASS_SCROLL: put_li_scroll(w, ev); break;
	case TT_LI_CLASS_TOUCH: put_li_touch(w, ev); break;
	case TT_LI_CLASS_TABLET: put_li_tablet(w, ev); break;
	case TT_LI_CLASS_GESTURE: put_li_gesture(w, ev); break;
	case TT_LI_CLASS_PAD:
		kv_int(w, "number", ev->code);
		if (ev->kind == TT_LI_TABLET_PAD_BUTTON)
			kv_str(w, "state", ev->pressed ? "pressed" : "released");
		else
			kv_double(w, "position", ev->position);
		break;
	case TT_LI_CLASS_SWITCH:
		kv_int(w, "switch", ev->code);
		kv_str(w, "state", ev->pressed ? "on" : "off");
		break;
	}
}

int
tt_writer_li_event(struct tt_writer *w, const struct tt_li_event *ev)
{
	put(w, "{", 1);
	kv_str(w, "type", "li");
	kv_str(w, "li", ev->kind == TT_LI_OTHER && ev->kind_name ?
			ev->kind_name : tt_li_event_name(ev->kind));
	kv_int(w, "t", ev->time_us);
	kv_int(w, "dev", ev->device);
	put_li_fields(w, ev);
	put(w, "}", 1);
	return flush_line(w);
}

int
tt_writer_record(struct tt_writer *w, const struct tt_record *rec)
{
	switch (rec->type) {
	case TT_RECORD_HEADER: return tt_writer_header(w, rec->header);
	case TT_RECORD_DEVICE: return tt_writer_device(w, rec->device);
	case TT_RECORD_FRAME: return tt_writer_frame(w, rec->frame);
	case TT_RECORD_XI_DEVICE: return tt_writer_xi_device(w, rec->xi_device);
	case TT_RECORD_XI_EVENT: return tt_writer_xi_event(w, rec->xi_event);
	case TT_RECORD_MARKER: return tt_writer_marker(w, rec->marker);
	case TT_RECORD_HID_DEVICE: return tt_writer_hid_device(w, rec->hid_device);
	case TT_RECORD_HID_REPORT: return tt_writer_hid_report(w, rec->hid_report);
	case TT_RECORD_LI_DEVICE: return tt_writer_li_device(w, rec->li_device);
	case TT_RECORD_LI_EVENT: return tt_writer_li_event(w, rec->li_event);
	case TT_RECORD_WL_EVENT: return tt_writer_wl_event(w, rec->wl_event);
	}
	return -EINVAL;
}

/* ---- for the records written in their own files (writer-private.h) ---- */

struct tt_json_emit *
writer_line(struct tt_writer *w)
{
	return &w->line;
}

int
writer_send_line(struct tt_writer *w)
{
	return flush_line(w);
}
