/* SPDX-License-Identifier: MIT */
/*
 * Typed, range-checked access to json-c values. Each getter checks
 * presence, type and range in one place and, on failure, writes a message
 * naming the key and what was expected into @err. Getters return 1 when
 * the value was there and is good, 0 when an optional key is absent (the
 * out-parameter is then untouched), and -EINVAL when something is wrong.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

struct jerr {
	char msg[512];
};

int jerr_set(struct jerr *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int jget_object(struct json_object *o, const char *key, bool required,
		struct json_object **out, struct jerr *err);
int jget_array(struct json_object *o, const char *key, bool required,
	       struct json_object **out, struct jerr *err);
int jget_int(struct json_object *o, const char *key, bool required,
	     int64_t min, int64_t max, int64_t *out, struct jerr *err);
int jget_double(struct json_object *o, const char *key, bool required,
		double *out, struct jerr *err);
int jget_bool(struct json_object *o, const char *key, bool required,
	      bool *out, struct jerr *err);
/* *out is a newly allocated, sanitized copy. */
int jget_string(struct json_object *o, const char *key, bool required,
		char **out, struct jerr *err);

/* The same checks for a value that is not in an object (array items);
 * @what names it in messages. */
int jval_int(struct json_object *v, const char *what, int64_t min, int64_t max,
	     int64_t *out, struct jerr *err);
int jval_double(struct json_object *v, const char *what, double *out, struct jerr *err);
/* An event type or code: a number or a libevdev name. */
int jval_type(struct json_object *v, const char *what, unsigned int *out, struct jerr *err);
int jval_code(struct json_object *v, const char *what, unsigned int type,
	      unsigned int *out, struct jerr *err);
/* Same, for an object key (a string: a name or a decimal number). */
int jkey_code(const char *key, unsigned int type, unsigned int *out, struct jerr *err);

/* An object's keys as a table, read in order into the struct at @base:
 * the first bad key is the one named, as with a chain of getters. */
enum jfield_kind {
	JF_STRING,	/* char *: a sanitized copy */
	JF_BOOL,	/* bool */
	JF_INT32,	/* int32_t within [min, max] */
	JF_UINT32,	/* uint32_t within [min, max] */
	JF_INT64,	/* int64_t within [min, max] */
	JF_DOUBLE,	/* double */
	JF_OBJECT,	/* parse(base + offset, the object) */
	JF_ARRAY,	/* parse(base + offset, the array) */
	JF_CUSTOM,	/* parse(base + offset, the containing object): the
			   parser reads its key itself */
};

struct jfield {
	const char *key;
	enum jfield_kind kind;
	bool required;
	int64_t min;
	int64_t max;
	size_t offset;
	int (*parse)(void *field, struct json_object *v, struct jerr *err);
};

/* 0 when every key is absent-and-optional or good, -EINVAL otherwise;
 * what was read before a bad key stays in @base for its owner to free. */
int jget_fields(struct json_object *o, const struct jfield *fields, size_t n,
		void *base, struct jerr *err);

/* Each item of the array @arr, an object, read with @fields into the
 * @size-byte elements of @items; @what names the array in messages. */
int jval_objects(struct json_object *arr, const char *what,
		 const struct jfield *fields, size_t nfields,
		 void *items, size_t size, struct jerr *err);
