/* SPDX-License-Identifier: MIT */
/* The suite's results for machines: TAP 14 on stdout (the kernel
 * selftests' format, which prove and every TAP consumer read) and JUnit
 * XML as GitLab and GitHub read it (testsuites > testsuite > testcase,
 * with failure, error or skipped and times in seconds). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json-emit.h"
#include "log.h"
#include "output.h"
#include "regress.h"

/* A YAML scalar: a JSON string is one (double-quoted flow scalar), and
 * the one emitter escapes it. */
void
rg_yaml_string(FILE *f, const char *s)
{
	struct tt_json_emit j;

	tt_json_emit_init_file(&j, f);
	tt_json_emit_string(&j, s);
	tt_json_emit_release(&j);
}

/* A TAP description may not hold '#' (it starts a directive) nor a
 * line break. */
static void
tap_description(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '#' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void
rg_tap_begin(FILE *f, size_t ncases, int version)
{
	fprintf(f, "TAP version %d\n1..%zu\n", version, ncases);
	fflush(f);
}

/* diff's difference lines, one YAML list item each; its count line
 * ("3 differences") is the message already. */
static void
tap_differences(FILE *f, const char *text)
{
	_cleanup_free_ char *copy = strdup(text);
	char *save = NULL;

	fprintf(f, "  differences:\n");
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int count;
		if (*l == '#' || (sscanf(l, "%d difference", &count) == 1 && strchr(l, ':') == NULL))
			continue;	/* diff's heading, and its count: the message */
		fprintf(f, "    - ");
		rg_yaml_string(f, l);
		fputc('\n', f);
	}
}

/* The files a failed case may have kept, in the order they are named. */
static const char *const kept_files[] = { "replayed.jsonl", "replay.log", "record.log", "diff.txt" };

/* The path of kept file @i in @dir, or NULL when the case did not write
 * it (a replay that failed wrote no diff): only files that exist are
 * named, in TAP and JUnit alike. */
static char *
kept_path(const char *dir, size_t i)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, kept_files[i]) < 0)
		abort();
	if (access(p, F_OK) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

static void
tap_kept(FILE *f, const char *dir)
{
	fprintf(f, "  kept:\n");
	for (size_t i = 0; i < ARRAY_LENGTH(kept_files); i++) {
		_cleanup_free_ char *p = kept_path(dir, i);
		if (!p)
			continue;
		fprintf(f, "    %.*s: ", (int)strcspn(kept_files[i], "."), kept_files[i]);
		rg_yaml_string(f, p);
		fputc('\n', f);
	}
}

/* A key and a YAML string, when there is a value. */
static void
yaml_key(FILE *f, const char *key, const char *value)
{
	if (!value)
		return;
	fprintf(f, "  %s: ", key);
	rg_yaml_string(f, value);
	fputc('\n', f);
}

/* Every verdict says where it was reached: the kernel, what ran. */
static void
tap_where(FILE *f, const struct rg_result *r)
{
	yaml_key(f, "kernel", r->kernel);
	yaml_key(f, "ran", r->ran);
	yaml_key(f, "versions", r->versions);
	yaml_key(f, "blessed", r->blessed);
}

static void
tap_yaml(FILE *f, const struct rg_case *c, const struct rg_result *r)
{
	fprintf(f, "  ---\n");
	if (r->verdict == RG_PASS) {
		tap_where(f, r);
		fprintf(f, "  duration_ms: %.0f\n  ...\n", r->seconds * 1000);
		return;
	}
	yaml_key(f, "message", r->message ? r->message : "");
	fprintf(f, "  severity: %s\n", r->verdict == RG_FAIL ? "fail" : "error");
	tap_where(f, r);
	fprintf(f, "  file: ");
	rg_yaml_string(f, c->path);
	fprintf(f, "\n  against: ");
	rg_yaml_string(f, c->expected ? c->expected : c->path);
	fprintf(f, "\n  duration_ms: %.0f\n", r->seconds * 1000);
	if (r->diff_text)
		tap_differences(f, r->diff_text);
	if (r->dir)
		tap_kept(f, r->dir);
	fprintf(f, "  ...\n");
}

void
rg_tap_case(FILE *f, size_t n, const struct rg_case *c, const struct rg_result *r)
{
	fprintf(f, "%sok %zu - ", r->verdict == RG_PASS || r->verdict == RG_SKIP ? "" : "not ", n);
	tap_description(f, c->name);
	if (r->verdict == RG_SKIP) {
		fprintf(f, " # SKIP ");
		tap_description(f, r->message);
	}
	fputc('\n', f);
	if (r->verdict != RG_SKIP)
		tap_yaml(f, c, r);
	fflush(f);
}

/* ---- JUnit XML ---------------------------------------------------------- */

void
rg_xml_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		default: fputc(*p < 0x20 ? '?' : *p, f); break;
		}
	}
}

/* An element with only a message attribute and text (failure, error). */
static void
xml_element(FILE *f, const char *tag, const char *type, const char *message, const char *text)
{
	fprintf(f, "      <%s type=\"%s\" message=\"", tag, type);
	rg_xml_text(f, message);
	fputs("\">", f);
	rg_xml_text(f, text);
	fprintf(f, "</%s>\n", tag);
}

/* A failure's text: diff's lines, then the folder and the files kept in
 * it (those that exist). */
static char *
junit_body(const struct rg_result *r)
{
	char *body = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&body, &size);
	const char *sep = " (";

	if (!f)
		abort();
	if (r->diff_text)
		fprintf(f, "%s\n", r->diff_text);
	fprintf(f, "kept in %s/", r->dir);
	for (size_t i = 0; i < ARRAY_LENGTH(kept_files); i++) {
		_cleanup_free_ char *p = kept_path(r->dir, i);
		if (!p)
			continue;
		fprintf(f, "%s%s", sep, kept_files[i]);
		sep = ", ";
	}
	if (*sep == ',')
		fputc(')', f);
	if (fclose(f) != 0)
		abort();
	return body;
}

/* <properties> of the kernel, what ran and its versions, when known. */
static void
junit_properties(FILE *f, const char *indent, const char *kernel, const char *ran, const char *versions)
{
	const char *const pairs[][2] = { { "kernel", kernel }, { "ran", ran }, { "versions", versions } };

	if (!kernel && !ran)
		return;
	fprintf(f, "%s<properties>\n", indent);
	for (size_t i = 0; i < ARRAY_LENGTH(pairs); i++) {
		if (!pairs[i][1])
			continue;
		fprintf(f, "%s  <property name=\"%s\" value=\"", indent, pairs[i][0]);
		rg_xml_text(f, pairs[i][1]);
		fputs("\"/>\n", f);
	}
	fprintf(f, "%s</properties>\n", indent);
}

static void
junit_case(FILE *f, const struct rg_case *c, const struct rg_result *r)
{
	_cleanup_free_ char *body = NULL;

	fputs("    <testcase classname=\"touchtape.regress\" name=\"", f);
	rg_xml_text(f, c->name);
	fputs("\" file=\"", f);
	rg_xml_text(f, c->path);
	fprintf(f, "\" time=\"%.3f\">\n", r->seconds);
	junit_properties(f, "      ", r->kernel, r->ran, r->versions);
	if (r->dir)
		body = junit_body(r);
	if (r->verdict == RG_SKIP) {
		fputs("      <skipped message=\"", f);
		rg_xml_text(f, r->message);
		fputs("\"/>\n", f);
	} else if (r->verdict == RG_FAIL) {
		xml_element(f, "failure", "differences", r->message, body ? body : "");
	} else if (r->verdict == RG_ERROR) {
		xml_element(f, "error", "trouble", r->message, body ? body : "");
	}
	fputs("    </testcase>\n", f);
}

static void
junit_counts(FILE *f, const struct rg_suite *s, const struct rg_result *res, double seconds)
{
	size_t n[4] = { 0 };

	for (size_t i = 0; i < s->ncases; i++)
		n[res[i].verdict]++;
	fprintf(f, "name=\"touchtape regress\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"",
		s->ncases, n[RG_FAIL], n[RG_ERROR], n[RG_SKIP], seconds);
}

static void
junit_document(FILE *f, const struct rg_suite *s, const struct rg_result *res, double seconds, const char *kernel)
{
	char stamp[32];
	char host[256] = "localhost";
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	gethostname(host, sizeof(host) - 1);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", f);
	junit_counts(f, s, res, seconds);
	fputs(">\n  <testsuite ", f);
	junit_counts(f, s, res, seconds);
	fprintf(f, " timestamp=\"%s\" hostname=\"", stamp);
	rg_xml_text(f, host);
	fputs("\">\n", f);
	junit_properties(f, "    ", kernel, NULL, NULL);
	for (size_t i = 0; i < s->ncases; i++)
		junit_case(f, &s->cases[i], &res[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
}

int
rg_junit_open(const char *path, const struct rg_suite *s, struct tt_output **out)
{
	_cleanup_free_ const char **inputs = tt_zalloc((s->ncases + 1) * sizeof(*inputs));

	for (size_t i = 0; i < s->ncases; i++)
		inputs[i] = s->cases[i].path;
	return tt_output_open(path, inputs, out);
}

int
rg_junit_write(struct tt_output *o, const struct rg_suite *s, const struct rg_result *res, double seconds,
	       const char *kernel)
{
	FILE *f;
	int rc;

	if (!(f = tt_output_stream(o))) {
		rc = -errno;
		tt_error("%s: %s", tt_output_name(o), strerror(-rc));
		return rc;
	}
	junit_document(f, s, res, seconds, kernel);
	return tt_output_commit(o);
}
