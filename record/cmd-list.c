/* SPDX-License-Identifier: MIT */
/* touchtape list: the kernel's input devices, xinput-list style. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/extensions/XI2.h>

#include "commands.h"
#include "input-devices.h"
#include "json-emit.h"
#include "log.h"
#include "xi-names.h"
#include "xi-recorder.h"

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape list [OPTIONS]\n"
		"\n"
		"Lists the kernel's input devices (/dev/input/event*), touch-capable ones\n"
		"first: node, kind, multi-touch protocol (A: SYN_MT_REPORT, B: slots), slot\n"
		"count, direct (touchscreen) or pointer (touchpad) touch, whether another\n"
		"program holds an exclusive grab, and the name.\n"
		"\n"
		"Options:\n"
		"      --json          one JSON array, for scripts: the kernel's devices\n"
		"                      (\"type\": \"device\"), then the X devices\n"
		"                      (\"type\": \"xi_device\")\n"
		"      --touch         only touch-capable devices\n"
		"      --xi[=DISPLAY]  also list the X server's input devices (the default\n"
		"                      when DISPLAY is set): touch class and the kernel node\n"
		"                      each came from\n"
		"      --no-xi         do not list the X server's devices\n"
		"  -h, --help          show this help\n"
		"\n"
		"Reading the devices needs root or membership of the group 'input'.\n"
		"\n"
		"Exit status: 0 on success, 2 on bad usage or when no device could be read.\n"
		"\n"
		"Examples:\n"
		"  touchtape list\n"
		"  touchtape list --json --touch\n"
		"  touchtape list --xi=:1 --touch\n");
}

/* One kernel device as an object of the --json array. */
static void
device_json(struct tt_json_emit *j, const struct tt_input_entry *e, const struct tt_device *dev)
{
	bool touch = dev && tt_device_is_touch(dev);

	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "type", "device");
	tt_json_emit_member_string(j, "node", e->node);
	if (!dev) {
		tt_json_emit_member_string(j, "error", strerror(-e->error));
		tt_json_emit_object_end(j);
		return;
	}
	tt_json_emit_member_string(j, "name", dev->name);
	tt_json_emit_member_string(j, "kind", tt_device_kind(dev));
	tt_json_emit_member_bool(j, "touch", touch);
	tt_json_emit_member_string(j, "mt_protocol",
				   dev->mt_protocol == TT_MT_NONE ? NULL : tt_mt_protocol_name(dev->mt_protocol));
	tt_json_emit_member_int(j, "slots", dev->num_slots);
	tt_json_emit_member_string(j, "touch_mode", touch ? tt_device_touch_mode(dev) : NULL);
	tt_json_emit_member_int(j, "vendor", dev->vendor);
	tt_json_emit_member_int(j, "product", dev->product);
	tt_json_emit_member_int(j, "bustype", dev->bustype);
	tt_json_emit_member_bool(j, "grabbed_by_other", dev->grabbed_by_other);
	tt_json_emit_object_end(j);
}

/* The kernel's devices as objects of the --json array. */
static void
print_json(struct tt_json_emit *j, const struct tt_input_list *list, bool touch_only)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct tt_input_entry *e = &list->entries[i];
		const struct tt_device *dev = e->capture ? tt_capture_device(e->capture) : NULL;

		if (touch_only && (!dev || !tt_device_is_touch(dev)))
			continue;
		device_json(j, e, dev);
	}
}

static const char *
touch_mode_name(enum tt_xi_touch_mode m)
{
	return m == TT_XI_TOUCH_DIRECT ? "direct" : m == TT_XI_TOUCH_DEPENDENT ? "dependent" : NULL;
}

/* One X device, with the keys of the timeline's xi_device records. */
static void
xi_device_json(struct tt_json_emit *j, const char *display, const struct tt_xi_device *d)
{
	const char *mode = touch_mode_name(d->touch_mode);

	tt_json_emit_object_begin(j);
	tt_json_emit_member_string(j, "type", "xi_device");
	tt_json_emit_member_string(j, "display", display);
	tt_json_emit_member_int(j, "deviceid", d->deviceid);
	tt_json_emit_member_string(j, "name", d->name);
	tt_json_emit_member_string(j, "use", tt_xi_use_name(d->use));
	tt_json_emit_member_int(j, "attachment", d->attachment);
	tt_json_emit_member_bool(j, "enabled", d->enabled);
	tt_json_emit_key(j, "touch");
	if (mode) {
		tt_json_emit_object_begin(j);
		tt_json_emit_member_string(j, "mode", mode);
		tt_json_emit_member_int(j, "num_touches", d->num_touches);
		tt_json_emit_object_end(j);
	} else {
		tt_json_emit_null(j);
	}
	tt_json_emit_member_string(j, "device_node", d->device_node);
	tt_json_emit_object_end(j);
}

/* The X devices as objects of the same array. */
static void
print_xi_json(struct tt_json_emit *j, const struct tt_xi_list *xl, bool touch_only)
{
	for (size_t i = 0; i < xl->n; i++) {
		const struct tt_xi_device *d = xl->devices[i];

		if (touch_only && d->touch_mode == TT_XI_TOUCH_NONE)
			continue;
		xi_device_json(j, xl->display, d);
	}
}

static void
print_xi_table(const struct tt_xi_list *xl, bool touch_only)
{
	printf("X input devices (%s, %s %d, XInput %d.%d):\n", xl->display, xl->vendor, xl->release,
	       xl->major, xl->minor);
	for (size_t i = 0; i < xl->n; i++) {
		const struct tt_xi_device *d = xl->devices[i];
		const char *use = d->use == XIMasterPointer ? "master pointer" :
				  d->use == XIMasterKeyboard ? "master keyboard" :
				  d->use == XISlavePointer ? "slave pointer" :
				  d->use == XISlaveKeyboard ? "slave keyboard" :
				  d->use == XIFloatingSlave ? "floating slave" : "?";
		char touch[32] = "-";

		if (touch_only && d->touch_mode == TT_XI_TOUCH_NONE)
			continue;
		if (touch_mode_name(d->touch_mode))
			snprintf(touch, sizeof(touch), "%s/%d", touch_mode_name(d->touch_mode),
				 d->num_touches);
		printf("  id=%-3d %-15s attached %-3d touch %-13s %-20s %s%s\n", d->deviceid, use,
		       d->attachment, touch, d->device_node ? d->device_node : "-", d->name,
		       d->enabled ? "" : " (disabled)");
	}
}

static void
print_table(const struct tt_input_list *list, bool touch_only)
{
	bool header_touch = false, header_other = false;

	for (size_t i = 0; i < list->n; i++) {
		const struct tt_input_entry *e = &list->entries[i];
		const struct tt_device *dev = e->capture ? tt_capture_device(e->capture) : NULL;
		bool touch = dev && tt_device_is_touch(dev);

		if (touch_only && !touch)
			continue;
		if (touch && !header_touch) {
			printf("Touch devices:\n");
			header_touch = true;
		} else if (!touch && !header_other) {
			printf("%sOther devices:\n", header_touch ? "\n" : "");
			header_other = true;
		}
		if (!dev) {
			printf("  %-20s (cannot open: %s)\n", e->node, strerror(-e->error));
			continue;
		}
		char slots[16] = "-";
		if (dev->num_slots)
			snprintf(slots, sizeof(slots), "%u", dev->num_slots);
		printf("  %-20s %-12s MT %-2s slots %-4s %-8s %-8s %s\n", e->node,
		       tt_device_kind(dev), tt_mt_protocol_name(dev->mt_protocol), slots,
		       touch ? tt_device_touch_mode(dev) : "-",
		       dev->grabbed_by_other ? "GRABBED" : "",
		       dev->name ? dev->name : "");
	}
	if (!header_touch && !header_other)
		printf("No %sinput devices.\n", touch_only ? "touch " : "");
}

/* The options (cli/commands.c lists them for every command). */
const struct option tt_list_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "touch", no_argument, NULL, 't' },
	{ "xi", optional_argument, NULL, 'X' },
	{ "no-xi", no_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_list_short_options[] = "h";

int
tt_cmd_list(int argc, char **argv)
{
	struct tt_input_list list;
	bool json = false, touch_only = false;
	bool want_xi = false, no_xi = false;
	const char *xi_display = NULL;
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, tt_list_short_options, tt_list_options, NULL)) != -1) {
		switch (opt) {
		case 'j': json = true; break;
		case 't': touch_only = true; break;
		case 'X': want_xi = true; xi_display = optarg; break;
		case 'N': no_xi = true; break;
		case 'h': usage(stdout); return TT_EXIT_OK;
		default: return tt_usage_error("list", "unknown option");
		}
	}
	if (optind < argc)
		return tt_usage_error("list", "unexpected argument '%s'", argv[optind]);

	/* GRABBED: a listing is not read beside a recording. */
	rc = tt_input_scan(&list, TT_CAPTURE_PROBE_GRAB);
	if (rc < 0) {
		tt_error("/dev/input: %s", strerror(-rc));
		return TT_EXIT_TROUBLE;
	}
	/* The X side too: after the kernel's devices, in the same array
	 * for --json. An X server that cannot be reached is reported; it
	 * fails the command only when --xi asked for it. */
	struct tt_xi_list xl = { 0 };
	bool have_xi = false;
	int status = TT_EXIT_OK;
	if (!no_xi && (want_xi || getenv("DISPLAY"))) {
		have_xi = tt_xi_list_scan(xi_display, &xl) == 0;
		if (!have_xi && want_xi)
			status = TT_EXIT_TROUBLE;
	}
	if (json) {
		struct tt_json_emit j;
		tt_json_emit_init_file(&j, stdout);
		tt_json_emit_array_begin(&j);
		print_json(&j, &list, touch_only);
		if (have_xi)
			print_xi_json(&j, &xl, touch_only);
		tt_json_emit_array_end(&j);
		putchar('\n');
	} else {
		print_table(&list, touch_only);
		if (have_xi) {
			putchar('\n');
			print_xi_table(&xl, touch_only);
		}
	}
	tt_xi_list_clear(&xl);

	if (list.naccess)
		tt_warning("%zu device%s could not be read: run as root, or join the group "
			   "'input' (sudo usermod -aG input $USER, then log in again)",
			   list.naccess, list.naccess == 1 ? "" : "s");
	if (list.n && list.nerrors == list.n)
		status = TT_EXIT_TROUBLE;
	tt_input_list_clear(&list);
	return status;
}
