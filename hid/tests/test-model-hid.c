/* SPDX-License-Identifier: MIT */
/* The HID layer of the model and its diagnostics, on the real report
 * descriptor of the ELAN1206 touchpad (the corpus's
 * elan1206-04f3-30f1-touchpad.hid: one finger collection per report,
 * Contact Count, Scan Time) with hand-made reports: contact sequences,
 * hybrid-mode frames, each HID anomaly made by a minimal edit of a clean
 * timeline (and absent from it), the HID-to-kernel link and its latencies
 * on a hand-built two-layer timeline, and validate's HID rules. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "checker.h"
#include "stack.h"
#include "reader.h"
#include "test-common.h"

/* Report 4: Confidence (bit 0), Tip Switch (bit 1), Contact Identifier
 * (bits 4-7); X 0..3987, Y 0..1960 (16 bits each); Scan Time (16 bits);
 * Contact Count (8 bits); Button 1; 4 bytes of padding: 14 bytes with
 * the report ID. */
static const char elan_desc[] =
	"05010902a10185010901a100050919012902150025017501950281029506810305010930093109381581257f75089503"
	"8106050c0a380295018106750895038103c00600ff0901850e09c5150026ff0075089504b102c0050d0905a101850409"
	"22a102150025010947094295027501810275019502810395017504250f095181020501150026930f7510550e65130930"
	"350046f2019501810246f50026a80726a80709318102050d150025649503c0550c66011047ffff000027ffff00007510"
	"9501095681020954257f9501750881020509090125017501950181029507810309c5750895048103050d850209550959"
	"75049502250fb102850709607501950115002501b102950fb1030600ff0600ff850609c5150026ff007508960001b102"
	"850d09c4150026ff0075089504b102850c09c69640037508b102850b09c795427508b102c0050d090ea10185030922a1"
	"0009521500250a75109501b102c00922a100850509570958750195022503b102950eb103c0c0";

#define HEADER "{\"format\":\"touchtape-timeline\",\"version\":1,\"tool\":\"test\"," \
	       "\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n"

/* A Type B touchpad with the HID device's ranges. */
#define EVDEV "{\"type\":\"device\",\"id\":0,\"name\":\"ELAN1206:00 04F3:30F1 Touchpad\"," \
	"\"input_id\":{\"bustype\":24,\"vendor\":1267,\"product\":12529,\"version\":256}," \
	"\"properties\":[\"INPUT_PROP_POINTER\"],\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"]," \
	"\"EV_ABS\":[\"ABS_MT_SLOT\",\"ABS_MT_TRACKING_ID\",\"ABS_MT_POSITION_X\",\"ABS_MT_POSITION_Y\"]}," \
	"\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":4},\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535}," \
	"\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":3987},\"ABS_MT_POSITION_Y\":{\"min\":0,\"max\":1960}}," \
	"\"mt\":{\"protocol\":\"B\",\"slots\":5}}\n"

struct timeline {
	char text[65536];
	size_t len;
};

static void
add(struct timeline *tl, const char *fmt, ...) _printf_(2, 3);

static void
add(struct timeline *tl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tl->text + tl->len, sizeof(tl->text) - tl->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tl->text) - tl->len)
		abort();
	tl->len += (size_t)n;
}

/* A header and the HID device; with @evdev, the evdev device it lists. */
static void
start(struct timeline *tl, bool evdev)
{
	tl->len = 0;
	add(tl, HEADER);
	if (evdev)
		add(tl, EVDEV);
	add(tl, "{\"type\":\"hid_device\",\"id\":3,\"name\":\"ELAN1206:00 04F3:30F1\",\"bus\":24,"
		"\"vendor\":1267,\"product\":12529,\"version\":256,\"descriptor\":\"%s\"%s}\n", elan_desc,
		evdev ? ",\"evdev\":[0]" : "");
}

/* One report 4 of one contact, its Confidence @conf; @len cuts it short. */
static void
report_cn(struct timeline *tl, int64_t t, bool conf, bool tip, int id, int x, int y, int scan, int count,
	  size_t len)
{
	uint8_t b[14] = {
		4, (uint8_t)((conf ? 1 : 0) | (tip ? 2 : 0) | (id << 4)), (uint8_t)x, (uint8_t)(x >> 8), (uint8_t)y,
		(uint8_t)(y >> 8), (uint8_t)scan, (uint8_t)(scan >> 8), (uint8_t)count,
	};

	add(tl, "{\"type\":\"hid\",\"dev\":3,\"t\":%" PRId64 ",\"data\":\"", t);
	for (size_t i = 0; i < len && i < sizeof(b); i++)
		add(tl, "%02x", b[i]);
	add(tl, "\"}\n");
}

static void
report_n(struct timeline *tl, int64_t t, bool tip, int id, int x, int y, int scan, int count, size_t len)
{
	report_cn(tl, t, true, tip, id, x, y, scan, count, len);
}

static void
report(struct timeline *tl, int64_t t, bool tip, int id, int x, int y, int scan, int count)
{
	report_n(tl, t, tip, id, x, y, scan, count, 14);
}

/* An evdev frame of slot 0: tracking ID @tid (-1 lifts) at x, y. */
static void
frame(struct timeline *tl, int64_t t, int tid, int x, int y)
{
	if (tid < 0) {
		add(tl, "{\"type\":\"frame\",\"dev\":0,\"t\":%" PRId64 ",\"ev\":[[\"EV_ABS\",\"ABS_MT_SLOT\",0],"
			"[\"EV_ABS\",\"ABS_MT_TRACKING_ID\",-1],[\"EV_KEY\",\"BTN_TOUCH\",0],"
			"[\"EV_SYN\",\"SYN_REPORT\",0]]}\n", t);
		return;
	}
	add(tl, "{\"type\":\"frame\",\"dev\":0,\"t\":%" PRId64 ",\"ev\":[[\"EV_ABS\",\"ABS_MT_SLOT\",0],"
		"[\"EV_ABS\",\"ABS_MT_TRACKING_ID\",%d],[\"EV_ABS\",\"ABS_MT_POSITION_X\",%d],"
		"[\"EV_ABS\",\"ABS_MT_POSITION_Y\",%d],[\"EV_KEY\",\"BTN_TOUCH\",1],[\"EV_SYN\",\"SYN_REPORT\",0]]}\n",
		t, tid, x, y);
}

/* What a run gave: the HID and kernel sequences as text, the
 * diagnostics per kind with their lines, the numbers. */
struct run {
	char log[16384];
	size_t len;
	int diags[TT_CHECK_COUNT];
	char diag_text[4096];
	size_t dlen;
	char frames[2048];	/* report-to-frame links */
	size_t flen;
	struct tt_stats stats;
};

static void
logf_(char *buf, size_t size, size_t *len, const char *fmt, ...) _printf_(4, 5);

static void
logf_(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;

	if (*len >= size - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

#define LOG(r, ...) logf_((r)->log, sizeof((r)->log), &(r)->len, __VA_ARGS__)

static void
hbegin(void *data, struct tt_htouch *t)
{
	LOG((struct run *)data, "hb c%d L%zu (%d,%d)\n", t->contact_id, t->begin_line, t->x, t->y);
}

static void
hupdate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	LOG((struct run *)data, "hu c%d L%zu (%d,%d)\n", t->contact_id, u->line, t->x, t->y);
}

static void
hstate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	LOG((struct run *)data, "hs c%d L%zu state %u of %u\n", t->contact_id, u->line, t->state & t->state_known,
	    t->state_known);
}

static void
hend(void *data, struct tt_htouch *t)
{
	struct run *r = data;

	LOG(r, "he c%d L%zu %" PRIu64 " reports%s%s", t->contact_id, t->end_line, t->nreports,
	    (t->flags & TT_HTOUCH_VANISHED) ? " vanished" : "",
	    (t->flags & TT_HTOUCH_ACTIVE_AT_END) ? " active-at-end" : "");
	if (t->link == TT_LINK_LINKED)
		LOG(r, " -> dev%u id%d %+" PRId64 "us", t->evdev_device, t->tracking_id,
		    t->kernel_begin_us - t->begin_us);
	else if (t->link != TT_LINK_NONE)
		LOG(r, " %s", tt_link_status_name(t->link));
	LOG(r, "\n");
}

static void
kend(void *data, struct tt_ktouch *t)
{
	struct run *r = data;

	LOG(r, "ke id%d L%zu", t->tracking_id, t->end_line);
	if (t->hid_link == TT_LINK_LINKED)
		LOG(r, " <- hid%u c%d L%zu %+" PRId64 "us", t->hid_device, t->hid_contact_id, t->hid_begin_line,
		    t->begin_us - t->hid_begin_us);
	else
		LOG(r, " %s", tt_link_status_name(t->hid_link));
	LOG(r, "\n");
}

static void
hframe(void *data, const struct tt_hframe *l)
{
	struct run *r = data;

	logf_(r->frames, sizeof(r->frames), &r->flen, "L%zu->L%zu %+" PRId64 "us\n", l->report_line,
	      l->frame_line, l->frame_us - l->report_us);
}

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct run *r = data;

	r->diags[d->check]++;
	logf_(r->diag_text, sizeof(r->diag_text), &r->dlen, "%s L%zu: %s\n", tt_check_name(d->check), d->line,
	      d->message);
}

static void
run_timeline(const struct timeline *tl, struct run *r)
{
	const struct tt_model_callbacks cb = {
		.hid_begin = hbegin, .hid_update = hupdate, .hid_state = hstate, .hid_end = hend, .kernel_end = kend,
		.hid_frame = hframe,
	};
	struct tt_reader *rd = NULL;
	struct tt_record rec;
	int rc;

	memset(r, 0, sizeof(*r));
	if (tt_reader_open(tt_test_tmpfile(tl->text, tl->len), &rd) < 0) {
		check(!"timeline opens");
		return;
	}
	struct tt_stack *d = tt_stack_new(NULL, on_diag, r);

	tt_stack_subscribe(d, &cb, r);
	while ((rc = tt_reader_next(rd, &rec)) != 0) {
		if (rc < 0) {
			fprintf(stderr, "%s\n", tt_reader_error(rd));
			check(!"every line reads");
			continue;
		}
		tt_stack_feed(d, &rec);
	}
	tt_stack_finish(d);
	r->stats = *tt_stack_stats(d);
	tt_stack_free(d);
	tt_reader_free(rd);
}

static int
total_diags(const struct run *r)
{
	int n = 0;

	for (unsigned int c = 0; c < TT_CHECK_COUNT; c++)
		n += r->diags[c];
	return n;
}

/* ---- contacts ---- */

static void
test_one_contact(void)
{
	struct timeline tl;
	struct run r;

	start(&tl, false);
	report(&tl, 0, true, 2, 100, 200, 1, 1);		/* line 3 */
	report(&tl, 8000, true, 2, 110, 200, 81, 1);
	report(&tl, 16000, true, 2, 110, 200, 161, 1);		/* unchanged: no update */
	report(&tl, 24000, false, 2, 110, 200, 241, 1);	/* line 6: tip up */
	run_timeline(&tl, &r);
	check_str_eq(r.log,
		     "hb c2 L3 (100,200)\n"
		     "hu c2 L4 (110,200)\n"
		     "he c2 L6 4 reports\n");
	check_int_eq(total_diags(&r), 0);
	check_int_eq(r.stats.hid_reports, 4);
	check_int_eq(r.stats.nhids, 1);
	const struct tt_stats_hid *sh = tt_stats_hid(&r.stats, 3);
	check(sh != NULL);
	if (!sh)
		return;
	check_int_eq(sh->reports, 4);
	check_int_eq(sh->contacts, 1);
	/* Intervals with a contact down at both ends: 0->8000, 8000->16000. */
	check_int_eq(sh->intervals.n, 2);
	check_int_eq(sh->median_interval_us, 8000);
	check_int_eq(sh->links.linked + sh->links.not_delivered, 0);
}

/* Confidence cleared and set again while the tip stays down (a finger
 * taken for a palm): its own callback, not a position update. */
static void
test_confidence(void)
{
	struct timeline tl;
	struct run r;

	start(&tl, false);
	report(&tl, 0, true, 2, 100, 200, 1, 1);			/* line 3 */
	report_cn(&tl, 8000, false, true, 2, 100, 200, 81, 1, 14);	/* palm */
	report(&tl, 16000, true, 2, 100, 200, 161, 1);
	report(&tl, 24000, false, 2, 100, 200, 241, 1);		/* line 6: tip up */
	run_timeline(&tl, &r);
	check_str_eq(r.log,
		     "hb c2 L3 (100,200)\n"
		     "hs c2 L4 state 0 of 2\n"
		     "hs c2 L5 state 2 of 2\n"
		     "he c2 L6 4 reports\n");
}

/* Hybrid mode: the first report of a frame counts both contacts, the
 * second (Contact Count 0, same Scan Time) brings the other. */
static void
hybrid(struct timeline *tl, bool lift_second, bool cut)
{
	start(tl, false);
	report(tl, 0, true, 0, 100, 100, 10, 2);
	report(tl, 100, true, 1, 900, 900, 10, 0);
	report(tl, 8000, true, 0, 120, 100, 90, 2);
	if (!cut)
		report(tl, 8100, true, 1, 900, 920, 90, 0);
	if (lift_second) {
		report(tl, 16000, true, 0, 140, 100, 170, 2);
		report(tl, 16100, false, 1, 900, 920, 170, 0);
	}
	report(tl, 24000, true, 0, 160, 100, 250, 1);
	report(tl, 32000, false, 0, 160, 100, 330, 1);
}

static void
test_hybrid_mode(void)
{
	struct timeline tl;
	struct run r;

	hybrid(&tl, true, false);
	run_timeline(&tl, &r);
	check_str_eq(r.log,
		     "hb c0 L3 (100,100)\n"
		     "hb c1 L4 (900,900)\n"
		     "hu c0 L5 (120,100)\n"
		     "hu c1 L6 (900,920)\n"
		     "hu c0 L7 (140,100)\n"
		     "he c1 L8 3 reports\n"
		     "hu c0 L9 (160,100)\n"
		     "he c0 L10 5 reports\n");
	check_int_eq(total_diags(&r), 0);
	check_int_eq(tt_stats_hid(&r.stats, 3)->contacts, 2);
}

/* ---- anomalies: each made by one edit of a clean timeline ---- */

static void
test_vanished(void)
{
	struct timeline tl;
	struct run r;

	/* Contact 1 is never lifted: the frame at line 7 counts contact 0
	 * alone, and hid-multitouch releases contact 1 there. */
	hybrid(&tl, false, false);
	run_timeline(&tl, &r);
	check_int_eq(r.diags[TT_CHECK_HID_CONTACT_VANISHED], 1);
	check_int_eq(total_diags(&r), 1);
	check_contains(r.diag_text, "hid-contact-vanished L7: HID device 3: contact 1 (down since line 4)");
	check_contains(r.log, "he c1 L7 2 reports vanished\n");
	/* hid-multitouch releases such a contact itself (a Win8 device's
	 * contact missing from a frame; sticky fingers after 100 ms): a
	 * warning, not an error (issue 34). */
	check_int_eq(tt_check_severity(TT_CHECK_HID_CONTACT_VANISHED), TT_SEV_WARNING);
}

static void
test_count_cut(void)
{
	struct timeline tl;
	struct run r;

	/* The frame at line 5 announces 2 contacts; only one comes before
	 * the next frame begins at line 6. hid-multitouch counts on: the
	 * frame of line 6 is complete with its first contact and releases
	 * contact 1; line 7 (contact 1's tip up, Contact Count 0) then
	 * starts a count the frame of line 8 cuts again, which leaves
	 * contact 0 out and releases it. */
	hybrid(&tl, true, true);
	run_timeline(&tl, &r);
	check_str_eq(r.diag_text,
		     "hid-contact-vanished L6: HID device 3: contact 1 (down since line 4) is no longer "
		     "reported, without a tip up\n"
		     "hid-contact-count L6: HID device 3: a new frame began after 1 of the 2 contacts "
		     "Contact Count announced\n"
		     "hid-contact-vanished L8: HID device 3: contact 0 (down since line 3) is no longer "
		     "reported, without a tip up\n"
		     "hid-contact-count L8: HID device 3: a new frame began after 1 of the 2 contacts "
		     "Contact Count announced\n"
		     "hid-contact-count L8: HID device 3: Contact Count 1 leaves out 1 more contact with "
		     "Tip Switch set\n");
}

static void
test_beyond_count(void)
{
	struct timeline tl;
	struct run r;

	/* Clean: the ELAN1206 way of lifting the last contact, its tip up
	 * with Contact Count 0. */
	start(&tl, false);
	report(&tl, 0, true, 0, 100, 100, 10, 1);
	report(&tl, 8000, false, 0, 100, 100, 90, 0);
	run_timeline(&tl, &r);
	check_str_eq(r.log, "hb c0 L3 (100,100)\nhe c0 L4 2 reports\n");
	check_int_eq(total_diags(&r), 0);

	/* Edit: the second report has its tip down, which Contact Count 0
	 * denies: hid-multitouch never sees it and releases the contact. */
	start(&tl, false);
	report(&tl, 0, true, 0, 100, 100, 10, 1);
	report(&tl, 8000, true, 0, 100, 100, 90, 0);
	run_timeline(&tl, &r);
	check_int_eq(r.diags[TT_CHECK_HID_CONTACT_COUNT], 1);
	check_contains(r.diag_text, "hid-contact-count L4: HID device 3: Contact Count 0 leaves out 1 more contact");
	check_int_eq(r.diags[TT_CHECK_HID_CONTACT_VANISHED], 1);
}

static void
test_undeclared_and_short(void)
{
	struct timeline tl;
	struct run r;

	start(&tl, false);
	report(&tl, 0, true, 0, 100, 100, 10, 1);
	report(&tl, 8000, false, 0, 100, 100, 90, 1);
	run_timeline(&tl, &r);
	check_int_eq(total_diags(&r), 0);

	/* Report ID 9: no input report of the descriptor. */
	start(&tl, false);
	report(&tl, 0, true, 0, 100, 100, 10, 1);
	add(&tl, "{\"type\":\"hid\",\"dev\":3,\"t\":4000,\"data\":\"0901020304\"}\n");
	report(&tl, 8000, false, 0, 100, 100, 90, 1);
	run_timeline(&tl, &r);
	check_int_eq(r.diags[TT_CHECK_HID_UNDECLARED_REPORT], 1);
	check_contains(r.diag_text, "hid-undeclared-report L4: HID device 3: report ID 9 is not an input report");
	check_int_eq(total_diags(&r), 1);
	check_int_eq(r.stats.hid_reports, 3);

	/* The tip-up report cut to 10 of its 14 bytes. */
	start(&tl, false);
	report(&tl, 0, true, 0, 100, 100, 10, 1);
	report_n(&tl, 8000, false, 0, 100, 100, 90, 1, 10);
	run_timeline(&tl, &r);
	check_int_eq(r.diags[TT_CHECK_HID_SHORT_REPORT], 1);
	check_contains(r.diag_text, "hid-short-report L4: HID device 3: report ID 4 has 10 bytes, its descriptor declares 14");
}

/* ---- the link to evdev ---- */

static void
test_link(void)
{
	struct timeline tl;
	struct run r;

	start(&tl, true);
	/* The report first, its frame 300 us later. */
	report(&tl, 10000, true, 0, 1000, 500, 10, 1);		/* line 4 */
	frame(&tl, 10300, 1, 1000, 500);
	report(&tl, 20000, false, 0, 1000, 500, 90, 1);
	frame(&tl, 20200, -1, 0, 0);
	/* The frame first in the file, stamped 400 us before the report
	 * was read from hidraw. */
	frame(&tl, 30000, 2, 2000, 1500);			/* line 8 */
	report(&tl, 30400, true, 1, 2000, 1500, 170, 1);
	frame(&tl, 40000, -1, 0, 0);
	report(&tl, 40300, false, 1, 2000, 1500, 250, 1);
	/* A contact the kernel made nothing of. */
	report(&tl, 200000, true, 2, 3000, 100, 330, 1);	/* line 12 */
	report(&tl, 208000, false, 2, 3000, 100, 410, 1);
	/* A kernel touch without a HID contact. */
	frame(&tl, 400000, 3, 500, 500);
	frame(&tl, 408000, -1, 0, 0);
	/* Both at once but far apart on the pad: not the same contact. */
	report(&tl, 600000, true, 3, 100, 100, 490, 1);	/* line 16 */
	frame(&tl, 600100, 4, 3900, 1900);
	report(&tl, 608000, false, 3, 100, 100, 570, 1);
	frame(&tl, 608100, -1, 0, 0);
	/* The end of the recording comes before either gives up waiting. */
	frame(&tl, 900000, 5, 700, 700);
	run_timeline(&tl, &r);
	check_str_eq(r.log,
		     "hb c0 L4 (1000,500)\n"
		     "he c0 L6 2 reports -> dev0 id1 +300us\n"
		     "ke id1 L7 <- hid3 c0 L4 +300us\n"
		     "hb c1 L9 (2000,1500)\n"
		     "ke id2 L10 <- hid3 c1 L9 -400us\n"
		     "he c1 L11 2 reports -> dev0 id2 -400us\n"
		     "hb c2 L12 (3000,100)\n"
		     "he c2 L13 2 reports not-delivered\n"
		     "ke id3 L15 not-delivered\n"
		     "hb c3 L16 (100,100)\n"
		     "he c3 L18 2 reports not-delivered\n"
		     "ke id4 L19 not-delivered\n"
		     "ke id5 L20 not-delivered\n");
	const struct tt_stats_hid *sh = tt_stats_hid(&r.stats, 3);
	check(sh != NULL);
	if (!sh)
		return;
	check_int_eq(sh->links.linked, 2);
	check_int_eq(sh->links.not_delivered, 2);
	/* {-400, 300} by util-stats.h's rule: the median is the mean of the
	 * two, p95 is 95 % of the way from the first to the second. */
	check_int_eq(sh->links.median_latency_us, -50);
	check_int_eq(sh->links.p95_latency_us, 265);
	check_int_eq(r.stats.hid_links.linked, 2);
	check_int_eq(r.stats.hid_links.median_latency_us, -50);
	/* Each report that completed a frame and the nearest frame it may
	 * have produced; the contact at line 12 produced none, the frames at
	 * lines 14, 15 and 20 came from no report. Reports and frames pair
	 * by time alone: line 16's report and line 17's frame too. */
	check_str_eq(r.frames,
		     "L4->L5 +300us\n"
		     "L6->L7 +200us\n"
		     "L9->L8 -400us\n"
		     "L11->L10 -300us\n"
		     "L16->L17 +100us\n"
		     "L18->L19 +100us\n");
	check_int_eq(sh->links.frames, 6);
}

/* The recorder reads hidraw some milliseconds after the kernel stamped
 * the frame: the frame of line 7 is nearer in time to line 6's report,
 * which changed nothing and produced no frame, than to line 8's, which
 * moved the finger to where the frame has it. */
static void
test_frames_by_state(void)
{
	struct timeline tl;
	struct run r;

	start(&tl, true);
	frame(&tl, 7000, 1, 100, 100);
	report(&tl, 10000, true, 0, 100, 100, 10, 1);
	report(&tl, 14000, true, 0, 100, 100, 50, 1);
	frame(&tl, 15000, 1, 120, 100);
	report(&tl, 18000, true, 0, 120, 100, 90, 1);
	run_timeline(&tl, &r);
	check_str_eq(r.frames, "L5->L4 -3000us\nL8->L7 -3000us\n");
	check_contains(r.log, "ke id1 L8 <- hid3 c0 L5 -3000us\n");
}

/* ---- validate's rules ---- */

struct checked {
	int diags[TT_CHECK_COUNT];
	char text[2048];
	size_t len;
};

static void
on_check(void *data, const struct tt_diag *d)
{
	struct checked *c = data;

	c->diags[d->check]++;
	logf_(c->text, sizeof(c->text), &c->len, "%s L%zu: %s\n", tt_check_name(d->check), d->line, d->message);
}

static void
test_checker(void)
{
	uint8_t good[] = { 0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01, 0x09, 0x42, 0x15, 0x00,
			   0x25, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0 };
	uint8_t bad[] = { 0x05, 0x0d, 0x09, 0x04, 0xc0 };	/* End Collection without one */
	uint32_t evdev[] = { 7 };
	struct tt_hid_device dev = {
		.id = 1, .name = (char *)"test", .descriptor_len = sizeof(good), .descriptor = good,
		.nevdev = 1, .evdev_devices = evdev,
	};
	struct tt_hid_device broken = { .id = 2, .name = (char *)"broken", .descriptor_len = sizeof(bad),
					.descriptor = bad };
	uint8_t data[] = { 0x01, 0x01 };
	struct tt_hid_report r1 = { .device = 1, .time_us = 5000, .len = 2, .data = data };
	struct tt_hid_report r2 = { .device = 1, .time_us = 4000, .len = 2, .data = data };
	struct tt_hid_report r3 = { .device = 9, .time_us = 6000, .len = 2, .data = data };
	struct checked c = { .len = 0 };
	struct tt_checker *ck = tt_checker_new(on_check, &c);
	struct tt_record rec = { .type = TT_RECORD_HID_DEVICE, .line = 1, .hid_device = &dev };

	tt_checker_feed(ck, &rec);
	rec = (struct tt_record){ .type = TT_RECORD_HID_DEVICE, .line = 2, .hid_device = &broken };
	tt_checker_feed(ck, &rec);
	rec = (struct tt_record){ .type = TT_RECORD_HID_REPORT, .line = 3, .hid_report = &r1 };
	tt_checker_feed(ck, &rec);
	rec = (struct tt_record){ .type = TT_RECORD_HID_REPORT, .line = 4, .hid_report = &r2 };
	tt_checker_feed(ck, &rec);
	rec = (struct tt_record){ .type = TT_RECORD_HID_REPORT, .line = 5, .hid_report = &r3 };
	tt_checker_feed(ck, &rec);
	tt_checker_finish(ck);
	tt_checker_free(ck);

	check_int_eq(c.diags[TT_CHECK_HID_BAD_DESCRIPTOR], 1);
	check_contains(c.text, "hid-bad-descriptor L2: HID device 2: the report descriptor does not parse: item ");
	check_int_eq(c.diags[TT_CHECK_TIME_BACKWARDS], 1);
	check_contains(c.text, "time-backwards L4: HID device 1: report time 4000 us is before the previous report's 5000 us");
	check_int_eq(c.diags[TT_CHECK_HID_UNKNOWN_DEVICE], 1);
	check_contains(c.text, "hid-unknown-device L5: HID report of HID device 9");
	check_int_eq(c.diags[TT_CHECK_HID_UNKNOWN_EVDEV], 1);
	check_contains(c.text, "hid-unknown-evdev L1: HID device 1 lists evdev device 7");
	/* HID devices are devices: no no-devices warning. */
	check_int_eq(c.diags[TT_CHECK_NO_DEVICES], 0);
	check_int_eq(c.diags[TT_CHECK_HID_BAD_DESCRIPTOR] + c.diags[TT_CHECK_TIME_BACKWARDS] +
		     c.diags[TT_CHECK_HID_UNKNOWN_DEVICE] + c.diags[TT_CHECK_HID_UNKNOWN_EVDEV], 4);
}

int
main(void)
{
	RUN(test_one_contact);
	RUN(test_confidence);
	RUN(test_hybrid_mode);
	RUN(test_vanished);
	RUN(test_count_cut);
	RUN(test_beyond_count);
	RUN(test_undeclared_and_short);
	RUN(test_link);
	RUN(test_frames_by_state);
	RUN(test_checker);
	return tt_test_result();
}
