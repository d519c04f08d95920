/* SPDX-License-Identifier: MIT */
/* Names of XInput 2 event types, flags and device uses, as the timeline
 * writes them. Only the protocol constants are needed, not libXi. */
#pragma once

#include <stdint.h>

enum tt_xi_class {
	TT_XI_CLASS_DEVICE,	/* XIDeviceEvent: touch, motion, buttons, keys */
	TT_XI_CLASS_RAW,	/* XIRawEvent */
	TT_XI_CLASS_OWNERSHIP,	/* XITouchOwnershipEvent */
	TT_XI_CLASS_HIERARCHY,	/* XIHierarchyEvent, XIDeviceChangedEvent */
	TT_XI_CLASS_REQUEST,	/* a request the recorder sent */
};

/* "TouchBegin", ..., "AcceptTouch", "RejectTouch"; NULL if unknown. */
const char *tt_xi_event_name(int32_t evtype);
int tt_xi_event_from_name(const char *name, int32_t *out);
enum tt_xi_class tt_xi_event_class(int32_t evtype);

/* "pending_end", "emulating_pointer", "pointer_emulated", "key_repeat",
 * hierarchy change flags "slave_added", ...; NULL for an unnamed bit. */
const char *tt_xi_flag_name(int32_t evtype, uint32_t mask);
int tt_xi_flag_from_name(int32_t evtype, const char *name, uint32_t *mask);

/* "master_pointer", "master_keyboard", "slave_pointer",
 * "slave_keyboard", "floating_slave"; NULL for anything else (the
 * writer then leaves the key out). */
const char *tt_xi_use_name(int32_t use);
int tt_xi_use_from_name(const char *name, int32_t *out);
