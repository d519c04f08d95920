/* SPDX-License-Identifier: MIT */
/* touchtape record: the command line; record/recorder.c does the work. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "evdev-source.h"
#include "guide-source.h"
#include "hidraw-source.h"
#include "output.h"
#include "gzip-out.h"
#include "input-devices.h"
#include "li-source.h"
#include "log.h"
#include "recorder.h"
#include "run-command.h"
#include "util-strings.h"
#include "wl-source.h"
#include "xi-recorder.h"

struct path_list {
	char **paths;
	size_t n;
};

static void usage_xi(FILE *out);
static void usage_layers(FILE *out);
static void usage_notes(FILE *out);

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape record [OPTIONS] [DEVICE...] [-o FILE]\n"
		"\n"
		"Records what the kernel delivers from one or more evdev devices into one\n"
		"timeline file: every event, in its frame, with the kernel's timestamps\n"
		"(CLOCK_MONOTONIC, in microseconds from the start of the recording), and\n"
		"each device's description and state (touches down, keys, switches) at the\n"
		"start. Frames are written as they arrive; a recording that is killed is\n"
		"valid up to its last complete line.\n"
		"\n"
		"DEVICE is /dev/input/eventN, eventN, or a name pattern: a glob (\"*Wacom*\")\n"
		"matched against the whole device name, or else a case-insensitive part of\n"
		"the name; a pattern records every device it matches. Without DEVICE the\n"
		"devices are listed (touch devices first) and you pick; that needs a\n"
		"terminal.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE       write to FILE ('-': standard output, the default);\n"
		"                          an existing FILE is refused\n"
		"      --force             overwrite an existing FILE\n"
		"      --all-touch         record every touchscreen, touchpad and tablet touch\n"
		"                          device, and every pen (a touchscreen's stylus)\n"
		"      --grab              grab the devices (EVIOCGRAB): nothing else sees\n"
		"                          their events while recording\n"
		"      --show-keycodes     do not mask keyboard keys, in evdev or HID reports\n"
		"                          (see PRIVACY)\n"
		"      --with-serials      keep serial numbers and addresses: the devices'\n"
		"                          uniq, phys and udev's ID_SERIAL* (see PRIVACY)\n"
		"      --duration SECONDS  stop after SECONDS (also 500ms, 2m)\n"
		"      --frames N          stop after N frames (all devices together)\n"
		"      --autorestart SECONDS\n"
		"                          after SECONDS without input, end the file and\n"
		"                          continue in FILE.1, then FILE.2, ... (needs -o FILE)\n"
		"      --hid               also record the HID layer: for each device, the HID\n"
		"                          device it came from (found in sysfs) with its report\n"
		"                          descriptor and feature reports, and every input\n"
		"                          report read from its hidraw node, on the same clock\n"
		"                          (reading hidraw needs root); every evdev device of\n"
		"                          such a HID device is recorded too\n"
		"      --guide KIND        touchscreen or touchpad: walk through the exercises a\n"
		"                          grade needs (Enter, s to skip), mark each in the\n"
		"                          file, then print the grade (needs -o FILE)\n");
	usage_xi(out);
	usage_layers(out);
	usage_notes(out);
}

/* The options of the X side. */
static void
usage_xi(FILE *out)
{
	fprintf(out,
		"      --xi[=DISPLAY]      also record what the X server made of the touches:\n"
		"                          XInput 2.2 touch, raw touch and ownership events and\n"
		"                          the XI devices (linked to the kernel devices by\n"
		"                          node); DISPLAY defaults to $DISPLAY. Without DEVICE\n"
		"                          (and --guide), only the X side is recorded (no root\n"
		"                          needed)\n"
		"      --xi-grab=MODE      (implies --xi) hold a passive touch grab on the root\n"
		"                          window, like a window manager, and decide each touch:\n"
		"                          accept, reject, accept-after=MS or reject-after=MS.\n"
		"                          Up to 4 times: a chain grab1, grab2, ..., each on a\n"
		"                          window inside the previous one's, offered each touch\n"
		"                          outermost first\n"
		"      --xi-window         (implies --xi) add a client with a window covering\n"
		"                          the screen (innermost) that selects touch events and\n"
		"                          TouchOwnership, like an application\n"
		"      --xi-pointer-grab=MODE\n"
		"                          (implies --xi) add a client taking the pointer events\n"
		"                          emulated from the first touch: sync or async (grabs\n"
		"                          the master pointer until the first emulated button\n"
		"                          release) or select (selects button and motion events\n"
		"                          on the innermost window)\n");
}

/* The options of the other layers. */
static void
usage_layers(FILE *out)
{
	fprintf(out,
		"      --libinput          also record what libinput makes of the devices: its\n"
		"                          touch, pointer, scroll, gesture and tablet events and\n"
		"                          each device's view and configuration, on the frames'\n"
		"                          clock, and the libinput quirks that match each device\n"
		"                          (libinput quirks list, from libinput-tools)\n"
		"                          (needs systemd-udevd; not with --grab)\n"
		"      --libinput-config SETTING=VALUE,...\n"
		"                          (implies --libinput) configure libinput like your\n"
		"                          compositor: tap, tap-drag, drag-lock, tap-button-map,\n"
		"                          natural-scroll, scroll-method, scroll-button,\n"
		"                          click-method, dwt, dwtp, left-handed,\n"
		"                          middle-emulation, accel-speed, accel-profile,\n"
		"                          send-events, rotation (e.g. tap=on,natural-scroll=on)\n"
		"      --wayland[=DISPLAY]\n"
		"                          also record what a Wayland client receives: connect\n"
		"                          to the compositor (DISPLAY: $WAYLAND_DISPLAY), map a\n"
		"                          surface over the output and record its seat's touch,\n"
		"                          pointer and gesture events, the seat's capabilities\n"
		"                          and the outputs, on the frames' clock. With --xi, the\n"
		"                          X server may be the session's Xwayland. Without\n"
		"                          DEVICE, only the Wayland side is recorded\n"
		"      --wayland-surface=auto|overlay|toplevel\n"
		"                          the surface taking the input: a layer-shell overlay\n"
		"                          or a fullscreen xdg-shell toplevel (auto: the\n"
		"                          overlay where the compositor offers layer-shell)\n"
		"  -q, --quiet             no messages except errors\n"
		"  -h, --help              show this help\n");
}

/* The second half of --help: how a recording ends, privacy, examples. */
static void
usage_notes(FILE *out)
{
	fprintf(out,
		"\n"
		"Stop with Ctrl-C, SIGTERM or SIGHUP; the file then ends with a stop marker.\n"
		"A device that disappears gets a device-removed marker; the others go on.\n"
		"SYN_DROPPED (the reader fell behind) is recorded with libevdev's resync.\n"
		"\n"
		"PRIVACY: on keyboards, letters, digits, punctuation, space and keypad keys\n"
		"are written as placeholders (the n-th such key held at once becomes the\n"
		"keyboard's n-th lowest such code, e.g. KEY_1), and MSC_SCAN values as 0.\n"
		"Touch, pointer, tablet and button codes are never masked. The header's\n"
		"keycodes_masked says whether masking was on. With --libinput, libinput's\n"
		"key events of the masked keys are written with key code 0. With --hid,\n"
		"the same keys in the HID input reports (Keyboard/Keypad page) are masked\n"
		"too: the n-th held in a key array becomes the array's n-th such key, a\n"
		"key bitmap keeps as many bits set, on its first such keys.\n"
		"Each device record also holds what the system says of the device: its\n"
		"sysfs path, driver, udev properties and the hwdb overrides among them;\n"
		"the header holds the DMI modalias, os-release's ID and VERSION_ID and the\n"
		"libinput and libevdev versions. Never the hostname, and no serial numbers\n"
		"(uniq, ID_SERIAL*, DEVLINKS) or addresses (a Bluetooth device's phys)\n"
		"unless --with-serials: an address is written xx:xx:xx:xx:xx:xx.\n"
		"'touchtape validate --privacy FILE' lists what is left that may identify\n"
		"a person or machine; 'touchtape convert --redact' removes it.\n"
		"\n"
		"Reading devices needs root or membership of the group 'input'.\n"
		"\n"
		"Exit status: 0 when the recording ended normally, 2 on bad usage, an\n"
		"existing FILE without --force, a device that cannot be opened or a failed\n"
		"write.\n"
		"\n"
		"Examples:\n"
		"  touchtape record -o touch.jsonl                  # pick from a list\n"
		"  touchtape record /dev/input/event5 -o bug.jsonl\n"
		"  touchtape record --all-touch --duration 30 -o all.jsonl\n"
		"  touchtape record 'Wacom*Finger' -o - | touchtape print -   # live view\n"
		"  touchtape record --autorestart 5 event7 -o session.jsonl\n"
		"  touchtape record --hid event5 -o hid-and-kernel.jsonl\n"
		"  touchtape record --xi event5 -o kernel-and-x.jsonl\n"
		"  touchtape record --xi=:1 -o x-only.jsonl            # no root needed\n"
		"  touchtape record --xi-grab=reject-after=50 --xi-window event5 -o own.jsonl\n"
		"  touchtape record --xi-grab=reject-after=30 --xi-grab=reject-after=30 \\\n"
		"          --xi-window event5 -o chain.jsonl   # grab1, grab2, then the window\n"
		"  touchtape record --libinput-config tap=on event7 -o touchpad.jsonl\n"
		"  touchtape record --wayland --xi event5 -o kernel-wayland-x.jsonl\n");
}

static void
add_path(struct path_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->paths[i], path) == 0)
			return;
	l->paths = tt_reallocarray(l->paths, l->n + 1, sizeof(*l->paths));
	l->paths[l->n++] = tt_strdup(path);
}

static void
path_list_clear(struct path_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

static bool
is_event_name(const char *s)
{
	if (strncmp(s, "event", 5) != 0 || !s[5])
		return false;
	return strspn(s + 5, "0123456789") == strlen(s + 5);
}

static bool
scan_once(struct tt_input_list *list, bool *scanned)
{
	if (*scanned)
		return true;
	/* No grab probe: another recorder may be reading these devices. */
	int rc = tt_input_scan(list, 0);
	if (rc < 0) {
		tt_error("/dev/input: %s", strerror(-rc));
		return false;
	}
	*scanned = true;
	if (list->naccess && list->naccess == list->n)
		tt_error("no input device could be opened: run as root, or join the group "
			 "'input' (sudo usermod -aG input $USER, then log in again)");
	return true;
}

static void
print_choices(const struct tt_input_list *list)
{
	fprintf(stderr, "Input devices:\n");
	for (size_t i = 0; i < list->n; i++) {
		const struct tt_input_entry *e = &list->entries[i];
		if (!e->capture) {
			fprintf(stderr, "  %3zu  %-20s (cannot open: %s)\n", i + 1, e->node,
				strerror(-e->error));
			continue;
		}
		const struct tt_device *dev = tt_capture_device(e->capture);
		char slots[24] = "";
		if (dev->num_slots)
			snprintf(slots, sizeof(slots), "%u slots", dev->num_slots);
		fprintf(stderr, "  %3zu  %-20s %-12s MT %-2s %-9s %-8s %s\n", i + 1, e->node,
			tt_device_kind(dev), tt_mt_protocol_name(dev->mt_protocol), slots,
			tt_device_touch_mode(dev), dev->name);
	}
}

/* Adds the devices of @list whose name matches @pattern (NULL: every
 * touch device); false when none did. */
static bool
add_matching(const struct tt_input_list *list, const char *pattern, struct path_list *out)
{
	size_t before = out->n;

	for (size_t k = 0; k < list->n; k++) {
		const struct tt_input_entry *e = &list->entries[k];
		if (!e->capture)
			continue;
		const struct tt_device *dev = tt_capture_device(e->capture);
		if (pattern ? tt_device_name_matches(dev, pattern) : tt_device_is_touch_input(dev))
			add_path(out, e->node);
	}
	return out->n > before;
}

/* Asks on the terminal which devices to record. */
static int
pick_devices(const struct tt_input_list *list, struct path_list *out)
{
	_cleanup_free_ char *line = NULL;
	size_t size = 0;

	if (list->n == 0) {
		tt_error("no input devices found in /dev/input");
		return TT_EXIT_TROUBLE;
	}
	print_choices(list);
	fprintf(stderr, "Record which? Numbers separated by spaces or commas, "
		"'t' for all touch devices: ");
	if (getline(&line, &size, stdin) < 0) {
		fprintf(stderr, "\n");
		tt_error("no device chosen");
		return TT_EXIT_TROUBLE;
	}
	for (char *tok = strtok(line, " ,\t\n"); tok; tok = strtok(NULL, " ,\t\n")) {
		int64_t n;
		if (strcmp(tok, "t") == 0) {
			add_matching(list, NULL, out);
			continue;
		}
		if (tt_parse_int64(tok, &n) < 0 || n < 1 || (uint64_t)n > list->n) {
			tt_error("'%s' is not one of the numbers shown", tok);
			return TT_EXIT_USAGE;
		}
		add_path(out, list->entries[n - 1].node);
	}
	if (out->n == 0) {
		tt_error("no device chosen");
		return TT_EXIT_TROUBLE;
	}
	return TT_EXIT_OK;
}

/* One DEVICE argument: a path, an eventN, or a name pattern. */
static int
add_device_arg(const char *arg, struct tt_input_list *list, bool *scanned, struct path_list *out)
{
	char path[64];

	if (strchr(arg, '/')) {
		add_path(out, arg);
	} else if (is_event_name(arg)) {
		snprintf(path, sizeof(path), "/dev/input/%s", arg);
		add_path(out, path);
	} else if (!scan_once(list, scanned)) {
		return TT_EXIT_TROUBLE;
	} else if (!add_matching(list, arg, out)) {
		tt_error("no input device name matches '%s' (touchtape list shows them)", arg);
		return TT_EXIT_TROUBLE;
	}
	return TT_EXIT_OK;
}

/* No DEVICE and no --all-touch: ask, on a terminal only. */
static int
ask_devices(struct tt_input_list *list, bool *scanned, struct path_list *out)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
		tt_error("no device given, and no terminal to ask on: name one "
			 "(touchtape list shows them) or use --all-touch");
		return TT_EXIT_USAGE;
	}
	if (!scan_once(list, scanned))
		return TT_EXIT_TROUBLE;
	return pick_devices(list, out);
}

/* --hid: every evdev device of a recorded HID device is recorded too (a
 * touchscreen's pen is a device of its own), so that no report of the
 * HID layer lacks the evdev events the kernel made of it. */
static void
add_hid_siblings(struct tt_input_list *list, bool *scanned, struct path_list *out)
{
	size_t chosen = out->n;

	for (size_t i = 0; i < chosen; i++) {
		_cleanup_free_ char *hid = tt_input_hid_syspath(out->paths[i]);
		if (!hid || !scan_once(list, scanned))
			continue;
		for (size_t k = 0; k < list->n; k++) {
			_cleanup_free_ char *other = list->entries[k].capture ?
				tt_input_hid_syspath(list->entries[k].node) : NULL;
			if (other && strcmp(other, hid) == 0)
				add_path(out, list->entries[k].node);
		}
	}
}

static int
resolve_devices(char **args, int nargs, bool all_touch, bool hid, struct path_list *out)
{
	struct tt_input_list list = { 0 };
	bool scanned = false;
	int status = TT_EXIT_OK;

	for (int i = 0; i < nargs && status == TT_EXIT_OK; i++)
		status = add_device_arg(args[i], &list, &scanned, out);
	if (status == TT_EXIT_OK && all_touch) {
		if (!scan_once(&list, &scanned)) {
			status = TT_EXIT_TROUBLE;
		} else if (!add_matching(&list, NULL, out)) {
			tt_error("--all-touch: no touch device found");
			status = TT_EXIT_TROUBLE;
		}
	}
	if (status == TT_EXIT_OK && nargs == 0 && !all_touch)
		status = ask_devices(&list, &scanned, out);
	if (status == TT_EXIT_OK && hid)
		add_hid_siblings(&list, &scanned, out);
	tt_input_list_clear(&list);
	return status;
}

/* Refuses an existing regular file unless --force (a FIFO or /dev/null is
 * no recording to lose), and never writes onto a device it records. */
static int
check_output(struct tt_recorder_options *ro, const struct path_list *devices)
{
	const char *path = ro->output;
	struct stat st;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	for (size_t i = 0; i < devices->n; i++) {
		if (tt_output_check_inputs(path, (const char *const[]){ devices->paths[i], NULL }) < 0)
			return -EEXIST;
	}
	if (stat(path, &st) < 0)
		return 0;
	if (!S_ISREG(st.st_mode)) {
		ro->force = true;
		return 0;
	}
	if (ro->force)
		return 0;
	tt_error("%s exists: a recording is often the only copy of a bug; choose another name, or "
		 "--force to overwrite it", path);
	return -EEXIST;
}

static int
parse_seconds(const char *opt, const char *arg, int64_t *out)
{
	if (tt_parse_duration_us(arg, out) < 0 || *out <= 0)
		return tt_usage_error("record", "%s takes a positive duration, not '%s'", opt, arg);
	return TT_EXIT_OK;
}

/* What the command line asks for. */
struct record_args {
	struct tt_recorder_options ro;
	struct tt_evdev_source_options eo;
	bool hid;		/* --hid: the hidraw source too */
	struct tt_xi_options xo;
	bool use_xi;
	bool all_touch;
	bool use_li;
	struct tt_li_config *li_config;	/* --libinput-config, or NULL */
	bool use_wl;
	const char *wl_display;	/* --wayland=DISPLAY, or NULL */
	enum tt_wl_surface_mode wl_surface;
	bool wl_surface_set;	/* --wayland-surface given */
	bool guide;		/* --guide KIND */
	enum tt_guide_kind guide_kind;
};

/* Help printed: done, exit 0. */
#define RECORD_HELP_DONE (-1)

static int
parse_frames(const char *arg, uint64_t *out)
{
	int64_t n;

	if (tt_parse_int64(arg, &n) < 0 || n <= 0)
		return tt_usage_error("record", "--frames takes a positive number, not '%s'", arg);
	*out = (uint64_t)n;
	return TT_EXIT_OK;
}

static int
parse_li_config(const char *arg, struct record_args *a)
{
	char error[512];

	tt_li_config_free(a->li_config);
	a->li_config = NULL;
	if (tt_li_config_parse(arg, &a->li_config, error, sizeof(error)) < 0)
		return tt_usage_error("record", "--libinput-config: %s", error);
	return TT_EXIT_OK;
}

static int
parse_xi_grab(const char *arg, struct tt_xi_options *xo)
{
	struct tt_xi_grab *g = &xo->grabs[xo->ngrabs];

	if (xo->ngrabs == TT_XI_MAX_GRABS)
		return tt_usage_error("record", "--xi-grab given more than %d times", TT_XI_MAX_GRABS);
	if (tt_xi_parse_grab(arg, &g->mode, &g->delay_us) < 0)
		return tt_usage_error("record", "--xi-grab takes accept, reject, "
				      "accept-after=MS or reject-after=MS, not '%s'", arg);
	xo->ngrabs++;
	return TT_EXIT_OK;
}

static int
parse_xi_pointer(const char *arg, struct tt_xi_options *xo)
{
	if (tt_xi_parse_pointer(arg, &xo->pointer) < 0)
		return tt_usage_error("record", "--xi-pointer-grab takes sync, async or select, not '%s'",
				      arg);
	return TT_EXIT_OK;
}

/* One option: TT_EXIT_OK, a usage error's exit status, or RECORD_HELP_DONE. */
static int
parse_wl_surface(const char *arg, enum tt_wl_surface_mode *mode)
{
	static const struct { const char *name; enum tt_wl_surface_mode mode; } modes[] = {
		{ "auto", TT_WL_SURFACE_AUTO },
		{ "overlay", TT_WL_SURFACE_OVERLAY },
		{ "toplevel", TT_WL_SURFACE_TOPLEVEL },
	};

	for (size_t i = 0; i < ARRAY_LENGTH(modes); i++) {
		if (strcmp(arg, modes[i].name) == 0) {
			*mode = modes[i].mode;
			return TT_EXIT_OK;
		}
	}
	return tt_usage_error("record", "--wayland-surface: \"%s\" is not auto, overlay or toplevel", arg);
}

static int
parse_option(int opt, const char *arg, struct record_args *a)
{
	/* Every X option turns the X side on. */
	a->use_xi |= opt == 'X' || opt == 'G' || opt == 'W' || opt == 'P';
	a->use_li |= opt == 'L' || opt == 'C';
	switch (opt) {
	case 'o': a->ro.output = arg; return TT_EXIT_OK;
	case 'F': a->ro.force = true; return TT_EXIT_OK;
	case 'A': a->all_touch = true; return TT_EXIT_OK;
	case 'g': a->ro.capture_flags |= TT_CAPTURE_GRAB; return TT_EXIT_OK;
	case 'k': a->ro.capture_flags |= TT_CAPTURE_SHOW_KEYCODES; return TT_EXIT_OK;
	case 'S': a->eo.with_serials = true; return TT_EXIT_OK;
	case 'H': a->hid = true; return TT_EXIT_OK;
	case 'd': return parse_seconds("--duration", arg, &a->ro.duration_us);
	case 'r': return parse_seconds("--autorestart", arg, &a->ro.autorestart_us);
	case 'f': return parse_frames(arg, &a->ro.max_frames);
	case 'q': a->ro.quiet = true; return TT_EXIT_OK;
	case 'X': a->xo.display = arg; return TT_EXIT_OK;
	case 'G': return parse_xi_grab(arg, &a->xo);
	case 'W': a->xo.window = true; return TT_EXIT_OK;
	case 'P': return parse_xi_pointer(arg, &a->xo);
	case 'L': return TT_EXIT_OK;
	case 'C': return parse_li_config(arg, a);
	case 'Y': a->use_wl = true; a->wl_display = arg; return TT_EXIT_OK;
	case 'U': a->wl_surface_set = true; return parse_wl_surface(arg, &a->wl_surface);
	case 'E':
		a->guide = true;
		if (tt_guide_kind_from_name(arg, &a->guide_kind) < 0)
			return tt_usage_error("record", "--guide takes touchscreen or touchpad, not '%s'", arg);
		return TT_EXIT_OK;
	case 'h': usage(stdout); return RECORD_HELP_DONE;
	default: return tt_usage_error("record", "unknown option");
	}
}

/* --guide talks on the terminal and grades the file at the end. */
static int
check_guide(const struct record_args *a)
{
	const char *out = a->ro.output;

	if (!a->guide)
		return TT_EXIT_OK;
	if (!out || strcmp(out, "-") == 0)
		return tt_usage_error("record", "--guide needs -o FILE (the terminal is the guide's)");
	if (a->ro.autorestart_us)
		return tt_usage_error("record", "--autorestart cannot be combined with --guide");
	return TT_EXIT_OK;
}

/* The combinations no single option can refuse. */
static int
check_args(struct record_args *a)
{
	const char *out = a->ro.output;

	if (check_guide(a) != TT_EXIT_OK)
		return TT_EXIT_USAGE;
	/* A recording must stay readable when killed at any instant; a gzip
	 * stream is not until it is finished. */
	if (tt_gz_path(out))
		return tt_usage_error("record", "cannot record to a .gz file (a killed recording would be unreadable); "
				      "record to %.*s and compress it afterwards with touchtape convert or gzip",
				      (int)(strlen(out) - 3), out);
	if (a->ro.autorestart_us && (!out || strcmp(out, "-") == 0))
		return tt_usage_error("record", "--autorestart needs -o FILE (it writes FILE.1, FILE.2, ...)");
	if (a->use_xi && a->ro.autorestart_us)
		return tt_usage_error("record", "--autorestart cannot be combined with --xi");
	if (a->use_li && a->ro.autorestart_us)
		return tt_usage_error("record", "--autorestart cannot be combined with --libinput");
	/* A grab would keep the events from libinput's own fds. */
	if (a->use_li && (a->ro.capture_flags & TT_CAPTURE_GRAB))
		return tt_usage_error("record", "--grab cannot be combined with --libinput "
				      "(the grab would hide the events from libinput)");
	if (a->wl_surface_set && !a->use_wl)
		return tt_usage_error("record", "--wayland-surface needs --wayland");
	if (a->use_wl && a->ro.autorestart_us)
		return tt_usage_error("record", "--autorestart cannot be combined with --wayland");
	a->xo.quiet = a->ro.quiet;
	/* In a Wayland session, the X server is Xwayland: what X clients of
	 * that session receive, beside what the Wayland client receives. */
	a->xo.allow_xwayland = a->use_wl;
	a->eo.capture_flags = a->ro.capture_flags;
	a->eo.quirks = a->use_li;
	a->eo.quiet = a->ro.quiet;
	return TT_EXIT_OK;
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_record_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "all-touch", no_argument, NULL, 'A' },
	{ "grab", no_argument, NULL, 'g' },
	{ "show-keycodes", no_argument, NULL, 'k' },
	{ "with-serials", no_argument, NULL, 'S' },
	{ "duration", required_argument, NULL, 'd' },
	{ "frames", required_argument, NULL, 'f' },
	{ "autorestart", required_argument, NULL, 'r' },
	{ "hid", no_argument, NULL, 'H' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "xi", optional_argument, NULL, 'X' },
	{ "xi-grab", required_argument, NULL, 'G' },
	{ "xi-window", no_argument, NULL, 'W' },
	{ "xi-pointer-grab", required_argument, NULL, 'P' },
	{ "libinput", no_argument, NULL, 'L' },
	{ "libinput-config", required_argument, NULL, 'C' },
	{ "wayland", optional_argument, NULL, 'Y' },
	{ "wayland-surface", required_argument, NULL, 'U' },
	{ "guide", required_argument, NULL, 'E' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_record_short_options[] = "o:qh";

static int
parse_args(int argc, char **argv, struct record_args *a)
{
	int opt, rc = TT_EXIT_OK;

	optind = 1;
	while (rc == TT_EXIT_OK && (opt = getopt_long(argc, argv, tt_record_short_options, tt_record_options, NULL)) != -1)
		rc = parse_option(opt, optarg, a);
	return rc == TT_EXIT_OK ? check_args(a) : rc;
}

/* The device paths to record from the DEVICE arguments (none: --xi or
 * --wayland alone). */
static int
devices_to_record(struct record_args *a, char **args, int nargs, struct path_list *paths)
{
	int status = TT_EXIT_OK;

	/* --xi or --wayland without DEVICE: only those sides, nothing to pick;
	 * but --guide grades the kernel's touches, so it picks as without them. */
	if (!(a->use_xi || a->use_wl) || a->guide || nargs > 0 || a->all_touch)
		status = resolve_devices(args, nargs, a->all_touch, a->hid, paths);
	if (status == TT_EXIT_OK && a->hid && paths->n == 0)
		status = tt_usage_error("record", "--hid records the HID devices behind evdev "
					"devices: name one, or use --all-touch");
	if (status == TT_EXIT_OK && check_output(&a->ro, paths) < 0)
		status = TT_EXIT_TROUBLE;
	if (status == TT_EXIT_OK && a->use_li && paths->n == 0)
		status = tt_usage_error("record", "--libinput needs the devices to record");
	return status;
}

/* The kernel's sources, before the file: the evdev devices and, with
 * --hid, the hidraw nodes behind them. */
static int
add_kernel_sources(const struct record_args *a, struct tt_recorder *r, const struct path_list *paths)
{
	struct tt_evdev_source *es;
	struct tt_hid_source *hs;
	int rc;

	rc = tt_evdev_source_new(&a->eo, paths->paths, paths->n, &es);
	if (rc >= 0)
		rc = tt_recorder_add_source(r, &tt_evdev_source_ops, es);
	if (rc < 0 || !a->hid)
		return rc;
	tt_hid_source_new(es, a->eo.capture_flags, a->eo.with_serials, &hs);
	return tt_recorder_add_source(r, &tt_hid_source_ops, hs);
}

/* The layers above, after the file's start marker: X, libinput, the
 * Wayland client, in that order (their records and summaries keep it). */
static int
add_layer_sources(const struct record_args *a, struct tt_recorder *r, const struct path_list *paths,
		  struct tt_xi_recorder **xr, struct tt_wl_capture **wl)
{
	const struct tt_li_source_options lo = {
		.config = a->li_config,
		.mask_keys = !(a->ro.capture_flags & TT_CAPTURE_SHOW_KEYCODES),
		.nodes = paths->paths,
		.nnodes = paths->n,
	};
	bool wl_alone = paths->n == 0 && !a->use_xi;
	int rc = 0;

	if (*xr) {
		tt_xi_recorder_set_nodes(*xr, paths->paths, paths->n);
		rc = tt_recorder_add_source(r, &tt_xi_source_ops, steal(xr));
	}
	if (rc >= 0 && a->use_li)
		rc = tt_recorder_add_source(r, &tt_li_source_ops, tt_li_source_new(&lo));
	if (rc >= 0 && *wl)
		rc = tt_recorder_add_source(r, &tt_wl_source_ops, tt_wl_source_new(steal(wl), wl_alone));
	if (rc >= 0 && a->guide)
		rc = tt_recorder_add_source(r, &tt_guide_source_ops, tt_guide_source_new(a->guide_kind));
	return rc;
}

/* --guide: the grade of what was recorded, as analyze gives it. */
static int
print_grade(const struct record_args *a)
{
	const char *argv[] = { "touchtape", "analyze", "--grade", tt_guide_kind_name(a->guide_kind),
			       a->ro.output, NULL };
	const struct tt_run_io io = { .in = TT_RUN_NULL, .out = TT_RUN_KEEP };
	int status;
	pid_t pid;

	fflush(stdout);
	if (tt_run_command(argv, &io, &pid) < 0 || waitpid(pid, &status, 0) < 0)
		return TT_EXIT_TROUBLE;
	return WIFEXITED(status) && WEXITSTATUS(status) <= TT_EXIT_FAILURE ? TT_EXIT_OK : TT_EXIT_TROUBLE;
}

/* Connects to X (before the header is written: it names the server) and
 * to the Wayland compositor (a missing one makes no file), registers the
 * sources and records until the end. */
static int
record(struct record_args *a, const struct path_list *paths)
{
	_cleanup_(tt_recorder_freep) struct tt_recorder *r = NULL;
	/* Until the recorder takes them over. */
	_cleanup_(tt_xi_recorder_freep) struct tt_xi_recorder *xr = NULL;
	_cleanup_(tt_wl_capture_freep) struct tt_wl_capture *wl = NULL;
	int rc, status;

	if (a->use_xi) {
		if (tt_xi_recorder_connect(&a->xo, &xr) < 0)
			return TT_EXIT_TROUBLE;
		a->ro.x_vendor = tt_xi_recorder_vendor(xr);
		a->ro.x_release = tt_xi_recorder_release(xr);
	}
	if (a->use_wl && tt_wl_capture_connect(a->wl_display, a->wl_surface, &wl) < 0)
		return TT_EXIT_TROUBLE;
	rc = tt_recorder_new(&a->ro, &r);
	if (rc >= 0)
		rc = add_kernel_sources(a, r, paths);
	if (rc >= 0)
		rc = tt_recorder_begin(r);
	if (rc >= 0)
		rc = add_layer_sources(a, r, paths, &xr, &wl);
	if (rc < 0)
		return TT_EXIT_TROUBLE;
	status = tt_recorder_run(r);
	/* The recorder's 1 is a read or write error: trouble, not a finding. */
	if (status == TT_EXIT_FAILURE)
		return TT_EXIT_TROUBLE;
	if (status == TT_EXIT_OK && a->guide) {
		tt_recorder_free(steal(&r));	/* the file complete, the terminal restored */
		status = print_grade(a);
	}
	return status;
}

int
tt_cmd_record(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct path_list paths = { 0 };
	int status = parse_args(argc, argv, &a);

	if (status != TT_EXIT_OK)
		return status == RECORD_HELP_DONE ? TT_EXIT_OK : status;
	status = devices_to_record(&a, argv + optind, argc - optind, &paths);
	if (status == TT_EXIT_OK) {
		/* A closed pipe (| head) is a write error like any other, not a
		 * silent death that leaves no summary. */
		signal(SIGPIPE, SIG_IGN);
		status = record(&a, &paths);
	}
	path_list_clear(&paths);
	tt_li_config_free(a.li_config);
	return status;
}
