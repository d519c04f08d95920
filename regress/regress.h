/* SPDX-License-Identifier: MIT */
/*
 * touchtape regress: a directory of recordings run as a regression suite.
 * cases.c finds the cases and their sidecars (sidecar.c) and picks a
 * shard; run-case.c runs one case in a child of its own (replay, record
 * again, diff, all as this very touchtape binary); report.c writes TAP
 * 14 and JUnit XML; vm.c re-runs the whole command inside the VM rig.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util-mem.h"

/* The layers a case records again (and compares). */
enum rg_layer {
	RG_LAYER_KERNEL = 1 << 0,
	RG_LAYER_XI = 1 << 1,
	RG_LAYER_LIBINPUT = 1 << 2,
	RG_LAYER_HID = 1 << 3,	/* replayed through uhid */
	RG_LAYER_WAYLAND = 1 << 4,	/* what a Wayland client received */
};

/* NAME.regress: what a case overrides (regress(1), SIDECAR FILE). */
struct rg_sidecar {
	char *skip;		/* the reason, or NULL */
	int64_t timeout_us;	/* 0: the default */
	unsigned layers;	/* 0: what the recording has */
	char *diff_args[48];	/* touchtape diff options, NULL-terminated */
	size_t ndiff_args;
	char *xi_grab;		/* record --xi-grab=MODE */
	bool xi_window;		/* record --xi-window */
};

struct rg_case {
	char *path;		/* as found under its DIR */
	char *name;		/* relative to its DIR: the shard key */
	char *expected;		/* NAME.expected.jsonl beside it, or NULL */
	char *bless_path;	/* where --bless writes NAME.expected.jsonl */
	struct rg_sidecar side;
};

struct rg_suite {
	struct rg_case *cases;
	size_t ncases, cap;
};

/* Every case under each of @dirs (sorted by name), their sidecars read.
 * A bad sidecar is said as FILE:LINE: what; returns 0 or a negative
 * errno (-EINVAL for a bad sidecar, -ENOENT for a missing DIR). */
int rg_suite_find(struct rg_suite *s, char *const *dirs, size_t ndirs);
/* Keeps only the cases of shard @k of @n (1-based), by a hash of the
 * name, so that shards 1..N cover every case exactly once. */
void rg_suite_shard(struct rg_suite *s, unsigned k, unsigned n);
void rg_suite_release(struct rg_suite *s);
/* The shard (0..n-1) a case name falls in: FNV-1a, stable everywhere. */
unsigned rg_shard_of(const char *name, unsigned n);

/* Reads @path into @out; 0 or -EINVAL after saying FILE:LINE: what. */
int rg_sidecar_read(const char *path, struct rg_sidecar *out);
void rg_sidecar_release(struct rg_sidecar *s);

enum rg_verdict {
	RG_PASS,
	RG_FAIL,	/* differences */
	RG_ERROR,	/* could not run it: trouble */
	RG_SKIP,
};

struct rg_result {
	enum rg_verdict verdict;
	char *message;		/* one line: why it failed or was skipped */
	char *dir;		/* its kept files, or NULL when removed */
	char *diff_text;	/* diff's output (failures) */
	char *ran;		/* what it ran on (uinput, Xorg, ...), or NULL */
	char *versions;		/* their versions ("Xorg 1.21.1.7"), or NULL */
	char *blessed;		/* --bless: what was written, or NULL */
	const char *kernel;	/* uname -r where it ran (not owned) */
	double seconds;
};

struct rg_run_opts {
	const char *display;	/* XI: an X display, or NULL */
	const char *workdir;	/* the cases' folders go here */
	bool keep_all;		/* --keep: keep passes too */
	bool bless;		/* --bless: write NAME.expected.jsonl from the run */
	const char *kernel;	/* uname -r of this machine */
	struct rg_services *svc;	/* in the VM: starts what cases need, or NULL */
	void (*tick)(void *data);	/* called while a case runs (progress) */
	void *tick_data;
};

/* The progress line on stderr (a terminal): case N of M, the kernel,
 * the time elapsed, the failures so far, the case. */
void rg_progress_line(size_t n, size_t total, const char *kernel, double elapsed, size_t failed, const char *name);

/* CLOCK_MONOTONIC in seconds: elapsed times and deadlines. */
double rg_now_s(void);

/* Set by a stop signal: the running case's group is stopped as at a
 * timeout, and no further case starts. */
extern volatile sig_atomic_t rg_interrupted;

/* The device nodes a case replays through. */
enum rg_node {
	RG_NODE_UINPUT = 1 << 0,
	RG_NODE_UHID = 1 << 1,	/* replay --hid */
};

/* The node @c replays through (reading the recording), or 0 for a case
 * that replays nothing: skipped, unreadable or without frames to compare
 * (each said when the case runs). */
unsigned rg_case_nodes(const struct rg_case *c);

/* Runs @c in its own process group and fills @res. 0, or a negative
 * errno when nothing could be run at all. */
int rg_case_run(const struct rg_case *c, const struct rg_run_opts *o, struct rg_result *res);
void rg_result_release(struct rg_result *r);

/* TAP on @f, one case at a time. @version 14, or 13 for consumers that
 * know no later one: the lines are the same. */
void rg_tap_begin(FILE *f, size_t ncases, int version);
void rg_tap_case(FILE *f, size_t n, const struct rg_case *c, const struct rg_result *r);
/* @s as a YAML scalar on @f (a JSON string, which YAML reads as one). */
void rg_yaml_string(FILE *f, const char *s);
/* JUnit XML of all the results to @path (temp file renamed into place). */
/* Opens the JUnit file before the first case runs, so that a target that
 * cannot be written is said at once (cli/output.h; said on stderr). */
struct tt_output;
int rg_junit_open(const char *path, const struct rg_suite *s, struct tt_output **out);
/* @kernel: uname -r where the suite ran, a property of its testsuite. */
int rg_junit_write(struct tt_output *o, const struct rg_suite *s, const struct rg_result *res, double seconds,
		   const char *kernel);

/* In the VM rig's guest: what the cases need, started by the rig's
 * scripts in @rig (its tests/vm folder) as the first case needing it
 * runs; their output goes to WORKDIR/services.log. */
struct rg_services;
int rg_services_new(const char *rig, const char *workdir, struct rg_services **out);
void rg_services_free(struct rg_services *s);
void rg_services_freep(struct rg_services **s);
/* Starts what @layers (RG_LAYER_*) needs and is not running; *ran says
 * what the case runs on ("uinput, udevd"). 0, or -EIO and *why (both
 * strings the caller's). */
int rg_services_need(struct rg_services *s, unsigned layers, char **ran, char **why);
/* What of @layers runs and its version ("libinput 1.22.1, Xorg
 * 1.21.1.7"), or NULL when nothing versioned runs for them; the caller's. */
char *rg_services_versions(const struct rg_services *s, unsigned layers);
/* Until udev has handled the devices made so far (bounded). */
void rg_services_settle(const struct rg_services *s);
/* Removes the scripts' log (nothing failed: nothing to read in it). */
void rg_services_forget_log(const struct rg_services *s);
/* The X display when Xorg runs, else NULL. */
const char *rg_services_display(const struct rg_services *s);

/* The layers a case's recording holds (RG_LAYER_*), 0 when unreadable
 * or skipped. */
unsigned rg_case_layers(const struct rg_case *c);

/* --bless: @replayed becomes @c's NAME.expected.jsonl (a temporary file
 * renamed into place); *said tells what was written or replaced. 0 or a
 * negative errno. */
int rg_bless(const struct rg_case *c, const char *replayed, char **said);

/* --kernel may be given this many times. */
#define RG_MAX_KERNELS 8

struct rg_vm_opts {
	const char *const *kernels;	/* each --kernel (a version, package, .deb or image) */
	size_t nkernels;	/* 0: the rig's stock kernel */
	bool display;		/* --display given (the guest has its own Xorg) */
	const char *junit, *keep;	/* host folders the guest writes */
	int tap_version;
	unsigned layers;	/* every layer the suite's cases have */
	bool bless;		/* --bless: the DIRs are written */
	char *const *dirs;	/* the suite's DIRs */
	size_t ndirs;
};

/* --vm: the same command (@argv less --vm, --kernel, --display) run
 * inside tests/vm/run, once per kernel; returns regress's exit status
 * (the worst of the kernels'). */
int rg_vm_run(int argc, char **argv, const struct rg_vm_opts *o);

/* Text or an XML attribute value, escaped; control characters XML 1.0
 * cannot hold become '?'. */
void rg_xml_text(FILE *f, const char *s);

/* One kernel's run of the suite in the VM, as the rig left it. */
struct rg_kernel_run {
	const char *arg;	/* --kernel as given ("stock" for none) */
	char *kver;		/* the guest's uname -r, or NULL if it never ran */
	char *tap;		/* its TAP file */
	char *junit;		/* its JUnit file, or NULL */
	int rc;			/* regress's exit status in the guest */
};

/* Several kernels' runs as one report (kernels.c): TAP with one subtest
 * per kernel on @f, the JUnit files merged into @junit (one testsuite
 * per kernel, named by its uname -r; opened before the first boot) when
 * not NULL, and on stderr every
 * case whose verdict differs between kernels. Returns the exit status:
 * the worst of the runs'. */
int rg_kernels_report(FILE *f, const struct rg_kernel_run *runs, size_t n, struct tt_output *junit, int tap_version);
