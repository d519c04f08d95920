/* SPDX-License-Identifier: MIT */
/*
 * Inside --verify (verify.h): the devices read back and their two streams
 * of frames, what is expected and what was delivered, shared by the one
 * comparison (verify.c) and the two ways to expect (verify-written.c,
 * hid-verify.c). Not for the rest of replay.
 */
#pragma once

#include "evdev-capture.h"
#include "hid-player.h"
#include "verify.h"

struct rp_vframe {
	int64_t tag;		/* expected, WRITTEN: the player's tag; else -1 */
	int64_t time_us;	/* delivered: kernel time */
	size_t line;		/* expected, RECORDED: the recording's line */
	size_t first;		/* index into the stream's events */
	size_t n;
};

struct rp_vstream {
	struct rp_evbuf ev;
	struct rp_vframe *frames;
	size_t n, cap;
};

/* Appends @vf, whose events are in @s already. */
void rp_vstream_add(struct rp_vstream *s, struct rp_vframe vf);
/* Appends @vf (its .first and .n set here) with its @n events. */
void rp_vstream_push(struct rp_vstream *s, struct rp_vframe vf, const struct input_event *ev,
		     size_t n);

/* One evdev device read back. */
struct rp_vreader {
	struct rp_verify *v;
	uint32_t dev;		/* the schedule's device index */
	uint32_t id;		/* the recorded evdev device it replays */
	char node[32];
	struct tt_capture *cap;
	struct tt_loop_source *src;
	struct rp_vstream expected, delivered;
	size_t dropped;		/* SYN_DROPPED seen by this reader */
	size_t lift_from;	/* delivered frames from here are the lift's */
	struct rp_kmodel model;	/* WRITTEN */
	bool modelled;
};

struct rp_written;	/* WRITTEN: the anomalies of both streams */

struct rp_verify {
	enum rp_verify_kind kind;
	const struct rp_schedule *s;		/* WRITTEN */
	const struct rp_hid_schedule *hs;	/* RECORDED */
	struct tt_loop *loop;
	struct rp_vreader **readers;		/* WRITTEN: one per device, NULL until attached */
	size_t nreaders;
	/* Reasons counted as the expected frames were made. */
	size_t reasons[RP_R_COUNT];
	struct rp_written *w;
	struct rp_verify_result res;		/* after conclude */
};

/* A verify of @kind with @nreaders slots (more are appended). */
struct rp_verify *rp_verify_alloc(enum rp_verify_kind kind, size_t nreaders);
/* Opens @node as recorded device @id into a new reader at @slot (the
 * next one when SIZE_MAX) and reads it from @loop. 0 or a negative
 * errno; *@out only on success. */
int rp_verify_open(struct rp_verify *v, size_t slot, const char *node, uint32_t id,
		   struct tt_loop *loop, struct rp_vreader **out);

/* verify-written.c: the anomalies of the expected and delivered streams
 * and the kernel model's expected frames. */
struct rp_written *rp_written_new(const struct rp_schedule *s);
void rp_written_free(struct rp_written *w);
void rp_written_delivered(struct rp_verify *v, const struct rp_vreader *r, const struct tt_frame *f);
/* Prints and counts in @res the anomalies the delivery has beyond what
 * was expected. */
void rp_written_anomalies(struct rp_verify *v, FILE *out, struct rp_verify_result *res);
