/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/uhid.h>

#include "hid-player.h"
#include "log.h"
#include "reader.h"
#include "util-mem.h"

#define GD_KEYBOARD TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x06)
#define GD_KEYPAD TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, 0x07)

/* ------------------------------------------------------------------ */
/* Lifting contacts: the last report again, with what holds a contact,
 * a pen or a button down set off. */

static bool
lifts(uint32_t usage)
{
	switch (usage) {
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x30):	/* Tip Pressure */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x32):	/* In Range */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x3c):	/* Invert */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x42):	/* Tip Switch */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x44):	/* Barrel Switch */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x45):	/* Eraser */
	case TT_HID_USAGE(TT_HID_UP_DIGITIZER, 0x5a):	/* Secondary Barrel Switch */
		return true;
	default:
		return (usage >> 16) == TT_HID_UP_BUTTON;
	}
}

/* HID fields are little-endian bit strings (HID 1.11, 5.8). */
static uint32_t
get_bits(const uint8_t *buf, size_t len, uint32_t off, uint32_t size)
{
	uint32_t v = 0;

	for (uint32_t b = 0; b < size; b++) {
		uint32_t bit = off + b;
		if (bit / 8 < len && (buf[bit / 8] >> (bit % 8)) & 1)
			v |= 1u << b;
	}
	return v;
}

static void
set_bits(uint8_t *buf, size_t len, uint32_t off, uint32_t size, uint32_t v)
{
	for (uint32_t b = 0; b < size; b++) {
		uint32_t bit = off + b;
		if (bit / 8 >= len)
			return;
		if ((v >> b) & 1)
			buf[bit / 8] |= (uint8_t)(1u << (bit % 8));
		else
			buf[bit / 8] &= (uint8_t)~(1u << (bit % 8));
	}
}

/* Sets every lifting value of @f off; true when one was on. */
static bool
lift_field(const struct tt_hid_field *f, uint8_t *data, size_t len)
{
	/* Off is 0, or the least the field can say when that is above 0. */
	uint32_t off = f->logical_min > 0 ? (uint32_t)f->logical_min : 0;
	bool changed = false;

	if (!(f->flags & 0x2) || (f->flags & 0x1) || !f->nusages)
		return false;	/* arrays and constants hold nothing down */
	for (uint32_t i = 0; i < f->count; i++) {
		uint32_t usage = f->usages[i < f->nusages ? i : f->nusages - 1];
		uint32_t at = f->bit_offset + i * f->bit_size;

		if (!lifts(usage) || get_bits(data, len, at, f->bit_size) == off)
			continue;
		set_bits(data, len, at, f->bit_size, off);
		changed = true;
	}
	return changed;
}

bool
rp_hid_lift_report(const struct tt_hid_desc *d, const uint8_t *last, size_t len, uint8_t *out)
{
	uint8_t id = d->numbered && len ? last[0] : 0;
	size_t skip = d->numbered ? 1 : 0;
	bool changed = false;

	if (len <= skip)
		return false;
	memcpy(out, last, len);
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind == TT_HID_INPUT && f->report_id == id)
			changed |= lift_field(f, out + skip, len - skip);
	}
	return changed;
}

/* ------------------------------------------------------------------ */
/* The schedule. */

void
rp_hid_schedule_free(struct rp_hid_schedule *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nreports; i++)
		free(s->reports[i].data);
	free(s->reports);
	for (size_t i = 0; i < s->nevframes; i++)
		free(s->evframes[i].events);
	free(s->evframes);
	for (size_t i = 0; i < s->ndevices; i++)
		tt_hid_desc_free(s->devices[i].desc);
	free(s->devices);
	tt_reader_free(s->reader);
	free(s);
}

struct hid_load {
	struct rp_hid_schedule *s;
	const struct rp_options *o;
	FILE *err;
	const char *name;
	size_t errors;
	size_t cap;
};

static bool
has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

static int
hid_index(const struct rp_hid_schedule *s, uint32_t id)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		if (s->devices[i].dev->id == id)
			return (int)i;
	}
	return -1;
}

/* The application collection @f is in: UINT32_MAX for none. */
static uint32_t
application_of(const struct tt_hid_desc *d, const struct tt_hid_field *f)
{
	uint32_t c = f->collection;

	for (size_t depth = 0; c < d->ncollections && depth < d->ncollections; depth++) {
		if (d->collections[c].type == 1)
			return d->collections[c].usage;
		c = d->collections[c].parent;
	}
	return UINT32_MAX;
}

/* An input report of a keyboard or keypad application: replayed, it
 * would type on the session (a touchscreen's own "Keyboard" collection
 * too). */
static bool
keyboard_report(const struct tt_hid_desc *d, uint8_t id)
{
	for (size_t i = 0; d && i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		uint32_t app;

		if (f->kind != TT_HID_INPUT || f->report_id != id)
			continue;
		app = application_of(d, f);
		if (app == GD_KEYBOARD || app == GD_KEYPAD)
			return true;
	}
	return false;
}

static void
add_hid_device(struct hid_load *l, const struct tt_hid_device *dev, size_t line)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *desc = NULL;
	_cleanup_free_ char *why = NULL;
	struct rp_hid_schedule *s = l->s;

	if (tt_hid_desc_parse(dev->descriptor, dev->descriptor_len, &desc, &why) < 0)
		fprintf(l->err, "%s:%zu: HID device %" PRIu32 " \"%s\": its report descriptor is refused "
			"(%s): replayed as recorded, but contacts still down at the end cannot be "
			"lifted\n", l->name, line, dev->id, dev->name, why ? why : "malformed");
	s->devices = tt_reallocarray(s->devices, s->ndevices + 1, sizeof(*s->devices));
	s->devices[s->ndevices++] = (struct rp_hid_dev){ .dev = dev, .desc = steal(&desc) };
}

static void
add_report(struct hid_load *l, const struct tt_hid_report *r, size_t line)
{
	struct rp_hid_schedule *s = l->s;
	int idx = hid_index(s, r->device);
	struct rp_hid_report *out;

	if (idx < 0 || r->time_us > l->o->to_us ||
	    (l->o->from_us != INT64_MIN && r->time_us < l->o->from_us))
		return;
	if (!l->o->allow_keys && r->len &&
	    keyboard_report(s->devices[idx].desc, s->devices[idx].desc && s->devices[idx].desc->numbered ?
			    r->data[0] : 0)) {
		s->devices[idx].keys_dropped++;
		return;
	}
	if (r->len > UHID_DATA_MAX) {
		if (!s->oversized++)
			fprintf(l->err, "%s:%zu: a report of %" PRIu32 " bytes is over what uhid takes "
				"(%d): left out\n", l->name, line, r->len, UHID_DATA_MAX);
		return;
	}
	s->reports = tt_grow(s->reports, s->nreports, &l->cap, sizeof(*s->reports));
	out = &s->reports[s->nreports++];
	*out = (struct rp_hid_report){ .time_us = r->time_us, .dev = (uint32_t)idx, .line = line,
				       .len = r->len, .data = tt_zalloc(r->len) };
	memcpy(out->data, r->data, r->len);
	s->devices[idx].nreports++;
}

/* The recording's evdev frames, kept for --verify. */
static void
add_evframe(struct hid_load *l, const struct tt_frame *f, size_t line)
{
	struct rp_hid_schedule *s = l->s;
	struct rp_hid_evframe *e;

	s->evframes = tt_reallocarray(s->evframes, s->nevframes + 1, sizeof(*s->evframes));
	e = &s->evframes[s->nevframes++];
	*e = (struct rp_hid_evframe){ .device = f->device, .time_us = f->time_us, .line = line,
				      .nevents = f->nevents };
	e->events = tt_reallocarray(NULL, f->nevents ? f->nevents : 1, sizeof(*e->events));
	memset(e->events, 0, (f->nevents ? f->nevents : 1) * sizeof(*e->events));
	for (uint32_t i = 0; i < f->nevents; i++) {
		e->events[i].type = f->events[i].type;
		e->events[i].code = f->events[i].code;
		e->events[i].value = f->events[i].value;
	}
}

static void
take_record(struct hid_load *l, const struct tt_record *rec)
{
	const struct rp_options *o = l->o;

	switch (rec->type) {
	case TT_RECORD_HID_DEVICE:
		if ((!o->device_ids || has_id(o->device_ids, o->ndevice_ids, rec->hid_device->id)) &&
		    hid_index(l->s, rec->hid_device->id) < 0)
			add_hid_device(l, rec->hid_device, rec->line);
		break;
	case TT_RECORD_HID_REPORT:
		add_report(l, rec->hid_report, rec->line);
		break;
	case TT_RECORD_FRAME:
		if (rec->frame->time_us <= o->to_us &&
		    (o->from_us == INT64_MIN || rec->frame->time_us >= o->from_us))
			add_evframe(l, rec->frame, rec->line);
		break;
	default:
		break;
	}
}

static int
read_hid(struct hid_load *l)
{
	struct tt_record rec;
	int rc;

	while ((rc = tt_reader_next(l->s->reader, &rec)) != 0) {
		if (rc < 0) {
			l->errors++;
			fprintf(l->err, "%s\n", tt_reader_error(l->s->reader));
			if (rc == -EIO)
				return rc;
			continue;
		}
		take_record(l, &rec);
	}
	return 0;
}

static int
cmp_reports(const void *a, const void *b)
{
	const struct rp_hid_report *x = a, *y = b;

	if (x->time_us != y->time_us)
		return x->time_us < y->time_us ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void
hid_offsets(struct rp_hid_schedule *s, const struct rp_options *o)
{
	struct rp_timebase tb;

	if (!s->nreports)
		return;
	qsort(s->reports, s->nreports, sizeof(*s->reports), cmp_reports);
	rp_timebase_init(&tb, o, s->reports[0].time_us);
	for (size_t i = 0; i < s->nreports; i++)
		s->reports[i].offset_us = rp_timebase_offset(&tb, o, s->reports[i].time_us);
	s->span_us = s->reports[s->nreports - 1].offset_us;
}

static void
note_keys(const struct hid_load *l)
{
	for (size_t i = 0; i < l->s->ndevices; i++) {
		const struct rp_hid_dev *d = &l->s->devices[i];
		if (d->keys_dropped)
			fprintf(l->err, "%s: HID device %" PRIu32 " \"%s\": %zu report%s of its keyboard "
				"or keypad collection left out: they would type on your session; "
				"--allow-keys replays them\n", l->name, d->dev->id, d->dev->name,
				d->keys_dropped, d->keys_dropped == 1 ? "" : "s");
	}
}

static int
check_hid_selection(const struct hid_load *l)
{
	const struct rp_options *o = l->o;

	for (size_t i = 0; o->device_ids && i < o->ndevice_ids; i++) {
		uint32_t id = o->device_ids[i];
		if (hid_index(l->s, id) < 0) {
			fprintf(l->err, "%s: no HID device with id %" PRIu32 " (see 'touchtape print')\n",
				l->name, id);
			return -ENOENT;
		}
	}
	if (!l->s->ndevices) {
		fprintf(l->err, "%s: no HID device to replay (record with 'touchtape record --hid', "
			"or give a hid-recorder file)\n", l->name);
		return -EINVAL;
	}
	return 0;
}

int
rp_hid_schedule_load(const char *path, const struct rp_options *o, FILE *err,
		     struct rp_hid_schedule **out)
{
	_cleanup_(rp_hid_schedule_freep) struct rp_hid_schedule *s = tt_zalloc(sizeof(*s));
	_cleanup_free_ char *why = NULL;
	struct hid_load l = { .s = s, .o = o, .err = err, .name = path };
	int rc = tt_reader_open_why(path, &s->reader, &why);

	if (rc < 0) {
		fprintf(err, "%s: %s\n", tt_program_name, why ? why : path);
		return rc;
	}
	l.name = tt_reader_name(s->reader);
	rc = read_hid(&l);
	if (rc == 0 && l.errors) {
		fprintf(err, "%s: %zu unreadable line%s: refusing to replay (nothing was created)\n",
			l.name, l.errors, l.errors == 1 ? "" : "s");
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = check_hid_selection(&l);
	if (rc < 0)
		return rc;
	note_keys(&l);
	hid_offsets(s, o);
	*out = steal(&s);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Playing. */

/* HID reports as the player's steps (player.h). */
struct hid_steps {
	const struct rp_hid_schedule *s;
	struct rp_hid_sink *sink;
	/* Per device and report ID: the last report written, or NULL. */
	const struct rp_hid_report *(*last)[256];
	uint8_t buf[UHID_DATA_MAX];
};

static uint8_t
report_id(const struct rp_hid_dev *d, const struct rp_hid_report *r)
{
	return d->desc && d->desc->numbered ? r->data[0] : 0;
}

static int
lift_device(struct hid_steps *p, uint32_t dev, size_t *extra)
{
	const struct rp_hid_dev *d = &p->s->devices[dev];
	int status = 0;

	for (unsigned int id = 0; id < 256; id++) {
		const struct rp_hid_report *r = p->last[dev][id];

		p->last[dev][id] = NULL;
		if (!r || !d->desc || !rp_hid_lift_report(d->desc, r->data, r->len, p->buf))
			continue;
		int rc = p->sink->write(p->sink->data, dev, p->buf, r->len, -1);
		if (rc < 0)
			status = rc;	/* lift the others all the same */
		else
			(*extra)++;
	}
	return status;
}

static int
hid_release(void *data, size_t *extra)
{
	struct hid_steps *p = data;
	int status = 0;

	for (uint32_t d = 0; d < p->s->ndevices; d++) {
		int rc = lift_device(p, d, extra);
		if (rc < 0)
			status = rc;
	}
	return status;
}

static int64_t
hid_offset(void *data, size_t i)
{
	return ((struct hid_steps *)data)->s->reports[i].offset_us;
}

static int
hid_write(void *data, size_t i, int64_t tag)
{
	struct hid_steps *p = data;
	const struct rp_hid_report *r = &p->s->reports[i];
	int rc = p->sink->write(p->sink->data, r->dev, r->data, r->len, tag);

	if (rc < 0)
		return rc;
	p->last[r->dev][report_id(&p->s->devices[r->dev], r)] = r;
	return 0;
}

int
rp_hid_play(const struct rp_hid_schedule *s, const struct rp_options *o, int64_t start_us,
	    struct rp_clock *clock, struct rp_hid_sink *sink, struct rp_stats *stats)
{
	_cleanup_free_ struct hid_steps *p = tt_zalloc(sizeof(*p));
	struct rp_steps k = {
		.n = s->nreports, .span_us = s->span_us, .offset = hid_offset, .write = hid_write,
		.release = hid_release, .data = p,
	};
	int rc;

	p->s = s;
	p->sink = sink;
	p->last = tt_zalloc((s->ndevices ? s->ndevices : 1) * sizeof(*p->last));
	rc = rp_play_steps(&k, o, start_us, clock, stats);
	free(p->last);
	return rc;
}
