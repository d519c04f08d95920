/* SPDX-License-Identifier: MIT */
/*
 * The evemu writer: the file evemu-record 2.x writes (format 1.3), with
 * its evtest-style comment block, so evemu-device and evemu-play use it
 * as they would their own. One device per file.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "evnames.h"
#include "export-private.h"
#include "util-strings.h"

struct evemu_export {
	bool have_device;
	uint32_t device;
	int64_t last_syn_ms;
	bool have_last_syn;
};

static int
evemu_header(struct tt_export *e, const struct tt_header *h)
{
	fprintf(e->out, "# EVEMU 1.3\n");
	if (h->kernel)
		fprintf(e->out, "# Kernel: %s\n", h->kernel);
	if (h->tool)
		fprintf(e->out, "# Converted by touchtape from a recording made by %s\n", h->tool);
	return 0;
}

static const char *
name_or(const char *name, const char *fallback)
{
	return name ? name : fallback;
}

static void
write_comment_block(FILE *out, const struct tt_device *dev)
{
	fprintf(out, "# Input device name: \"%s\"\n", dev->name ? dev->name : "");
	fprintf(out, "# Input device ID: bus %#04x vendor %#04x product %#04x version %#04x\n",
		dev->bustype, dev->vendor, dev->product, dev->version);
	fprintf(out, "# Supported events:\n");
	for (unsigned int type = 0; type < EV_CNT; type++) {
		int max = tt_code_max(type);
		if (max < 0 || !bit_is_set(dev->types, type))
			continue;
		fprintf(out, "#   Event type %u (%s)\n", type, name_or(tt_type_name(type), "(null)"));
		for (unsigned int code = 0; code <= (unsigned int)max; code++) {
			if (!tt_device_has(dev, type, code))
				continue;
			fprintf(out, "#     Event code %u (%s)\n", code, name_or(tt_code_name(type, code), "(null)"));
			if (type == EV_ABS) {
				const struct tt_absinfo *a = &dev->abs[code];
				fprintf(out,
					"#       Value   %6d\n#       Min     %6d\n#       Max     %6d\n"
					"#       Fuzz    %6d\n#       Flat    %6d\n#       Resolution %3d\n",
					a->value, a->minimum, a->maximum, a->fuzz, a->flat, a->resolution);
			} else if (type == EV_LED && code < LED_CNT) {
				fprintf(out, "#        State %d\n", bit_is_set(dev->leds_on, code) ? 1 : 0);
			} else if (type == EV_SW && code < SW_CNT) {
				fprintf(out, "#        State %d\n", bit_is_set(dev->switches_on, code) ? 1 : 0);
			}
		}
	}
	fprintf(out, "# Properties:\n");
	for (unsigned int prop = 0; prop < INPUT_PROP_CNT; prop++) {
		if (bit_is_set(dev->props, prop))
			fprintf(out, "#   Property  type %u (%s)\n", prop, name_or(tt_prop_name(prop), "(null)"));
	}
}

static void
write_bytes(FILE *out, const char *prefix, const uint8_t *bits, size_t nbytes)
{
	/* Whole lines of 8 bytes, zero-filled past the bitmap. */
	for (size_t i = 0; i < nbytes; i += 8) {
		fputs(prefix, out);
		for (size_t j = i; j < i + 8; j++)
			fprintf(out, " %02x", j < nbytes ? bits[j] : 0);
		fputc('\n', out);
	}
}

static int
evemu_device(struct tt_export *e, const struct tt_device *dev)
{
	struct evemu_export *p = e->priv;
	FILE *out = e->out;
	char prefix[8];

	if (p->have_device) {
		e->stats.devices_skipped++;
		return 0;
	}
	p->have_device = true;
	p->device = dev->id;
	e->stats.devices_written++;

	write_comment_block(out, dev);
	fprintf(out, "N: %s\n", dev->name ? dev->name : "");
	fprintf(out, "I: %04x %04x %04x %04x\n", dev->bustype, dev->vendor, dev->product, dev->version);
	write_bytes(out, "P:", dev->props, TT_BITMAP_BYTES(INPUT_PROP_CNT));
	for (unsigned int type = 0; type < EV_CNT; type++) {
		int max = tt_code_max(type);
		if (max < 0)
			continue;
		snprintf(prefix, sizeof(prefix), "B: %02x", type);
		write_bytes(out, prefix, dev->codes[type], TT_BITMAP_BYTES((size_t)max + 1));
	}
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (!tt_device_has(dev, EV_ABS, code))
			continue;
		const struct tt_absinfo *a = &dev->abs[code];
		fprintf(out, "A: %02x %d %d %d %d %d\n", code, a->minimum, a->maximum, a->fuzz, a->flat,
			a->resolution);
	}
	for (unsigned int code = 0; code < LED_CNT; code++) {
		if (bit_is_set(dev->leds_on, code))
			fprintf(out, "L: %02x 1\n", code);
	}
	for (unsigned int code = 0; code < SW_CNT; code++) {
		if (bit_is_set(dev->switches_on, code))
			fprintf(out, "S: %02x 1\n", code);
	}
	fprintf(out, "################################\n"
		     "#      Waiting for events      #\n"
		     "################################\n");
	return 0;
}

static int
evemu_frame(struct tt_export *e, const struct tt_frame *f)
{
	struct evemu_export *p = e->priv;
	FILE *out = e->out;

	if (!p->have_device || f->device != p->device) {
		e->stats.frames_skipped++;
		return 0;
	}
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *ev = &f->events[i];
		uint64_t t = export_event_time(e, f, i);
		char tb[24], cb[24];

		fprintf(out, "E: %" PRIu64 ".%06u %04x %04x %04d\t", t / 1000000,
			(unsigned int)(t % 1000000), ev->type, ev->code, ev->value);
		if (ev->type == EV_SYN && ev->code == SYN_MT_REPORT) {
			fprintf(out, "# ++++++++++++ %s (%d) ++++++++++\n",
				tt_code_label(cb, sizeof(cb), ev->type, ev->code), ev->value);
		} else if (ev->type == EV_SYN) {
			int64_t ms = (int64_t)(t / 1000);
			int64_t dt = p->have_last_syn ? ms - p->last_syn_ms : 0;
			p->last_syn_ms = ms;
			p->have_last_syn = true;
			fprintf(out, "# ------------ %s (%d) ---------- %+" PRId64 "ms\n",
				tt_code_label(cb, sizeof(cb), ev->type, ev->code), ev->value, dt);
		} else {
			fprintf(out, "# %s / %-20s %d\n", tt_type_label(tb, sizeof(tb), ev->type),
				tt_code_label(cb, sizeof(cb), ev->type, ev->code), ev->value);
		}
	}
	return 0;
}

static int
evemu_marker(struct tt_export *e, const struct tt_marker *m)
{
	char tb[32];
	const char *kind = m->kind_name ? m->kind_name : tt_marker_kind_name(m->kind);
	_cleanup_free_ char *k = tt_str_sanitize(kind, strlen(kind), 64);
	_cleanup_free_ char *text = m->text ? tt_str_sanitize(m->text, strlen(m->text), TT_MAX_STRING_BYTES) : NULL;

	/* evemu has no markers: a comment keeps them for the reader. */
	fprintf(e->out, "# touchtape marker at %s s: %s%s%s\n",
		tt_format_time(tb, sizeof(tb), m->time_us), k,
		text ? ": " : "", text ? text : "");
	return 0;
}

static void
evemu_destroy(struct tt_export *e)
{
	free(e->priv);
}

static const struct tt_export_ops evemu_export_ops = {
	.header = evemu_header,
	.device = evemu_device,
	.frame = evemu_frame,
	.marker = evemu_marker,
	.destroy = evemu_destroy,
};

int
evemu_export_init(struct tt_export *e)
{
	e->priv = tt_zalloc(sizeof(struct evemu_export));
	e->ops = &evemu_export_ops;
	return 0;
}
