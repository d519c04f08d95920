/* SPDX-License-Identifier: MIT */
/*
 * Scoped cleanup helpers, so error paths need no goto ladders.
 *
 * Declare one variable per line with its cleanup attribute and hand
 * ownership out with steal():
 *
 *	_cleanup_free_ char *buf = malloc(n);
 *	...
 *	*out = steal(&buf);
 *
 * Never jump (goto) over a cleanup variable's declaration: the compiler
 * would run its cleanup on an uninitialised value. -Wjump-misses-init and
 * clang both catch that; CODING_STYLE.md says more.
 */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(fn) __attribute__((cleanup(fn)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _nodiscard_ __attribute__((warn_unused_result))

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

static inline void
freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void
closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;	/* close() must not clobber the caller's errno */
		close(*fd);
		errno = saved;
	}
}
#define _cleanup_close_ _cleanup_(closep)

static inline void
fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Declares a cleanup function NAME##p for a type's NULL-safe free function. */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, func)		\
	static inline void func##p(type *p)		\
	{						\
		if (*p)					\
			func(*p);			\
	}

/* Returns *p and sets *p to NULL: ownership leaves the cleanup scope. */
static inline void *
steal_ptr(void *p)
{
	void **pp = p;
	void *v = *pp;
	*pp = NULL;
	return v;
}
#define steal(p) ((__typeof__(*(p)))steal_ptr(p))

static inline int
steal_fd(int *fd)
{
	int v = *fd;
	*fd = -1;
	return v;
}

/* Allocation failure is not a condition this tool recovers from. */
void *tt_zalloc(size_t size);
void *tt_reallocarray(void *p, size_t n, size_t size);
/* @arr (of *@cap elements of @size bytes) with room for one more after
 * its @n used ones: doubled (16 at first) when full, else as it is. */
void *tt_grow(void *arr, size_t n, size_t *cap, size_t size);

/* qsort for a list that may be empty: an empty list's array is often
 * NULL, and qsort(NULL, 0, ...) is undefined. */
static inline void
tt_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}
char *tt_strdup(const char *s);
char *tt_strndup(const char *s, size_t n);
