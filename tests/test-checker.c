/* SPDX-License-Identifier: MIT */
/* The semantic checks: each fires on a small hand-made timeline that
 * breaks its rule, and stays silent on one that keeps it. */
#include "config.h"

#include <unistd.h>

#include "checker.h"
#include "stack-run.h"
#include "reader.h"
#include "test-common.h"

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":1,\"realtime_us\":2}}\n"
#define DEVICE "{\"type\":\"device\",\"id\":0,\"name\":\"t\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3}," \
	"\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1}," \
	"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100}}," \
	"\"mt\":{\"protocol\":\"B\",\"slots\":2}}\n"

struct seen {
	size_t count[TT_CHECK_COUNT];
	size_t line[TT_CHECK_COUNT];
};

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct seen *s = data;
	if (!s->count[d->check]++)
		s->line[d->check] = d->line;
}

/* Through the checker alone, or the whole shared pass (lib/analysis/detect.h). */
static void
run_with(const char *device, const char *body, struct seen *s, bool detect)
{
	char text[8192];
	struct tt_reader *r = NULL;
	struct tt_record rec;
	struct tt_checker *c;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(text, sizeof(text), HEADER "%s%s", device, body);
	const char *path = tt_test_tmpfile(text, strlen(text));
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", path);
	check_int_eq(tt_reader_open(copy, &r), 0);
	if (detect) {
		check_int_eq(tt_stack_run(r, NULL, on_diag, s, NULL), 0);
		tt_reader_free(r);
		unlink(copy);
		return;
	}
	c = tt_checker_new(on_diag, s);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		check(rc > 0);
		if (rc > 0)
			tt_checker_feed(c, &rec);
	}
	tt_checker_finish(c);
	tt_checker_free(c);
	tt_reader_free(r);
	unlink(copy);
}

static void
run(const char *body, struct seen *s)
{
	run_with(DEVICE, body, s, false);
}

static size_t
total(const struct seen *s)
{
	size_t n = 0;
	for (int i = 0; i < TT_CHECK_COUNT; i++)
		n += s->count[i];
	return n;
}

#define F(t, ev) "{\"type\":\"frame\",\"dev\":0,\"t\":" #t ",\"ev\":[" ev "]}\n"
#define SYN "[0,0,0]"

static void
test_clean(void)
{
	struct seen s;

	run(F(10, "[3,47,0],[3,57,5],[3,53,10],[1,330,1]," SYN)
	    F(20, "[3,47,1],[3,57,6],[3,53,20]," SYN)
	    F(30, "[3,57,-1],[3,47,0],[3,57,-1],[1,330,0]," SYN)
	    F(40, "[3,57,5]," SYN)	/* ID 5 reused after release: fine */
	    "{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":41,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"RawTouchBegin\",\"t\":41,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchUpdate\",\"t\":42,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchEnd\",\"t\":43,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"RawTouchEnd\",\"t\":43,\"deviceid\":2,\"detail\":1}\n", &s);
	check_int_eq(total(&s), 0);
}

static void
test_each_rule(void)
{
	struct seen s;

	run(F(10, SYN) F(9, SYN), &s);
	check_int_eq(s.count[TT_CHECK_TIME_BACKWARDS], 1);
	check_int_eq(s.line[TT_CHECK_TIME_BACKWARDS], 4);

	run(F(10, "[3,53,1]"), &s);
	check_int_eq(s.count[TT_CHECK_NO_SYN_REPORT], 1);
	run("{\"type\":\"frame\",\"dev\":0,\"t\":1,\"incomplete\":true,\"ev\":[[3,53,1]]}\n", &s);
	check_int_eq(total(&s), 0);

	run(F(10, "[3,47,2]," SYN), &s);
	check_int_eq(s.count[TT_CHECK_SLOT_RANGE], 1);

	run(F(10, "[3,47,0],[3,57,5]," SYN) F(11, "[3,47,1],[3,57,5]," SYN), &s);
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REUSED], 1);
	check_int_eq(s.line[TT_CHECK_TRACKING_ID_REUSED], 4);

	run(F(10, "[3,57,5]," SYN) F(11, "[3,57,6]," SYN), &s);
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REPLACED], 1);
	check_int_eq(tt_check_severity(TT_CHECK_TRACKING_ID_REPLACED), TT_SEV_WARNING);

	run(F(10, "[3,53,101]," SYN) F(11, "[3,53,100]," SYN), &s);
	check_int_eq(s.count[TT_CHECK_VALUE_RANGE], 1);
	check_int_eq(s.line[TT_CHECK_VALUE_RANGE], 3);

	run(F(10, "[3,0,1],[1,272,1]," SYN), &s);
	check_int_eq(s.count[TT_CHECK_UNSUPPORTED_CODE], 2);

#define XI(ev, t, id) "{\"type\":\"xi\",\"xi\":\"" ev "\",\"t\":" #t ",\"deviceid\":2,\"detail\":" #id "}\n"
	/* A touch down when the recording began (ids below the first begun,
	 * or before any begin) may update and end unannounced, once. */
	run(XI("TouchUpdate", 1, 1) XI("RawTouchEnd", 2, 1) XI("TouchEnd", 3, 1), &s);
	check_int_eq(total(&s), 0);
	run(XI("TouchBegin", 1, 5) XI("TouchUpdate", 2, 3) XI("TouchEnd", 3, 4) XI("TouchEnd", 4, 5), &s);
	check_int_eq(total(&s), 0);
	/* ... but not a touch id after the first begun, nor one that ended. */
	run(XI("TouchBegin", 1, 5) XI("TouchUpdate", 2, 7), &s);
	check_int_eq(s.count[TT_CHECK_XI_UPDATE_BEFORE_BEGIN], 1);
	check_int_eq(s.line[TT_CHECK_XI_UPDATE_BEFORE_BEGIN], 4);
	run(XI("TouchBegin", 1, 5) XI("TouchUpdate", 2, 3) XI("TouchEnd", 3, 3) XI("TouchUpdate", 4, 3), &s);
	check_int_eq(s.count[TT_CHECK_XI_UPDATE_BEFORE_BEGIN], 1);
	run(XI("TouchEnd", 1, 2) XI("TouchEnd", 2, 2), &s);
	check_int_eq(s.count[TT_CHECK_XI_END_TWICE], 1);
#undef XI
	run("{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":1,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":2,\"deviceid\":2,\"detail\":1}\n", &s);
	check_int_eq(s.count[TT_CHECK_XI_BEGIN_TWICE], 1);
	run("{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":1,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchEnd\",\"t\":2,\"deviceid\":2,\"detail\":1}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchEnd\",\"t\":3,\"deviceid\":2,\"detail\":1}\n", &s);
	check_int_eq(s.count[TT_CHECK_XI_END_TWICE], 1);
	check_int_eq(s.line[TT_CHECK_XI_END_TWICE], 5);
	/* The same touch id in two clients is two sequences. */
	run("{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":1,\"deviceid\":2,\"detail\":1,\"client\":\"a\"}\n"
	    "{\"type\":\"xi\",\"xi\":\"TouchBegin\",\"t\":2,\"deviceid\":2,\"detail\":1,\"client\":\"b\"}\n", &s);
	check_int_eq(total(&s), 0);

	run("{\"type\":\"frame\",\"dev\":0,\"t\":1,\"dropped\":true,\"ev\":[[0,3,0]]}\n", &s);
	check_int_eq(s.count[TT_CHECK_SYN_DROPPED], 1);
	check_int_eq(s.count[TT_CHECK_NO_SYN_REPORT], 0);

	run(DEVICE, &s);
	check_int_eq(s.count[TT_CHECK_DUPLICATE_DEVICE], 1);
}

#define DROPPED(t) "{\"type\":\"frame\",\"dev\":0,\"t\":" #t ",\"dropped\":true,\"ev\":[[0,3,0]]}\n"
#define RESYNC(t, ev) "{\"type\":\"frame\",\"dev\":0,\"t\":" #t ",\"resync\":true,\"ev\":[" ev "]}\n"
/* A touchscreen with resolution (10 units/mm), two slots. */
#define SCREEN "{\"type\":\"device\",\"id\":0,\"name\":\"t\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3}," \
	"\"properties\":[\"INPUT_PROP_DIRECT\"],\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1}," \
	"\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":1000,\"resolution\":10}," \
	"\"ABS_MT_POSITION_Y\":{\"min\":0,\"max\":1000,\"resolution\":10}},\"mt\":{\"protocol\":\"B\",\"slots\":2}}\n"

/* After SYN_DROPPED the slots are unknown until they are set again (or
 * libevdev's resync sets them): a release the kernel sent while events
 * were lost is not a tracking ID reused or replaced, and a finger that
 * moved meanwhile did not jump. Once the slots are known again, the
 * rules hold as before. */
static void
test_syn_dropped(void)
{
	struct seen s;
	const char *body =
		F(10, "[3,47,0],[3,57,2],[3,53,100],[3,54,100],[1,330,1]," SYN)
		DROPPED(20)
		/* slot 0's release (ID 2) was lost; ID 2 now shows in slot 1 */
		F(30, "[3,47,1],[3,57,2],[3,53,900],[3,54,900]," SYN)
		/* slot 0 gets ID 3 without a release we saw */
		F(40, "[3,47,0],[3,57,3],[3,53,500],[3,54,500]," SYN)
		F(50, "[3,47,1],[3,53,905]," SYN)
		/* known again: ID 3 set in slot 1 while slot 0 has it */
		F(60, "[3,47,1],[3,57,3]," SYN);

	run_with(SCREEN, body, &s, false);
	check_int_eq(s.count[TT_CHECK_SYN_DROPPED], 1);
	/* only the one of line 8, where slot 1 is known again */
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REPLACED], 1);
	check_int_eq(s.line[TT_CHECK_TRACKING_ID_REPLACED], 8);
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REUSED], 1);
	check_int_eq(s.line[TT_CHECK_TRACKING_ID_REUSED], 8);

	/* The whole pass: the touch that moved 113 mm across the drop is
	 * the one ID 2, and it did not jump; BTN_TOUCH agrees with the
	 * touches down once the lost release is accounted for. */
	run_with(SCREEN, body, &s, true);
	check_int_eq(s.count[TT_CHECK_JUMP], 0);
	check_int_eq(s.count[TT_CHECK_BUTTON_MISMATCH], 0);
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REUSED], 1);

	/* With libevdev's resync: the release and the new touch come as
	 * resync frames; nothing to report but the drop. */
	run_with(SCREEN,
		 F(10, "[3,47,0],[3,57,2],[3,53,100],[3,54,100],[1,330,1]," SYN)
		 DROPPED(20)
		 RESYNC(20, "[3,47,0],[3,57,-1]," SYN)
		 RESYNC(20, "[3,47,1],[3,57,4],[3,53,900],[3,54,900]," SYN)
		 F(30, "[3,47,1],[3,53,901]," SYN)
		 F(40, "[3,57,-1],[1,330,0]," SYN), &s, true);
	check_int_eq(s.count[TT_CHECK_SYN_DROPPED], 1);
	check_int_eq(total(&s), 1);

	/* Without a drop the same steps are errors and a jump. */
	run_with(SCREEN,
		 F(10, "[3,47,0],[3,57,2],[3,53,100],[3,54,100],[1,330,1]," SYN)
		 F(30, "[3,53,900],[3,54,900]," SYN)
		 F(40, "[3,47,1],[3,57,2]," SYN), &s, true);
	check_int_eq(s.count[TT_CHECK_JUMP], 1);
	check_int_eq(s.count[TT_CHECK_TRACKING_ID_REUSED], 1);
}

int
main(void)
{
	RUN(test_clean);
	RUN(test_each_rule);
	RUN(test_syn_dropped);
	return tt_test_result();
}
