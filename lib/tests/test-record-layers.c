/* SPDX-License-Identifier: MIT */
/*
 * The record layers (lib/model/record-layer.h): every record type has
 * its kind in one layer, with what the reader and the writer need, and
 * the lookups by type and by name find it. A new record type whose layer
 * was not listed fails here, not in a file nobody converted.
 */
#include "config.h"

#include "record-layer.h"
#include "test-common.h"

static void
test_every_type_has_a_kind(void)
{
	for (int t = TT_RECORD_HEADER; t < TT_RECORD_TYPES; t++) {
		const struct tt_record_kind *k = tt_record_kind((enum tt_record_type)t);
		check(k != NULL);
		if (!k)
			continue;
		check_int_eq(k->type, t);
		check(k->write != NULL);
		/* Only the header, the first line, has no "type" to parse by. */
		check((k->name != NULL) == (t != TT_RECORD_HEADER));
		check((k->parse != NULL) == (t != TT_RECORD_HEADER));
	}
}

static void
test_out_of_range(void)
{
	check(tt_record_kind((enum tt_record_type)0) == NULL);
	check(tt_record_kind(TT_RECORD_TYPES) == NULL);
	check(tt_record_kind((enum tt_record_type)-1) == NULL);
}

static int
type_named(const char *name)
{
	const struct tt_record_kind *k = tt_record_kind_named(name);

	return k ? (int)k->type : -1;
}

static void
test_names(void)
{
	for (int t = TT_RECORD_DEVICE; t < TT_RECORD_TYPES; t++) {
		const struct tt_record_kind *k = tt_record_kind((enum tt_record_type)t);
		if (k && k->name)
			check(tt_record_kind_named(k->name) == k);
	}
	check_int_eq(type_named("frame"), TT_RECORD_FRAME);
	check_int_eq(type_named("hid"), TT_RECORD_HID_REPORT);
	check_int_eq(type_named("wl"), TT_RECORD_WL_EVENT);
	/* A header line after the first is skipped, as a newer type is. */
	check(tt_record_kind_named("header") == NULL);
	check(tt_record_kind_named("touchpad_gesture") == NULL);
	check(tt_record_kind_named("") == NULL);
}

int
main(void)
{
	RUN(test_every_type_has_a_kind);
	RUN(test_out_of_range);
	RUN(test_names);
	return tt_test_result();
}
