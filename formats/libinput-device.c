/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record reader's device description: the evdev: mapping
 * (name, id, codes, absinfo, properties) into a tt_device, and the notes
 * for what has no timeline equivalent.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "evnames.h"
#include "libinput-reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

int
li_each_pair(struct tt_reader *r, struct tt_device *dev, pair_fn fn)
{
	int rc = 0;

	for (;;) {
		_cleanup_yaml_event_ yaml_event_t key = { 0 };
		_cleanup_yaml_event_ yaml_event_t val = { 0 };
		if (li_next_event(r, &key) < 0)
			return -EINVAL;
		if (key.type == YAML_MAPPING_END_EVENT)
			return rc;
		if (li_next_event(r, &val) < 0)
			return -EINVAL;
		int t = fn(r, dev, &key, &val);
		if (t < 0 && rc == 0)
			rc = t;
		if (r->done)
			return -EINVAL;
	}
}

/* A mapping key that must be a number in [0, max]. */
static int
key_number(struct tt_reader *r, const yaml_event_t *key, const yaml_event_t *val,
	   const char *what, int64_t max, int64_t *out)
{
	int rc = key->type == YAML_SCALAR_EVENT
		? li_parse_int(r, li_scalar(key), li_ev_line(key), what, 0, max, out)
		: reader_fail(r, li_ev_line(key), "%s: keys must be numbers", what);

	if (rc < 0)
		li_skip_node(r, val);
	return rc;
}

/* codes: {TYPE: [CODE, ...]} */
static int
code_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	int64_t codes[KEY_CNT];
	int64_t type;
	int rc = key_number(r, key, val, "codes: event type", EV_MAX, &type);

	if (rc < 0)
		return rc;
	if (tt_code_max((unsigned int)type) < 0) {
		li_skip_node(r, val);
		return reader_fail(r, li_ev_line(key), "codes: %" PRId64 " is not a valid event type", type);
	}
	int n = li_read_int_seq(r, val, "codes", 0, tt_code_max((unsigned int)type), codes, KEY_CNT);
	for (int i = 0; i < n; i++) {
		tt_device_enable(dev, (unsigned int)type, (unsigned int)codes[i]);
		/* An axis without absinfo: 0..1, as evemu has it. */
		if (type == EV_ABS && dev->abs[codes[i]].maximum == 0 && dev->abs[codes[i]].minimum == 0)
			dev->abs[codes[i]].maximum = 1;
	}
	/* A type listed without codes still exists. */
	set_bit(dev->types, (unsigned int)type);
	return n < 0 ? n : 0;
}

/* absinfo: {CODE: [min, max, fuzz, flat, resolution]} */
static int
absinfo_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	int64_t code, v[5];
	int rc = key_number(r, key, val, "absinfo: axis", ABS_MAX, &code);
	int n;

	if (rc < 0)
		return rc;
	n = li_read_int_seq(r, val, "absinfo", INT32_MIN, INT32_MAX, v, 5);
	if (n < 0)
		return n;
	if (n != 5)
		return reader_fail(r, li_ev_line(val), "absinfo: axis %" PRId64 " needs [min, max, fuzz, flat, resolution]", code);
	if (v[0] > v[1])
		return reader_fail(r, li_ev_line(val), "absinfo: axis %" PRId64 ": min %" PRId64 " is above max %" PRId64,
				   code, v[0], v[1]);
	dev->abs[code] = (struct tt_absinfo){
		.minimum = (int32_t)v[0], .maximum = (int32_t)v[1], .fuzz = (int32_t)v[2],
		.flat = (int32_t)v[3], .resolution = (int32_t)v[4],
	};
	return 0;
}

static int
evdev_entry(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *key, const yaml_event_t *val)
{
	if (li_key_is(key, "name") && val->type == YAML_SCALAR_EVENT) {
		free(dev->name);
		dev->name = tt_str_sanitize(li_scalar(val), val->data.scalar.length, TT_MAX_STRING_BYTES);
		return 0;
	}
	if (li_key_is(key, "id")) {
		int64_t id[4];
		int n = li_read_int_seq(r, val, "id", 0, UINT16_MAX, id, 4);
		if (n < 0)
			return n;
		if (n != 4)
			return reader_fail(r, li_ev_line(val), "id: needs [bustype, vendor, product, version]");
		dev->bustype = (uint16_t)id[0];
		dev->vendor = (uint16_t)id[1];
		dev->product = (uint16_t)id[2];
		dev->version = (uint16_t)id[3];
		return 0;
	}
	if (li_key_is(key, "codes") && val->type == YAML_MAPPING_START_EVENT)
		return li_each_pair(r, dev, code_entry);
	if (li_key_is(key, "absinfo") && val->type == YAML_MAPPING_START_EVENT)
		return li_each_pair(r, dev, absinfo_entry);
	if (li_key_is(key, "properties")) {
		int64_t props[INPUT_PROP_CNT];
		int n = li_read_int_seq(r, val, "properties", 0, INPUT_PROP_MAX, props, INPUT_PROP_CNT);
		for (int i = 0; i < n; i++)
			set_bit(dev->props, (unsigned int)props[i]);
		return n < 0 ? n : 0;
	}
	/* "absinfo:" with nothing under it */
	if (li_key_is(key, "absinfo") && val->type == YAML_SCALAR_EVENT && val->data.scalar.length == 0)
		return 0;
	if (li_key_is(key, "name") || li_key_is(key, "codes") || li_key_is(key, "absinfo")) {
		li_skip_node(r, val);
		return reader_fail(r, li_ev_line(val), "evdev: unexpected value for %s", li_scalar(key));
	}
	/* Keys of newer writers. */
	li_skip_node(r, val);
	return 0;
}

int
li_parse_evdev(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *start)
{
	if (start->type != YAML_MAPPING_START_EVENT) {
		li_skip_node(r, start);
		return reader_fail(r, li_ev_line(start), "evdev: must be a mapping");
	}
	return li_each_pair(r, dev, evdev_entry);
}

/* A node rendered as compact YAML flow text, one event at a time. */
struct flow_text {
	char *buf;
	size_t size;
	size_t len;
	int depth;
	bool is_map[TT_JSON_MAX_DEPTH];
	size_t count[TT_JSON_MAX_DEPTH];
};

/* Appends @s whole or not at all: a cut note never ends mid-word. */
static void
flow_append(struct flow_text *ft, const char *s)
{
	size_t n = strlen(s);

	if (ft->len + n < ft->size) {
		memcpy(ft->buf + ft->len, s, n + 1);
		ft->len += n;
	}
}

static void
flow_event(struct flow_text *ft, const yaml_event_t *ev)
{
	enum { MAXD = TT_JSON_MAX_DEPTH };
	bool item = ev->type == YAML_SCALAR_EVENT || ev->type == YAML_SEQUENCE_START_EVENT ||
		    ev->type == YAML_MAPPING_START_EVENT;

	if (item && ft->depth > 0 && ft->depth <= MAXD) {
		size_t c = ft->count[ft->depth - 1]++;
		if (c > 0)
			flow_append(ft, ft->is_map[ft->depth - 1] && c % 2 ? ": " : ", ");
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		flow_append(ft, li_scalar(ev));
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		flow_append(ft, ev->type == YAML_SEQUENCE_START_EVENT ? "[" : "{");
		if (ft->depth < MAXD) {
			ft->is_map[ft->depth] = ev->type == YAML_MAPPING_START_EVENT;
			ft->count[ft->depth] = 0;
		}
		ft->depth++;
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		flow_append(ft, ev->type == YAML_SEQUENCE_END_EVENT ? "]" : "}");
		ft->depth--;
		break;
	default:
		break;
	}
}

/* Renders a node as compact flow text for a note (bounded), appended to
 * @buf: the YAML flow syntax, so a person reads it as the file had it. */
int
li_node_text(struct tt_reader *r, const yaml_event_t *start, char *buf, size_t size)
{
	struct flow_text ft = { .buf = buf, .size = size, .len = strlen(buf) };

	flow_event(&ft, start);
	while (ft.depth > 0) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		if (li_next_event(r, &ev) < 0)
			return -EINVAL;
		flow_event(&ft, &ev);
	}
	return 0;
}

void
li_add_note(struct tt_reader *r, int64_t device, size_t line, const char *text)
{
	struct li_priv *p = r->priv;

	if (p->nnotes >= MAX_NOTES) {
		reader_warn(r, line, "too many sections without a timeline equivalent; \"%.40s\" is dropped", text);
		return;
	}
	p->notes[p->nnotes++] = (struct note){
		tt_str_sanitize(text, strlen(text), TT_MAX_STRING_BYTES), line, device,
	};
}
