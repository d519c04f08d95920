/* SPDX-License-Identifier: MIT */
/*
 * What in a recording may identify a person or a machine, and a copy of
 * it without that: validate --privacy and convert --redact.
 *
 * Looked for, record by record:
 * - keys typed in clear: a private key (lib/tables/keymask.h) pressed in an
 *   evdev frame of a file whose header does not say keycodes_masked, or
 *   an input report that masking (hid/hid-keymask.h) would change;
 * - serials: a device's uniq, udev properties tt_property_is_serial();
 * - addresses: MAC-like addresses in phys and property values;
 * - DMI strings: the header's system.dmi (make, model, firmware);
 * - node paths: /dev and /sys paths of devices, their udev DEVNAME,
 *   DEVPATH and ID_PATH.
 * The redacted copy masks the keys as record does (and says so in the
 * header), drops serials, DMI and node paths, and writes every address
 * as xx:xx:xx:xx:xx:xx. A redacted file has nothing left to report.
 *
 * Records are hostile input: descriptors that do not parse are refused
 * quietly (their reports cannot be masked: redact drops them, the check
 * says so). Pure: no I/O.
 */
#pragma once

#include <stddef.h>

#include "timeline.h"
#include "util-mem.h"

struct tt_privacy;

struct tt_privacy *tt_privacy_new(void);
void tt_privacy_free(struct tt_privacy *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_privacy *, tt_privacy_free);

/* Called once per finding; @what names it ("serial in uniq"). */
typedef void (*tt_privacy_fn)(void *userdata, const struct tt_record *rec, const char *what);

/* Calls @fn for what in @rec may identify someone (keys in clear once per
 * device); returns how many findings. Records are to be given in file
 * order: the header and device records say how to read the rest. */
size_t tt_privacy_check(struct tt_privacy *p, const struct tt_record *rec, tt_privacy_fn fn,
			void *userdata);

/* @out: @in without what tt_privacy_check() finds. @out borrows from @in
 * and from @p until the next call. Returns false when the record is left
 * out (the input reports of a HID device whose descriptor does not
 * parse, as record leaves them out). */
bool tt_privacy_redact(struct tt_privacy *p, const struct tt_record *in, struct tt_record *out);
