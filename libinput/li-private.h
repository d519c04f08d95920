/* SPDX-License-Identifier: MIT */
/* What li-capture.c and li-config.c share; nothing else includes it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "li-capture.h"
#include "log.h"
#include "timeline.h"

struct libinput_device;

/* Applies the settings of @cfg that @dev supports, marking them in
 * @applied (li_config_nsettings() entries). 0, or -EINVAL (reported
 * against @node) when libinput refuses a value. */
int li_config_apply(const struct tt_li_config *cfg, struct libinput_device *dev, bool *applied,
		    const char *node);
/* -ENOTSUP (reported) when a given setting is not in @applied. */
int li_config_check_applied(const struct tt_li_config *cfg, const bool *applied);
size_t li_config_nsettings(void);
/* The settings @dev supports, with their values in effect, into @out. */
void li_config_describe(struct libinput_device *dev, struct tt_li_device *out);
