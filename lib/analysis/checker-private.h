/* SPDX-License-Identifier: MIT */
/*
 * The semantic checker's parts per record kind, which the record kinds
 * point at (lib/model/record-layer.h): each checks @rec against what the
 * records before it said, and reports through the checker's callback.
 * Library parts only.
 */
#pragma once

#include "checker.h"

void checker_device(struct tt_checker *c, const struct tt_record *rec);
void checker_frame(struct tt_checker *c, const struct tt_record *rec);
void checker_xi_device(struct tt_checker *c, const struct tt_record *rec);
void checker_xi_event(struct tt_checker *c, const struct tt_record *rec);
void checker_hid_device(struct tt_checker *c, const struct tt_record *rec);
void checker_hid_report(struct tt_checker *c, const struct tt_record *rec);
void checker_li_event(struct tt_checker *c, const struct tt_record *rec);
