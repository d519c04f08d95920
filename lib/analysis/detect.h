/* SPDX-License-Identifier: MIT */
/*
 * One pass over a recording that every command shares: the semantic
 * checker (checker.h) and the model-based detectors (jumps, Type A
 * contact-count flicker, BTN_TOUCH/BTN_TOOL_* against the touches down,
 * touches still down at the end, kernel touches X never delivered, XI
 * touches that never ended or whose ownership never resolved) report
 * one stream of struct tt_diag (diag.h); and the numbers every command
 * prints (struct tt_stats) are counted here, once.
 *
 * It is a layer of the stack (stack.h): the stack feeds it every record
 * and its kernel model's callbacks, before any other layer's and any
 * command's (struct tt_ktouch.user and tt_xtouch.user stay the
 * commands').
 *
 * After a SYN_DROPPED the slots are unknown until the resync: a touch
 * that moved while events were lost did not jump.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "model.h"
#include "timeline.h"
#include "util-stats.h"

/* libinput's touchpad jump detection (tp_detect_jumps) calls a movement
 * of more than 20 mm within one ~12 ms frame a jump. */
#define TT_DETECT_DEFAULT_JUMP_MM 20.0

struct tt_detect_options {
	double jump_mm;		/* 0: TT_DETECT_DEFAULT_JUMP_MM */
	double jump_units;	/* devices without resolution; 0: off */
	bool no_link;		/* do not pair kernel and XI touches */
	int64_t link_window_us;	/* 0: the model's default */
	int64_t only_device;	/* evdev record id, or -1 for all */
};

/* The numbers of one evdev device. */
struct tt_stats_device {
	uint32_t id;
	uint64_t frames, events, touch_sequences, syn_dropped;
	uint32_t max_simultaneous;
	int64_t first_us, last_us;	/* of its frames */
	bool have_time;
};

/* HID-to-kernel latencies (kernel touch begin - HID contact begin) of
 * the contacts paired with a kernel touch, and those no kernel touch
 * came for (of HID devices that list evdev devices). */
struct tt_stats_hid_links {
	uint64_t linked, not_delivered;
	int64_t median_latency_us, p95_latency_us;	/* meaningful when linked */
	uint64_t frames;	/* reports paired with the evdev frame they produced */
};

/* The numbers of one HID device. */
struct tt_stats_hid {
	uint32_t id;
	uint64_t reports, contacts;	/* contacts: HID contact sequences */
	int64_t first_us, last_us;	/* of its reports */
	bool have_time;
	/* Intervals between reports while a contact is down, like the
	 * frame intervals while touching: intervals.n counts them as they
	 * come. Its buckets belong to the pass (freed with the stack; a
	 * copy of the numbers reads n, never the buckets). */
	struct tt_interval_hist intervals;
	int64_t median_interval_us, p95_interval_us;	/* meaningful when intervals.n */
	struct tt_stats_hid_links links;
};

/* XI touch sequences one client received. */
struct tt_stats_client {
	char client[32];
	uint64_t touch, raw;
};

/* The shared numbers: every command that prints one of these prints it
 * from here, under the same name. */
struct tt_stats {
	int64_t first_us, last_us;	/* over every timed record: frames, XI
					   events, markers (start and stop) */
	bool have_time;
	uint64_t frames, events, xi_events;
	struct tt_stats_device devs[TT_MAX_DEVICES];
	size_t ndevs;
	struct tt_stats_client clients[16];
	size_t nclients;
	uint64_t outcomes[TT_OWN_COUNT];	/* regular (non-raw) XI sequences */
	uint64_t linked, not_delivered;
	int64_t latency_sum_us;
	uint64_t diags[TT_CHECK_COUNT];	/* per kind, as reported */
	uint64_t hid_reports;
	struct tt_stats_hid hids[TT_MAX_DEVICES];
	size_t nhids;
	struct tt_stats_hid_links hid_links;	/* over every HID device */
};

/* first_us..last_us, 0 without timed records. */
int64_t tt_stats_duration(const struct tt_stats *s);
uint64_t tt_stats_diag_total(const struct tt_stats *s);
const struct tt_stats_device *tt_stats_device(const struct tt_stats *s, uint32_t id);
const struct tt_stats_hid *tt_stats_hid(const struct tt_stats *s, uint32_t id);

/* The diagnostics and numbers: the stack's first layer (stack.h), which
 * builds it; commands reach it through the stack. */
struct tt_detect;
struct tt_layer_ops;

/* @model is the stack's, asked about the slot state; @fn gets every
 * diagnostic. @opts may be NULL for the defaults. */
struct tt_detect *tt_detect_new(const struct tt_detect_options *opts, struct tt_model *model,
				tt_diag_fn fn, void *diag_data);
void tt_detect_free(struct tt_detect *d);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_detect *, tt_detect_free);
/* Its layer: the stack adds it first, with the detect as self. */
const struct tt_layer_ops *tt_detect_layer(void);
/* The function another layer reports its diagnostics through, with the
 * detect as data: they are filtered, counted and passed on like its own. */
tt_diag_fn tt_detect_check_fn(void);

/* A line the reader refused ("FILE:LINE: what"), a reader warning. */
void tt_detect_reader_error(struct tt_detect *d, const char *file, const char *message);
void tt_detect_reader_warning(struct tt_detect *d, const char *file, const char *message);

const struct tt_stats *tt_detect_stats(const struct tt_detect *d);
/* The XI ownership chains (xi/model-xi-own.h), after the stack finished. */
struct tt_xi_own;
const struct tt_xi_own *tt_detect_xi_own(const struct tt_detect *d);

/* The numbers as JSON members (no braces): start_us, end_us,
 * duration_us, frames, events, xi_events, hid_reports,
 * xi_touch_sequences (per client: touch, raw), ownership (per outcome),
 * links (linked, not_delivered, mean_latency_us), hid_links (linked,
 * not_delivered, median_latency_us, p95_latency_us), anomaly_counts
 * (total, per kind). */
struct tt_json_emit;
void tt_stats_json(const struct tt_stats *s, struct tt_json_emit *j);
/* A device's: frames, events, touch_sequences, max_simultaneous,
 * syn_dropped, duration_us. */
void tt_stats_device_json(const struct tt_stats_device *sd, struct tt_json_emit *j);
/* A HID device's: reports, contacts, duration_us, report_interval_us
 * (count, median, p95, or null), report_rate_hz, links. */
void tt_stats_hid_json(const struct tt_stats_hid *sh, struct tt_json_emit *j);
/* Its text lines, under @name. */
void tt_stats_hid_text(const struct tt_stats_hid *sh, const char *name, FILE *out);
/* Text: the XI lines (sequences per client, ownership outcomes, links),
 * nothing without XI touches; the anomaly counts per kind. */
void tt_stats_xi_text(const struct tt_stats *s, FILE *out);
void tt_stats_anomalies_text(const struct tt_stats *s, FILE *out);
