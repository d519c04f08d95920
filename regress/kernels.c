/* SPDX-License-Identifier: MIT */
/* regress --vm with --kernel given several times: each kernel's run (its
 * TAP and JUnit files, as the guest wrote them) made into one report.
 * TAP gets one subtest per kernel (TAP 14's indented subtests), JUnit one
 * testsuite per kernel, both named by the guest's uname -r and the
 * versions its cases ran with ("6.1.0-28-amd64 (libinput 1.22.1, Xorg
 * 1.21.1.7)"); stderr gets
 * every case whose verdict is not the same on every kernel, with the
 * first difference where it differs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "output.h"
#include "regress.h"

enum kv { KV_PASS, KV_FAIL, KV_ERROR, KV_SKIP, KV_NONE };

/* A case's verdict on one kernel, read back from that kernel's TAP. */
struct kcase {
	char *name;
	enum kv verdict;
	char *first;	/* its first difference, or its message */
};

struct kcases {
	struct kcase *v;
	size_t n;
	char *versions;	/* every version its cases named, each once */
	char *suite;	/* the kernel's suite name: uname -r (versions) */
};

static void
kcases_release(struct kcases *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].first);
	}
	free(c->v);
	free(c->versions);
	free(c->suite);
	*c = (struct kcases){ 0 };
}

static const char *
label(const struct rg_kernel_run *r)
{
	return r->kver ? r->kver : r->arg ? r->arg : "stock";
}

/* A YAML double-quoted scalar's text (report.c writes JSON strings),
 * with only \" and \\ undone: enough for a message to people. */
static char *
yaml_unquote(const char *s)
{
	char *out = strdup(*s == '"' ? s + 1 : s);
	char *w = out;

	for (const char *p = out; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '"' && !p[1])
			break;
		*w++ = *p;
	}
	*w = '\0';
	return out;
}

/* A top-level TAP test line: its verdict and name (SKIP directive off). */
static bool
tap_test_line(const char *l, enum kv *v, char **name)
{
	bool ok = strncmp(l, "ok ", 3) == 0;
	const char *p;

	if (!ok && strncmp(l, "not ok ", 7) != 0)
		return false;
	if (!(p = strstr(l, " - ")))
		return false;
	p += 3;
	const char *skip = strstr(p, " # SKIP");
	*name = strndup(p, skip ? (size_t)(skip - p) : strcspn(p, "\n"));
	*v = ok ? (skip ? KV_SKIP : KV_PASS) : KV_FAIL;
	return true;
}

/* A difference without the "FILE:LINE FILE:LINE: " that diff puts
 * before it: the summary names the kernels instead. */
static char *
without_locations(char *d)
{
	size_t word = strcspn(d, " ");
	const char *colon = memrchr(d, ':', word);
	char *rest = d[word] ? strstr(d + word + 1, ": ") : NULL;

	if (!colon || !rest || (colon[1] != '-' && (colon[1] < '0' || colon[1] > '9')))
		return d;
	memmove(d, rest + 2, strlen(rest + 2) + 1);
	return d;
}

/* Whether @list ("a, b") has the item @v. */
static bool
has_item(const char *list, const char *v)
{
	size_t len = strlen(v);

	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, v, len) == 0)
			return true;
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}

/* Adds each of @list's comma-separated versions ("libinput 1.22.1,
 * Xorg 1.21.1.7") that @c has not yet. */
static void
add_versions(struct kcases *c, const char *list)
{
	_cleanup_free_ char *copy = strdup(list);
	char *save = NULL;

	for (char *v = strtok_r(copy, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		v += strspn(v, " ");
		if (!*v || has_item(c->versions, v))
			continue;
		char *joined = NULL;
		if (asprintf(&joined, "%s%s%s", c->versions ? c->versions : "", c->versions ? ", " : "", v) < 0)
			abort();
		free(c->versions);
		c->versions = joined;
	}
}

/* A YAML line of the case being read: its severity, and its first
 * difference (else its message) as the case's "first". */
static void
tap_yaml_line(const char *l, struct kcases *all, bool *in_diffs)
{
	_cleanup_free_ char *line = strndup(l, strcspn(l, "\n"));
	struct kcase *c = &all->v[all->n - 1];

	if (strncmp(line, "  versions: ", 12) == 0) {
		_cleanup_free_ char *v = yaml_unquote(line + 12);
		add_versions(all, v);
	}
	if (strcmp(line, "  severity: error") == 0)
		c->verdict = KV_ERROR;
	if (strncmp(line, "  message: ", 11) == 0 && !c->first)
		c->first = yaml_unquote(line + 11);
	*in_diffs = strcmp(line, "  differences:") == 0 || (*in_diffs && strncmp(line, "    - ", 6) == 0);
	if (*in_diffs && strncmp(line, "    - ", 6) == 0 && c->first && !strstr(c->first, ": ")) {
		free(c->first);	/* the message said only how many */
		c->first = without_locations(yaml_unquote(line + 6));
	}
}

/* The verdicts in one kernel's TAP file. */
static int
tap_read(const char *path, struct kcases *out)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *l = NULL;
	size_t size = 0;
	bool in_diffs = false;

	if (!f)
		return -errno;
	while (getline(&l, &size, f) > 0) {
		enum kv v;
		char *name;
		if (tap_test_line(l, &v, &name)) {
			out->v = realloc(out->v, (out->n + 1) * sizeof(*out->v));
			if (!out->v)
				abort();
			out->v[out->n++] = (struct kcase){ name, v, NULL };
			in_diffs = false;
		} else if (out->n && l[0] == ' ') {
			tap_yaml_line(l, out, &in_diffs);
		}
	}
	return 0;
}

/* ---- TAP: one subtest per kernel ------------------------------------ */

static void
tap_subtest(FILE *f, size_t n, const struct rg_kernel_run *r, const char *suite)
{
	_cleanup_fclose_ FILE *in = r->tap ? fopen(r->tap, "re") : NULL;
	_cleanup_free_ char *l = NULL;
	size_t size = 0;

	fprintf(f, "# Subtest: %s\n", suite);
	while (in && getline(&l, &size, in) > 0) {
		if (strncmp(l, "TAP version ", 12) != 0)
			fprintf(f, "    %s", l);
	}
	fprintf(f, "%sok %zu - %s\n", r->rc == TT_EXIT_OK ? "" : "not ", n, suite);
	if (r->rc == TT_EXIT_OK)
		return;
	fprintf(f, "  ---\n  message: \"%s\"\n  severity: %s\n  kernel: ",
		!r->kver ? "the suite did not run on this kernel (see stderr)"
		: r->rc == TT_EXIT_FAILURE ? "a case differs" : "a case could not be run",
		r->rc == TT_EXIT_FAILURE ? "fail" : "error");
	rg_yaml_string(f, r->arg ? r->arg : "stock");
	fprintf(f, "\n  ...\n");
}

/* ---- JUnit: the kernels' testsuites in one document ------------------ */

struct junit_counts {
	size_t tests, failures, errors, skipped;
	double time;
};

static char *
slurp(const char *path)
{
	_cleanup_fclose_ FILE *f = path ? fopen(path, "re") : NULL;
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	FILE *m = open_memstream(&buf, &size);
	char chunk[4096];
	size_t n;
	if (!m)
		abort();
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	return buf;
}

/* One kernel's <testsuite> element, renamed after its kernel, written to
 * @f and its counts added to @sum; a kernel whose run wrote no JUnit gets
 * a testsuite of one error saying so. */
static void
junit_suite(FILE *f, const struct rg_kernel_run *r, const char *suite, struct junit_counts *sum)
{
	_cleanup_free_ char *doc = slurp(r->junit);
	char *start = doc ? strstr(doc, "<testsuite ") : NULL;
	char *end = start ? strstr(start, "</testsuite>") : NULL;
	const char *name = "name=\"touchtape regress\"";
	char *at = start ? strstr(start, name) : NULL;
	struct junit_counts c = { 0 };

	if (!end || !at || at > end ||
	    sscanf(at + strlen(name), " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%lf\"",
		   &c.tests, &c.failures, &c.errors, &c.skipped, &c.time) != 5) {
		fputs("  <testsuite name=\"", f);
		rg_xml_text(f, suite);
		fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\" "
		      "timestamp=\"1970-01-01T00:00:00\" hostname=\"localhost\">\n"
		      "    <testcase classname=\"touchtape.regress\" name=\"", f);
		rg_xml_text(f, suite);
		fputs("\" time=\"0\">\n"
		      "      <error type=\"trouble\" message=\"the suite did not run on this kernel\"></error>\n"
		      "    </testcase>\n  </testsuite>\n", f);
		c = (struct junit_counts){ 1, 0, 1, 0, 0 };
	} else {
		fprintf(f, "  %.*sname=\"", (int)(at - start), start);
		rg_xml_text(f, suite);
		fprintf(f, "\"%.*s</testsuite>\n", (int)(end - at - strlen(name)), at + strlen(name));
	}
	sum->tests += c.tests;
	sum->failures += c.failures;
	sum->errors += c.errors;
	sum->skipped += c.skipped;
	sum->time += c.time;
}

static int
junit_merge(struct tt_output *o, const struct rg_kernel_run *runs, const struct kcases *per, size_t n)
{
	_cleanup_free_ char *body = NULL;
	size_t size = 0;
	struct junit_counts sum = { 0 };
	FILE *f;
	int rc;

	FILE *m = open_memstream(&body, &size);
	if (!m)
		abort();
	for (size_t i = 0; i < n; i++)
		junit_suite(m, &runs[i], per[i].suite, &sum);
	fclose(m);
	if (!(f = tt_output_stream(o))) {
		rc = -errno;
		tt_error("%s: %s", tt_output_name(o), strerror(-rc));
		return rc;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"touchtape regress\" tests=\"%zu\" "
		   "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n%s</testsuites>\n",
		sum.tests, sum.failures, sum.errors, sum.skipped, sum.time, body);
	return tt_output_commit(o);
}

/* ---- verdicts that differ between kernels ---------------------------- */

static const struct kcase *
find_case(const struct kcases *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++) {
		if (strcmp(c->v[i].name, name) == 0)
			return &c->v[i];
	}
	return NULL;
}

/* "NAME: passes on A, differs on B: first difference" when the kernels'
 * verdicts on case @name are not all the same; returns whether they differ. */
static bool
say_case(const char *name, const struct rg_kernel_run *runs, const struct kcases *per, size_t n)
{
	static const char *const verb[] = { "passes on", "differs on", "errors on", "skipped on", "not run on" };
	const struct kcase *first = find_case(&per[0], name);
	enum kv v0 = first ? first->verdict : KV_NONE;
	bool differ = false;

	for (size_t i = 1; i < n; i++) {
		const struct kcase *c = find_case(&per[i], name);
		differ |= (c ? c->verdict : KV_NONE) != v0;
	}
	if (!differ)
		return false;
	fprintf(stderr, "touchtape regress: %s:", name);
	for (size_t i = 0; i < n; i++) {
		const struct kcase *c = find_case(&per[i], name);
		enum kv v = c ? c->verdict : KV_NONE;
		fprintf(stderr, "%s %s %s", i ? "," : "", verb[v], label(&runs[i]));
		if (c && c->first && v != KV_PASS)
			fprintf(stderr, ": %s", c->first);
	}
	fputc('\n', stderr);
	return true;
}

static size_t
say_differences(const struct rg_kernel_run *runs, const struct kcases *per, size_t n)
{
	size_t ndiff = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < per[i].n; k++) {
			const char *name = per[i].v[k].name;
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = find_case(&per[j], name) != NULL;
			if (!seen)
				ndiff += say_case(name, runs, per, n);
		}
	}
	return ndiff;
}

int
rg_kernels_report(FILE *f, const struct rg_kernel_run *runs, size_t n, struct tt_output *junit, int tap_version)
{
	struct kcases per[RG_MAX_KERNELS] = { 0 };
	int rc = TT_EXIT_OK;
	size_t ndiff;

	fprintf(f, "TAP version %d\n1..%zu\n", tap_version, n);
	for (size_t i = 0; i < n; i++) {
		if (runs[i].kver && runs[i].tap)
			tap_read(runs[i].tap, &per[i]);
		if (per[i].versions && asprintf(&per[i].suite, "%s (%s)", label(&runs[i]), per[i].versions) < 0)
			abort();
		if (!per[i].suite)
			per[i].suite = strdup(label(&runs[i]));
		tap_subtest(f, i + 1, &runs[i], per[i].suite);
		if (runs[i].rc > rc)
			rc = runs[i].rc;
	}
	fflush(f);
	if (junit && junit_merge(junit, runs, per, n) < 0)
		rc = TT_EXIT_TROUBLE;
	ndiff = say_differences(runs, per, n);
	fprintf(stderr, "touchtape regress: %zu kernels:", n);
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "%s %s %s", i ? "," : "", label(&runs[i]),
			runs[i].rc == TT_EXIT_OK ? "passed" : runs[i].rc == TT_EXIT_FAILURE ? "failed" : "trouble");
		kcases_release(&per[i]);
	}
	fprintf(stderr, "; %zu case%s with verdicts that differ between them\n", ndiff, ndiff == 1 ? "" : "s");
	return rc;
}
