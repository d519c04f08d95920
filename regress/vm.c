/* SPDX-License-Identifier: MIT */
/* regress --vm: the same command run inside the VM rig of the source tree
 * touchtape was built in (tests/vm/run), which boots a stock or given
 * kernel over the host's own root filesystem, so this binary, the suite
 * and the outputs keep their paths. The rig is not installed: an
 * installed touchtape finds it through TOUCHTAPE_VM_RIG or says that
 * --vm needs the source tree. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "output.h"
#include "regress.h"

#ifndef TT_VM_RIG
#define TT_VM_RIG ""
#endif

static const char *
find_rig(void)
{
	const char *rig = getenv("TOUCHTAPE_VM_RIG");

	if (!rig || !*rig)
		rig = TT_VM_RIG;
	if (*rig && access(rig, X_OK) == 0)
		return rig;
	tt_error("--vm needs the VM rig of touchtape's source tree (tests/vm/run), not found%s%s: run the "
		 "touchtape built in the tree, or set TOUCHTAPE_VM_RIG to its tests/vm/run",
		 *rig ? " at " : "", rig);
	return NULL;
}

/* The folder a path is in, made absolute, for the rig's --rw. */
static char *
parent_dir(const char *path)
{
	_cleanup_free_ char *copy = strdup(path);

	return realpath(dirname(copy), NULL);
}

struct vm_cmd {
	const char *argv[256];
	size_t n;
	char *owned[64];
	size_t nowned;
};

static void
push(struct vm_cmd *v, const char *arg)
{
	if (v->n < ARRAY_LENGTH(v->argv) - 1)
		v->argv[v->n++] = arg;
}

static void
push_owned(struct vm_cmd *v, char *arg)
{
	if (arg && v->nowned < ARRAY_LENGTH(v->owned)) {
		v->owned[v->nowned++] = arg;
		push(v, arg);
	}
}

/* The rig's options: the kernel, a screen for Weston when a case has a
 * Wayland layer (the guest starts its servers itself, as cases need
 * them), and the host folders the guest writes (the scratch folder is
 * $TMPDIR, shared). */
static void
rig_options(struct vm_cmd *v, const struct rg_vm_opts *o, const char *kernel)
{
	const char *junit = o->junit;
	const char *keep = o->keep;

	if (kernel) {
		char *abs = realpath(kernel, NULL);

		push(v, "--kernel");
		push_owned(v, abs ? abs : strdup(kernel));
	}
	if (o->layers & RG_LAYER_WAYLAND)
		push(v, "--vga");
	if (!getenv("TT_VM_TIMEOUT")) {
		push(v, "--timeout");
		push(v, "3600");
	}
	/* The guest can only write where the host folder exists. */
	if (keep && mkdir(keep, 0755) < 0 && errno != EEXIST)
		tt_warning("%s: %s", keep, strerror(errno));
	char *dirs[2] = { keep ? realpath(keep, NULL) : NULL, junit ? parent_dir(junit) : NULL };
	for (size_t i = 0; i < ARRAY_LENGTH(dirs); i++) {
		if (dirs[i]) {
			push(v, "--rw");
			push_owned(v, dirs[i]);
		}
	}
	/* --bless writes beside the cases. */
	for (size_t i = 0; o->bless && i < o->ndirs; i++) {
		char *abs = realpath(o->dirs[i], NULL);
		if (abs) {
			push(v, "--rw");
			push_owned(v, abs);
		}
	}
}

/* With several kernels each run writes its own JUnit file and keeps its
 * files in a folder of its own: these replace the values of --junit and
 * --keep (NULL: as given). */
struct inner_subst {
	const char *junit, *keep;
	const char *progress;	/* the guest's progress file (a terminal), or NULL */
};

/* Option @name's value @arg, or its replacement @with. */
static void
push_value(struct vm_cmd *v, const char *name, const char *arg, const char *with)
{
	push(v, name);
	push(v, with ? with : arg);
}

/* regress's own arguments less --vm and --kernel; --display becomes the
 * guest's Xorg. */
static void
inner_args(struct vm_cmd *v, int argc, char **argv, const struct inner_subst *sub)
{
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq && strncmp(argv[i], "--", 2) == 0 ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : "");
		bool takes = !eq && i + 1 < argc;

		if (strcmp(argv[i], "--vm") == 0)
			continue;
		if (strncmp(argv[i], "--kernel", len) == 0 && len == 8) {
			i += takes;
		} else if (strncmp(argv[i], "--display", len) == 0 && len == 9) {
			i += takes;
		} else if (strncmp(argv[i], "--junit", len) == 0 && len == 7) {
			push_value(v, "--junit", val, sub->junit);
			i += takes;
		} else if (strncmp(argv[i], "--keep", len) == 0 && len == 6) {
			push_value(v, "--keep", val, sub->keep);
			i += takes;
		} else {
			push(v, argv[i]);
		}
	}
}

/* The guest's progress (its file on the shared scratch folder: case N
 * of M, failures, kernel, seconds into the suite, the case) as the last
 * line of this terminal; nothing once the guest removed it. */
static bool
show_progress(const char *file)
{
	_cleanup_fclose_ FILE *f = fopen(file, "re");
	char kernel[128];
	char name[1024];
	size_t n, total, failed;
	double elapsed;

	if (!f || fscanf(f, "%zu %zu %zu %127s %lf\n", &n, &total, &failed, kernel, &elapsed) != 5 ||
	    !fgets(name, sizeof(name), f))
		return false;
	name[strcspn(name, "\n")] = '\0';
	rg_progress_line(n, total, kernel, elapsed, failed, name);
	return true;
}

/* The rig's output (the guest's console) passed on from @fd, with the
 * progress line kept below it: cleared before each piece, drawn again
 * after. */
static int
relay_rig(pid_t pid, int fd, const char *progress)
{
	bool drawn = false;
	char buf[4096];
	int st;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int r = poll(&pfd, 1, 500);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0) {
			ssize_t len = read(fd, buf, sizeof(buf));
			if (len <= 0)
				break;
			if (drawn)
				fputs("\r\033[K", stderr);
			fwrite(buf, 1, (size_t)len, stderr);
			drawn = false;
		}
		if (show_progress(progress)) {
			drawn = true;
		} else if (drawn) {
			fputs("\r\033[K", stderr);
			drawn = false;
		}
		fflush(stderr);
	}
	if (drawn)
		fputs("\r\033[K", stderr);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}

static int
wait_rig(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}

/* The rig, its output on stderr (stdout stays TAP only); on a terminal
 * through a pipe, so the progress line stays below it. */
static int
run_rig(const char *const *argv, const char *scratch, const char *progress)
{
	int out[2] = { -1, -1 };
	pid_t pid;

	if (progress && pipe2(out, O_CLOEXEC) < 0)
		progress = NULL;
	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		dup2(progress ? out[1] : STDERR_FILENO, STDOUT_FILENO);
		if (progress)
			dup2(out[1], STDERR_FILENO);
		setenv("TMPDIR", scratch, 1);
		if (progress)
			setenv("TT_REGRESS_PROGRESS", progress, 1);
		else
			unsetenv("TT_REGRESS_PROGRESS");
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "touchtape regress: %s: %s\n", argv[0], strerror(errno));
		_exit(125);
	}
	if (!progress)
		return wait_rig(pid);
	close(out[1]);
	int rc = relay_rig(pid, out[0], progress);
	close(out[0]);
	return rc;
}

/* The guest's TAP; none (the VM did not boot, the lock could not be
 * taken): a TAP stream that says no case ran, for the consumer. */
static int
copy_tap(const char *path, int rc)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;
	size_t total = 0;

	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		fwrite(buf, 1, n, stdout);
		total += n;
	}
	if (total == 0 && rc <= TT_EXIT_TROUBLE)
		printf("TAP version 14\nBail out! no case ran: touchtape regress in the VM exited %d (said above)\n", rc);
	else if (total == 0)
		printf("TAP version 14\nBail out! no case ran: the VM rig failed (status %d)\n", rc);
	fflush(stdout);
	return f ? 0 : -ENOENT;
}

/* TT_REGRESS_SERVICES=the rig's folder: the guest's regress starts
 * what each case needs with the rig's scripts. */
static char *
rig_dir_env(const char *rig)
{
	_cleanup_free_ char *copy = strdup(rig);
	char *env = NULL;

	if (asprintf(&env, "TT_REGRESS_SERVICES=%s", dirname(copy)) < 0)
		abort();
	return env;
}

static int
vm_status(int rc)
{
	if (rc <= TT_EXIT_TROUBLE)
		return rc;
	if (rc == 124)
		tt_error("--vm: the VM ran past its timeout (TT_VM_TIMEOUT)");
	else if (rc == 77)
		tt_error("--vm: QEMU cannot start here");
	else
		tt_error("--vm: the VM rig failed (status %d)", rc);
	return TT_EXIT_TROUBLE;
}

/* The guest's side: its uname -r into OUT.kver, "@KVER@" in any
 * argument replaced by it (--keep's folder per kernel), regress's TAP
 * into OUT (the serial port mixes stdout and stderr). */
static const char guest_sh[] =
	"out=$1; shift; k=$(uname -r); printf '%s\\n' \"$k\" >\"$out.kver\"; n=$#; "
	"while [ \"$n\" -gt 0 ]; do a=$1; shift; case $a in *@KVER@*) a=${a%%@KVER@*}$k${a#*@KVER@};; esac; "
	"set -- \"$@\" \"$a\"; n=$((n - 1)); done; exec \"$@\" >\"$out\"";

/* Reads the one line of @path (the guest's uname -r), or NULL. */
static char *
read_line(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char buf[256];

	if (!f || !fgets(buf, sizeof(buf), f))
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return *buf ? strdup(buf) : NULL;
}

/* One boot of the rig: the suite on @kernel (NULL: the stock one),
 * its TAP into @r->tap; fills @r->kver and @r->rc. */
static void
run_kernel(const char *rig, const char *self, int argc, char **argv, const struct rg_vm_opts *o,
	   const struct inner_subst *sub, const char *kernel, const char *scratch, struct rg_kernel_run *r)
{
	struct vm_cmd v = { .n = 0 };
	_cleanup_free_ char *kfile = NULL;

	push(&v, rig);
	rig_options(&v, o, kernel);
	push(&v, "--");
	push(&v, "/usr/bin/env");
	push_owned(&v, rig_dir_env(rig));
	push(&v, "/bin/sh");
	push(&v, "-c");
	push(&v, guest_sh);
	push(&v, "sh");
	push(&v, r->tap);
	push(&v, self);
	push(&v, "regress");
	inner_args(&v, argc, argv, sub);
	v.argv[v.n] = NULL;
	r->rc = run_rig(v.argv, scratch, sub->progress);
	for (size_t i = 0; i < v.nowned; i++)
		free(v.owned[i]);
	if (asprintf(&kfile, "%s.kver", r->tap) < 0)
		abort();
	r->kver = read_line(kfile);
	unlink(kfile);
}

static char *
scratch_file(const char *scratch, const char *name, size_t i)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s.%zu", scratch, name, i) < 0)
		abort();
	return p;
}

/* Each kernel in turn, then one report of them all. */
static int
run_kernels(const char *rig, const char *self, int argc, char **argv, const struct rg_vm_opts *o,
	    const char *scratch, const char *progress)
{
	struct rg_kernel_run runs[RG_MAX_KERNELS] = { 0 };
	_cleanup_free_ char *keep = NULL;
	_cleanup_(tt_output_freep) struct tt_output *junit = NULL;
	const char *const no_inputs[] = { NULL };
	int rc;

	/* A report that cannot be written is said before the first boot. */
	if (o->junit && tt_output_open(o->junit, no_inputs, &junit) < 0)
		return TT_EXIT_TROUBLE;
	if (o->keep && asprintf(&keep, "%s/@KVER@", o->keep) < 0)
		abort();
	for (size_t i = 0; i < o->nkernels && !rg_interrupted; i++) {
		struct rg_kernel_run *r = &runs[i];
		r->arg = o->kernels[i];
		r->tap = scratch_file(scratch, "tap", i);
		r->junit = o->junit ? scratch_file(scratch, "junit.xml", i) : NULL;
		struct inner_subst sub = { r->junit, keep, progress };
		tt_info("--vm: kernel %zu of %zu: %s", i + 1, o->nkernels, r->arg);
		run_kernel(rig, self, argc, argv, o, &sub, r->arg, scratch, r);
		r->rc = vm_status(r->rc);
	}
	rc = rg_kernels_report(stdout, runs, o->nkernels, junit, o->tap_version);
	for (size_t i = 0; i < o->nkernels; i++) {
		if (runs[i].tap)
			unlink(runs[i].tap);
		if (runs[i].junit)
			unlink(runs[i].junit);
		free(runs[i].tap);
		free(runs[i].junit);
		free(runs[i].kver);
	}
	return rc;
}

int
rg_vm_run(int argc, char **argv, const struct rg_vm_opts *o)
{
	const char *rig = find_rig();
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	_cleanup_free_ char *scratch = NULL;
	_cleanup_free_ char *progress = NULL;
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (!rig || len < 0)
		return TT_EXIT_TROUBLE;
	self[len] = '\0';
	if (asprintf(&scratch, "%s/touchtape-regress-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0 ||
	    !mkdtemp(scratch)) {
		tt_error("a scratch folder: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	if (isatty(STDERR_FILENO) && !getenv("CI") && asprintf(&progress, "%s/progress", scratch) < 0)
		abort();
	if (o->nkernels > 1) {
		rc = run_kernels(rig, self, argc, argv, o, scratch, progress);
	} else {
		struct rg_kernel_run r = { .tap = scratch_file(scratch, "tap", 0) };
		struct inner_subst sub = { NULL, NULL, progress };
		run_kernel(rig, self, argc, argv, o, &sub, o->nkernels ? o->kernels[0] : NULL, scratch, &r);
		if (copy_tap(r.tap, r.rc) == 0)
			unlink(r.tap);
		free(r.tap);
		free(r.kver);
		rc = vm_status(r.rc);
	}
	if (progress)
		unlink(progress);
	rmdir(scratch);	/* kept recordings of failures stay in it */
	return rc;
}
