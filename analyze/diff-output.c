/* SPDX-License-Identifier: MIT */
/* touchtape diff's output: a line per difference, or one JSON document
 * (--json) through the one emitter. See diff.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "util-plural.h"

#define DIFF_JSON_VERSION 1

static const char ignored[] = "absolute times, device ids and nodes, the \"touchtape replay: \" name prefix, "
			      "tracking ID values, XI device and touch ids, X server times, latencies";

static void
json_line(struct tt_json_emit *j, const char *key, size_t line)
{
	tt_json_emit_key(j, key);
	if (line)
		tt_json_emit_int(j, (int64_t)line);
	else
		tt_json_emit_null(j);
}

/* A difference kept while the files are read, or a stall to weigh. */
struct drec {
	unsigned section;
	size_t dev;
	int64_t begin_us;
	int32_t slot;
	uint64_t seq;
	bool xi_only, stall, has_num;
	const char *kind;	/* literals, as the callers pass them */
	struct diff_num num;
	size_t la, lb;
	char *msg;
	int64_t ga, gb;
};

struct dbuf {
	struct drec *v;
	size_t n, cap;
	struct drec key;	/* where the next ones go */
};

struct dbuf *
diff_buf_new(void)
{
	return tt_zalloc(sizeof(struct dbuf));
}

void
diff_buf_free(struct dbuf *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i].msg);
	free(b->v);
	free(b);
}

void
diff_buf_key(struct differ *df, unsigned section, const struct dtouch *k)
{
	struct drec *key = &df->buf->key;

	key->section = section;
	key->dev = k->dev;
	key->begin_us = k->begin_us;
	key->slot = k->slot;
}

void
diff_buf_xi_only(struct differ *df, bool on)
{
	df->buf->key.xi_only = on;
}

static struct drec *
buf_add(struct dbuf *b)
{
	b->v = tt_grow(b->v, b->n, &b->cap, sizeof(*b->v));
	struct drec *r = &b->v[b->n];
	*r = b->key;
	r->seq = b->n++;
	return r;
}

void
diff_buf_stall(struct differ *df, const struct dtouch *ka, int64_t ga, int64_t gb, size_t la, size_t lb)
{
	/* The tolerance is at least --stall-tolerance. */
	if (!df->buf) {
		diff_report_stall(df, ka, ga, gb, la, lb);
		return;
	}
	if (llabs(ga - gb) <= df->o->stall_tol)
		return;
	struct drec *r = buf_add(df->buf);
	r->stall = true;
	r->ga = ga;
	r->gb = gb;
	r->la = la;
	r->lb = lb;
}

static int
cmp_rec(const void *pa, const void *pb)
{
	const struct drec *a = pa, *b = pb;

	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->begin_us != b->begin_us)
		return a->begin_us < b->begin_us ? -1 : 1;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static void report(struct differ *df, const char *kind, const struct diff_num *n, size_t la, size_t lb,
		   const char *msg);

void
diff_buf_flush(struct differ *df)
{
	_cleanup_(diff_buf_freep) struct dbuf *b = steal(&df->buf);

	tt_sort(b->v, b->n, sizeof(*b->v), cmp_rec);
	for (size_t i = 0; i < b->n; i++) {
		const struct drec *r = &b->v[i];
		if (r->stall) {
			struct dtouch ka = { .dev = r->dev, .slot = r->slot, .begin_us = r->begin_us };
			diff_report_stall(df, &ka, r->ga, r->gb, r->la, r->lb);
		} else if (!r->xi_only || diff_xi_compared(df)) {
			report(df, r->kind, r->has_num ? &r->num : NULL, r->la, r->lb, r->msg);
		}
	}
}

static void
report(struct differ *df, const char *kind, const struct diff_num *n, size_t la, size_t lb, const char *msg)
{
	if (df->buf) {
		struct drec *r = buf_add(df->buf);
		r->kind = kind;
		r->has_num = n != NULL;
		if (n)
			r->num = *n;
		r->la = la;
		r->lb = lb;
		r->msg = tt_strdup(msg);
		return;
	}
	df->ndiff++;
	if (df->json) {
		tt_json_emit_object_begin(df->json);
		tt_json_emit_key(df->json, "kind");
		tt_json_emit_string(df->json, kind);
		json_line(df->json, "a_line", la);
		json_line(df->json, "b_line", lb);
		tt_json_emit_key(df->json, "message");
		tt_json_emit_string(df->json, msg);
		if (n) {
			tt_json_emit_key(df->json, "value");
			tt_json_emit_real(df->json, n->value);
			tt_json_emit_key(df->json, "tolerance");
			tt_json_emit_real(df->json, n->tolerance);
			tt_json_emit_key(df->json, "unit");
			tt_json_emit_string(df->json, n->unit);
		}
		tt_json_emit_object_end(df->json);
		return;
	}
	if (la)
		printf("%s:%zu", df->a->name, la);
	else
		printf("%s:-", df->a->name);
	if (lb)
		printf(" %s:%zu: %s\n", df->b->name, lb, msg);
	else
		printf(" %s:-: %s\n", df->b->name, msg);
}

static void __attribute__((format(printf, 6, 0)))
vreport(struct differ *df, const char *kind, const struct diff_num *n, size_t la, size_t lb, const char *fmt,
	va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	report(df, kind, n, la, lb, msg);
}

void
diff_difference(struct differ *df, const char *kind, size_t la, size_t lb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(df, kind, NULL, la, lb, fmt, ap);
	va_end(ap);
}

void
diff_measured(struct differ *df, const char *kind, const struct diff_num *n, size_t la, size_t lb,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(df, kind, n, la, lb, fmt, ap);
	va_end(ap);
}

bool
diff_xi_compared(const struct differ *df)
{
	return !df->o->kernel_only && df->a->has_xi && df->b->has_xi;
}

/* Why XI data is not compared, or NULL when it is. */
static const char *
xi_skipped(const struct differ *df, char *buf, size_t size)
{
	if (diff_xi_compared(df))
		return NULL;
	if (df->o->kernel_only)
		return "XI data ignored (--kernel-only)";
	if (!df->a->has_xi && !df->b->has_xi)
		return NULL;
	snprintf(buf, size, "XI data only in %s: not compared", df->a->has_xi ? df->a->name : df->b->name);
	return buf;
}

static void
side_json(struct tt_json_emit *j, const char *key, const struct side *s)
{
	uint64_t total = 0;

	tt_json_emit_key(j, key);
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "file");
	tt_json_emit_string(j, s->name);
	tt_json_emit_key(j, "format");
	tt_json_emit_string(j, tt_file_format_name(tt_reader_format(s->r)));
	tt_json_emit_key(j, "touches");
	tt_json_emit_int(j, (int64_t)s->nk);
	tt_json_emit_key(j, "xi_touches");
	tt_json_emit_int(j, (int64_t)s->nx);
	/* As analyze --json writes them: the total, then each kind seen. */
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		total += s->diags.count[c];
	tt_json_emit_key(j, "anomaly_counts");
	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "total");
	tt_json_emit_int(j, (int64_t)total);
	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++) {
		if (!s->diags.count[c])
			continue;
		tt_json_emit_key(j, tt_check_name(c));
		tt_json_emit_int(j, (int64_t)s->diags.count[c]);
	}
	tt_json_emit_object_end(j);
	tt_json_emit_object_end(j);
}

static void
begin_json(struct differ *df, const char *xi_note)
{
	struct tt_json_emit *j = df->json;

	tt_json_emit_object_begin(j);
	tt_json_emit_key(j, "diff_version");
	tt_json_emit_int(j, DIFF_JSON_VERSION);
	side_json(j, "a", df->a);
	side_json(j, "b", df->b);
	tt_json_emit_key(j, "ignored");
	tt_json_emit_string(j, ignored);
	tt_json_emit_key(j, "xi_compared");
	tt_json_emit_bool(j, diff_xi_compared(df));
	tt_json_emit_key(j, "xi_note");
	tt_json_emit_string(j, xi_note);
	tt_json_emit_key(j, "differences");
	tt_json_emit_array_begin(j);
}

void
diff_output_begin(struct differ *df)
{
	const struct side *a = df->a, *b = df->b;
	char buf[300];
	const char *xi_note = xi_skipped(df, buf, sizeof(buf));

	if (df->json) {
		begin_json(df, xi_note);
		return;
	}
	printf("# comparing %s (%zu %s, %zu XI) with %s (%zu %s, %zu XI)\n", a->name, a->nk,
	       tt_plural(a->nk, "touch", "touches"), a->nx, b->name, b->nk,
	       tt_plural(b->nk, "touch", "touches"), b->nx);
	printf("# ignored: %s\n", ignored);
	if (xi_note)
		printf("# %s\n", xi_note);
}

void
diff_output_end(struct differ *df)
{
	struct tt_json_emit *j = df->json;

	if (!j) {
		diff_compare_diags(df);
		printf("%zu difference%s\n", df->ndiff, tt_plural_s(df->ndiff));
		return;
	}
	tt_json_emit_array_end(j);
	diff_compare_diags(df);
	tt_json_emit_key(j, "count");
	tt_json_emit_int(j, (int64_t)df->ndiff);
	tt_json_emit_object_end(j);
	fputc('\n', stdout);
}
