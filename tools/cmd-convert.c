/* SPDX-License-Identifier: MIT */
/* touchtape convert: between the timeline, evemu and libinput-record. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "export.h"
#include "gzip-out.h"
#include "log.h"
#include "reader.h"
#include "util-strings.h"
#include "writer.h"


static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape convert [OPTIONS] IN\n"
		"\n"
		"Converts a recording between the touchtape timeline, evemu and\n"
		"libinput-record formats. The input format is detected from the content\n"
		"(a touchtape timeline, any evemu version, libinput record YAML, each\n"
		"possibly gzip-compressed); the output is a timeline unless --to says\n"
		"otherwise. What the output format\n"
		"cannot hold (XInput events, markers, more than one device in evemu) is\n"
		"listed on stderr, never dropped silently.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   write to FILE instead of stdout; a name ending in\n"
		"                      .gz is written compressed with gzip\n"
		"  -t, --to FORMAT     timeline (default), evemu or libinput\n"
		"      --desc FILE     device description for an evemu events-only file\n"
		"                      (the .desc/.prop beside a .events file)\n"
		"  -d, --device ID     convert only the device with this record id\n"
		"                      (evemu holds one device; default: the first)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 on success, 1 when the input had errors or the output\n"
		"could not be written, 2 on bad usage.\n"
		"\n"
		"Examples:\n"
		"  touchtape convert bug.evemu -o bug.jsonl\n"
		"  touchtape convert --desc 'PS2 Mouse.desc' 'PS2 Mouse.events' -o mouse.jsonl\n"
		"  touchtape convert recording.yml -o recording.jsonl\n"
		"  touchtape convert --to evemu --device 1 session.jsonl -o touchpad.evemu\n"
		"  touchtape convert --to libinput session.jsonl -o session.yml\n"
		"  touchtape convert bug.evemu -o bug.jsonl.gz\n");
}

enum target {
	TO_TIMELINE,
	TO_EVEMU,
	TO_LIBINPUT,
};

struct convert_opts {
	const char *in;
	const char *out;
	const char *desc;
	enum target to;
	bool have_device;
	uint32_t device;
};

static void
on_warn(void *userdata, const char *message)
{
	(void)userdata;
	fprintf(stderr, "%s\n", message);
}

static void
report_losses(const struct convert_opts *o, const struct tt_export_stats *s)
{
	const char *fmt = o->to == TO_EVEMU ? "evemu" : "libinput-record";

	if (s->devices_skipped)
		tt_warning("%s holds one device: %zu other device%s and their %zu frame%s were not written "
			   "(pick one with --device ID)", fmt, s->devices_skipped,
			   s->devices_skipped == 1 ? "" : "s", s->frames_skipped, s->frames_skipped == 1 ? "" : "s");
	if (s->xi_devices || s->xi_events)
		tt_warning("%s has no XInput records: %zu XI device%s and %zu XI event%s were not written", fmt,
			   s->xi_devices, s->xi_devices == 1 ? "" : "s", s->xi_events, s->xi_events == 1 ? "" : "s");
	if (s->markers)
		tt_warning("%s has no markers: %zu marker%s written as comments only", fmt, s->markers,
			   s->markers == 1 ? "" : "s");
	if (s->frame_flags)
		tt_warning("%s cannot flag frames: %zu frame%s lost their dropped/resync/incomplete flag", fmt,
			   s->frame_flags, s->frame_flags == 1 ? "" : "s");
	if (s->times_clamped)
		tt_warning("%zu event time%s before the start were written as 0", s->times_clamped,
			   s->times_clamped == 1 ? "" : "s");
	if (!s->devices_written)
		tt_warning("no device was written%s", o->have_device ? " (is the --device id right?)" : "");
}

static int
open_output(const char *path)
{
	int fd;

	if (!path || strcmp(path, "-") == 0)
		return dup(STDOUT_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return fd;
}

static int
convert(const struct convert_opts *o)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_writer_freep) struct tt_writer *w = NULL;
	_cleanup_(tt_export_freep) struct tt_export *e = NULL;
	_cleanup_(tt_gz_out_freep) struct tt_gz_out *gz = NULL;
	_cleanup_close_ int fd = -1;
	int out_fd;
	struct tt_record rec;
	bool failed = false;
	bool device_seen = false;
	int rc;

	rc = tt_open_recording(o->in, &r);
	if (rc < 0)
		return TT_EXIT_FAILURE;
	tt_reader_set_warn(r, on_warn, NULL);
	if (o->desc) {
		if (tt_reader_format(r) != TT_FORMAT_EVEMU) {
			tt_error("%s: --desc is for evemu events-only files, and this is a %s file", o->in,
				 tt_file_format_name(tt_reader_format(r)));
			return TT_EXIT_FAILURE;
		}
		tt_reader_set_companion(r, o->desc);
	}

	fd = open_output(o->out);
	if (fd < 0) {
		tt_error("%s: %s", o->out ? o->out : "<stdout>", strerror(errno));
		return TT_EXIT_FAILURE;
	}
	out_fd = fd;
	if (tt_gz_path(o->out)) {
		rc = tt_gz_out_new(fd, &gz);
		if (rc < 0) {
			tt_error("%s: cannot start the compression: %s", o->out, strerror(-rc));
			return TT_EXIT_FAILURE;
		}
		out_fd = tt_gz_out_fd(gz);
	}
	if (o->to == TO_TIMELINE)
		rc = tt_writer_new(out_fd, &w);
	else
		rc = tt_export_new(o->to == TO_EVEMU ? TT_FORMAT_EVEMU : TT_FORMAT_LIBINPUT, out_fd, &e);
	if (rc < 0) {
		tt_error("cannot start the output: %s", strerror(-rc));
		return TT_EXIT_FAILURE;
	}
	if (e && o->have_device)
		tt_export_set_device(e, o->device);

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			fprintf(stderr, "%s\n", tt_reader_error(r));
			failed = true;
			if (rc == -EIO)
				break;
			continue;
		}
		if (o->have_device && w) {
			/* The timeline keeps every device unless asked. */
			if (rec.type == TT_RECORD_DEVICE && rec.device->id != o->device)
				continue;
			if (rec.type == TT_RECORD_FRAME && rec.frame->device != o->device)
				continue;
		}
		if (rec.type == TT_RECORD_DEVICE && (!o->have_device || rec.device->id == o->device))
			device_seen = true;
		rc = w ? tt_writer_record(w, &rec) : tt_export_record(e, &rec);
		if (rc < 0) {
			tt_error("%s: %s", o->out ? o->out : "<stdout>", strerror(-rc));
			return TT_EXIT_FAILURE;
		}
	}
	if (e) {
		rc = tt_export_finish(e);
		if (rc < 0) {
			tt_error("%s: %s", o->out ? o->out : "<stdout>", strerror(-rc));
			return TT_EXIT_FAILURE;
		}
		report_losses(o, tt_export_stats(e));
	} else if (o->have_device && !device_seen) {
		tt_warning("%s has no device with id %" PRIu32, o->in, o->device);
	}
	if (gz && (rc = tt_gz_out_finish(gz)) < 0) {
		tt_error("%s: %s", o->out, strerror(-rc));
		return TT_EXIT_FAILURE;
	}
	if (failed || tt_reader_nerrors(r)) {
		tt_error("%s: %zu error%s in the input; the output holds what could be read", o->in,
			 tt_reader_nerrors(r), tt_reader_nerrors(r) == 1 ? "" : "s");
		return TT_EXIT_FAILURE;
	}
	return TT_EXIT_OK;
}

int
tt_cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "to", required_argument, NULL, 't' },
		{ "desc", required_argument, NULL, 'D' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct convert_opts o = { .to = TO_TIMELINE };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:t:d:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': o.out = optarg; break;
		case 'D': o.desc = optarg; break;
		case 't':
			if (strcmp(optarg, "timeline") == 0 || strcmp(optarg, "jsonl") == 0)
				o.to = TO_TIMELINE;
			else if (strcmp(optarg, "evemu") == 0)
				o.to = TO_EVEMU;
			else if (strcmp(optarg, "libinput") == 0 || strcmp(optarg, "libinput-record") == 0)
				o.to = TO_LIBINPUT;
			else
				return tt_usage_error("convert", "--to takes timeline, evemu or libinput, not '%s'", optarg);
			break;
		case 'd': {
			int64_t v;
			if (tt_parse_int64(optarg, &v) < 0 || v < 0 || v > UINT32_MAX)
				return tt_usage_error("convert", "--device takes a device record id, not '%s'", optarg);
			o.have_device = true;
			o.device = (uint32_t)v;
			break;
		}
		case 'h': usage(stdout); return TT_EXIT_OK;
		default: return tt_usage_error("convert", "unknown option");
		}
	}
	if (optind >= argc)
		return tt_usage_error("convert", "no input file given");
	if (optind + 1 < argc)
		return tt_usage_error("convert", "one input file at a time ('%s' is extra)", argv[optind + 1]);
	o.in = argv[optind];
	return convert(&o);
}
