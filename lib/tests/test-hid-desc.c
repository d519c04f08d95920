/* SPDX-License-Identifier: MIT */
/*
 * The HID report descriptor parser and report decoder (lib/hid-desc.h).
 *
 * Real descriptors and reports come from the public corpus's hid-recorder
 * files ($TT_CORPUS/hid-recorder, skipped when TT_CORPUS is unset; their
 * origins are in its SOURCES.tsv) and from public test suites, cited where
 * they are used. Malformed descriptors are built here, byte by byte, each
 * with the exact message it must give.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hid-desc.h"
#include "test-common.h"

#define MAX_REPORTS 8192

/* What a hid-recorder file holds for one device: its descriptor (the R:
 * line) and its input reports (E: lines), parsed just enough for these
 * tests; formats/ has the real reader. */
struct recording {
	uint8_t desc[16384];
	size_t desc_len;
	size_t nreports;
	uint8_t *reports[MAX_REPORTS];
	size_t lens[MAX_REPORTS];
};

static void
recording_free(struct recording *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nreports; i++)
		free(r->reports[i]);
	free(r);
}
DEFINE_TRIVIAL_CLEANUP_FUNC(struct recording *, recording_free);

/* "N hh hh ..." into @out; returns the count of bytes read, or -1 when it
 * disagrees with N. */
static long
parse_hex(const char *s, uint8_t *out, size_t max)
{
	char *end;
	long declared = strtol(s, &end, 10);
	size_t n = 0;

	for (s = end; n < max; s = end) {
		unsigned long b = strtoul(s, &end, 16);
		if (end == s)
			break;
		out[n++] = (uint8_t)b;
	}
	return (long)n == declared ? (long)n : -1;
}

static void
add_report(struct recording *r, const char *line)
{
	uint8_t buf[16384];
	const char *p = strchr(line + 3, ' ');	/* past the timestamp */
	long n = p ? parse_hex(p, buf, sizeof(buf)) : -1;

	check(n > 0);
	if (n <= 0 || r->nreports == MAX_REPORTS)
		return;
	r->reports[r->nreports] = malloc((size_t)n);
	memcpy(r->reports[r->nreports], buf, (size_t)n);
	r->lens[r->nreports++] = (size_t)n;
}

static struct recording *
load(const char *name)
{
	const char *corpus = getenv("TT_CORPUS");
	char path[4096];

	if (!corpus || !*corpus)
		return NULL;
	snprintf(path, sizeof(path), "%s/hid-recorder/%s", corpus, name);
	_cleanup_free_ char *text = tt_test_slurp(path, NULL);
	check(text != NULL);
	if (!text)
		return NULL;
	struct recording *r = calloc(1, sizeof(*r));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "R: ", 3) == 0) {
			long n = parse_hex(line + 3, r->desc, sizeof(r->desc));
			check(n > 0);
			r->desc_len = n > 0 ? (size_t)n : 0;
		} else if (strncmp(line, "E: ", 3) == 0) {
			add_report(r, line);
		}
	}
	return r;
}

static struct tt_hid_desc *
parse_ok(const uint8_t *data, size_t len)
{
	struct tt_hid_desc *d = NULL;
	_cleanup_free_ char *why = NULL;
	int rc = tt_hid_desc_parse(data, len, &d, &why);

	check_int_eq(rc, 0);
	if (why)
		fprintf(stderr, "parse failed: %s\n", why);
	return d;
}

/* A corpus file's recording and parsed descriptor; NULL when TT_CORPUS
 * is unset (or the descriptor fails, counted as a failure). */
static struct tt_hid_desc *
load_parsed(const char *name, struct recording **r)
{
	*r = load(name);
	return *r ? parse_ok((*r)->desc, (*r)->desc_len) : NULL;
}

/* The first field carrying @usage in a report of @kind (with ID @id, or
 * any when @id is -1), or NULL. */
static const struct tt_hid_field *
field_in(const struct tt_hid_desc *d, enum tt_hid_report_kind kind, int id, uint32_t usage)
{
	for (size_t i = 0; i < d->nfields; i++) {
		const struct tt_hid_field *f = &d->fields[i];
		if (f->kind != kind || (id >= 0 && f->report_id != id))
			continue;
		for (uint32_t u = 0; u < f->nusages; u++) {
			if (f->usages[u] == usage)
				return f;
		}
	}
	return NULL;
}

static const struct tt_hid_field *
field_with(const struct tt_hid_desc *d, enum tt_hid_report_kind kind, uint32_t usage)
{
	return field_in(d, kind, -1, usage);
}

#define DIG(id) TT_HID_USAGE(TT_HID_UP_DIGITIZER, id)
#define GD(id) TT_HID_USAGE(TT_HID_UP_GENERIC_DESKTOP, id)

/* Every report (all of report @id) declared and complete, every contact
 * down within the logical ranges of X and Y, never more down than the
 * Contact Count says: returns how many reports had @min_contacts or more
 * contacts down. (Fewer down than the count is what analyze reports as an
 * anomaly: the ELAN recording has one.) */
static size_t
check_all_reports(const struct recording *r, const struct tt_hid_desc *d, uint8_t id,
		  uint32_t min_contacts)
{
	const struct tt_hid_field *fx = field_in(d, TT_HID_INPUT, id, GD(0x30));
	const struct tt_hid_field *fy = field_in(d, TT_HID_INPUT, id, GD(0x31));
	size_t many = 0;

	check(fx && fy);
	if (!fx || !fy)
		return 0;
	for (size_t i = 0; i < r->nreports; i++) {
		struct tt_hid_decoded out;
		uint32_t down = 0;
		check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
		check(out.declared && out.report_id == id);
		check(!out.short_report);
		for (uint32_t c = 0; c < out.ncontacts; c++) {
			const struct tt_hid_contact *t = &out.contacts[c];
			if (!t->tip)
				continue;
			down++;
			check(t->has_x && t->has_y);
			check(t->x >= fx->logical_min && t->x <= fx->logical_max);
			check(t->y >= fy->logical_min && t->y <= fy->logical_max);
		}
		if (out.has_contact_count)
			check((int32_t)down <= out.contact_count);
		if (down >= min_contacts)
			many++;
	}
	return many;
}

/* ---- every corpus descriptor ---- */

static void
test_corpus_all_parse(void)
{
	const char *corpus = getenv("TT_CORPUS");
	char dir[4096];
	int parsed = 0;

	if (!corpus || !*corpus) {
		fprintf(stderr, "TT_CORPUS unset: corpus part skipped\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/hid-recorder", corpus);
	DIR *dp = opendir(dir);
	check(dp != NULL);
	if (!dp)
		return;
	for (struct dirent *e; (e = readdir(dp));) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "SOURCES.tsv") == 0)
			continue;
		_cleanup_(recording_freep) struct recording *r = load(e->d_name);
		check(r && r->desc_len > 0);
		if (!r)
			continue;
		_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_ok(r->desc, r->desc_len);
		if (!d) {
			fprintf(stderr, "  in %s\n", e->d_name);
			continue;
		}
		parsed++;
		/* Every descriptor there is a touchpad, touchscreen or pen. */
		check(tt_hid_desc_is_touch(d));
		for (size_t i = 0; i < r->nreports; i++) {
			struct tt_hid_decoded out;
			check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
			check(out.declared);
		}
	}
	closedir(dp);
	check(parsed >= 9);
}

/* ELAN1206 (04f3:30f1), an I2C precision touchpad: one contact per report
 * (ID 4), Contact Count Maximum in feature report 2. */
static void
test_corpus_elan(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = load_parsed("elan1206-04f3-30f1-touchpad.hid", &r);
	if (!d)
		return;
	check(d->numbered);
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, GD(0x02));	/* the mouse collection comes first */

	const struct tt_hid_field *ccm = field_with(d, TT_HID_FEATURE, DIG(0x55));
	check(ccm != NULL);
	if (ccm)
		check_int_eq(ccm->report_id, 2);
	uint8_t ids[256];
	size_t n = tt_hid_desc_feature_ids(d, ids, sizeof(ids));
	static const uint8_t want[] = { 2, 3, 5, 6, 7, 11, 12, 13, 14 };
	check_int_eq(n, sizeof(want));
	check(n == sizeof(want) && memcmp(ids, want, n) == 0);
	check_int_eq(tt_hid_desc_feature_ids(d, ids, 2), 2);

	const struct tt_hid_report_info *ri = tt_hid_desc_report(d, TT_HID_INPUT, 4);
	check(ri != NULL);
	if (ri)
		check_int_eq(ri->bits, 13 * 8);
	check(tt_hid_desc_report(d, TT_HID_OUTPUT, 4) == NULL);

	/* E: 0.000000 14 04 03 ae 00 51 06 20 b4 01 80 1a 33 00 00 */
	check_int_eq(r->nreports, 25);
	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, r->reports[0], r->lens[0], &out), 0);
	check_int_eq(out.report_id, 4);
	check_int_eq(out.ncontacts, 1);
	check(out.contacts[0].has_id && out.contacts[0].contact_id == 0);
	check(out.contacts[0].tip && out.contacts[0].confidence);
	check_int_eq(out.contacts[0].x, 0x00ae);
	check_int_eq(out.contacts[0].y, 0x0651);
	check(out.has_contact_count && out.contact_count == 1);
	check(out.has_scan_time && out.scan_time == 0xb420);
	check_int_eq(out.buttons, 0);
	check(!out.pen.present);
	check_int_eq(check_all_reports(r, d, 4, 1), 23);
}

/* ILTP7807 (222a:fff1), an I2C touchscreen: ten contact slots per report,
 * one finger. */
static void
test_corpus_ilitek(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = load_parsed("ilitek-iltp7807-222a-fff1-touchscreen.hid", &r);
	if (!d)
		return;
	check_int_eq(d->application, DIG(0x04));
	check(tt_hid_desc_is_touch(d));
	const struct tt_hid_field *ccm = field_with(d, TT_HID_FEATURE, DIG(0x55));
	check(ccm != NULL);
	if (ccm)
		check_int_eq(ccm->report_id, 2);
	const struct tt_hid_field *fx = field_with(d, TT_HID_INPUT, GD(0x30));
	check(fx && fx->logical_max == 2047 && fx->physical_max == 867);
	check(fx && fx->unit == 0x11 && fx->unit_exponent == -2);

	check_int_eq(r->nreports, 590);
	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, r->reports[0], r->lens[0], &out), 0);
	check_int_eq(out.report_id, 1);
	check_int_eq(out.ncontacts, 10);
	check(out.contacts[0].tip && out.contacts[0].contact_id == 0);
	check_int_eq(out.contacts[0].x, 2004);
	check_int_eq(out.contacts[0].y, 43);
	for (uint32_t i = 1; i < out.ncontacts; i++)
		check(!out.contacts[i].tip);
	check_int_eq(out.contacts[1].contact_id, 9);
	check(out.has_contact_count && out.contact_count == 1);
	check_int_eq(check_all_reports(r, d, 1, 1), 587);
}

/* DLL0945 (06cb:ce26), a Synaptics precision touchpad: up to three
 * fingers at once in five slots. */
static void
test_corpus_synaptics(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = load_parsed("synaptics-dll0945-06cb-ce26-touchpad.hid", &r);
	if (!d)
		return;
	check(tt_hid_desc_is_touch(d));
	check_int_eq(r->nreports, 466);
	/* E: 000085.391130 30 03 03 da 01 4f 01 00 ... 29 94 01 00 */
	struct tt_hid_decoded out;
	check_int_eq(tt_hid_decode(d, r->reports[0], r->lens[0], &out), 0);
	check_int_eq(out.report_id, 3);
	check_int_eq(out.ncontacts, 5);
	check(out.contacts[0].tip && out.contacts[0].confidence);
	check_int_eq(out.contacts[0].x, 0x01da);
	check_int_eq(out.contacts[0].y, 0x014f);
	check(out.has_scan_time && out.scan_time == 0x9429);
	check(out.has_contact_count && out.contact_count == 1);
	/* Three fingers down at once in some reports, with distinct IDs. */
	check(check_all_reports(r, d, 3, 3) > 0);
	for (size_t i = 0; i < r->nreports; i++) {
		check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
		if (out.contact_count != 3)
			continue;
		check(out.contacts[0].contact_id != out.contacts[1].contact_id);
		check(out.contacts[1].contact_id != out.contacts[2].contact_id);
		break;
	}
}

/* ---- hand-built descriptors ---- */

/* A one-finger touchscreen: report 1 = Tip Switch, 7 bits padding,
 * Contact Id (8), X and Y (16, 0..4095), Contact Count (8). */
static const uint8_t touchscreen[] = {
	0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01,
	0x09, 0x22, 0xa1, 0x02,
	0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02,
	0x95, 0x07, 0x81, 0x03,
	0x09, 0x51, 0x25, 0x0f, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	0x05, 0x01, 0x26, 0xff, 0x0f, 0x75, 0x10, 0x09, 0x30, 0x09, 0x31, 0x95, 0x02, 0x81, 0x02,
	0xc0,
	0x05, 0x0d, 0x09, 0x54, 0x25, 0x0a, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	0x85, 0x02, 0x09, 0x55, 0xb1, 0x02,
	0xc0,
};

static void
test_short_report(void)
{
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = parse_ok(touchscreen, sizeof(touchscreen));
	if (!d)
		return;
	const uint8_t full[] = { 0x01, 0x01, 0x05, 0x34, 0x12, 0x78, 0x06, 0x01 };
	struct tt_hid_decoded out;

	check_int_eq(tt_hid_decode(d, full, sizeof(full), &out), 0);
	check(out.declared && !out.short_report);
	check_int_eq(out.ncontacts, 1);
	check(out.contacts[0].tip && out.contacts[0].contact_id == 5);
	check_int_eq(out.contacts[0].x, 0x1234);
	check_int_eq(out.contacts[0].y, 0x0678);
	check(out.has_contact_count && out.contact_count == 1);

	/* Cut inside Y: tip, ID and X decode, Y and the count do not. */
	check_int_eq(tt_hid_decode(d, full, 6, &out), 0);
	check(out.declared && out.short_report);
	check(out.contacts[0].tip && out.contacts[0].has_x && out.contacts[0].x == 0x1234);
	check(!out.contacts[0].has_y);
	check(!out.has_contact_count);

	/* Only the ID byte. */
	check_int_eq(tt_hid_decode(d, full, 1, &out), 0);
	check(out.declared && out.short_report && out.ncontacts == 0);

	/* Empty and undeclared. */
	check_int_eq(tt_hid_decode(d, full, 0, &out), -EINVAL);
	const uint8_t other[] = { 0x07, 0xff };
	check_int_eq(tt_hid_decode(d, other, sizeof(other), &out), 0);
	check(!out.declared && out.report_id == 7 && out.ncontacts == 0);
	check_int_eq(tt_hid_report_fields(d, other, sizeof(other), NULL, NULL), -ENOENT);
}

struct bad {
	const char *what;
	const uint8_t *bytes;
	size_t len;
	const char *message;
};

#define B(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

static void
test_malformed(void)
{
	const struct bad cases[] = {
		{ "truncated item", B(0x05, 0x0d, 0x26, 0xff),
		  "item 2 at byte 2: item of 2 data bytes past the end (1 left)" },
		{ "long item past the end", B(0x05, 0x0d, 0xfe, 0x10, 0x00, 0x01),
		  "item 2 at byte 2: long item of 16 data bytes past the end (1 left)" },
		{ "long item header cut", B(0xfe, 0x01),
		  "item 1 at byte 0: long item header past the end (2 of 3 bytes)" },
		{ "Pop without Push", B(0x05, 0x01, 0xb4),
		  "item 2 at byte 2: Pop without Push" },
		{ "Push 17 deep", B(0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4,
				    0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4),
		  "item 17 at byte 16: Push deeper than 16" },
		{ "End Collection alone", B(0x09, 0x01, 0xc0),
		  "item 2 at byte 2: End Collection without a Collection" },
		{ "unclosed collection", B(0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0xa1, 0x02, 0xc0),
		  "item 6 at byte 9: the descriptor ends inside 1 open collection" },
		{ "Report Size 0", B(0x75, 0x00),
		  "item 1 at byte 0: Report Size 0 (1..256)" },
		{ "Report Size 257", B(0x76, 0x01, 0x01),
		  "item 1 at byte 0: Report Size 257 (1..256)" },
		{ "Report Count huge", B(0x97, 0x00, 0x00, 0x00, 0x01),
		  "item 1 at byte 0: Report Count 16777216 over 131072" },
		{ "report past 16384 bytes", B(0x75, 0x20, 0x96, 0x00, 0x10, 0x81, 0x02, 0x81, 0x02),
		  "item 4 at byte 7: Input report 0 over 16384 bytes" },
		{ "Input without Report Size", B(0x95, 0x01, 0x81, 0x02),
		  "item 2 at byte 2: Input without a Report Size" },
		{ "Report ID 0", B(0x85, 0x00),
		  "item 1 at byte 0: Report ID 0 (1..255)" },
		{ "Report ID 256", B(0x86, 0x00, 0x01),
		  "item 1 at byte 0: Report ID 256 (1..255)" },
		{ "usage min > max", B(0x05, 0x09, 0x19, 0x05, 0x29, 0x02),
		  "item 3 at byte 4: Usage Minimum 0x5 over Usage Maximum 0x2" },
		{ "usage range across pages", B(0x05, 0x09, 0x1b, 0x01, 0x00, 0x01, 0x00, 0x29, 0x02),
		  "item 3 at byte 7: Usage Minimum 0x00010001 and Maximum 0x00090002 on different pages" },
		{ "nested Delimiter", B(0xa9, 0x01, 0xa9, 0x01),
		  "item 2 at byte 2: nested Delimiter" },
		{ "Delimiter close alone", B(0xa9, 0x00),
		  "item 1 at byte 0: Delimiter close without an open" },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(cases); i++) {
		struct tt_hid_desc sentinel;
		struct tt_hid_desc *d = &sentinel;	/* untouched on failure */
		_cleanup_free_ char *why = NULL;
		fprintf(stderr, "   %s\n", cases[i].what);
		check_int_eq(tt_hid_desc_parse(cases[i].bytes, cases[i].len, &d, &why), -EINVAL);
		check(d == &sentinel);
		check_str_eq(why, cases[i].message);
		/* A NULL @why is allowed. */
		check_int_eq(tt_hid_desc_parse(cases[i].bytes, cases[i].len, &d, NULL), -EINVAL);
	}
}

/* Counts past TT_HID_MAX_*: built in a buffer. */
static void
test_limits(void)
{
	uint8_t buf[8200];
	size_t n = 0;
	_cleanup_free_ char *why = NULL;
	struct tt_hid_desc *d = NULL;

	/* 513 nested collections. */
	for (unsigned i = 0; i < TT_HID_MAX_COLLECTIONS + 1; i++) {
		buf[n++] = 0xa1;
		buf[n++] = 0x02;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 513 at byte 1024: more than 512 collections");
	free(steal(&why));

	/* 1025 one-bit fields. */
	n = 0;
	buf[n++] = 0x75; buf[n++] = 0x01; buf[n++] = 0x95; buf[n++] = 0x01;
	for (unsigned i = 0; i < TT_HID_MAX_FIELDS + 1; i++) {
		buf[n++] = 0x81;
		buf[n++] = 0x02;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 1027 at byte 2052: more than 1024 fields");
	free(steal(&why));

	/* 4097 usages before a main item. */
	n = 0;
	for (unsigned i = 0; i < TT_HID_MAX_USAGES + 1 && n + 2 <= sizeof(buf); i++) {
		buf[n++] = 0x09;
		buf[n++] = 0x01;
	}
	check_int_eq(tt_hid_desc_parse(buf, n, &d, &why), -EINVAL);
	check_str_eq(why, "item 4097 at byte 8192: more than 4096 usages before a main item");
	check(d == NULL);
}

static void
test_usage_names(void)
{
	char buf[32];

	check_str_eq(tt_hid_usage_name(DIG(0x42), buf, sizeof(buf)), "Digitizers/Tip Switch");
	check_str_eq(tt_hid_usage_name(GD(0x30), buf, sizeof(buf)), "Generic Desktop/X");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(TT_HID_UP_BUTTON, 3), buf, sizeof(buf)), "Button/3");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(0xff00, 1), buf, sizeof(buf)), "0xff00/0x0001");
	check_str_eq(tt_hid_usage_name(DIG(0xff), buf, sizeof(buf)), "Digitizers/0x00ff");
	check_str_eq(tt_hid_usage_name(TT_HID_USAGE(0x0c, 0x238), buf, sizeof(buf)), "Consumer/0x0238");
}

int
main(void)
{
	RUN(test_corpus_all_parse);
	RUN(test_corpus_elan);
	RUN(test_corpus_ilitek);
	RUN(test_corpus_synaptics);
	RUN(test_short_report);
	RUN(test_malformed);
	RUN(test_limits);
	RUN(test_usage_names);
	return tt_test_result();
}
