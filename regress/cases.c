/* SPDX-License-Identifier: MIT */
/* The cases of a suite: every recording under each DIR, found the way the
 * readers detect formats (by content), sorted by name, and the shard of
 * them a CI job runs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "reader.h"
#include "regress.h"

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* A case's files share its stem: bug.jsonl.gz, bug.expected.jsonl,
 * bug.regress. */
static char *
case_stem(const char *path)
{
	char *stem = strdup(path);
	char *slash = strrchr(stem, '/');
	char *dot;

	if (ends_with(stem, ".jsonl.gz"))
		stem[strlen(stem) - strlen(".jsonl.gz")] = '\0';
	else if ((dot = strrchr(stem, '.')) && (!slash || dot > slash + 1))
		*dot = '\0';
	return stem;
}

static bool
is_companion(const char *name)
{
	return ends_with(name, ".expected.jsonl") || ends_with(name, ".expected.jsonl.gz") ||
	       ends_with(name, ".regress");
}

static bool
is_recording(const char *path)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;

	return tt_reader_open(path, &r) == 0;
}

static char *
beside(const char *stem, const char *suffix)
{
	char *p = NULL;
	struct stat st;

	if (asprintf(&p, "%s%s", stem, suffix) < 0)
		abort();
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	free(p);
	return NULL;
}

static int
add_case(struct rg_suite *s, const char *path, const char *name)
{
	_cleanup_free_ char *stem = case_stem(path);
	_cleanup_free_ char *sidecar = beside(stem, ".regress");
	struct rg_case c = { 0 };
	int rc;

	if (sidecar && (rc = rg_sidecar_read(sidecar, &c.side)) < 0)
		return rc;
	c.path = strdup(path);
	c.name = strdup(name);
	if (asprintf(&c.bless_path, "%s.expected.jsonl", stem) < 0)
		abort();
	c.expected = beside(stem, ".expected.jsonl");
	if (!c.expected)
		c.expected = beside(stem, ".expected.jsonl.gz");
	s->cases = tt_grow(s->cases, s->ncases, &s->cap, sizeof(*s->cases));
	s->cases[s->ncases++] = c;
	return 0;
}

static int walk(struct rg_suite *s, const char *dir, const char *rel);

static int
visit(struct rg_suite *s, const char *dir, const char *rel, const char *entry)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *name = NULL;
	struct stat st;

	if (entry[0] == '.' || is_companion(entry))
		return 0;
	if (asprintf(&path, "%s/%s", dir, entry) < 0 || asprintf(&name, "%s%s%s", rel, *rel ? "/" : "", entry) < 0)
		abort();
	if (stat(path, &st) < 0)
		return 0;	/* a dangling link is no case */
	if (S_ISDIR(st.st_mode))
		return walk(s, path, name);
	if (!S_ISREG(st.st_mode) || !is_recording(path))
		return 0;
	return add_case(s, path, name);
}

static int
walk(struct rg_suite *s, const char *dir, const char *rel)
{
	struct dirent **list = NULL;
	int n = scandir(dir, &list, NULL, alphasort);
	int rc = 0;

	if (n < 0) {
		rc = -errno;
		tt_error("%s: %s", dir, strerror(-rc));
		return rc;
	}
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = visit(s, dir, rel, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return rc;
}

static int
by_name(const void *a, const void *b)
{
	const struct rg_case *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* A DIR may also be one recording: its name is its file name. */
static int
find_one(struct rg_suite *s, const char *arg)
{
	_cleanup_free_ char *dir = strdup(arg);
	struct stat st;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	if (stat(dir, &st) < 0) {
		int rc = -errno;
		tt_error("%s: %s", arg, strerror(-rc));
		return rc;
	}
	if (S_ISDIR(st.st_mode))
		return walk(s, dir, "");
	if (!is_recording(dir)) {
		tt_error("%s: not a recording in a format touchtape reads", arg);
		return -EPROTO;
	}
	const char *base = strrchr(dir, '/');
	return add_case(s, dir, base ? base + 1 : dir);
}

int
rg_suite_find(struct rg_suite *s, char *const *dirs, size_t ndirs)
{
	for (size_t i = 0; i < ndirs; i++) {
		int rc = find_one(s, dirs[i]);
		if (rc < 0)
			return rc;
	}
	if (s->ncases)
		qsort(s->cases, s->ncases, sizeof(*s->cases), by_name);
	return 0;
}

unsigned
rg_shard_of(const char *name, unsigned n)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	/* FNV's low bits mix poorly: a finaliser spreads them before the
	 * modulo, so small N still split evenly. */
	h ^= h >> 16;
	h *= 0x45d9f3bu;
	h ^= h >> 16;
	return h % n;
}

static void
case_release(struct rg_case *c)
{
	free(c->path);
	free(c->name);
	free(c->expected);
	free(c->bless_path);
	rg_sidecar_release(&c->side);
}

void
rg_suite_shard(struct rg_suite *s, unsigned k, unsigned n)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->ncases; i++) {
		if (rg_shard_of(s->cases[i].name, n) == k - 1)
			s->cases[kept++] = s->cases[i];
		else
			case_release(&s->cases[i]);
	}
	s->ncases = kept;
}

void
rg_suite_release(struct rg_suite *s)
{
	for (size_t i = 0; s && i < s->ncases; i++)
		case_release(&s->cases[i]);
	if (s) {
		free(s->cases);
		memset(s, 0, sizeof(*s));
	}
}
