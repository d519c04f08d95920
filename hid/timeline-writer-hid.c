/* SPDX-License-Identifier: MIT */
/*
 * The timeline writer's HID records, "hid_device" and "hid"
 * (formats/timeline.md): descriptors and reports as hex.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "evnames.h"
#include "hex.h"
#include "json-emit.h"
#include "util-mem.h"
#include "util-strings.h"
#include "writer.h"
#include "writer-private.h"
#include "xi-names.h"

/* Bytes as one lowercase hex string, composed in place. */
static void
put_hex(struct tt_writer *w, const uint8_t *data, size_t n)
{
	char buf[512];

	tt_json_emit_reserve(writer_line(w), 2 * n + 2);
	writer_put(w, "\"", 1);
	for (size_t i = 0; i < n; i += sizeof(buf) / 2) {
		size_t k = n - i < sizeof(buf) / 2 ? n - i : sizeof(buf) / 2;
		tt_hex_encode(buf, data + i, k);
		writer_put(w, buf, 2 * k);
	}
	writer_put(w, "\"", 1);
}

static void
kv_hex(struct tt_writer *w, const char *k, const uint8_t *data, size_t n)
{
	writer_key(w, k);
	put_hex(w, data, n);
}

/* What the reader would refuse is not written: a file this writer made
 * always reads back. */
static bool
hid_device_is_valid(const struct tt_hid_device *d)
{
	if (!d->name || d->descriptor_len < 1 || d->descriptor_len > TT_MAX_HID_DESCRIPTOR ||
	    d->nevdev > TT_MAX_DEVICES || d->nfeatures > TT_MAX_HID_FEATURES)
		return false;
	for (uint32_t i = 0; i < d->nfeatures; i++) {
		const struct tt_hid_feature *f = &d->features[i];
		if (f->error ? !strerrorname_np(-f->error) : f->len < 1 || f->len > TT_MAX_HID_REPORT)
			return false;
	}
	return true;
}

static void
put_hid_features(struct tt_writer *w, const struct tt_hid_device *d)
{
	writer_key(w, "features");
	writer_put(w, "[", 1);
	for (uint32_t i = 0; i < d->nfeatures; i++) {
		const struct tt_hid_feature *f = &d->features[i];
		if (i)
			writer_put(w, ",", 1);
		writer_put(w, "{", 1);
		writer_kv_int(w, "report_id", f->report_id);
		if (f->error)
			writer_kv_str(w, "error", strerrorname_np(-f->error));
		else
			kv_hex(w, "data", f->data, f->len);
		writer_put(w, "}", 1);
	}
	writer_put(w, "]", 1);
}

int
tt_writer_hid_device(struct tt_writer *w, const struct tt_hid_device *d)
{
	if (!hid_device_is_valid(d))
		return -EINVAL;
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "hid_device");
	writer_kv_int(w, "id", d->id);
	writer_kv_str(w, "name", d->name);
	writer_kv_str(w, "phys", d->phys);
	writer_kv_str(w, "uniq", d->uniq);
	writer_kv_str(w, "node", d->node);
	writer_kv_int(w, "bus", d->bus);
	writer_kv_int(w, "vendor", d->vendor);
	writer_kv_int(w, "product", d->product);
	writer_kv_int(w, "version", d->version);
	writer_kv_int(w, "country", d->country);
	kv_hex(w, "descriptor", d->descriptor, d->descriptor_len);
	if (d->nevdev) {
		writer_key(w, "evdev");
		writer_put(w, "[", 1);
		for (uint32_t i = 0; i < d->nevdev; i++) {
			if (i)
				writer_put(w, ",", 1);
			writer_put_int(w, d->evdev_devices[i]);
		}
		writer_put(w, "]", 1);
	}
	if (d->nfeatures)
		put_hid_features(w, d);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}

int
tt_writer_hid_report(struct tt_writer *w, const struct tt_hid_report *rep)
{
	if (rep->len < 1 || rep->len > TT_MAX_HID_REPORT)
		return -EINVAL;
	writer_put(w, "{", 1);
	writer_kv_str(w, "type", "hid");
	writer_kv_int(w, "dev", rep->device);
	writer_kv_int(w, "t", rep->time_us);
	kv_hex(w, "data", rep->data, rep->len);
	writer_put(w, "}", 1);
	return writer_flush_line(w);
}
