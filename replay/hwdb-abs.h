/* SPDX-License-Identifier: MIT */
/*
 * replay --hwdb-abs: an hwdb EVDEV_ABS entry applied to the replayed
 * devices as udev's evdev builtin applies it to a real one (EVIOCSABS on
 * the event node), so a suggested fuzz or resolution can be tried on a
 * recording (touchtape-analyze(1), GRADING).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* EVDEV_ABS_<hex code>=<min>:<max>:<res>:<fuzz>:<flat>; an empty field
 * keeps the device's value. */
struct rp_hwdb_abs {
	unsigned int code;
	bool set[5];
	int32_t value[5];	/* min, max, res, fuzz, flat */
};

/* Parses @spec: "EVDEV_ABS_35=:::8" sets the fuzz, "EVDEV_ABS_00=0:4095:16"
 * the range and the resolution (udev's order of the fields). 0 and *@out
 * set, or -EINVAL. */
int rp_hwdb_abs_parse(const char *spec, struct rp_hwdb_abs *out);

/* Applies the @n entries to the event node @node (axes it lacks are left
 * alone). 0, or a negative errno of the open or the ioctls. */
int rp_hwdb_abs_apply(const struct rp_hwdb_abs *abs, size_t n, const char *node);
