/* SPDX-License-Identifier: MIT */
/*
 * print's HID layer: a hid_device record as hid-tools describes a device
 * (name, "I: bus vendor product", the descriptor's application
 * collections, the evdev devices it produced, its feature reports), and
 * each input report on one line: the time, the bytes in hex (cut after
 * PH_HEX_BYTES with a count of the rest), and what hid/hid-desc.h decodes
 * of them. The descriptor of each HID device is parsed once, when its
 * record comes.
 */
#pragma once

#include <stdio.h>

#include "timeline.h"
#include "util-mem.h"

/* Bytes of a report shown in hex on its line; the decoded fields always
 * come from all of them. */
#define PH_HEX_BYTES 24u

struct print_hid;

struct print_hid *print_hid_new(FILE *out);
void print_hid_free(struct print_hid *ph);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct print_hid *, print_hid_free);

void print_hid_device(struct print_hid *ph, const struct tt_hid_device *d);
void print_hid_report(struct print_hid *ph, const struct tt_hid_report *r);
