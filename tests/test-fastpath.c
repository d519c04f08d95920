/* SPDX-License-Identifier: MIT */
/*
 * The frame fast path must accept and reject exactly what the json-c path
 * does and produce the same records and messages. Differential test: many
 * canonical lines and thousands of random mutations of them, each file
 * read twice (TT_READER_NO_FASTPATH=1 and not), results compared.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n"
#define DEVICE "{\"type\":\"device\",\"id\":4,\"name\":\"t\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3},\"codes\":{}}\n"

static const char *const seeds[] = {
	"{\"type\":\"frame\",\"dev\":4,\"t\":10,\"ev\":[[3,57,1],[3,53,50],[0,0,0]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":-7,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":4611686018427387904,\"ev\":[[0,0,0,-12]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":0,\"dropped\":true,\"ev\":[[0,3,0]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"resync\":true,\"incomplete\":true,\"ev\":[[1,330,1],[21,127,-2147483648]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"dropped\":true,\"resync\":true,\"incomplete\":true,\"ev\":[[4,5,2147483647,2147483647]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,63,0],[1,767,0],[5,16,1],[17,15,1]]}",
};

/* Numbers at the edges of what the fast path takes: each must come out
 * of both paths the same, accepted or not. */
static const char *const edges[] = {
	"{\"type\":\"frame\",\"dev\":-0,\"t\":-0,\"ev\":[[-0,-0,-0,-0]]}",
	"{\"type\":\"frame\",\"dev\":04,\"t\":1,\"ev\":[[3,53,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[03,53,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,053,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,00]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1.0,\"ev\":[[3,53,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1e3]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1E3]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,-]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,2147483648]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,-2147483649]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1,-2147483648]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":4611686018427387905,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":-4611686018427387904,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":9223372036854775807,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":9223372036854775808,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":18446744073709551617,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":100000000000000000000,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4294967296,\"t\":1,\"ev\":[]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[32,0,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,64,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[1,768,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[6,0,1]]}",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1]]}  \t",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1]]} x",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1]]",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,1",
	"{\"type\":\"frame\",\"dev\":4,\"t\":1,\"ev\":[[3,53,",
	"{\"type\":\"frame\",\"dev\":4,\"t\":",
	"{\"type\":\"hid\",\"dev\":-0,\"t\":1,\"data\":\"00\"}",
	"{\"type\":\"hid\",\"dev\":01,\"t\":1,\"data\":\"00\"}",
};

struct outcome {
	char text[1 << 16];
	size_t len;
};

static void
append(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
append(struct outcome *o, const char *fmt, ...)
{
	va_list ap;
	if (o->len >= sizeof(o->text) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->text + o->len, sizeof(o->text) - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n < sizeof(o->text) - o->len ? (size_t)n : sizeof(o->text) - o->len - 1;
}

static void
read_with(const char *path, bool fast, struct outcome *o)
{
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int rc;

	o->len = 0;
	o->text[0] = '\0';
	if (fast)
		unsetenv("TT_READER_NO_FASTPATH");
	else
		setenv("TT_READER_NO_FASTPATH", "1", 1);
	rc = tt_reader_open(path, &r);
	if (rc < 0) {
		append(o, "open %d\n", rc);
		tt_reader_free(r);
		return;
	}
	tt_reader_set_warn(r, NULL, NULL);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			append(o, "E %s\n", tt_reader_error(r));
			continue;
		}
		append(o, "R %d line %zu", rec.type, rec.line);
		if (rec.type == TT_RECORD_FRAME) {
			const struct tt_frame *f = rec.frame;
			append(o, " dev %u t %lld flags %u n %u:", f->device, (long long)f->time_us,
			       f->flags, f->nevents);
			for (uint32_t i = 0; i < f->nevents; i++)
				append(o, " %u,%u,%d,%d", f->events[i].type, f->events[i].code,
				       f->events[i].value, f->events[i].dt_us);
		}
		append(o, "\n");
	}
	tt_reader_free(r);
}

static size_t compared, accepted_lines;

static void
compare_line(const char *line, size_t len)
{
	static struct outcome a, b;
	size_t hl = strlen(HEADER DEVICE);
	char *text = tt_zalloc(hl + len + 2);

	memcpy(text, HEADER DEVICE, hl);
	memcpy(text + hl, line, len);
	text[hl + len] = '\n';
	const char *path = tt_test_tmpfile(text, hl + len + 1);
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", path);
	read_with(copy, true, &a);
	read_with(copy, false, &b);
	compared++;
	if (a.len != b.len || memcmp(a.text, b.text, a.len) != 0) {
		fprintf(stderr, "fast and json-c paths differ on: %.*s\n-- fast:\n%s-- json-c:\n%s",
			(int)len, line, a.text, b.text);
		tt_test_failures++;
	} else if (!strstr(a.text, "E ")) {
		accepted_lines++;
	}
	unlink(copy);
	free(text);
}

static const char alphabet[] = "0123456789-,[]{}\":truefalsdvpicomnyx .eE+\\\r\t\x01\xc3\xa9";

static void
mutate(char *buf, size_t *len, size_t cap, unsigned int *seed)
{
	int kind = rand_r(seed) % 4;
	size_t pos = *len ? (size_t)rand_r(seed) % *len : 0;
	char ch = alphabet[rand_r(seed) % (sizeof(alphabet) - 1)];

	switch (kind) {
	case 0:	/* replace */
		if (*len)
			buf[pos] = ch;
		break;
	case 1:	/* insert */
		if (*len + 1 < cap) {
			memmove(buf + pos + 1, buf + pos, *len - pos);
			buf[pos] = ch;
			(*len)++;
		}
		break;
	case 2:	/* delete */
		if (*len) {
			memmove(buf + pos, buf + pos + 1, *len - pos - 1);
			(*len)--;
		}
		break;
	default: { /* duplicate a run: makes longer numbers and nested arrays */
		size_t run = 1 + (size_t)rand_r(seed) % 8;
		if (pos + run <= *len && *len + run < cap) {
			memmove(buf + pos + run, buf + pos, *len - pos);
			(*len) += run;
		}
		break;
	}
	}
}

int
main(void)
{
	unsigned int seed = 12345;
	const char *iters_env = getenv("TT_FASTPATH_ITERATIONS");
	int iterations = iters_env ? atoi(iters_env) : 3000;

	for (size_t i = 0; i < ARRAY_LENGTH(seeds); i++)
		compare_line(seeds[i], strlen(seeds[i]));
	check_int_eq(accepted_lines, ARRAY_LENGTH(seeds));
	for (size_t i = 0; i < ARRAY_LENGTH(edges); i++)
		compare_line(edges[i], strlen(edges[i]));

	for (int i = 0; i < iterations; i++) {
		char buf[512];
		const char *s = seeds[(size_t)rand_r(&seed) % ARRAY_LENGTH(seeds)];
		size_t len = strlen(s);
		memcpy(buf, s, len);
		int nmut = 1 + rand_r(&seed) % 3;
		for (int m = 0; m < nmut; m++)
			mutate(buf, &len, sizeof(buf), &seed);
		/* A newline would split the line: keep it one record. */
		for (size_t k = 0; k < len; k++)
			if (buf[k] == '\n')
				buf[k] = ' ';
		compare_line(buf, len);
	}
	fprintf(stderr, "compared %zu lines, %zu accepted by both paths\n", compared, accepted_lines);
	return tt_test_result();
}
