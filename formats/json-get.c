/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evnames.h"
#include "json-get.h"
#include "timeline.h"
#include "util-mem.h"
#include "util-strings.h"

int
jerr_set(struct jerr *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *
type_word(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fractional number";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "something else";
}

static int
lookup(struct json_object *o, const char *key, bool required,
       struct json_object **v, struct jerr *err)
{
	if (!json_object_object_get_ex(o, key, v) || *v == NULL) {
		if (required)
			return jerr_set(err, "missing key \"%s\"", key);
		return 0;
	}
	return 1;
}

/* The key quoted, for a value's message: built only when there is one
 * to write (a snprintf per value read cost more than the reading). */
static const char *
quoted(const char *key, char what[static 96])
{
	snprintf(what, 96, "\"%s\"", key);
	return what;
}

static int
get_typed(struct json_object *o, const char *key, bool required, enum json_type t,
	  const char *word, struct json_object **out, struct jerr *err)
{
	struct json_object *v;
	int rc = lookup(o, key, required, &v, err);

	if (rc <= 0)
		return rc;
	if (!json_object_is_type(v, t))
		return jerr_set(err, "\"%s\" must be %s, not %s", key, word, type_word(v));
	*out = v;
	return 1;
}

int
jget_object(struct json_object *o, const char *key, bool required,
	    struct json_object **out, struct jerr *err)
{
	return get_typed(o, key, required, json_type_object, "an object", out, err);
}

int
jget_array(struct json_object *o, const char *key, bool required,
	   struct json_object **out, struct jerr *err)
{
	return get_typed(o, key, required, json_type_array, "an array", out, err);
}

/* An integer in [min, max]: true and *out set. */
static bool
int_in_range(struct json_object *v, int64_t min, int64_t max, int64_t *out)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return false;
	errno = 0;
	x = json_object_get_int64(v);
	/* json-c saturates out-of-range integers and says so in errno;
	 * numbers above INT64_MAX are kept as uint64 and read back as
	 * INT64_MAX, which every range below excludes. */
	if (errno == ERANGE || x < min || x > max)
		return false;
	*out = x;
	return true;
}

int
jval_int(struct json_object *v, const char *what, int64_t min, int64_t max,
	 int64_t *out, struct jerr *err)
{
	if (int_in_range(v, min, max, out))
		return 1;
	if (!json_object_is_type(v, json_type_int))
		return jerr_set(err, "%s must be an integer, not %s", what, type_word(v));
	return jerr_set(err, "%s must be between %" PRId64 " and %" PRId64 ", not %s",
			what, min, max, json_object_to_json_string(v));
}

int
jget_int(struct json_object *o, const char *key, bool required,
	 int64_t min, int64_t max, int64_t *out, struct jerr *err)
{
	struct json_object *v;
	char what[96];
	int rc = lookup(o, key, required, &v, err);

	if (rc <= 0 || int_in_range(v, min, max, out))
		return rc;
	return jval_int(v, quoted(key, what), min, max, out, err);
}

/* A finite number within 1e15: true and *out set. */
static bool
double_in_range(struct json_object *v, double *out)
{
	double x;

	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	x = json_object_get_double(v);
	if (!isfinite(x) || fabs(x) > 1e15)
		return false;
	*out = x;
	return true;
}

int
jval_double(struct json_object *v, const char *what, double *out, struct jerr *err)
{
	if (double_in_range(v, out))
		return 1;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return jerr_set(err, "%s must be a number, not %s", what, type_word(v));
	return jerr_set(err, "%s is out of range", what);
}

int
jget_double(struct json_object *o, const char *key, bool required,
	    double *out, struct jerr *err)
{
	struct json_object *v;
	char what[96];
	int rc = lookup(o, key, required, &v, err);

	if (rc <= 0 || double_in_range(v, out))
		return rc;
	return jval_double(v, quoted(key, what), out, err);
}

int
jget_bool(struct json_object *o, const char *key, bool required,
	  bool *out, struct jerr *err)
{
	struct json_object *v;
	int rc = get_typed(o, key, required, json_type_boolean, "true or false", &v, err);

	if (rc <= 0)
		return rc;
	*out = json_object_get_boolean(v);
	return 1;
}

int
jget_string(struct json_object *o, const char *key, bool required,
	    char **out, struct jerr *err)
{
	struct json_object *v;
	int rc = get_typed(o, key, required, json_type_string, "a string", &v, err);
	int len;

	if (rc <= 0)
		return rc;
	len = json_object_get_string_len(v);
	if (len < 0 || (size_t)len > TT_MAX_STRING_BYTES)
		return jerr_set(err, "\"%s\" is longer than %u bytes", key, TT_MAX_STRING_BYTES);
	/* The file may have been written by anyone: clean it as if it came
	 * straight from a device. */
	*out = tt_str_sanitize(json_object_get_string(v), (size_t)len, TT_MAX_STRING_BYTES);
	return 1;
}

int
jval_type(struct json_object *v, const char *what, unsigned int *out, struct jerr *err)
{
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		if (tt_type_from_string(s, out) < 0)
			return jerr_set(err, "%s: unknown event type \"%.64s\"", what, s);
		return 1;
	}
	int64_t t;
	int rc = jval_int(v, what, 0, EV_MAX, &t, err);
	if (rc > 0)
		*out = (unsigned int)t;
	return rc;
}

int
jval_code(struct json_object *v, const char *what, unsigned int type,
	  unsigned int *out, struct jerr *err)
{
	int max = tt_code_max(type);

	if (max < 0)
		return jerr_set(err, "%s: event type %u has no codes", what, type);
	if (json_object_is_type(v, json_type_string))
		return jkey_code(json_object_get_string(v), type, out, err);

	int64_t c;
	int rc = jval_int(v, what, 0, max, &c, err);
	if (rc > 0)
		*out = (unsigned int)c;
	return rc;
}

int
jkey_code(const char *key, unsigned int type, unsigned int *out, struct jerr *err)
{
	if (tt_code_from_string(type, key, out) < 0) {
		char tbuf[16];
		return jerr_set(err, "\"%.64s\" is not a code of %s", key,
				tt_type_label(tbuf, sizeof(tbuf), type));
	}
	return 1;
}

/* An integer key into a field of 32 or 64 bits. */
static int
get_int_field(struct json_object *o, const struct jfield *f, void *field, struct jerr *err)
{
	int64_t v;
	int rc = jget_int(o, f->key, f->required, f->min, f->max, &v, err);

	if (rc <= 0)
		return rc;
	if (f->kind == JF_INT32)
		*(int32_t *)field = (int32_t)v;
	else if (f->kind == JF_UINT32)
		*(uint32_t *)field = (uint32_t)v;
	else
		*(int64_t *)field = v;
	return 1;
}

/* An object or array key handed on to the field's own parser. */
static int
get_nested_field(struct json_object *o, const struct jfield *f, void *field, struct jerr *err)
{
	struct json_object *v;
	int rc;

	if (f->kind == JF_OBJECT)
		rc = jget_object(o, f->key, f->required, &v, err);
	else
		rc = jget_array(o, f->key, f->required, &v, err);
	if (rc <= 0)
		return rc;
	return f->parse(field, v, err);
}

static int
get_field(struct json_object *o, const struct jfield *f, void *base, struct jerr *err)
{
	void *field = (char *)base + f->offset;

	switch (f->kind) {
	case JF_STRING:
		return jget_string(o, f->key, f->required, field, err);
	case JF_BOOL:
		return jget_bool(o, f->key, f->required, field, err);
	case JF_INT32:
	case JF_UINT32:
	case JF_INT64:
		return get_int_field(o, f, field, err);
	case JF_DOUBLE:
		return jget_double(o, f->key, f->required, field, err);
	case JF_OBJECT:
	case JF_ARRAY:
		return get_nested_field(o, f, field, err);
	case JF_CUSTOM:
		return f->parse(field, o, err);
	}
	return jerr_set(err, "\"%s\": no reader for this kind of key", f->key);
}

int
jget_fields(struct json_object *o, const struct jfield *fields, size_t n,
	    void *base, struct jerr *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = get_field(o, &fields[i], base, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
jval_objects(struct json_object *arr, const char *what,
	     const struct jfield *fields, size_t nfields,
	     void *items, size_t size, struct jerr *err)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		int rc;

		if (!json_object_is_type(o, json_type_object))
			return jerr_set(err, "%s entries must be objects", what);
		rc = jget_fields(o, fields, nfields, (char *)items + i * size, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}
