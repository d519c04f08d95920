/* SPDX-License-Identifier: MIT */
/*
 * Streaming reader of recordings: a touchtape timeline, and (through the
 * same interface) the foreign formats formats/ can import. Records come
 * out one at a time as plain C structs (lib/model/timeline.h); memory stays
 * bounded whatever the file's length.
 *
 *	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
 *	struct tt_record rec;
 *	int rc = tt_reader_open(path, &r);
 *	if (rc < 0)
 *		... tt_error("%s: %s", path, strerror(-rc));
 *	while ((rc = tt_reader_next(r, &rec)) != 0) {
 *		if (rc < 0) {
 *			tt_error("%s", tt_reader_error(r));  // "FILE:LINE: what"
 *			continue;  // or stop; the reader resumes at the next line
 *		}
 *		... rec.type, rec.frame->events ...
 *	}
 *
 * Only formats/ includes json-c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "timeline.h"
#include "util-mem.h"

struct tt_reader;

enum tt_file_format {
	TT_FORMAT_UNKNOWN = 0,
	TT_FORMAT_TIMELINE,
	TT_FORMAT_EVEMU,
	TT_FORMAT_LIBINPUT,
	TT_FORMAT_HID_RECORDER,
};

typedef void (*tt_reader_warn_fn)(void *userdata, const char *message);

/* Opens @path ("-" for stdin), detecting the format by content.
 * Returns 0 or a negative errno (-ENOENT, -EACCES, ...; -EPROTO for a
 * file in no format touchtape reads). *out is untouched on failure. */
int tt_reader_open(const char *path, struct tt_reader **out);
/* The same, and on failure, when @why is not NULL, *why is a message for
 * people ("PATH: reason") that the caller frees. */
int tt_reader_open_why(const char *path, struct tt_reader **out, char **why);
/* Takes ownership of @fd (closed on failure too). @name is used in
 * messages. */
int tt_reader_open_fd(int fd, const char *name, struct tt_reader **out, char **why);

/* Sets the description file for evemu events-only recordings. */
int tt_reader_set_companion(struct tt_reader *r, const char *desc_path);

/* 1: *rec holds the next record. 0: end of file. <0: the current line is
 * bad (tt_reader_error() says why as "FILE:LINE: message"); the next call
 * continues with the following line. -EIO for a read error ends it. */
int tt_reader_next(struct tt_reader *r, struct tt_record *rec);

const char *tt_reader_error(const struct tt_reader *r);
/* Warnings (a truncated last line, unknown record types) go to @fn;
 * default: stderr. */
void tt_reader_set_warn(struct tt_reader *r, tt_reader_warn_fn fn, void *userdata);
/* Counts of errors and warnings so far. */
size_t tt_reader_nerrors(const struct tt_reader *r);
size_t tt_reader_nwarnings(const struct tt_reader *r);

enum tt_file_format tt_reader_format(const struct tt_reader *r);
const char *tt_reader_name(const struct tt_reader *r);
size_t tt_reader_line(const struct tt_reader *r);

/* The header (NULL before it was read), and the devices read so far. */
const struct tt_header *tt_reader_header(const struct tt_reader *r);
const struct tt_device *tt_reader_device(const struct tt_reader *r, uint32_t id);
size_t tt_reader_ndevices(const struct tt_reader *r);
const struct tt_device *tt_reader_device_at(const struct tt_reader *r, size_t index);
const struct tt_xi_device *tt_reader_xi_device(const struct tt_reader *r, uint32_t id);
/* HID devices read so far (they live as long as the reader). */
const struct tt_hid_device *tt_reader_hid_device(const struct tt_reader *r, uint32_t id);
/* libinput's view of the evdev device @evdev_id, the latest li_device
 * record read so far for it (valid until the next record replaces it). */
const struct tt_li_device *tt_reader_li_device(const struct tt_reader *r, uint32_t evdev_id);

void tt_reader_free(struct tt_reader *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_reader *, tt_reader_free);

/* A one-line reason why @path is in no supported format (for messages). */
const char *tt_file_format_name(enum tt_file_format f);
