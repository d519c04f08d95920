/* SPDX-License-Identifier: MIT */
/* A tiny test harness: each check prints what failed, where; the program
 * exits 1 if any failed (automake's harness reads the exit code). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern int tt_test_failures;

#define check(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		tt_test_failures++;					\
	}								\
} while (0)

#define check_int_eq(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
			__FILE__, __LINE__, #a, #b, _a, _b);		\
		tt_test_failures++;					\
	}								\
} while (0)

#define check_str_eq(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || !_b || strcmp(_a, _b) != 0) {			\
		fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
			__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",	\
			_b ? _b : "(null)");				\
		tt_test_failures++;					\
	}								\
} while (0)

#define check_contains(hay, needle) do {				\
	const char *_h = (hay), *_n = (needle);				\
	if (!_h || !strstr(_h, _n)) {					\
		fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", \
			__FILE__, __LINE__, _h ? _h : "(null)", _n);	\
		tt_test_failures++;					\
	}								\
} while (0)

#define RUN(fn) do { fprintf(stderr, "-- %s\n", #fn); fn(); } while (0)

int tt_test_result(void);

/* Writes @len bytes to a new temporary file; returns its path (static
 * storage, overwritten by the next call) or aborts. */
const char *tt_test_tmpfile(const void *data, size_t len);
/* Reads the whole file into a malloc'd, NUL-terminated buffer. */
char *tt_test_slurp(const char *path, size_t *len);
/* The source tree, for test data: $abs_top_srcdir or ".". */
const char *tt_test_srcdir(void);

/* The recordings the corpus tests read: $TT_CORPUS (the whole public
 * corpus) when set, else the project's own test corpus, tests/corpus.
 * Never NULL. */
const char *tt_test_corpus(void);

#include <stdint.h>

/* What reading a whole file through tt_reader gave. */
struct tt_test_read {
	int records;
	int frames;
	int devices;
	int markers;
	int errors;
	int warnings;
	int64_t last_t;		/* time of the last frame */
	int mt;			/* MT protocol of the last device */
	uint32_t slots;
	char first_error[1024];	/* the open failure or the first bad line */
	char first_warning[1024];
	char name[256];		/* name of the last device */
};

/* Reads @path (with an evemu description @companion, or NULL) to the end.
 * Returns 0, or the negative errno of a failed open (counted as one
 * error, its message in first_error). */
int tt_test_read_path(const char *path, const char *companion, struct tt_test_read *res);
