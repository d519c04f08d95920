/* SPDX-License-Identifier: MIT */
/*
 * replay recreates a recorded device's surroundings for the replayed
 * devices only, for the duration of the replay:
 *
 *   - a udev rule, RP_SUR_RULES_DIR/99-touchtape-replay-PID.rules, that
 *     sets the recorded udev properties on the devices whose name ends in
 *     their tag " (pid PID.ID)" (rp_sur_tag(): the uinput name carries it);
 *   - the recorded libinput quirks, a section of RP_SUR_QUIRKS_FILE (the
 *     file libinput reads local overrides from) between marker lines that
 *     carry the pid, MatchName= the tag, whatever else the file holds kept;
 *   - with --isolate, ID_SEAT and LIBINPUT_IGNORE_DEVICE in that rule, so a
 *     desktop's X server and libinput leave the devices alone.
 *
 * A SIGKILLed replayer leaves its rule and section behind, keyed on names
 * no device has once it is gone: rp_sur_new() first removes those whose
 * pid no longer runs. What cannot be recreated (no udevd, not root, a
 * read-only /etc) is a warning, never a failure.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "timeline.h"
#include "util-mem.h"

#define RP_SUR_RULES_DIR "/run/udev/rules.d"
#define RP_SUR_QUIRKS_FILE "/etc/libinput/local-overrides.quirks"
#define RP_SUR_UDEV_CONTROL "/run/udev/control"
/* The seat --isolate puts the devices on: one no session has. */
#define RP_SUR_ISOLATE_SEAT "seat-touchtape-replay"

struct rp_sur_options {
	bool recreate;		/* the recorded udev properties and quirks */
	bool isolate;		/* --isolate */
	/* our own libinput reads the devices (replay --libinput): keep
	 * LIBINPUT_IGNORE_DEVICE off them, ID_SEAT alone isolates */
	bool own_libinput;
	/* Where; NULL for the RP_SUR_* defaults (tests point them elsewhere). */
	const char *rules_dir;
	const char *quirks_file;
	const char *udev_control;
	/* Runs "udevadm control --reload" (NULL: the real one). 0 or -errno. */
	int (*reload)(void);
};

struct rp_sur;

/* Cleans what dead replayers left, then installs the rule and the quirks
 * for @devs (@n of them, in schedule order) and reloads udevd. Warns
 * (tt_warning) about what it cannot do; *out is set in any case (0), or
 * NULL when nothing was asked or there was nothing to do. */
int rp_sur_new(const struct tt_device *const *devs, size_t n, const struct rp_sur_options *o,
	       struct rp_sur **out);
/* The name suffix of device @i ("  (pid 123.0)"), or NULL when nothing
 * was installed for it: the uinput name must end in it. NULL-safe. */
const char *rp_sur_tag(const struct rp_sur *s, size_t i);
/* Removes the rule and the quirks section (and reloads udevd). NULL-safe. */
void rp_sur_free(struct rp_sur *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct rp_sur *, rp_sur_free);

/* Pure parts, for the tests. */
/* Writes @s with udev's rule quoting: % and $ doubled. False when it
 * cannot be quoted (a " or \ in it). */
bool rp_sur_udev_quote(FILE *f, const char *s);
/* True for properties udev or the kernel own (DEVNAME, MAJOR, TAGS,
 * ID_PATH, PRODUCT, ...): a rule must not set them. */
bool rp_sur_property_is_udevs(const char *name);
/* True when a quirk line looks like libinput's "Name=value". */
bool rp_sur_quirk_is_valid(const char *line);
/* @text without the sections of replayers that no longer run (and,
 * when @pid is above 0, without @pid's own); a new string. */
char *rp_sur_quirks_strip(const char *text, pid_t pid);
