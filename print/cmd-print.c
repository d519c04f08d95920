/* SPDX-License-Identifier: MIT */
/*
 * touchtape print: a recording as text, one line per event like evtest,
 * with names, the slot each MT value belongs to and its change since that
 * slot's previous value, and the gap since the device's previous frame.
 * XI events are printed the way xinput test-xi2 does, flags spelled out.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "evnames.h"
#include "log.h"
#include "print-hid.h"
#include "print-private.h"
#include "print-wl-link.h"
#include "surroundings-print.h"
#include "read-options.h"
#include "run-command.h"
#include "reader.h"
#include "spool.h"
#include "util-plural.h"
#include "util-strings.h"

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape print [OPTIONS] [FILE|-|DEVICE]\n"
		"\n"
		"Shows a recording as text: device descriptions, then every kernel event\n"
		"with its name, the slot it belongs to and its change since that slot's last\n"
		"value, the gap between frames, XI 2.2 events with their flags, HID reports\n"
		"as bytes and the fields their descriptor decodes (the hex cut after 24\n"
		"bytes), and markers. Reads timelines, evemu, libinput-record and\n"
		"hid-recorder files.\n"
		"Reads standard input when FILE is -, or absent and standard input is not\n"
		"a terminal: touchtape record -o - /dev/input/event5 | touchtape print\n"
		"\n"
		"Live, like evtest: with a DEVICE (/dev/input/eventN), or with no argument\n"
		"on a terminal (then the devices are listed and you pick, as in record),\n"
		"the device's events are shown as they come: touchtape record runs and its\n"
		"recording is printed the same way as a file. With --xi the X server's\n"
		"touch, raw touch and ownership events are shown too, like xinput test-xi2\n"
		"--root; --xi without DEVICE shows the X side only. With --hid the HID layer\n"
		"below the device too: its HID device and every report it sent, decoded.\n"
		"Ctrl-C ends it (exit 0);\n"
		"so does the device going away. Reading devices needs root or the group\n"
		"'input'.\n"
		"\n"
		"Options:\n"
		"  -d, --device ID     only this device's frames and its HID device's reports\n"
		"                      (the file's device id; hidN: only HID device N's\n"
		"                      reports; repeatable)\n"
		"      --from TIME     leave out frames, XI events, HID reports and markers\n"
		"                      before TIME\n"
		"      --to TIME       ... and after TIME (1.5, 250ms, 2s: the times shown)\n"
		"      --desc FILE     device description for an evemu events-only file\n"
		"      --no-deltas     do not show per-slot changes\n"
		"      --xi[=DISPLAY]  live: also the X server's XI 2.2 events (DISPLAY\n"
		"                      defaults to $DISPLAY)\n"
		"      --hid           live: also the device's HID reports (record --hid)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when the file was read whole, 1 when lines of it had\n"
		"errors, 2 on bad usage or a file that cannot be read.\n"
		"\n"
		"Examples:\n"
		"  touchtape print bug-1234.jsonl | less\n"
		"  touchtape print /dev/input/event5          # live, like evtest\n"
		"  touchtape print --xi /dev/input/event5     # and what X made of it\n"
		"  touchtape print --hid /dev/input/event5    # and the HID reports it came of\n"
		"  touchtape print --xi=:1                    # X only, like xinput test-xi2\n");
}

static struct print_dev *
find_dev(struct printer *p, uint32_t id)
{
	for (size_t i = 0; i < p->ndevs; i++) {
		if (p->devs[i].id == id)
			return &p->devs[i];
	}
	return NULL;
}

static void
print_header(struct printer *p, const struct tt_record *rec)
{
	const struct tt_header *h = rec->header;
	char tb[32];

	fprintf(p->out, "# touchtape timeline version %d, written by %s\n", h->version,
		h->tool ? h->tool : "?");
	if (h->source_format)
		fprintf(p->out, "# converted from %s\n", h->source_format);
	if (h->kernel)
		fprintf(p->out, "# kernel %s\n", h->kernel);
	if (h->x_vendor)
		fprintf(p->out, "# X server: %s, release %d\n", h->x_vendor, h->x_release);
	/* hid-recorder and libinput-record files hold no start instant: 0
	 * there is no 1970. */
	if (h->start_realtime_us)
		fprintf(p->out, "# started at %s (CLOCK_REALTIME, seconds since the epoch)\n",
			tt_format_time(tb, sizeof(tb), h->start_realtime_us));
	else
		fprintf(p->out, "# start time unknown\n");
	if (h->keycodes_masked)
		fprintf(p->out, "# keyboard key codes were masked for privacy\n");
	tt_sur_system_text(h, "# ", p->out);
}

static void
print_device(struct printer *p, const struct tt_record *rec)
{
	const struct tt_device *d = rec->device;
	char tb[16], cb[16];
	struct print_dev *pd;

	fprintf(p->out, "# device %u: \"%s\"%s%s\n", d->id, d->name ? d->name : "",
		d->node ? " at " : "", d->node ? d->node : "");
	fprintf(p->out, "#   input id: bus 0x%04x vendor 0x%04x product 0x%04x version 0x%04x\n",
		d->bustype, d->vendor, d->product, d->version);
	if (d->mt_protocol == TT_MT_B)
		fprintf(p->out, "#   multi-touch: protocol B, %u slot%s\n", d->num_slots,
			tt_plural_s(d->num_slots));
	else if (d->mt_protocol == TT_MT_A)
		fprintf(p->out, "#   multi-touch: protocol A\n");
	for (unsigned int prop = 0; prop < INPUT_PROP_CNT; prop++) {
		if (bit_is_set(d->props, prop)) {
			const char *n = tt_prop_name(prop);
			if (n)
				fprintf(p->out, "#   property %s\n", n);
			else
				fprintf(p->out, "#   property %u\n", prop);
		}
	}
	for (unsigned int t = 1; t < EV_CNT; t++) {
		int max = tt_code_max(t);
		if (!bit_is_set(d->types, t) || max < 0)
			continue;
		fprintf(p->out, "#   %s:", tt_type_label(tb, sizeof(tb), t));
		for (unsigned int c = 0; c <= (unsigned int)max; c++) {
			if (!bit_is_set(d->codes[t], c) || t == EV_ABS)
				continue;
			fprintf(p->out, " %s", tt_code_label(cb, sizeof(cb), t, c));
		}
		fputc('\n', p->out);
		if (t != EV_ABS)
			continue;
		for (unsigned int c = 0; c < ABS_CNT; c++) {
			const struct tt_absinfo *a = &d->abs[c];
			if (!tt_device_has(d, EV_ABS, c))
				continue;
			fprintf(p->out, "#     %-22s min %6d max %6d fuzz %d flat %d res %d value %d\n",
				tt_code_label(cb, sizeof(cb), EV_ABS, c), a->minimum, a->maximum,
				a->fuzz, a->flat, a->resolution, a->value);
		}
	}
	tt_sur_device_text(d, "#   ", true, p->out);
	for (uint32_t s = 0; s < d->num_slots; s++) {
		int32_t tid = d->slots[s].values[ABS_MT_TRACKING_ID - TT_MT_FIRST];
		if (tid != -1)
			fprintf(p->out, "#   at start: slot %u has tracking ID %d at %d/%d\n", s, tid,
				d->slots[s].values[ABS_MT_POSITION_X - TT_MT_FIRST],
				d->slots[s].values[ABS_MT_POSITION_Y - TT_MT_FIRST]);
	}

	pd = find_dev(p, d->id);
	if (!pd) {
		if (p->ndevs >= TT_MAX_DEVICES)
			return;
		pd = &p->devs[p->ndevs++];
	}
	free(pd->slots);
	memset(pd, 0, sizeof(*pd));
	pd->id = d->id;
	pd->slot = d->current_slot;
	pd->num_slots = d->num_slots;
	if (d->num_slots) {
		pd->slots = tt_reallocarray(NULL, d->num_slots, sizeof(*pd->slots));
		memset(pd->slots, 0, d->num_slots * sizeof(*pd->slots));
		for (uint32_t s = 0; s < d->num_slots; s++) {
			for (unsigned int i = 0; i < TT_MT_AXES; i++) {
				pd->slots[s].values[i] = d->slots[s].values[i];
				pd->slots[s].seen[i] = tt_device_has(d, EV_ABS, TT_MT_FIRST + i);
			}
		}
	}
}

/* The time since the device's previous frame; a frame earlier than
 * that one (a clock step, a hand-edited file) shows a minus sign. */
static void
print_gap(struct printer *p, int64_t gap_us)
{
	uint64_t mag = gap_us < 0 ? -(uint64_t)gap_us : (uint64_t)gap_us;

	fprintf(p->out, " %c%" PRIu64 ".%03" PRIu64 "ms", gap_us < 0 ? '-' : '+', mag / 1000, mag % 1000);
}

static void
print_frame(struct printer *p, const struct tt_record *rec)
{
	const struct tt_frame *f = rec->frame;
	struct print_dev *pd = find_dev(p, f->device);
	char ts[32], tb[16], cb[16];

	tt_format_time(ts, sizeof(ts), f->time_us);
	if (f->flags & TT_FRAME_DROPPED)
		fprintf(p->out, "%s dev%u  **** SYN_DROPPED: the kernel dropped events here ****\n", ts, f->device);
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct tt_event *e = &f->events[i];
		/* dt is written only when not 0: no dt is the frame's own time. */
		tt_format_time(ts, sizeof(ts), f->time_us + e->dt_us);
		if (e->type == EV_SYN) {
			const char *what = tt_code_label(cb, sizeof(cb), EV_SYN, e->code);
			fprintf(p->out, "%s dev%u  ------------ %s ------------", ts, f->device, what);
			if (e->code == SYN_REPORT && pd) {
				if (pd->have_last)
					print_gap(p, f->time_us - pd->last_frame);
				pd->last_frame = f->time_us;
				pd->have_last = true;
			}
			if (f->flags & TT_FRAME_RESYNC)
				fprintf(p->out, " (resync)");
			fputc('\n', p->out);
			continue;
		}
		fprintf(p->out, "%s dev%u  %-7s %-22s %7d", ts, f->device,
			tt_type_label(tb, sizeof(tb), e->type),
			tt_code_label(cb, sizeof(cb), e->type, e->code), e->value);
		if (pd && e->type == EV_ABS && e->code == ABS_MT_SLOT) {
			pd->slot = e->value;
		} else if (pd && e->type == EV_ABS && e->code >= TT_MT_FIRST && e->code <= TT_MT_LAST &&
			   pd->slot >= 0 && (uint32_t)pd->slot < pd->num_slots) {
			struct slot_values *sv = &pd->slots[pd->slot];
			unsigned int ax = e->code - TT_MT_FIRST;
			if (e->code == ABS_MT_TRACKING_ID) {
				fprintf(p->out, "   slot %d %s", pd->slot, e->value == -1 ? "released" : "begins");
				/* A new touch: its first values are positions, not
				 * changes from the previous touch's. */
				if (e->value != -1)
					memset(sv->seen, 0, sizeof(sv->seen));
			}
			else if (p->deltas && sv->values[ABS_MT_TRACKING_ID - TT_MT_FIRST] != -1 && sv->seen[ax])
				fprintf(p->out, "   slot %d %+d", pd->slot, e->value - sv->values[ax]);
			else
				fprintf(p->out, "   slot %d", pd->slot);
			sv->values[ax] = e->value;
			sv->seen[ax] = true;
		}
		fputc('\n', p->out);
	}
	if (f->flags & TT_FRAME_INCOMPLETE)
		fprintf(p->out, "%s dev%u  (frame ends without SYN_REPORT)\n", ts, f->device);
}

static void
print_marker(struct printer *p, const struct tt_record *rec)
{
	const struct tt_marker *m = rec->marker;
	char ts[32];

	fprintf(p->out, "%s ===== %s", tt_format_time(ts, sizeof(ts), m->time_us),
		m->kind_name ? m->kind_name : tt_marker_kind_name(m->kind));
	if (m->device >= 0)
		fprintf(p->out, " (device %" PRId64 ")", m->device);
	if (m->text)
		fprintf(p->out, ": %s", m->text);
	fputc('\n', p->out);
}

/* What print shows of each record type (print-private.h): a new layer
 * adds its lines. */
static void (*const print_kinds[TT_RECORD_TYPES])(struct printer *p, const struct tt_record *rec) = {
	[TT_RECORD_HEADER] = print_header,
	[TT_RECORD_MARKER] = print_marker,
	[TT_RECORD_DEVICE] = print_device,
	[TT_RECORD_FRAME] = print_frame,
	[TT_RECORD_XI_DEVICE] = print_xi_device,
	[TT_RECORD_XI_EVENT] = print_xi_event,
	[TT_RECORD_HID_DEVICE] = print_hid_device_record,
	[TT_RECORD_HID_REPORT] = print_hid_report_record,
	[TT_RECORD_LI_DEVICE] = print_li_device,
	[TT_RECORD_LI_EVENT] = print_li_event,
	[TT_RECORD_WL_EVENT] = print_wl_record,
};

static bool
is_live(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") != 0)
		return false;
	if (isatty(STDIN_FILENO))
		return true;
	return fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* A device to show live: the recorder says what is wrong with one it
 * cannot open (permissions, not evdev, gone). */
static bool
is_device_node(const char *path)
{
	struct stat st;

	if (strncmp(path, "/dev/input/", 11) == 0)
		return true;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

/* The input suits the reading options: what was held goes out, and the
 * rest straight after. */
static void
release_stdout(struct printer *p)
{
	fflush(p->out);
	(void)tt_spool_release(p->hold);	/* a write error shows at the final flush */
	p->hold = NULL;
}

/* Every record of @r printed; the status: 0, or 1 after unreadable lines. */
static int
print_records(struct printer *p, struct tt_reader *r, bool live)
{
	struct tt_record rec;
	int rc, status = TT_EXIT_OK;

	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			tt_error("%s", tt_reader_error(r));
			status = TT_EXIT_FAILURE;
			if (rc == -EIO) {	/* the rest cannot be read: trouble */
				status = TT_EXIT_TROUBLE;
				break;
			}
			continue;
		}
		if (p->ro && !tt_read_options_keep(p->ro, &rec))
			continue;
		print_wl_link_feed(p->wl, &rec);
		if ((unsigned int)rec.type < TT_RECORD_TYPES && print_kinds[rec.type])
			print_kinds[rec.type](p, &rec);
		if (p->hold && tt_read_options_note(p->ro, r, &rec))
			release_stdout(p);
		/* A live device never ends by itself: stop at a closed output
		 * (| head) instead of reading on. */
		if (live && ferror(p->out))
			break;
	}
	return status;
}

static int
print_file(struct printer *p, const char *path)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	struct tt_spool hold;
	int status;

	if (tt_open_recording_opts(path, p->ro, &r) < 0)
		return TT_EXIT_TROUBLE;
	/* With --device or --from, nothing is printed before the file is
	 * known to have the device and to reach the time. */
	if (p->ro->ndevices || p->ro->nhid_devices || p->ro->have_from) {
		fflush(p->out);
		tt_spool_hold(&hold, fileno(p->out));
		p->hold = &hold;
	}
	/* A live source (a pipe or a terminal on standard input, as in
	 * `touchtape record -o - | touchtape print`) is shown line by line;
	 * a file is printed with full buffering, one write per 4 KiB rather
	 * than per event. */
	if (is_live(path))
		setvbuf(p->out, NULL, _IOLBF, 0);
	status = print_records(p, r, false);
	if (tt_read_options_finish(p->ro, r) < 0 || tt_read_options_check_reached(p->ro, tt_reader_name(r)) != 0) {
		if (p->hold) {
			fflush(p->out);
			tt_spool_discard(p->hold);
		}
		return TT_EXIT_TROUBLE;
	}
	if (p->hold)
		release_stdout(p);
	return status;
}

/* ---- live: a recorder in a child process, its timeline through a pipe ---- */

static volatile sig_atomic_t live_child;
static volatile sig_atomic_t live_stopped;

/* Ctrl-C, SIGTERM, SIGHUP: the recorder ends its recording the way it
 * does for `record`, which ends the pipe and then this loop. */
static void
forward_signal(int sig)
{
	live_stopped = 1;
	if (live_child > 0)
		kill((pid_t)live_child, sig);
}

static void
forward_signals(void)
{
	struct sigaction sa = { .sa_handler = forward_signal, .sa_flags = SA_RESTART };
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_LENGTH(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* `touchtape record -o -` with @argv, in a child writing into a pipe:
 * the recorder's capture, device picker and XI clients as they are (it
 * ends its recording on Ctrl-C the way `record` does). On success *fd is
 * the pipe's read end. 0 or -errno. */
static int
start_recorder(const char *const *argv, int *fd, pid_t *pid)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	struct tt_run_io io = { .in = TT_RUN_KEEP, .out = fds[1] };
	int rc = tt_run_command(argv, &io, pid);

	close(fds[1]);
	if (rc < 0) {
		close(fds[0]);
		return rc;
	}
	*fd = fds[0];
	return 0;
}

/* The recorder's exit status; a recorder ended by a stop signal before
 * it could handle it (at the picker) ended as asked. */
static int
wait_recorder(pid_t pid)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR)
			return TT_EXIT_FAILURE;
	}
	live_child = 0;
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	return live_stopped ? TT_EXIT_OK : TT_EXIT_FAILURE;
}

/* @device: a node, or NULL for the picker (or, with --xi, the X side only). */
static int
print_live(struct printer *p, const char *device, const char *xi, bool hid)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_free_ char *why = NULL;
	char xi_arg[300];
	const char *args[10];
	size_t n = 0;
	int fd = -1;
	int status, rc;
	pid_t pid = 0;

	args[n++] = "touchtape";
	args[n++] = "record";
	args[n++] = "--quiet";
	args[n++] = "--output";
	args[n++] = "-";
	if (xi) {
		snprintf(xi_arg, sizeof(xi_arg), "--xi%s%s", *xi ? "=" : "", xi);
		args[n++] = xi_arg;
	}
	if (hid)
		args[n++] = "--hid";
	if (device)
		args[n++] = device;
	args[n] = NULL;

	forward_signals();
	rc = start_recorder(args, &fd, &pid);
	if (rc < 0) {
		tt_error("starting the recorder: %s", strerror(-rc));
		return TT_EXIT_FAILURE;
	}
	live_child = pid;
	setvbuf(p->out, NULL, _IOLBF, 0);
	rc = tt_reader_open_fd(fd, device ? device : "live input", &r, &why);
	status = rc < 0 ? TT_EXIT_FAILURE : print_records(p, r, true);
	/* Reading stopped early (a closed output): the recorder must too. */
	if (live_child > 0)
		kill(pid, SIGTERM);
	tt_reader_free(steal(&r));
	rc = wait_recorder(pid);
	return rc != TT_EXIT_OK ? rc : status;
}

enum { OPT_NO_DELTAS = TT_OPT_FIRST_PRIVATE, OPT_XI, OPT_HID };

/* The options (cli/commands.c lists them for every command). */
const struct option tt_print_options[] = {
	TT_READ_LONG_OPTIONS,
	{ "no-deltas", no_argument, NULL, OPT_NO_DELTAS },
	{ "xi", optional_argument, NULL, OPT_XI },
	{ "hid", no_argument, NULL, OPT_HID },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_print_short_options[] = "h" TT_READ_SHORT_OPTIONS;

int
tt_cmd_print(int argc, char **argv)
{
	_cleanup_(print_hid_freep) struct print_hid *hid = print_hid_new(stdout);
	_cleanup_(print_wl_link_freep) struct print_wl_link *wl = print_wl_link_new();
	struct printer p = { .out = stdout, .deltas = true, .hid = hid, .wl = wl };
	const char *path = NULL;
	const char *xi = NULL;
	bool live_hid = false;
	int opt, rc, status;
	_cleanup_(tt_read_options_clear) struct tt_read_options ro;

	tt_read_options_init(&ro, "print", TT_READ_ALL | TT_READ_DEVICES);
	p.ro = &ro;
	optind = 1;
	while ((opt = getopt_long(argc, argv, tt_print_short_options, tt_print_options, NULL)) != -1) {
		if ((rc = tt_read_option(&ro, opt, optarg)) != 0) {
			if (rc != 1)
				return rc;
			continue;
		}
		switch (opt) {
		case OPT_NO_DELTAS: p.deltas = false; break;
		case OPT_XI:
			xi = optarg ? optarg : "";
			if (strlen(xi) > 255)
				return tt_usage_error("print", "--xi: not a display name: '%.40s...'", xi);
			break;
		case OPT_HID: live_hid = true; break;
		case 'h': usage(stdout); return TT_EXIT_OK;
		default: return tt_usage_error("print", "unknown option");
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc)
		return tt_usage_error("print", "only one file at a time");
	if ((rc = tt_read_options_check(&ro)) != 0)
		return rc;

	/* A device node, --xi, or nothing to read but a terminal: live. */
	if (path && is_device_node(path))
		status = print_live(&p, path, xi, live_hid);
	else if (!path && (xi || isatty(STDIN_FILENO)))
		status = print_live(&p, NULL, xi, live_hid);
	else if (xi)
		return tt_usage_error("print", "--xi shows the X server live: give a device node, or none");
	else if (live_hid)
		return tt_usage_error("print", "--hid records the HID layer live: give a device node (a file's "
				      "HID records are printed without it)");
	else
		status = print_file(&p, path ? path : "-");
	for (size_t i = 0; i < p.ndevs; i++)
		free(p.devs[i].slots);
	if (fflush(stdout) != 0 && errno != EPIPE) {
		tt_error("writing output: %s", strerror(errno));
		return TT_EXIT_TROUBLE;
	}
	return status;
}
