/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libevdev/libevdev.h>

#include "evnames.h"

const char *
tt_type_name(unsigned int type)
{
	return libevdev_event_type_get_name(type);
}

const char *
tt_code_name(unsigned int type, unsigned int code)
{
	return libevdev_event_code_get_name(type, code);
}

int
tt_code_max(unsigned int type)
{
	if (type > EV_MAX)
		return -1;
	return libevdev_event_type_get_max(type);
}

static int
parse_number(const char *s, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int
tt_type_from_string(const char *s, unsigned int *out)
{
	int t;

	if (!s)
		return -EINVAL;
	if (s[0] >= '0' && s[0] <= '9')
		return parse_number(s, EV_MAX, out);
	t = libevdev_event_type_from_name(s);
	if (t < 0)
		return -EINVAL;
	*out = (unsigned int)t;
	return 0;
}

int
tt_code_from_string(unsigned int type, const char *s, unsigned int *out)
{
	int max = tt_code_max(type);
	int c;

	if (!s || max < 0)
		return -EINVAL;
	if (s[0] >= '0' && s[0] <= '9')
		return parse_number(s, (unsigned long)max, out);
	c = libevdev_event_code_from_name(type, s);
	if (c < 0)
		return -EINVAL;
	*out = (unsigned int)c;
	return 0;
}

const char *
tt_code_label(char *buf, unsigned long size, unsigned int type, unsigned int code)
{
	const char *name = tt_code_name(type, code);

	if (name)
		return name;
	snprintf(buf, size, "%u", code);
	return buf;
}

const char *
tt_type_label(char *buf, unsigned long size, unsigned int type)
{
	const char *name = tt_type_name(type);

	if (name)
		return name;
	snprintf(buf, size, "%u", type);
	return buf;
}

const char *
tt_prop_name(unsigned int prop)
{
	return libevdev_property_get_name(prop);
}

int
tt_prop_from_string(const char *s, unsigned int *out)
{
	int p;

	if (!s)
		return -EINVAL;
	if (s[0] >= '0' && s[0] <= '9')
		return parse_number(s, INPUT_PROP_MAX, out);
	p = libevdev_property_from_name(s);
	if (p < 0)
		return -EINVAL;
	*out = (unsigned int)p;
	return 0;
}

const char *
tt_code_label_exact(char *buf, unsigned long size, unsigned int type, unsigned int code)
{
	const char *name = tt_code_name(type, code);
	unsigned int back;

	if (name && tt_code_from_string(type, name, &back) == 0 && back == code)
		return name;
	snprintf(buf, size, "%u", code);
	return buf;
}
