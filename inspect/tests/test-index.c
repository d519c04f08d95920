/* SPDX-License-Identifier: MIT */
/*
 * The inspector's index over hand-made timelines and corpus files: lanes
 * (Type B with slot reuse, Type A paired into touches, a touch down at the
 * end, a device removed), the kernel-to-XI link, ownership accepted,
 * rejected, lost and never resolved, and markers.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "index.h"
#include "summary.h"
#include "test-common.h"
#include "view-model.h"

static struct tt_index *
load(const char *path)
{
	struct tt_index *ix = NULL;
	char *why = NULL;

	if (tt_index_open(path, &ix, &why) < 0) {
		fprintf(stderr, "cannot open %s: %s\n", path, why ? why : "?");
		free(why);
		tt_test_failures++;
		return NULL;
	}
	check_int_eq(tt_index_step(ix, 0), 0);
	check(tt_index_done(ix));
	return ix;
}

/* The numbers of the index's device @i. */
static const struct tt_stats_device *
dev_stats(const struct tt_index *ix, size_t i)
{
	const struct tt_stats_device *sd = tt_stats_device(tt_index_stats(ix), tt_index_device_at(ix, i)->id);

	check(sd != NULL);
	return sd;
}

static char *
summary_of(struct tt_index *ix, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	tt_inspect_summary(ix, f, json, NULL);
	fclose(f);
	return buf;
}

/* --summary's lean index must print exactly what the whole index says,
 * while keeping only the lanes that are live at once. */
static void
check_lean_summary(const char *path)
{
	_cleanup_(tt_index_freep) struct tt_index *full = load(path);
	_cleanup_(tt_index_freep) struct tt_index *lean = NULL;
	char *why = NULL;

	if (!full)
		return;
	if (tt_index_open(path, &lean, &why) < 0) {
		fprintf(stderr, "cannot open %s: %s\n", path, why ? why : "?");
		free(why);
		tt_test_failures++;
		return;
	}
	tt_index_set_lean(lean, true);
	check_int_eq(tt_index_step(lean, 0), 0);
	for (int json = 0; json <= 1; json++) {
		_cleanup_free_ char *a = summary_of(full, json);
		_cleanup_free_ char *b = summary_of(lean, json);
		if (strcmp(a, b) != 0) {
			fprintf(stderr, "%s: lean summary differs:\n%s---\n%s", path, a, b);
			tt_test_failures++;
		}
	}
	check(tt_index_nframes(lean) == 0 && tt_index_nlanes(lean) <= tt_index_nlanes(full));
	check(tt_index_memory(lean) <= tt_index_memory(full));
	/* Only live lanes: never more than the touches down at once plus
	 * the XI lanes (one per client and raw) of those touches. */
	uint32_t max = 0;
	for (size_t i = 0; i < tt_index_ndevices(full); i++)
		max += dev_stats(full, i)->max_simultaneous;
	if (tt_index_stats(full)->xi_events == 0)
		check(tt_index_nlanes(lean) <= max);
}

static void
test_lean(void)
{
	static const char *const samples[] = {
		"3m-two-finger.jsonl", "ntrig-type-a.jsonl", "touchpad-two-finger-swipe.jsonl",
		"xi-ownership-accept.jsonl", "xi-ownership-reject-after-50.jsonl",
		"xi-touchpad-synaptics.jsonl", "xi-touchscreen-ten-finger.jsonl",
	};
	char path[4096];

	for (size_t i = 0; i < ARRAY_LENGTH(samples); i++) {
		snprintf(path, sizeof(path), "%s/samples/%s", tt_test_srcdir(), samples[i]);
		check_lean_summary(path);
	}
	snprintf(path, sizeof(path), "%s/inspect/tests/data/ownership.jsonl", tt_test_srcdir());
	check_lean_summary(path);
}

static const struct ti_lane *
find_lane(const struct tt_index *ix, enum ti_lane_kind kind, int32_t id, const char *client, int nth)
{
	for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
		const struct ti_lane *l = tt_index_lane(ix, i);
		if (l->kind == kind && l->id == id && (!client || strcmp(l->client, client) == 0) && nth-- == 0)
			return l;
	}
	return NULL;
}

static size_t
count_markers(const struct tt_index *ix, enum ti_marker_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < tt_index_nmarkers(ix); i++)
		n += tt_index_marker(ix, i)->kind == k;
	return n;
}

static const char *
data(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/inspect/tests/data/%s", tt_test_srcdir(), name);
	return path;
}

static void exercise_ui(struct tt_index *ix);

static void
test_ownership(void)
{
	_cleanup_(tt_index_freep) struct tt_index *ix = load(data("ownership.jsonl"));
	const struct ti_lane *l, *x;

	if (!ix)
		return;
	check_int_eq(tt_index_ndevices(ix), 2);
	check_int_eq(tt_index_nframes(ix), 18);
	check_int_eq(dev_stats(ix, 0)->touch_sequences, 3);
	check_int_eq(dev_stats(ix, 0)->max_simultaneous, 2);
	check_int_eq(dev_stats(ix, 1)->touch_sequences, 2);
	check_int_eq(dev_stats(ix, 1)->max_simultaneous, 2);
	check(tt_index_device_at(ix, 1)->removed);
	check_int_eq(dev_stats(ix, 1)->syn_dropped, 1);

	/* Touch 1: accepted by the grab, lost by the window client. */
	l = find_lane(ix, TI_LANE_KERNEL, 10, NULL, 0);
	check(l != NULL);
	if (l) {
		check_int_eq(l->slot, 0);
		check_int_eq(l->begin_us, 10000);
		check_int_eq(l->end_us, 80000);
		check_int_eq(l->nupd, 6);
		check_int_eq(l->link, TT_LINK_LINKED);
		check_int_eq(l->xi_touchid, 1);
		check_int_eq(l->xi_begin_us - l->begin_us, 1500);
		check(l->linked >= 0);
		/* Values at the frame of t=30 ms: the second update. */
		int64_t f = tt_index_frame_at(ix, 30000, 0);
		int64_t u = tt_index_kupd_at(l, (size_t)f);
		check_int_eq(u, 2);
		if (u >= 0) {
			check_int_eq(l->kupd[u].x, 1040);
			check_int_eq(l->kupd[u].y, 2020);
			check_int_eq(l->kupd[u].pressure, 40);
			check_int_eq(l->kupd[u].major, 6);
		}
		check(l->distance > 11.1 && l->distance < 11.3);	/* mm: 100 units x, 50 y at 10 units/mm */
		check(l->distance_mm);
	}
	x = find_lane(ix, TI_LANE_XI, 1, "grab", 0);
	check(x && x->outcome == TT_OWN_ACCEPTED && x->owned_us == 11600 && x->resolved_us == 32000);
	check(x && l && x->linked == l->index);
	x = find_lane(ix, TI_LANE_XI, 1, "window", 0);
	check(x && x->outcome == TT_OWN_LOST);
	check(x && (x->flags & TT_XTOUCH_EMULATING_POINTER));
	check(x && l && x->linked == l->index);

	/* Touch 2: rejected by the grab, then owned by the window client. */
	x = find_lane(ix, TI_LANE_XI, 2, "grab", 0);
	check(x && x->outcome == TT_OWN_REJECTED);
	x = find_lane(ix, TI_LANE_XI, 2, "window", 0);
	check(x && x->outcome == TT_OWN_OWNED && x->owned_us == 75200);
	check(x && (x->flags & TT_XTOUCH_PENDING_END));

	/* Touch 3: slot 0 again, down at the end; the window never knows. */
	l = find_lane(ix, TI_LANE_KERNEL, 12, NULL, 0);
	check(l && l->slot == 0 && (l->flags & TT_KTOUCH_ACTIVE_AT_END));
	x = find_lane(ix, TI_LANE_XI, 3, "window", 0);
	check(x && x->outcome == TT_OWN_UNRESOLVED && (x->flags & TT_XTOUCH_ACTIVE_AT_END));
	x = find_lane(ix, TI_LANE_XI, 3, "grab", 0);
	check(x && x->outcome == TT_OWN_OWNED);

	/* Type A: two contacts paired across frames, ended by the removal. */
	l = find_lane(ix, TI_LANE_KERNEL, 1, NULL, 0);
	check(l && l->device == 1 && (l->flags & TT_KTOUCH_SYNTHETIC_ID) && (l->flags & TT_KTOUCH_DEVICE_GONE));
	check(l && l->end_us == 130000);
	check(l && l->nupd == 3);

	check_int_eq(tt_index_stats(ix)->linked, 3);
	check_int_eq(tt_index_stats(ix)->outcomes[TT_OWN_ACCEPTED], 1);
	check_int_eq(tt_index_stats(ix)->outcomes[TT_OWN_REJECTED], 1);
	check_int_eq(tt_index_stats(ix)->outcomes[TT_OWN_LOST], 1);
	check_int_eq(tt_index_stats(ix)->outcomes[TT_OWN_OWNED], 2);
	check_int_eq(tt_index_stats(ix)->outcomes[TT_OWN_UNRESOLVED], 1);

	check_int_eq(count_markers(ix, TI_MARK_OWNERSHIP), 4);
	check_int_eq(count_markers(ix, TI_MARK_ACCEPT), 1);
	check_int_eq(count_markers(ix, TI_MARK_REJECT), 1);
	check_int_eq(count_markers(ix, TI_MARK_PENDING_END), 1);
	check_int_eq(count_markers(ix, TI_MARK_EMULATING), 1);
	check_int_eq(count_markers(ix, TI_MARK_DROPPED), 1);
	check_int_eq(count_markers(ix, TI_MARK_DEVICE_REMOVED), 1);
	check_int_eq(count_markers(ix, TI_MARK_RECORD), 2);
	check_int_eq(tt_index_stats(ix)->diags[TT_CHECK_SYN_DROPPED], 1);
	exercise_ui(ix);
}

/* Keys move the cursor where they say. */
static void
test_keys(void)
{
	_cleanup_(tt_index_freep) struct tt_index *ix = load(data("ownership.jsonl"));
	struct tv_screen s = { 0 };
	struct tv_state st;

	if (!ix)
		return;
	tv_state_init(&st, ix);
	tv_screen_init(&s, 100, 30);
	tv_render(&st, &s);
	check_int_eq(st.cursor, 0);
	tv_key(&st, TV_KEY_RIGHT, 0);
	check_int_eq(st.cursor, 10000);	/* the first frame */
	tv_key(&st, TV_KEY_RIGHT, 0);
	check_int_eq(st.cursor, 11500);	/* an XI event counts as a step */
	tv_key(&st, 'w', 0);
	check_int_eq(st.cursor, 11600);	/* TouchOwnership */
	tv_key(&st, 'w', 0);
	check_int_eq(st.cursor, 32000);	/* AcceptTouch */
	check(st.sel >= 0 && tt_index_lane(ix, st.sel)->kind == TI_LANE_XI && strcmp(tt_index_lane(ix, st.sel)->client, "grab") == 0);
	tv_key(&st, 'a', 0);
	check_int_eq(st.cursor, 120000);	/* SYN_DROPPED */
	tv_key(&st, 'a', 0);
	check_int_eq(st.cursor, 130000);	/* device removed */
	tv_key(&st, 'E', 0);
	check_int_eq(st.cursor, 105000);	/* the Type A touches begin (they end at 130000) */
	tv_key(&st, TV_KEY_HOME, 0);
	tv_key(&st, 'e', 0);
	check_int_eq(st.cursor, 10000);
	tv_key(&st, '/', 0);
	for (const char *p = "#12"; *p; p++)
		tv_key(&st, *p, 0);
	tv_key(&st, TV_KEY_ENTER, 0);
	check_int_eq(st.cursor, 140000);
	check(st.sel >= 0 && tt_index_lane(ix, st.sel)->id == 12);
	tv_key(&st, 'L', 0);
	check_int_eq(st.cursor, 150000);
	tv_key(&st, '/', 0);
	for (const char *p = "@0.1"; *p; p++)
		tv_key(&st, *p, 0);
	tv_key(&st, TV_KEY_ENTER, 0);
	check_int_eq(st.cursor, 100000);
	int64_t scale = st.scale;
	tv_key(&st, '+', 0);
	check_int_eq(st.scale, scale / 2);
	tv_key(&st, '-', 0);
	tv_key(&st, '-', 0);
	check_int_eq(st.scale, scale / 2 * 4);
	tv_key(&st, 's', 0);
	check_int_eq(st.source, TV_SRC_KERNEL);
	tv_key(&st, 'd', 0);
	check_int_eq(st.filter_dev, 0);
	tv_key(&st, 'q', 0);
	check(st.quit);
	tv_screen_fini(&s);
}

/* Hostile bits: a bad line in the middle is counted, the rest indexed. */
static void
test_bad_line(void)
{
	static const char text[] =
		"{\"format\":\"touchtape-timeline\",\"version\":1,\"start\":{\"monotonic_us\":0,\"realtime_us\":0}}\n"
		"{\"type\":\"device\",\"id\":0,\"name\":\"x\\u001b[31m\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":1,\"version\":1},"
		"\"codes\":{\"EV_SYN\":[\"SYN_REPORT\"],\"EV_KEY\":[\"BTN_TOUCH\"],\"EV_ABS\":[\"ABS_X\",\"ABS_Y\"]},"
		"\"absinfo\":{\"ABS_X\":{\"min\":0,\"max\":100},\"ABS_Y\":{\"min\":0,\"max\":100}}}\n"
		"{\"type\":\"frame\",\"dev\":0,\"t\":10,\"ev\":[[3,0,5],[3,1,5],[1,330,1],[0,0,0]]}\n"
		"{not json\n"
		"{\"type\":\"frame\",\"dev\":0,\"t\":20,\"ev\":[[1,330,0],[0,0,0]]}\n";
	const char *path = tt_test_tmpfile(text, sizeof(text) - 1);
	_cleanup_(tt_index_freep) struct tt_index *ix = load(path);

	if (!ix)
		return;
	struct ti_read_status rs;
	tt_index_read_status(ix, &rs);
	check_int_eq(rs.nerrors, 1);
	check_contains(rs.first_error, ":4:");
	check_int_eq(tt_index_nframes(ix), 2);
	check_int_eq(dev_stats(ix, 0)->touch_sequences, 1);	/* single touch: one BTN_TOUCH press */
	exercise_ui(ix);
	check(strchr(tt_index_device_at(ix, 0)->name, '\033') == NULL);
}

/* Every key on a recording, rendered after each (for the sanitizers). */
/* tt_index_set_devices(): the other devices' records are not indexed,
 * and only the XI lanes a chosen device's touches became are chosen. */
static void
test_devices(void)
{
	for (uint32_t want = 0; want <= 1; want++) {
		_cleanup_(tt_index_freep) struct tt_index *ix = NULL;
		char *why = NULL;
		size_t kernel = 0, xi = 0;

		if (tt_index_open(data("ownership.jsonl"), &ix, &why) < 0) {
			free(why);
			check(false);
			return;
		}
		tt_index_set_devices(ix, &want, 1);
		check_int_eq(tt_index_step(ix, 0), 0);
		check_int_eq(tt_index_ndevices(ix), 1);
		check_int_eq(tt_index_device_at(ix, 0)->id, want);
		check_int_eq(tt_index_nframes(ix), want == 0 ? 14 : 4);
		for (size_t i = 0; i < tt_index_nframes(ix); i++)
			check_int_eq(tt_index_frame(ix, i)->device, 0);
		for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
			const struct ti_lane *l = tt_index_lane(ix, i);
			if (l->kind == TI_LANE_KERNEL) {
				check_int_eq(l->device, want);
				kernel++;
			} else if (tt_index_lane_chosen(ix, l)) {
				check(l->linked >= 0);
				xi++;
			}
		}
		/* Device 0: three touches, each seen by two clients; device 1
		 * none that X delivered. */
		check_int_eq(kernel, want == 0 ? 3 : 2);
		check_int_eq(xi, want == 0 ? 6 : 0);
		check_int_eq(tt_index_stats(ix)->frames, want == 0 ? 14 : 4);
	}
}

static void
exercise_ui(struct tt_index *ix)
{
	static const int keys[] = {
		TV_KEY_RIGHT, TV_KEY_RIGHT, 'j', 'L', 'L', 'H', '+', '+', TV_KEY_RIGHT, TV_KEY_LEFT,
		'e', 'E', 'a', 'A', 'w', 'W', TV_KEY_PGDN, TV_KEY_PGUP, '-', '-', '-', 'k', 'z',
		TV_KEY_END, TV_KEY_SLEFT, TV_KEY_SRIGHT, '/', '#', '1', TV_KEY_ENTER, 'n', '/', '@',
		'1', 'x', TV_KEY_BACKSPACE, TV_KEY_ENTER, 'd', 'd', 's', 's', TV_KEY_HOME, '?', 'x', 's', 'd',
	};
	struct tv_screen s = { 0 };
	struct tv_state st;
	FILE *null = fopen("/dev/null", "w");

	tv_state_init(&st, ix);
	tv_screen_init(&s, 100, 30);
	tv_render(&st, &s);
	for (size_t i = 0; i < ARRAY_LENGTH(keys); i++) {
		tv_key(&st, keys[i], 0);
		tv_render(&st, &s);
		check(st.cursor >= tt_index_first_us(ix));
		check(st.cursor <= tt_index_last_us(ix));
	}
	tv_screen_init(&s, 20, 5);
	tv_render(&st, &s);
	if (null) {
		tv_render_text(ix, tt_index_first_us(ix), tt_index_last_us(ix), 80, null);
		fclose(null);
	}
	tv_screen_fini(&s);
}

/* Corpus: the maximum of simultaneous touches agrees with SOURCES.tsv,
 * computed by another program, over every Type A and B recording. */
static void
test_corpus(void)
{
	char dir[4096], tsv[4200], line[8192];
	struct stat stbuf;
	size_t files = 0;

	snprintf(dir, sizeof(dir), "%s", tt_test_corpus());
	snprintf(tsv, sizeof(tsv), "%s/SOURCES.tsv", dir);
	FILE *f = fopen(tsv, "r");
	if (!f || stat(dir, &stbuf) < 0) {
		fprintf(stderr, "no corpus at %s: skipped\n", dir);
		if (f)
			fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *col[17] = { 0 };
		size_t n = 0;
		for (char *p = line, *tab; n < 17; p = tab + 1) {
			col[n++] = p;
			tab = strpbrk(p, "\t\n");
			if (!tab)
				break;
			*tab = '\0';
		}
		if (n < 16 || strncmp(col[0], "evemu/", 6) != 0 || col[6][1] != '\0' ||
		    (col[6][0] != 'A' && col[6][0] != 'B') || col[15][0] != '\0')
			continue;	/* Type A/B files with their own description */
		char path[8400];
		snprintf(path, sizeof(path), "%s/%s", dir, col[0]);
		_cleanup_(tt_index_freep) struct tt_index *ix = load(path);
		if (!ix)
			continue;
		files++;
		uint32_t max = 0;
		for (size_t i = 0; i < tt_index_ndevices(ix); i++)
			if (dev_stats(ix, i)->max_simultaneous > max)
				max = dev_stats(ix, i)->max_simultaneous;
		uint32_t want = (uint32_t)atoi(col[10]);
		/* Where SOURCES.tsv's script is wrong, checked by hand: three
		 * tracking IDs are down together from 0.023 s to 1.296 s (the
		 * script seems to count BTN_TOOL_DOUBLETAP). */
		if (strcmp(col[0], "evemu/kwin-gestures__evemu_touchpad_stroke_n_3") == 0)
			want = 3;
		if (max != want) {
			fprintf(stderr, "%s: max simultaneous %u, want %u\n", col[0], max, want);
			tt_test_failures++;
		}
		exercise_ui(ix);
		check_lean_summary(path);
		/* Every lane ends after it begins; updates are in time order. */
		for (size_t i = 0; i < tt_index_nlanes(ix); i++) {
			const struct ti_lane *l = tt_index_lane(ix, i);
			check(l->ended && l->end_us >= l->begin_us && l->nupd >= 1);
			for (uint32_t u = 1; u < l->nupd; u++)
				check(tt_index_upd_time(ix, l, u) >= tt_index_upd_time(ix, l, u - 1));
		}
	}
	fclose(f);
	fprintf(stderr, "corpus: %zu Type A/B recordings indexed\n", files);
	check(files >= 10);
}

int
main(void)
{
	RUN(test_ownership);
	RUN(test_keys);
	RUN(test_bad_line);
	RUN(test_devices);
	RUN(test_lean);
	RUN(test_corpus);
	return tt_test_result();
}
