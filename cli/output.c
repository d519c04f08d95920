/* SPDX-License-Identifier: MIT */
/* Writing output files so that nothing is lost: see output.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "output.h"
#include "util-strings.h"

struct tt_output {
	char *path;		/* where the file ends up; NULL for stdout */
	char *tmp;		/* the temporary beside it; NULL when written in place */
	int fd;
	FILE *stream;
	bool committed;
};

/*
 * The temporary files that exist right now, for the signal handler. The
 * batch commands that write files have no event loop to turn a signal
 * into a clean stop, so the handler does the one thing that cannot wait:
 * unlink(2), which is async-signal-safe (GNU sort does the same). Signals
 * are blocked while the list changes.
 */
#define MAX_PENDING 4
static char *pending[MAX_PENDING];
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void
on_fatal_signal(int sig)
{
	for (size_t i = 0; i < MAX_PENDING; i++) {
		if (pending[i])
			unlink(pending[i]);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_LENGTH(cleanup_signals); i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
install_handlers(void)
{
	static bool installed;
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	if (installed)
		return;
	installed = true;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_LENGTH(cleanup_signals); i++) {
		struct sigaction old;
		/* nohup and friends asked for the signal to be ignored. */
		if (sigaction(cleanup_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

static void
set_pending(const char *old, char *new)
{
	sigset_t mask;

	block_signals(&mask);
	for (size_t i = 0; i < MAX_PENDING; i++) {
		if (pending[i] == old) {
			pending[i] = new;
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
}

bool
tt_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int
tt_output_check_inputs(const char *path, const char *const *inputs)
{
	if (!path || strcmp(path, "-") == 0)
		return 0;
	for (size_t i = 0; inputs && inputs[i]; i++) {
		if (strcmp(inputs[i], "-") == 0 || !tt_same_file(path, inputs[i]))
			continue;
		if (strcmp(path, inputs[i]) == 0)
			tt_error("%s: the output is the input file: refusing to overwrite it", path);
		else
			tt_error("%s: the output is the input file %s (a link to it): refusing to overwrite it",
				 path, inputs[i]);
		return -EEXIST;
	}
	return 0;
}

/* The file a symlink points to, so that the rename replaces the file,
 * not the link. */
static char *
resolve_target(const char *path)
{
	struct stat st;
	char *real;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		return real;
	return tt_strdup(path);
}

/* A new file gets the mode open(2) would give it; a replaced one keeps
 * its own. */
static void
set_mode(int fd, const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0) {
		(void)fchmod(fd, st.st_mode & 07777);
		return;
	}
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

static int
open_temporary(struct tt_output *o)
{
	const char *slash = strrchr(o->path, '/');
	int dirlen = slash ? (int)(slash - o->path) + 1 : 0;
	size_t len = strlen(o->path) + 16;
	_cleanup_free_ char *tmp = tt_zalloc(len);
	sigset_t mask;
	size_t i;

	snprintf(tmp, len, "%.*s.%s.tt-XXXXXX", dirlen, o->path, o->path + dirlen);
	block_signals(&mask);
	for (i = 0; i < MAX_PENDING && pending[i]; i++)
		;
	if (i == MAX_PENDING) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		return -EMFILE;
	}
	o->fd = mkostemp(tmp, O_CLOEXEC);
	if (o->fd < 0) {
		int rc = -errno;
		sigprocmask(SIG_SETMASK, &mask, NULL);
		return rc;
	}
	install_handlers();
	pending[i] = tmp;
	o->tmp = steal(&tmp);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	set_mode(o->fd, o->path);
	return 0;
}

static int
open_in_place(struct tt_output *o)
{
	o->fd = open(o->path, O_WRONLY | O_CLOEXEC);
	return o->fd < 0 ? -errno : 0;
}

/* The file is written beside its place first: a directory that takes no
 * new file (procfs, a missing one, no permission) is what is wrong, not
 * the file. */
static void
report_no_temporary(const char *path, const char *target, int rc)
{
	const char *slash = strrchr(target, '/');
	int dirlen = slash ? (int)(slash - target) + 1 : 0;

	tt_error("%s: cannot create a temporary file in %.*s to write it: %s", path, dirlen ? dirlen : 2,
		 dirlen ? target : "./", strerror(-rc));
}

int
tt_output_open(const char *path, const char *const *inputs, struct tt_output **out)
{
	_cleanup_(tt_output_freep) struct tt_output *o = tt_zalloc(sizeof(*o));
	struct stat st;
	int rc;

	o->fd = -1;
	if (!path || strcmp(path, "-") == 0) {
		o->fd = dup(STDOUT_FILENO);
		if (o->fd < 0) {
			rc = -errno;
			tt_error("<stdout>: %s", strerror(-rc));
			return rc;
		}
		*out = steal(&o);
		return 0;
	}
	rc = tt_output_check_inputs(path, inputs);
	if (rc < 0)
		return rc;
	o->path = resolve_target(path);
	if (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		rc = open_in_place(o);
		if (rc < 0)
			tt_error("%s: cannot write here: %s", path, strerror(-rc));
	} else {
		rc = open_temporary(o);
		if (rc < 0)
			report_no_temporary(path, o->path, rc);
	}
	if (rc < 0)
		return rc;
	*out = steal(&o);
	return 0;
}

int
tt_output_fd(const struct tt_output *o)
{
	return o->fd;
}

FILE *
tt_output_stream(struct tt_output *o)
{
	int fd;

	if (o->stream)
		return o->stream;
	fd = dup(o->fd);
	if (fd < 0)
		return NULL;
	o->stream = fdopen(fd, "w");
	if (!o->stream)
		close(fd);
	return o->stream;
}

const char *
tt_output_name(const struct tt_output *o)
{
	return o->path ? o->path : "<stdout>";
}

static int
close_stream(struct tt_output *o)
{
	FILE *f = o->stream;

	o->stream = NULL;
	if (!f)
		return 0;
	if (fflush(f) != 0 || ferror(f)) {
		int rc = errno ? -errno : -EIO;
		fclose(f);
		return rc;
	}
	return fclose(f) == 0 ? 0 : -errno;
}

/* The rename is only as durable as the directory entry: sync that too. */
static void
sync_directory(const char *path)
{
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	_cleanup_close_ int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0)
		(void)fsync(fd);
}

int
tt_output_commit(struct tt_output *o)
{
	int rc;

	errno = 0;
	rc = close_stream(o);
	if (rc == 0 && o->tmp && fsync(o->fd) < 0)
		rc = -errno;
	if (rc == 0 && o->tmp) {
		int fd = steal_fd(&o->fd);
		if (close(fd) < 0)
			rc = -errno;
	}
	if (rc == 0 && o->tmp && rename(o->tmp, o->path) < 0)
		rc = -errno;
	if (rc < 0) {
		tt_error("%s: cannot write: %s%s", tt_output_name(o), strerror(-rc),
			 o->tmp ? " (the previous file is left as it was)" : "");
		return rc;
	}
	if (o->tmp) {
		sync_directory(o->path);
		set_pending(o->tmp, NULL);
		free(o->tmp);
		o->tmp = NULL;
	}
	o->committed = true;
	return 0;
}

void
tt_output_free(struct tt_output *o)
{
	if (!o)
		return;
	if (o->stream)
		fclose(o->stream);
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		set_pending(o->tmp, NULL);
		free(o->tmp);
	}
	free(o->path);
	free(o);
}
