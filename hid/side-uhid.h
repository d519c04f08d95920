/* SPDX-License-Identifier: MIT */
/*
 * The uhid device side (side.h), replay --hid: each recorded HID device
 * created through /dev/uhid (uhid-device.h) so the kernel's own driver
 * makes the evdev devices, its input reports played by the one player
 * (player.h; hid-player.h: contacts still down lifted whatever ends it),
 * and for --verify the driver's evdev devices read back and compared with
 * the recording's (verify.h, hid-verify.h).
 */
#pragma once

#include <stdio.h>

#include "hid-player.h"
#include "replay/side.h"

struct rp_uhid_side;

/* Loads @path as rp_hid_schedule_load() does (its return values, its
 * messages to @err). */
int rp_uhid_side_new(const char *path, const struct rp_options *o, FILE *err,
		     struct rp_uhid_side **out);
void rp_uhid_side_free(struct rp_uhid_side *h);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_uhid_side *, rp_uhid_side_free);
/* The side as the pipeline takes it; valid while @h lives. */
struct rp_side rp_uhid_side_get(struct rp_uhid_side *h);
