/* SPDX-License-Identifier: MIT */
/* The catalog of diagnostics and the filter every command prints through.
 * See diag.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util-mem.h"

static const struct {
	const char *name;
	enum tt_severity severity;
	const char *explain;
} catalog[TT_CHECK_COUNT] = {
	[TT_CHECK_TIME_BACKWARDS] = { "time-backwards", TT_SEV_ERROR,
		"a frame or XI event is timed before the one before it" },
	[TT_CHECK_NO_SYN_REPORT] = { "no-syn-report", TT_SEV_ERROR,
		"a frame does not end with SYN_REPORT" },
	[TT_CHECK_SLOT_RANGE] = { "slot-out-of-range", TT_SEV_ERROR,
		"ABS_MT_SLOT selects a slot the device does not have" },
	[TT_CHECK_TRACKING_ID_REUSED] = { "tracking-id-reused", TT_SEV_ERROR,
		"one tracking ID is active in two slots at once" },
	[TT_CHECK_TRACKING_ID_REPLACED] = { "tracking-id-replaced", TT_SEV_WARNING,
		"a slot got a new tracking ID without releasing the old one" },
	[TT_CHECK_VALUE_RANGE] = { "value-out-of-range", TT_SEV_WARNING,
		"a value outside the axis' absinfo range (real devices do it; the kernel does not clamp)" },
	[TT_CHECK_UNSUPPORTED_CODE] = { "unsupported-code", TT_SEV_ERROR,
		"an event code the device does not declare" },
	[TT_CHECK_XI_UPDATE_BEFORE_BEGIN] = { "xi-update-before-begin", TT_SEV_ERROR,
		"an XI touch update for a touch that never began" },
	[TT_CHECK_XI_BEGIN_TWICE] = { "xi-begin-twice", TT_SEV_ERROR,
		"an XI touch begins again while it is active" },
	[TT_CHECK_XI_END_TWICE] = { "xi-end-without-begin", TT_SEV_ERROR,
		"an XI touch ends without being active" },
	[TT_CHECK_NO_DEVICES] = { "no-devices", TT_SEV_WARNING,
		"the recording declares no devices" },
	[TT_CHECK_DUPLICATE_DEVICE] = { "duplicate-device", TT_SEV_ERROR,
		"a device record id is declared twice" },
	[TT_CHECK_SYN_DROPPED] = { "syn-dropped", TT_SEV_WARNING,
		"the kernel dropped events (SYN_DROPPED); the slots are known again after the resync" },
	[TT_CHECK_HID_UNKNOWN_DEVICE] = { "hid-unknown-device", TT_SEV_ERROR,
		"a HID report names a HID device the recording does not declare" },
	[TT_CHECK_HID_BAD_DESCRIPTOR] = { "hid-bad-descriptor", TT_SEV_ERROR,
		"a HID device's report descriptor does not parse; its reports cannot be decoded" },
	[TT_CHECK_HID_UNKNOWN_EVDEV] = { "hid-unknown-evdev", TT_SEV_ERROR,
		"a HID device lists an evdev device the recording does not declare" },
	[TT_CHECK_LI_TOUCH_SEQUENCE] = { "li-touch-sequence", TT_SEV_ERROR,
		"a libinput touch moves or ends without its TOUCH_DOWN, or goes down while down" },
	[TT_CHECK_LI_GESTURE_SEQUENCE] = { "li-gesture-sequence", TT_SEV_ERROR,
		"a libinput gesture updates or ends without its BEGIN, or begins while one is active" },
	[TT_CHECK_WL_FRAME_MISSING] = { "wl-frame-missing", TT_SEV_ERROR,
		"wl_touch events not closed by a frame before the next group of events (or the end)" },
	[TT_CHECK_WL_TOUCH_NOT_DOWN] = { "wl-touch-not-down", TT_SEV_ERROR,
		"a wl_touch motion, up, shape or orientation for an id that is not down" },
	[TT_CHECK_WL_EVENT_AFTER_UP] = { "wl-event-after-up", TT_SEV_ERROR,
		"a wl_touch event for an id after its up, before a new down" },
	[TT_CHECK_WL_EVENT_AFTER_CANCEL] = { "wl-event-after-cancel", TT_SEV_ERROR,
		"a wl_touch event for an id a cancel ended (a cancel ends every active touch)" },
	[TT_CHECK_WL_TOUCH_ID_REUSED] = { "wl-touch-id-reused", TT_SEV_ERROR,
		"a wl_touch down for an id that is already down (ids are unique among active touches)" },
	[TT_CHECK_JUMP] = { "jump", TT_SEV_ERROR,
		"a touch moved further in one frame than the jump threshold, or than its own motion allows, or out and back" },
	[TT_CHECK_STALL] = { "stall", TT_SEV_WARNING,
		"a moving touch sent no frame for far longer than the device's frame interval, and was elsewhere after" },
	[TT_CHECK_CONTACT_FLICKER] = { "contact-count-flicker", TT_SEV_ERROR,
		"a Type A contact count went n -> m -> n in consecutive frames" },
	[TT_CHECK_BUTTON_MISMATCH] = { "button-state-mismatch", TT_SEV_WARNING,
		"BTN_TOUCH or BTN_TOOL_* disagree with the number of touches down" },
	[TT_CHECK_TOUCH_ACTIVE_AT_END] = { "touch-active-at-end", TT_SEV_WARNING,
		"a kernel touch is still down when the recording ends" },
	[TT_CHECK_NOT_DELIVERED] = { "not-delivered", TT_SEV_ERROR,
		"the X server delivered no XI touch for a kernel touch of a device it has" },
	[TT_CHECK_XI_NEVER_ENDED] = { "xi-touch-never-ended", TT_SEV_WARNING,
		"an XI touch sequence has no TouchEnd when the recording ends" },
	[TT_CHECK_OWNERSHIP_UNRESOLVED] = { "ownership-unresolved", TT_SEV_WARNING,
		"an XI touch was in an ownership contest that had not ended when the recording ended" },
	[TT_CHECK_XI_OWNERSHIP_ORDER] = { "ownership-order", TT_SEV_ERROR,
		"a client owned an XI touch before the previous owner rejected it, or after one accepted it" },
	[TT_CHECK_HID_CONTACT_COUNT] = { "hid-contact-count", TT_SEV_ERROR,
		"a HID report's Contact Count disagrees with the contacts the frame holds" },
	/* hid-multitouch lifts such a contact itself: a Win8 device's contact
	 * missing from a frame is up (MT_QUIRK_NOT_SEEN_MEANS_UP), and
	 * MT_QUIRK_STICKY_FINGERS releases what stays down 100 ms without a
	 * report (mt_release_contacts). Worth knowing, not a broken file. */
	[TT_CHECK_HID_CONTACT_VANISHED] = { "hid-contact-vanished", TT_SEV_WARNING,
		"a HID contact stopped being reported without a report of its tip up (the kernel lifts it)" },
	[TT_CHECK_HID_UNDECLARED_REPORT] = { "hid-undeclared-report", TT_SEV_ERROR,
		"a HID report whose report ID the descriptor does not declare (the kernel drops it)" },
	[TT_CHECK_HID_SHORT_REPORT] = { "hid-short-report", TT_SEV_WARNING,
		"a HID report shorter than its declared size (the kernel pads it with zeros)" },
	[TT_CHECK_BAD_LINE] = { "bad-line", TT_SEV_ERROR,
		"a line the reader cannot read; it is skipped" },
	[TT_CHECK_READER_WARNING] = { "reader-warning", TT_SEV_WARNING,
		"the reader read the file with a caveat (a line cut short, an inferred device...)" },
};

const char *
tt_check_name(enum tt_check check)
{
	return (unsigned)check < TT_CHECK_COUNT ? catalog[check].name : "unknown";
}

enum tt_severity
tt_check_severity(enum tt_check check)
{
	return (unsigned)check < TT_CHECK_COUNT ? catalog[check].severity : TT_SEV_ERROR;
}

const char *
tt_check_explain(enum tt_check check)
{
	return (unsigned)check < TT_CHECK_COUNT ? catalog[check].explain : "";
}

int
tt_check_from_name(const char *name, enum tt_check *out)
{
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (strcmp(catalog[c].name, name) == 0) {
			*out = (enum tt_check)c;
			return 0;
		}
	}
	return -EINVAL;
}

const char *
tt_severity_name(enum tt_severity sev)
{
	return sev == TT_SEV_ERROR ? "error" : "warning";
}

void
tt_diag_init(struct tt_diag *d, enum tt_check check, size_t line, int64_t time_us, int64_t device)
{
	memset(d, 0, sizeof(*d));
	d->check = check;
	d->severity = tt_check_severity(check);
	d->line = line;
	d->time_us = time_us;
	d->device = device;
	d->slot = -1;
	d->tracking_id = -1;
	d->touchid = -1;
}

void
tt_diag_from_reader(struct tt_diag *d, enum tt_check check, const char *name, const char *message)
{
	size_t n = strlen(name);
	const char *p = message;
	size_t line = 0;

	/* The reader names the file and line itself: take them apart so
	 * the printer names them once. */
	if (strncmp(p, name, n) == 0 && p[n] == ':') {
		char *end;
		p += n + 1;
		line = strtoul(p, &end, 10);
		p = (*end == ':') ? end + 1 : p;
		while (*p == ' ')
			p++;
	}
	if (strncmp(p, "warning: ", 9) == 0)
		p += 9;
	else if (strncmp(p, "error: ", 7) == 0)
		p += 7;
	tt_diag_init(d, check, line, 0, -1);
	snprintf(d->message, sizeof(d->message), "%s", p);
}

int
tt_diag_filter_ignore(struct tt_diag_filter *f, const char *name)
{
	enum tt_check c;
	int rc = tt_check_from_name(name, &c);

	if (rc < 0)
		return rc;
	f->ignore[c] = true;
	return 0;
}

bool
tt_diag_filter_accept(struct tt_diag_filter *f, const struct tt_diag *d)
{
	if ((unsigned)d->check >= TT_CHECK_COUNT || f->ignore[d->check])
		return false;
	f->count[d->check]++;
	return f->max_per_kind == 0 || f->count[d->check] <= f->max_per_kind;
}

size_t
tt_diag_filter_total(const struct tt_diag_filter *f, enum tt_severity sev)
{
	size_t n = 0;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (tt_check_severity(c) == sev)
			n += f->count[c];
	}
	return n;
}

int
tt_diag_filter_status(const struct tt_diag_filter *f)
{
	if (tt_diag_filter_total(f, TT_SEV_ERROR))
		return 1;
	return f->strict && tt_diag_filter_total(f, TT_SEV_WARNING) ? 1 : 0;
}

void
tt_diag_filter_print_more(const struct tt_diag_filter *f, FILE *out, const char *prefix)
{
	if (!f->max_per_kind)
		return;
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (f->count[c] > f->max_per_kind)
			fprintf(out, "%s... and %zu more %s; --max 0 shows all\n", prefix,
				f->count[c] - f->max_per_kind, tt_check_name(c));
	}
}

void
tt_diag_format(const struct tt_diag *d, const char *cmd, const char *file, char *buf, size_t size)
{
	char where[32] = "";
	char dev[32] = "";

	if (d->line)
		snprintf(where, sizeof(where), "%zu:", d->line);
	/* Messages about an evdev device name it here, once. */
	if (d->device >= 0 && d->touchid < 0)
		snprintf(dev, sizeof(dev), "device %" PRId64 ": ", d->device);
	snprintf(buf, size, "touchtape %s: %s:%s %s: %s%s [%s]", cmd, file, where,
		 tt_severity_name(d->severity), dev, d->message, tt_check_name(d->check));
}
