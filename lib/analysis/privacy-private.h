/* SPDX-License-Identifier: MIT */
/*
 * The privacy check's and redaction's parts per record kind, which the
 * record kinds point at (lib/model/record-layer.h). Library parts only.
 *
 * privacy_check_*() report through @f what in @rec may identify someone,
 * and note what later records need (a device's keys, a HID descriptor).
 * privacy_redact_*() make @out (a copy of @rec made by the caller) point
 * at @p's copy without it; they return false when @rec is left out.
 */
#pragma once

#include <stdbool.h>

#include "privacy.h"

struct privacy_finder;

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
