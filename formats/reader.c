/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "reader-private.h"
#include "util-mem.h"

#define DETECT_BYTES 4096

static int
vfail(struct tt_reader *r, const char *name, size_t line, const char *fmt, va_list ap)
{
	int n = snprintf(r->error, sizeof(r->error), "%s:%zu: ", name, line);

	if (n < 0 || (size_t)n >= sizeof(r->error))
		n = 0;
	vsnprintf(r->error + n, sizeof(r->error) - (size_t)n, fmt, ap);
	r->nerrors++;
	return -EINVAL;
}

int
reader_fail(struct tt_reader *r, size_t line, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(r, r->name, line, fmt, ap);
	va_end(ap);
	return rc;
}

int
reader_fail_in(struct tt_reader *r, const char *name, size_t line, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(r, name, line, fmt, ap);
	va_end(ap);
	return rc;
}

void
reader_warn(struct tt_reader *r, size_t line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	n = snprintf(msg, sizeof(msg), "%s:%zu: warning: ", r->name, line);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	r->nwarnings++;
	if (r->warn)
		r->warn(r->warn_data, msg);
	else
		tt_error("%s", msg);	/* "touchtape CMD: FILE:LINE: warning: ..." */
}

struct tt_device *
reader_find_device(struct tt_reader *r, uint32_t id)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		if (r->devices[i]->id == id)
			return r->devices[i];
	}
	return NULL;
}

int
reader_add_device(struct tt_reader *r, struct tt_device *dev)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		if (r->devices[i]->id == dev->id) {
			/* Whoever read the earlier record may still use it
			 * (a model ends that device's touches with it): keep
			 * it as long as the reader, a bounded number of times. */
			if (r->nretired >= TT_MAX_DEVICES)
				return -EEXIST;
			r->retired[r->nretired++] = r->devices[i];
			r->devices[i] = dev;
			return 0;
		}
	}
	if (r->ndevices >= TT_MAX_DEVICES)
		return -ENOSPC;
	r->devices[r->ndevices++] = dev;
	return 0;
}

int
reader_add_xi_device(struct tt_reader *r, struct tt_xi_device *dev)
{
	for (size_t i = 0; i < r->nxi_devices; i++) {
		if (r->xi_devices[i]->id == dev->id) {
			tt_xi_device_free(r->xi_devices[i]);
			r->xi_devices[i] = dev;
			return 0;
		}
	}
	if (r->nxi_devices >= TT_MAX_DEVICES)
		return -ENOSPC;
	r->xi_devices[r->nxi_devices++] = dev;
	return 0;
}

struct tt_hid_device *
reader_find_hid_device(struct tt_reader *r, uint32_t id)
{
	for (size_t i = 0; i < r->nhid_devices; i++) {
		if (r->hid_devices[i]->id == id)
			return r->hid_devices[i];
	}
	return NULL;
}

/* Like reader_add_device(): a replaced HID device stays allocated, as
 * whoever read its record (a decoder built on its descriptor) may still
 * use it. */
int
reader_add_hid_device(struct tt_reader *r, struct tt_hid_device *dev)
{
	for (size_t i = 0; i < r->nhid_devices; i++) {
		if (r->hid_devices[i]->id == dev->id) {
			if (r->nhid_retired >= TT_MAX_DEVICES)
				return -EEXIST;
			r->hid_retired[r->nhid_retired++] = r->hid_devices[i];
			r->hid_devices[i] = dev;
			return 0;
		}
	}
	if (r->nhid_devices >= TT_MAX_DEVICES)
		return -ENOSPC;
	r->hid_devices[r->nhid_devices++] = dev;
	return 0;
}

int
reader_add_li_device(struct tt_reader *r, struct tt_li_device *dev)
{
	for (size_t i = 0; i < r->nli_devices; i++) {
		if (r->li_devices[i]->device == dev->device) {
			tt_li_device_free(r->li_devices[i]);
			r->li_devices[i] = dev;
			return 0;
		}
	}
	if (r->nli_devices >= TT_MAX_DEVICES)
		return -ENOSPC;
	r->li_devices[r->nli_devices++] = dev;
	return 0;
}

void
reader_frame_reserve(struct tt_reader *r, uint32_t n)
{
	if (n <= r->frame_cap)
		return;
	uint32_t cap = r->frame_cap ? r->frame_cap : 64;
	while (cap < n)
		cap *= 2;
	r->frame.events = tt_reallocarray(r->frame.events, cap, sizeof(*r->frame.events));
	r->frame_cap = cap;
}

static bool
starts_with(const char *head, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(head, prefix, n) == 0;
}

static bool
contains(const char *head, size_t len, const char *needle)
{
	return memmem(head, len, needle, strlen(needle)) != NULL;
}

/* Whether the text starts with one of @starts or has a line starting
 * with one of @lines (each given with its "\n"); NULL ends each list. */
static bool
has_line_start(const char *head, size_t len, const char *const *starts, const char *const *lines)
{
	for (size_t i = 0; starts[i]; i++) {
		if (starts_with(head, len, starts[i]))
			return true;
	}
	for (size_t i = 0; lines[i]; i++) {
		if (contains(head, len, lines[i]))
			return true;
	}
	return false;
}

/* A line that starts, after mail's "> " quotes at any depth, with @tag. */
static bool
has_quoted_line(const char *head, size_t len, const char *tag)
{
	size_t n = strlen(tag);

	for (size_t i = 0; i < len; i++) {
		if (i > 0 && head[i - 1] != '\n')
			continue;
		while (i < len && (head[i] == '>' || head[i] == ' ' || head[i] == '\t'))
			i++;
		if (len - i >= n && memcmp(head + i, tag, n) == 0)
			return true;
	}
	return false;
}

/* hid-recorder: "R:" (report descriptor) lines, which evemu never writes,
 * quoted in mail or not, or the descriptor decoded in "# 0x05, 0x0d,
 * // Usage Page" comments that can fill the first kilobytes. */
static bool
is_hid_recorder(const char *head, size_t len)
{
	return has_quoted_line(head, len, "R: ") ||
	       (contains(head, len, "# 0x") && contains(head, len, "// Usage Page ("));
}

static bool
is_proc_devices(const char *head, size_t len)
{
	return contains(head, len, "I: Bus=") && contains(head, len, "\nN: Name=");
}

static bool
is_timeline(const char *head, size_t len)
{
	return len > 0 && head[0] == '{';
}

static bool
is_evemu(const char *head, size_t len)
{
	static const char *const starts[] = { "# EVEMU", "N: ", "I: ", "E: ", NULL };
	static const char *const lines[] = { "\n# EVEMU ", "\nN: ", "\nE: ", NULL };

	return has_line_start(head, len, starts, lines);
}

static bool
is_evtest(const char *head, size_t len)
{
	return starts_with(head, len, "Input driver version is") ||
	       contains(head, len, "\nInput driver version is") ||
	       contains(head, len, "Testing ... (interrupt to exit)");
}

/* Only comments so far: an evemu file with a long evtest-style header,
 * unless the comments lead into a libinput-record file. */
static bool
is_commented_evemu(const char *head, size_t len)
{
	return head[0] == '#' &&
	       (contains(head, len, "\nI: ") || contains(head, len, "Input device name:")) &&
	       !contains(head, len, "ndevices:") && !contains(head, len, "\nversion: ");
}

static bool
is_libinput_record(const char *head, size_t len)
{
	return contains(head, len, "ndevices:") || starts_with(head, len, "version: 1") ||
	       (starts_with(head, len, "#") && contains(head, len, "\nversion: ")) ||
	       starts_with(head, len, "---");
}

/* In this order: evemu before evtest, as evemu files may quote evtest
 * output in their comments or follow pasted terminal text. */
static const struct format_rule {
	bool (*matches)(const char *head, size_t len);
	enum tt_file_format format;
	const char *why;	/* for TT_FORMAT_UNKNOWN */
} format_rules[] = {
	{ is_hid_recorder, TT_FORMAT_HID_RECORDER, NULL },
	{ is_proc_devices, TT_FORMAT_UNKNOWN,
	  "this looks like /proc/bus/input/devices, a device list without events" },
	{ is_timeline, TT_FORMAT_TIMELINE, NULL },
	{ is_evemu, TT_FORMAT_EVEMU, NULL },
	{ is_evtest, TT_FORMAT_UNKNOWN,
	  "this looks like an evtest dump, which lacks the device description needed to replay it; record with touchtape record or evemu-record instead" },
	{ is_commented_evemu, TT_FORMAT_EVEMU, NULL },
	{ is_libinput_record, TT_FORMAT_LIBINPUT, NULL },
};

enum tt_file_format
tt_detect_format(const char *head, size_t len, const char **why)
{
	size_t i = 0;

	*why = NULL;
	/* A UTF-8 byte order mark is harmless; skip it. */
	if (starts_with(head, len, "\xef\xbb\xbf"))
		i = 3;
	while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	head += i;
	len -= i;

	if (len == 0) {
		*why = "the file is empty";
		return TT_FORMAT_UNKNOWN;
	}
	for (size_t r = 0; r < ARRAY_LENGTH(format_rules); r++) {
		if (format_rules[r].matches(head, len)) {
			*why = format_rules[r].why;
			return format_rules[r].format;
		}
	}
	*why = "not a touchtape timeline, evemu, libinput-record or hid-recorder file";
	return TT_FORMAT_UNKNOWN;
}

const char *
tt_file_format_name(enum tt_file_format f)
{
	switch (f) {
	case TT_FORMAT_TIMELINE: return "touchtape timeline";
	case TT_FORMAT_EVEMU: return "evemu";
	case TT_FORMAT_LIBINPUT: return "libinput-record";
	case TT_FORMAT_HID_RECORDER: return "hid-recorder";
	case TT_FORMAT_UNKNOWN: break;
	}
	return "unknown";
}

/* Why the first read failed: the gzip data's fault, or the system's. */
static char *
open_error(struct tt_reader *r, const char *name, int rc)
{
	char *why;
	int n;

	if (rc == -EBADMSG)
		n = asprintf(&why, "%s:1: %s", name, linebuf_error(&r->lb, rc));
	else
		n = asprintf(&why, "%s: %s", name, strerror(-rc));
	return n < 0 ? NULL : why;
}

int
tt_reader_open_fd(int fd, const char *name, struct tt_reader **out, char **why_out)
{
	struct tt_reader *r = tt_zalloc(sizeof(*r));
	const char *head;
	size_t len;
	const char *why;
	int rc;

	if (why_out)
		*why_out = NULL;
	r->name = tt_strdup(name);
	linebuf_init(&r->lb, fd, TT_MAX_LINE_BYTES);
	r->marker.device = -1;

	/* Enough to recognise the format, decompressed if it is gzip; it
	 * stays buffered for the format's reader. Detection looks at the
	 * same 4 KiB however much one read brought. */
	rc = linebuf_peek(&r->lb, DETECT_BYTES, &head, &len);
	if (rc < 0) {
		if (why_out)
			*why_out = open_error(r, name, rc);
		tt_reader_free(r);
		return rc;
	}
	r->format = tt_detect_format(head, len < DETECT_BYTES ? len : DETECT_BYTES, &why);
	switch (r->format) {
	case TT_FORMAT_TIMELINE:
		rc = timeline_reader_init(r);
		break;
	case TT_FORMAT_EVEMU:
		rc = evemu_reader_init(r);
		break;
	case TT_FORMAT_LIBINPUT:
		rc = libinput_reader_init(r);
		break;
	case TT_FORMAT_HID_RECORDER:
		rc = hidrec_reader_init(r);
		break;
	default:
		rc = -EPROTO;
		break;
	}
	if (rc < 0) {
		/* A back end may have said why itself. */
		if (why_out) {
			if (r->error[0])
				*why_out = tt_strdup(r->error);
			else if (asprintf(why_out, "%s: %s", name, why ? why : strerror(-rc)) < 0)
				*why_out = NULL;
		}
		tt_reader_free(r);
		return rc == -EPROTONOSUPPORT ? -EPROTO : rc;
	}
	*out = r;
	return 0;
}

/* The descriptor to read @path from ("-": a copy of stdin), or -errno. */
static int
open_input(const char *path)
{
	int fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int
tt_reader_open_why(const char *path, struct tt_reader **out, char **why)
{
	int fd;

	if (why)
		*why = NULL;
	fd = open_input(path);
	if (fd < 0) {
		if (why && asprintf(why, "%s: %s", path, strerror(-fd)) < 0)
			*why = NULL;
		return fd;
	}
	return tt_reader_open_fd(fd, strcmp(path, "-") == 0 ? "<stdin>" : path, out, why);
}

int
tt_reader_open(const char *path, struct tt_reader **out)
{
	return tt_reader_open_why(path, out, NULL);
}

int
tt_reader_set_companion(struct tt_reader *r, const char *desc_path)
{
	free(r->companion);
	r->companion = tt_strdup(desc_path);
	return 0;
}

int
tt_reader_next(struct tt_reader *r, struct tt_record *rec)
{
	if (r->done)
		return 0;
	return r->ops->next(r, rec);
}

const char *
tt_reader_error(const struct tt_reader *r)
{
	return r->error;
}

void
tt_reader_set_warn(struct tt_reader *r, tt_reader_warn_fn fn, void *userdata)
{
	r->warn = fn;
	r->warn_data = userdata;
}

size_t tt_reader_nerrors(const struct tt_reader *r) { return r->nerrors; }
size_t tt_reader_nwarnings(const struct tt_reader *r) { return r->nwarnings; }
enum tt_file_format tt_reader_format(const struct tt_reader *r) { return r->format; }
const char *tt_reader_name(const struct tt_reader *r) { return r->name; }
size_t tt_reader_line(const struct tt_reader *r) { return r->lb.lineno; }

const struct tt_header *
tt_reader_header(const struct tt_reader *r)
{
	return r->have_header ? &r->header : NULL;
}

const struct tt_device *
tt_reader_device(const struct tt_reader *r, uint32_t id)
{
	return reader_find_device((struct tt_reader *)r, id);
}

size_t
tt_reader_ndevices(const struct tt_reader *r)
{
	return r->ndevices;
}

const struct tt_device *
tt_reader_device_at(const struct tt_reader *r, size_t index)
{
	return index < r->ndevices ? r->devices[index] : NULL;
}

const struct tt_xi_device *
tt_reader_xi_device(const struct tt_reader *r, uint32_t id)
{
	for (size_t i = 0; i < r->nxi_devices; i++) {
		if (r->xi_devices[i]->id == id)
			return r->xi_devices[i];
	}
	return NULL;
}

const struct tt_hid_device *
tt_reader_hid_device(const struct tt_reader *r, uint32_t id)
{
	return reader_find_hid_device((struct tt_reader *)r, id);
}

const struct tt_li_device *
tt_reader_li_device(const struct tt_reader *r, uint32_t evdev_id)
{
	for (size_t i = 0; i < r->nli_devices; i++) {
		if (r->li_devices[i]->device == evdev_id)
			return r->li_devices[i];
	}
	return NULL;
}

void
tt_reader_free(struct tt_reader *r)
{
	if (!r)
		return;
	if (r->ops && r->ops->destroy)
		r->ops->destroy(r);
	if (r->lb.fd >= 0)
		close(r->lb.fd);
	linebuf_release(&r->lb);
	for (size_t i = 0; i < r->ndevices; i++)
		tt_device_free(r->devices[i]);
	for (size_t i = 0; i < r->nretired; i++)
		tt_device_free(r->retired[i]);
	for (size_t i = 0; i < r->nxi_devices; i++)
		tt_xi_device_free(r->xi_devices[i]);
	for (size_t i = 0; i < r->nhid_devices; i++)
		tt_hid_device_free(r->hid_devices[i]);
	for (size_t i = 0; i < r->nhid_retired; i++)
		tt_hid_device_free(r->hid_retired[i]);
	tt_hid_report_clear(&r->hid_report);
	for (size_t i = 0; i < r->nli_devices; i++)
		tt_li_device_free(r->li_devices[i]);
	tt_li_event_clear(&r->li);
	tt_wl_event_clear(&r->wl);
	tt_header_clear(&r->header);
	free(r->frame.events);
	tt_xi_event_clear(&r->xi);
	tt_marker_clear(&r->marker);
	free(r->companion);
	free(r->name);
	free(r);
}
