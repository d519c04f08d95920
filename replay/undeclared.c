/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "evnames.h"
#include "undeclared.h"
#include "util-mem.h"

/* The types uinput-device.c recreates, with their maxima (EV_FF and
 * EV_PWR are not recreated; EV_REP is a setting, not a code). */
static int
type_max(unsigned int type)
{
	switch (type) {
	case EV_KEY: return KEY_MAX;
	case EV_REL: return REL_MAX;
	case EV_ABS: return ABS_MAX;
	case EV_MSC: return MSC_MAX;
	case EV_SW: return SW_MAX;
	case EV_LED: return LED_MAX;
	case EV_SND: return SND_MAX;
	default: return -1;
	}
}

bool
rp_undeclared_creatable(unsigned int type, unsigned int code)
{
	return (int)code <= type_max(type);
}

int
rp_undeclared_partner(const struct tt_device *desc, unsigned int code)
{
	static const unsigned int pairs[][2] = {
		{ ABS_X, ABS_MT_POSITION_X },
		{ ABS_Y, ABS_MT_POSITION_Y },
		{ ABS_PRESSURE, ABS_MT_PRESSURE },
		{ ABS_DISTANCE, ABS_MT_DISTANCE },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(pairs); i++) {
		for (unsigned int side = 0; side < 2; side++) {
			unsigned int other = pairs[i][!side];
			if (pairs[i][side] == code && tt_device_has(desc, EV_ABS, other))
				return (int)other;
		}
	}
	return -1;
}

/* An added axis without a partner spans the values written; tracking
 * ID -1 is a release, not a value. */
static void
widen(struct tt_absinfo *a, unsigned int code, int32_t value, bool first)
{
	if (code == ABS_MT_TRACKING_ID && value < 0)
		return;
	if (first || value < a->minimum)
		a->minimum = value;
	if (first || value > a->maximum)
		a->maximum = value;
}

static void
add_axis(struct tt_device *own, const struct tt_device *desc, unsigned int code, int32_t value,
	 bool first)
{
	struct tt_absinfo *a = &own->abs[code];
	int partner = rp_undeclared_partner(desc, code);

	if (partner >= 0) {
		if (first) {
			*a = desc->abs[partner];
			a->value = 0;
		}
		return;
	}
	if (first)
		memset(a, 0, sizeof(*a));
	widen(a, code, value, first);
	if (code == ABS_MT_TRACKING_ID && a->minimum > 0)
		a->minimum = 0;
	if (code == ABS_MT_SLOT) {
		a->minimum = 0;
		own->mt_protocol = TT_MT_B;
		own->num_slots = (uint32_t)a->maximum + 1;
	}
}

void
rp_undeclared_add(struct tt_device *own, const struct tt_device *desc,
		  struct rp_added *added, unsigned int type, unsigned int code, int32_t value)
{
	bool first = !bit_is_set(added->codes[type], code);

	if (first) {
		set_bit(added->codes[type], code);
		set_bit(own->types, type);
		set_bit(own->codes[type], code);
		added->count++;
	}
	if (type == EV_ABS)
		add_axis(own, desc, code, value, first);
}

void
rp_undeclared_list(const struct rp_added *added, const struct tt_device *desc,
		   char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int type = 0; type < EV_CNT; type++) {
		int max = type_max(type);
		for (int code = 0; code <= max && used < size; code++) {
			char cb[24], pb[24], how[48] = "";
			int partner;

			if (!bit_is_set(added->codes[type], (unsigned int)code))
				continue;
			if (type == EV_ABS && (partner = rp_undeclared_partner(desc, (unsigned int)code)) >= 0)
				snprintf(how, sizeof(how), " (absinfo of %s)",
					 tt_code_label(pb, sizeof(pb), EV_ABS, (unsigned int)partner));
			else if (type == EV_ABS)
				snprintf(how, sizeof(how), " (range of the values seen)");
			used += (size_t)snprintf(buf + used, size - used, "%s%s%s", used ? ", " : "",
						 tt_code_label(cb, sizeof(cb), type, (unsigned int)code),
						 how);
		}
	}
}
