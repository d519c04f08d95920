/* SPDX-License-Identifier: MIT */
/*
 * The catalog of diagnostics: everything any command reports about a
 * recording, with one stable name, one severity and one line of
 * explanation each. The semantic checker (checker.h), the model-based
 * detectors (detect.h) and the readers' refused lines and warnings all
 * report through one struct tt_diag, so validate, analyze, inspect, diff
 * and replay name, count and filter the same things the same way.
 *
 * Severity decides the exit status: an error is a finding (exit 1), a
 * warning is one only under --strict. A printer (struct tt_diag_printer)
 * applies --ignore and summarises each kind after --max messages.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tt_severity {
	TT_SEV_WARNING,
	TT_SEV_ERROR,
};

/* Stable names (tt_check_name()) for JSON output, --ignore and tests. */
enum tt_check {
	/* lib/analysis/checker.h: what the schema cannot say */
	TT_CHECK_TIME_BACKWARDS,
	TT_CHECK_NO_SYN_REPORT,
	TT_CHECK_SLOT_RANGE,
	TT_CHECK_TRACKING_ID_REUSED,
	TT_CHECK_TRACKING_ID_REPLACED,
	TT_CHECK_VALUE_RANGE,
	TT_CHECK_UNSUPPORTED_CODE,
	TT_CHECK_XI_UPDATE_BEFORE_BEGIN,
	TT_CHECK_XI_BEGIN_TWICE,
	TT_CHECK_XI_END_TWICE,
	TT_CHECK_NO_DEVICES,
	TT_CHECK_DUPLICATE_DEVICE,
	TT_CHECK_SYN_DROPPED,
	TT_CHECK_HID_UNKNOWN_DEVICE,
	TT_CHECK_HID_BAD_DESCRIPTOR,
	TT_CHECK_HID_UNKNOWN_EVDEV,
	/* lib/analysis/checker.c, the libinput layer */
	TT_CHECK_LI_TOUCH_SEQUENCE,
	TT_CHECK_LI_GESTURE_SEQUENCE,
	/* wayland/model-wl.c: wl_touch's protocol rules */
	TT_CHECK_WL_FRAME_MISSING,
	TT_CHECK_WL_TOUCH_NOT_DOWN,
	TT_CHECK_WL_EVENT_AFTER_UP,
	TT_CHECK_WL_EVENT_AFTER_CANCEL,
	TT_CHECK_WL_TOUCH_ID_REUSED,
	/* lib/analysis/detect.h: what the touch-sequence model shows */
	TT_CHECK_JUMP,
	TT_CHECK_STALL,
	TT_CHECK_CONTACT_FLICKER,
	TT_CHECK_BUTTON_MISMATCH,
	TT_CHECK_TOUCH_ACTIVE_AT_END,
	TT_CHECK_NOT_DELIVERED,
	TT_CHECK_XI_NEVER_ENDED,
	TT_CHECK_OWNERSHIP_UNRESOLVED,
	TT_CHECK_XI_OWNERSHIP_ORDER,	/* xi/model-xi-own.h */
	TT_CHECK_HID_CONTACT_COUNT,
	TT_CHECK_HID_CONTACT_VANISHED,
	TT_CHECK_HID_UNDECLARED_REPORT,
	TT_CHECK_HID_SHORT_REPORT,
	/* the readers */
	TT_CHECK_BAD_LINE,
	TT_CHECK_READER_WARNING,
	TT_CHECK_COUNT,
};

const char *tt_check_name(enum tt_check check);
enum tt_severity tt_check_severity(enum tt_check check);
/* One line for people: what the kind means. */
const char *tt_check_explain(enum tt_check check);
/* The kind named @name: 0, or -EINVAL for a name not in the catalog. */
int tt_check_from_name(const char *name, enum tt_check *out);
const char *tt_severity_name(enum tt_severity sev);

/* One diagnostic. Fields that do not apply are -1 (client: ""). */
struct tt_diag {
	enum tt_check check;
	enum tt_severity severity;
	size_t line;		/* 0: about the whole file */
	int64_t time_us;
	int64_t device;		/* device record id, or XI deviceid with touchid */
	int64_t slot;
	int64_t tracking_id;
	int64_t touchid;	/* XI touch id */
	char client[32];
	char message[256];	/* without file, line or kind */
};

typedef void (*tt_diag_fn)(void *userdata, const struct tt_diag *diag);

/* A diagnostic of @check with every optional field unset. */
void tt_diag_init(struct tt_diag *d, enum tt_check check, size_t line, int64_t time_us, int64_t device);

/* Reader messages ("FILE:LINE: [warning: ]what") as diagnostics of
 * @check (TT_CHECK_BAD_LINE or TT_CHECK_READER_WARNING). */
void tt_diag_from_reader(struct tt_diag *d, enum tt_check check, const char *name, const char *message);

/* ---- what a command shows ---- */

/* --ignore, --max and --strict, and the counts that decide the exit
 * status. Zero-initialised: nothing ignored, --max 0 (all shown). */
struct tt_diag_filter {
	bool ignore[TT_CHECK_COUNT];
	size_t max_per_kind;	/* 0: all */
	bool strict;
	size_t count[TT_CHECK_COUNT];	/* accepted diagnostics per kind */
};

#define TT_DIAG_DEFAULT_MAX 10

/* --ignore NAME: 0, or -EINVAL for a name not in the catalog. */
int tt_diag_filter_ignore(struct tt_diag_filter *f, const char *name);
/* Counts @d unless ignored. Returns true when it is to be shown (within
 * --max for its kind). */
bool tt_diag_filter_accept(struct tt_diag_filter *f, const struct tt_diag *d);
size_t tt_diag_filter_total(const struct tt_diag_filter *f, enum tt_severity sev);
/* 1 (findings) when errors were accepted, or warnings under --strict. */
int tt_diag_filter_status(const struct tt_diag_filter *f);
/* "... and 121 more value-out-of-range; --max 0 shows all" for each
 * kind beyond --max, each line after @prefix. */
void tt_diag_filter_print_more(const struct tt_diag_filter *f, FILE *out, const char *prefix);

/* "touchtape CMD: FILE:LINE: error: message [kind]" (no LINE when it
 * is 0). */
void tt_diag_format(const struct tt_diag *d, const char *cmd, const char *file, char *buf, size_t size);
