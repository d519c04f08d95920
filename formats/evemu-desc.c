/* SPDX-License-Identifier: MIT */
/*
 * The evemu reader's description: strict numbers, and the N:/I:/P:/B:/
 * A:/L:/S: lines (and their evtest-style comments) assembled into a
 * device.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evemu-private.h"
#include "evnames.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- number parsing: strict, bounded, no locale, no floats ---- */

const char *
evemu_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Hex of at most @maxdigits digits. Returns the end, or NULL. */
const char *
evemu_parse_hex(const char *s, unsigned int maxdigits, uint32_t *out)
{
	uint32_t v = 0;
	unsigned int n = 0;

	s = evemu_skip_ws(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (n < 9) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v * 16 + (uint32_t)d;
		s++;
		n++;
	}
	if (n == 0 || n > maxdigits)
		return NULL;
	*out = v;
	return s;
}

/* Signed decimal with optional leading zeros ("-001"), within int32. */
const char *
evemu_parse_dec(const char *s, int32_t *out)
{
	bool neg = false;
	int64_t v = 0;
	unsigned int n = 0;

	s = evemu_skip_ws(s);
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return NULL;
		s++;
		n++;
	}
	if (n == 0)
		return NULL;
	if (neg)
		v = -v;
	if (v > INT32_MAX || v < INT32_MIN)
		return NULL;
	*out = (int32_t)v;
	return s;
}

/* The rest of a line may hold blanks and a comment, nothing else. */
bool
evemu_at_end(const char *s)
{
	s = evemu_skip_ws(s);
	return *s == '\0' || *s == '#';
}

/* ---- description lines ---- */

void
evemu_desc_init(struct desc *d)
{
	tt_device_free(d->dev);
	memset(d, 0, sizeof(*d));
	d->dev = tt_device_new(0);
	d->comment_code = -1;
}

void
evemu_desc_release(struct desc *d)
{
	tt_device_free(d->dev);
	d->dev = NULL;
}

static int
parse_bytes(const char *s, uint8_t bytes[8])
{
	for (int i = 0; i < 8; i++) {
		uint32_t v;
		s = evemu_parse_hex(s, 2, &v);
		if (!s)
			return -1;
		bytes[i] = (uint8_t)v;
	}
	return evemu_at_end(s) ? 0 : -1;
}

/* Each description line's parser gets the text after "X:" and fails with
 * a message naming @name:@line. */

static int
desc_name(struct desc *d, const char *s)
{
	struct tt_device *dev = d->dev;
	size_t len;

	s = evemu_skip_ws(s);
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	free(dev->name);
	dev->name = tt_str_sanitize(s, len, TT_MAX_STRING_BYTES);
	d->have_name = true;
	return 0;
}

static int
desc_id(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_device *dev = d->dev;
	uint32_t w[4];

	for (int i = 0; i < 4; i++) {
		s = evemu_parse_hex(s, 4, &w[i]);
		if (!s)
			return reader_fail_in(r, name, line, "I: needs four hex numbers of at most 4 digits: bus vendor product version");
	}
	if (!evemu_at_end(s))
		return reader_fail_in(r, name, line, "I: unexpected text after the version");
	dev->bustype = (uint16_t)w[0];
	dev->vendor = (uint16_t)w[1];
	dev->product = (uint16_t)w[2];
	dev->version = (uint16_t)w[3];
	d->have_id = true;
	return 0;
}

/* P: and B: lines each carry the next 64 bits of a bitmap; past the
 * largest known bit the count stops growing (and cannot overflow). */
static void
bitmap_advance(size_t *bytes, size_t limit)
{
	if (*bytes < limit)
		*bytes += 8;
	else
		*bytes = limit + 8;
}

static int
desc_props(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	uint8_t bytes[8];

	if (parse_bytes(s, bytes) < 0)
		return reader_fail_in(r, name, line, "P: needs 8 hex bytes");
	for (unsigned int i = 0; i < 64; i++) {
		if (!bit_is_set(bytes, i))
			continue;
		size_t prop = d->pbytes * 8 + i;
		if (prop >= INPUT_PROP_CNT) {
			reader_warn(r, line, "property %zu is beyond the known properties; ignored", prop);
			continue;
		}
		set_bit(d->dev->props, (unsigned int)prop);
	}
	bitmap_advance(&d->pbytes, INPUT_PROP_CNT);
	return 0;
}

static int
desc_codes(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_device *dev = d->dev;
	uint8_t bytes[8];
	uint32_t v;

	s = evemu_parse_hex(s, 2, &v);
	if (!s || parse_bytes(s, bytes) < 0)
		return reader_fail_in(r, name, line, "B: needs an event type and 8 hex bytes");
	if (v >= EV_CNT || tt_code_max(v) < 0)
		return reader_fail_in(r, name, line, "B: event type 0x%02x is not a valid type", v);
	int max = tt_code_max(v);
	for (unsigned int i = 0; i < 64; i++) {
		if (!bit_is_set(bytes, i))
			continue;
		size_t code = d->mbytes[v] * 8 + i;
		if (code > (size_t)max) {
			reader_warn(r, line, "code %zu of type 0x%02x is beyond the largest known code %d; ignored",
				    code, v, max);
			continue;
		}
		tt_device_enable(dev, v, (unsigned int)code);
		/* evemu gives ABS axes without an A: line 0..1. */
		if (v == EV_ABS) {
			dev->abs[code].minimum = 0;
			dev->abs[code].maximum = 1;
		}
	}
	bitmap_advance(&d->mbytes[v], KEY_CNT);
	return 0;
}

static int
desc_absinfo(struct tt_reader *r, struct desc *d, const char *s, const char *name, size_t line)
{
	struct tt_absinfo *abs;
	uint32_t v;
	int32_t a[5];
	int n;

	s = evemu_parse_hex(s, 2, &v);
	if (!s)
		return reader_fail_in(r, name, line, "A: needs an axis code in hex");
	for (n = 0; n < 5; n++) {
		const char *e = evemu_parse_dec(s, &a[n]);
		if (!e)
			break;
		s = e;
	}
	if (n < 4 || !evemu_at_end(s))
		return reader_fail_in(r, name, line, "A: needs code, min, max, fuzz, flat and optionally resolution (32-bit decimal numbers)");
	if (v >= ABS_CNT)
		return reader_fail_in(r, name, line, "A: axis code 0x%02x is out of range", v);
	if (a[0] > a[1])
		return reader_fail_in(r, name, line, "A: axis 0x%02x: min %d is above max %d", v, a[0], a[1]);
	abs = &d->dev->abs[v];
	abs->minimum = a[0];
	abs->maximum = a[1];
	abs->fuzz = a[2];
	abs->flat = a[3];
	abs->resolution = n == 5 ? a[4] : 0;
	if (v == ABS_MT_SLOT)
		d->slot_line = line;
	return 0;
}

/* L: (LED) and S: (switch) lines: a code and its state. */
static int
desc_state(struct tt_reader *r, struct desc *d, char kind, const char *s, const char *name, size_t line)
{
	bool led = kind == 'L';
	unsigned int count = led ? LED_CNT : SW_CNT;
	uint8_t *on = led ? d->dev->leds_on : d->dev->switches_on;
	int32_t state;
	uint32_t v;

	s = evemu_parse_hex(s, 2, &v);
	if (!s || !(s = evemu_parse_dec(s, &state)) || !evemu_at_end(s))
		return reader_fail_in(r, name, line, "%c: needs a code in hex and a state", kind);
	if (v >= count)
		return reader_fail_in(r, name, line, "%c: %s 0x%02x is out of range", kind, led ? "LED" : "switch", v);
	if (state)
		set_bit(on, v);
	return 0;
}

/* Parses one description line of @kind; @s is the text after "X:". */
int
evemu_desc_line(struct tt_reader *r, struct desc *d, char kind, const char *s,
	  const char *name, size_t line)
{
	d->nlines++;
	switch (kind) {
	case 'N':
		return desc_name(d, s);
	case 'I':
		return desc_id(r, d, s, name, line);
	case 'P':
		return desc_props(r, d, s, name, line);
	case 'B':
		return desc_codes(r, d, s, name, line);
	case 'A':
		return desc_absinfo(r, d, s, name, line);
	case 'L':
	case 'S':
		return desc_state(r, d, kind, s, name, line);
	}
	return reader_fail_in(r, name, line, "unknown line");
}

/* The evtest-style comment block evemu 1.2+ writes has each axis's
 * current value; it is the only place the format keeps it. */
void
evemu_desc_comment(struct desc *d, const char *s)
{
	int32_t val;

	s = evemu_skip_ws(s);
	if (strncmp(s, "Event type ", 11) == 0) {
		int32_t t;
		if (evemu_parse_dec(s + 11, &t) && t >= 0)
			d->comment_type = (unsigned int)t;
		d->comment_code = -1;
	} else if (strncmp(s, "Event code ", 11) == 0) {
		int32_t c;
		if (evemu_parse_dec(s + 11, &c) && c >= 0 && c < ABS_CNT)
			d->comment_code = c;
		else
			d->comment_code = -1;
	} else if (strncmp(s, "Value", 5) == 0 && d->comment_type == EV_ABS && d->comment_code >= 0) {
		const char *e = evemu_parse_dec(s + 5, &val);
		if (e && evemu_at_end(e)) {
			d->comment_value[d->comment_code] = val;
			set_bit(d->have_comment_value, (unsigned int)d->comment_code);
		}
	}
}

/* Turns the assembled description into a device: MT protocol, slots,
 * absinfo values. */
int
evemu_desc_finish(struct tt_reader *r, struct desc *d)
{
	struct tt_device *dev = d->dev;

	if (!dev->name)
		dev->name = tt_strdup("");
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (bit_is_set(d->have_comment_value, code) && tt_device_has(dev, EV_ABS, code))
			dev->abs[code].value = d->comment_value[code];
	}
	/* HID devices with more axes than the kernel has names for spill
	 * into the ABS_MT range; like libevdev, ABS_RESERVED (0x2e) marks
	 * such a "fake MT" device, which has no slots. */
	bool fake_mt = tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1);
	if (tt_device_has(dev, EV_ABS, ABS_MT_SLOT) && !fake_mt) {
		const struct tt_absinfo *a = &dev->abs[ABS_MT_SLOT];
		if (a->minimum != 0 || a->maximum < 0 || a->maximum >= (int32_t)TT_MAX_SLOTS)
			return reader_fail(r, d->slot_line,
					   "ABS_MT_SLOT range [%d, %d] is not 0 to at most %u slots",
					   a->minimum, a->maximum, TT_MAX_SLOTS - 1);
		dev->mt_protocol = TT_MT_B;
		tt_device_set_slots(dev, (uint32_t)a->maximum + 1);
		if (a->value >= 0 && a->value <= a->maximum)
			dev->current_slot = a->value;
	} else if (!fake_mt && (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) ||
				tt_device_has(dev, EV_ABS, ABS_MT_POSITION_Y))) {
		dev->mt_protocol = TT_MT_A;
	}
	return 0;
}
