/* SPDX-License-Identifier: MIT */
/*
 * Grading profiles: "key = value" lines, '#' comments. The keys are name,
 * title and source (repeatable), and METRIC.min / METRIC.max with a number
 * in the metric's unit (the unit may follow it); "edge-reach" sets the four
 * edges at once and report-rate*.min may be "refresh", the display's
 * refresh rate. Profile files are untrusted: every fault is refused with
 * FILE:LINE and what is wrong.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grade.h"
#include "util-mem.h"
#include "util-strings.h"

/* grade/builtin-profiles.c, made from grade/profiles/ at build time. */
struct tt_grade_builtin {
	const char *name;
	const char *text;
};
extern const struct tt_grade_builtin tt_grade_builtins[];

/* A profile file is a few dozen lines; more is not a profile. */
#define PROFILE_MAX_BYTES (64 * 1024)

void
tt_grade_profile_free(struct tt_grade_profile *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->title);
	free(p->source);
	free(p);
}

static int
fail(char **error, const char *file, size_t line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (asprintf(error, "%s:%zu: %s", file, line, what) < 0)
		*error = NULL;
	return -EINVAL;
}

static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* "0.5", "0.5 mm", "60Hz": the number, and the unit when one follows. */
static int
parse_number(char *value, enum tt_grade_metric m, double *out, const char **what)
{
	const char *unit = tt_grade_metric_unit(m);
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (end == value || errno || !isfinite(v) || v < 0)
		return *what = "is not a number of 0 or more", -EINVAL;
	end = trim(end);
	if (*end && strcmp(end, unit) != 0)
		return *what = "has a unit the metric is not measured in", -EINVAL;
	*out = v;
	return 0;
}

static int
set_limit(struct tt_grade_limit *l, bool is_min, char *value, enum tt_grade_metric m, const char **what)
{
	double v;

	if (is_min && strcmp(value, "refresh") == 0) {
		if (strcmp(tt_grade_metric_unit(m), "Hz") != 0)
			return *what = "'refresh' is a minimum of a report rate only", -EINVAL;
		l->has_min = l->min_is_refresh = true;
		return 0;
	}
	if (parse_number(value, m, &v, what) < 0)
		return -EINVAL;
	if (is_min) {
		l->has_min = true;
		l->min = v;
	} else {
		l->has_max = true;
		l->max = v;
	}
	return 0;
}

/* METRIC.min / METRIC.max (edge-reach: the four edges). */
static int
parse_limit(struct tt_grade_profile *p, const char *key, char *value, const char **what)
{
	const char *dot = strrchr(key, '.');
	char metric[64];
	bool is_min;
	int m;

	if (!dot || (strcmp(dot, ".min") != 0 && strcmp(dot, ".max") != 0) ||
	    (size_t)(dot - key) >= sizeof(metric))
		return *what = "is not a key of a profile (name, title, source, METRIC.min, METRIC.max)", -EINVAL;
	is_min = strcmp(dot, ".min") == 0;
	memcpy(metric, key, (size_t)(dot - key));
	metric[dot - key] = '\0';
	if (strcmp(metric, "edge-reach") == 0) {
		for (m = TT_GRADE_EDGE_LEFT; m <= TT_GRADE_EDGE_BOTTOM; m++) {
			if (set_limit(&p->limits[m], is_min, value, (enum tt_grade_metric)m, what) < 0)
				return -EINVAL;
		}
		return 0;
	}
	m = tt_grade_metric_from_name(metric);
	if (m < 0)
		return *what = "names no metric (see touchtape-analyze(1), GRADING)", -EINVAL;
	return set_limit(&p->limits[m], is_min, value, (enum tt_grade_metric)m, what);
}

static int
append_source(char **source, const char *value)
{
	char *s;

	if (asprintf(&s, "%s%s%s", *source ? *source : "", *source ? "; " : "", value) < 0)
		return -ENOMEM;
	free(*source);
	*source = s;
	return 0;
}

static int
parse_line(struct tt_grade_profile *p, char *line, const char **what)
{
	char *eq = strchr(line, '='), *key, *value;

	if (!eq)
		return *what = "has no '=' (a profile line is key = value)", -EINVAL;
	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (!*value)
		return *what = "has no value after '='", -EINVAL;
	if (!tt_str_is_clean(value, strlen(value)))
		return *what = "has control characters or invalid UTF-8", -EINVAL;
	if (strcmp(key, "name") == 0 || strcmp(key, "title") == 0) {
		char **field = key[0] == 'n' ? &p->name : &p->title;
		if (*field)
			return *what = "sets it a second time", -EINVAL;
		*field = tt_strdup(value);
		return 0;
	}
	if (strcmp(key, "source") == 0)
		return append_source(&p->source, value);
	return parse_limit(p, key, value, what);
}

/* A minimum above its maximum: the metric, or -1. */
static int
inverted_limit(const struct tt_grade_profile *p)
{
	for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
		const struct tt_grade_limit *l = &p->limits[m];
		if (l->has_min && l->has_max && !l->min_is_refresh && l->min > l->max)
			return m;
	}
	return -1;
}

int
tt_grade_profile_parse(const char *file, const char *text, struct tt_grade_profile **out, char **error)
{
	_cleanup_(tt_grade_profile_freep) struct tt_grade_profile *p = tt_zalloc(sizeof(*p));
	_cleanup_free_ char *copy = tt_strdup(text);
	const char *what = NULL;
	char *line = copy, *next;
	size_t lineno = 0;
	int m;

	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = trim(line);
		if (!*line || *line == '#')
			continue;
		char shown[48];
		snprintf(shown, sizeof(shown), "%s", line);
		if (parse_line(p, line, &what) < 0)
			return fail(error, file, lineno, "'%s' %s", shown, what);
		if ((m = inverted_limit(p)) >= 0)
			return fail(error, file, lineno, "%s.min is above %s.max", tt_grade_metric_name(m),
				    tt_grade_metric_name(m));
	}
	if (!p->name)
		return fail(error, file, 1, "the profile has no 'name = ...' line");
	*out = p;
	p = NULL;
	return 0;
}

static int
read_file(const char *path, char **out, char **error)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	size_t n;

	if (!f) {
		int err = errno;
		if (asprintf(error, "%s: %s", path, strerror(err)) < 0)
			*error = NULL;
		return err == ENOENT ? -ENOENT : -EINVAL;
	}
	buf = tt_zalloc(PROFILE_MAX_BYTES + 1);
	n = fread(buf, 1, PROFILE_MAX_BYTES + 1, f);
	if (ferror(f) || n > PROFILE_MAX_BYTES || memchr(buf, '\0', n)) {
		if (asprintf(error, "%s:1: %s", path, ferror(f) ? strerror(errno) :
			     "is not a profile (binary, or over 64 KiB)") < 0)
			*error = NULL;
		return -EINVAL;
	}
	*out = buf;
	buf = NULL;
	return 0;
}

int
tt_grade_profile_load(const char *arg, struct tt_grade_profile **out, char **error)
{
	_cleanup_free_ char *text = NULL;
	struct stat st;
	int rc;

	if (!strchr(arg, '/') && stat(arg, &st) != 0) {
		for (const struct tt_grade_builtin *b = tt_grade_builtins; b->name; b++) {
			if (strcmp(b->name, arg) == 0)
				return tt_grade_profile_parse(b->name, b->text, out, error);
		}
		if (asprintf(error, "no profile is called '%s' (built in: touchscreen, touchpad, chromeos; or a file)",
			     arg) < 0)
			*error = NULL;
		return -ENOENT;
	}
	rc = read_file(arg, &text, error);
	if (rc < 0)
		return rc;
	return tt_grade_profile_parse(arg, text, out, error);
}
