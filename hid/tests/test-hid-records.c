/* SPDX-License-Identifier: MIT */
/* The timeline's HID records: written and read back byte for byte, and
 * every hostile hid_device / hid line refused with the line and the key
 * named. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "reader.h"
#include "test-common.h"
#include "util-mem.h"
#include "writer.h"

static const uint8_t descriptor[] = {
	0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01, 0x09, 0x22, 0xa1, 0x02,
	0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02,
	0xc0, 0xc0,
};

static const char *
header_line(void)
{
	return "{\"format\":\"touchtape-timeline\",\"version\":1,"
	       "\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n";
}

static void
fill_device(struct tt_hid_device *d, struct tt_hid_feature *features, uint32_t *evdev)
{
	static uint8_t feature3[] = { 0x03, 0x0a };

	features[0] = (struct tt_hid_feature){ .report_id = 3, .len = 2, .data = feature3 };
	features[1] = (struct tt_hid_feature){ .report_id = 7, .error = -EIO };
	evdev[0] = 0;
	evdev[1] = 4;
	*d = (struct tt_hid_device){
		.id = 2, .name = (char *)"ELAN1206:00 04F3:30F1\n\x1b[31m", .phys = (char *)"i2c-ELAN1206:00",
		.uniq = (char *)"", .node = (char *)"/dev/hidraw0", .bus = 24, .vendor = 0x4f3,
		.product = 0x30f1, .version = 0xffffffffu, .country = 33,
		.descriptor_len = sizeof(descriptor), .descriptor = (uint8_t *)descriptor,
		.nevdev = 2, .evdev_devices = evdev, .nfeatures = 2, .features = features,
	};
}

static void
check_device(const struct tt_hid_device *a, const struct tt_hid_device *b)
{
	check_int_eq(b->id, a->id);
	check_str_eq(b->name, "ELAN1206:00 04F3:30F1??[31m");
	check_str_eq(b->phys, a->phys);
	check_str_eq(b->uniq, "");
	check_str_eq(b->node, a->node);
	check_int_eq(b->bus, a->bus);
	check_int_eq(b->vendor, a->vendor);
	check_int_eq(b->product, a->product);
	check_int_eq(b->version, a->version);
	check_int_eq(b->country, a->country);
	check_int_eq(b->descriptor_len, a->descriptor_len);
	check(memcmp(b->descriptor, a->descriptor, a->descriptor_len) == 0);
	check_int_eq(b->nevdev, 2);
	check_int_eq(b->evdev_devices[1], 4);
	check_int_eq(b->nfeatures, 2);
	check_int_eq(b->features[0].report_id, 3);
	check_int_eq(b->features[0].error, 0);
	check_int_eq(b->features[0].len, 2);
	check(memcmp(b->features[0].data, a->features[0].data, 2) == 0);
	check_int_eq(b->features[1].report_id, 7);
	check_int_eq(b->features[1].error, -EIO);
	check(b->features[1].data == NULL);
}

static void
write_hid_file(const char *path, const struct tt_hid_device *d, const struct tt_hid_report *reps,
	       size_t nreps)
{
	struct tt_writer *w = NULL;
	struct tt_header h = { 0 };
	struct tt_hid_device minimal = { .id = 9, .name = (char *)"m", .descriptor_len = 1,
					 .descriptor = (uint8_t *)descriptor };
	struct tt_record rec = { .type = TT_RECORD_HID_DEVICE, .hid_device = &minimal };
	int fd = open(path, O_WRONLY | O_TRUNC);

	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &w), 0);
	tt_header_init_now(&h);
	check_int_eq(tt_writer_header(w, &h), 0);
	check_int_eq(tt_writer_hid_device(w, d), 0);
	for (size_t i = 0; i < nreps; i++)
		check_int_eq(tt_writer_hid_report(w, &reps[i]), 0);
	check_int_eq(tt_writer_record(w, &rec), 0);	/* through the generic entry too */
	tt_writer_free(w);
	tt_header_clear(&h);
	close(fd);
}

static void
test_round_trip(void)
{
	char path[256];
	struct tt_hid_feature features[2];
	uint32_t evdev[2];
	struct tt_hid_device d;
	uint8_t *big = tt_zalloc(TT_MAX_HID_REPORT);
	struct tt_hid_report reps[] = {
		{ .device = 2, .time_us = 0, .len = 3, .data = (uint8_t[]){ 0x01, 0x00, 0xff } },
		{ .device = 2, .time_us = -5, .len = TT_MAX_HID_REPORT, .data = big },
		{ .device = 2, .time_us = 123456789012, .len = 1, .data = (uint8_t[]){ 0xab } },
	};
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int fd;

	snprintf(path, sizeof(path), "%s/tt-hid-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	for (size_t i = 0; i < TT_MAX_HID_REPORT; i++)
		big[i] = (uint8_t)(i * 7);
	check(fd >= 0);
	close(fd);
	fill_device(&d, features, evdev);
	write_hid_file(path, &d, reps, ARRAY_LENGTH(reps));

	check_int_eq(tt_reader_open(path, &r), 0);
	if (!r)
		return;
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HID_DEVICE);
	check_device(&d, rec.hid_device);
	check(tt_reader_hid_device(r, 2) == rec.hid_device);
	check(tt_reader_hid_device(r, 3) == NULL);
	check(tt_reader_device(r, 2) == NULL);	/* its own id space */
	for (size_t i = 0; i < ARRAY_LENGTH(reps); i++) {
		check_int_eq(tt_reader_next(r, &rec), 1);
		check_int_eq(rec.type, TT_RECORD_HID_REPORT);
		check_int_eq(rec.hid_report->device, 2);
		check_int_eq(rec.hid_report->time_us, reps[i].time_us);
		check_int_eq(rec.hid_report->len, reps[i].len);
		check(memcmp(rec.hid_report->data, reps[i].data, reps[i].len) == 0);
	}
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.type, TT_RECORD_HID_DEVICE);
	check_int_eq(rec.hid_device->id, 9);
	check_int_eq(rec.hid_device->nfeatures, 0);
	check(rec.hid_device->phys == NULL);
	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 0);
	tt_reader_free(r);
	free(big);
	unlink(path);
}

/* What the writer refuses, as the reader would. */
static void
test_writer_refuses(void)
{
	struct tt_writer *w = NULL;
	struct tt_hid_feature features[2];
	uint32_t evdev[2];
	struct tt_hid_device d;
	struct tt_hid_report empty = { .device = 2, .len = 0 };
	int fd = open("/dev/null", O_WRONLY);

	check_int_eq(tt_writer_new(fd, &w), 0);
	fill_device(&d, features, evdev);
	check_int_eq(tt_writer_hid_report(w, &empty), -EINVAL);
	d.descriptor_len = TT_MAX_HID_DESCRIPTOR + 1;
	check_int_eq(tt_writer_hid_device(w, &d), -EINVAL);
	d.descriptor_len = 1;
	features[1].error = -100000;
	check_int_eq(tt_writer_hid_device(w, &d), -EINVAL);
	features[1].error = -EIO;
	check_int_eq(tt_writer_hid_device(w, &d), 0);
	tt_writer_free(w);
	close(fd);
}

/* Reads header + @line; the error must name line 2 and say @message. */
static void
check_refused(const char *decl, const char *line, const char *message)
{
	char *text = NULL;
	struct tt_reader *r = NULL;
	struct tt_record rec;
	char expect[512];

	check(asprintf(&text, "%s%s%s\n", header_line(), decl, line) > 0);
	const char *path = tt_test_tmpfile(text, strlen(text));
	int lineno = decl[0] ? 3 : 2;
	int rc;

	check_int_eq(tt_reader_open(path, &r), 0);
	while ((rc = tt_reader_next(r, &rec)) > 0)
		;
	check_int_eq(rc, -EINVAL);
	snprintf(expect, sizeof(expect), "%s:%d: %s", path, lineno, message);
	check_str_eq(tt_reader_error(r), expect);
	tt_reader_free(r);
	unlink(path);
	free(text);
}

static void
test_hostile(void)
{
	const char *dev = "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,\"vendor\":1,"
			  "\"product\":2,\"version\":3,\"descriptor\":\"0501\"}\n";
	char *big = tt_zalloc(2 * TT_MAX_HID_DESCRIPTOR + 200);
	char *many = tt_zalloc(40 * (TT_MAX_HID_FEATURES + 1) + 200);
	size_t n;

	check_refused("", "{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"00\"}",
		      "hid report for HID device 0, which no hid_device record declared");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":1,\"t\":1,\"data\":\"00\"}",
		      "hid report for HID device 1, which no hid_device record declared");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"0a1\"}",
		      "\"data\": an odd number of hex digits (3); each byte takes two");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"0x11\"}",
		      "\"data\": character 2 is not a hex digit");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"\"}",
		      "\"data\" is empty; it must hold at least one byte");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":[1,2]}",
		      "\"data\" must be a string of hex digits");
	check_refused(dev, "{\"type\":\"hid\",\"dev\":0,\"data\":\"00\"}", "missing key \"t\"");
	check_refused("", "{\"type\":\"hid_device\",\"id\":4294967296,\"name\":\"x\"}",
		      "\"id\" must be between 0 and 4294967295, not 4294967296");
	check_refused("", "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":65536}",
		      "\"bus\" must be between 0 and 65535, not 65536");
	check_refused("", "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,\"vendor\":1,"
		      "\"product\":2,\"version\":3}", "missing key \"descriptor\"");

	n = (size_t)sprintf(big, "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,\"vendor\":1,"
			    "\"product\":2,\"version\":3,\"descriptor\":\"");
	memset(big + n, 'a', 2 * TT_MAX_HID_DESCRIPTOR + 2);
	strcpy(big + n + 2 * TT_MAX_HID_DESCRIPTOR + 2, "\"}");
	check_refused("", big, "\"descriptor\" holds 4097 bytes, over the limit of 4096");

	n = (size_t)sprintf(many, "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,\"vendor\":1,"
			    "\"product\":2,\"version\":3,\"descriptor\":\"00\",\"features\":[");
	for (unsigned int i = 0; i <= TT_MAX_HID_FEATURES; i++)
		n += (size_t)sprintf(many + n, "%s{\"report_id\":1,\"error\":\"EIO\"}", i ? "," : "");
	strcpy(many + n, "]}");
	check_refused("", many, "more than 256 feature reports");

	const char *feat = "{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,\"vendor\":1,"
			   "\"product\":2,\"version\":3,\"descriptor\":\"00\",\"features\":[%s]}";
	static const struct { const char *feature; const char *message; } features[] = {
		{ "{\"report_id\":1}", "feature report 1 must have either \"data\" or \"error\"" },
		{ "{\"report_id\":1,\"data\":\"01\",\"error\":\"EIO\"}",
		  "feature report 1 must have either \"data\" or \"error\"" },
		{ "{\"report_id\":2,\"error\":\"ENOTANERRNO\"}",
		  "feature report 2: \"error\": \"ENOTANERRNO\" is not an errno name" },
		{ "{\"report_id\":256,\"error\":\"EIO\"}", "\"report_id\" must be between 0 and 255, not 256" },
		{ "{\"report_id\":1,\"data\":\"0g\"}", "\"data\": character 2 is not a hex digit" },
		{ "7", "\"features\" entries must be objects" },
	};
	for (size_t i = 0; i < ARRAY_LENGTH(features); i++) {
		char line[512];
		snprintf(line, sizeof(line), feat, features[i].feature);
		check_refused("", line, features[i].message);
	}
	free(big);
	free(many);
}

/* A hid_device declared again replaces the first, which stays valid for
 * whoever holds it; and a bad hid line costs that line only. */
static void
test_redeclared_and_recovery(void)
{
	const char *text =
		"{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n"
		"{\"type\":\"hid_device\",\"id\":5,\"name\":\"first\",\"bus\":3,\"vendor\":1,\"product\":2,\"version\":3,\"descriptor\":\"05\"}\n"
		"{\"type\":\"hid\",\"dev\":5,\"t\":1,\"data\":\"zz\"}\n"
		"{\"type\":\"hid_device\",\"id\":5,\"name\":\"second\",\"bus\":3,\"vendor\":1,\"product\":2,\"version\":3,\"descriptor\":\"06\"}\n"
		"{\"type\":\"hid\",\"dev\":5,\"t\":2,\"data\":\"0102\"}\n";
	const char *path = tt_test_tmpfile(text, strlen(text));
	struct tt_reader *r = NULL;
	struct tt_record rec;
	const struct tt_hid_device *first;

	check_int_eq(tt_reader_open(path, &r), 0);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(tt_reader_next(r, &rec), 1);
	first = rec.hid_device;
	check_int_eq(tt_reader_next(r, &rec), -EINVAL);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_str_eq(rec.hid_device->name, "second");
	check_str_eq(first->name, "first");
	check(tt_reader_hid_device(r, 5) == rec.hid_device);
	check_int_eq(tt_reader_next(r, &rec), 1);
	check_int_eq(rec.hid_report->len, 2);
	check_int_eq(tt_reader_next(r, &rec), 0);
	check_int_eq(tt_reader_nerrors(r), 1);
	tt_reader_free(r);
	unlink(path);
}

/* One hid line read with the fast path and with json-c: the same record
 * or the same message. */
static void
check_paths_agree(const char *line)
{
	char *text = NULL;
	char got[2][1200];
	size_t n = 0;

	check(asprintf(&text, "%s{\"type\":\"hid_device\",\"id\":0,\"name\":\"x\",\"bus\":3,"
		       "\"vendor\":1,\"product\":2,\"version\":3,\"descriptor\":\"05\"}\n%s\n",
		       header_line(), line) > 0);
	const char *path = tt_test_tmpfile(text, strlen(text));
	for (int slow = 0; slow < 2; slow++) {
		struct tt_reader *r = NULL;
		struct tt_record rec;
		int rc;

		if (slow)
			setenv("TT_READER_NO_FASTPATH", "1", 1);
		else
			unsetenv("TT_READER_NO_FASTPATH");
		check_int_eq(tt_reader_open(path, &r), 0);
		tt_reader_next(r, &rec);
		tt_reader_next(r, &rec);
		rc = tt_reader_next(r, &rec);
		n = (size_t)snprintf(got[slow], sizeof(got[slow]), "%d ", rc);
		if (rc > 0 && rec.type == TT_RECORD_HID_REPORT) {
			n += (size_t)snprintf(got[slow] + n, sizeof(got[slow]) - n, "dev %u t %lld len %u:",
					      rec.hid_report->device, (long long)rec.hid_report->time_us,
					      rec.hid_report->len);
			for (uint32_t i = 0; i < rec.hid_report->len && n + 3 < sizeof(got[slow]); i++)
				n += (size_t)snprintf(got[slow] + n, sizeof(got[slow]) - n, "%02x",
						      rec.hid_report->data[i]);
		} else if (rc < 0) {
			snprintf(got[slow] + n, sizeof(got[slow]) - n, "%s", tt_reader_error(r));
		}
		tt_reader_free(r);
	}
	unsetenv("TT_READER_NO_FASTPATH");
	check_str_eq(got[0], got[1]);
	unlink(path);
	free(text);
}

static void
test_fast_path(void)
{
	static const char *const lines[] = {
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"0401a00c\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":-12,\"data\":\"0401A00C\"}  \r",
		"{\"type\":\"hid\",\"dev\":1,\"t\":12,\"data\":\"04\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"040\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"04g0\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"\\u00304\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12,\"data\":\"04\",\"dev\":1}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":12.5,\"data\":\"04\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":4611686018427387905,\"data\":\"04\"}",
		"{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"04\"",
		"{\"type\":\"hid\",\"dev\":0,\"t\":1,\"data\":\"04\"}x",
	};

	for (size_t i = 0; i < ARRAY_LENGTH(lines); i++)
		check_paths_agree(lines[i]);
}

int
main(void)
{
	RUN(test_round_trip);
	RUN(test_writer_refuses);
	RUN(test_hostile);
	RUN(test_redeclared_and_recovery);
	RUN(test_fast_path);
	return tt_test_result();
}
