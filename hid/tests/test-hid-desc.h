/* SPDX-License-Identifier: MIT */
/*
 * Shared by the two files of test-hid-desc: test-hid-desc.c (built and
 * public test suites' descriptors) and test-hid-desc-corpus.c (the
 * corpus's hid-recorder files).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hid-desc.h"

#define DIG(id) TT_HID_USAGE(TT_HID_UP_DIGITIZER, id)
#define GD(id) TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, id)

/* What tt_hid_report_fields() hands out, in order. */
struct values {
	size_t n;
	uint32_t usage[64];
	int32_t value[64];
};

/* @data parsed, checked to parse: the descriptor, or NULL (a failure
 * counted, the reason printed). */
struct tt_hid_desc *parse_ok(const uint8_t *data, size_t len);

/* The fields of @report, by tt_hid_report_fields(), checked to succeed. */
struct values values_of(const struct tt_hid_desc *d, const uint8_t *report, size_t len);

/* "N hh hh ..." into @out; returns the count of bytes read, or -1 when it
 * disagrees with N. */
long parse_hex(const char *s, uint8_t *out, size_t max);

/* Runs every test of test-hid-desc-corpus.c. */
void test_corpus_recordings(void);
