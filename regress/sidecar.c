/* SPDX-License-Identifier: MIT */
/* NAME.regress, the sidecar of a case: "key = value" lines, '#' comments.
 * Each key maps onto a diff option or on how the case is run; a bad line
 * stops the suite before anything runs (a typo must not pass silently). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "regress.h"
#include "tolerance.h"
#include "util-strings.h"

struct sc_ctx {
	const char *path;
	size_t line;
	struct rg_sidecar *s;
};

static int
sc_bad(const struct sc_ctx *c, const char *what, const char *value)
{
	tt_error("%s:%zu: %s%s%s", c->path, c->line, what, value ? ": " : "", value ? value : "");
	return -EINVAL;
}

static void
sc_diff_arg(struct rg_sidecar *s, const char *opt, const char *value)
{
	if (s->ndiff_args + 2 >= ARRAY_LENGTH(s->diff_args))
		return;
	s->diff_args[s->ndiff_args++] = strdup(opt);
	if (value)
		s->diff_args[s->ndiff_args++] = strdup(value);
}

static int
sc_timeout(struct sc_ctx *c, const char *key, const char *v)
{
	int64_t us;

	(void)key;
	if (tt_parse_duration_us(v, &us) < 0 || us < 0)
		return sc_bad(c, "not a duration like 20ms or 2s", v);
	if (us == 0)
		return sc_bad(c, "timeout must be above 0", v);
	c->s->timeout_us = us;
	return 0;
}

/* The tolerances are diff's options of the same name, checked here so a
 * bad one stops the suite at its line. */
static void
sc_tolerance_arg(struct sc_ctx *c, const char *key, const char *v)
{
	char opt[40];

	snprintf(opt, sizeof(opt), "--%s", key);
	sc_diff_arg(c->s, opt, v);
}

static int
sc_duration(struct sc_ctx *c, const char *key, const char *v)
{
	int64_t us;
	int rc = tt_parse_tolerance_us(v, &us);

	if (rc == -EDOM)
		return sc_bad(c, TT_TOLERANCE_TIME_UNITS, v);
	if (rc < 0)
		return sc_bad(c, "not a duration of 0 or more like 20ms or 2s", v);
	sc_tolerance_arg(c, key, v);
	return 0;
}

static int
sc_distance(struct sc_ctx *c, const char *key, const char *v)
{
	double mm, frac;
	bool is_mm;
	int rc = tt_parse_tolerance_distance(v, &mm, &frac, &is_mm);

	if (rc == -EDOM)
		return sc_bad(c, TT_TOLERANCE_DISTANCE_UNITS, v);
	if (rc < 0)
		return sc_bad(c, "not a distance of 0 or more like 1mm or 0.5%", v);
	sc_tolerance_arg(c, key, v);
	return 0;
}

static int
sc_fraction(struct sc_ctx *c, const char *key, const char *v)
{
	double d;

	if (tt_parse_tolerance_fraction(v, &d) < 0)
		return sc_bad(c, "not a fraction 0..1 or a percentage", v);
	sc_tolerance_arg(c, key, v);
	return 0;
}

static int
sc_layers(struct sc_ctx *c, const char *key, const char *v)
{
	_cleanup_free_ char *copy = strdup(v);
	char *save = NULL;
	unsigned layers = 0;

	(void)key;
	for (char *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		if (strcmp(w, "kernel") == 0)
			layers |= RG_LAYER_KERNEL;
		else if (strcmp(w, "xi") == 0)
			layers |= RG_LAYER_XI;
		else if (strcmp(w, "libinput") == 0)
			layers |= RG_LAYER_LIBINPUT;
		else
			return sc_bad(c, "layers are kernel, xi, libinput; not", w);
	}
	if (!layers)
		return sc_bad(c, "layers needs at least one of kernel, xi, libinput", NULL);
	c->s->layers = layers | RG_LAYER_KERNEL;
	if (layers == RG_LAYER_KERNEL)
		sc_diff_arg(c->s, "--kernel-only", NULL);
	return 0;
}

static int
sc_ignore(struct sc_ctx *c, const char *key, const char *v)
{
	unsigned kinds = 0;

	(void)key;
	if (tt_parse_ignore_kinds(v, &kinds) < 0)
		return sc_bad(c, "ignore takes " TT_IGNORE_KINDS " (use layers= for XI and libinput), not", v);
	sc_diff_arg(c->s, "--ignore", v);
	return 0;
}

static int
sc_skip(struct sc_ctx *c, const char *key, const char *v)
{
	(void)key;
	if (!*v)
		return sc_bad(c, "skip needs a reason", NULL);
	free(c->s->skip);
	c->s->skip = strdup(v);
	return 0;
}

static int
sc_device(struct sc_ctx *c, const char *key, const char *v)
{
	int64_t id;

	(void)key;
	if (tt_parse_int64(v, &id) < 0 || id < 0 || id > UINT32_MAX)
		return sc_bad(c, "not a device id", v);
	sc_diff_arg(c->s, "--device", v);
	return 0;
}

static int
sc_xi(struct sc_ctx *c, const char *key, const char *v)
{
	if (strcmp(key, "xi-window") == 0) {
		if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)
			return sc_bad(c, "xi-window takes yes or no, not", v);
		c->s->xi_window = strcmp(v, "yes") == 0;
		return 0;
	}
	if (!*v)
		return sc_bad(c, "xi-grab needs a mode (accept, reject, accept-after=MS, reject-after=MS)", NULL);
	free(c->s->xi_grab);
	c->s->xi_grab = strdup(v);
	return 0;
}

static const struct {
	const char *key;
	int (*set)(struct sc_ctx *c, const char *key, const char *value);
} sc_keys[] = {
	{ "skip", sc_skip },
	{ "timeout", sc_timeout },
	{ "layers", sc_layers },
	{ "time-tolerance", sc_duration },
	{ "stall-tolerance", sc_duration },
	{ "latency-tolerance", sc_duration },
	{ "position-tolerance", sc_distance },
	{ "path-tolerance", sc_distance },
	{ "units-tolerance", sc_fraction },
	{ "scroll-tolerance", sc_fraction },
	{ "axis-tolerance", sc_fraction },
	{ "rate-tolerance", sc_fraction },
	{ "ignore", sc_ignore },
	{ "device", sc_device },
	{ "xi-grab", sc_xi },
	{ "xi-window", sc_xi },
};

static char *
sc_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int
sc_line(struct sc_ctx *c, char *line)
{
	char *eq;
	char *key;
	char *value;

	line = sc_trim(line);
	if (!*line || *line == '#')
		return 0;
	if (!(eq = strchr(line, '=')))
		return sc_bad(c, "want key = value", line);
	*eq = '\0';
	key = sc_trim(line);
	value = sc_trim(eq + 1);
	for (size_t i = 0; i < ARRAY_LENGTH(sc_keys); i++) {
		if (strcmp(key, sc_keys[i].key) == 0)
			return sc_keys[i].set(c, key, value);
	}
	return sc_bad(c, "unknown key (see touchtape-regress(1), SIDECAR FILE)", key);
}

int
rg_sidecar_read(const char *path, struct rg_sidecar *out)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	size_t size = 0;
	struct rg_sidecar s = { 0 };
	struct sc_ctx c = { path, 0, &s };
	int rc = 0;

	if (!f) {
		rc = -errno;
		tt_error("%s: %s", path, strerror(-rc));
		return rc;
	}
	while (rc == 0 && getline(&buf, &size, f) >= 0) {
		c.line++;
		rc = sc_line(&c, buf);
	}
	if (rc < 0) {
		rg_sidecar_release(&s);
		return rc;
	}
	*out = s;
	return 0;
}

void
rg_sidecar_release(struct rg_sidecar *s)
{
	if (!s)
		return;
	free(s->skip);
	free(s->xi_grab);
	for (size_t i = 0; i < s->ndiff_args; i++)
		free(s->diff_args[i]);
	memset(s, 0, sizeof(*s));
}
