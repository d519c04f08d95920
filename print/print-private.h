/* SPDX-License-Identifier: MIT */
/*
 * What touchtape print shares with the print parts of the layers: the
 * printer, and what it prints of each record type (the table in
 * cmd-print.c). Each function prints @rec, a record of its type, to
 * p->out; the layers' parts are in their folders, named print-*.c.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "timeline.h"

struct print_hid;
struct print_wl_link;
struct tt_read_options;
struct tt_spool;

struct slot_values {
	int32_t values[TT_MT_AXES];
	bool seen[TT_MT_AXES];
};

struct print_dev {
	uint32_t id;
	int32_t slot;
	int64_t last_frame;
	bool have_last;
	uint32_t num_slots;
	struct slot_values *slots;
};

struct printer {
	FILE *out;
	bool deltas;
	struct tt_read_options *ro;	/* --device, --from, --to */
	struct tt_spool *hold;	/* stdout held until the input suits ro */
	struct print_dev devs[TT_MAX_DEVICES];
	size_t ndevs;
	struct print_hid *hid;
	struct print_wl_link *wl;	/* the kernel touch of each Wayland touch */
};

/* xi/print-xi.c: as xinput test-xi2 shows them, flags spelled out. */
void print_xi_device(struct printer *p, const struct tt_record *rec);
void print_xi_event(struct printer *p, const struct tt_record *rec);
/* hid/print-hid.c (print-hid.h) */
void print_hid_device_record(struct printer *p, const struct tt_record *rec);
void print_hid_report_record(struct printer *p, const struct tt_record *rec);
/* libinput/print-li.c: as libinput debug-events shows them. */
void print_li_device(struct printer *p, const struct tt_record *rec);
void print_li_event(struct printer *p, const struct tt_record *rec);
/* wayland/print-wl-link.c: the event, and the kernel touch its touch
 * came from. */
void print_wl_record(struct printer *p, const struct tt_record *rec);
