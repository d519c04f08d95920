/* SPDX-License-Identifier: MIT */
/* The privacy check and redaction of the XI layer's records: a device's
 * node path (lib/analysis/privacy-private.h). */
#include "config.h"

#include "privacy-private.h"

void
privacy_check_xi_device(struct tt_privacy *p, struct privacy_finder *f, const struct tt_record *rec)
{
	(void)p;
	if (rec->xi_device->device_node)
		privacy_found(f, "node path: %s", rec->xi_device->device_node);
}

bool
privacy_redact_xi_device(struct tt_privacy *p, const struct tt_record *rec, struct tt_record *out)
{
	p->xi = *rec->xi_device;
	p->xi.device_node = NULL;
	out->xi_device = &p->xi;
	return true;
}
