/* SPDX-License-Identifier: MIT */
/* Placeholder until the evemu and libinput-record importers land
 * (issue: touchtape convert). Detection already recognises both formats;
 * these say clearly that reading them is not there yet. */
#include "config.h"

#include <errno.h>

#include "reader-private.h"

int
evemu_reader_init(struct tt_reader *r)
{
	return -EPROTONOSUPPORT;
}

int
libinput_reader_init(struct tt_reader *r)
{
	return -EPROTONOSUPPORT;
}
