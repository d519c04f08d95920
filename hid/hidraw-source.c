/* SPDX-License-Identifier: MIT */
/* --hid: the hidraw nodes as a capture source of the recorder. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hid-keymask.h"
#include "hidraw-capture.h"
#include "hidraw-source.h"
#include "log.h"
#include "record/surroundings.h"
#include "util-strings.h"

/* A hidraw node: one per HID device, shared by the evdev devices the HID
 * device produced. */
struct rec_hid {
	struct tt_hid_source *hs;
	struct tt_hidraw *hidraw;
	struct tt_loop_source *source;	/* NULL once removed */
	char *syspath;		/* the HID device in sysfs: what groups them */
	char *node;
	/* Key masking (not --show-keycodes): the descriptor, when it
	 * declares private keys; unmaskable when it does not parse, and
	 * then no report is written (where the keys are is unknown). */
	struct tt_hid_desc *keys;
	bool unmaskable;
};

/* What --hid found for one evdev device. */
struct rec_link {
	struct rec_hid *hid;	/* its HID device, if recorded */
	char *note;		/* why there is none, for a marker */
};

struct tt_hid_source {
	const struct tt_source_ctx *ctx;
	struct tt_evdev_source *es;	/* added before, freed after */
	unsigned int capture_flags;
	bool with_serials;
	struct rec_link *links;	/* one per evdev device */
	struct rec_hid **hids;
	size_t nhids;
};

static uint32_t
evdev_id(const struct tt_hid_source *hs, size_t i)
{
	return tt_capture_device(tt_evdev_source_capture(hs->es, i))->id;
}

/* Each HID device after the evdev devices it names. */
static int
begin_file(void *data)
{
	struct tt_hid_source *hs = data;
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < hs->nhids; i++) {
		struct rec_hid *h = hs->hids[i];
		struct tt_hid_device dev;

		if (!h->source)
			continue;
		/* Like the evdev device's: a serial unless asked for. */
		dev = *tt_hidraw_device(h->hidraw);
		_cleanup_free_ char *phys = tt_sur_private_phys(hs->with_serials, &dev.phys);
		if (!hs->with_serials)
			dev.uniq = NULL;
		rc = hs->ctx->check(hs->ctx->host, tt_writer_hid_device(hs->ctx->writer, &dev));
	}
	return rc;
}

/* Why an evdev device has no HID layer, once per device and file. */
static int
notes(void *data)
{
	struct tt_hid_source *hs = data;
	int rc = 0;

	for (size_t i = 0; rc >= 0 && i < tt_evdev_source_count(hs->es); i++) {
		if (tt_evdev_source_active(hs->es, i) && hs->links[i].note)
			rc = tt_source_marker(hs->ctx, TT_MARKER_NOTE, evdev_id(hs, i),
					      hs->links[i].note);
	}
	return rc;
}

static int
on_report(void *userdata, const struct tt_hid_report *rep)
{
	struct rec_hid *h = userdata;
	const struct tt_source_ctx *ctx = h->hs->ctx;

	if (ctx->stopped && !ctx->draining)
		return 0;
	if (h->unmaskable)
		return 0;
	if (h->keys && rep->len <= TT_MAX_HID_REPORT) {
		uint8_t masked[TT_MAX_HID_REPORT];
		struct tt_hid_report copy = *rep;

		memcpy(masked, rep->data, rep->len);
		tt_hid_keymask_report(h->keys, masked, rep->len);
		copy.data = masked;
		return ctx->check(ctx->host, tt_writer_hid_report(ctx->writer, &copy));
	}
	return ctx->check(ctx->host, tt_writer_hid_report(ctx->writer, rep));
}

/* A hidraw node that fails ends its own source; evdev goes on. */
static void
hid_gone(struct rec_hid *h, int error)
{
	const struct tt_source_ctx *ctx = h->hs->ctx;
	uint32_t id = tt_hidraw_device(h->hidraw)->id;
	char text[160];

	if (error == -ENODEV) {
		snprintf(text, sizeof(text), "%s (HID device %u) removed", h->node, id);
	} else {
		snprintf(text, sizeof(text), "%s (HID device %u): %s", h->node, id, strerror(-error));
		tt_warning("%s: %s; its HID reports are no longer recorded", h->node,
			   strerror(-error));
	}
	tt_loop_remove(ctx->loop, h->source);
	h->source = NULL;
	tt_source_marker(ctx, TT_MARKER_DEVICE_REMOVED, -1, text);
}

static void
read_hid(struct rec_hid *h)
{
	const struct tt_source_ctx *ctx;
	int rc;

	if (!h || !h->source)
		return;
	ctx = h->hs->ctx;
	rc = tt_hidraw_dispatch(h->hidraw, ctx->start_us, on_report, h);
	if (rc < 0 && !ctx->write_error)
		hid_gone(h, rc);
}

void
tt_hid_source_read_for(struct tt_hid_source *hs, size_t index)
{
	if (hs)
		read_hid(hs->links[index].hid);
}

void
tt_hid_source_read_all(struct tt_hid_source *hs)
{
	for (size_t i = 0; hs && !hs->ctx->write_error && i < hs->nhids; i++)
		read_hid(hs->hids[i]);
}

static void
on_hid(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	(void)loop;
	(void)source;
	(void)events;
	read_hid(userdata);
}

static void
summary(const void *data)
{
	const struct tt_hid_source *hs = data;

	for (size_t i = 0; i < hs->nhids; i++) {
		const struct rec_hid *h = hs->hids[i];
		const struct tt_hid_device *dev = tt_hidraw_device(h->hidraw);
		fprintf(stderr, "  %s  %s: %zu input reports, %u feature reports%s\n", h->node,
			dev->name, tt_hidraw_nreports(h->hidraw), dev->nfeatures,
			h->source ? "" : " (removed)");
	}
}

static int
start(void *data, const struct tt_source_ctx *ctx)
{
	struct tt_hid_source *hs = data;

	hs->ctx = ctx;
	for (size_t i = 0; i < hs->nhids; i++) {
		struct rec_hid *h = hs->hids[i];
		h->source = tt_loop_add(ctx->loop, tt_hidraw_fd(h->hidraw), on_hid, h);
		if (!h->source) {
			int rc = -errno;
			tt_error("setting up the event loop: %s", strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static void
source_free(void *data)
{
	tt_hid_source_free(data);
}

/* Its reports are read through the evdev source (before each device's
 * frames, and at the end before theirs): no poll or drain of its own. */
const struct tt_source_ops tt_hid_source_ops = {
	.name = "hidraw",
	.start = start,
	.begin_file = begin_file,
	.notes = notes,
	.summary = summary,
	.free = source_free,
};

/* The HID device already opened for another evdev device of it. */
static struct rec_hid *
hid_by_syspath(struct tt_hid_source *hs, const char *syspath)
{
	for (size_t i = 0; i < hs->nhids; i++)
		if (strcmp(hs->hids[i]->syspath, syspath) == 0)
			return hs->hids[i];
	return NULL;
}

/* The parsed descriptor of @dev when it declares private keys, else NULL. */
static struct tt_hid_desc *
private_keys(const struct tt_hid_device *dev)
{
	struct tt_hid_desc *d = NULL;

	if (tt_hid_desc_parse(dev->descriptor, dev->descriptor_len, &d, NULL) < 0)
		return NULL;
	if (!tt_hid_desc_has_private_keys(d)) {
		tt_hid_desc_free(d);
		return NULL;
	}
	return d;
}

static int
open_hid(struct tt_hid_source *hs, const struct tt_hidraw_location *loc, struct rec_hid **out)
{
	bool show_keys = hs->capture_flags & TT_CAPTURE_SHOW_KEYCODES;
	_cleanup_free_ char *why = NULL;
	struct tt_hidraw *hidraw;
	struct rec_hid *h;
	int rc;

	rc = tt_hidraw_open(loc->hidraw_node, (uint32_t)hs->nhids, loc, &hidraw);
	if (rc < 0)
		return rc;
	h = tt_zalloc(sizeof(*h));
	if (tt_hidraw_read_features(hidraw, &why) < 0) {
		h->unmaskable = !show_keys;
		tt_warning("%s: its report descriptor does not parse (%s); no feature reports read%s",
			   loc->hidraw_node, why ? why : "malformed",
			   h->unmaskable ? ", and no input reports (their keys could not be masked; "
					   "--show-keycodes records them)" : "");
	} else if (!show_keys) {
		h->keys = private_keys(tt_hidraw_device(hidraw));
	}
	h->hs = hs;
	h->hidraw = hidraw;
	h->syspath = tt_strdup(loc->hid_syspath);
	h->node = tt_strdup(loc->hidraw_node);
	hs->hids = tt_reallocarray(hs->hids, hs->nhids + 1, sizeof(*hs->hids));
	hs->hids[hs->nhids++] = h;
	*out = h;
	return 0;
}

/* The note and message for evdev device @i whose HID layer is not
 * recorded; said once, however many evdev devices it concerns. */
static void
explain_no_hid(struct tt_hid_source *hs, size_t i, const char *hidraw, int error)
{
	const char *node = tt_evdev_source_node(hs->es, i);
	char text[256];

	if (error == -ENOENT)
		snprintf(text, sizeof(text), "%s: no HID device behind it (PS/2, serial, virtual "
			 "or uinput): no HID layer to record", node);
	else if (error == -ENXIO)
		snprintf(text, sizeof(text), "%s: its HID device has no hidraw node (is the "
			 "hidraw module loaded?): no HID layer recorded", node);
	else if (error == -EACCES || error == -EPERM)
		snprintf(text, sizeof(text), "%s: permission denied: reading hidraw needs root; "
			 "its HID layer is not recorded, evdev is", hidraw);
	else
		snprintf(text, sizeof(text), "%s: %s: its HID layer is not recorded, evdev is",
			 hidraw ? hidraw : node, strerror(-error));
	hs->links[i].note = tt_strdup(text);
	for (size_t o = 0; o < i; o++)
		if (hs->links[o].note && strcmp(hs->links[o].note, text) == 0)
			return;
	if (error == -ENOENT)
		tt_info("%s", text);
	else
		tt_warning("%s", text);
}

/* The hidraw node of evdev device @i's HID device, opened once per HID
 * device. */
static void
attach_hid(struct tt_hid_source *hs, size_t i)
{
	const struct tt_capture *cap = tt_evdev_source_capture(hs->es, i);
	struct tt_hidraw_location loc = { 0 };
	struct rec_hid *h = NULL;
	struct stat st;
	int rc;

	rc = fstat(tt_capture_fd(cap), &st) < 0 ? -errno :
	     tt_hidraw_find("/sys", st.st_rdev, &loc);
	if (rc >= 0 && !(h = hid_by_syspath(hs, loc.hid_syspath)))
		rc = open_hid(hs, &loc, &h);
	if (rc >= 0) {
		hs->links[i].hid = h;
		tt_hidraw_add_evdev(h->hidraw, tt_capture_device(cap)->id);
	} else {
		explain_no_hid(hs, i, loc.hidraw_node, rc);
	}
	tt_hidraw_location_clear(&loc);
}

void
tt_hid_source_new(struct tt_evdev_source *es, unsigned int capture_flags, bool with_serials,
		  struct tt_hid_source **out)
{
	struct tt_hid_source *hs = tt_zalloc(sizeof(*hs));
	size_t n = tt_evdev_source_count(es);

	hs->es = es;
	hs->capture_flags = capture_flags;
	hs->with_serials = with_serials;
	hs->links = tt_reallocarray(NULL, n ? n : 1, sizeof(*hs->links));
	memset(hs->links, 0, (n ? n : 1) * sizeof(*hs->links));
	for (size_t i = 0; i < n; i++)
		attach_hid(hs, i);
	tt_evdev_source_set_hid(es, hs);
	*out = hs;
}

void
tt_hid_source_free(struct tt_hid_source *hs)
{
	if (!hs)
		return;
	tt_evdev_source_set_hid(hs->es, NULL);
	for (size_t i = 0; i < hs->nhids; i++) {
		struct rec_hid *h = hs->hids[i];
		if (h->source)
			tt_loop_remove(hs->ctx->loop, h->source);
		tt_hidraw_free(h->hidraw);
		tt_hid_desc_free(h->keys);
		free(h->syspath);
		free(h->node);
		free(h);
	}
	free(hs->hids);
	for (size_t i = 0; i < tt_evdev_source_count(hs->es); i++)
		free(hs->links[i].note);
	free(hs->links);
	free(hs);
}
