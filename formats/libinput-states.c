/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record reader's parser states: one function per place in
 * the document (top level, devices, a device, its events, an event list).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "evnames.h"
#include "libinput-li.h"
#include "libinput-reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- parser states ----
 *
 * One function per state of li_next(). Each gets the event that state
 * reads next (li_next() frees it) and returns 0 to read on, 1 when @rec
 * holds a record, or <0 on an error. */

/* The value of a top-level key this reader does not use: skipped. */
static int
skip_value(struct tt_reader *r)
{
	_cleanup_yaml_event_ yaml_event_t v = { 0 };

	if (li_next_event(r, &v) == 0)
		li_skip_node(r, &v);
	return 0;
}

static int
state_start(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_MAPPING_START_EVENT) {
		p->state = LI_TOP;
	} else if (ev->type == YAML_STREAM_END_EVENT) {
		p->state = LI_END;
	} else if (ev->type != YAML_STREAM_START_EVENT && ev->type != YAML_DOCUMENT_START_EVENT) {
		int rc = reader_fail(r, li_ev_line(ev), "a libinput recording is a YAML mapping (version:, devices:)");
		r->done = true;
		return rc;
	}
	return 0;
}

/* devices: the header goes out before the first device. */
static int
top_devices(struct tt_reader *r, const yaml_event_t *key, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t seq = { 0 };
	int rc;

	if (!p->version_seen) {
		rc = reader_fail(r, li_ev_line(key), "no \"version: 1\" before the devices");
		r->done = true;
		return rc;
	}
	if (li_next_event(r, &seq) < 0)
		return -EINVAL;
	if (seq.type != YAML_SEQUENCE_START_EVENT) {
		rc = reader_fail(r, li_ev_line(&seq), "devices: must be a list");
		li_skip_node(r, &seq);
		return rc;
	}
	p->state = LI_DEVICES;
	if (!p->header_sent)
		return li_emit_header(r, rec);
	return 0;
}

static int
top_version(struct tt_reader *r)
{
	struct li_priv *p = r->priv;
	_cleanup_free_ char *s = NULL;
	size_t line;
	int64_t v;
	int rc;

	rc = li_read_scalar(r, "version", &s, &line);
	if (rc == 0)
		rc = li_parse_int(r, s, line, "version", 1, INT32_MAX, &v);
	if (rc == 0 && v != 1)
		rc = reader_fail(r, line, "libinput-record version %" PRId64 " is not supported (only 1)", v);
	if (rc < 0) {
		r->done = true;
		return rc;
	}
	p->version_seen = true;
	return 0;
}

static void
set_header_string(char **field, const char *val, size_t len)
{
	free(*field);
	*field = tt_str_sanitize(val, len, TT_MAX_STRING_BYTES);
}

/* system: kernel, os ("ID:VERSION_ID", as libinput record writes
 * os-release's two) and dmi (the DMI modalias) into the header. */
static void
system_pair(struct tt_reader *r, const char *key, const char *val)
{
	struct tt_header *h = &r->header;

	if (strcmp(key, "kernel") == 0) {
		set_header_string(&h->kernel, val, strlen(val));
	} else if (strcmp(key, "dmi") == 0) {
		set_header_string(&h->dmi_modalias, val, strlen(val));
	} else if (strcmp(key, "os") == 0) {
		const char *colon = strchr(val, ':');
		set_header_string(&h->os_id, val, colon ? (size_t)(colon - val) : strlen(val));
		if (colon)
			set_header_string(&h->os_version_id, colon + 1, strlen(colon + 1));
	}
}

/* One "key: value" of libinput: or system:, appended to the note @text;
 * the tool's version and the kernel also go into the header. */
static void
info_pair(struct tt_reader *r, bool is_system, const yaml_event_t *k, const yaml_event_t *v,
	  char *text, size_t size)
{
	if (k->type != YAML_SCALAR_EVENT || v->type != YAML_SCALAR_EVENT) {
		li_skip_node(r, v);
		return;
	}

	const char *val = li_scalar(v);
	if (!is_system && strcmp(li_scalar(k), "version") == 0) {
		char tool[128];
		snprintf(tool, sizeof(tool), "libinput record %.64s", val);
		free(r->header.tool);
		r->header.tool = tt_str_sanitize(tool, strlen(tool), 128);
		set_header_string(&r->header.libinput_version, val, strlen(val));
	} else if (is_system) {
		system_pair(r, li_scalar(k), val);
	}
	size_t len = strlen(text);
	snprintf(text + len, size - len, " %.64s: %.600s", li_scalar(k), val);
}

/* Reads the pairs of an info mapping up to its end, or up to a YAML error
 * (the note keeps what was read). */
static void
info_pairs(struct tt_reader *r, bool is_system, char *text, size_t size)
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t k = { 0 };
		_cleanup_yaml_event_ yaml_event_t v = { 0 };

		if (li_next_event(r, &k) < 0 || k.type == YAML_MAPPING_END_EVENT)
			return;
		if (li_next_event(r, &v) < 0)
			return;
		info_pair(r, is_system, &k, &v, text, size);
	}
}

/* libinput: and system: have no timeline equivalent but a note. */
static int
top_info(struct tt_reader *r, const yaml_event_t *key)
{
	bool is_system = li_key_is(key, "system");
	_cleanup_yaml_event_ yaml_event_t m = { 0 };
	char text[1024];

	if (li_next_event(r, &m) < 0)
		return 0;
	if (m.type != YAML_MAPPING_START_EVENT) {
		li_skip_node(r, &m);
		return 0;
	}
	snprintf(text, sizeof(text), "libinput-record %s:", is_system ? "system" : "libinput");
	info_pairs(r, is_system, text, sizeof(text));
	li_add_note(r, -1, li_ev_line(key), text);
	return 0;
}

static int
state_top(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_MAPPING_END_EVENT) {
		p->state = LI_END;
		return 0;
	}
	if (li_key_is(ev, "devices"))
		return top_devices(r, ev, rec);
	if (li_key_is(ev, "version"))
		return top_version(r);
	if (li_key_is(ev, "libinput") || li_key_is(ev, "system"))
		return top_info(r, ev);
	/* ndevices and keys of newer writers. */
	if (ev->type == YAML_SCALAR_EVENT)
		return skip_value(r);

	int rc = reader_fail(r, li_ev_line(ev), "unexpected YAML at the top level");
	li_skip_node(r, ev);
	return rc;
}

static int
state_devices(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_TOP;
		return 0;
	}
	if (ev->type != YAML_MAPPING_START_EVENT) {
		int rc = reader_fail(r, li_ev_line(ev), "each device must be a mapping (node:, evdev:, events:)");
		li_skip_node(r, ev);
		return rc;
	}
	tt_device_free(p->dev);
	p->dev = tt_device_new(p->next_id);
	p->cur_dev = p->next_id++;
	p->dev_sent = false;
	p->dev_line = li_ev_line(ev);
	p->nevents = 0;
	p->state = LI_DEVICE;
	return 0;
}

/* The end of a device's mapping: its last frame, or the device itself
 * when it had no events. */
static int
device_end(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	p->state = LI_DEVICES;
	if (p->nevents) {
		reader_warn(r, p->frame_line, "the device's last frame has no SYN_REPORT");
		return li_emit_frame(r, rec, TT_FRAME_INCOMPLETE);
	}
	if (!p->dev_sent)
		return li_emit_device(r, rec);
	return 0;
}

/* events: the device record goes out before its first frame. */
static int
device_events(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *v, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	if (v->type == YAML_SEQUENCE_START_EVENT) {
		p->state = LI_EVENTS;
		if (p->cur_dev > 0 && !p->warned_order) {
			p->warned_order = true;
			reader_warn(r, li_ev_line(key), "libinput-record keeps each device's events "
				    "apart: device %u's frames follow the earlier devices' "
				    "instead of being interleaved by time", p->cur_dev);
		}
	} else if (!(v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0)) {
		int rc = reader_fail(r, li_ev_line(v), "events: must be a list");
		li_skip_node(r, v);
		return rc;
	}
	if (!p->dev_sent)
		return li_emit_device(r, rec);
	return 0;
}

/* hid:, udev:, quirks: kept as a note. */
static int
device_note(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *v)
{
	struct li_priv *p = r->priv;
	char text[TT_MAX_STRING_BYTES];
	int rc = 0;

	snprintf(text, sizeof(text), "libinput-record %s: ", li_scalar(key));
	if (v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0)
		strcat(text, "(empty)");
	else
		rc = li_node_text(r, v, text, sizeof(text));
	li_add_note(r, p->cur_dev, li_ev_line(key), text);
	return rc;
}

/* Calls @fn for each item of the sequence being read, up to its end. */
static int
each_item(struct tt_reader *r, struct tt_device *dev,
	  void (*fn)(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item))
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t item = { 0 };
		if (li_next_event(r, &item) < 0)
			return -EINVAL;
		if (item.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		fn(r, dev, &item);
	}
}

/* One "NAME=VALUE" of udev: properties:; anything else is left out with
 * a warning. */
static void
udev_property(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item)
{
	_cleanup_free_ char *copy = NULL;
	char *eq;

	if (item->type != YAML_SCALAR_EVENT) {
		reader_warn(r, li_ev_line(item), "udev: properties: an entry that is not NAME=VALUE; left out");
		li_skip_node(r, item);
		return;
	}
	copy = tt_strndup(li_scalar(item), item->data.scalar.length);
	eq = strchr(copy, '=');
	if (eq)
		*eq = '\0';
	if (!eq || tt_properties_add(&dev->udev, &dev->nudev, copy, eq + 1) < 0) {
		_cleanup_free_ char *shown = tt_str_sanitize(li_scalar(item), item->data.scalar.length, 64);
		reader_warn(r, li_ev_line(item), "udev: property \"%s\" is not NAME=VALUE with a udev "
			    "name, or one too many; left out", shown);
	}
}

static int
udev_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	if (li_key_is(key, "properties") && val->type == YAML_SEQUENCE_START_EVENT)
		return each_item(r, dev, udev_property);
	return li_skip_node(r, val);
}

/* udev: {properties: [NAME=VALUE, ...]}: the device's udev properties
 * (the hwdb overrides among them are told when the device goes out). */
static int
device_udev(struct tt_reader *r, struct tt_device *dev)
{
	dev->has_udev = true;
	return li_each_pair(r, dev, udev_entry);
}

static void
quirk_line(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *item)
{
	if (item->type != YAML_SCALAR_EVENT || tt_device_add_quirk(dev, li_scalar(item)) < 0) {
		reader_warn(r, li_ev_line(item), "quirks: an entry that is not a line, or one too many; left out");
		li_skip_node(r, item);
	}
}

/* quirks: [line, ...], or nothing: libinput matched none. */
static int
device_quirks(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *v)
{
	dev->has_quirks = true;
	return v->type == YAML_SEQUENCE_START_EVENT ? each_item(r, dev, quirk_line) : 0;
}

static bool
is_empty(const yaml_event_t *v)
{
	return v->type == YAML_SCALAR_EVENT && v->data.scalar.length == 0;
}

static int
state_device(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t v = { 0 };

	if (ev->type == YAML_MAPPING_END_EVENT)
		return device_end(r, rec);
	if (li_next_event(r, &v) < 0)
		return -EINVAL;
	if (p->dev_sent && !li_key_is(ev, "events")) {
		reader_warn(r, li_ev_line(ev), "device section after its events; ignored");
		li_skip_node(r, &v);
		return 0;
	}
	if (li_key_is(ev, "node") && v.type == YAML_SCALAR_EVENT) {
		free(p->dev->node);
		p->dev->node = tt_str_sanitize(li_scalar(&v), v.data.scalar.length, TT_MAX_STRING_BYTES);
		return 0;
	}
	if (li_key_is(ev, "evdev")) {
		int rc = li_parse_evdev(r, p->dev, &v);
		return rc < 0 ? rc : 0;
	}
	if (li_key_is(ev, "events"))
		return device_events(r, ev, &v, rec);
	if (li_key_is(ev, "udev") && v.type == YAML_MAPPING_START_EVENT)
		return device_udev(r, p->dev) < 0 ? -EINVAL : 0;
	if (li_key_is(ev, "quirks") && (v.type == YAML_SEQUENCE_START_EVENT || is_empty(&v)))
		return device_quirks(r, p->dev, &v) < 0 ? -EINVAL : 0;
	if (li_key_is(ev, "hid") || li_key_is(ev, "udev") || li_key_is(ev, "quirks")) {
		int rc = device_note(r, ev, &v);
		return rc < 0 ? rc : 0;
	}
	li_skip_node(r, &v);
	return 0;
}

static int
state_events(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_DEVICE;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		p->state = LI_ITEM;
	} else {
		int rc = reader_fail(r, li_ev_line(ev), "each events entry must be \"- evdev:\" or \"- libinput:\"");
		li_skip_node(r, ev);
		return rc;
	}
	return 0;
}

static int
state_item(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec _unused_)
{
	struct li_priv *p = r->priv;
	_cleanup_yaml_event_ yaml_event_t v = { 0 };
	bool evdev = li_key_is(ev, "evdev");
	bool li = li_key_is(ev, "libinput");

	if (ev->type == YAML_MAPPING_END_EVENT) {
		p->state = LI_EVENTS;
		return 0;
	}
	if (li_next_event(r, &v) < 0)
		return -EINVAL;
	if (!(evdev || li) || v.type != YAML_SEQUENCE_START_EVENT) {
		int rc = reader_fail(r, li_ev_line(ev), "unknown events entry; expected evdev: or libinput: with a list");
		li_skip_node(r, &v);
		return rc;
	}
	p->state = evdev ? LI_EVDEV : LI_LIBINPUT;
	return 0;
}

static int
state_evdev(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	int rc;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_ITEM;
		return 0;
	}
	rc = li_evdev_event(r, ev);
	if (rc > 0)
		return li_emit_frame(r, rec, 0);
	return rc;
}

/* One value of a libinput: entry: a scalar, or a list whose first two
 * numbers are kept; anything else is skipped. */
static int
entry_value(struct tt_reader *r, const yaml_event_t *v, struct li_entry_value *out)
{
	if (v->type == YAML_SCALAR_EVENT) {
		snprintf(out->text, sizeof(out->text), "%s", li_scalar(v));
		return 0;
	}
	if (v->type != YAML_SEQUENCE_START_EVENT)
		return li_skip_node(r, v);
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t item = { 0 };
		char *end;
		if (li_next_event(r, &item) < 0)
			return -EINVAL;
		if (item.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (item.type != YAML_SCALAR_EVENT) {
			li_skip_node(r, &item);
			continue;
		}
		double d = strtod(li_scalar(&item), &end);
		if (!*end && end != li_scalar(&item) && out->nnum < 2)
			out->num[out->nnum++] = d;
	}
}

/* Reads the rest of one {time:, type:, ...} mapping into @vals. */
static int
read_entry(struct tt_reader *r, struct li_entry_value *vals, size_t *n)
{
	for (;;) {
		_cleanup_yaml_event_ yaml_event_t k = { 0 };
		_cleanup_yaml_event_ yaml_event_t v = { 0 };
		if (li_next_event(r, &k) < 0)
			return -EINVAL;
		if (k.type == YAML_MAPPING_END_EVENT)
			return 0;
		if (li_next_event(r, &v) < 0)
			return -EINVAL;
		if (k.type != YAML_SCALAR_EVENT || *n >= LI_ENTRY_MAX_KEYS) {
			li_skip_node(r, &k);
			li_skip_node(r, &v);
			continue;
		}
		struct li_entry_value *e = &vals[(*n)++];
		memset(e, 0, sizeof(*e));
		snprintf(e->key, sizeof(e->key), "%s", li_scalar(&k));
		if (entry_value(r, &v, e) < 0)
			return -EINVAL;
	}
}

static int
state_libinput(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct li_entry_value vals[LI_ENTRY_MAX_KEYS];
	char text[1024] = "libinput: ";
	size_t n = 0;
	int rc;

	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		p->state = LI_ITEM;
		return 0;
	}
	if (ev->type != YAML_MAPPING_START_EVENT) {
		/* Not an event entry: kept as a note, as the file has it. */
		rc = li_node_text(r, ev, text, sizeof(text));
		if (rc == 0)
			li_add_note(r, p->cur_dev, li_ev_line(ev), text);
		return rc;
	}
	if ((rc = read_entry(r, vals, &n)) < 0)
		return rc;
	if (li_entry_to_event(vals, n, p->last_time, &r->li, text, sizeof(text)) < 0)
		return reader_fail(r, li_ev_line(ev), "%s", text);
	r->li.device = p->cur_dev;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_LI_EVENT;
	rec->li_event = &r->li;
	rec->line = li_ev_line(ev);
	return 1;
}


const state_fn li_states[LI_END] = {
	[LI_START] = state_start,
	[LI_TOP] = state_top,
	[LI_DEVICES] = state_devices,
	[LI_DEVICE] = state_device,
	[LI_EVENTS] = state_events,
	[LI_ITEM] = state_item,
	[LI_EVDEV] = state_evdev,
	[LI_LIBINPUT] = state_libinput,
};
