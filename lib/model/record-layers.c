/* SPDX-License-Identifier: MIT */
/* The layers of the timeline's records, and the lookups by type and by
 * name built from them. A new layer adds its line here (and its
 * declaration in record-layer.h). */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "record-layer.h"
#include "util-mem.h"

static const struct tt_record_layer *const layers[] = {
	&tt_core_records,	/* header, marker */
	&tt_evdev_records,	/* device, frame */
	&tt_xi_records,
	&tt_hid_records,
	&tt_li_records,
	&tt_wl_records,
};

static const struct tt_record_kind *by_type[TT_RECORD_TYPES];
static pthread_once_t by_type_once = PTHREAD_ONCE_INIT;

static void
index_kinds(void)
{
	for (size_t l = 0; l < ARRAY_LENGTH(layers); l++) {
		for (size_t k = 0; k < layers[l]->nkinds; k++) {
			const struct tt_record_kind *kind = &layers[l]->kinds[k];
			by_type[kind->type] = kind;
		}
	}
}

const struct tt_record_kind *
tt_record_kind(enum tt_record_type type)
{
	if ((unsigned int)type >= TT_RECORD_TYPES)
		return NULL;
	pthread_once(&by_type_once, index_kinds);
	return by_type[type];
}

const struct tt_record_kind *
tt_record_kind_named(const char *name)
{
	pthread_once(&by_type_once, index_kinds);
	for (size_t t = 0; t < TT_RECORD_TYPES; t++) {
		if (by_type[t] && by_type[t]->name && strcmp(by_type[t]->name, name) == 0)
			return by_type[t];
	}
	return NULL;
}
