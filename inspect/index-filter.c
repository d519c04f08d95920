/* SPDX-License-Identifier: MIT */
/* Which devices and records the index keeps (--device, --hid-device),
 * and which lanes it shows. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "index.h"
#include "index-private.h"
#include "model-xi-own.h"
#include "surroundings-print.h"
#include "util-strings.h"

bool
ti_id_in(const uint32_t *ids, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

bool
ti_device_chosen(const struct tt_index *ix, int64_t id)
{
	return !ix->choosing || id < 0 || ti_id_in(ix->devices, ix->ndevices, id);
}

static void
set_ids(uint32_t **dst, size_t *ndst, const uint32_t *ids, size_t n)
{
	free(*dst);
	*dst = NULL;
	*ndst = 0;
	if (!n)
		return;
	*dst = tt_reallocarray(NULL, n, sizeof(*ids));
	memcpy(*dst, ids, n * sizeof(*ids));
	*ndst = n;
}

void
tt_index_set_devices(struct tt_index *ix, const uint32_t *ids, size_t n)
{
	set_ids(&ix->devices, &ix->ndevices, ids, n);
	ix->choosing = ix->ndevices || ix->nhid_choice;
}

void
tt_index_set_hid_devices(struct tt_index *ix, const uint32_t *ids, size_t n)
{
	set_ids(&ix->hid_choice, &ix->nhid_choice, ids, n);
	ix->choosing = ix->ndevices || ix->nhid_choice;
}

/* HID and libinput lanes are of chosen devices only: the index has no
 * others. */
bool
tt_index_lane_chosen(const struct tt_index *ix, const struct ti_lane *l)
{
	return !ix->choosing || l->kind == TI_LANE_KERNEL || l->kind == TI_LANE_HID || l->kind == TI_LANE_LI ||
	       l->kind == TI_LANE_LI_GESTURE || l->linked >= 0;
}
