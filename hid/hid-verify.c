/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <linux/input.h>

#include "hid-verify.h"
#include "reader.h"
#include "replay/verify-reader.h"

/* Recorded frames this much older than a device's first HID report are
 * the state before the HID recording began: the evdev frame of a report
 * is stamped by the kernel before the recorder reads the report. */
#define BEFORE_MARGIN_US 20000

static const char *const reason_names[RP_HR_COUNT] = {
	[RP_HR_TRACKING_ID] = "tracking id renumbered by the kernel",
	[RP_HR_TIMESTAMP] = "MSC_TIMESTAMP counted from the driver's start",
	[RP_HR_BEFORE_REPORTS] = "recorded before the first HID report",
	[RP_HR_LIFT] = "replay's lift at the end",
};

const char *
rp_hid_reason_name(enum rp_hid_reason r)
{
	return r < RP_HR_COUNT ? reason_names[r] : "?";
}

struct rp_verify *
rp_hid_verify_new(const struct rp_hid_schedule *s)
{
	struct rp_verify *v = rp_verify_alloc(RP_VERIFY_RECORDED, 0);

	v->hs = s;
	return v;
}

/* The recorded evdev device of HID device @hid named @name, or -1. */
static int64_t
recorded_device(const struct rp_hid_schedule *s, uint32_t hid, const char *name)
{
	const struct tt_hid_device *hd = s->devices[hid].dev;

	for (uint32_t i = 0; i < hd->nevdev; i++) {
		const struct tt_device *d = tt_reader_device(s->reader, hd->evdev_devices[i]);
		if (d && d->name && strcmp(d->name, name) == 0)
			return d->id;
	}
	return -1;
}

static int64_t
first_report_us(const struct rp_hid_schedule *s, uint32_t hid)
{
	for (size_t i = 0; i < s->nreports; i++) {
		if (s->reports[i].dev == hid)
			return s->reports[i].time_us;
	}
	return INT64_MAX;
}

/* What @r must deliver: its device's recorded frames from the HID
 * device's first report on. */
static void
expect_recorded(struct rp_verify *v, struct rp_vreader *r)
{
	const struct rp_hid_schedule *s = v->hs;
	int64_t first = first_report_us(s, r->dev);

	for (size_t k = 0; k < s->nevframes; k++) {
		const struct rp_hid_evframe *e = &s->evframes[k];
		if (e->device != r->id)
			continue;
		if (e->time_us < first - BEFORE_MARGIN_US) {
			v->reasons[RP_HR_BEFORE_REPORTS]++;
			continue;
		}
		rp_vstream_push(&r->expected, (struct rp_vframe){ .tag = -1, .line = e->line },
				e->events, e->nevents);
	}
}

int
rp_hid_verify_attach(struct rp_verify *v, uint32_t hid, const char *node, const char *name,
		     struct tt_loop *loop)
{
	int64_t id = recorded_device(v->hs, hid, name);
	struct rp_vreader *r;
	int rc;

	if (id < 0)
		return 0;
	rc = rp_verify_open(v, SIZE_MAX, node, (uint32_t)id, loop, &r);
	if (rc < 0)
		return rc;
	r->dev = hid;
	expect_recorded(v, r);
	return 1;
}
