/* SPDX-License-Identifier: MIT */
/*
 * The semantic checker's parts per record kind, which the record kinds
 * point at (lib/model/record-layer.h): each checks @rec against what the
 * records before it said, and reports through the checker's callback.
 * The evdev part and the checker itself are in lib/analysis/checker.c,
 * each layer's part in its folder (xi/checker-xi.c, hid/checker-hid.c,
 * libinput/checker-li.c), all on the state below. Library parts only.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "checker.h"
#include "util-mem.h"

struct dev_state {
	bool used;
	uint32_t id;
	bool declared;
	int64_t last_time;
	bool have_time;
	int32_t slot;
	uint32_t num_slots;
	int32_t *tracking;	/* per slot, -1 when empty */
	bool *unknown;		/* per slot: not set since a SYN_DROPPED */
	bool slot_unknown;	/* the current slot, since a SYN_DROPPED */
	const struct tt_device *dev;
};

struct xi_touch {
	int32_t deviceid;
	uint32_t detail;
	char client[16];
	bool active;
	bool early;	/* began before the recording */
	bool ended;	/* ... and ended */
};

/* The first touch id that began in the recording, per device and client:
 * the server hands out touch ids in increasing order, so an unknown touch
 * with a lower id (or before any begin) was down when recording began. */
struct xi_first_begin {
	int32_t deviceid;
	char client[16];
	uint32_t detail;
};

/* A HID device: its reports' times, and the evdev devices it lists,
 * checked against the evdev devices declared by the end. */
struct hid_state {
	uint32_t id;
	size_t line;
	int64_t last_time;
	bool have_time;
	uint32_t nevdev;
	uint32_t *evdev;
};

/* Touches that began before the recording and ended are kept, so that a
 * later event of theirs is still an error; beyond this many, hostile
 * input could grow the table without bound, so they are forgotten. */
#define TT_MAX_ENDED_EARLY 1024

struct tt_checker {
	tt_diag_fn fn;
	void *userdata;
	tt_checker_hid_parse_fn hid_parse;
	void *hid_parse_data;
	size_t counts[2];
	struct dev_state devs[TT_MAX_DEVICES];
	size_t ndevs;
	int64_t last_xi_time;
	bool have_xi_time;
	struct xi_touch *touches;
	size_t ntouches;
	size_t cap_touches;
	size_t nended_early;
	struct xi_first_begin *first;
	size_t nfirst, cap_first;
	bool saw_frames;
	bool saw_xi;
	struct hid_state hids[TT_MAX_DEVICES];
	size_t nhids;
	/* The libinput layer: touches down and gestures active. */
	struct li_open { uint32_t device; int32_t id; } *li_open;
	size_t nli_open, cap_li_open;
};

/* Reports a problem of the catalog (diag.h) through the checker's
 * callback and counts it. */
void checker_report(struct tt_checker *c, enum tt_check check, size_t line, int64_t t, int64_t dev,
		    const char *fmt, ...) _printf_(6, 7);
/* The evdev device @id as declared so far, or NULL. */
struct dev_state *checker_find_dev(struct tt_checker *c, uint32_t id);
/* End of input for the HID part (hid/checker-hid.c): the evdev devices
 * each HID device lists must have been declared by then. */
void checker_hid_finish(struct tt_checker *c);

void checker_device(struct tt_checker *c, const struct tt_record *rec);
void checker_frame(struct tt_checker *c, const struct tt_record *rec);
void checker_xi_device(struct tt_checker *c, const struct tt_record *rec);
void checker_xi_event(struct tt_checker *c, const struct tt_record *rec);
void checker_hid_device(struct tt_checker *c, const struct tt_record *rec);
void checker_hid_report(struct tt_checker *c, const struct tt_record *rec);
void checker_li_event(struct tt_checker *c, const struct tt_record *rec);
