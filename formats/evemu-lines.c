/* SPDX-License-Identifier: MIT */
/*
 * The evemu reader's lines: reading them (and a companion description
 * file), the comments that carry the kernel and DMI, and the first pass
 * that infers the device of an events-only file.
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

/* ---- reading lines ---- */

/* Next line with the CR of a CRLF removed: 1, 0 at EOF, <0 on error. */
int
evemu_next_line(struct tt_reader *r, struct linebuf *lb, const char *name, char **out, size_t *lineno)
{
	for (;;) {
		char *line;
		size_t len;
		int status = linebuf_next(lb, &line, &len);

		*lineno = lb->lineno;
		if (status < 0) {
			r->done = true;
			reader_fail_in(r, name, lb->lineno, "%s", linebuf_error(lb, status));
			return -EIO;
		}
		if (status == LINEBUF_EOF)
			return 0;
		if (status == LINEBUF_TOO_LONG)
			return reader_fail_in(r, name, lb->lineno, "line longer than %u bytes", TT_MAX_LINE_BYTES);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (memchr(line, '\0', len))
			return reader_fail_in(r, name, lb->lineno, "NUL byte in a text line");
		*out = line;
		return 1;
	}
}

void
evemu_parse_comment(struct evemu_priv *p, struct tt_reader *r, const char *s, size_t line)
{
	const char *c = s + 1;
	int32_t major, minor;

	const char *v = evemu_skip_ws(c);
	if (strncmp(v, "EVEMU ", 6) == 0 && (v = evemu_parse_dec(v + 6, &major)) && *v == '.' &&
	    evemu_parse_dec(v + 1, &minor) && major >= 0 && minor >= 0) {
		p->major = major;
		p->minor = minor;
		if (major > 1 || (major == 1 && minor > 3))
			reader_warn(r, line, "evemu file format %d.%d is newer than 1.3; reading it as 1.3",
				    major, minor);
		return;
	}
	c = evemu_skip_ws(c);
	if (strncmp(c, "Kernel:", 7) == 0 && !p->kernel) {
		c = evemu_skip_ws(c + 7);
		p->kernel = tt_str_sanitize(c, strlen(c), TT_MAX_STRING_BYTES);
		return;
	}
	if (strncmp(c, "DMI:", 4) == 0 && !p->dmi) {
		c = evemu_skip_ws(c + 4);
		p->dmi = tt_str_sanitize(c, strlen(c), TT_MAX_STRING_BYTES);
		return;
	}
	/* umockdev-style commented-out description: "# N: name". */
	char kind = evemu_line_kind(c);
	if (kind && kind != 'E') {
		evemu_desc_line(r, &p->commented, kind, c + 2, r->name, line);
		return;
	}
	evemu_desc_comment(p->desc_from_companion ? &p->commented : &p->desc, s + 1);
}

/* Reads the --desc file's description into p->desc. */
int
evemu_read_companion(struct tt_reader *r)
{
	struct evemu_priv *p = r->priv;
	struct linebuf lb;
	int fd = open(r->companion, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	p->companion_done = true;
	if (fd < 0)
		return reader_fail_in(r, r->companion, 0, "cannot open the description: %s", strerror(errno));
	linebuf_init(&lb, fd, TT_MAX_LINE_BYTES);
	for (;;) {
		char *s;
		size_t line;
		int status = evemu_next_line(r, &lb, r->companion, &s, &line);
		if (status == 0)
			break;
		if (status < 0) {
			rc = status;
			if (status == -EIO) {
				r->done = false;
				break;
			}
			continue;
		}
		const char *t = evemu_skip_ws(s);
		if (*t == '\0')
			continue;
		if (*t == '#') {
			evemu_parse_comment(p, r, t, line);
			continue;
		}
		char kind = evemu_line_kind(t);
		if (kind == 'E') {
			reader_warn(r, line, "%s has events; only its description is used", r->companion);
			break;
		}
		if (!kind) {
			rc = reader_fail_in(r, r->companion, line, "not an evemu description line");
			continue;
		}
		if ((rc = evemu_desc_line(r, &p->desc, kind, t + 2, r->companion, line)) < 0)
			continue;
	}
	linebuf_release(&lb);
	close(fd);
	if (!p->desc.have_name)
		return reader_fail_in(r, r->companion, 0, "no device description (N: line) in the file");
	p->desc_from_companion = true;
	return rc < 0 ? rc : 0;
}

/* ---- inferring a device from events (events-only files) ---- */

struct infer {
	int32_t min[ABS_CNT], max[ABS_CNT];
	uint8_t seen_abs[TT_BITMAP_BYTES(ABS_CNT)];
};

/* A tracking ID of -1 (a contact lifted) exists only in the slotted
 * Type B protocol. A Type B device whose recording only ever used slot 0
 * never sends ABS_MT_SLOT, so without this it would pass for Type A and
 * its lift for a new touch with tracking ID -1. */
static void
infer_type_b(struct tt_device *dev, const struct infer *inf)
{
	if (!bit_is_set(inf->seen_abs, ABS_MT_TRACKING_ID) || inf->min[ABS_MT_TRACKING_ID] >= 0 ||
	    bit_is_set(inf->seen_abs, ABS_MT_SLOT))
		return;
	/* One slot: the only one the recording shows. */
	tt_device_enable(dev, EV_ABS, ABS_MT_SLOT);
	dev->abs[ABS_MT_SLOT].minimum = 0;
	dev->abs[ABS_MT_SLOT].maximum = 0;
}

/* The finger-count tool buttons a touchpad sends (the kernel gives a
 * pointer's MT slots BTN_TOOL_FINGER and those its slots can count);
 * a touchscreen sends none. */
static const unsigned int finger_tools[] = {
	BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
};

static unsigned int
finger_tool_seen(const struct tt_device *dev)
{
	for (size_t i = 0; i < ARRAY_LENGTH(finger_tools); i++) {
		if (tt_device_has(dev, EV_KEY, finger_tools[i]))
			return finger_tools[i];
	}
	return 0;
}

/* Whether the finger-count tool buttons @dev sends make it a touchpad:
 * BTN_TOOL_FINGER does; the others do on a single-touch device (an old
 * Synaptics) or a slotted (Type B) one, as the kernel's pointer MT devices
 * all are, not in Type A frames: hid-ntrig's touchscreens send
 * BTN_TOOL_DOUBLETAP for every touch. */
static bool
is_touchpad(const struct tt_device *dev, unsigned int tool)
{
	if (!tool || tt_device_has(dev, EV_KEY, BTN_TOOL_PEN))
		return false;
	if (tool == BTN_TOOL_FINGER)
		return true;
	if (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X))
		return tt_device_has(dev, EV_ABS, ABS_MT_SLOT) || tt_device_has(dev, EV_ABS, ABS_MT_TRACKING_ID);
	return tt_device_has(dev, EV_ABS, ABS_X);
}

/* The property of an events-only device, said in the reader's warning:
 * finger-count tool buttons make a touchpad (a recording begun with two
 * fingers down never sends BTN_TOOL_FINGER: it is given one, as the
 * kernel's touchpads have, so that udev and libinput take it for one),
 * positions with BTN_TOUCH and none of them a touchscreen. */
static void
infer_property(struct tt_device *dev, char *what, size_t size)
{
	unsigned int tool = finger_tool_seen(dev);

	if (is_touchpad(dev, tool)) {
		tt_device_enable(dev, EV_KEY, BTN_TOOL_FINGER);
		set_bit(dev->props, INPUT_PROP_POINTER);
		snprintf(what, size, "a touchpad (INPUT_PROP_POINTER): it sends %s", tt_code_name(EV_KEY, tool));
	} else if (tt_device_has(dev, EV_ABS, ABS_MT_POSITION_X) ||
		   (tt_device_has(dev, EV_ABS, ABS_X) && tt_device_has(dev, EV_KEY, BTN_TOUCH))) {
		set_bit(dev->props, INPUT_PROP_DIRECT);
		snprintf(what, size, "a touchscreen (INPUT_PROP_DIRECT): positions without a touchpad's tool buttons");
	} else {
		snprintf(what, size, "a device without a property: no touch positions");
	}
}

static void
infer_device(struct tt_device *dev, const struct infer *inf, char *what, size_t size)
{
	for (unsigned int code = 0; code < ABS_CNT; code++) {
		if (!bit_is_set(inf->seen_abs, code))
			continue;
		struct tt_absinfo *a = &dev->abs[code];
		a->minimum = inf->min[code] < 0 ? inf->min[code] : 0;
		a->maximum = inf->max[code] > 0 ? inf->max[code] : 1;
		if (code == ABS_MT_TRACKING_ID) {
			a->minimum = 0;
			if (a->maximum < 65535)
				a->maximum = 65535;
		}
		if (code == ABS_MT_SLOT)
			a->minimum = 0;
	}
	infer_type_b(dev, inf);
	infer_property(dev, what, size);
}

/* First pass over an events-only file: which codes and ranges the events
 * use. Then rewinds so the second pass reads the events. */
int
evemu_infer_pass(struct tt_reader *r, char *what, size_t size)
{
	struct evemu_priv *p = r->priv;
	_cleanup_free_ struct infer *inf = tt_zalloc(sizeof(*inf));
	struct tt_device *dev = p->desc.dev;
	size_t nerrors = r->nerrors;

	if (lseek(r->lb.fd, 0, SEEK_SET) < 0)
		return reader_fail(r, 1, "events-only recording without a description, and the input cannot be "
				   "read twice to infer the device; give the description with --desc FILE");
	linebuf_release(&r->lb);
	linebuf_init(&r->lb, r->lb.fd, TT_MAX_LINE_BYTES);
	for (;;) {
		char *s;
		size_t line;
		int64_t t;
		struct tt_event ev;
		int status = evemu_next_line(r, &r->lb, r->name, &s, &line);
		if (status == 0)
			break;
		if (status == -EIO)
			return status;
		if (status < 0)
			continue;
		s = (char *)evemu_skip_ws(s);
		if (evemu_line_kind(s) != 'E' || evemu_parse_event_line(r, s + 2, line, &t, &ev) < 0)
			continue;
		if (ev.type == EV_SYN)
			continue;
		tt_device_enable(dev, ev.type, ev.code);
		if (ev.type == EV_ABS) {
			if (!bit_is_set(inf->seen_abs, ev.code)) {
				inf->min[ev.code] = inf->max[ev.code] = ev.value;
				set_bit(inf->seen_abs, ev.code);
			}
			if (ev.value < inf->min[ev.code])
				inf->min[ev.code] = ev.value;
			if (ev.value > inf->max[ev.code])
				inf->max[ev.code] = ev.value;
		}
	}
	/* The second pass reports the errors again, at their lines. */
	r->nerrors = nerrors;
	infer_device(dev, inf, what, size);
	if (lseek(r->lb.fd, 0, SEEK_SET) < 0)
		return reader_fail(r, 1, "cannot rewind: %s", strerror(errno));
	linebuf_release(&r->lb);
	linebuf_init(&r->lb, r->lb.fd, TT_MAX_LINE_BYTES);
	p->inferring = true;
	p->content_seen = false;
	p->preamble = p->preamble ? 1 : 0;
	return 0;
}
