/* SPDX-License-Identifier: MIT */
/*
 * HID report descriptors and the reports they describe.
 *
 * tt_hid_desc_parse() turns a report descriptor (HID 1.11, section 6.2.2)
 * into the list of fields each report carries; tt_hid_decode() turns one
 * report's bytes into the things touch people ask about: the contacts of a
 * multitouch report (Digitizers page: Contact Identifier, Tip Switch, X, Y,
 * Confidence, Width/Height, Tip Pressure), the contact count, a pen's in
 * range/tip/barrel/eraser/pressure, buttons and scan time.
 * tt_hid_report_fields() walks every field of a report by name, for
 * printers.
 *
 * Descriptors and reports are hostile input: the parser refuses what is
 * malformed with a message (item N at byte B: what; items counted from 1,
 * bytes from 0), bounds every count
 * (TT_HID_MAX_* below) and the decoder never reads past a report's length.
 * Pure C, no I/O: the model, print, inspect, analyze and replay all use it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util-mem.h"

#define TT_HID_MAX_FIELDS 1024u
#define TT_HID_MAX_USAGES 4096u	/* usages over all fields */
#define TT_HID_MAX_COLLECTIONS 512u
#define TT_HID_MAX_CONTACTS 64u	/* contacts decoded from one report */
#define TT_HID_MAX_REPORT_BYTES 16384u	/* one report's data, as hid-core's HID_MAX_BUFFER_SIZE */

/* Usage pages and usages touch code looks for (HID Usage Tables 1.4). */
#define TT_HID_UP_GENERIC_DESKTOP 0x01
#define TT_HID_UP_BUTTON 0x09
#define TT_HID_UP_DIGITIZER 0x0d
#define TT_HID_USAGE(page, id) (((uint32_t)(page) << 16) | (uint16_t)(id))

enum tt_hid_report_kind {
	TT_HID_INPUT = 0,
	TT_HID_OUTPUT,
	TT_HID_FEATURE,
};

/* One main item's field: report_count values of report_size bits. */
struct tt_hid_field {
	enum tt_hid_report_kind kind;
	uint8_t report_id;	/* 0 when the descriptor numbers no report */
	uint32_t bit_offset;	/* from the start of the report's data, after the ID byte */
	uint32_t bit_size;	/* report size, 1..256; values wider than 32 bits
				 * decode as their low 32 bits (as in hid-core) */
	uint32_t count;		/* report count */
	uint32_t flags;		/* the main item's data: bit 0 constant, 1 variable, 2 relative */
	int32_t logical_min, logical_max;
	int32_t physical_min, physical_max;
	uint32_t unit;
	int8_t unit_exponent;
	/* Variable: usages[i] for value i (the last one repeats); array: the
	 * usages an index selects (index = value - logical_min). Full 32-bit
	 * usages; none for a constant field (padding). */
	uint32_t nusages;
	const uint32_t *usages;
	uint32_t collection;	/* index of the innermost collection, or UINT32_MAX */
};

struct tt_hid_collection {
	uint32_t usage;		/* full 32-bit usage */
	uint8_t type;		/* 0 physical, 1 application, 2 logical, ... */
	uint32_t parent;	/* index (always below this one's), or UINT32_MAX for a top-level one */
};

struct tt_hid_report_info {
	uint8_t id;
	enum tt_hid_report_kind kind;
	uint32_t bits;		/* data bits, the ID byte excluded */
};

struct tt_hid_desc {
	bool numbered;		/* any Report ID item: reports start with their ID */
	size_t nfields;
	struct tt_hid_field *fields;
	size_t ncollections;
	struct tt_hid_collection *collections;
	size_t nreports;
	struct tt_hid_report_info *reports;
	uint32_t application;	/* usage of the first application collection */
	void *priv;
};

/* 0, or -EINVAL with *why ("item 12 at byte 31: Pop without Push", caller
 * frees) when @why is not NULL. *out untouched on failure. Read as
 * hid-core reads it: Report Size up to 256, Report IDs 1..255, at most 16
 * Pushes, a Usage Page given after a main item's usages still applies to
 * them, only the first usage set of a Delimiter counts; the descriptor
 * must close every collection it opens. */
int tt_hid_desc_parse(const uint8_t *data, size_t len, struct tt_hid_desc **out, char **why);
void tt_hid_desc_free(struct tt_hid_desc *d);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_hid_desc *, tt_hid_desc_free);

/* The report of @kind with @id, or NULL when the descriptor declares none. */
const struct tt_hid_report_info *tt_hid_desc_report(const struct tt_hid_desc *d,
						    enum tt_hid_report_kind kind, uint8_t id);
/* Feature report IDs the descriptor declares, ascending; returns how many
 * (at most @max). */
size_t tt_hid_desc_feature_ids(const struct tt_hid_desc *d, uint8_t *ids, size_t max);
/* True for a touchscreen, touchpad or pen application collection. */
bool tt_hid_desc_is_touch(const struct tt_hid_desc *d);

/* "Digitizers/Tip Switch", "Generic Desktop/X", or "0xff00/0x0001":
 * static strings or @buf (at least 32 bytes). */
const char *tt_hid_usage_name(uint32_t usage, char *buf, size_t bufsz);

/* Contacts are split as hid-multitouch splits them: each Digitizers/Finger
 * collection (or a touch screen's Stylus collection with a Contact
 * Identifier) starts one, and so does a contact usage the current contact
 * already has (descriptors listing every contact in one collection). */
struct tt_hid_contact {
	int32_t contact_id;	/* Contact Identifier, or the contact's index */
	bool has_id, has_tip, has_x, has_y, has_pressure, has_confidence, has_in_range;
	bool tip;		/* Tip Switch */
	bool confidence;
	bool in_range;
	int32_t x, y;		/* logical values */
	int32_t pressure;
	int32_t width, height;	/* 0 when absent */
};

struct tt_hid_pen {
	bool present;		/* the report has a stylus collection */
	bool in_range, tip, barrel, eraser, invert;
	int32_t x, y, pressure;
};

struct tt_hid_decoded {
	uint8_t report_id;
	bool declared;		/* the descriptor declares this input report */
	bool short_report;	/* the bytes were fewer than the report's size */
	bool has_contact_count;
	int32_t contact_count;
	bool has_scan_time;
	int32_t scan_time;
	uint32_t buttons;	/* Button page 1..32, bit n-1 */
	uint32_t ncontacts;	/* contact slots in the report, down or not */
	struct tt_hid_contact contacts[TT_HID_MAX_CONTACTS];
	struct tt_hid_pen pen;
};

/* Decodes an input report (@data starts with the ID byte when the
 * descriptor is numbered). 0, or -EINVAL for an empty report (*out then
 * untouched); an undeclared report ID gives 0 with declared false and
 * nothing decoded. A variable field's values past its usages are padding
 * here (tt_hid_report_fields() repeats the last usage over them). */
int tt_hid_decode(const struct tt_hid_desc *d, const uint8_t *data, size_t len,
		  struct tt_hid_decoded *out);

/* Calls @fn for every value of every field of the input report, in
 * descriptor order, with its usage (0 for padding/constant fields) and its
 * logical value (sign-extended when logical_min < 0). Array fields give
 * the selected usage with value 1 (nothing for an index selecting none,
 * or selecting a usage ID 0: a keyboard's "no event").
 * Values that do not fit in a short report are left out. Stops early when
 * @fn returns false. 0, -EINVAL for an empty report, -ENOENT when the
 * descriptor declares no input report of that ID. */
typedef bool (*tt_hid_field_fn)(void *data, const struct tt_hid_field *f, uint32_t usage,
				int32_t value);
int tt_hid_report_fields(const struct tt_hid_desc *d, const uint8_t *data, size_t len,
			 tt_hid_field_fn fn, void *userdata);
/* tt_hid_report_fields() for a report of any @kind (feature reports read
 * with HIDIOCGFEATURE start with their ID like input reports). */
int tt_hid_report_fields_kind(const struct tt_hid_desc *d, enum tt_hid_report_kind kind,
			      const uint8_t *data, size_t len, tt_hid_field_fn fn, void *userdata);

/* Writes @value into every value of input report @data (ID byte first when
 * the descriptor is numbered) that a variable field gives @usage (as
 * tt_hid_report_fields() names them), within @len: what a lift report
 * needs (every Tip Switch 0). Array fields are left alone. Returns how
 * many values it wrote, -EINVAL for an empty report, -ENOENT for an
 * undeclared one. */
int tt_hid_report_set(const struct tt_hid_desc *d, uint8_t *data, size_t len, uint32_t usage,
		      int32_t value);
