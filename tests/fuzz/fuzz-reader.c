/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for every reader behind tt_reader_open_fd(): the
 * input is served through a pipe, so format detection, the timeline
 * reader (fast path and json-c path), and the evemu, libinput-record
 * and hid-recorder readers all see it as a file; a gzip input (the .gz seed) is inflated
 * by the line layer first, so mutations reach the inflate path too. Each
 * input is read twice, with and without the frame fast path, and the two
 * record streams must agree; records also go through the semantic
 * checker and back through the writer, whose output must read back
 * without errors, and through the touch-sequence model (with the
 * kernel-to-XI link on) that inspect,
 * analyze and diff build on, and through validate --privacy's check and
 * convert --redact's redaction (lib/analysis/privacy.h): a redacted record must
 * have nothing left to find.
 *
 * TT_FUZZ_FORMAT=timeline|evemu|libinput|hid-recorder in the environment narrows a
 * run to one reader: inputs detected as another format are rejected
 * (return -1 keeps them out of the corpus), so an hour of fuzzing is an
 * hour of that reader rather than a share of one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checker.h"
#include "model.h"
#include "privacy.h"
#include "reader.h"
#include "reader-private.h"
#include "writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memfd keeps inputs of any size readable without a writer thread. */
static int
input_fd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

struct digest {
	uint64_t hash;
	size_t records;
	size_t errors;
	char first_error[512];
};

static void
mix(struct digest *d, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		d->hash = (d->hash ^ b[i]) * 1099511628211ull;
}

static void
quiet(void *ud, const char *msg)
{
	(void)ud;
	(void)msg;
}

static void
on_diag(void *ud, const struct tt_diag *d)
{
	(void)ud;
	(void)d;
}

static void
on_ktouch(void *data, struct tt_ktouch *t)
{
	struct digest *d = data;
	mix(d, &t->serial, sizeof(t->serial));
	mix(d, &t->begin_us, sizeof(t->begin_us));
	mix(d, &t->end_us, sizeof(t->end_us));
	mix(d, t->values, sizeof(t->values));
	mix(d, &t->link, sizeof(t->link));
}

static void
on_xtouch(void *data, struct tt_xtouch *t)
{
	struct digest *d = data;
	mix(d, &t->serial, sizeof(t->serial));
	mix(d, &t->outcome, sizeof(t->outcome));
	mix(d, &t->root_x, sizeof(t->root_x));
	mix(d, t->client, strnlen(t->client, sizeof(t->client)));
}

/* The HID records, every byte of them, so the sanitizers check their
 * lengths. */
static void
mix_hid(struct digest *d, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_HID_REPORT) {
		mix(d, &rec->hid_report->device, sizeof(rec->hid_report->device));
		mix(d, &rec->hid_report->time_us, sizeof(rec->hid_report->time_us));
		mix(d, rec->hid_report->data, rec->hid_report->len);
	} else if (rec->type == TT_RECORD_HID_DEVICE) {
		const struct tt_hid_device *h = rec->hid_device;
		mix(d, h->name, strlen(h->name));
		mix(d, h->descriptor, h->descriptor_len);
		mix(d, h->evdev_devices, h->nevdev * sizeof(*h->evdev_devices));
		for (uint32_t i = 0; i < h->nfeatures; i++)
			mix(d, h->features[i].data, h->features[i].len);
	}
}

static void
on_private(void *data, const struct tt_record *rec, const char *what)
{
	struct digest *d = data;

	(void)rec;
	mix(d, what, strlen(what));
}

static void
left_after_redact(void *data, const struct tt_record *rec, const char *what)
{
	(void)data;
	fprintf(stderr, "fuzz-reader: line %zu redacted still has: %s\n", rec->line, what);
	abort();
}

/* The check, the redaction, and the check of the redacted record. */
static void
privacy_feed(struct tt_privacy *const p[3], struct digest *d, const struct tt_record *rec)
{
	struct tt_record out;

	tt_privacy_check(p[0], rec, on_private, d);
	if (tt_privacy_redact(p[1], rec, &out))
		tt_privacy_check(p[2], &out, left_after_redact, NULL);
}

static void
read_once(const uint8_t *data, size_t size, bool fast, struct digest *d, int out_fd)
{
	struct tt_reader *r = NULL;
	struct tt_writer *w = NULL;
	struct tt_record rec;
	int rc;

	memset(d, 0, sizeof(*d));
	d->hash = 1469598103934665603ull;
	if (fast)
		unsetenv("TT_READER_NO_FASTPATH");
	else
		setenv("TT_READER_NO_FASTPATH", "1", 1);
	rc = tt_reader_open_fd(input_fd(data, size), "fuzz", &r, NULL);
	if (rc < 0)
		return;
	tt_reader_set_warn(r, quiet, NULL);
	struct tt_checker *c = tt_checker_new(on_diag, NULL);
	/* Callbacks that look at what the model hands out, so the
	 * sanitizers see every field it fills. */
	static const struct tt_model_callbacks cbs = {
		.kernel_begin = on_ktouch, .kernel_end = on_ktouch,
		.xi_begin = on_xtouch, .xi_end = on_xtouch,
	};
	struct tt_model *m = tt_model_new(&cbs, d);
	struct tt_privacy *priv[3] = { tt_privacy_new(), tt_privacy_new(), tt_privacy_new() };
	tt_model_set_link(m, true, 0, 0);
	if (out_fd >= 0)
		tt_writer_new(out_fd, &w);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			if (!d->errors++)
				snprintf(d->first_error, sizeof(d->first_error), "%s", tt_reader_error(r));
			mix(d, tt_reader_error(r), strlen(tt_reader_error(r)));
			continue;
		}
		d->records++;
		mix(d, &rec.type, sizeof(rec.type));
		mix(d, &rec.line, sizeof(rec.line));
		if (rec.type == TT_RECORD_FRAME) {
			mix(d, &rec.frame->device, sizeof(rec.frame->device));
			mix(d, &rec.frame->time_us, sizeof(rec.frame->time_us));
			mix(d, &rec.frame->flags, sizeof(rec.frame->flags));
			mix(d, rec.frame->events, rec.frame->nevents * sizeof(*rec.frame->events));
		}
		mix_hid(d, &rec);
		tt_checker_feed(c, &rec);
		tt_model_feed(m, &rec);
		privacy_feed(priv, d, &rec);
		if (w)
			tt_writer_record(w, &rec);
	}
	for (size_t i = 0; i < 3; i++)
		tt_privacy_free(priv[i]);
	tt_checker_finish(c);
	tt_checker_free(c);
	tt_model_finish(m);
	tt_model_free(m);
	tt_writer_free(w);
	tt_reader_free(r);
}

static enum tt_file_format
wanted_format(void)
{
	static int wanted = -1;

	if (wanted < 0) {
		const char *s = getenv("TT_FUZZ_FORMAT");
		wanted = TT_FORMAT_UNKNOWN;
		if (s && strcmp(s, "timeline") == 0)
			wanted = TT_FORMAT_TIMELINE;
		else if (s && strcmp(s, "evemu") == 0)
			wanted = TT_FORMAT_EVEMU;
		else if (s && strcmp(s, "libinput") == 0)
			wanted = TT_FORMAT_LIBINPUT;
		else if (s && strcmp(s, "hid-recorder") == 0)
			wanted = TT_FORMAT_HID_RECORDER;
		else if (s && *s && strcmp(s, "any") != 0)
			abort(); /* a typo would silently fuzz every reader */
	}
	return (enum tt_file_format)wanted;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct digest fast, slow, again;
	enum tt_file_format want = wanted_format();
	const char *why;

	if (want != TT_FORMAT_UNKNOWN &&
	    tt_detect_format((const char *)data, size < 4096 ? size : 4096, &why) != want)
		return -1;

	int out = memfd_create("out", MFD_CLOEXEC);

	read_once(data, size, true, &fast, out);
	read_once(data, size, false, &slow, -1);
	if (fast.hash != slow.hash || fast.records != slow.records || fast.errors != slow.errors) {
		fprintf(stderr, "fast path and json-c path disagree: %zu/%zu records, %zu/%zu errors\n",
			fast.records, slow.records, fast.errors, slow.errors);
		abort();
	}

	/* What the writer wrote from good records must read back cleanly. */
	off_t len = lseek(out, 0, SEEK_END);
	if (len > 0 && fast.records > 0) {
		uint8_t *buf = malloc((size_t)len);
		if (pread(out, buf, (size_t)len, 0) == len) {
			read_once(buf, (size_t)len, true, &again, -1);
			if (again.errors) {
				fprintf(stderr, "the writer produced lines the reader rejects: %s\n", again.first_error);
				abort();
			}
		}
		free(buf);
	}
	close(out);
	return 0;
}
