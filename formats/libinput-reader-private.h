/* SPDX-License-Identifier: MIT */
/*
 * What the libinput-record reader's files share (libinput-reader.c has the
 * format): its state, the libyaml helpers (libinput-yaml.c), the device
 * description (libinput-device.c), the records it emits
 * (libinput-reader.c) and the parser states that drive it
 * (libinput-states.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "reader-private.h"
#include "util-mem.h"

#define MAX_NOTES 8

enum li_state {
	LI_START,
	LI_TOP,			/* top-level keys */
	LI_DEVICES,		/* in the devices sequence */
	LI_DEVICE,		/* in one device's mapping */
	LI_EVENTS,		/* in a device's events sequence */
	LI_ITEM,		/* in one "- evdev:"/"- libinput:" mapping */
	LI_EVDEV,		/* in an evdev event list */
	LI_LIBINPUT,		/* in a libinput event list */
	LI_END,
};

struct note {
	char *text;
	size_t line;
	int64_t device;
};

struct li_priv {
	yaml_parser_t parser;
	bool parser_ok;
	enum li_state state;
	bool header_sent;
	bool version_seen;

	/* Device being read. */
	struct tt_device *dev;
	uint32_t next_id;
	bool dev_sent;
	size_t dev_line;
	uint32_t cur_dev;
	bool warned_order;

	struct note notes[MAX_NOTES];
	size_t nnotes;

	/* Frame being built. */
	uint32_t nevents;
	size_t frame_line;
	int64_t frame_time;
	int64_t last_time;

	/* Bytes since the last newline, to bound a line. */
	size_t run;
	bool too_long;
	size_t lines_read;	/* lines begun so far */
	/* Bytes read since the parser last produced an event: libyaml keeps
	 * a scalar whole however many lines it spans. */
	size_t since_event;
	size_t event_line;
	bool too_big;
	/* Collections open: libyaml's scanner costs O(depth) per token. */
	unsigned int depth;
};

/* libinput record nests 8 levels (devices, events, evdev, one event);
 * anything far deeper is not a recording. */
#define MAX_DEPTH 64

/* Every libyaml event is freed by the scope that read it. A zeroed event
 * (one libyaml never filled) frees as nothing. */
static inline void
yaml_event_deletep(yaml_event_t *ev)
{
	yaml_event_delete(ev);
}
#define _cleanup_yaml_event_ _cleanup_(yaml_event_deletep)

/* One function per state of li_next() (libinput-states.c). */
typedef int (*state_fn)(struct tt_reader *r, const yaml_event_t *ev, struct tt_record *rec);
extern const state_fn li_states[LI_END];

/* libyaml's input: the reader's lines, bounded (libinput-yaml.c). */
int li_read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read);
int li_emit_header(struct tt_reader *r, struct tt_record *rec);
int li_emit_device(struct tt_reader *r, struct tt_record *rec);
int li_emit_frame(struct tt_reader *r, struct tt_record *rec, uint32_t flags);
/* One [sec, usec, type, code, value]; 1 when it ends a frame. */
int li_evdev_event(struct tt_reader *r, const yaml_event_t *start);
size_t li_ev_line(const yaml_event_t *ev);
/* The next parser event; on a YAML error the file cannot go on. The
 * caller frees @ev (_cleanup_yaml_event_), whatever this returns. */
int li_next_event(struct tt_reader *r, yaml_event_t *ev);
/* Skips the rest of a node whose start event was @ev. */
int li_skip_node(struct tt_reader *r, const yaml_event_t *start);
const char *li_scalar(const yaml_event_t *ev);
bool li_key_is(const yaml_event_t *ev, const char *key);
/* Reads a scalar value; fails on anything else (which is skipped). */
int li_read_scalar(struct tt_reader *r, const char *what, char **out, size_t *line);
int li_parse_int(struct tt_reader *r, const char *s, size_t line, const char *what,
		 int64_t min, int64_t max, int64_t *out);
/* Reads a flow or block sequence of integers into @vals (at most @max;
 * more is an error). Returns the count, or <0. */
int li_read_int_seq(struct tt_reader *r, const yaml_event_t *start, const char *what,
		    int64_t min, int64_t maxv, int64_t *vals, size_t max);
/* Calls @fn for each key/value pair of the mapping being read, up to its
 * end. @fn returns 0 or <0; the first failure is returned after the whole
 * mapping was read, so one bad entry costs only itself. */
typedef int (*pair_fn)(struct tt_reader *r, struct tt_device *dev,
		       const yaml_event_t *key, const yaml_event_t *val);
int li_each_pair(struct tt_reader *r, struct tt_device *dev, pair_fn fn);
int li_parse_evdev(struct tt_reader *r, struct tt_device *dev, const yaml_event_t *start);
/* Renders a node as compact flow text for a note (bounded), appended to
 * @buf: the YAML flow syntax, so a person reads it as the file had it. */
int li_node_text(struct tt_reader *r, const yaml_event_t *start, char *buf, size_t size);
void li_add_note(struct tt_reader *r, int64_t device, size_t line, const char *text);
