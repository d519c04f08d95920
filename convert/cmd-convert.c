/* SPDX-License-Identifier: MIT */
/* touchtape convert: between the timeline, evemu, libinput-record and
 * hid-recorder. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "convert-trace.h"
#include "device-state.h"
#include "export.h"
#include "gzip-out.h"
#include "log.h"
#include "output.h"
#include "privacy.h"
#include "read-options.h"
#include "reader.h"
#include "spool.h"
#include "util-strings.h"
#include "writer.h"


static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape convert [OPTIONS] IN\n"
		"\n"
		"Converts a recording between the touchtape timeline, evemu,\n"
		"libinput-record and hid-recorder formats. The input format is detected\n"
		"from the content (a touchtape timeline, any evemu version, libinput record\n"
		"YAML, hid-recorder output, each possibly gzip-compressed); the output is a\n"
		"timeline unless --format says otherwise. evemu and libinput-record hold\n"
		"the evdev layer, hid-recorder the HID layer (its devices and reports).\n"
		"What the output format cannot hold (XInput events, markers, more than one\n"
		"device in evemu, the other layer) is listed on stderr, never dropped\n"
		"silently; a recording without the layer the format holds is refused. The output file is written\n"
		"beside its place and renamed into it at the end: a failed or interrupted\n"
		"convert leaves the previous file as it was, and the input is never the\n"
		"output.\n"
		"\n"
		"--format trace writes what the layer stack makes of the recording as the\n"
		"Trace Event Format (JSON) that Perfetto's UI (ui.perfetto.dev) and\n"
		"chrome://tracing open: a process per device and layer (HID, kernel, XI,\n"
		"libinput, Wayland), a slice per touch with its facts, x/y/pressure\n"
		"counters per slot, an instant per marker and diagnostic, and a flow along\n"
		"each link (HID contact to kernel touch to XI, libinput, Wayland touch).\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   write to FILE instead of stdout; a name ending in\n"
		"                      .gz is written compressed with gzip\n"
		"  -F, --format FORMAT timeline (default), evemu, libinput, hid-recorder\n"
		"                      or trace\n"
		"      --desc FILE     device description for an evemu events-only file\n"
		"                      (the .desc/.prop beside a .events file)\n"
		"  -d, --device ID     convert only the device with this record id\n"
		"                      (evemu holds one device; default: the first)\n"
		"      --from TIME     leave out frames, XI events and markers before TIME\n"
		"                      (what is down at TIME stays down)\n"
		"      --to TIME       ... and after TIME (times as 'touchtape print' shows)\n"
		"      --redact        leave out what may identify a person or machine\n"
		"                      (what 'touchtape validate --privacy' lists): keys\n"
		"                      masked as record masks them, serials, DMI strings\n"
		"                      and node paths removed, addresses as xx:xx:...\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 on success, 1 when the input had errors (the output holds\n"
		"what could be read), 2 on bad usage, an input that cannot be read or an\n"
		"output that cannot be written.\n"
		"\n"
		"Examples:\n"
		"  touchtape convert bug.evemu -o bug.jsonl\n"
		"  touchtape convert --desc 'PS2 Mouse.desc' 'PS2 Mouse.events' -o mouse.jsonl\n"
		"  touchtape convert recording.yml -o recording.jsonl\n"
		"  touchtape convert --format evemu --device 1 session.jsonl -o touchpad.evemu\n"
		"  touchtape convert --format libinput session.jsonl -o session.yml\n"
		"  touchtape convert touchpad.hid -o touchpad.jsonl\n"
		"  touchtape convert --format hid-recorder touchpad.jsonl -o touchpad-again.hid\n"
		"  touchtape convert --from 2s --to 5s session.jsonl -o excerpt.jsonl\n"
		"  touchtape convert bug.evemu -o bug.jsonl.gz\n"
		"  touchtape convert --redact bug.jsonl -o bug-shared.jsonl\n"
		"  touchtape convert --format trace session.jsonl -o session.json.gz\n");
}

enum target {
	TO_TIMELINE,
	TO_EVEMU,
	TO_LIBINPUT,
	TO_HID_RECORDER,
	TO_TRACE,	/* not an export: convert-trace.c */
};

static const struct {
	enum target to;
	enum tt_file_format format;
	const char *name;
} targets[] = {
	{ TO_EVEMU, TT_FORMAT_EVEMU, "evemu" },
	{ TO_LIBINPUT, TT_FORMAT_LIBINPUT, "libinput-record" },
	{ TO_HID_RECORDER, TT_FORMAT_HID_RECORDER, "hid-recorder" },
};

static size_t
target_index(enum target to)
{
	size_t i = 0;

	while (i + 1 < ARRAY_LENGTH(targets) && targets[i].to != to)
		i++;
	return i;
}

struct convert_opts {
	const char *in;
	const char *out;
	enum target to;
	bool redact;		/* --redact */
	struct tt_read_options ro;
};

enum {
	OPT_REDACT = TT_OPT_FIRST_PRIVATE,
};

/* The reader's messages are "FILE:LINE: ...": prefixed with the command
 * like every other. */
static void
on_warn(void *userdata, const char *message)
{
	(void)userdata;
	tt_error("%s", message);
}

/* The evdev layer a HID-only format leaves out, and the reverse. */
static void
report_layer_losses(const char *fmt, const struct tt_export_stats *s)
{
	if (s->devices_skipped || s->frames_skipped)
		tt_warning("%s has no evdev layer: %zu evdev device%s and %zu frame%s were not written", fmt,
			   s->devices_skipped, s->devices_skipped == 1 ? "" : "s", s->frames_skipped,
			   s->frames_skipped == 1 ? "" : "s");
	if (s->hid_devices || s->hid_reports)
		tt_warning("%s has no HID layer: %zu HID device%s and %zu HID report%s were not written", fmt,
			   s->hid_devices, s->hid_devices == 1 ? "" : "s", s->hid_reports,
			   s->hid_reports == 1 ? "" : "s");
}

/* What surrounds the devices: evemu holds none of it, libinput-record
 * the udev properties libinput record stores and the quirks. */
static void
report_surroundings(const struct convert_opts *o, const struct tt_export_stats *s)
{
	const char *fmt = targets[target_index(o->to)].name;

	if (s->surroundings && o->to == TO_LIBINPUT)
		tt_warning("%s keeps only the udev properties libinput record stores (ID_INPUT*, LIBINPUT*, "
			   "EVDEV_ABS*, MOUSE_DPI, POINTINGSTICK_*) and the quirks: the sysfs path, driver and "
			   "other udev properties of %zu device%s were not written", fmt, s->surroundings,
			   s->surroundings == 1 ? "" : "s");
	else if (s->surroundings)
		tt_warning("%s holds no surroundings: the udev properties, hwdb overrides, quirks, sysfs path "
			   "and driver of %zu device%s were not written", fmt, s->surroundings,
			   s->surroundings == 1 ? "" : "s");
	if (s->system)
		tt_warning("%s has no system section: the DMI modalias, os-release and library versions "
			   "were not written", fmt);
}

static void
report_losses(const struct convert_opts *o, const struct tt_export_stats *s)
{
	const char *fmt = targets[target_index(o->to)].name;

	if (s->devices_skipped && o->to == TO_EVEMU)
		tt_warning("%s holds one device: %zu other device%s and their %zu frame%s were not written "
			   "(pick one with --device ID)", fmt, s->devices_skipped,
			   s->devices_skipped == 1 ? "" : "s", s->frames_skipped, s->frames_skipped == 1 ? "" : "s");
	else
		report_layer_losses(fmt, s);
	if (s->xi_devices || s->xi_events)
		tt_warning("%s has no XInput records: %zu XI device%s and %zu XI event%s were not written", fmt,
			   s->xi_devices, s->xi_devices == 1 ? "" : "s", s->xi_events, s->xi_events == 1 ? "" : "s");
	if (s->li_records)
		tt_warning("%s: libinput's own events are not written: %zu libinput record%s left out", fmt,
			   s->li_records, s->li_records == 1 ? "" : "s");
	report_surroundings(o, s);
	if (s->markers && o->to != TO_HID_RECORDER)
		tt_warning("%s has no markers: %zu marker%s written as comments only", fmt, s->markers,
			   s->markers == 1 ? "" : "s");
	else if (s->markers)
		tt_warning("%s has no markers: %zu marker%s were not written", fmt, s->markers,
			   s->markers == 1 ? "" : "s");
	if (s->frame_flags)
		tt_warning("%s cannot flag frames: %zu frame%s lost their dropped/resync/incomplete flag", fmt,
			   s->frame_flags, s->frame_flags == 1 ? "" : "s");
	if (s->times_clamped)
		tt_warning("%zu event time%s before the start were written as 0", s->times_clamped,
			   s->times_clamped == 1 ? "" : "s");
}

/* Nothing of the layer the format holds: an error, and no output. */
static bool
layer_missing(const struct convert_opts *o, const struct tt_export_stats *s)
{
	if (s->devices_written)
		return false;
	if (o->to == TO_HID_RECORDER)
		tt_error("%s has no HID layer (no hid_device record) to write as hid-recorder; "
			 "record with touchtape record --hid", o->in);
	else if (s->hid_devices)
		tt_error("%s holds only the HID layer (%zu HID device%s, %zu report%s), no evdev layer to write as %s; "
			 "convert it to a timeline or to hid-recorder", o->in, s->hid_devices,
			 s->hid_devices == 1 ? "" : "s", s->hid_reports, s->hid_reports == 1 ? "" : "s",
			 targets[target_index(o->to)].name);
	else
		tt_error("%s has no device to write as %s", o->in, targets[target_index(o->to)].name);
	return true;
}

/* The timeline writer or an exporter, behind one call. */
struct sink {
	struct tt_writer *w;
	struct tt_export *e;
	struct tt_gz_out *gz;	/* -o NAME.gz: the writers write into it */
	bool input_stopped;	/* a read error ended the input early */
	size_t written;		/* records after the header */
	/* --from: the devices, held back until the cut and written with
	 * the state the frames before it leave (slots, keys down). */
	struct tt_device_state cut[TT_MAX_DEVICES];
	const struct tt_device *cut_dev[TT_MAX_DEVICES];	/* the reader's */
	size_t ncut;
	bool cut_done;
	struct tt_spool *hold;	/* standard output, until the input is known good */
};

static int
sink_open(const struct convert_opts *o, int fd, struct sink *k)
{
	int rc;

	if (tt_gz_path(o->out)) {
		rc = tt_gz_out_new(fd, &k->gz);
		if (rc < 0)
			return rc;
		fd = tt_gz_out_fd(k->gz);
	}

	if (o->to == TO_TIMELINE)
		return tt_writer_new(fd, &k->w);
	rc = tt_export_new(targets[target_index(o->to)].format, fd, &k->e);
	if (rc == 0 && o->ro.ndevices)
		tt_export_set_device(k->e, o->ro.devices[0]);
	return rc;
}

static void
sink_close(struct sink *k)
{
	for (size_t i = 0; i < k->ncut; i++)
		tt_device_state_release(&k->cut[i]);
	tt_writer_free(k->w);
	tt_export_free(k->e);
	tt_gz_out_free(k->gz);
}

static int
sink_write(struct sink *k, const struct tt_record *rec)
{
	return k->w ? tt_writer_record(k->w, rec) : tt_export_record(k->e, rec);
}

/* evemu and libinput-record hold no device state: a frame at the cut
 * puts down what is down. */
static int
write_state_frame(struct sink *k, size_t i, int64_t from_us)
{
	struct tt_frame f;
	struct tt_record rec = { .type = TT_RECORD_FRAME, .frame = &f };
	int rc;

	if (!k->e || !tt_device_state_frame(&k->cut[i], k->cut_dev[i], from_us, &f))
		return 0;
	rc = sink_write(k, &rec);
	free(f.events);
	return rc;
}

/* The devices held back, with their state at the cut. */
static int
write_cut(struct sink *k, int64_t from_us)
{
	int rc;

	k->cut_done = true;
	for (size_t i = 0; i < k->ncut; i++) {
		struct tt_device dev;
		struct tt_record rec = { .type = TT_RECORD_DEVICE, .device = &dev };

		tt_device_state_device(&k->cut[i], k->cut_dev[i], &dev);
		if ((rc = sink_write(k, &rec)) < 0)
			return rc;
	}
	for (size_t i = 0; i < k->ncut; i++) {
		if ((rc = write_state_frame(k, i, from_us)) < 0)
			return rc;
	}
	return 0;
}

/* Before the cut (--from): holds the devices and follows their frames.
 * 1 when @rec is taken so, 0 when it goes on to be written, or a
 * negative errno. */
static int
before_cut(const struct convert_opts *o, struct tt_reader *r, const struct tt_record *rec, struct sink *k)
{
	int64_t t;

	if (!o->ro.have_from || k->cut_done)
		return 0;
	if (tt_record_time(rec, &t) && t >= o->ro.from_us)
		return write_cut(k, o->ro.from_us);
	if (rec->type == TT_RECORD_DEVICE) {
		const struct tt_device *dev = tt_reader_device(r, rec->device->id);
		if (!dev || !tt_read_options_has_device(&o->ro, dev->id) || k->ncut == TT_MAX_DEVICES)
			return 0;
		k->cut_dev[k->ncut] = dev;
		tt_device_state_from_device(&k->cut[k->ncut++], dev);
		return 1;
	}
	if (rec->type != TT_RECORD_FRAME)
		return 0;
	for (size_t i = 0; i < k->ncut; i++) {
		if (k->cut_dev[i]->id == rec->frame->device)
			tt_device_state_apply_frame(&k->cut[i], rec->frame);
	}
	return 0;
}

/* Copies every record the reading options keep. A negative errno for a
 * write error, else the number of lines that could not be read. */
/* The timeline writer writes on the held descriptor itself, so its
 * output can go out as soon as the input suits the options and more than
 * its header could be read; an exporter's stream is held to the end. */
static void
sink_note(struct convert_opts *o, struct tt_reader *r, const struct tt_record *rec, struct sink *k)
{
	if (rec->type != TT_RECORD_HEADER)
		k->written++;
	bool ready = tt_read_options_note(&o->ro, r, rec);

	if (ready && k->written && k->hold && k->w) {
		(void)tt_spool_release(k->hold);	/* a write error shows at the next write */
		k->hold = NULL;
	}
}

static int
copy_records(struct convert_opts *o, struct tt_reader *r, struct sink *k)
{
	_cleanup_(tt_privacy_freep) struct tt_privacy *priv = o->redact ? tt_privacy_new() : NULL;
	struct tt_record rec;
	int rc, bad = 0;

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			tt_error("%s", tt_reader_error(r));
			bad++;
			if (rc == -EIO) {
				k->input_stopped = true;
				break;
			}
			continue;
		}
		if ((rc = before_cut(o, r, &rec, k)) < 0)
			return rc;
		if (rc == 1 || !tt_read_options_keep(&o->ro, &rec))
			continue;
		/* The timeline keeps every device unless asked. */
		if (k->w && rec.type == TT_RECORD_DEVICE && !tt_read_options_has_device(&o->ro, rec.device->id))
			continue;
		if (priv && !tt_privacy_redact(priv, &rec, &rec))
			continue;
		rc = sink_write(k, &rec);
		if (rc < 0)
			return rc;
		sink_note(o, r, &rec, k);
	}
	if (k->e && (rc = tt_export_finish(k->e)) < 0)
		return rc;
	if (k->gz && (rc = tt_gz_out_finish(k->gz)) < 0)
		return rc;
	return bad;
}

/* Whether what was read may be written: the options suit the input and
 * something besides the header could be read. */
static bool
input_good(const struct convert_opts *o, struct tt_reader *r, const struct sink *k, int copied)
{
	if (k->input_stopped)
		return false;
	if (tt_read_options_finish(&o->ro, r) < 0 || tt_read_options_check_reached(&o->ro, o->in) != 0)
		return false;
	if (copied > 0 && !k->written) {
		tt_error("%s: nothing could be read; no output written", o->in);
		return false;
	}
	return true;
}

/* Standard output is held until the input is known good (cli/spool.h),
 * a file is renamed into place only then (cli/output.h). */
static int
finish_output(struct tt_output *out, struct sink *k, bool good)
{
	int rc = 0;

	if (k->hold && good)
		rc = tt_spool_release(k->hold);
	else if (k->hold)
		tt_spool_discard(k->hold);
	k->hold = NULL;
	if (rc < 0) {
		tt_error("%s: %s", tt_output_name(out), strerror(-rc));
		return rc;
	}
	return good ? tt_output_commit(out) : -EINVAL;
}

static int
convert(struct convert_opts *o)
{
	const char *inputs[] = { o->in, o->ro.desc, NULL };
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_output_freep) struct tt_output *out = NULL;
	struct tt_spool hold;
	struct sink k = { 0 };
	int rc;

	if (tt_open_recording_opts(o->in, &o->ro, &r) < 0)
		return TT_EXIT_TROUBLE;
	tt_reader_set_warn(r, on_warn, NULL);
	if (tt_output_open(o->out, inputs, &out) < 0)
		return TT_EXIT_TROUBLE;
	if (!o->out || strcmp(o->out, "-") == 0) {
		tt_spool_hold(&hold, tt_output_fd(out));
		k.hold = &hold;
	}
	rc = sink_open(o, tt_output_fd(out), &k);
	if (rc < 0) {
		finish_output(out, &k, false);
		tt_error("cannot start the output: %s", strerror(-rc));
		return TT_EXIT_TROUBLE;
	}
	rc = copy_records(o, r, &k);
	if (rc < 0)
		tt_error("%s: %s", tt_output_name(out), strerror(-rc));
	bool good = rc >= 0 && input_good(o, r, &k, rc) && !(k.e && layer_missing(o, tt_export_stats(k.e)));
	if (good && k.e)
		report_losses(o, tt_export_stats(k.e));
	sink_close(&k);
	if (finish_output(out, &k, good) < 0)
		return TT_EXIT_TROUBLE;
	if (rc > 0 || tt_reader_nerrors(r)) {
		tt_error("%s: %zu error%s in the input; the output holds what could be read", o->in,
			 tt_reader_nerrors(r), tt_reader_nerrors(r) == 1 ? "" : "s");
		return TT_EXIT_FAILURE;
	}
	return TT_EXIT_OK;
}

static int
parse_format(const char *arg, enum target *to)
{
	if (strcmp(arg, "timeline") == 0 || strcmp(arg, "jsonl") == 0)
		*to = TO_TIMELINE;
	else if (strcmp(arg, "evemu") == 0)
		*to = TO_EVEMU;
	else if (strcmp(arg, "libinput") == 0 || strcmp(arg, "libinput-record") == 0)
		*to = TO_LIBINPUT;
	else if (strcmp(arg, "hid-recorder") == 0 || strcmp(arg, "hid") == 0)
		*to = TO_HID_RECORDER;
	else if (strcmp(arg, "trace") == 0)
		*to = TO_TRACE;
	else
		return -EINVAL;
	return 0;
}

/* -F once: a second, different format would leave one of the two
 * unwritten. -1 when taken, else the usage error's status. */
static int
take_format(const char *arg, enum target *to, int *n)
{
	enum target t;

	if (parse_format(arg, &t) < 0)
		return tt_usage_error("convert", "--format takes timeline, evemu, libinput, hid-recorder or trace, not '%s'",
				      arg);
	if ((*n)++ && t != *to)
		return tt_usage_error("convert", "--format: one output format at a time (convert once per format)");
	*to = t;
	return -1;
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_convert_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'F' },
	{ "redact", no_argument, NULL, OPT_REDACT },
	TT_READ_LONG_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_convert_short_options[] = "o:F:h" TT_READ_SHORT_OPTIONS;

int
tt_cmd_convert(int argc, char **argv)
{
	struct convert_opts o = { .to = TO_TIMELINE };
	enum target to;
	int nformats = 0;
	int opt, rc = -1;

	tt_read_options_init(&o.ro, "convert", TT_READ_ALL);
	optind = 1;
	while (rc < 0 && (opt = getopt_long(argc, argv, tt_convert_short_options, tt_convert_options, NULL)) != -1) {
		/* Before --format, --to named the format: a format name
		 * is no time, so the old spelling still works. */
		if (opt == TT_OPT_TO && parse_format(optarg, &to) == 0)
			opt = 'F';
		int taken = opt == 'F' ? 0 : tt_read_option(&o.ro, opt, optarg);
		if (taken) {
			rc = taken == 1 ? -1 : taken;
			continue;
		}
		switch (opt) {
		case 'o': o.out = optarg; break;
		case OPT_REDACT: o.redact = true; break;
		case 'F': rc = take_format(optarg, &o.to, &nformats); break;
		case 'h': usage(stdout); rc = TT_EXIT_OK; break;
		default: rc = tt_usage_error("convert", "unknown option"); break;
		}
	}
	if (rc < 0 && optind >= argc)
		rc = tt_usage_error("convert", "no input file given");
	else if (rc < 0 && optind + 1 < argc)
		rc = tt_usage_error("convert", "one input file at a time ('%s' is extra)", argv[optind + 1]);
	if (rc < 0 && o.redact && o.to == TO_TRACE)
		rc = tt_usage_error("convert", "--redact: a trace holds no keys, serials, node paths or addresses");
	if (rc < 0 && (rc = tt_read_options_check(&o.ro)) == 0) {
		o.in = argv[optind];
		rc = o.to == TO_TRACE ? convert_trace(o.in, o.out, &o.ro) : convert(&o);
	}
	tt_read_options_clear(&o.ro);
	return rc;
}
