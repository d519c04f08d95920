/* SPDX-License-Identifier: MIT */
/*
 * What the format readers in formats/ share: the line buffer, message
 * reporting and the device tables. Each format implements `next`, which
 * fills a record from one or more lines.
 */
#pragma once

#include <stdarg.h>

#include "linebuf.h"
#include "reader.h"

struct tt_reader;

struct tt_reader_ops {
	/* Same contract as tt_reader_next(). */
	int (*next)(struct tt_reader *r, struct tt_record *rec);
	void (*destroy)(struct tt_reader *r);
};

struct tt_reader {
	char *name;
	enum tt_file_format format;
	const struct tt_reader_ops *ops;
	void *priv;		/* the format's own state */
	struct linebuf lb;
	char *companion;	/* evemu description file */

	char error[1024];
	size_t nerrors;
	size_t nwarnings;
	tt_reader_warn_fn warn;
	void *warn_data;
	bool done;

	struct tt_header header;
	bool have_header;

	struct tt_device *devices[TT_MAX_DEVICES];
	size_t ndevices;
	struct tt_device *retired[TT_MAX_DEVICES];	/* replaced by a later record */
	size_t nretired;
	struct tt_xi_device *xi_devices[TT_MAX_DEVICES];
	size_t nxi_devices;
	struct tt_hid_device *hid_devices[TT_MAX_DEVICES];
	size_t nhid_devices;
	struct tt_hid_device *hid_retired[TT_MAX_DEVICES];	/* replaced by a later record */
	size_t nhid_retired;
	struct tt_li_device *li_devices[TT_MAX_DEVICES];
	size_t nli_devices;

	/* Storage for the record handed out last. */
	struct tt_frame frame;
	uint32_t frame_cap;
	struct tt_xi_event xi;
	struct tt_marker marker;
	struct tt_hid_report hid_report;
	struct tt_li_event li;
	struct tt_wl_event wl;
};

/* Formats "NAME:LINE: message" into r->error; returns -EINVAL. */
int reader_fail(struct tt_reader *r, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for a line of another file (an evemu description). */
int reader_fail_in(struct tt_reader *r, const char *name, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void reader_warn(struct tt_reader *r, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds or replaces a device; the reader takes ownership. A replaced
 * device stays allocated until the reader is freed, so pointers handed
 * out in earlier records stay valid. Returns 0, -ENOSPC when the file
 * declares more than TT_MAX_DEVICES, or -EEXIST when devices were
 * replaced TT_MAX_DEVICES times already. */
int reader_add_device(struct tt_reader *r, struct tt_device *dev);
int reader_add_xi_device(struct tt_reader *r, struct tt_xi_device *dev);
/* Adds or replaces (same evdev device) libinput's view of a device. */
int reader_add_li_device(struct tt_reader *r, struct tt_li_device *dev);
struct tt_device *reader_find_device(struct tt_reader *r, uint32_t id);
/* The same for HID devices: their own id space, the same bounds. */
int reader_add_hid_device(struct tt_reader *r, struct tt_hid_device *dev);
struct tt_hid_device *reader_find_hid_device(struct tt_reader *r, uint32_t id);
/* Makes room for @n events in r->frame. */
void reader_frame_reserve(struct tt_reader *r, uint32_t n);

/* Format back ends. @head holds the first bytes of the file, already
 * read; each returns 0 when it took the reader, -EPROTO when the file is
 * not its format. */
int timeline_reader_init(struct tt_reader *r);
int evemu_reader_init(struct tt_reader *r);
int libinput_reader_init(struct tt_reader *r);
int hidrec_reader_init(struct tt_reader *r);

/* Content sniffing: which format the first bytes look like, and a reason
 * string for look-alikes that no reader accepts. */
enum tt_file_format tt_detect_format(const char *head, size_t len, const char **why);
