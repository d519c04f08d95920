/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "hid-verify.h"
#include "log.h"
#include "replay/report.h"
#include "side-uhid.h"
#include "uhid-device.h"
#include "util-strings.h"

#define NODE_TIMEOUT_MS 5000

struct rp_uhid_side {
	struct rp_hid_schedule *s;
	struct rp_uhid **devs;		/* NULL until created: --dry-run prints */
	struct rp_verify *verify;
	struct tt_loop *loop;		/* while live: the lift tells --verify */
	bool lifting;
	struct rp_clock *clock;		/* while playing: --dry-run's time */
};

static void
print_hex(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%s%02x", i ? " " : "", data[i]);
}

/* --dry-run: each report printed at its deadline. */
static int
dry_write(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag)
{
	struct rp_uhid_side *h = data;
	const struct rp_hid_schedule *s = h->s;
	char tbuf[32];

	printf("%s hid %" PRIu32 " ", tt_format_time(tbuf, sizeof(tbuf), h->clock->now(h->clock->data)),
	       s->devices[dev].dev->id);
	if (tag >= 0 && s->nreports)
		printf("line %zu: ", s->reports[(size_t)tag % s->nreports].line);
	else
		printf("lift: ");
	print_hex(stdout, bytes, len);
	putchar('\n');
	return 0;
}

static int
live_write(void *data, uint32_t dev, const uint8_t *bytes, size_t len, int64_t tag)
{
	struct rp_uhid_side *h = data;

	if (tag < 0 && !h->lifting) {
		h->lifting = true;
		rp_verify_lifting(h->verify, h->loop);
	}
	return rp_uhid_input(h->devs[dev], bytes, len);
}

static int
side_play(void *data, const struct rp_options *o, int64_t start_us, struct rp_clock *clock,
	  struct rp_stats *st)
{
	struct rp_uhid_side *h = data;
	struct rp_hid_sink sink = { h->devs ? live_write : dry_write, h };
	int rc;

	h->clock = clock;
	rc = rp_hid_play(h->s, o, start_us, clock, &sink, st);
	h->clock = NULL;
	return rc;
}

static void
print_device(const struct tt_hid_device *d, const struct rp_uhid *u)
{
	printf("HID device %" PRIu32 " \"%s\": %s, driver %s", d->id, d->name,
	       rp_uhid_hidraw(u) ? rp_uhid_hidraw(u) : "no hidraw", rp_uhid_driver(u));
	for (size_t i = 0; i < rp_uhid_nnodes(u); i++)
		printf("%s%s \"%s\"", i ? ", " : ": ", rp_uhid_node(u, i), rp_uhid_node_name(u, i));
	putchar('\n');
}

/* Every device created first: their drivers bind in parallel. */
static int
side_create(void *data, struct tt_loop *loop, bool quiet)
{
	struct rp_uhid_side *h = data;
	char why[512];
	int rc;

	h->loop = loop;
	h->devs = tt_zalloc(h->s->ndevices * sizeof(*h->devs));
	for (size_t i = 0; i < h->s->ndevices; i++) {
		const struct tt_hid_device *d = h->s->devices[i].dev;
		if ((rc = rp_uhid_create(d, (uint32_t)i, loop, &h->devs[i], why, sizeof(why))) < 0) {
			tt_error("HID device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			return rc;
		}
	}
	for (size_t i = 0; i < h->s->ndevices; i++) {
		const struct tt_hid_device *d = h->s->devices[i].dev;
		if ((rc = rp_uhid_wait_bound(h->devs[i], loop, NODE_TIMEOUT_MS, why, sizeof(why))) < 0) {
			tt_error("HID device %" PRIu32 " \"%s\": %s", d->id, d->name, why);
			return rc;
		}
		if (!quiet)
			print_device(d, h->devs[i]);
	}
	fflush(stdout);
	return 0;
}

static void
side_detach(void *data)
{
	struct rp_uhid_side *h = data;

	rp_verify_free(h->verify);
	h->verify = NULL;
}

static void
side_destroy(void *data)
{
	struct rp_uhid_side *h = data;

	for (size_t i = 0; h->devs && i < h->s->ndevices; i++)
		rp_uhid_destroy(h->devs[i]);
	free(h->devs);
	h->devs = NULL;
	h->loop = NULL;
}

static void
side_print_counts(void *data, const struct rp_stats *st, bool dry)
{
	(void)data;
	printf("%s %zu HID report%s in %" PRIu32 " loop%s (%zu lift report%s)\n",
	       dry ? "would replay" : "replayed", st->frames_written, st->frames_written == 1 ? "" : "s",
	       st->loops_done, st->loops_done == 1 ? "" : "s", st->extra_frames,
	       st->extra_frames == 1 ? "" : "s");
}

/* --report: where the evdev side counts the SYN_DROPPED frames skipped,
 * the reports too long for uhid, left out. */
static void
side_report_fields(void *data, FILE *f)
{
	fprintf(f, ",\"oversized_skipped\":%zu", ((struct rp_uhid_side *)data)->s->oversized);
}

/* --verify: a reader on every evdev device made of a HID device the
 * recording has evdev frames of. */
static int
side_verify_attach(void *data, struct tt_loop *loop, void **verifier)
{
	struct rp_uhid_side *h = data;

	h->verify = rp_hid_verify_new(h->s);
	for (size_t i = 0; i < h->s->ndevices; i++) {
		for (size_t k = 0; k < rp_uhid_nnodes(h->devs[i]); k++) {
			const char *node = rp_uhid_node(h->devs[i], k);
			int rc = rp_hid_verify_attach(h->verify, (uint32_t)i, node,
						      rp_uhid_node_name(h->devs[i], k), loop);
			if (rc < 0) {
				tt_error("--verify: cannot read %s back: %s", node, strerror(-rc));
				return rc;
			}
		}
	}
	if (!rp_verify_any(h->verify))
		tt_info("--verify: %s has no evdev frames of the evdev devices the driver made (a HID-only "
			"recording, or other device names): nothing to compare", tt_reader_name(h->s->reader));
	*verifier = h->verify;
	return 0;
}

static const struct rp_side_ops side_ops = {
	.play = side_play,
	.create = side_create,
	.detach = side_detach,
	.destroy = side_destroy,
	.print_counts = side_print_counts,
	.report_fields = side_report_fields,
	.writing = "writing to /dev/uhid",
	.lifted = "contacts were lifted",
	.released = "contacts were lifted",
	.verify_attach = side_verify_attach,
	.verify = &rp_verify_ops,
};

int
rp_uhid_side_new(const char *path, const struct rp_options *o, FILE *err, struct rp_uhid_side **out)
{
	struct rp_hid_schedule *s = NULL;
	struct rp_uhid_side *h;
	int rc = rp_hid_schedule_load(path, o, err, &s);

	if (rc < 0)
		return rc;
	h = tt_zalloc(sizeof(*h));
	h->s = s;
	*out = h;
	return 0;
}

void
rp_uhid_side_free(struct rp_uhid_side *h)
{
	if (!h)
		return;
	side_detach(h);
	side_destroy(h);
	rp_hid_schedule_free(h->s);
	free(h);
}

struct rp_side
rp_uhid_side_get(struct rp_uhid_side *h)
{
	return (struct rp_side){
		.ops = &side_ops, .data = h, .nsteps = h->s->nreports,
		.source = tt_reader_name(h->s->reader),
	};
}
