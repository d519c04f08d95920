/* SPDX-License-Identifier: MIT */
/*
 * The HID report descriptor parser (HID 1.11, section 6.2.2).
 *
 * One item at a time: the item's header gives its type (main, global,
 * local) and tag, and a function per type applies it to the parser state
 * the way the kernel's hid-core does (drivers/hid/hid-core.c), so a
 * descriptor means here what it means to the driver that will read it.
 * Every count is bounded (TT_HID_MAX_* in hid-desc.h) and the first thing
 * wrong refuses the whole descriptor with "item N at byte B: what" (items
 * counted from 1, bytes from 0 as hid-decode prints them).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hid-desc.h"
#include "hid-desc-private.h"

#define MAX_PUSH 16u
/* hid-core's limit: USI pens' Transducer Serial Number is 64 bits wide. */
#define MAX_REPORT_SIZE 256u
#define MAX_REPORT_BITS (TT_HID_MAX_REPORT_BYTES * 8u)

enum item_type { ITEM_MAIN = 0, ITEM_GLOBAL = 1, ITEM_LOCAL = 2, ITEM_LONG = 4 };

struct item {
	enum item_type type;
	uint8_t tag;
	uint8_t size;		/* data bytes: 0, 1, 2 or 4 */
	uint32_t raw;		/* data, little endian, zero-extended */
};

/* A value and the size it was given in: signedness is decided at the main
 * item, when logical minimum and maximum are both known. */
struct sized {
	uint32_t raw;
	uint8_t size;
};

struct globals {
	uint32_t usage_page;
	struct sized lmin, lmax, pmin, pmax;
	uint32_t unit;
	int8_t unit_exponent;
	uint32_t report_size;
	uint32_t report_count;
	uint8_t report_id;
};

struct locals {
	uint32_t nusages;
	uint32_t usages[TT_HID_MAX_USAGES];
	uint8_t sizes[TT_HID_MAX_USAGES];	/* item size each usage came in */
	struct sized usage_min, usage_max;
	bool has_min, has_max;
	unsigned delimiter_depth;
	unsigned delimiter_branch;
};

struct parser {
	const uint8_t *data;
	size_t len;
	size_t pos;
	uint32_t item;		/* the current item, from 1 */
	size_t item_pos;	/* its first byte */
	struct globals g;
	unsigned depth;
	struct globals stack[MAX_PUSH];
	struct locals l;
	unsigned nopen;
	uint32_t open[TT_HID_MAX_COLLECTIONS];
	struct tt_hid_desc *d;
	size_t fields_size, reports_size, collections_size;
	size_t npool;
	char why[160];
};

static void
parser_free(struct parser *p)
{
	free(p);
}
DEFINE_TRIVIAL_CLEANUP_FUNC(struct parser *, parser_free);

_printf_(2, 3) static int
fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->why, sizeof(p->why), "item %u at byte %zu: ", p->item, p->item_pos);

	va_start(ap, fmt);
	vsnprintf(p->why + n, sizeof(p->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *
kind_name(enum tt_hid_report_kind kind)
{
	switch (kind) {
	case TT_HID_INPUT: return "Input";
	case TT_HID_OUTPUT: return "Output";
	case TT_HID_FEATURE: return "Feature";
	}
	return "?";
}

static int32_t
sign_extend(struct sized v)
{
	if (v.size == 0 || v.size >= 4)
		return (int32_t)v.raw;
	uint32_t sign = 1u << (v.size * 8 - 1);
	if (v.raw & sign)
		return (int32_t)(v.raw | ~((sign << 1) - 1));
	return (int32_t)v.raw;
}

/* HID 1.11, 6.2.2.7: a minimum below zero makes the pair signed; else the
 * maximum is unsigned (0xff in one byte is 255, not -1), as in hid-core. */
static void
signed_range(struct sized min, struct sized max, int32_t *lo, int32_t *hi)
{
	*lo = sign_extend(min);
	*hi = *lo < 0 ? sign_extend(max) : (int32_t)max.raw;
}

/* ---- reading items ---- */

static uint32_t
little_endian(const uint8_t *b, size_t n)
{
	uint32_t v = 0;
	for (size_t i = n; i > 0; i--)
		v = v << 8 | b[i - 1];
	return v;
}

static int
read_long_item(struct parser *p, struct item *it)
{
	size_t left = p->len - p->pos;

	if (left < 3)
		return fail(p, "long item header past the end (%zu of 3 bytes)", left);
	size_t n = p->data[p->pos + 1];
	if (left - 3 < n)
		return fail(p, "long item of %zu data bytes past the end (%zu left)", n, left - 3);
	/* No long item tag is defined (HID 1.11, 6.2.2.3): skipped. */
	it->type = ITEM_LONG;
	p->pos += 3 + n;
	return 0;
}

static int
read_item(struct parser *p, struct item *it)
{
	static const uint8_t sizes[] = { 0, 1, 2, 4 };
	uint8_t b = p->data[p->pos];

	p->item++;
	p->item_pos = p->pos;
	if (b == 0xfe)
		return read_long_item(p, it);
	size_t n = sizes[b & 3];
	size_t left = p->len - p->pos - 1;
	if (left < n)
		return fail(p, "item of %zu data bytes past the end (%zu left)", n, left);
	it->type = (enum item_type)((b >> 2) & 3);
	it->tag = b >> 4;
	it->size = (uint8_t)n;
	it->raw = little_endian(p->data + p->pos + 1, n);
	p->pos += 1 + n;
	return 0;
}

/* ---- reports and fields ---- */

static struct tt_hid_report_info *
find_report(struct tt_hid_desc *d, enum tt_hid_report_kind kind, uint8_t id)
{
	for (size_t i = 0; i < d->nreports; i++) {
		if (d->reports[i].kind == kind && d->reports[i].id == id)
			return &d->reports[i];
	}
	return NULL;
}

/* At most 256 IDs of 3 kinds: no limit to check. */
static struct tt_hid_report_info *
report_for(struct parser *p, enum tt_hid_report_kind kind, uint8_t id)
{
	struct tt_hid_desc *d = p->d;
	struct tt_hid_report_info *r = find_report(d, kind, id);

	if (r)
		return r;
	d->reports = tt_grow(d->reports, d->nreports, &p->reports_size, sizeof(*d->reports));
	r = &d->reports[d->nreports++];
	*r = (struct tt_hid_report_info){ .id = id, .kind = kind };
	return r;
}

static struct tt_hid_field *
new_field(struct parser *p)
{
	struct tt_hid_desc *d = p->d;

	d->fields = tt_grow(d->fields, d->nfields, &p->fields_size, sizeof(*d->fields));
	struct tt_hid_field *f = &d->fields[d->nfields++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* hid-core's hid_concatenate_last_usage_page(): a Usage Page given after
 * the usages of a main item (but before it) still applies to the short
 * usages declared since the page last changed. */
static void
apply_last_usage_page(struct locals *l, uint32_t page)
{
	for (uint32_t i = l->nusages; i > 0; i--) {
		if (l->sizes[i - 1] > 2)
			continue;
		if (l->usages[i - 1] >> 16 == page)
			break;
		l->usages[i - 1] = TT_HID_USAGE(page, l->usages[i - 1]);
	}
}

/* The usages a field keeps: a variable needs one per value (the last one
 * repeats), an array one per index its logical range allows. */
static uint32_t
usages_needed(const struct tt_hid_field *f)
{
	if (f->flags & 0x1)
		return 0;
	if (f->flags & 0x2)
		return f->count;
	int64_t range = (int64_t)f->logical_max - f->logical_min + 1;
	return range > 0 ? (uint32_t)(range < UINT32_MAX ? range : UINT32_MAX) : 0;
}

static int
take_usages(struct parser *p, struct tt_hid_field *f)
{
	struct tt_hid_desc_priv *priv = p->d->priv;
	uint32_t n = usages_needed(f);

	if (n > p->l.nusages)
		n = p->l.nusages;
	if (n > TT_HID_MAX_USAGES - p->npool)
		return fail(p, "more than %u usages in the descriptor's fields", TT_HID_MAX_USAGES);
	f->usages = priv->usages + p->npool;
	f->nusages = n;
	memcpy(priv->usages + p->npool, p->l.usages, n * sizeof(uint32_t));
	p->npool += n;
	return 0;
}

static void
fill_field(struct parser *p, struct tt_hid_field *f, enum tt_hid_report_kind kind, uint32_t flags)
{
	const struct globals *g = &p->g;

	f->kind = kind;
	f->report_id = g->report_id;
	f->bit_size = g->report_size;
	f->count = g->report_count;
	f->flags = flags;
	signed_range(g->lmin, g->lmax, &f->logical_min, &f->logical_max);
	signed_range(g->pmin, g->pmax, &f->physical_min, &f->physical_max);
	f->unit = g->unit;
	f->unit_exponent = g->unit_exponent;
	f->collection = p->nopen ? p->open[p->nopen - 1] : UINT32_MAX;
}

static int
add_field(struct parser *p, enum tt_hid_report_kind kind, uint32_t flags)
{
	const struct globals *g = &p->g;
	struct tt_hid_report_info *r = report_for(p, kind, g->report_id);

	if (g->report_count == 0)
		return 0;
	if (g->report_size == 0)
		return fail(p, "%s without a Report Size", kind_name(kind));
	uint64_t bits = (uint64_t)g->report_size * g->report_count;
	if (r->bits + bits > MAX_REPORT_BITS)
		return fail(p, "%s report %u over %u bytes", kind_name(kind), g->report_id,
			    TT_HID_MAX_REPORT_BYTES);
	if (p->d->nfields == TT_HID_MAX_FIELDS)
		return fail(p, "more than %u fields", TT_HID_MAX_FIELDS);
	struct tt_hid_field *f = new_field(p);
	fill_field(p, f, kind, flags);
	f->bit_offset = r->bits;
	r->bits += (uint32_t)bits;
	return take_usages(p, f);
}

/* ---- collections ---- */

static int
open_collection(struct parser *p, uint32_t type)
{
	struct tt_hid_desc *d = p->d;

	if (d->ncollections == TT_HID_MAX_COLLECTIONS)
		return fail(p, "more than %u collections", TT_HID_MAX_COLLECTIONS);
	d->collections = tt_grow(d->collections, d->ncollections, &p->collections_size,
				 sizeof(*d->collections));
	uint32_t index = (uint32_t)d->ncollections++;
	struct tt_hid_collection *c = &d->collections[index];
	c->usage = p->l.nusages ? p->l.usages[0] : 0;
	c->type = (uint8_t)type;
	c->parent = p->nopen ? p->open[p->nopen - 1] : UINT32_MAX;
	if (c->type == 1 && d->application == 0)
		d->application = c->usage;
	/* Collections never outnumber TT_HID_MAX_COLLECTIONS: nor can the
	 * open ones. */
	p->open[p->nopen++] = index;
	return 0;
}

static int
close_collection(struct parser *p)
{
	if (p->nopen == 0)
		return fail(p, "End Collection without a Collection");
	p->nopen--;
	return 0;
}

/* ---- the three item types ---- */

static int
main_item(struct parser *p, const struct item *it)
{
	int rc = 0;

	apply_last_usage_page(&p->l, p->g.usage_page);
	switch (it->tag) {
	case 0x8: rc = add_field(p, TT_HID_INPUT, it->raw); break;
	case 0x9: rc = add_field(p, TT_HID_OUTPUT, it->raw); break;
	case 0xb: rc = add_field(p, TT_HID_FEATURE, it->raw); break;
	case 0xa: rc = open_collection(p, it->raw); break;
	case 0xc: rc = close_collection(p); break;
	default: break;	/* reserved main tags: hid-core ignores them too */
	}
	/* Local items last until the next main item (HID 1.11, 6.2.2.8). */
	p->l.nusages = 0;
	p->l.has_min = p->l.has_max = false;
	p->l.delimiter_depth = p->l.delimiter_branch = 0;
	return rc;
}

static int
push(struct parser *p)
{
	if (p->depth == MAX_PUSH)
		return fail(p, "Push deeper than %u", MAX_PUSH);
	p->stack[p->depth++] = p->g;
	return 0;
}

static int
pop(struct parser *p)
{
	if (p->depth == 0)
		return fail(p, "Pop without Push");
	p->g = p->stack[--p->depth];
	return 0;
}

static int
set_report_id(struct parser *p, uint32_t id)
{
	if (id == 0 || id > 255)
		return fail(p, "Report ID %u (1..255)", id);
	p->g.report_id = (uint8_t)id;
	p->d->numbered = true;
	return 0;
}

static int
set_report_size(struct parser *p, uint32_t size)
{
	if (size == 0 || size > MAX_REPORT_SIZE)
		return fail(p, "Report Size %u (1..%u)", size, MAX_REPORT_SIZE);
	p->g.report_size = size;
	return 0;
}

static int
set_report_count(struct parser *p, uint32_t count)
{
	if (count > MAX_REPORT_BITS)
		return fail(p, "Report Count %u over %u", count, MAX_REPORT_BITS);
	p->g.report_count = count;
	return 0;
}

/* HID 1.11 gives the exponent as a 4-bit signed nibble; some descriptors
 * write a whole signed byte instead (hid-core accepts both). */
static int8_t
unit_exponent(const struct item *it)
{
	if (it->raw <= 0xf)
		return (int8_t)(it->raw & 0x8 ? (int)it->raw - 16 : (int)it->raw);
	return (int8_t)sign_extend((struct sized){ it->raw, it->size });
}

static int
global_item(struct parser *p, const struct item *it)
{
	struct globals *g = &p->g;
	struct sized v = { it->raw, it->size };

	switch (it->tag) {
	case 0x0: g->usage_page = it->raw & 0xffff; return 0;
	case 0x1: g->lmin = v; return 0;
	case 0x2: g->lmax = v; return 0;
	case 0x3: g->pmin = v; return 0;
	case 0x4: g->pmax = v; return 0;
	case 0x5: g->unit_exponent = unit_exponent(it); return 0;
	case 0x6: g->unit = it->raw; return 0;
	case 0x7: return set_report_size(p, it->raw);
	case 0x8: return set_report_id(p, it->raw);
	case 0x9: return set_report_count(p, it->raw);
	case 0xa: return push(p);
	case 0xb: return pop(p);
	default: return 0;	/* reserved global tags */
	}
}

/* A usage as the main item will see it: 4-byte usages carry their page,
 * shorter ones take the current Usage Page. */
static uint32_t
full_usage(const struct parser *p, struct sized u)
{
	if (u.size == 4)
		return u.raw;
	return TT_HID_USAGE(p->g.usage_page, u.raw);
}

static int
add_usage(struct parser *p, uint32_t usage, uint8_t size)
{
	struct locals *l = &p->l;

	if (l->nusages == TT_HID_MAX_USAGES)
		return fail(p, "more than %u usages before a main item", TT_HID_MAX_USAGES);
	l->usages[l->nusages] = usage;
	l->sizes[l->nusages] = size;
	l->nusages++;
	return 0;
}

/* Usage Minimum and Maximum, in either order, expand to the usages they
 * span; past the limit the range is cut short, as hid-core does. */
static int
add_usage_range(struct parser *p)
{
	struct locals *l = &p->l;
	uint32_t min = full_usage(p, l->usage_min);
	uint32_t max = full_usage(p, l->usage_max);

	l->has_min = l->has_max = false;
	if (min >> 16 != max >> 16)
		return fail(p, "Usage Minimum 0x%08x and Maximum 0x%08x on different pages", min, max);
	if (min > max)
		return fail(p, "Usage Minimum 0x%x over Usage Maximum 0x%x", min & 0xffff, max & 0xffff);
	uint8_t size = l->usage_min.size > l->usage_max.size ? l->usage_min.size : l->usage_max.size;
	for (uint32_t u = min; u <= max && l->nusages < TT_HID_MAX_USAGES; u++)
		add_usage(p, u, size);
	return 0;
}

static int
delimiter(struct parser *p, uint32_t open)
{
	struct locals *l = &p->l;

	if (open) {
		if (l->delimiter_depth)
			return fail(p, "nested Delimiter");
		l->delimiter_depth++;
		l->delimiter_branch++;
	} else {
		if (!l->delimiter_depth)
			return fail(p, "Delimiter close without an open");
		l->delimiter_depth--;
	}
	return 0;
}

static int
local_item(struct parser *p, const struct item *it)
{
	struct locals *l = &p->l;
	struct sized v = { it->raw, it->size };

	if (it->tag == 0xa)
		return delimiter(p, it->raw);
	/* A delimited set's alternatives after the first: hid-core keeps
	 * only the first usage of the set. */
	if (l->delimiter_branch > 1)
		return 0;
	switch (it->tag) {
	case 0x0:
		return add_usage(p, full_usage(p, v), it->size);
	case 0x1:
		l->usage_min = v;
		l->has_min = true;
		return l->has_max ? add_usage_range(p) : 0;
	case 0x2:
		l->usage_max = v;
		l->has_max = true;
		return l->has_min ? add_usage_range(p) : 0;
	default:
		return 0;	/* designators and strings: nothing to decode */
	}
}

/* ---- the whole descriptor ---- */

static enum tt_hid_role
own_role(const struct tt_hid_collection *c)
{
	switch (c->usage) {
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x22):	/* Finger */
		return TT_HID_ROLE_CONTACT;
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x01):	/* Digitizer */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x02):	/* Pen */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x20):	/* Stylus */
		return TT_HID_ROLE_PEN;
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x04):	/* Touch Screen */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x05):	/* Touch Pad */
		return c->type == 1 ? TT_HID_ROLE_SURFACE : TT_HID_ROLE_NONE;
	default:
		return TT_HID_ROLE_NONE;
	}
}

/* Parents come before their children, so one pass settles every role. */
static void
assign_roles(struct tt_hid_desc *d)
{
	struct tt_hid_desc_priv *priv = d->priv;

	priv->roles = tt_zalloc(d->ncollections ? d->ncollections : 1);
	priv->roots = tt_zalloc((d->ncollections ? d->ncollections : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < d->ncollections; i++) {
		const struct tt_hid_collection *c = &d->collections[i];
		enum tt_hid_role role = own_role(c);

		priv->roots[i] = (uint32_t)i;
		if (role == TT_HID_ROLE_NONE && c->parent != UINT32_MAX) {
			role = priv->roles[c->parent];
			priv->roots[i] = priv->roots[c->parent];
		}
		priv->roles[i] = (uint8_t)role;
	}
}

static bool
inside_surface(const struct tt_hid_desc *d, uint32_t c)
{
	/* Parents have lower indices: the walk ends. */
	for (; c != UINT32_MAX; c = d->collections[c].parent) {
		if (own_role(&d->collections[c]) == TT_HID_ROLE_SURFACE)
			return true;
	}
	return false;
}

static bool
has_usage(const struct tt_hid_field *f, uint32_t usage)
{
	for (uint32_t i = 0; i < f->nusages; i++) {
		if (f->usages[i] == usage)
			return true;
	}
	return false;
}

/* hid-multitouch reads a Stylus collection of a touch screen that carries
 * a Contact Identifier (SMART boards do this) as one more finger. */
static void
styli_as_contacts(struct tt_hid_desc *d)
{
	struct tt_hid_desc_priv *priv = d->priv;

	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->collection == UINT32_MAX || priv->roles[f->collection] != TT_HID_ROLE_PEN ||
		    !has_usage(f, TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x51)))
			continue;
		uint32_t root = priv->roots[f->collection];
		if (!inside_surface(d, root))
			continue;
		for (size_t c = root; c < d->ncollections; c++) {
			if (priv->roots[c] == root)
				priv->roles[c] = TT_HID_ROLE_CONTACT;
		}
	}
}

static int
parse_items(struct parser *p)
{
	struct item it = { 0 };
	int rc = 0;

	while (rc == 0 && p->pos < p->len) {
		rc = read_item(p, &it);
		if (rc < 0)
			break;
		switch (it.type) {
		case ITEM_MAIN: rc = main_item(p, &it); break;
		case ITEM_GLOBAL: rc = global_item(p, &it); break;
		case ITEM_LOCAL: rc = local_item(p, &it); break;
		default: break;	/* long items, reserved type 3 */
		}
	}
	if (rc == 0 && p->nopen) {
		p->item++;
		p->item_pos = p->len;
		rc = fail(p, "the descriptor ends inside %u open collection%s", p->nopen,
			  p->nopen == 1 ? "" : "s");
	}
	return rc;
}

static struct tt_hid_desc *
desc_new(void)
{
	struct tt_hid_desc *d = tt_zalloc(sizeof(*d));
	struct tt_hid_desc_priv *priv = tt_zalloc(sizeof(*priv));

	/* Fields point into this block, so it never moves. */
	priv->usages = tt_zalloc(TT_HID_MAX_USAGES * sizeof(uint32_t));
	d->priv = priv;
	return d;
}

int
tt_hid_desc_parse(const uint8_t *data, size_t len, struct tt_hid_desc **out, char **why)
{
	_cleanup_(parser_freep) struct parser *p = tt_zalloc(sizeof(*p));
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = desc_new();

	p->data = data;
	p->len = data ? len : 0;
	p->d = d;
	int rc = parse_items(p);
	if (rc < 0) {
		if (why)
			*why = tt_strdup(p->why);
		return rc;
	}
	assign_roles(d);
	styli_as_contacts(d);
	*out = steal(&d);
	return 0;
}

void
tt_hid_desc_free(struct tt_hid_desc *d)
{
	if (!d)
		return;
	struct tt_hid_desc_priv *priv = d->priv;
	if (priv) {
		free(priv->usages);
		free(priv->roles);
		free(priv->roots);
		free(priv);
	}
	free(d->fields);
	free(d->collections);
	free(d->reports);
	free(d);
}

const struct tt_hid_report_info *
tt_hid_desc_report(const struct tt_hid_desc *d, enum tt_hid_report_kind kind, uint8_t id)
{
	return find_report((struct tt_hid_desc *)d, kind, id);
}

size_t
tt_hid_desc_feature_ids(const struct tt_hid_desc *d, uint8_t *ids, size_t max)
{
	size_t n = 0;

	/* Counting up through the IDs keeps them ascending and unique. */
	for (unsigned id = 0; id <= 255 && n < max; id++) {
		if (find_report((struct tt_hid_desc *)d, TT_HID_FEATURE, (uint8_t)id))
			ids[n++] = (uint8_t)id;
	}
	return n;
}

bool
tt_hid_desc_is_touch(const struct tt_hid_desc *d)
{
	for (size_t i = 0; i < d->ncollections; i++) {
		const struct tt_hid_collection *c = &d->collections[i];
		if (c->type == 1 && own_role(c) != TT_HID_ROLE_NONE)
			return true;
	}
	return false;
}
