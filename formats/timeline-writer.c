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
#include "record-layer.h"
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

void
writer_put(struct tt_writer *w, const char *s, size_t n)
{
	tt_json_emit_raw(&w->line, s, n);
}

static void
puts_(struct tt_writer *w, const char *s)
{
	writer_put(w, s, strlen(s));
}

void
writer_put_int(struct tt_writer *w, int64_t v)
{
	tt_json_emit_int(&w->line, v);
}

void
writer_put_double(struct tt_writer *w, double v)
{
	tt_json_emit_real(&w->line, v);
}

/* Sanitized first: a timeline keeps no control characters at all, not
 * even escaped ones. */
void
writer_put_string(struct tt_writer *w, const char *s)
{
	_cleanup_free_ char *clean = NULL;
	size_t len = strlen(s);

	if (len > TT_MAX_STRING_BYTES || !tt_str_is_clean(s, len)) {
		clean = tt_str_sanitize(s, len, TT_MAX_STRING_BYTES);
		s = clean;
	}
	tt_json_emit_escaped(&w->line, s);
}

void
writer_key(struct tt_writer *w, const char *k)
{
	if (w->line.len > 0 && w->line.buf[w->line.len - 1] != '{')
		writer_put(w, ",", 1);
	writer_put(w, "\"", 1);
	puts_(w, k);
	writer_put(w, "\":", 2);
}

void
writer_kv_int(struct tt_writer *w, const char *k, int64_t v)
{
	writer_key(w, k);
	writer_put_int(w, v);
}

void
writer_kv_str(struct tt_writer *w, const char *k, const char *v)
{
	if (!v)
		return;
	writer_key(w, k);
	writer_put_string(w, v);
}

void
writer_kv_bool(struct tt_writer *w, const char *k, bool v)
{
	writer_key(w, k);
	puts_(w, v ? "true" : "false");
}

static void
put_code_name(struct tt_writer *w, unsigned int type, unsigned int code)
{
	char buf[16];
	writer_put(w, "\"", 1);
	puts_(w, tt_code_label_exact(buf, sizeof(buf), type, code));
	writer_put(w, "\"", 1);
}

/* Sends the composed line with as many write(2)s as it takes. */
int
writer_flush_line(struct tt_writer *w)
{
	size_t off = 0;

	writer_put(w, "\n", 1);
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
	/* The two clocks at one instant: CLOCK_REALTIME between two reads of
	 * CLOCK_MONOTONIC, paired with their midpoint, so a preemption
	 * between the reads (ms under emulation) moves the pair by half of
	 * it at most, not all of it one way. */
	int64_t mono_before = tt_now_us(CLOCK_MONOTONIC);
	h->start_realtime_us = tt_now_us(CLOCK_REALTIME);
	h->start_monotonic_us = mono_before + (tt_now_us(CLOCK_MONOTONIC) - mono_before) / 2;
}

/* ---- surroundings (formats/timeline.md, "Surroundings") ---- */

static void
put_system(struct tt_writer *w, const struct tt_header *h)
{
	if (!tt_header_has_system(h))
		return;
	writer_key(w, "system");
	writer_put(w, "{", 1);
	writer_kv_str(w, "dmi_modalias", h->dmi_modalias);
	writer_kv_str(w, "os_id", h->os_id);
	writer_kv_str(w, "os_version_id", h->os_version_id);
	writer_kv_str(w, "libinput_version", h->libinput_version);
	writer_kv_str(w, "libevdev_version", h->libevdev_version);
	writer_put(w, "}", 1);
}

/* A name that could not be read back is left out rather than refused:
 * the rest of the record is still worth having. */
static void
put_property_map(struct tt_writer *w, const char *k, const struct tt_property *list, uint32_t n)
{
	writer_key(w, k);
	writer_put(w, "{", 1);
	for (uint32_t i = 0; i < n && i < TT_MAX_PROPERTIES; i++) {
		if (tt_property_name_is_valid(list[i].name))
			writer_kv_str(w, list[i].name, list[i].value ? list[i].value : "");
	}
	writer_put(w, "}", 1);
}

static void
put_surroundings(struct tt_writer *w, const struct tt_device *dev)
{
	writer_kv_str(w, "syspath", dev->syspath);
	writer_kv_str(w, "driver", dev->driver);
	if (dev->has_udev)
		put_property_map(w, "udev", dev->udev, dev->nudev);
	if (dev->has_udev || dev->nhwdb)
		put_property_map(w, "hwdb", dev->hwdb, dev->nhwdb);
	if (dev->has_quirks || dev->nquirks) {
		writer_key(w, "quirks");
		writer_put(w, "[", 1);
		for (uint32_t i = 0; i < dev->nquirks && i < TT_MAX_QUIRKS; i++) {
			if (i)
				writer_put(w, ",", 1);
			writer_put_string(w, dev->quirks[i]);
		}
		writer_put(w, "]", 1);
	}
}

int
tt_writer_header(struct tt_writer *w, const struct tt_header *h)
{
	writer_put(w, "{", 1);
	writer_kv_str(w, "format", TT_FORMAT_NAME);
	writer_kv_int(w, "version", TT_FORMAT_VERSION);
	writer_kv_str(w, "tool", h->tool ? h->tool : PACKAGE_NAME " " PACKAGE_VERSION);
	writer_kv_str(w, "kernel", h->kernel);
	if (h->x_vendor) {
		writer_key(w, "x_server");
		writer_put(w, "{", 1);
		writer_kv_str(w, "vendor", h->x_vendor);
		writer_kv_int(w, "release", h->x_release);
		writer_put(w, "}", 1);
	}
	writer_key(w, "start");
	writer_put(w, "{", 1);
	writer_kv_int(w, "monotonic_us", h->start_monotonic_us);
	writer_kv_int(w, "realtime_us", h->start_realtime_us);
	writer_put(w, "}", 1);
	writer_kv_bool(w, "keycodes_masked", h->keycodes_masked);
	writer_kv_str(w, "source_format", h->source_format);
	put_system(w, h);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

static void
put_code_list(struct tt_writer *w, const uint8_t *bits, unsigned int type, unsigned int count)
{
	bool first = true;

	writer_put(w, "[", 1);
	for (unsigned int c = 0; c < count; c++) {
		if (!bit_is_set(bits, c))
			continue;
		if (!first)
			writer_put(w, ",", 1);
		first = false;
		put_code_name(w, type, c);
	}
	writer_put(w, "]", 1);
}

static void
put_props(struct tt_writer *w, const uint8_t *props)
{
	bool first = true;

	writer_put(w, "[", 1);
	for (unsigned int p = 0; p < INPUT_PROP_CNT; p++) {
		const char *name;
		if (!bit_is_set(props, p))
			continue;
		if (!first)
			writer_put(w, ",", 1);
		first = false;
		name = tt_prop_name(p);
		unsigned int back;
		if (name && tt_prop_from_string(name, &back) == 0 && back == p) {
			writer_put(w, "\"", 1);
			puts_(w, name);
			writer_put(w, "\"", 1);
		} else {
			writer_put_int(w, p);
		}
	}
	writer_put(w, "]", 1);
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

	writer_key(w, "mt");
	writer_put(w, "{", 1);
	writer_kv_str(w, "protocol", dev->mt_protocol == TT_MT_B ? "B" : "A");
	if (dev->mt_protocol == TT_MT_B) {
		writer_kv_int(w, "slots", dev->num_slots);
		writer_kv_int(w, "current_slot", dev->current_slot);
		writer_key(w, "state");
		writer_put(w, "[", 1);
		for (uint32_t s = 0; s < dev->num_slots; s++) {
			const struct tt_slot_state *st = &dev->slots[s];
			if (slot_is_default(dev, st))
				continue;
			if (!first)
				writer_put(w, ",", 1);
			first = false;
			writer_put(w, "{", 1);
			writer_kv_int(w, "slot", s);
			for (unsigned int i = 0; i < TT_MT_AXES; i++) {
				unsigned int code = TT_MT_FIRST + i;
				char buf[16];
				if (!tt_device_has(dev, EV_ABS, code))
					continue;
				writer_key(w, tt_code_label_exact(buf, sizeof(buf), EV_ABS, code));
				writer_put_int(w, st->values[i]);
			}
			writer_put(w, "}", 1);
		}
		writer_put(w, "]", 1);
	}
	writer_put(w, "}", 1);
}

int
tt_writer_device(struct tt_writer *w, const struct tt_device *dev)
{
	char buf[16];

	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "device");
	writer_kv_int(w, "id", dev->id);
	writer_kv_str(w, "name", dev->name ? dev->name : "");
	writer_kv_str(w, "node", dev->node);
	writer_kv_str(w, "phys", dev->phys);
	writer_kv_str(w, "uniq", dev->uniq);
	writer_key(w, "input_id");
	writer_put(w, "{", 1);
	writer_kv_int(w, "bustype", dev->bustype);
	writer_kv_int(w, "vendor", dev->vendor);
	writer_kv_int(w, "product", dev->product);
	writer_kv_int(w, "version", dev->version);
	writer_put(w, "}", 1);
	if (dev->driver_version)
		writer_kv_int(w, "driver_version", dev->driver_version);
	writer_key(w, "properties");
	put_props(w, dev->props);

	writer_key(w, "codes");
	writer_put(w, "{", 1);
	for (unsigned int t = 0; t < EV_CNT; t++) {
		int max = tt_code_max(t);
		if (!bit_is_set(dev->types, t) || max < 0)
			continue;
		writer_key(w, tt_type_label(buf, sizeof(buf), t));
		put_code_list(w, dev->codes[t], t, (unsigned int)max + 1);
	}
	writer_put(w, "}", 1);

	if (bit_is_set(dev->types, EV_ABS)) {
		writer_key(w, "absinfo");
		writer_put(w, "{", 1);
		for (unsigned int c = 0; c < ABS_CNT; c++) {
			const struct tt_absinfo *a = &dev->abs[c];
			if (!tt_device_has(dev, EV_ABS, c))
				continue;
			writer_key(w, tt_code_label_exact(buf, sizeof(buf), EV_ABS, c));
			writer_put(w, "{", 1);
			writer_kv_int(w, "value", a->value);
			writer_kv_int(w, "min", a->minimum);
			writer_kv_int(w, "max", a->maximum);
			writer_kv_int(w, "fuzz", a->fuzz);
			writer_kv_int(w, "flat", a->flat);
			writer_kv_int(w, "resolution", a->resolution);
			writer_put(w, "}", 1);
		}
		writer_put(w, "}", 1);
	}
	if (bit_is_set(dev->types, EV_REP)) {
		writer_key(w, "rep");
		writer_put(w, "{", 1);
		writer_kv_int(w, "delay", dev->rep_delay);
		writer_kv_int(w, "period", dev->rep_period);
		writer_put(w, "}", 1);
	}
	if (dev->mt_protocol != TT_MT_NONE)
		put_mt(w, dev);

	writer_key(w, "state");
	writer_put(w, "{", 1);
	writer_key(w, "keys_down");
	put_code_list(w, dev->keys_down, EV_KEY, KEY_CNT);
	writer_key(w, "leds_on");
	put_code_list(w, dev->leds_on, EV_LED, LED_CNT);
	writer_key(w, "switches_on");
	put_code_list(w, dev->switches_on, EV_SW, SW_CNT);
	writer_put(w, "}", 1);
	if (dev->grabbed_by_other)
		writer_kv_bool(w, "grabbed_by_other", true);
	put_surroundings(w, dev);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

int
tt_writer_frame(struct tt_writer *w, const struct tt_frame *f)
{
	if (f->nevents > TT_MAX_FRAME_EVENTS)
		return -E2BIG;

	puts_(w, "{\"type\":\"frame\",\"dev\":");
	writer_put_int(w, f->device);
	puts_(w, ",\"t\":");
	writer_put_int(w, f->time_us);
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
			writer_put(w, ",", 1);
		writer_put(w, "[", 1);
		writer_put_int(w, e->type);
		writer_put(w, ",", 1);
		writer_put_int(w, e->code);
		writer_put(w, ",", 1);
		writer_put_int(w, e->value);
		if (e->dt_us) {
			writer_put(w, ",", 1);
			writer_put_int(w, e->dt_us);
		}
		writer_put(w, "]", 1);
	}
	puts_(w, "]}");
	return writer_flush_line(w);
}


int
tt_writer_record(struct tt_writer *w, const struct tt_record *rec)
{
	const struct tt_record_kind *kind = tt_record_kind(rec->type);

	if (!kind || !kind->write)
		return -EINVAL;
	return kind->write(w, rec);
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
	return writer_flush_line(w);
}
