/* SPDX-License-Identifier: MIT */
/* The touch-sequence model on hand-made timelines (tests/data/analyze/)
 * and corpus recordings: Type B slots and their reuse, Type A contacts
 * paired into touches, single touch, touches still down at the end, XI
 * ownership (accepted, rejected, lost, never resolved) and the link from
 * kernel touches to XI touches. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <X11/extensions/XI2.h>

#include "model.h"
#include "reader.h"
#include "test-common.h"

struct log {
	char text[16384];
	size_t len;
	int kbegin, kend, kupdate, xbegin, xend;
	uint32_t max_active;
	bool quiet_updates;
};

static void
logf_(struct log *l, const char *fmt, ...) _printf_(2, 3);

static void
logf_(struct log *l, const char *fmt, ...)
{
	va_list ap;

	if (l->len >= sizeof(l->text) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(l->text + l->len, sizeof(l->text) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->text) - l->len ? (size_t)n : sizeof(l->text) - l->len - 1;
}

static void
kbegin(void *data, struct tt_ktouch *t)
{
	struct log *l = data;
	l->kbegin++;
	if (!l->quiet_updates)
		logf_(l, "kb s%d id%d @%lld (%d,%d)\n", t->slot, t->tracking_id, (long long)t->begin_us,
		      t->values[TT_AXIS(ABS_MT_POSITION_X)], t->values[TT_AXIS(ABS_MT_POSITION_Y)]);
}

static void
kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct log *l = data;
	l->kupdate++;
	if (!l->quiet_updates)
		logf_(l, "ku s%d id%d @%lld L%zu (%d,%d)\n", t->slot, t->tracking_id, (long long)u->time_us,
		      u->line, t->values[TT_AXIS(ABS_MT_POSITION_X)], t->values[TT_AXIS(ABS_MT_POSITION_Y)]);
}

static void
kend(void *data, struct tt_ktouch *t)
{
	struct log *l = data;
	l->kend++;
	if (l->quiet_updates)
		return;
	logf_(l, "ke s%d id%d @%lld%s%s%s", t->slot, t->tracking_id, (long long)t->end_us,
	      (t->flags & TT_KTOUCH_ACTIVE_AT_END) ? " active-at-end" : "",
	      (t->flags & TT_KTOUCH_REPLACED) ? " replaced" : "",
	      (t->flags & TT_KTOUCH_SYNTHETIC_ID) ? " synthetic" : "");
	if (t->link == TT_LINK_LINKED)
		logf_(l, " xi%u +%lldus%s", t->xi_touchid, (long long)(t->xi_begin_us - t->begin_us),
		      !t->xi_emulating_known ? " emu?" : t->xi_emulating_pointer ? " emu" : "");
	else if (t->link != TT_LINK_NONE)
		logf_(l, " %s", tt_link_status_name(t->link));
	logf_(l, "\n");
}

static void
frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct log *l = data;
	(void)dev; (void)f; (void)line;
	if (n > l->max_active)
		l->max_active = n;
}

static void
xend(void *data, struct tt_xtouch *t)
{
	struct log *l = data;
	l->xend++;
	logf_(l, "xe %s%s t%u %s%s%s\n", t->client, (t->flags & TT_XTOUCH_RAW) ? " raw" : "", t->touchid,
	      tt_own_outcome_name(t->outcome), (t->flags & TT_XTOUCH_BEGAN_UNOWNED) ? " began-unowned" : "",
	      (t->flags & TT_XTOUCH_ACTIVE_AT_END) ? " never-ended" : "");
}

static void
run_path(const char *path, struct log *l, const char *desc)
{
	const struct tt_model_callbacks cb = {
		.kernel_begin = kbegin, .kernel_update = kupdate, .kernel_end = kend,
		.frame = frame, .xi_end = xend,
	};
	struct tt_reader *r = NULL;
	struct tt_record rec;
	int rc;

	if (tt_reader_open(path, &r) < 0) {
		fprintf(stderr, "cannot open %s\n", path);
		tt_test_failures++;
		tt_reader_free(r);
		return;
	}
	if (desc)
		tt_reader_set_companion(r, desc);
	struct tt_model *m = tt_model_new(&cb, l);
	tt_model_set_link(m, true, 0, 0);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc == -EIO)
			break;
		if (rc > 0)
			tt_model_feed(m, &rec);
	}
	tt_model_finish(m);
	tt_model_free(m);
	tt_reader_free(r);
}

static void
run_data(const char *name, struct log *l)
{
	char path[4096];

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/tests/data/analyze/%s", tt_test_srcdir(), name);
	run_path(path, l, NULL);
}

static void
test_type_b_slot_reuse(void)
{
	struct log l;

	run_data("slot-reuse.jsonl", &l);
	check_str_eq(l.text,
		     "kb s0 id10 @10000 (100,100)\n"
		     "ke s0 id10 @20000\n"
		     "kb s0 id11 @30000 (200,200)\n"
		     "ke s0 id11 @40000 replaced\n"
		     "kb s0 id12 @40000 (300,200)\n"
		     "ke s0 id12 @50000\n");
}

static void
test_active_at_end(void)
{
	struct log l;

	run_data("touch-active-at-end-yes.jsonl", &l);
	check_str_eq(l.text,
		     "kb s0 id1 @10000 (100,100)\n"
		     "ku s0 id1 @20000 L4 (110,100)\n"
		     "ke s0 id1 @20000 active-at-end\n");
}

static void
test_type_a_pairing(void)
{
	struct log l;

	/* Two fingers crossing x, nearest-position pairing keeps each on its
	 * own track; the one at the right lifts first. */
	run_data("type-a-pairing.jsonl", &l);
	check_str_eq(l.text,
		     "kb s0 id1 @10000 (1000,1000)\n"
		     "kb s1 id2 @10000 (3000,1000)\n"
		     "ku s1 id2 @20000 L4 (2950,1010)\n"
		     "ku s0 id1 @20000 L4 (1050,1010)\n"
		     "ku s0 id1 @30000 L5 (1100,1020)\n"
		     "ku s1 id2 @30000 L5 (2900,1020)\n"
		     "ke s0 id1 @40000 synthetic\n"
		     "ku s1 id2 @40000 L6 (2850,1030)\n"
		     "ke s1 id2 @50000 synthetic\n");
	check_int_eq(l.max_active, 2);

	/* A contact lost for one frame is a new touch when it comes back. */
	run_data("contact-count-flicker-yes.jsonl", &l);
	check_int_eq(l.kbegin, 3);
	check_int_eq(l.kend, 3);
}

static void
test_ownership(void)
{
	struct log l;

	run_data("ownership-accept.jsonl", &l);
	check_contains(l.text, "xe window t1 lost\n");
	check_contains(l.text, "xe grab t1 accepted\n");
	check_contains(l.text, "ke s0 id1 @80000 xi1 +2000us\n");

	run_data("ownership-reject.jsonl", &l);
	check_contains(l.text, "xe grab t1 rejected\n");
	check_contains(l.text, "xe window t1 owned began-unowned\n");

	run_data("ownership-unresolved-yes.jsonl", &l);
	check_contains(l.text, "xe window t1 unresolved never-ended\n");
	run_data("ownership-unresolved-no.jsonl", &l);
	check_contains(l.text, "xe window t1 owned began-unowned\n");
	check_contains(l.text, "xe grab t1 rejected\n");

	/* An observer's touch that never ends: no ownership in play. */
	run_data("xi-touch-never-ended-yes.jsonl", &l);
	check_contains(l.text, "xe observer t1 none never-ended\n");
}

static void
test_link(void)
{
	struct log l;

	run_data("not-delivered-yes.jsonl", &l);
	check_contains(l.text, "ke s0 id1 @30000 not-delivered\n");
	check_contains(l.text, "ke s0 id2 @420000 xi7 +5000us\n");
	run_data("not-delivered-no.jsonl", &l);
	check_contains(l.text, "ke s0 id1 @30000 xi1 +4000us emu\n");

	/* Without XI devices nothing is linked. */
	run_data("jump-yes.jsonl", &l);
	check(!strstr(l.text, "not-delivered"));
	check(!strstr(l.text, " xi"));
}

/* ---- the link on hand-built records ---- */

/* A Type B touchscreen (5 slots, 0..1000 on both axes) and the X slave
 * device 6 that reads it, fed straight into a model. */
struct feeder {
	struct tt_model *m;
	struct log log;
	struct tt_device *dev;
	struct tt_xi_device xdev;
	struct tt_xi_valuator vals[2];
	size_t line;
};

static void
feed(struct feeder *f, struct tt_record rec)
{
	rec.line = ++f->line;
	tt_model_feed(f->m, &rec);
}

static void
feeder_start(struct feeder *f)
{
	static const struct tt_model_callbacks cb = { .kernel_end = kend, .xi_end = xend };
	static const unsigned int axes[] = { ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X,
					     ABS_MT_POSITION_Y };

	memset(f, 0, sizeof(*f));
	f->m = tt_model_new(&cb, &f->log);
	tt_model_set_link(f->m, true, 0, 0);
	f->dev = tt_device_new(0);
	f->dev->node = strdup("/dev/input/event5");
	tt_device_enable(f->dev, EV_KEY, BTN_TOUCH);
	for (size_t i = 0; i < ARRAY_LENGTH(axes); i++) {
		tt_device_enable(f->dev, EV_ABS, axes[i]);
		f->dev->abs[axes[i]].maximum = axes[i] == ABS_MT_SLOT ? 4 : 1000;
	}
	f->dev->mt_protocol = TT_MT_B;
	tt_device_set_slots(f->dev, 5);
	feed(f, (struct tt_record){ .type = TT_RECORD_DEVICE, .device = f->dev });

	f->vals[0] = (struct tt_xi_valuator){ .number = 0, .label = (char *)"Abs MT Position X", .max = 1000 };
	f->vals[1] = (struct tt_xi_valuator){ .number = 1, .label = (char *)"Abs MT Position Y", .max = 1000 };
	f->xdev = (struct tt_xi_device){
		.deviceid = 6, .name = (char *)"test touchscreen", .use = 3, .attachment = 2, .enabled = true,
		.touch_mode = TT_XI_TOUCH_DIRECT, .num_touches = 5, .nvaluators = 2,
		.valuators = f->vals, .device_node = (char *)"/dev/input/event5", .evdev_device = 0,
	};
	feed(f, (struct tt_record){ .type = TT_RECORD_XI_DEVICE, .xi_device = &f->xdev });
}

static void
feeder_end(struct feeder *f)
{
	tt_model_finish(f->m);
	tt_model_free(f->m);
	tt_device_free(f->dev);
}

/* A frame that puts (or with x < 0 lifts) the touch in @slot. */
static void
kframe(struct feeder *f, int64_t t, int32_t slot, int32_t id, int32_t x, int32_t y)
{
	struct tt_event ev[5] = {
		{ EV_ABS, ABS_MT_SLOT, slot, 0 },
		{ EV_ABS, ABS_MT_TRACKING_ID, x < 0 ? -1 : id, 0 },
		{ EV_ABS, ABS_MT_POSITION_X, x, 0 },
		{ EV_ABS, ABS_MT_POSITION_Y, y, 0 },
		{ EV_SYN, SYN_REPORT, 0, 0 },
	};
	if (x < 0)
		ev[2] = ev[4];
	struct tt_frame fr = { .device = 0, .time_us = t, .nevents = x < 0 ? 3 : 5, .events = ev };
	feed(f, (struct tt_record){ .type = TT_RECORD_FRAME, .frame = &fr });
}

/* An XI touch event from slave 6: raw ones from the slave itself,
 * regular ones through master 2, as the X server sends them. */
static void
xevent(struct feeder *f, int64_t t, int32_t evtype, uint32_t touch, uint32_t flags, double x, double y)
{
	bool raw = evtype >= XI_RawTouchBegin && evtype <= XI_RawTouchEnd;
	int32_t numbers[2] = { 0, 1 };
	double values[2] = { x, y };
	struct tt_xi_event ev = {
		.time_us = t, .evtype = evtype, .client = (char *)"observer",
		.deviceid = raw ? 6 : 2, .sourceid = 6, .detail = touch, .flags = flags,
		.root_x = x, .root_y = y, .nvaluators = 2,
		.valuator_numbers = numbers, .valuator_values = values,
		.raw_values = raw ? values : NULL,
	};
	feed(f, (struct tt_record){ .type = TT_RECORD_XI_EVENT, .xi_event = &ev });
}

static void
test_link_emulating_pointer(void)
{
	struct feeder f;

	/* Two fingers; the X server sends each touch's RawTouchBegin before
	 * its TouchBegin, and here both raw ones first (as it does when one
	 * frame brings two touches). The latency stays the raw begin's; the
	 * pointer emulation comes from the regular TouchBegin of each touch
	 * id, whatever the order. */
	feeder_start(&f);
	kframe(&f, 10000, 0, 1, 100, 100);
	kframe(&f, 10000, 1, 2, 500, 500);
	xevent(&f, 12000, XI_RawTouchBegin, 41, 0, 100, 100);
	xevent(&f, 13000, XI_RawTouchBegin, 42, 0, 500, 500);
	xevent(&f, 13200, XI_TouchBegin, 42, 0, 500, 500);
	xevent(&f, 13500, XI_TouchBegin, 41, XITouchEmulatingPointer, 100, 100);
	kframe(&f, 20000, 0, 1, -1, -1);
	kframe(&f, 20000, 1, 2, -1, -1);
	xevent(&f, 21000, XI_RawTouchEnd, 41, 0, 100, 100);
	xevent(&f, 21100, XI_TouchEnd, 41, XITouchEmulatingPointer, 100, 100);
	xevent(&f, 21200, XI_RawTouchEnd, 42, 0, 500, 500);
	xevent(&f, 21300, XI_TouchEnd, 42, 0, 500, 500);
	feeder_end(&f);
	check_contains(f.log.text, "ke s0 id1 @20000 xi41 +2000us emu\n");
	check_contains(f.log.text, "ke s1 id2 @20000 xi42 +3000us\n");

	/* A tap whose kernel end is read before any XI record: its end
	 * waits for the regular TouchBegin, not just the raw one. */
	feeder_start(&f);
	kframe(&f, 10000, 0, 7, 300, 300);
	kframe(&f, 15000, 0, 7, -1, -1);
	xevent(&f, 16000, XI_RawTouchBegin, 5, 0, 300, 300);
	check_int_eq(f.log.kend, 0);
	xevent(&f, 16400, XI_TouchBegin, 5, XITouchEmulatingPointer, 300, 300);
	check_int_eq(f.log.kend, 1);
	check_str_eq(f.log.text, "ke s0 id7 @15000 xi5 +6000us emu\n");
	feeder_end(&f);

	/* The flag on a TouchUpdate settles it as well (a TouchBegin the
	 * recording does not have). */
	feeder_start(&f);
	kframe(&f, 10000, 0, 3, 300, 300);
	xevent(&f, 11000, XI_RawTouchBegin, 9, 0, 300, 300);
	xevent(&f, 12000, XI_TouchUpdate, 9, XITouchEmulatingPointer, 300, 300);
	kframe(&f, 20000, 0, 3, -1, -1);
	check_str_eq(f.log.text, "ke s0 id3 @20000 xi9 +1000us emu\n");
	feeder_end(&f);

	/* Raw events only (another client held the touch selection): linked
	 * with the raw latency, pointer emulation unknown once the window
	 * has passed since the XI begin, not before. */
	feeder_start(&f);
	kframe(&f, 10000, 0, 4, 300, 300);
	xevent(&f, 14000, XI_RawTouchBegin, 11, 0, 300, 300);
	kframe(&f, 30000, 0, 4, -1, -1);
	xevent(&f, 31000, XI_RawTouchEnd, 11, 0, 300, 300);
	kframe(&f, 14000 + 250000, 0, 5, 600, 600);
	check_int_eq(f.log.kend, 0);
	kframe(&f, 14000 + 250001, 0, 5, 610, 610);
	check_int_eq(f.log.kend, 1);
	check_contains(f.log.text, "ke s0 id4 @30000 xi11 +4000us emu?\n");
	feeder_end(&f);

	/* A regular TouchBegin first (a recording without raw events): the
	 * link and its flags at once. */
	feeder_start(&f);
	kframe(&f, 10000, 0, 6, 300, 300);
	xevent(&f, 12500, XI_TouchBegin, 3, 0, 300, 300);
	kframe(&f, 20000, 0, 6, -1, -1);
	check_str_eq(f.log.text, "ke s0 id6 @20000 xi3 +2500us\n");
	feeder_end(&f);
}

/* ---- corpus ---- */

static bool
run_corpus(const char *name, const char *desc, struct log *l)
{
	char path[4096], dpath[4096];

	memset(l, 0, sizeof(*l));
	l->quiet_updates = true;
	snprintf(path, sizeof(path), "%s/%s", tt_test_corpus(), name);
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "%s: not found, skipped\n", path);
		return false;
	}
	if (desc)
		snprintf(dpath, sizeof(dpath), "%s/%s", tt_test_corpus(), desc);
	run_path(path, l, desc ? dpath : NULL);
	return true;
}

/* The numbers SOURCES.tsv says its own script computed for these files
 * (max_simultaneous_touches), and touch counts counted by hand from the
 * files (tracking IDs set for Type B; contact sets for Type A). */
static void
test_corpus(void)
{
	struct log l;

	if (access(tt_test_corpus(), R_OK) != 0) {
		fprintf(stderr, "no corpus at %s: corpus tests skipped\n", tt_test_corpus());
		return;
	}
	if (run_corpus("evemu/evemu__data_3m.event", NULL, &l)) {
		check_int_eq(l.max_active, 10);
		check_int_eq(l.kbegin, 34);	/* grep -c 'ABS_MT_TRACKING_ID *[0-9]' */
		check_int_eq(l.kend, 34);
	}
	if (run_corpus("evemu/evemu__data_ntrig-dell-xt2.event", NULL, &l)) {
		check_int_eq(l.max_active, 4);
		check_int_eq(l.kbegin, 4);
	}
	if (run_corpus("evemu/evemu__data_bcm5974.event", NULL, &l)) {
		check_int_eq(l.max_active, 4);
		check_int_eq(l.kbegin, l.kend);
	}
	if (run_corpus("evemu/evemu__python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event", NULL, &l)) {
		check_int_eq(l.max_active, 2);
		check_int_eq(l.kbegin, 2);
	}
	if (run_corpus("evemu/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events",
		       NULL, &l)) {
		check_int_eq(l.max_active, 4);
		check_int_eq(l.kbegin, 4);
	}
}

int
main(void)
{
	RUN(test_type_b_slot_reuse);
	RUN(test_active_at_end);
	RUN(test_type_a_pairing);
	RUN(test_ownership);
	RUN(test_link);
	RUN(test_link_emulating_pointer);
	RUN(test_corpus);
	return tt_test_result();
}
