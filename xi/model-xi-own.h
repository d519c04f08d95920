/* SPDX-License-Identifier: MIT */
/*
 * XI 2.2 ownership chains: the order in which the clients that received
 * a touch owned it, what each decided, and what each waited for.
 *
 * The server offers a touch to its grabbing clients outermost first and
 * then to the listener (a window that selected TouchOwnership); each
 * owner in turn accepts (the chain ends), rejects (the next one owns
 * it) or decides nothing. Every client that studies and rejects adds
 * lag: a stage's ownership delay is the time from the kernel frame that
 * began the touch to its TouchOwnership (or its TouchBegin when it owned
 * from the start), and the earlier stages' decisions are the shares of
 * it spent waiting for each earlier client.
 *
 * Fed from the model's callbacks (lib/analysis/detect.c does it, once for every
 * command): a chain can only be built once every client's sequence of
 * the touch has ended, which may be long after the finger lifted, so the
 * collector keeps one small summary per XI touch until
 * tt_xi_own_finish() (a few dozen bytes a client: an hour of touches
 * fits in a few megabytes).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define TT_XI_CHAIN_MAX 8u	/* clients per touch kept in its chain */

enum tt_xi_decision {
	TT_XI_DECIDED_NONE = 0,	/* owned it, decided nothing (a listener) */
	TT_XI_DECIDED_ACCEPT,
	TT_XI_DECIDED_REJECT,
	/* owned it without a decision while the touch had ended physically
	 * (XITouchPendingEnd seen) or the recording ended */
	TT_XI_DECIDED_PENDING_END,
};

/* What broke the protocol's order at a stage, when anything did. */
enum tt_xi_order {
	TT_XI_ORDER_OK = 0,
	TT_XI_ORDER_BEFORE_REJECT,	/* owned before the previous owner rejected */
	TT_XI_ORDER_AFTER_ACCEPT,	/* owned after an earlier owner accepted */
	TT_XI_ORDER_UNDECIDED,		/* owned though the previous owner never decided */
};

/* What told the client it owned the touch. */
enum tt_xi_owned_by {
	TT_XI_OWNED_BY_BEGIN = 0,	/* its TouchBegin: the owner from the start */
	TT_XI_OWNED_BY_OWNERSHIP,	/* a TouchOwnership event */
	/* nothing (a grab that did not select TouchOwnership): the
	 * previous owner's reject handed it over */
	TT_XI_OWNED_BY_PREVIOUS,
	/* the emulated ButtonPress of a pointer grab or selection */
	TT_XI_OWNED_BY_BUTTON_PRESS,
};

/* One client's stage in a chain. Times are µs of the recording; -1 where
 * they do not apply. */
struct tt_xi_stage {
	char client[32];
	enum tt_xi_decision decision;
	int64_t owned_us;	/* see owned_by */
	enum tt_xi_owned_by owned_by;
	size_t owned_line;
	int64_t decided_us;	/* its accept/reject, -1 */
	size_t decided_line;
	int64_t delay_us;	/* owned_us - the chain's base_us */
	int64_t decision_us;	/* decided_us - owned_us (0 for an early
				   decision, made before it owned the touch), -1 */
	enum tt_xi_order order;
};

/* The chain of one XI touch. */
struct tt_xi_chain {
	int32_t sourceid;	/* XI slave device */
	uint32_t touchid;
	/* The kernel touch it was linked to (base_us is its begin), or none
	 * (base_us is the first TouchBegin any client got). */
	bool kernel;
	uint32_t device;	/* evdev record id */
	uint64_t kernel_serial;	/* tt_ktouch.serial */
	int32_t slot, tracking_id;
	int64_t base_us;
	size_t base_line;
	size_t nstages;
	struct tt_xi_stage stages[TT_XI_CHAIN_MAX];
};

struct tt_xi_own;

struct tt_xi_own *tt_xi_own_new(void);
void tt_xi_own_free(struct tt_xi_own *o);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_xi_own *, tt_xi_own_free);

/* From the model's callbacks of the same names. */
void tt_xi_own_ownership(struct tt_xi_own *o, const struct tt_xtouch *t, const struct tt_xi_event *ev,
			 size_t line);
void tt_xi_own_xend(struct tt_xi_own *o, const struct tt_xtouch *t);
void tt_xi_own_kend(struct tt_xi_own *o, const struct tt_ktouch *k);
/* Every XI record: the recorder's AcceptTouch/RejectTouch (a grab may
 * decide after its TouchEnd, the finger lifted first, when the model has
 * let its sequence go), which clients got TouchOwnership, the TouchBegins
 * and the pointer events emulated from a touch, whose client owns that
 * touch (a pointer grab or selection: it gets no touch events). */
void tt_xi_own_event(struct tt_xi_own *o, const struct tt_xi_event *ev, size_t line);
/* Builds the chains, in the order their touches began. */
void tt_xi_own_finish(struct tt_xi_own *o);

/* The chains after tt_xi_own_finish(): @n of them, valid until freed. */
const struct tt_xi_chain *tt_xi_own_chains(const struct tt_xi_own *o, size_t *n);

/* "accept", "reject", "none", "pending-end" and their letters for the
 * chain line: A, R, O (owned), P. */
const char *tt_xi_decision_name(enum tt_xi_decision d);
char tt_xi_decision_letter(enum tt_xi_decision d);
const char *tt_xi_order_name(enum tt_xi_order o);
/* "touch-begin", "touch-ownership", "previous-decision", "button-press". */
const char *tt_xi_owned_by_name(enum tt_xi_owned_by b);

/* Median and p95 per stage over every chain: a stage is a position in
 * the chain and the client there ("1 grab1", "2 grab2", "3 window"). */
struct tt_xi_stage_stats {
	uint32_t position;	/* 1-based */
	char client[32];
	uint64_t count;		/* chains with this stage */
	int64_t median_delay_us, p95_delay_us;
	uint64_t ndecisions;	/* of them, decided (accept or reject) */
	int64_t median_decision_us, p95_decision_us;	/* -1 when ndecisions is 0 */
	uint64_t decisions[4];	/* per enum tt_xi_decision */
};

/* Fills @out (up to @max, in position then first-seen order); returns how
 * many stages there are (may be more than @max). */
size_t tt_xi_own_stage_stats(const struct tt_xi_own *o, struct tt_xi_stage_stats *out, size_t max);

/* The chain on one line, "grab1 R +31 ms → grab2 R +63 ms → window O":
 * each stage's client and decision letter, and for an accept or a
 * reject its time from the chain's base (when it took effect: an early
 * decision once the client owned the touch), rounded to the millisecond;
 * " -> " for the arrow unless @utf8. Truncated to @size. */
void tt_xi_chain_format(const struct tt_xi_chain *c, bool utf8, char *buf, size_t size);
