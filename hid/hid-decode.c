/* SPDX-License-Identifier: MIT */
/*
 * Decoding reports with a parsed descriptor: every value of every field
 * (tt_hid_report_fields), and on top of that walk the touch view
 * (tt_hid_decode): contacts, contact count, scan time, buttons, the pen.
 *
 * Reports are hostile input: a value is read only when all its bits are
 * inside the bytes given, so a short report decodes what fits and nothing
 * past @len is ever touched.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "hid-desc.h"
#include "hid-desc-private.h"

/* Bits [@off, @off + @n) of @p, least significant bit first (HID 1.11,
 * 5.8), the caller having checked they are inside the buffer. A value
 * wider than 32 bits gives its low 32 bits, as hid-core's
 * hid_field_extract() does. At most 5 bytes hold 32 bits at any offset. */
uint32_t
tt_hid_get_bits(const uint8_t *p, size_t off, uint32_t n)
{
	if (n > 32)
		n = 32;
	size_t first = off / 8;
	size_t last = (off + n - 1) / 8;
	uint64_t v = 0;

	for (size_t i = last + 1; i > first; i--)
		v = v << 8 | p[i - 1];
	v >>= off % 8;
	return (uint32_t)(v & (n == 32 ? 0xffffffffu : (1u << n) - 1));
}

int32_t
tt_hid_field_value(const struct tt_hid_field *f, uint32_t raw)
{
	if (f->logical_min < 0 && f->bit_size < 32 && (raw & (1u << (f->bit_size - 1))))
		return (int32_t)(raw | ~((1u << f->bit_size) - 1));
	return (int32_t)raw;
}

struct report_view {
	uint8_t id;
	const uint8_t *bytes;	/* after the ID byte */
	size_t nbits;
};

static int
report_view(const struct tt_hid_desc *d, const uint8_t *data, size_t len, struct report_view *v)
{
	if (!data || len == 0)
		return -EINVAL;
	v->id = d->numbered ? data[0] : 0;
	v->bytes = d->numbered ? data + 1 : data;
	v->nbits = (d->numbered ? len - 1 : len) * 8;
	return 0;
}

/* The view of a report the descriptor declares: -EINVAL when empty,
 * -ENOENT when undeclared. */
static int
declared_view(const struct tt_hid_desc *d, enum tt_hid_report_kind kind, const uint8_t *data,
	      size_t len, struct report_view *v)
{
	int rc = report_view(d, data, len, v);

	if (rc < 0)
		return rc;
	return tt_hid_desc_report(d, kind, v->id) ? 0 : -ENOENT;
}

struct walk {
	tt_hid_field_fn fn;
	void *userdata;
	/* HID 1.11, 6.2.2.8: a variable field's values past its usages
	 * repeat the last usage. The touch view skips them instead: a
	 * descriptor declaring Invert once for six bits means one Invert
	 * and padding, not six Inverts the last of which wins. */
	bool repeat_last;
};

/* Value @i of @f, with the usage it stands for: false when the callback
 * wants no more. */
static bool
emit_value(const struct tt_hid_field *f, uint32_t i, int32_t value, const struct walk *w)
{
	if (f->flags & 0x1)
		return w->fn(w->userdata, f, 0, value);	/* constant: padding */
	if (f->flags & 0x2) {
		uint32_t usage = 0;
		if (i < f->nusages)
			usage = f->usages[i];
		else if (f->nusages && w->repeat_last)
			usage = f->usages[f->nusages - 1];
		return w->fn(w->userdata, f, usage, value);
	}
	if (value < f->logical_min || value > f->logical_max)
		return true;	/* an array slot selecting nothing */
	int64_t index = (int64_t)value - f->logical_min;
	if (index >= f->nusages)
		return true;
	/* Usage ID 0 is reserved on every page: a keyboard's "no event",
	 * the index an empty key slot holds, selects nothing. */
	if ((f->usages[index] & 0xffff) == 0)
		return true;
	return w->fn(w->userdata, f, f->usages[index], 1);
}

static bool
walk_field(const struct tt_hid_field *f, const struct report_view *v, const struct walk *w)
{
	for (uint32_t i = 0; i < f->count; i++) {
		size_t off = (size_t)f->bit_offset + (size_t)i * f->bit_size;
		if (off + f->bit_size > v->nbits)
			return true;	/* short report: the rest does not fit */
		int32_t value = tt_hid_field_value(f, tt_hid_get_bits(v->bytes, off, f->bit_size));
		if (!emit_value(f, i, value, w))
			return false;
	}
	return true;
}

static int
walk_report(const struct tt_hid_desc *d, enum tt_hid_report_kind kind, const uint8_t *data,
	    size_t len, const struct walk *w)
{
	struct report_view v;
	int rc = declared_view(d, kind, data, len, &v);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind != kind || f->report_id != v.id)
			continue;
		if (!walk_field(f, &v, w))
			break;
	}
	return 0;
}

int
tt_hid_report_fields_kind(const struct tt_hid_desc *d, enum tt_hid_report_kind kind,
			  const uint8_t *data, size_t len, tt_hid_field_fn fn, void *userdata)
{
	struct walk w = { .fn = fn, .userdata = userdata, .repeat_last = true };

	return walk_report(d, kind, data, len, &w);
}

int
tt_hid_report_fields(const struct tt_hid_desc *d, const uint8_t *data, size_t len,
		     tt_hid_field_fn fn, void *userdata)
{
	return tt_hid_report_fields_kind(d, TT_HID_INPUT, data, len, fn, userdata);
}

/* ---- writing values ---- */

void
tt_hid_put_bits(uint8_t *p, size_t off, uint32_t n, uint32_t value)
{
	for (uint32_t i = 0; i < n; i++) {
		size_t bit = off + i;
		uint8_t mask = (uint8_t)(1u << (bit % 8));
		/* Past 32 bits, a wide field's high bits are cleared (or
		 * sign-filled, for a negative value). */
		bool on = i < 32 ? (value >> i) & 1 : (int32_t)value < 0;
		p[bit / 8] = on ? (uint8_t)(p[bit / 8] | mask) : (uint8_t)(p[bit / 8] & ~mask);
	}
}

static int
set_in_field(const struct tt_hid_field *f, uint8_t *bytes, size_t nbits, uint32_t usage,
	     int32_t value)
{
	int n = 0;

	if ((f->flags & 0x3) != 0x2 || f->nusages == 0)
		return 0;
	for (uint32_t i = 0; i < f->count; i++) {
		size_t off = (size_t)f->bit_offset + (size_t)i * f->bit_size;
		/* The same values tt_hid_report_fields() names @usage. */
		uint32_t u = f->usages[i < f->nusages ? i : f->nusages - 1];
		if (u != usage || off + f->bit_size > nbits)
			continue;
		tt_hid_put_bits(bytes, off, f->bit_size, (uint32_t)value);
		n++;
	}
	return n;
}

int
tt_hid_report_set(const struct tt_hid_desc *d, uint8_t *data, size_t len, uint32_t usage,
		  int32_t value)
{
	struct report_view v;
	int rc = declared_view(d, TT_HID_INPUT, data, len, &v);
	int n = 0;

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind == TT_HID_INPUT && f->report_id == v.id)
			n += set_in_field(f, (uint8_t *)v.bytes, v.nbits, usage, value);
	}
	return n;
}

/* ---- the touch view ---- */

#define DIG(id) TT_HID_USAGE(TT_HID_UP_DIGITIZER, id)
#define GD(id) TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, id)

/* The contact usages, as bits, to see one repeat. */
enum contact_bit {
	SEEN_ID = 1 << 0,
	SEEN_TIP = 1 << 1,
	SEEN_CONFIDENCE = 1 << 2,
	SEEN_WIDTH = 1 << 3,
	SEEN_HEIGHT = 1 << 4,
	SEEN_PRESSURE = 1 << 5,
	SEEN_X = 1 << 6,
	SEEN_Y = 1 << 7,
};

struct decode {
	const struct tt_hid_desc_priv *priv;
	struct tt_hid_decoded *out;
	uint32_t root;		/* the collection of the current contact */
	unsigned seen;		/* its contact usages so far (enum contact_bit) */
	bool full;		/* TT_HID_MAX_CONTACTS reached: the rest is dropped */
};

/* Usages that belong to the report, wherever they are declared. */
static bool
report_usage(struct tt_hid_decoded *out, uint32_t usage, int32_t value)
{
	switch (usage) {
	case DIG(0x54):	/* Contact Count */
		out->has_contact_count = true;
		out->contact_count = value;
		return true;
	case DIG(0x56):	/* Scan Time */
		out->has_scan_time = true;
		out->scan_time = value;
		return true;
	}
	if (usage >> 16 == TT_HID_UP_BUTTON) {
		uint32_t n = usage & 0xffff;
		if (n >= 1 && n <= 32 && value)
			out->buttons |= 1u << (n - 1);
		return true;
	}
	return false;
}

static unsigned
contact_bit(uint32_t usage)
{
	switch (usage) {
	case DIG(0x51): return SEEN_ID;
	case DIG(0x42): return SEEN_TIP;
	case DIG(0x47): return SEEN_CONFIDENCE;
	case DIG(0x48): return SEEN_WIDTH;
	case DIG(0x49): return SEEN_HEIGHT;
	case DIG(0x30): return SEEN_PRESSURE;
	case GD(0x30): return SEEN_X;
	case GD(0x31): return SEEN_Y;
	default: return 0;
	}
}

static struct tt_hid_contact *
new_contact(struct decode *dc, uint32_t root)
{
	struct tt_hid_decoded *out = dc->out;

	if (out->ncontacts == TT_HID_MAX_CONTACTS) {
		dc->full = true;
		return NULL;
	}
	dc->root = root;
	dc->seen = 0;
	struct tt_hid_contact *c = &out->contacts[out->ncontacts];
	c->contact_id = (int32_t)out->ncontacts++;
	return c;
}

/* The contact a value of collection @root belongs to, as hid-multitouch
 * splits them (mt_store_field()): a new finger collection starts a new
 * contact, and so does a contact usage the current contact already has,
 * for descriptors that list every contact in one collection. A repeat
 * before the contact has its ID, X and Y is a duplicate, dropped (NULL). */
static struct tt_hid_contact *
contact_for(struct decode *dc, uint32_t root, uint32_t usage)
{
	struct tt_hid_decoded *out = dc->out;
	unsigned bit = contact_bit(usage);

	if (dc->full)
		return NULL;
	if (out->ncontacts == 0 || dc->root != root)
		return new_contact(dc, root);
	if (!(dc->seen & bit))
		return &out->contacts[out->ncontacts - 1];
	const unsigned complete = SEEN_ID | SEEN_X | SEEN_Y;
	if ((dc->seen & complete) != complete)
		return NULL;
	return new_contact(dc, root);
}

static void
contact_value(struct tt_hid_contact *c, uint32_t usage, int32_t value)
{
	switch (usage) {
	case DIG(0x51): c->has_id = true; c->contact_id = value; break;
	case DIG(0x42): c->has_tip = true; c->tip = value != 0; break;
	case DIG(0x47): c->has_confidence = true; c->confidence = value != 0; break;
	case DIG(0x32): c->has_in_range = true; c->in_range = value != 0; break;
	case DIG(0x48): c->width = value; break;
	case DIG(0x49): c->height = value; break;
	case DIG(0x30): c->has_pressure = true; c->pressure = value; break;
	case GD(0x30): c->has_x = true; c->x = value; break;
	case GD(0x31): c->has_y = true; c->y = value; break;
	default: break;
	}
}

static void
pen_value(struct tt_hid_pen *pen, uint32_t usage, int32_t value)
{
	switch (usage) {
	case DIG(0x32): pen->in_range = value != 0; break;
	case DIG(0x42): pen->tip = value != 0; break;
	case DIG(0x44): pen->barrel = value != 0; break;
	case DIG(0x45): pen->eraser = value != 0; break;
	case DIG(0x3c): pen->invert = value != 0; break;
	case DIG(0x30): pen->pressure = value; break;
	case GD(0x30): pen->x = value; break;
	case GD(0x31): pen->y = value; break;
	default: break;
	}
}

static bool
on_value(void *userdata, const struct tt_hid_field *f, uint32_t usage, int32_t value)
{
	struct decode *dc = userdata;
	enum tt_hid_role role = TT_HID_ROLE_NONE;
	uint32_t root = UINT32_MAX;

	if (f->collection != UINT32_MAX) {
		role = (enum tt_hid_role)dc->priv->roles[f->collection];
		root = dc->priv->roots[f->collection];
	}
	if (role == TT_HID_ROLE_PEN)
		dc->out->pen.present = true;
	if (usage && report_usage(dc->out, usage, value))
		return true;
	/* A finger collection is a contact even when only padding shows
	 * in it; a touch application's own fields only when they say so. */
	if (role == TT_HID_ROLE_CONTACT || (role == TT_HID_ROLE_SURFACE && contact_bit(usage))) {
		struct tt_hid_contact *c = contact_for(dc, root, usage);
		if (c) {
			contact_value(c, usage, value);
			dc->seen |= contact_bit(usage);
		}
	} else if (role == TT_HID_ROLE_PEN) {
		pen_value(&dc->out->pen, usage, value);
	}
	return true;
}

int
tt_hid_decode(const struct tt_hid_desc *d, const uint8_t *data, size_t len,
	      struct tt_hid_decoded *out)
{
	struct decode dc = { .priv = d->priv };
	struct report_view v;
	int rc = report_view(d, data, len, &v);

	if (rc < 0)
		return rc;
	memset(out, 0, sizeof(*out));
	out->report_id = v.id;
	const struct tt_hid_report_info *r = tt_hid_desc_report(d, TT_HID_INPUT, v.id);
	if (!r)
		return 0;
	out->declared = true;
	out->short_report = v.nbits < r->bits;
	dc.out = out;
	struct walk w = { .fn = on_value, .userdata = &dc, .repeat_last = false };
	return walk_report(d, TT_HID_INPUT, data, len, &w);
}
