/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record reader (file version 1), on libyaml's event API so
 * the events list streams: memory stays bounded whatever the length.
 *
 *	version: 1
 *	ndevices: N
 *	libinput: {version: "1.23.0", git: ...}
 *	system: {os: ..., kernel: ..., dmi: ...}
 *	devices:
 *	- node: /dev/input/event1
 *	  evdev: {name: ..., id: [bus, vid, pid, ver],
 *	          codes: {TYPE: [CODE, ...]}, absinfo: {CODE: [min, max, fuzz, flat, res]},
 *	          properties: [PROP, ...]}
 *	  hid: [bytes], udev: {properties: [...]}, quirks: [...]
 *	  events:
 *	  - evdev: [[sec, usec, type, code, value], ...]
 *	  - libinput: [{time: ..., type: ...}, ...]
 *
 * Devices get the record ids 0, 1, ... in file order. Each device's
 * frames follow its device record (the file keeps them per device); the
 * times are the file's, which libinput already counts from the first
 * event of the recording. libinput: event entries (--with-libinput)
 * become li records on the same clock (libinput-li.c). udev:'s
 * properties and quirks: become the device's surroundings (its "udev",
 * "hwdb" and "quirks"), system:'s os and dmi and libinput:'s version the
 * header's; hid:, and udev: or quirks: in a shape libinput does not
 * write, have no timeline equivalent and become "note" markers, as do
 * the libinput: and system: sections (for what the header does not hold).
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
#include "reader-private.h"
#include "util-mem.h"
#include "util-strings.h"

/* ---- records ---- */

int
li_emit_header(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	p->header_sent = true;
	r->header.version = TT_FORMAT_VERSION;
	if (!r->header.tool)
		r->header.tool = tt_strdup("libinput record");
	r->header.source_format = tt_strdup("libinput-record");
	r->have_header = true;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_HEADER;
	rec->header = &r->header;
	rec->line = 1;
	return 1;
}

int
li_emit_device(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct tt_device *dev = steal(&p->dev);

	p->dev_sent = true;
	if (!dev->name)
		dev->name = tt_strdup("");
	tt_device_find_hwdb(dev);
	if (tt_device_has(dev, EV_ABS, ABS_MT_SLOT) && !tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1)) {
		const struct tt_absinfo *a = &dev->abs[ABS_MT_SLOT];
		if (a->minimum != 0 || a->maximum < 0 || a->maximum >= (int32_t)TT_MAX_SLOTS) {
			/* @a points into @dev: the message first. */
			int rc = reader_fail(r, p->dev_line, "ABS_MT_SLOT range [%d, %d] is not 0 to at most %u slots",
					     a->minimum, a->maximum, TT_MAX_SLOTS - 1);
			tt_device_free(dev);
			return rc;
		}
		dev->mt_protocol = TT_MT_B;
		tt_device_set_slots(dev, (uint32_t)a->maximum + 1);
	} else if (!tt_device_has(dev, EV_ABS, ABS_MT_SLOT - 1) &&
		   tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X)) {
		dev->mt_protocol = TT_MT_A;
	}
	if (reader_add_device(r, dev) < 0) {
		tt_device_free(dev);
		return reader_fail(r, p->dev_line, "more than %u devices in one file", TT_MAX_DEVICES);
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_DEVICE;
	rec->device = dev;
	rec->line = p->dev_line;
	return 1;
}

static int
emit_note(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;
	struct note n = p->notes[0];

	memmove(&p->notes[0], &p->notes[1], (p->nnotes - 1) * sizeof(p->notes[0]));
	p->nnotes--;
	tt_marker_clear(&r->marker);
	r->marker.kind = TT_MARKER_NOTE;
	r->marker.kind_name = tt_strdup("note");
	r->marker.text = n.text;
	r->marker.device = n.device;
	r->marker.time_us = p->last_time;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_MARKER;
	rec->marker = &r->marker;
	rec->line = n.line;
	return 1;
}

int
li_emit_frame(struct tt_reader *r, struct tt_record *rec, uint32_t flags)
{
	struct li_priv *p = r->priv;
	struct tt_frame *f = &r->frame;

	/* An unfinished frame's events are still relative to its first
	 * event; the frame's time is its last event's. */
	if ((flags & TT_FRAME_INCOMPLETE) && p->nevents) {
		int32_t last = f->events[p->nevents - 1].dt_us;
		for (uint32_t i = 0; i < p->nevents; i++)
			f->events[i].dt_us -= last;
		p->frame_time += last;
	}
	f->device = p->cur_dev;
	f->time_us = p->frame_time;
	f->nevents = p->nevents;
	f->flags = flags;
	if (p->nevents && f->events[p->nevents - 1].type == EV_SYN &&
	    f->events[p->nevents - 1].code == SYN_DROPPED)
		f->flags |= TT_FRAME_DROPPED;
	memset(rec, 0, sizeof(*rec));
	rec->type = TT_RECORD_FRAME;
	rec->frame = f;
	rec->line = p->frame_line;
	p->nevents = 0;
	return 1;
}

/* One [sec, usec, type, code, value]; 1 when it ends a frame. */
int
li_evdev_event(struct tt_reader *r, const yaml_event_t *start)
{
	struct li_priv *p = r->priv;
	int64_t v[5];
	size_t line = li_ev_line(start);
	int n = li_read_int_seq(r, start, "evdev event", INT32_MIN, INT64_MAX / 2, v, 5);

	if (n < 0)
		return n;
	if (n != 5)
		return reader_fail(r, line, "an evdev event needs [sec, usec, type, code, value]");
	if (v[0] < 0 || v[0] > TT_MAX_TIME_US / 1000000 || v[1] < 0 || v[1] > 999999)
		return reader_fail(r, line, "evdev event time %" PRId64 ".%06" PRId64 " is out of range", v[0], v[1]);
	if (v[2] > EV_MAX || tt_code_max((unsigned int)v[2]) < 0)
		return reader_fail(r, line, "event type %" PRId64 " is not a valid type", v[2]);
	if (v[3] < 0 || v[3] > tt_code_max((unsigned int)v[2]))
		return reader_fail(r, line, "code %" PRId64 " is out of range for type %" PRId64, v[3], v[2]);
	if (v[4] < INT32_MIN || v[4] > INT32_MAX)
		return reader_fail(r, line, "value %" PRId64 " is not a 32-bit number", v[4]);
	if (p->nevents >= TT_MAX_FRAME_EVENTS) {
		p->nevents = 0;
		return reader_fail(r, line, "a frame of more than %u events (no SYN_REPORT?); its events are dropped",
				   TT_MAX_FRAME_EVENTS);
	}
	int64_t t = v[0] * 1000000 + v[1];
	if (p->nevents == 0) {
		p->frame_line = line;
		p->frame_time = t;
	}
	reader_frame_reserve(r, p->nevents + 1);
	int64_t dt = t - p->frame_time;
	if (dt > INT32_MAX || dt < INT32_MIN)
		return reader_fail(r, line, "events of one frame are more than 35 minutes apart");
	r->frame.events[p->nevents++] = (struct tt_event){
		(uint16_t)v[2], (uint16_t)v[3], (int32_t)v[4], (int32_t)dt,
	};
	p->last_time = t;
	if (v[2] == EV_SYN && (v[3] == SYN_REPORT || v[3] == SYN_DROPPED)) {
		/* The frame's time is its last event's. */
		for (uint32_t i = 0; i < p->nevents; i++)
			r->frame.events[i].dt_us -= (int32_t)dt;
		p->frame_time = t;
		return 1;
	}
	return 0;
}

/* Notes wait for the header, and for the device they belong to. */
static bool
note_due(const struct li_priv *p)
{
	return p->nnotes && p->header_sent &&
	       (p->state == LI_TOP || p->dev_sent || p->state == LI_END);
}

/* The bytes themselves could not be read (a cut or corrupt gzip
 * stream): the rest of the file is lost, which is trouble, not a bad
 * line. */
static bool
stream_failed(const struct tt_reader *r)
{
	return r->lb.error[0] != '\0';
}

static int
li_next(struct tt_reader *r, struct tt_record *rec)
{
	struct li_priv *p = r->priv;

	for (;;) {
		_cleanup_yaml_event_ yaml_event_t ev = { 0 };
		int rc;

		if (note_due(p))
			return emit_note(r, rec);
		if (p->state == LI_END) {
			r->done = true;
			if (!p->header_sent)
				return reader_fail(r, 1, "no libinput-record content (version:, devices:)");
			return 0;
		}
		if (li_next_event(r, &ev) < 0)
			return stream_failed(r) ? -EIO : -EINVAL;
		rc = li_states[p->state](r, &ev, rec);
		if (rc < 0 && stream_failed(r))
			return -EIO;
		if (rc != 0)
			return rc;
	}
}

static void
li_destroy(struct tt_reader *r)
{
	struct li_priv *p = r->priv;

	if (!p)
		return;
	if (p->parser_ok)
		yaml_parser_delete(&p->parser);
	tt_device_free(p->dev);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i].text);
	free(p);
	r->priv = NULL;
}

static const struct tt_reader_ops li_ops = {
	.next = li_next,
	.destroy = li_destroy,
};

int
libinput_reader_init(struct tt_reader *r)
{
	struct li_priv *p = tt_zalloc(sizeof(*p));

	if (!yaml_parser_initialize(&p->parser)) {
		free(p);
		return -ENOMEM;
	}
	p->parser_ok = true;
	r->priv = p;
	r->ops = &li_ops;
	yaml_parser_set_input(&p->parser, li_read_handler, r);
	return 0;
}