/* SPDX-License-Identifier: MIT */
/*
 * The layer stack: one pass over a recording, one kernel touch model, and
 * the layers built on it. Every command that reads a recording for its
 * meaning (validate, analyze, inspect, diff, print's link lines, replay
 * --verify) feeds one stack and subscribes to what it wants; nothing else
 * builds a model. A record, a device, a touch is modelled once per pass.
 *
 *            records (file order)
 *                  |
 *   +--------------v---------------+
 *   | layers' feed (record level)  |  diagnostics and numbers (detect.c,
 *   |                              |  the checker, the XI ownership
 *   |                              |  chains), libinput, Wayland
 *   +--------------+---------------+
 *                  |
 *   +--------------v---------------+
 *   | the kernel touch model       |  evdev slots and contacts, XI touch
 *   | (model.h)                    |  sequences, HID contacts and frames,
 *   +--------------+---------------+  the XI and HID links
 *                  | callbacks, in registration order:
 *                  v the layers first, then the subscribers
 *
 * A layer (struct tt_layer_ops) sees every record before the kernel model
 * does and hears every kernel model callback; it is the place for one
 * kind of input above or beside the kernel (see CODING_STYLE.md, "How to
 * add a layer"). A layer whose records the file lacks does nothing.
 *
 * The stack's layers, in this order: the diagnostics and numbers
 * (detect.h), libinput (model-li.h), Wayland (model-wl.h). A command
 * subscribes with tt_stack_subscribe() (kernel, XI, HID callbacks),
 * tt_stack_subscribe_li() and tt_stack_subscribe_wl(); subscribers run
 * after the layers, so a touch's links and flags are final for them.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "detect.h"
#include "diag.h"
#include "model.h"
#include "model-li.h"
#include "model-wl.h"
#include "timeline.h"
#include "util-mem.h"

/* One layer of the stack. Every member may be NULL. */
struct tt_layer_ops {
	const char *name;
	/* Every record, in file order, before the kernel model sees it. */
	void (*feed)(void *self, const struct tt_record *rec);
	/* End of input, in three steps so every layer can speak at its
	 * time: end_input before the kernel model ends the open touches
	 * (what the records alone say), finish after it, conclude after
	 * every layer finished (numbers over all of them). */
	void (*end_input)(void *self);
	void (*finish)(void *self);
	void (*conclude)(void *self);
	/* What it hears of the kernel model. */
	struct tt_model_callbacks kernel;
};

/* Subscribers and layers the stack holds at most. */
#define TT_STACK_MAX_LISTENERS 8

struct tt_stack;

/* A stack with its layers. @opts may be NULL (the defaults); @fn gets
 * every diagnostic (may be NULL). */
struct tt_stack *tt_stack_new(const struct tt_detect_options *opts, tt_diag_fn fn, void *diag_data);
void tt_stack_free(struct tt_stack *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_stack *, tt_stack_free);

/* Adds a layer after the built-in ones; @self is the layer's, not freed
 * by the stack. 0, or -ENOSPC past TT_STACK_MAX_LISTENERS. */
int tt_stack_add_layer(struct tt_stack *s, const struct tt_layer_ops *ops, void *self);
/* A command's callbacks, run after every layer's. 0, or -ENOSPC. */
int tt_stack_subscribe(struct tt_stack *s, const struct tt_model_callbacks *cb, void *data);
/* The libinput layer's callbacks, after those subscribed before. 0, or
 * -ENOSPC past TT_STACK_MAX_LISTENERS. */
int tt_stack_subscribe_li(struct tt_stack *s, const struct tt_li_callbacks *cb, void *data);
/* The Wayland layer's callbacks, after those subscribed before. 0, or
 * -ENOSPC past TT_STACK_MAX_LISTENERS. */
int tt_stack_subscribe_wl(struct tt_stack *s, const struct tt_wl_callbacks *cb, void *data);

void tt_stack_feed(struct tt_stack *s, const struct tt_record *rec);
/* A line the reader refused ("FILE:LINE: what"), a reader warning: they
 * go to the diagnostics like the stack's own. */
void tt_stack_reader_error(struct tt_stack *s, const char *file, const char *message);
void tt_stack_reader_warning(struct tt_stack *s, const char *file, const char *message);
/* End of input: the kernel model ends what is open, then each layer. */
void tt_stack_finish(struct tt_stack *s);

/* The numbers every command prints (detect.h), the XI ownership chains
 * (after finish), the kernel model (its slot state now), the libinput
 * and Wayland layers. */
const struct tt_stats *tt_stack_stats(const struct tt_stack *s);
const struct tt_xi_own *tt_stack_xi_own(const struct tt_stack *s);
struct tt_model *tt_stack_model(struct tt_stack *s);
struct tt_li_model *tt_stack_li(struct tt_stack *s);
struct tt_wl_model *tt_stack_wl(struct tt_stack *s);
const struct tt_li_model *tt_stack_li_const(const struct tt_stack *s);
const struct tt_wl_model *tt_stack_wl_const(const struct tt_stack *s);
