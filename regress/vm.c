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
	char *owned[8];
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

/* The rig's options: the kernel, Xorg for the XI layer, and the host
 * folders the guest writes (the scratch folder is $TMPDIR, shared). */
static void
rig_options(struct vm_cmd *v, const char *kernel, bool xorg, const char *junit, const char *keep)
{
	if (kernel) {
		char *abs = realpath(kernel, NULL);

		push(v, "--kernel");
		push_owned(v, abs ? abs : strdup(kernel));
	}
	if (xorg)
		push(v, "--xorg");
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

static int
run_rig(const char *const *argv, const char *scratch)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* The guest's serial output (its stderr and progress) is
		 * for people: stderr; stdout stays TAP only. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		setenv("TMPDIR", scratch, 1);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "touchtape regress: %s: %s\n", argv[0], strerror(errno));
		_exit(125);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 125;
}

static int
copy_tap(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fflush(stdout);
	return 0;
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
	rig_options(&v, o->kernel, o->xorg, o->junit, o->keep);
	/* sh puts TAP into a file: the serial port mixes stdout and stderr. */
	push(&v, "--");
	push(&v, "/bin/sh");
	push(&v, "-c");
	push(&v, "out=$1; shift; exec \"$@\" >\"$out\"");
	push(&v, "sh");
	push(&v, tap);
	push(&v, self);
	push(&v, "regress");
	inner_args(&v, argc, argv);
	v.argv[v.n] = NULL;
	int rc = run_rig(v.argv, scratch);
	for (size_t i = 0; i < v.nowned; i++)
		free(v.owned[i]);
	if (copy_tap(tap) == 0)
		unlink(tap);
	rmdir(scratch);	/* kept recordings of failures stay in it */
	return vm_status(rc);
}
