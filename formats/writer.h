/* SPDX-License-Identifier: MIT */
/*
 * Timeline writer: one JSON object per line, each record written to the
 * file descriptor with complete write(2)s as soon as it is produced, so a
 * recording killed at any instant is valid up to its last whole line. It
 * never produces a line the reader rejects: strings are sanitized and cut
 * to TT_MAX_STRING_BYTES, numbers range-checked.
 *
 * Every function returns 0 or a negative errno; after a write error (for
 * example -ENOSPC) the writer refuses further records with the same error,
 * and the file holds only whole lines plus at most one partial line.
 */
#pragma once

#include "timeline.h"
#include "util-mem.h"

struct tt_writer;

/* Does not take ownership of @fd. */
int tt_writer_new(int fd, struct tt_writer **out);
void tt_writer_free(struct tt_writer *w);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_writer *, tt_writer_free);

int tt_writer_header(struct tt_writer *w, const struct tt_header *h);
int tt_writer_device(struct tt_writer *w, const struct tt_device *dev);
int tt_writer_frame(struct tt_writer *w, const struct tt_frame *frame);
int tt_writer_xi_device(struct tt_writer *w, const struct tt_xi_device *dev);
int tt_writer_xi_event(struct tt_writer *w, const struct tt_xi_event *ev);
int tt_writer_marker(struct tt_writer *w, const struct tt_marker *m);
int tt_writer_hid_device(struct tt_writer *w, const struct tt_hid_device *dev);
int tt_writer_hid_report(struct tt_writer *w, const struct tt_hid_report *rep);
int tt_writer_li_device(struct tt_writer *w, const struct tt_li_device *dev);
int tt_writer_li_event(struct tt_writer *w, const struct tt_li_event *ev);
/* wayland/timeline-wl.c */
int tt_writer_wl_event(struct tt_writer *w, const struct tt_wl_event *ev);
/* Writes any record the reader produced (for copy and convert) through
 * its kind (lib/model/record-layer.h); -EINVAL for a type no layer has. */
int tt_writer_record(struct tt_writer *w, const struct tt_record *rec);

/* Fills @h with this host's kernel, the tool name and the start instants
 * taken now; the caller owns the strings (tt_header_clear()). */
void tt_header_init_now(struct tt_header *h);
