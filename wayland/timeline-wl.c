/* SPDX-License-Identifier: MIT */
/*
 * "wl" records: one event a Wayland client received. The keys an event
 * has are the protocol event's arguments; which ones a record holds is
 * kept in tt_wl_event.fields, so an event a newer protocol adds (read as
 * TT_WL_OTHER) is written back with the same keys it was read with.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "json-get.h"
#include "reader-private.h"
#include "timeline-wl.h"
#include "util-mem.h"
#include "util-strings.h"
#include "writer-private.h"

/* Scalar keys: the field bit they set and where they go. */
struct wl_key {
	struct jfield jf;
	uint32_t bit;
};

#define WLK(key, kind, min, max, member, bit) \
	{ { key, kind, false, min, max, offsetof(struct tt_wl_event, member), NULL }, bit }

static const struct wl_key wl_keys[] = {
	WLK("time_ms", JF_UINT32, 0, UINT32_MAX, time_ms, TT_WL_F_TIME_MS),
	WLK("time_us", JF_INT64, 0, INT64_MAX, time_compositor_us, TT_WL_F_TIME_COMPOSITOR_US),
	WLK("serial", JF_UINT32, 0, UINT32_MAX, serial, TT_WL_F_SERIAL),
	WLK("surface", JF_UINT32, 0, UINT32_MAX, surface, TT_WL_F_SURFACE),
	WLK("id", JF_INT32, INT32_MIN, INT32_MAX, id, TT_WL_F_ID),
	WLK("orientation", JF_DOUBLE, 0, 0, orientation, TT_WL_F_ORIENTATION),
	WLK("button", JF_UINT32, 0, UINT32_MAX, button, TT_WL_F_BUTTON),
	WLK("axis", JF_UINT32, 0, UINT32_MAX, axis, TT_WL_F_AXIS),
	WLK("value", JF_DOUBLE, 0, 0, value, TT_WL_F_VALUE),
	WLK("discrete", JF_INT32, INT32_MIN, INT32_MAX, steps, TT_WL_F_STEPS),
	WLK("value120", JF_INT32, INT32_MIN, INT32_MAX, steps, TT_WL_F_STEPS),
	WLK("source", JF_INT32, INT32_MIN, INT32_MAX, steps, TT_WL_F_STEPS),
	WLK("direction", JF_INT32, INT32_MIN, INT32_MAX, steps, TT_WL_F_STEPS),
	WLK("fingers", JF_UINT32, 0, UINT32_MAX, fingers, TT_WL_F_FINGERS),
	WLK("scale", JF_DOUBLE, 0, 0, scale, TT_WL_F_SCALE),
	WLK("rotation", JF_DOUBLE, 0, 0, rotation, TT_WL_F_ROTATION),
	WLK("cancelled", JF_BOOL, 0, 0, cancelled, TT_WL_F_CANCELLED),
	WLK("name", JF_STRING, 0, 0, name, TT_WL_F_NAME),
	WLK("make", JF_STRING, 0, 0, make, TT_WL_F_MAKE_MODEL),
	WLK("model", JF_STRING, 0, 0, model, TT_WL_F_MAKE_MODEL),
	WLK("subpixel", JF_INT32, INT32_MIN, INT32_MAX, subpixel, TT_WL_F_SUBPIXEL),
	WLK("transform", JF_INT32, 0, 7, transform, TT_WL_F_TRANSFORM),
	WLK("flags", JF_UINT32, 0, UINT32_MAX, mode_flags, TT_WL_F_MODE_FLAGS),
	WLK("refresh_mhz", JF_INT32, INT32_MIN, INT32_MAX, refresh_mhz, TT_WL_F_REFRESH),
};

/* Pairs of numbers: [x, y], [major, minor], ... */
struct wl_pair {
	const char *key;
	uint32_t bit;
	bool integer;
	size_t a, b;
};

#define WLP(key, bit, integer, a, b) \
	{ key, bit, integer, offsetof(struct tt_wl_event, a), offsetof(struct tt_wl_event, b) }

static const struct wl_pair wl_pairs[] = {
	WLP("xy", TT_WL_F_XY, false, x, y),
	WLP("shape", TT_WL_F_SHAPE, false, major, minor),
	WLP("delta", TT_WL_F_DELTA, false, dx, dy),
	WLP("position", TT_WL_F_POSITION, true, pos_x, pos_y),
	WLP("size", TT_WL_F_SIZE, true, width, height),
	WLP("size_mm", TT_WL_F_SIZE_MM, true, width_mm, height_mm),
};

/* ---- reading ---- */

static int
parse_wl_pair(struct json_object *o, const struct wl_pair *p, struct tt_wl_event *ev,
	      struct jerr *err)
{
	struct json_object *arr;
	int rc = jget_array(o, p->key, false, &arr, err);

	if (rc <= 0)
		return rc;
	if (json_object_array_length(arr) != 2)
		return jerr_set(err, "\"%s\" must be a pair of numbers", p->key);
	for (size_t i = 0; i < 2; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		void *dst = (char *)ev + (i == 0 ? p->a : p->b);
		int64_t n;
		double d;

		if (p->integer)
			rc = jval_int(v, p->key, INT32_MIN, INT32_MAX, &n, err);
		else
			rc = jval_double(v, p->key, &d, err);
		if (rc < 0)
			return rc;
		if (p->integer)
			*(int32_t *)dst = (int32_t)n;
		else
			*(double *)dst = d;
	}
	ev->fields |= p->bit;
	return 0;
}

static int
parse_wl_state(struct json_object *o, struct tt_wl_event *ev, struct jerr *err)
{
	_cleanup_free_ char *state = NULL;
	int rc = jget_string(o, "state", false, &state, err);

	if (rc <= 0)
		return rc;
	if (strcmp(state, "pressed") != 0 && strcmp(state, "released") != 0)
		return jerr_set(err, "\"state\" must be \"pressed\" or \"released\"");
	ev->pressed = strcmp(state, "pressed") == 0;
	ev->fields |= TT_WL_F_BUTTON;
	return 0;
}

/* Names this touchtape does not know (a newer writer's) are skipped. */
static int
parse_wl_capabilities(struct json_object *o, struct tt_wl_event *ev, struct jerr *err)
{
	struct json_object *arr;
	int rc = jget_array(o, "capabilities", false, &arr, err);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		const char *name;

		if (!json_object_is_type(v, json_type_string))
			return jerr_set(err, "\"capabilities\" items must be strings");
		name = json_object_get_string(v);
		for (unsigned int bit = 0; bit < 3; bit++) {
			if (strcmp(name, tt_wl_capability_name(1u << bit)) == 0)
				ev->capabilities |= 1u << bit;
		}
	}
	ev->fields |= TT_WL_F_CAPABILITIES;
	return 0;
}

static int
parse_wl_keys(struct json_object *o, struct tt_wl_event *ev, struct jerr *err)
{
	for (size_t i = 0; i < ARRAY_LENGTH(wl_keys); i++) {
		int rc;

		if (!json_object_object_get_ex(o, wl_keys[i].jf.key, NULL))
			continue;
		if ((rc = jget_fields(o, &wl_keys[i].jf, 1, ev, err)) < 0)
			return rc;
		ev->fields |= wl_keys[i].bit;
	}
	for (size_t i = 0; i < ARRAY_LENGTH(wl_pairs); i++) {
		int rc = parse_wl_pair(o, &wl_pairs[i], ev, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct jfield wl_head_fields[] = {
	{ "t", JF_INT64, true, -TT_MAX_TIME_US, TT_MAX_TIME_US, offsetof(struct tt_wl_event, time_us), NULL },
	{ "wl", JF_STRING, true, 0, 0, offsetof(struct tt_wl_event, interface), NULL },
	{ "ev", JF_STRING, true, 0, 0, offsetof(struct tt_wl_event, event), NULL },
	{ "client", JF_STRING, false, 0, 0, offsetof(struct tt_wl_event, client), NULL },
	{ "obj", JF_UINT32, false, 0, UINT32_MAX, offsetof(struct tt_wl_event, object), NULL },
};

int
timeline_parse_wl_event(struct tt_reader *r, struct json_object *o, struct tt_record *rec,
			struct jerr *err)
{
	struct tt_wl_event *ev = &r->wl;
	int rc;

	tt_wl_event_clear(ev);
	if ((rc = jget_fields(o, wl_head_fields, ARRAY_LENGTH(wl_head_fields), ev, err)) < 0 ||
	    (rc = parse_wl_keys(o, ev, err)) < 0 ||
	    (rc = parse_wl_state(o, ev, err)) < 0 ||
	    (rc = parse_wl_capabilities(o, ev, err)) < 0)
		return rc;
	/* An event a newer protocol has is kept by its names (TT_WL_OTHER). */
	ev->kind = tt_wl_event_from_names(ev->interface, ev->event);
	rec->wl_event = ev;
	return 0;
}

/* ---- writing ---- */

/* Sanitized first, as every string of a timeline. */
static void
emit_str(struct tt_json_emit *j, const char *k, const char *s)
{
	_cleanup_free_ char *clean = NULL;
	size_t len;

	if (!s)
		return;
	len = strlen(s);
	if (len > TT_MAX_STRING_BYTES || !tt_str_is_clean(s, len)) {
		clean = tt_str_sanitize(s, len, TT_MAX_STRING_BYTES);
		s = clean;
	}
	tt_json_emit_key(j, k);
	tt_json_emit_string(j, s);
}

/* The key the integer argument of the axis_* events is written under. */
static const char *
steps_key(const struct tt_wl_event *ev)
{
	switch (ev->kind) {
	case TT_WL_POINTER_AXIS_SOURCE: return "source";
	case TT_WL_POINTER_AXIS_VALUE120: return "value120";
	case TT_WL_POINTER_AXIS_RELATIVE_DIRECTION: return "direction";
	default: return "discrete";
	}
}

static void
emit_scalar(struct tt_json_emit *j, const struct wl_key *k, const struct tt_wl_event *ev)
{
	const void *src = (const char *)ev + k->jf.offset;

	switch (k->jf.kind) {
	case JF_UINT32: tt_json_emit_int(j, *(const uint32_t *)src); break;
	case JF_INT32: tt_json_emit_int(j, *(const int32_t *)src); break;
	case JF_INT64: tt_json_emit_int(j, *(const int64_t *)src); break;
	case JF_DOUBLE: tt_json_emit_real(j, *(const double *)src); break;
	case JF_BOOL: tt_json_emit_bool(j, *(const bool *)src); break;
	default: tt_json_emit_null(j); break;
	}
}

static void
emit_keys(struct tt_json_emit *j, const struct tt_wl_event *ev)
{
	const char *steps = steps_key(ev);

	for (size_t i = 0; i < ARRAY_LENGTH(wl_keys); i++) {
		const struct wl_key *k = &wl_keys[i];

		if (!(ev->fields & k->bit))
			continue;
		if (k->bit == TT_WL_F_STEPS && strcmp(k->jf.key, steps) != 0)
			continue;
		if (k->jf.kind == JF_STRING) {
			emit_str(j, k->jf.key, *(char *const *)((const char *)ev + k->jf.offset));
			continue;
		}
		tt_json_emit_key(j, k->jf.key);
		emit_scalar(j, k, ev);
	}
}

static void
emit_pairs(struct tt_json_emit *j, const struct tt_wl_event *ev)
{
	for (size_t i = 0; i < ARRAY_LENGTH(wl_pairs); i++) {
		const struct wl_pair *p = &wl_pairs[i];
		const char *base = (const char *)ev;

		if (!(ev->fields & p->bit))
			continue;
		tt_json_emit_key(j, p->key);
		tt_json_emit_array_begin(j);
		if (p->integer) {
			tt_json_emit_int(j, *(const int32_t *)(base + p->a));
			tt_json_emit_int(j, *(const int32_t *)(base + p->b));
		} else {
			tt_json_emit_real(j, *(const double *)(base + p->a));
			tt_json_emit_real(j, *(const double *)(base + p->b));
		}
		tt_json_emit_array_end(j);
	}
}

static void
emit_capabilities(struct tt_json_emit *j, uint32_t caps)
{
	tt_json_emit_key(j, "capabilities");
	tt_json_emit_array_begin(j);
	for (unsigned int bit = 0; bit < 3; bit++) {
		if (caps & (1u << bit))
			tt_json_emit_string(j, tt_wl_capability_name(1u << bit));
	}
	tt_json_emit_array_end(j);
}

int
tt_writer_wl_event(struct tt_writer *w, const struct tt_wl_event *ev)
{
	struct tt_json_emit *j = writer_line(w);
	bool known = ev->kind != TT_WL_OTHER;

	if (!known && (!ev->interface || !ev->event))
		return -EINVAL;
	tt_json_emit_object_begin(j);
	emit_str(j, "type", "wl");
	tt_json_emit_key(j, "t");
	tt_json_emit_int(j, ev->time_us);
	emit_str(j, "client", ev->client);
	emit_str(j, "wl", known ? tt_wl_interface_name(ev->kind) : ev->interface);
	if (ev->object) {
		tt_json_emit_key(j, "obj");
		tt_json_emit_int(j, ev->object);
	}
	emit_str(j, "ev", known ? tt_wl_event_name(ev->kind) : ev->event);
	emit_keys(j, ev);
	if (ev->fields & TT_WL_F_BUTTON)
		emit_str(j, "state", ev->pressed ? "pressed" : "released");
	emit_pairs(j, ev);
	if (ev->fields & TT_WL_F_CAPABILITIES)
		emit_capabilities(j, ev->capabilities);
	tt_json_emit_object_end(j);
	return writer_send_line(w);
}
