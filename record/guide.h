/* SPDX-License-Identifier: MIT */
/*
 * record --guide: walks a person through the exercises a grade needs
 * (touchtape-analyze(1), GRADING) while the recording runs, and brackets
 * each with guide-begin / guide-end markers. The pure part: a state
 * machine fed with keys, frames and the time, speaking through its ops;
 * record/guide-source.c plugs it into the recorder.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grade.h"
#include "util-mem.h"

enum tt_guide_kind {
	TT_GUIDE_TOUCHSCREEN = 0,
	TT_GUIDE_TOUCHPAD,
};

/* "touchscreen", "touchpad": 0 and *@out, or -EINVAL. */
int tt_guide_kind_from_name(const char *name, enum tt_guide_kind *out);
/* The grade profile of a kind ("touchscreen", "touchpad"). */
const char *tt_guide_kind_name(enum tt_guide_kind kind);

struct tt_guide_ops {
	/* A guide-begin (@begin) or guide-end marker of @exercise, now. 0 or
	 * a negative errno (the recording then stops). */
	int (*marker)(void *data, bool begin, enum tt_guide_exercise exercise);
	/* Every exercise done or skipped, or 'q': the recording may stop. */
	void (*done)(void *data);
};

struct tt_guide;

/* Prompts and progress go to @tty. */
struct tt_guide *tt_guide_new(enum tt_guide_kind kind, FILE *tty, const struct tt_guide_ops *ops, void *data);
void tt_guide_free(struct tt_guide *g);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_guide *, tt_guide_free);

/* Shows the first exercise. */
void tt_guide_start(struct tt_guide *g, int64_t now_us);
/* A key: Enter ('\n' or '\r') starts or ends an exercise, 's' skips it,
 * 'q' ends the guide. 0, or what the marker op returned. */
int tt_guide_key(struct tt_guide *g, int key, int64_t now_us);
/* After a frame of any recorded device, @ndown touches down on them all. */
void tt_guide_frame(struct tt_guide *g, uint32_t ndown, int64_t now_us);
/* Redraws the progress line (at most a few times a second). */
void tt_guide_tick(struct tt_guide *g, int64_t now_us);
/* True once every exercise is done or skipped. */
bool tt_guide_finished(const struct tt_guide *g);
