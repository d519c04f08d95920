/* SPDX-License-Identifier: MIT */
/*
 * The privacy check's and redaction's parts per record kind, which the
 * record kinds point at (lib/model/record-layer.h). Library parts only.
 *
 * privacy_check_*() report through @f what in @rec may identify someone,
 * and note what later records need (a device's keys, a HID descriptor).
 * privacy_redact_*() make @out (a copy of @rec made by the caller) point
 * at @p's copy without it; they return false when @rec is left out.
 * The header's and evdev's parts are in lib/analysis/privacy.c, each
 * layer's in its folder (hid/privacy-hid.c, xi/privacy-xi.c), all on the
 * state below.
 */
#pragma once

#include <stdbool.h>

#include "keymask.h"
#include "privacy.h"
#include "timeline.h"

struct priv_dev {
	uint32_t id;
	bool keys_told;
	struct tt_keymask mask;	/* redact: active when the file was not masked */
};

struct priv_hid {
	uint32_t id;
	bool keys_told;
	bool unparsed;
	struct tt_hid_desc *desc;	/* NULL unless it declares private keys */
};

struct tt_privacy {
	bool keycodes_masked;	/* the header says so */
	size_t ndevs;
	struct priv_dev *devs;
	size_t nhids;
	struct priv_hid *hids;

	/* tt_privacy_redact()'s copies, replaced by each call */
	struct tt_header header;
	struct tt_device device;
	struct tt_frame frame;
	struct tt_hid_device hid;
	struct tt_hid_report report;
	struct tt_xi_device xi;
	char *phys;
	uint32_t nudev, nhwdb;
	struct tt_property *udev, *hwdb;
	uint32_t nevents;
	struct tt_event *events;
	uint8_t bytes[TT_MAX_HID_REPORT];
};

struct privacy_finder {
	const struct tt_record *rec;
	tt_privacy_fn fn;
	void *userdata;
	size_t n;
};

/* What identifies, for the finder's callback: @fmt with @arg. */
void privacy_found(struct privacy_finder *f, const char *fmt, const char *arg);
/* A device's phys (an address), uniq (a serial), node (a path). */
void privacy_check_strings(struct privacy_finder *f, const char *phys, const char *uniq, const char *node);
/* @phys with its addresses masked (a copy @p holds until the next
 * record), or @phys itself when it has none. */
const char *privacy_masked_phys(struct tt_privacy *p, const char *phys);


void privacy_check_header(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);
void privacy_check_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);
void privacy_check_frame(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);
void privacy_check_xi_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);
void privacy_check_hid_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);
void privacy_check_hid_report(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec);

bool privacy_redact_header(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
bool privacy_redact_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
bool privacy_redact_frame(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
bool privacy_redact_xi_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
bool privacy_redact_hid_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
bool privacy_redact_hid_report(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out);
