/* SPDX-License-Identifier: MIT */
/*
 * The libinput-record writer: file version 1 as `libinput record` writes
 * it, so `libinput replay` and `libinput analyze` take it. The file lists
 * every device with its own events, and starts with the device count, so
 * it is written at the end: each device's events wait in an unlinked
 * temporary file meanwhile (bounded memory).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evnames.h"
#include "export-private.h"
#include "util-strings.h"

struct li_dev {
	struct tt_device *dev;	/* copy of the description */
	FILE *events;
	int64_t last_syn_ms;
	bool have_last_syn;
	/* libinput-record has no start state: a reader begins in slot 0. The
	 * device's current slot at the start, until a slot is selected. */
	int32_t start_slot;
	bool slot_selected;
};

struct li_export {
	struct li_dev devs[TT_MAX_DEVICES];
	size_t ndevs;
	struct tt_header system;	/* only the "system" strings */
};

static struct li_dev *
find(struct li_export *p, uint32_t id)
{
	for (size_t i = 0; i < p->ndevs; i++) {
		if (p->devs[i].dev->id == id)
			return &p->devs[i];
	}
	return NULL;
}

static char *
dup_or_null(const char *s)
{
	return s ? tt_strdup(s) : NULL;
}

/* system: os and dmi, and libinput: version, at the end. */
static int
li_header(struct tt_export *e, const struct tt_header *h)
{
	struct li_export *p = e->priv;

	tt_header_clear(&p->system);
	p->system.dmi_modalias = dup_or_null(h->dmi_modalias);
	p->system.os_id = dup_or_null(h->os_id);
	p->system.os_version_id = dup_or_null(h->os_version_id);
	p->system.libinput_version = dup_or_null(h->libinput_version);
	return 0;
}

static bool libinput_records_property(const char *name);

/* What libinput-record has no place for: the sysfs path, the driver,
 * and the properties libinput record does not store. */
static bool
loses_surroundings(const struct tt_device *dev)
{
	if (dev->syspath || dev->driver)
		return true;
	for (uint32_t i = 0; i < dev->nudev; i++) {
		if (!libinput_records_property(dev->udev[i].name))
			return true;
	}
	return false;
}

static int
li_device(struct tt_export *e, const struct tt_device *dev)
{
	struct li_export *p = e->priv;
	struct li_dev *d;

	if (find(p, dev->id) || p->ndevs >= TT_MAX_DEVICES) {
		e->stats.devices_skipped++;
		return 0;
	}
	d = &p->devs[p->ndevs];
	d->events = tmpfile();
	if (!d->events)
		return -errno;
	d->dev = tt_zalloc(sizeof(*d->dev));
	*d->dev = *dev;
	d->dev->name = dev->name ? tt_strdup(dev->name) : NULL;
	d->dev->node = dev->node ? tt_strdup(dev->node) : NULL;
	d->dev->phys = NULL;
	d->dev->uniq = NULL;
	d->dev->slots = NULL;
	d->dev->num_slots = 0;
	d->start_slot = dev->num_slots ? dev->current_slot : 0;
	d->slot_selected = d->start_slot == 0;
	tt_device_copy_surroundings(d->dev, dev);
	if (loses_surroundings(dev))
		e->stats.surroundings++;
	p->ndevs++;
	e->stats.devices_written++;
	return 0;
}

static void
put_event(struct li_dev *d, const struct tt_event *ev, uint64_t t)
{
	char tb[24], cb[24], desc[128];
	const char *tn = tt_type_label(tb, sizeof(tb), ev->type);
	const char *cn = tt_code_label(cb, sizeof(cb), ev->type, ev->code);

	if (ev->type == EV_SYN && ev->code == SYN_MT_REPORT) {
		snprintf(desc, sizeof(desc), "++++++++++++ %s (%d) ++++++++++", cn, ev->value);
	} else if (ev->type == EV_SYN) {
		int64_t ms = (int64_t)(t / 1000);
		int64_t dt = d->have_last_syn ? ms - d->last_syn_ms : 0;
		d->last_syn_ms = ms;
		d->have_last_syn = true;
		snprintf(desc, sizeof(desc), "------------ %s (%d) ---------- %+" PRId64 "ms", cn, ev->value, dt);
	} else {
		snprintf(desc, sizeof(desc), "%s / %-20s %6d", tn, cn, ev->value);
	}
	fprintf(d->events, "    - [%3" PRIu64 ", %6u, %3u, %3u, %7d] # %s\n", t / 1000000,
		(unsigned int)(t % 1000000), ev->type, ev->code, ev->value, desc);
}

/* Before the first slot's event that no ABS_MT_SLOT precedes, the start
 * state's current slot, which libinput-record cannot say otherwise. */
static void
select_start_slot(struct li_dev *d, const struct tt_event *ev, uint64_t t)
{
	if (d->slot_selected || ev->type != EV_ABS || ev->code < ABS_MT_SLOT || ev->code > ABS_MT_TOOL_Y)
		return;
	d->slot_selected = true;
	if (ev->code != ABS_MT_SLOT)
		put_event(d, &(struct tt_event){ .type = EV_ABS, .code = ABS_MT_SLOT, .value = d->start_slot }, t);
}

static int
li_frame(struct tt_export *e, const struct tt_frame *f)
{
	struct li_export *p = e->priv;
	struct li_dev *d = find(p, f->device);

	if (!d) {
		e->stats.frames_skipped++;
		return 0;
	}
	fprintf(d->events, "  - evdev:\n");
	for (uint32_t i = 0; i < f->nevents; i++) {
		uint64_t t = export_event_time(e, f, i);
		select_start_slot(d, &f->events[i], t);
		put_event(d, &f->events[i], t);
	}
	return ferror(d->events) ? -EIO : 0;
}

static int
li_marker(struct tt_export *e, const struct tt_marker *m)
{
	struct li_export *p = e->priv;
	struct li_dev *d = m->device >= 0 ? find(p, (uint32_t)m->device) : NULL;
	const char *kind = m->kind_name ? m->kind_name : tt_marker_kind_name(m->kind);
	_cleanup_free_ char *k = tt_str_sanitize(kind, strlen(kind), 64);
	_cleanup_free_ char *text = m->text ? tt_str_sanitize(m->text, strlen(m->text), TT_MAX_STRING_BYTES) : NULL;
	char tb[32];

	/* libinput-record has no markers: a comment keeps them for people,
	 * in the device's events where it names one, else in the first. */
	if (!d && p->ndevs)
		d = &p->devs[0];
	if (!d)
		return 0;
	fprintf(d->events, "  # touchtape marker at %s s: %s%s%s\n", tt_format_time(tb, sizeof(tb), m->time_us),
		k, text ? ": " : "", text ? text : "");
	return 0;
}

/* A YAML double-quoted string; names are sanitized (no control
 * characters), so only the quote and the backslash need escaping. */
static void
put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A YAML list item: plain where libinput record writes it plain, quoted
 * where a value holds what YAML would read otherwise (": ", " #", ...). */
static void
put_item(FILE *out, const char *indent, const char *s)
{
	fprintf(out, "%s- ", indent);
	if (s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_=.:/+,;-") == strlen(s))
		fputs(s, out);
	else
		put_quoted(out, s);
	fputc('\n', out);
}

/* The udev properties libinput record stores (its prefixes) */
static bool
libinput_records_property(const char *name)
{
	static const char *const prefixes[] = { "ID_INPUT", "LIBINPUT", "EVDEV_ABS", "MOUSE_DPI", "POINTINGSTICK_" };

	for (size_t i = 0; i < ARRAY_LENGTH(prefixes); i++) {
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	}
	return false;
}

/* The recorded properties, those libinput record would have stored. */
static void
write_recorded_udev(FILE *out, const struct tt_device *dev)
{
	fprintf(out, "  udev:\n    properties:\n");
	for (uint32_t i = 0; i < dev->nudev; i++) {
		const struct tt_property *prop = &dev->udev[i];
		_cleanup_free_ char *line = NULL;

		if (!libinput_records_property(prop->name))
			continue;
		if (asprintf(&line, "%s=%s", prop->name, prop->value) < 0)
			abort();
		put_item(out, "    ", line);
	}
}

/* Whether the recorded properties are what to write: those a
 * libinput-record file had (an empty list included, as written), or a
 * recording's where udevd tagged the device. A recording made without
 * udevd has only the kernel's uevent properties. */
static bool
has_usable_udev(const struct tt_device *dev)
{
	if (!dev->has_udev)
		return false;
	for (uint32_t i = 0; i < dev->nudev; i++) {
		if (libinput_records_property(dev->udev[i].name))
			return true;
	}
	return dev->nudev == 0;
}

/* The udev properties udev's input_id builtin would give the device,
 * where the recording has none of its own: `libinput replay` needs them
 * (it refuses a device without udev:) to tag the device it creates the
 * way the original was. */
static void
write_udev(FILE *out, const struct tt_device *dev, bool faithful)
{
	bool abs_xy = tt_device_has(dev, EV_ABS, ABS_X) || tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X);
	bool pen = tt_device_has(dev, EV_KEY, BTN_TOOL_PEN) || tt_device_has(dev, EV_KEY, BTN_STYLUS);
	bool finger = tt_device_has(dev, EV_KEY, BTN_TOOL_FINGER);

	if (has_usable_udev(dev)) {
		write_recorded_udev(out, dev);
		return;
	}
	if (faithful)
		return;
	fprintf(out, "  udev:\n    properties:\n    - ID_INPUT=1\n");
	if (abs_xy && pen)
		fprintf(out, "    - ID_INPUT_TABLET=1\n");
	else if (abs_xy && finger && !bit_is_set(dev->props, INPUT_PROP_DIRECT))
		fprintf(out, "    - ID_INPUT_TOUCHPAD=1\n");
	else if (abs_xy && (bit_is_set(dev->props, INPUT_PROP_DIRECT) || tt_device_has(dev, EV_KEY, BTN_TOUCH)))
		fprintf(out, "    - ID_INPUT_TOUCHSCREEN=1\n");
	if (tt_device_has(dev, EV_REL, REL_X) && tt_device_has(dev, EV_KEY, BTN_LEFT))
		fprintf(out, "    - ID_INPUT_MOUSE=1\n");
	if (tt_device_has(dev, EV_KEY, BTN_JOYSTICK) || tt_device_has(dev, EV_KEY, BTN_GAMEPAD))
		fprintf(out, "    - ID_INPUT_JOYSTICK=1\n");
	if (tt_device_has_typing_keys(dev)) {
		fprintf(out, "    - ID_INPUT_KEY=1\n");
		if (tt_device_has(dev, EV_KEY, KEY_A) && tt_device_has(dev, EV_KEY, KEY_Z))
			fprintf(out, "    - ID_INPUT_KEYBOARD=1\n");
	}
}

/* The quirks libinput matched, where the recording asked. */
static void
write_quirks(FILE *out, const struct tt_device *dev)
{
	if (!dev->has_quirks)
		return;
	fprintf(out, "  quirks:\n");
	for (uint32_t i = 0; i < dev->nquirks; i++)
		put_item(out, "  ", dev->quirks[i]);
}

/* @faithful: the recording was a libinput-record file, which comes back
 * as it was: no node or udev properties it never had. Other sources get
 * what libinput replay needs (a node name, input_id's udev tags). */
static void
write_device(FILE *out, const struct tt_device *dev, uint32_t index, bool faithful)
{
	char tb[24], cb[24];

	if (dev->node) {
		fprintf(out, "- node: ");
		put_quoted(out, dev->node);
		fprintf(out, "\n  evdev:\n");
	} else if (faithful) {
		fprintf(out, "- evdev:\n");
	} else {
		fprintf(out, "- node: /dev/input/event%u\n  evdev:\n", index);
	}
	fprintf(out, "    # Name: %s\n", dev->name ? dev->name : "");
	fprintf(out, "    # ID: bus %#02x vendor %#02x product %#02x version %#02x\n", dev->bustype, dev->vendor,
		dev->product, dev->version);
	fprintf(out, "    name: ");
	put_quoted(out, dev->name ? dev->name : "");
	fprintf(out, "\n    id: [%u, %u, %u, %u]\n", dev->bustype, dev->vendor, dev->product, dev->version);
	fprintf(out, "    codes:\n");
	for (unsigned int type = 0; type < EV_CNT; type++) {
		int max = tt_code_max(type);
		bool first = true;
		if (max < 0 || !bit_is_set(dev->types, type))
			continue;
		fprintf(out, "      %u: [", type);
		for (unsigned int code = 0; code <= (unsigned int)max; code++) {
			if (!tt_device_has(dev, type, code))
				continue;
			fprintf(out, "%s%u", first ? "" : ", ", code);
			first = false;
		}
		fprintf(out, "] # %s\n", tt_type_label(tb, sizeof(tb), type));
	}
	if (bit_is_set(dev->types, EV_ABS)) {
		fprintf(out, "    absinfo:\n");
		for (unsigned int code = 0; code < ABS_CNT; code++) {
			if (!tt_device_has(dev, EV_ABS, code))
				continue;
			const struct tt_absinfo *a = &dev->abs[code];
			fprintf(out, "      %u: [%d, %d, %d, %d, %d] # %s\n", code, a->minimum, a->maximum, a->fuzz,
				a->flat, a->resolution, tt_code_label(cb, sizeof(cb), EV_ABS, code));
		}
	}
	fprintf(out, "    properties: [");
	bool first = true;
	for (unsigned int prop = 0; prop < INPUT_PROP_CNT; prop++) {
		if (bit_is_set(dev->props, prop)) {
			fprintf(out, "%s%u", first ? "" : ", ", prop);
			first = false;
		}
	}
	fprintf(out, "]\n");
	write_udev(out, dev, faithful);
	write_quirks(out, dev);
}

static int
copy_events(FILE *out, FILE *in)
{
	char buf[65536];
	size_t n;

	if (fflush(in) != 0 || fseek(in, 0, SEEK_SET) != 0)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, out) != n)
			return -EIO;
	}
	return ferror(in) ? -EIO : 0;
}

/* system: as libinput record writes it: os is "ID:VERSION_ID". */
static void
write_system(FILE *out, const struct tt_export *e, const struct tt_header *sys)
{
	fprintf(out, "system:\n");
	if (sys->os_id) {
		_cleanup_free_ char *os = NULL;
		if (asprintf(&os, "%s:%s", sys->os_id, sys->os_version_id ? sys->os_version_id : "") < 0)
			abort();
		fprintf(out, "  os: ");
		put_quoted(out, os);
		fputc('\n', out);
	}
	fprintf(out, "  kernel: ");
	put_quoted(out, e->kernel ? e->kernel : "unknown");
	fputc('\n', out);
	if (sys->dmi_modalias) {
		fprintf(out, "  dmi: ");
		put_quoted(out, sys->dmi_modalias);
		fputc('\n', out);
	}
}

static int
li_finish(struct tt_export *e)
{
	struct li_export *p = e->priv;
	FILE *out = e->out;
	const char *tool = e->tool ? e->tool : "touchtape";
	const char *li_version = "unknown";

	if (p->system.libinput_version)
		li_version = p->system.libinput_version;
	else if (strncmp(tool, "libinput record ", 16) == 0)
		li_version = tool + 16;
	fprintf(out, "# libinput record\n");
	fprintf(out, "# Converted by touchtape from a recording made by %s\n", tool);
	fprintf(out, "version: 1\nndevices: %zu\n", p->ndevs);
	fprintf(out, "libinput:\n  version: ");
	put_quoted(out, li_version);
	fprintf(out, "\n  git: \"unknown\"\n");
	write_system(out, e, &p->system);
	fprintf(out, "devices:\n");
	for (size_t i = 0; i < p->ndevs; i++) {
		write_device(out, p->devs[i].dev, (uint32_t)i,
			     e->source_format && strcmp(e->source_format, "libinput-record") == 0);
		fprintf(out, "  events:\n");
		int rc = copy_events(out, p->devs[i].events);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void
li_destroy(struct tt_export *e)
{
	struct li_export *p = e->priv;

	if (!p)
		return;
	for (size_t i = 0; i < p->ndevs; i++) {
		tt_device_free(p->devs[i].dev);
		if (p->devs[i].events)
			fclose(p->devs[i].events);
	}
	tt_header_clear(&p->system);
	free(p);
}

static const struct tt_export_ops li_export_ops = {
	.header = li_header,
	.device = li_device,
	.frame = li_frame,
	.marker = li_marker,
	.finish = li_finish,
	.destroy = li_destroy,
	.surroundings = true,
};

int
libinput_export_init(struct tt_export *e)
{
	e->priv = tt_zalloc(sizeof(struct li_export));
	e->ops = &li_export_ops;
	return 0;
}
