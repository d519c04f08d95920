/* SPDX-License-Identifier: MIT */
/* touchtape analyze: per-device and per-touch numbers and the anomalies a
 * driver developer looks for, in one streaming pass over any recording.
 * The anomalies and the shared numbers come from lib/analysis/detect.h; this file
 * keeps the statistics only analyze shows (frame intervals, paths) and
 * the output. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-private.h"
#include "commands.h"
#include "stack.h"
#include "evnames.h"
#include "log.h"
#include "model.h"
#include "json-emit.h"
#include "li-analyze.h"
#include "xi-chains.h"
#include "wl-analyze.h"
#include "model-plot.h"
#include "output.h"
#include "read-options.h"
#include "reader.h"
#include "surroundings-print.h"
#include "util-strings.h"

enum {
	OPT_JUMP = TT_OPT_FIRST_PRIVATE,
	OPT_JUMP_UNITS,
	OPT_NO_LINK,
	OPT_WINDOW,
	OPT_IGNORE,
	OPT_MAX,
	OPT_STRICT,
	OPT_GRADE,
	OPT_REFRESH,
};

static struct dev_stats *
find_dev(struct analyze *a, uint32_t id)
{
	for (size_t i = 0; i < a->ndevs; i++) {
		if (a->devs[i].used && a->devs[i].id == id)
			return &a->devs[i];
	}
	return NULL;
}

double
secs(int64_t us)
{
	return (double)us / 1e6;
}

/* ---- anomalies: the shared stream ---- */

static void
on_diag(void *data, const struct tt_diag *d)
{
	struct analyze *a = data;
	bool show;

	if (a->filter.ignore[d->check] || !tt_read_options_keep_diag(a->ro, d, a->feeding))
		return;
	show = tt_diag_filter_accept(&a->filter, d);
	/* A line that could not be read is trouble with the file, not only
	 * a finding: on stderr too, like every command's. */
	if (d->check == TT_CHECK_BAD_LINE) {
		char msg[600];
		tt_diag_format(d, "analyze", a->name, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
	}
	if (d->check == TT_CHECK_JUMP) {
		a->jump_pending = true;
		a->jump_device = d->device;
		a->jump_tracking_id = d->tracking_id;
	}
	/* JSON lists them all; text stops each kind at --max. */
	if (a->json)
		anomaly_json(a, d);
	else if (show)
		anomaly_text(a, d);
	a->nanomalies++;
}

/* ---- kernel touches ---- */

static void
use_slot(struct dev_stats *s, int32_t slot)
{
	if (slot >= 0 && slot < (int32_t)TT_MAX_SLOTS)
		set_bit(s->slots_used, (unsigned)slot);
}

static void
on_kbegin(void *data, struct tt_ktouch *t)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, t->device);
	struct touch_stats *ts = tt_zalloc(sizeof(*ts));

	t->user = ts;
	ts->last_x = t->values[TT_AXIS(ABS_MT_POSITION_X)];
	ts->last_y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	ts->known = !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)));
	ts->pmin = ts->pmax = t->values[TT_AXIS(ABS_MT_PRESSURE)];
	ts->smin = ts->smax = t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)];
	/* With --from/--to, the slots of the touches listed. */
	if (s && !a->window)
		use_slot(s, t->slot);
	if (a->plot && ts->known)
		tt_plot_path_sample(&ts->plot, t, t->begin_us, false);
}

static void
on_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	struct analyze *a = data;
	struct touch_stats *ts = t->user;
	struct dev_stats *s = find_dev(a, t->device);
	int32_t x = t->values[TT_AXIS(ABS_MT_POSITION_X)], y = t->values[TT_AXIS(ABS_MT_POSITION_Y)];
	int32_t p = t->values[TT_AXIS(ABS_MT_PRESSURE)], sz = t->values[TT_AXIS(ABS_MT_TOUCH_MAJOR)];

	if (!ts || !s)
		return;
	if (p < ts->pmin) ts->pmin = p;
	if (p > ts->pmax) ts->pmax = p;
	if (sz < ts->smin) ts->smin = sz;
	if (sz > ts->smax) ts->smax = sz;
	bool known = !(t->unknown & (TT_AXIS_BIT(ABS_MT_POSITION_X) | TT_AXIS_BIT(ABS_MT_POSITION_Y)));
	bool jump = a->jump_pending && a->jump_device == t->device && a->jump_tracking_id == t->tracking_id;
	a->jump_pending = false;
	if (x == ts->last_x && y == ts->last_y && known == ts->known) {
		if (a->plot && known)	/* pressure alone changed: the touch panel shows it */
			tt_plot_path_sample(&ts->plot, t, u->time_us, false);
		return;
	}
	/* No step from a position the device never reported. */
	double step = ts->known ? tt_model_distance(s->dev, (double)x - ts->last_x, (double)y - ts->last_y) : 0;
	ts->path += step;
	if (step > ts->max_step)
		ts->max_step = step;
	ts->last_x = x;
	ts->last_y = y;
	ts->known = known;
	if (a->plot && known)
		tt_plot_path_sample(&ts->plot, t, u->time_us, jump);
}

static void
on_kend(void *data, struct tt_ktouch *t)
{
	struct analyze *a = data;
	struct touch_stats *ts = t->user;
	struct dev_stats *s = find_dev(a, t->device);

	if (ts && s && s->selected && tt_read_options_overlaps(a->ro, t->begin_us, t->end_us)) {
		report_touch(a, t, ts, s);
		s->window_touches++;
		if (a->window)
			use_slot(s, t->slot);
	}
	if (ts)
		tt_plot_path_release(&ts->plot);
	free(ts);
	t->user = NULL;
}

/* ---- frames ---- */

/* The frame intervals while touching and the time without touches:
 * analyze's own numbers. */
static void
on_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t n)
{
	struct analyze *a = data;
	struct dev_stats *s = find_dev(a, dev->id);

	if (!s)
		return;
	/* Intervals with both ends in the window. */
	if (s->have_time && tt_read_options_overlaps(a->ro, s->last_us, s->last_us) &&
	    tt_read_options_overlaps(a->ro, f->time_us, f->time_us)) {
		int64_t dt = f->time_us - s->last_us;
		if (s->prev_count == 0 && dt > 0)
			s->neutral_us += dt;
		if (s->prev_count > 0 && n > 0 && dt >= 0) {
			int64_t longest = s->iv.max_us;
			tt_interval_hist_add(&s->iv, dt);
			s->sum += (double)dt;
			s->sumsq += (double)dt * (double)dt;
			/* The first of the longest: where the histogram's maximum grew. */
			if (s->iv.n == 1 || s->iv.max_us != longest) {
				s->max_at_us = f->time_us;
				s->max_line = line;
			}
		}
	}
	s->have_time = true;
	s->last_us = f->time_us;
	if (tt_read_options_overlaps(a->ro, f->time_us, f->time_us)) {
		if (n > s->window_max)
			s->window_max = n;
		if (a->plot && n != s->prev_count)
			tt_plot_count(a->plot, s->id, f->time_us, n);
	}
	s->prev_count = n;
}

/* ---- XI touches ---- */

static void
on_xend(void *data, struct tt_xtouch *t)
{
	struct analyze *a = data;

	if (!tt_read_options_overlaps(a->ro, t->begin_us, t->end_us))
		return;
	if (a->json)
		xtouch_json(a, t);
	else
		xtouch_text(a, t);
	a->nxtouches++;
}

/* ---- output ---- */

static void
add_device(struct analyze *a, const struct tt_device *dev)
{
	struct dev_stats *s = find_dev(a, dev->id);

	if (!s) {
		if (a->ndevs >= TT_MAX_DEVICES)
			return;
		s = &a->devs[a->ndevs++];
	}
	tt_interval_hist_clear(&s->iv);
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->id = dev->id;
	s->dev = dev;
	s->selected = a->opts.only_device < 0 || a->opts.only_device == (int64_t)dev->id;
	s->mm = tt_model_has_mm(dev);
	if (a->plot && s->selected)
		tt_plot_add_device(a->plot, dev);
}

/* The reader's warnings are diagnostics like the others. */
static void
on_warn(void *data, const char *message)
{
	struct analyze *a = data;

	tt_stack_reader_warning(a->detect, a->name, message);
}

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape analyze [OPTIONS] FILE\n"
		"\n"
		"Reads a recording (touchtape timeline, evemu, libinput record or\n"
		"hid-recorder) in one streaming pass and prints, per device, the frame\n"
		"rate, touches and time without touches; per HID device its report rate,\n"
		"reports, contacts and HID-to-kernel latency; per touch sequence its\n"
		"times, positions, path, largest per-frame movement, pressure and size,\n"
		"with HID data the HID contact it was made of, and with XI data the XI\n"
		"touch it became, its kernel-to-X latency and ownership outcome; per XI\n"
		"touch its ownership chain (each client's decision and ownership delay,\n"
		"median and p95 per stage); and the anomalies (the diagnostics validate\n"
		"reports, and what the touch model shows, HID contacts among it), each\n"
		"with time, device, slot or touch and line in the file.\n"
		"\n"
		"Options:\n"
		"  -j, --json          machine-readable output (see touchtape-analyze(1))\n"
		"  -d, --device ID     only the evdev device with this record id\n"
		"      --from TIME     report only from this time on (1.5, 250ms, 2s, in the\n"
		"                      times print shows): the numbers, touches and anomalies\n"
		"                      of the window; what comes before still sets the state\n"
		"      --to TIME       report only up to this time\n"
		"  -p, --plot OUT.svg  draw touches over time per layer, trajectories (axes in\n"
		"                      mm; HID contacts too), and x, y and pressure over time\n"
		"                      per touch (written beside OUT.svg and renamed into place)\n"
		"      --desc FILE     the device description of an events-only evemu file\n"
		"      --jump MM       per-frame movement that counts as a jump (default %.0f mm,\n"
		"                      libinput's touchpad jump threshold)\n"
		"      --jump-units N  the same for devices without resolution, in device\n"
		"                      units (default: 25%% of the axis range)\n"
		"      --no-link       do not pair kernel touches with XI touches\n"
		"      --link-window T how long after a kernel touch its XI touch may begin\n"
		"                      (default 250ms)\n"
		"      --ignore KIND   leave out anomalies of this kind (repeatable; the kinds\n"
		"                      are in touchtape-analyze(1))\n"
		"      --max N         list at most N anomalies of each kind (default %d;\n"
		"                      0 = all); JSON lists them all\n"
		"      --strict        warnings count as findings too\n"
		"      --grade PROFILE grade the touch device against published quality limits:\n"
		"                      touchscreen, touchpad, chromeos, or a profile file\n"
		"      --refresh HZ    the display's refresh rate, for limits that depend on it\n"
		"                      (default 60)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when no error-severity anomaly was found (no anomaly at all\n"
		"with --strict) and no graded metric failed, 1 when one was or did, 2 on\n"
		"bad usage, a bad profile, a file that cannot be read,\n"
		"a --device the file does not have, a --from past its end or a plot not\n"
		"written.\n"
		"\n"
		"Examples:\n"
		"  touchtape analyze bug-1234.jsonl\n"
		"  touchtape analyze --json --device 0 recording.jsonl | jq .anomalies\n"
		"  touchtape analyze --ignore touch-active-at-end --strict ci-recording.jsonl\n"
		"  touchtape analyze --plot touches.svg touchpad.evemu\n"
		"  touchtape analyze --from 2s --to 3.5s --json bug-1234.jsonl\n"
		"  touchtape analyze --grade touchpad touchpad.evemu\n",
		TT_DETECT_DEFAULT_JUMP_MM, TT_DIAG_DEFAULT_MAX);
}

static int
open_outputs(struct analyze *a, const char *plot_path)
{
	a->touches = tmpfile();
	a->xtouches = tmpfile();
	a->hcontacts = tmpfile();
	a->anomalies = tmpfile();
	if (!a->touches || !a->xtouches || !a->anomalies || !a->hcontacts || (plot_path && !(a->plot = tt_plot_new()))) {
		tt_error("cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	tt_json_emit_init_file(&a->jtouches, a->touches);
	tt_json_emit_init_file(&a->jxtouches, a->xtouches);
	tt_json_emit_init_file(&a->jhcontacts, a->hcontacts);
	tt_json_emit_init_file(&a->janomalies, a->anomalies);
	if (a->json) {
		tt_json_emit_array_begin(&a->jtouches);
		tt_json_emit_array_begin(&a->jxtouches);
		tt_json_emit_array_begin(&a->jhcontacts);
		tt_json_emit_array_begin(&a->janomalies);
	}
	return 0;
}

static int
write_plot(struct analyze *a, struct tt_output *out)
{
	const struct tt_stats *st = tt_stack_stats(a->window ? a->window : a->detect);
	FILE *f = tt_output_stream(out);

	if (!f || tt_plot_write(a->plot, f, st->first_us, st->last_us) < 0) {
		tt_error("%s: cannot write the plot: %s", tt_output_name(out), strerror(errno));
		return -EIO;
	}
	return tt_output_commit(out);
}

/* Reads the whole file through the shared pass (what comes before
 * --from sets the state the window starts in); -EIO when reading
 * stopped. */
static int
read_all(struct analyze *a, struct tt_reader *r)
{
	struct tt_record rec;
	int rc;

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			tt_stack_reader_error(a->detect, a->name, tt_reader_error(r));
			if (rc == -EIO)
				return rc;
			continue;
		}
		if (rec.type == TT_RECORD_DEVICE)
			add_device(a, rec.device);
		if (rec.type == TT_RECORD_HID_DEVICE && a->plot)
			tt_plot_name_hid(a->plot, rec.hid_device);
		if (!tt_read_options_keep_device(a->ro, &rec))
			continue;
		a->feeding = &rec;
		tt_stack_feed(a->detect, &rec);
		li_summary_feed(&a->li, &rec);
		wl_summary_feed(&a->wl, &rec);
		a->feeding = NULL;
		if (a->window && tt_read_options_in_window(a->ro, &rec))
			tt_stack_feed(a->window, &rec);
	}
	return 0;
}

static int
start(struct analyze *a, struct tt_reader *r)
{
	const struct tt_model_callbacks cb = {
		.kernel_begin = on_kbegin,
		.kernel_update = on_kupdate,
		.kernel_end = on_kend,
		.frame = on_frame,
		.xi_end = on_xend,
		.hid_end = on_hend,
	};
	int rc;

	a->detect = tt_stack_new(&a->opts, on_diag, a);
	tt_stack_subscribe(a->detect, &cb, a);
	if (a->plot)
		plot_layers_subscribe(a);
	if (tt_read_options_has_window(a->ro))
		a->window = tt_stack_new(&a->opts, NULL, NULL);
	tt_reader_set_warn(r, on_warn, a);
	li_summary_init(&a->li, a->detect);
	wl_summary_init(&a->wl, a->detect);
	grade_start(a);
	rc = read_all(a, r);
	tt_stack_finish(a->detect);
	li_summary_finish(&a->li);
	wl_summary_finish(&a->wl);
	if (a->window)
		tt_stack_finish(a->window);
	grade_conclude(a);
	return rc;
}

static int
run(struct analyze *a, const char *path, const char *plot_path)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_output_freep) struct tt_output *plot_out = NULL;
	const char *inputs[] = { path, a->ro->desc, NULL };
	const struct tt_stats *st;
	int rc, status;

	rc = tt_open_recording_opts(path, a->ro, &r);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	a->name = tt_reader_name(r);
	/* Opened before the reading, so a refused output costs no time. */
	if (plot_path && tt_output_open(plot_path, inputs, &plot_out) < 0)
		return TT_EXIT_TROUBLE;
	if (open_outputs(a, plot_path) < 0)
		return TT_EXIT_TROUBLE;
	rc = start(a, r);
	if (tt_read_options_finish(a->ro, r) < 0)
		return TT_EXIT_TROUBLE;
	st = tt_stack_stats(a->detect);
	if (tt_read_options_check_end(a->ro, a->name, st->have_time, st->last_us) != 0)
		return TT_EXIT_USAGE;
	report(a, r);
	status = tt_diag_filter_status(&a->filter);
	if (a->graded.nfail && status == TT_EXIT_OK)
		status = TT_EXIT_FAILURE;
	if (rc < 0 || (a->plot && write_plot(a, plot_out) < 0))
		status = TT_EXIT_TROUBLE;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tt_error("cannot write the report: %s", strerror(errno));
		status = TT_EXIT_TROUBLE;
	}
	return status;
}

/* Options that take a value and can fail; -1 after a usage error. */
static int
parse_value(struct analyze *a, int opt, const char *arg)
{
	int64_t v;

	switch (opt) {
	case OPT_JUMP:
		return tt_read_positive_option("analyze", "--jump", arg, &a->opts.jump_mm) ? -1 : 0;
	case OPT_JUMP_UNITS:
		return tt_read_positive_option("analyze", "--jump-units", arg, &a->opts.jump_units) ? -1 : 0;
	case OPT_WINDOW:
		if (tt_parse_duration_us(arg, &a->opts.link_window_us) < 0 || a->opts.link_window_us <= 0)
			return tt_usage_error("analyze", "--link-window takes a duration like 250ms, not '%s'", arg), -1;
		return 0;
	case OPT_IGNORE:
		if (tt_diag_filter_ignore(&a->filter, arg) < 0)
			return tt_usage_error("analyze", "--ignore: no diagnostic is called '%s'", arg), -1;
		return 0;
	case OPT_GRADE:
		return tt_read_grade_option("analyze", arg, &a->profile) ? -1 : 0;
	case OPT_REFRESH:
		return tt_read_refresh_option("analyze", arg, &a->refresh_hz) ? -1 : 0;
	case OPT_MAX:
		if (tt_parse_int64(arg, &v) < 0 || v < 0)
			return tt_usage_error("analyze", "--max takes a number, not '%s'", arg), -1;
		a->filter.max_per_kind = (size_t)v;
		return 0;
	default:
		return tt_usage_error("analyze", "unknown option"), -1;
	}
}

static void
analyze_free(struct analyze *a)
{
	for (size_t i = 0; i < a->ndevs; i++)
		tt_interval_hist_clear(&a->devs[i].iv);
	if (a->touches) fclose(a->touches);
	if (a->xtouches) fclose(a->xtouches);
	if (a->hcontacts) fclose(a->hcontacts);
	if (a->anomalies) fclose(a->anomalies);
	tt_stack_free(a->detect);
	tt_grade_free(a->grade);
	tt_grade_profile_free(a->profile);
	tt_stack_free(a->window);
	tt_plot_free(a->plot);
	li_summary_clear(&a->li);
	wl_summary_clear(&a->wl);
	free(a);
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_analyze_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "plot", required_argument, NULL, 'p' },
	{ "jump", required_argument, NULL, OPT_JUMP },
	{ "jump-units", required_argument, NULL, OPT_JUMP_UNITS },
	{ "no-link", no_argument, NULL, OPT_NO_LINK },
	{ "link-window", required_argument, NULL, OPT_WINDOW },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "max", required_argument, NULL, OPT_MAX },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "grade", required_argument, NULL, OPT_GRADE },
	{ "refresh", required_argument, NULL, OPT_REFRESH },
	TT_READ_LONG_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_analyze_short_options[] = "jp:h" TT_READ_SHORT_OPTIONS;

int
tt_cmd_analyze(int argc, char **argv)
{
	struct analyze *a = tt_zalloc(sizeof(*a));
	const char *plot = NULL;
	struct tt_read_options ro;
	int opt, status, taken;

	a->opts.only_device = -1;
	a->opts.jump_mm = TT_DETECT_DEFAULT_JUMP_MM;
	a->filter.max_per_kind = TT_DIAG_DEFAULT_MAX;
	a->refresh_hz = 60.0;
	optind = 1;
	status = -1;
	tt_read_options_init(&ro, "analyze", TT_READ_ALL);
	a->ro = &ro;
	while (status < 0 && (opt = getopt_long(argc, argv, tt_analyze_short_options, tt_analyze_options, NULL)) != -1) {
		if ((taken = tt_read_option(&ro, opt, optarg)) != 0) {
			if (taken != 1)
				status = taken;
			continue;
		}
		switch (opt) {
		case 'j': a->json = true; break;
		case 'p': plot = optarg; break;
		case OPT_NO_LINK: a->opts.no_link = true; break;
		case OPT_STRICT: a->filter.strict = true; break;
		case 'h': usage(stdout); status = TT_EXIT_OK; break;
		default:
			if (parse_value(a, opt, optarg) < 0)
				status = TT_EXIT_USAGE;
			break;
		}
	}
	if (status < 0 && optind != argc - 1)
		status = tt_usage_error("analyze", optind >= argc ? "no file given" : "one file at a time");
	if (status < 0 && tt_read_options_check(&ro) != 0)
		status = TT_EXIT_USAGE;
	/* The report has standard output: an SVG there would mix with it. */
	if (status < 0 && plot && strcmp(plot, "-") == 0)
		status = tt_usage_error("analyze", "--plot -: the report is written on standard output; "
					"give the plot a file (--plot touches.svg)");
	if (status < 0 && ro.ndevices)
		a->opts.only_device = ro.devices[0];
	if (status < 0)
		status = run(a, argv[optind], plot);
	tt_read_options_clear(&ro);
	analyze_free(a);
	return status;
}
