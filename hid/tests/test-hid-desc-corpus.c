/* SPDX-License-Identifier: MIT */
/*
 * The HID report descriptor parser and report decoder (hid/hid-desc.h) on
 * the corpus's hid-recorder files: tests/corpus/hid-recorder, or the whole
 * public corpus's with $TT_CORPUS. The project's own recordings
 * (tests/corpus/make-hid.py) and the Huion pen descriptors tests/corpus
 * ships are checked always; the real ELAN, ILITEK, Synaptics and Acer
 * ones, whose licence is unclear, only with the public corpus (their
 * origins are in its SOURCES.tsv).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hid-desc.h"
#include "test-common.h"
#include "test-hid-desc.h"

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

long
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
read_recording(const char *path)
{
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

/* The corpus's hid-recorder file @name (tests/corpus, or $TT_CORPUS's), or
 * NULL when the project's corpus lacks it: it leaves out the recordings
 * whose licence is unclear, which the whole public corpus has; its own
 * recordings stand in for them. */
static struct recording *
load(const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/hid-recorder/%s", tt_test_corpus(), name);
	if (access(path, R_OK) != 0 && !getenv("TT_CORPUS")) {
		fprintf(stderr, "%s: only in the public corpus ($TT_CORPUS), not read\n", name);
		return NULL;
	}
	return read_recording(path);
}

/* A corpus file's recording and parsed descriptor; NULL when the file is
 * not in the project's corpus (or the descriptor fails, counted as a
 * failure). */
static struct tt_hid_desc *
load_parsed(const char *name, struct recording **r)
{
	*r = load(name);
	return *r ? parse_ok((*r)->desc, (*r)->desc_len) : NULL;
}

/* The same of the project's own recording @name (tests/corpus/make-hid.py),
 * read from tests/corpus whatever $TT_CORPUS says. */
static struct tt_hid_desc *
own_parsed(const char *name, struct recording **r)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/corpus/hid-recorder/%s", tt_test_srcdir(), name);
	*r = read_recording(path);
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

/* Every report declared and complete, @others of them of another ID than
 * @id (a keyboard's, a pen's); in those of @id every contact down within
 * the logical ranges of X and Y, never more down than the Contact Count
 * says: returns how many reports of @id had @min_contacts or more contacts
 * down. (Fewer down than the count is what analyze reports as an anomaly:
 * the ELAN recording has one.) */
static size_t
check_all_reports(const struct recording *r, const struct tt_hid_desc *d, uint8_t id,
		  uint32_t min_contacts, size_t others)
{
	const struct tt_hid_field *fx = field_in(d, TT_HID_INPUT, id, GD(0x30));
	const struct tt_hid_field *fy = field_in(d, TT_HID_INPUT, id, GD(0x31));
	size_t many = 0, other = 0;

	check(fx && fy);
	if (!fx || !fy)
		return 0;
	for (size_t i = 0; i < r->nreports; i++) {
		struct tt_hid_decoded out;
		const struct tt_hid_report_info *ri = tt_hid_desc_report(d, TT_HID_INPUT, r->reports[i][0]);
		uint32_t down = 0;
		check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
		check(ri && out.declared && out.report_id == r->reports[i][0]);
		check(!out.short_report);
		/* hidraw hands out exactly the declared size. */
		check(ri && r->lens[i] == 1 + (ri->bits + 7) / 8);
		if (out.report_id != id) {
			other++;
			continue;
		}
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
	check_int_eq(other, others);
	return many;
}

/* What the first report of a recording holds: its ID, how many contact
 * slots, and its first contact down with its Contact Id and position, and
 * the Contact Count. */
struct first_report {
	uint8_t id;
	uint32_t ncontacts;
	int32_t contact_id, x, y, contact_count;
};

/* Decodes the first report of @r into @out and checks it is @want. */
static void
check_first_report(const struct recording *r, const struct tt_hid_desc *d,
		   const struct first_report *want, struct tt_hid_decoded *out)
{
	check_int_eq(tt_hid_decode(d, r->reports[0], r->lens[0], out), 0);
	check_int_eq(out->report_id, want->id);
	check_int_eq(out->ncontacts, want->ncontacts);
	check(out->contacts[0].tip && out->contacts[0].has_id);
	check_int_eq(out->contacts[0].contact_id, want->contact_id);
	check_int_eq(out->contacts[0].x, want->x);
	check_int_eq(out->contacts[0].y, want->y);
	check(out->has_contact_count && out->contact_count == want->contact_count);
}

/* ---- every corpus descriptor ---- */

static void
test_corpus_all_parse(void)
{
	char dir[4096];
	int parsed = 0;

	snprintf(dir, sizeof(dir), "%s/hid-recorder", tt_test_corpus());
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
	/* Files: 9 in the public corpus, 7 in tests/corpus (2 pens, 5 own). */
	check(parsed >= (getenv("TT_CORPUS") ? 9 : 7));
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
	check_first_report(r, d, &(struct first_report){ 4, 1, 0, 0x00ae, 0x0651, 1 }, &out);
	check(out.contacts[0].confidence);
	check(out.has_scan_time && out.scan_time == 0xb420);
	check_int_eq(out.buttons, 0);
	check(!out.pen.present);
	check_int_eq(check_all_reports(r, d, 4, 1, 0), 23);
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
	check_first_report(r, d, &(struct first_report){ 1, 10, 0, 2004, 43, 1 }, &out);
	for (uint32_t i = 1; i < out.ncontacts; i++)
		check(!out.contacts[i].tip);
	check_int_eq(out.contacts[1].contact_id, 9);

	/* A lift report: every Tip Switch of the first report off, the rest
	 * (IDs, positions) kept. */
	uint8_t lift[128];
	check(r->lens[0] <= sizeof(lift));
	memcpy(lift, r->reports[0], r->lens[0]);
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x42), 0), 10);
	check_int_eq(tt_hid_decode(d, lift, r->lens[0], &out), 0);
	for (uint32_t i = 0; i < out.ncontacts; i++)
		check(out.contacts[i].has_tip && !out.contacts[i].tip);
	check(out.contacts[0].x == 2004 && out.contacts[0].y == 43 && out.contacts[0].contact_id == 0);
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x54), 0), 1);
	check_int_eq(tt_hid_decode(d, lift, r->lens[0], &out), 0);
	check(out.has_contact_count && out.contact_count == 0);
	/* Only what fits is written; nothing of an undeclared report. */
	check_int_eq(tt_hid_report_set(d, lift, 10, DIG(0x42), 1), 0);	/* the first tip is bit 72 */
	check_int_eq(tt_hid_report_set(d, lift, 11, DIG(0x42), 1), 1);
	lift[0] = 0x42;
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x42), 0), -ENOENT);
	check_int_eq(check_all_reports(r, d, 1, 1, 0), 587);
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
	check_first_report(r, d, &(struct first_report){ 3, 5, 0, 0x01da, 0x014f, 1 }, &out);
	check(out.contacts[0].confidence);
	check(out.has_scan_time && out.scan_time == 0x9429);
	/* Three fingers down at once in some reports, with distinct IDs. */
	check(check_all_reports(r, d, 3, 3, 0) > 0);
	for (size_t i = 0; i < r->nreports; i++) {
		check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
		if (out.contact_count != 3)
			continue;
		check(out.contacts[0].contact_id != out.contacts[1].contact_id);
		check(out.contacts[1].contact_id != out.contacts[2].contact_id);
		break;
	}
}

/* The corpus has pen descriptors but no pen reports (the PenPartner's
 * are vendor-defined): these reports are built from the descriptors'
 * layouts, as their hid-decode comments spell them out. (The project's
 * own touchscreen with a pen has pen reports: test_own_pen.) */
static void
test_corpus_acer(void)
{
	struct tt_hid_decoded out;

	/* Acer's USI pen, report 7: In Range, Tip, Barrel, Invert, Eraser,
	 * X, Y, Tip Pressure, ..., a 64-bit Transducer Serial Number. */
	_cleanup_(recording_freep) struct recording *acer = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = load_parsed("acer-usi-touchscreen-pen-rdesc.hid", &acer);
	if (!d)
		return;
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, DIG(0x04));
	const uint8_t usi[] = { 0x07, 0x03, 0x34, 0x12, 0x78, 0x06, 0x00, 0x08, 0x64, 0x01, 0x00,
				0x00, 0x01, 0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
	check_int_eq(tt_hid_decode(d, usi, sizeof(usi), &out), 0);
	check(out.declared && !out.short_report && out.pen.present && out.ncontacts == 0);
	check(out.pen.in_range && out.pen.tip && !out.pen.barrel && !out.pen.invert && !out.pen.eraser);
	check_int_eq(out.pen.x, 0x1234);
	check_int_eq(out.pen.y, 0x0678);
	check_int_eq(out.pen.pressure, 0x0800);
	const struct tt_hid_field *sn = field_in(d, TT_HID_INPUT, 7, DIG(0x5b));
	check(sn && sn->bit_size == 64);
	/* Its touch screen, report 1: five fingers. */
	const uint8_t touch[42] = { 0x01 };
	check_int_eq(tt_hid_decode(d, touch, sizeof(touch), &out), 0);
	check(!out.pen.present);
	check_int_eq(out.ncontacts, 5);
	uint8_t ids[256];
	check_int_eq(tt_hid_desc_feature_ids(d, ids, sizeof(ids)), 12);	/* 6, 10, 68, 97..105 */
	check(ids[0] == 6 && ids[1] == 10 && ids[2] == 68 && ids[3] == 97 && ids[11] == 105);

}

static void
test_corpus_huion(void)
{
	struct tt_hid_decoded out;

	/* Huion Inspiroy 2 S, report 10: Tip, Barrel, Eraser, Invert over six
	 * bits (the last two are no Inverts), In Range, X, Y, Tip Pressure,
	 * X and Y Tilt. */
	_cleanup_(recording_freep) struct recording *huion = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *h = load_parsed("huion-inspiroy2s-256c-0066-pen.hid", &huion);
	if (!h)
		return;
	check_int_eq(h->application, DIG(0x02));
	const uint8_t hr[] = { 0x0a, 0x51, 0x34, 0x12, 0x67, 0x05, 0xff, 0x0f, 0xfb, 0x07 };
	check_int_eq(tt_hid_decode(h, hr, sizeof(hr), &out), 0);
	check(out.declared && !out.short_report && out.pen.present);
	check(out.pen.tip && out.pen.in_range && !out.pen.invert && !out.pen.barrel && !out.pen.eraser);
	check_int_eq(out.pen.x, 0x1234);
	check_int_eq(out.pen.y, 0x0567);
	check_int_eq(out.pen.pressure, 0x0fff);
	const struct tt_hid_field *tilt = field_in(h, TT_HID_INPUT, 10, DIG(0x3d));
	check(tilt && tilt->logical_min == -127);
	struct values v = values_of(h, hr, sizeof(hr));
	check(v.n > 0 && v.usage[v.n - 2] == DIG(0x3d) && v.value[v.n - 2] == -5);
	check(v.usage[v.n - 1] == DIG(0x3e) && v.value[v.n - 1] == 7);
}

/* ---- the project's own recordings (tests/corpus/make-hid.py) ---- */

/* touchtape-touchpad.hid, a precision-touchpad-style touchpad: two contact
 * slots per report (ID 1), Confidence, Scan Time, Contact Count and a
 * button; no feature report. */
static void
test_own_touchpad(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = own_parsed("touchtape-touchpad.hid", &r);
	uint8_t ids[256];

	check(d != NULL);
	if (!d)
		return;
	check(d->numbered);
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, DIG(0x05));
	check(field_with(d, TT_HID_FEATURE, DIG(0x55)) == NULL);
	check_int_eq(tt_hid_desc_feature_ids(d, ids, sizeof(ids)), 0);
	const struct tt_hid_report_info *ri = tt_hid_desc_report(d, TT_HID_INPUT, 1);
	check(ri && ri->bits == 14 * 8);
	check(tt_hid_desc_report(d, TT_HID_OUTPUT, 1) == NULL);

	/* E: 000000.000000 15 01 03 20 03 84 03 00 00 00 00 00 00 00 01 00 */
	check_int_eq(r->nreports, 253);
	struct tt_hid_decoded out;
	check_first_report(r, d, &(struct first_report){ 1, 2, 0, 800, 900, 1 }, &out);
	check(out.contacts[0].confidence);
	check(!out.contacts[1].tip && !out.contacts[1].confidence);
	check(out.has_scan_time && out.scan_time == 0);
	check_int_eq(out.buttons, 0);
	check(!out.pen.present);
	/* The click: the button down in 12 reports. */
	size_t clicks = 0;
	for (size_t i = 0; i < r->nreports; i++)
		clicks += tt_hid_decode(d, r->reports[i], r->lens[i], &out) == 0 && out.buttons == 1;
	check_int_eq(clicks, 12);
	check_int_eq(check_all_reports(r, d, 1, 1, 0), 248);
	check_int_eq(check_all_reports(r, d, 1, 2, 0), 70);
}

/* touchtape-touchscreen-features.hid: the touchscreen of report 1 with
 * Contact Count Maximum in feature report 2, the blob (4), Device Mode (5),
 * vendor reports 6 and 7, and a keyboard (input report 3). */
static void
test_own_features(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = own_parsed("touchtape-touchscreen-features.hid", &r);

	check(d != NULL);
	if (!d)
		return;
	check(d->numbered);
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, DIG(0x04));
	const struct tt_hid_field *ccm = field_with(d, TT_HID_FEATURE, DIG(0x55));
	check(ccm && ccm->report_id == 2 && ccm->logical_max == 10);
	const struct tt_hid_field *mode = field_with(d, TT_HID_FEATURE, DIG(0x52));
	check(mode && mode->report_id == 5);
	const struct tt_hid_field *blob = field_with(d, TT_HID_FEATURE, TT_HID_USAGE(0xff00, 0xc5));
	check(blob && blob->report_id == 4 && blob->count == 256);
	uint8_t ids[256];
	size_t n = tt_hid_desc_feature_ids(d, ids, sizeof(ids));
	static const uint8_t want[] = { 2, 4, 5, 6, 7 };
	check_int_eq(n, sizeof(want));
	check(n == sizeof(want) && memcmp(ids, want, n) == 0);
	check_int_eq(tt_hid_desc_feature_ids(d, ids, 2), 2);
	const struct tt_hid_report_info *fi = tt_hid_desc_report(d, TT_HID_FEATURE, 7);
	check(fi && fi->bits == 127 * 8);
	const struct tt_hid_field *fx = field_in(d, TT_HID_INPUT, 1, GD(0x30));
	check(fx && fx->logical_max == 4095 && fx->physical_max == 2560);
	check(fx && fx->unit == 0x11 && fx->unit_exponent == -2);
	check(field_in(d, TT_HID_INPUT, 3, TT_HID_USAGE(0x07, 0xe1)) != NULL);	/* Left Shift */

	/* E: 000000.000000 14 01 07 e8 03 e8 03 00 00 00 00 00 00 00 01 */
	check_int_eq(r->nreports, 132);
	struct tt_hid_decoded out;
	check_first_report(r, d, &(struct first_report){ 1, 2, 0, 1000, 1000, 1 }, &out);
	check(out.contacts[0].confidence && !out.contacts[1].tip);

	/* A lift report: both Tip Switches off, the rest kept. */
	uint8_t lift[16];
	memcpy(lift, r->reports[0], r->lens[0]);
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x42), 0), 2);
	check_int_eq(tt_hid_decode(d, lift, r->lens[0], &out), 0);
	check(out.contacts[0].has_tip && !out.contacts[0].tip && out.contacts[0].x == 1000);
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x54), 0), 1);
	check_int_eq(tt_hid_decode(d, lift, r->lens[0], &out), 0);
	check(out.has_contact_count && out.contact_count == 0);
	check_int_eq(tt_hid_report_set(d, lift, 1, DIG(0x42), 1), 0);	/* the first tip is bit 10 */
	check_int_eq(tt_hid_report_set(d, lift, 2, DIG(0x42), 1), 1);
	lift[0] = 0x42;
	check_int_eq(tt_hid_report_set(d, lift, r->lens[0], DIG(0x42), 0), -ENOENT);
	/* 126 touch reports, 6 of the keyboard. */
	check_int_eq(check_all_reports(r, d, 1, 1, 6), 122);
	check_int_eq(check_all_reports(r, d, 1, 2, 6), 40);
}

/* touchtape-touchscreen-pen.hid: the touchscreen (report 1) and a Stylus
 * (report 2: In Range, Tip, Barrel, Invert, Eraser, X, Y, Tip Pressure,
 * X and Y Tilt in signed degrees), with pen reports. */
static void
test_own_pen(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = own_parsed("touchtape-touchscreen-pen.hid", &r);
	struct tt_hid_decoded out;
	uint8_t ids[256];

	check(d != NULL);
	if (!d)
		return;
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, DIG(0x04));
	check_int_eq(tt_hid_desc_feature_ids(d, ids, sizeof(ids)), 0);
	const struct tt_hid_field *tilt = field_in(d, TT_HID_INPUT, 2, DIG(0x3d));
	check(tilt && tilt->logical_min == -60 && tilt->logical_max == 60 && tilt->bit_size == 8);
	const struct tt_hid_field *px = field_in(d, TT_HID_INPUT, 2, GD(0x30));
	check(px && px->logical_max == 9600 && px->unit == 0x11 && px->unit_exponent == -2);

	/* E: ... 10 02 03 00 10 00 10 00 01 0a fb: the tip down. */
	check_int_eq(r->nreports, 245);
	check_int_eq(tt_hid_decode(d, r->reports[1], r->lens[1], &out), 0);
	check(out.declared && !out.short_report && out.pen.present && out.ncontacts == 0);
	check(out.pen.in_range && out.pen.tip && !out.pen.barrel && !out.pen.invert && !out.pen.eraser);
	check_int_eq(out.pen.x, 4096);
	check_int_eq(out.pen.y, 4096);
	check_int_eq(out.pen.pressure, 256);
	struct values v = values_of(d, r->reports[1], r->lens[1]);
	check(v.n >= 2 && v.usage[v.n - 2] == DIG(0x3d) && v.value[v.n - 2] == 10);
	check(v.usage[v.n - 1] == DIG(0x3e) && v.value[v.n - 1] == -5);
	/* Out of range: every bit off. */
	check_int_eq(tt_hid_decode(d, r->reports[5], r->lens[5], &out), 0);
	check(out.pen.present && !out.pen.in_range && !out.pen.tip);

	/* The barrel held while hovering, the eraser end touching (Invert and
	 * Eraser, no Tip): E: ... 10 02 19 70 17 e8 03 fa 00 14 0f. */
	size_t barrel = 0, eraser = 0, touch = 0;
	for (size_t i = 0; i < r->nreports; i++) {
		check_int_eq(tt_hid_decode(d, r->reports[i], r->lens[i], &out), 0);
		barrel += out.pen.present && out.pen.barrel;
		eraser += out.pen.present && out.pen.eraser && out.pen.invert && !out.pen.tip;
		touch += !out.pen.present && out.ncontacts == 2;
	}
	check_int_eq(barrel, 24);
	check_int_eq(eraser, 40);
	check_int_eq(touch, 72);
	check_int_eq(tt_hid_decode(d, r->reports[157], r->lens[157], &out), 0);
	check(out.pen.eraser && out.pen.x == 6000 && out.pen.y == 1000 && out.pen.pressure == 250);
	check_int_eq(check_all_reports(r, d, 1, 1, 173), 70);
}

/* touchtape-touchpad-ghost.hid, five contact slots: three fingers down at
 * once, then contacts that are no longer reported while Contact Count
 * drops (the Synaptics DLL0945's ghost fingers). */
static void
test_own_ghost(void)
{
	_cleanup_(recording_freep) struct recording *r = NULL;
	_cleanup_(tt_hid_desc_freep) struct tt_hid_desc *d = own_parsed("touchtape-touchpad-ghost.hid", &r);
	struct tt_hid_decoded out;

	check(d != NULL);
	if (!d)
		return;
	check(tt_hid_desc_is_touch(d));
	check_int_eq(d->application, DIG(0x05));
	check_int_eq(r->nreports, 168);
	/* E: 000000.000000 30 01 03 2c 01 2c 01 00 ... 00 00 01 00 */
	check_first_report(r, d, &(struct first_report){ 1, 5, 0, 300, 300, 1 }, &out);
	check(out.contacts[0].confidence);
	check(out.has_scan_time && out.scan_time == 0);
	/* Three fingers down at once in 30 reports. */
	check_int_eq(check_all_reports(r, d, 1, 3, 0), 30);
	/* Report 78: only contact 1 reported, lifting, Contact Count 1 (0 and
	 * 2, down in the report before, are gone). */
	check_int_eq(tt_hid_decode(d, r->reports[76], r->lens[76], &out), 0);
	check(out.contact_count == 3 && out.contacts[0].contact_id == 0);
	check(out.contacts[1].contact_id == 1 && out.contacts[2].contact_id == 2);
	check_int_eq(tt_hid_decode(d, r->reports[77], r->lens[77], &out), 0);
	check(out.contact_count == 1 && out.contacts[0].contact_id == 1 && !out.contacts[0].tip);
	check(out.contacts[0].confidence && !out.contacts[1].confidence);
}

void
test_corpus_recordings(void)
{
	RUN(test_corpus_all_parse);
	RUN(test_own_touchpad);
	RUN(test_own_features);
	RUN(test_own_pen);
	RUN(test_own_ghost);
	RUN(test_corpus_elan);
	RUN(test_corpus_ilitek);
	RUN(test_corpus_synaptics);
	RUN(test_corpus_acer);
	RUN(test_corpus_huion);
}
