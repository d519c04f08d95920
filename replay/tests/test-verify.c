/* SPDX-License-Identifier: MIT */
/* The one --verify comparison (replay/verify.h) on the host, for both
 * kinds of expectation, with readers filled by hand instead of read from
 * devices: replayed evdev frames against what the kernel model expects
 * of each write (a changed value is unexplained, a kernel timestamp is
 * timed against its deadline), and replayed HID reports against the
 * recording's frames (tracking ids and MSC_TIMESTAMP explained, the lift
 * counted, a changed value and a missing frame unexplained). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hid-verify.h"
#include "test-common.h"
#include "verify-reader.h"

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n"
#define DEV "{\"type\":\"device\",\"id\":3,\"name\":\"ts\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3}," \
	"\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"],\"EV_ABS\":[]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1}," \
	"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100}}," \
	"\"mt\":{\"protocol\":\"B\",\"slots\":2}}\n"
#define FRAME(t, ev) "{\"type\":\"frame\",\"dev\":3,\"t\":" #t ",\"ev\":[" ev "]}\n"

/* A reader without a device: its streams are filled by the test. */
static struct rp_vreader *
hand_reader(struct rp_verify *v, size_t slot, uint32_t id)
{
	struct rp_vreader *r = tt_zalloc(sizeof(*r));

	*r = (struct rp_vreader){ .v = v, .dev = (uint32_t)slot, .id = id, .lift_from = SIZE_MAX };
	snprintf(r->node, sizeof(r->node), "/dev/input/event%zu", 90 + slot);
	v->readers[slot] = r;
	return r;
}

static void
deliver(struct rp_vreader *r, int64_t time_us, const struct input_event *ev, size_t n)
{
	rp_vstream_push(&r->delivered, (struct rp_vframe){ .tag = -1, .time_us = time_us }, ev, n);
}

static char *
compare(struct rp_verify *v, const struct rp_stats *st, struct rp_verify_result *res)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	rp_verify_compare(v, st, out, 50, res);
	fclose(out);
	return text;
}

static void
test_written(void)
{
	static const char *text = HEADER DEV FRAME(0, "[3,57,7],[3,53,50],[1,330,1],[0,0,0]")
		FRAME(10000, "[3,53,60],[0,0,0]") FRAME(20000, "[3,57,-1],[1,330,0],[0,0,0]");
	const char *path = tt_test_tmpfile(text, strlen(text));
	struct rp_schedule *s = NULL;
	struct input_absinfo abs[ABS_CNT] = { 0 };
	struct rp_stats st = { 0 };
	struct rp_verify_result res;
	struct rp_options o;

	rp_options_init(&o);
	check_int_eq(rp_schedule_load(path, &o, stderr, &s), 0);
	if (!s)
		return;
	struct rp_verify *v = rp_verify_new(s);
	struct rp_vreader *r = hand_reader(v, 0, 3);
	rp_kmodel_init(&r->model, s->devices[0].dev, abs);
	r->modelled = true;
	for (size_t i = 0; i < s->nframes; i++) {
		rp_stats_note(&st, s->frames[i].offset_us, 0);
		rp_verify_written(v, 0, s->frames[i].events, s->frames[i].nevents, (int64_t)i);
	}
	check_int_eq(r->expected.n, 3);
	/* The kernel delivers what the model expects, 100 us after each
	 * deadline, but for the second frame's position. */
	for (size_t i = 0; i < r->expected.n; i++) {
		const struct rp_vframe *e = &r->expected.frames[i];
		deliver(r, s->frames[i].offset_us + 100, &r->expected.ev.ev[e->first], e->n);
	}
	r->delivered.ev.ev[r->delivered.frames[1].first].value = 61;
	char *out = compare(v, &st, &res);
	check_int_eq(res.kind, RP_VERIFY_WRITTEN);
	check_int_eq(res.expected_frames, 3);
	check_int_eq(res.received_frames, 3);
	check_int_eq(res.unexplained, 1);
	check_contains(out, "device 3 delivered frame 1 differs:\n  expected: ABS_MT_POSITION_X 60");
	check_contains(out, "received: ABS_MT_POSITION_X 61");
	check_int_eq(res.ntimed, 3);
	check_int_eq(res.kernel.median_us, 100);
	free(out);
	rp_verify_free(v);
	rp_stats_release(&st);
	rp_schedule_free(s);
}

static const struct input_event rec[][4] = {
	{ { .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = 5 },
	  { .type = EV_ABS, .code = ABS_MT_POSITION_X, .value = 10 },
	  { .type = EV_MSC, .code = MSC_TIMESTAMP, .value = 1000 }, { .type = EV_SYN } },
	{ { .type = EV_ABS, .code = ABS_MT_POSITION_X, .value = 11 },
	  { .type = EV_MSC, .code = MSC_TIMESTAMP, .value = 2000 }, { .type = EV_SYN } },
	{ { .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = -1 }, { .type = EV_SYN } },
};
static const size_t nrec[] = { 4, 3, 2 };

/* The recording's three frames expected of a reader of device 7, and
 * the driver's: new tracking ids and timestamps, @x as the second
 * position, the first @ndelivered of them, then the lift's frame. */
static struct rp_verify *
recorded(int32_t x, size_t ndelivered)
{
	struct rp_verify *v = rp_verify_alloc(RP_VERIFY_RECORDED, 1);
	struct rp_vreader *r = hand_reader(v, 0, 7);
	struct input_event del[4];

	for (size_t i = 0; i < 3; i++) {
		rp_vstream_push(&r->expected, (struct rp_vframe){ .tag = -1, .line = 10 + i }, rec[i],
				nrec[i]);
		if (i >= ndelivered)
			continue;
		memcpy(del, rec[i], sizeof(del));
		for (size_t k = 0; k < nrec[i]; k++) {
			if (del[k].code == ABS_MT_TRACKING_ID && del[k].value >= 0)
				del[k].value = 300;
			if (del[k].type == EV_MSC)
				del[k].value += 5000;
			if (del[k].code == ABS_MT_POSITION_X && i == 1)
				del[k].value = x;
		}
		deliver(r, 0, del, nrec[i]);
	}
	r->lift_from = r->delivered.n;
	deliver(r, 0, rec[2], nrec[2]);
	return v;
}

static void
test_recorded(void)
{
	struct rp_stats st = { 0 };
	struct rp_verify_result res;
	struct rp_verify *v = recorded(11, 3);
	char *out = compare(v, &st, &res);

	/* Renumbered, restamped, lifted: all explained. */
	check_str_eq(out, "");
	check_int_eq(res.kind, RP_VERIFY_RECORDED);
	check_int_eq(res.readers, 1);
	check_int_eq(res.expected_frames, 3);
	check_int_eq(res.received_frames, 4);
	check_int_eq(res.unexplained, 0);
	check_int_eq(res.reasons[RP_HR_TRACKING_ID], 1);
	check_int_eq(res.reasons[RP_HR_TIMESTAMP], 2);
	check_int_eq(res.reasons[RP_HR_LIFT], 1);
	check_int_eq(res.ntimed, 0);
	free(out);
	rp_verify_free(v);

	/* A changed position and a missing frame are not. */
	v = recorded(12, 2);
	out = compare(v, &st, &res);
	check_int_eq(res.unexplained, 2);
	check_contains(out, "/dev/input/event90: line 11: device 7 frame 1 differs:\n"
		       "  recorded:  ABS_MT_POSITION_X 11");
	check_contains(out, "delivered: ABS_MT_POSITION_X 12");
	check_contains(out, "/dev/input/event90: device 7: 3 frames recorded, 2 delivered by the driver");
	free(out);
	rp_verify_free(v);
}

int
main(void)
{
	RUN(test_written);
	RUN(test_recorded);
	return tt_test_result();
}
