/* SPDX-License-Identifier: MIT */
/*
 * Semantic checks over a stream of records: what the JSON schema cannot
 * say. Used by `validate`, by `replay` before it creates anything, and by
 * the diagnostics stream of lib/analysis/detect.h. Feed records in file order;
 * each problem is reported through the callback with its line, as a
 * kind of the catalog in lib/analysis/diag.h.
 *
 * After a SYN_DROPPED the client's view of the slots is unknown until
 * libevdev's resync (or, without one, until each slot is set again):
 * a slot's tracking ID is then taken as it comes, and what the kernel
 * legitimately skipped (a release) is not reported.
 */
#pragma once

#include <stddef.h>

#include "diag.h"
#include "timeline.h"

struct tt_checker;

struct tt_checker *tt_checker_new(tt_diag_fn fn, void *userdata);
void tt_checker_free(struct tt_checker *c);
void tt_checker_feed(struct tt_checker *c, const struct tt_record *rec);
/* End of input: reports what is still open where that is a problem. */
void tt_checker_finish(struct tt_checker *c);
size_t tt_checker_count(const struct tt_checker *c, enum tt_severity sev);

/* Who parses a hid_device's report descriptor for the checker: 0 when it
 * parses, else a negative errno with *@why (may stay NULL) saying what is
 * wrong. The layer stack hands the kernel model's parse (model.h,
 * tt_model_hid_parse()), so a descriptor is parsed once per pass; without
 * one the checker parses it itself. */
typedef int (*tt_checker_hid_parse_fn)(void *data, const struct tt_hid_device *dev, const char **why);
void tt_checker_set_hid_parse(struct tt_checker *c, tt_checker_hid_parse_fn fn, void *data);
