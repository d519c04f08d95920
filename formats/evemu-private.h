/* SPDX-License-Identifier: MIT */
/*
 * What the evemu reader's files share (evemu-reader.c has the format):
 * its state, the description lines (evemu-desc.c), and the reading of
 * lines and of an events-only file's device (evemu-lines.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader-private.h"

/* Timestamps from 2001 on are wall-clock (epoch) times; smaller ones are
 * relative (evemu-record) or uptime-style (CLOCK_MONOTONIC). */
#define EPOCH_THRESHOLD_US (INT64_C(1000000000) * 1000000)

/* A description being assembled from N:/I:/P:/B:/A:/L:/S: lines. */
struct desc {
	struct tt_device *dev;
	bool have_name;
	bool have_id;
	size_t nlines;
	size_t pbytes;			/* P: bytes so far */
	size_t mbytes[EV_CNT];		/* B: bytes so far per type */
	size_t slot_line;		/* where ABS_MT_SLOT's A: line was */
	/* "Value" from the evtest-style comments (1.2+): absinfo values. */
	int32_t comment_value[ABS_CNT];
	uint8_t have_comment_value[TT_BITMAP_BYTES(ABS_CNT)];
	unsigned int comment_type;
	int comment_code;
};

enum evemu_state {
	ST_DESC,		/* reading the description */
	ST_HEADER,		/* header record next */
	ST_DEVICE,		/* device record next */
	ST_MARKERS,		/* note markers next */
	ST_EVENTS,
};

struct evemu_priv {
	enum evemu_state state;
	struct desc desc;		/* uncommented description lines */
	struct desc commented;		/* "# N: ..." umockdev-style */
	bool desc_from_companion;
	bool companion_done;
	bool content_seen;		/* some evemu line was seen */
	size_t preamble;		/* non-evemu lines before any evemu line */
	int major, minor;
	char *kernel;
	char *dmi;

	/* Events. */
	bool have_t0;
	int64_t t0;
	bool pending;			/* an E: line read while in ST_DESC */
	struct tt_event pending_ev;
	int64_t pending_time;
	size_t pending_line;
	int64_t *ev_times;		/* absolute time of each event in r->frame */
	uint32_t ev_times_cap;
	uint32_t nevents;
	size_t frame_line;
	bool overflow;

	/* Inferring a device from an events-only file (first pass). */
	bool inferring;
};

/* "X:" followed by a blank or the end: an evemu line of kind X. */
char evemu_line_kind(const char *s);
int evemu_parse_event_line(struct tt_reader *r, const char *s, size_t line,
		 int64_t *time, struct tt_event *ev);
const char *evemu_skip_ws(const char *s);
/* Hex of at most @maxdigits digits. Returns the end, or NULL. */
const char *evemu_parse_hex(const char *s, unsigned int maxdigits, uint32_t *out);
/* Signed decimal with optional leading zeros ("-001"), within int32. */
const char *evemu_parse_dec(const char *s, int32_t *out);
/* The rest of a line may hold blanks and a comment, nothing else. */
bool evemu_at_end(const char *s);
void evemu_desc_init(struct desc *d);
void evemu_desc_release(struct desc *d);
/* Parses one description line of @kind; @s is the text after "X:". */
int evemu_desc_line(struct tt_reader *r, struct desc *d, char kind, const char *s,
	  const char *name, size_t line);
/* The evtest-style comment block evemu 1.2+ writes has each axis's
 * current value; it is the only place the format keeps it. */
void evemu_desc_comment(struct desc *d, const char *s);
/* Turns the assembled description into a device: MT protocol, slots,
 * absinfo values. */
int evemu_desc_finish(struct tt_reader *r, struct desc *d);
/* Next line with the CR of a CRLF removed: 1, 0 at EOF, <0 on error. */
int evemu_next_line(struct tt_reader *r, struct linebuf *lb, const char *name, char **out, size_t *lineno);
void evemu_parse_comment(struct evemu_priv *p, struct tt_reader *r, const char *s, size_t line);
/* Reads the --desc file's description into p->desc. */
int evemu_read_companion(struct tt_reader *r);
/* First pass over an events-only file: which codes and ranges the events
 * use, and the device property they point to (@what: what was inferred,
 * for the reader's warning). Then rewinds so the second pass reads the
 * events. 0 or a negative errno (said as the reader's error). */
int evemu_infer_pass(struct tt_reader *r, char *what, size_t size);
