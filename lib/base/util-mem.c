/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "util-mem.h"

static void
oom(void)
{
	static const char msg[] = "touchtape: out of memory\n";
	ssize_t rc = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)rc;
	abort();
}

void *
tt_zalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *
tt_reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom();
	size_t bytes = n * size;
	void *np = realloc(p, bytes ? bytes : 1);
	if (!np)
		oom();
	return np;
}

void *
tt_grow(void *arr, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 16;
	return tt_reallocarray(arr, *cap, size);
}

char *
tt_strdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		oom();
	return d;
}

char *
tt_strndup(const char *s, size_t n)
{
	char *d = strndup(s ? s : "", n);
	if (!d)
		oom();
	return d;
}
