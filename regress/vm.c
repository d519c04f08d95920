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
rig_options(struct vm_cmd *v, const struct rg_vm_opts *o)
{
	const char *kernel = o->kernel;
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

/* regress's own arguments less --vm and --kernel; --display becomes the
 * guest's Xorg. */
static void
inner_args(struct vm_cmd *v, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--vm") == 0 || strncmp(argv[i], "--kernel=", 9) == 0 ||
		    strncmp(argv[i], "--display=", 10) == 0)
			continue;
		if (strcmp(argv[i], "--kernel") == 0 || strcmp(argv[i], "--display") == 0) {
			i++;
			continue;
		}
		push(v, argv[i]);
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

int
rg_vm_run(int argc, char **argv, const struct rg_vm_opts *o)
{
	const char *rig = find_rig();
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct vm_cmd v = { .n = 0 };
	_cleanup_free_ char *scratch = NULL;
	_cleanup_free_ char *tap = NULL;
	_cleanup_free_ char *progress = NULL;
	const char *tmp = getenv("TMPDIR");

	if (!rig || len < 0)
		return TT_EXIT_TROUBLE;
	self[len] = '\0';
	if (asprintf(&scratch, "%s/touchtape-regress-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0 ||
	    !mkdtemp(scratch) || asprintf(&tap, "%s/tap", scratch) < 0) {
		tt_error("a scratch folder: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	push(&v, rig);
	rig_options(&v, o);
	/* sh puts TAP into a file: the serial port mixes stdout and stderr. */
	push(&v, "--");
	push(&v, "/usr/bin/env");
	push_owned(&v, rig_dir_env(rig));
	push(&v, "/bin/sh");
	push(&v, "-c");
	push(&v, "out=$1; shift; exec \"$@\" >\"$out\"");
	push(&v, "sh");
	push(&v, tap);
	push(&v, self);
	push(&v, "regress");
	inner_args(&v, argc, argv);
	v.argv[v.n] = NULL;
	if (isatty(STDERR_FILENO) && !getenv("CI") && asprintf(&progress, "%s/progress", scratch) < 0)
		abort();
	int rc = run_rig(v.argv, scratch, progress);
	for (size_t i = 0; i < v.nowned; i++)
		free(v.owned[i]);
	if (copy_tap(tap, rc) == 0)
		unlink(tap);
	if (progress)
		unlink(progress);
	rmdir(scratch);	/* kept recordings of failures stay in it */
	return vm_status(rc);
}
