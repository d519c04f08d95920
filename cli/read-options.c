/* SPDX-License-Identifier: MIT */
/* The reading options shared by every command: see read-options.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "json-emit.h"
#include "log.h"
#include "grade.h"
#include "read-options.h"
#include "reader.h"
#include "util-strings.h"

void
tt_read_options_init(struct tt_read_options *ro, const char *cmd, unsigned int caps)
{
	*ro = (struct tt_read_options){ .cmd = cmd, .caps = caps };
}

void
tt_read_options_clear(struct tt_read_options *ro)
{
	free(ro->devices);
	ro->devices = NULL;
	ro->ndevices = 0;
	free(ro->hid_devices);
	ro->hid_devices = NULL;
	ro->nhid_devices = 0;
	if (ro->hid)
		free(ro->hid->kept);
	free(ro->hid);
	ro->hid = NULL;
}

static int
unsupported(const struct tt_read_options *ro, const char *opt, const char *why)
{
	return tt_usage_error(ro->cmd, "%s: %s", opt, why);
}

static void
add_id(uint32_t **ids, size_t *n, uint32_t id)
{
	*ids = tt_reallocarray(*ids, *n + 1, sizeof(**ids));
	(*ids)[(*n)++] = id;
}

static bool
has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

/* "5" is evdev device 5, "hid5" HID device 5 (print's "# HID device 5"). */
static int
take_device(struct tt_read_options *ro, const char *arg)
{
	bool hid = strncmp(arg, "hid", 3) == 0;
	int64_t v;

	if (!(ro->caps & (TT_READ_DEVICE | TT_READ_DEVICES)))
		return unsupported(ro, "--device", "this command reads every device (--device is for print, "
				   "validate, analyze, inspect, convert, replay and diff)");
	if (tt_parse_int64(arg + (hid ? 3 : 0), &v) < 0 || v < 0 || v > UINT32_MAX)
		return tt_usage_error(ro->cmd, "--device takes a device id (0) or a HID device id (hid0), "
				      "as 'touchtape print' shows, not '%s'", arg);
	if ((ro->ndevices || ro->nhid_devices) && !(ro->caps & TT_READ_DEVICES))
		return tt_usage_error(ro->cmd, "--device: one device at a time");
	if (hid)
		add_id(&ro->hid_devices, &ro->nhid_devices, (uint32_t)v);
	else
		add_id(&ro->devices, &ro->ndevices, (uint32_t)v);
	if (!ro->hid)
		ro->hid = tt_zalloc(sizeof(*ro->hid));
	return 1;
}

static int
take_time(struct tt_read_options *ro, int opt, const char *arg)
{
	const char *name = opt == TT_OPT_FROM ? "--from" : "--to";
	int64_t v;

	if (!(ro->caps & TT_READ_TIME))
		return unsupported(ro, name, "this command reads the whole recording (--from and --to are for "
				   "print, validate, analyze, inspect, convert, replay and diff)");
	if (tt_parse_duration_us(arg, &v) < 0)
		return tt_usage_error(ro->cmd, "%s takes a time in the recording (1.5, 250ms, 2s, 1m), not '%s'",
				      name, arg);
	if (opt == TT_OPT_FROM) {
		ro->from_us = v;
		ro->have_from = true;
	} else {
		ro->to_us = v;
		ro->have_to = true;
	}
	return 1;
}

int
tt_read_option(struct tt_read_options *ro, int opt, const char *arg)
{
	switch (opt) {
	case TT_OPT_DESC:
		ro->desc = arg;
		return 1;
	case TT_OPT_DEVICE:
		return take_device(ro, arg);
	case TT_OPT_FROM:
	case TT_OPT_TO:
		return take_time(ro, opt, arg);
	default:
		return 0;
	}
}

int
tt_read_options_check(const struct tt_read_options *ro)
{
	if (ro->have_from && ro->have_to && ro->to_us <= ro->from_us)
		return tt_usage_error(ro->cmd, "--to must be after --from");
	return 0;
}

bool
tt_read_options_has_device(const struct tt_read_options *ro, uint32_t id)
{
	if (!ro->ndevices && !ro->nhid_devices)
		return true;
	return has_id(ro->devices, ro->ndevices, id);
}

bool
tt_read_options_has_hid_device(const struct tt_read_options *ro, const struct tt_hid_device *d)
{
	if (!ro->ndevices && !ro->nhid_devices)
		return true;
	if (has_id(ro->hid_devices, ro->nhid_devices, d->id))
		return true;
	for (uint32_t i = 0; i < d->nevdev; i++) {
		if (has_id(ro->devices, ro->ndevices, d->evdev_devices[i]))
			return true;
	}
	return false;
}

/* A HID device record decides for the reports that follow it: they
 * name only their HID device. */
static bool
keep_hid_device(const struct tt_read_options *ro, const struct tt_hid_device *d)
{
	struct tt_read_hid *h = ro->hid;
	bool keep = tt_read_options_has_hid_device(ro, d);

	if (keep && h && !has_id(h->kept, h->nkept, d->id))
		add_id(&h->kept, &h->nkept, d->id);
	return keep;
}

static bool
keep_hid_report(const struct tt_read_options *ro, const struct tt_hid_report *r)
{
	return !ro->hid || has_id(ro->hid->kept, ro->hid->nkept, r->device);
}

static bool
in_time(const struct tt_read_options *ro, int64_t t)
{
	return (!ro->have_from || t >= ro->from_us) && (!ro->have_to || t <= ro->to_us);
}

bool
tt_read_options_keep_device(const struct tt_read_options *ro, const struct tt_record *rec)
{
	switch (rec->type) {
	case TT_RECORD_FRAME: return tt_read_options_has_device(ro, rec->frame->device);
	case TT_RECORD_HID_DEVICE: return keep_hid_device(ro, rec->hid_device);
	case TT_RECORD_HID_REPORT: return keep_hid_report(ro, rec->hid_report);
	default: return true;
	}
}

bool
tt_read_options_in_window(const struct tt_read_options *ro, const struct tt_record *rec)
{
	int64_t t;

	return !tt_record_time(rec, &t) || in_time(ro, t);
}

bool
tt_read_options_keep(const struct tt_read_options *ro, const struct tt_record *rec)
{
	return tt_read_options_keep_device(ro, rec) && tt_read_options_in_window(ro, rec);
}

bool
tt_read_options_has_window(const struct tt_read_options *ro)
{
	return ro->have_from || ro->have_to;
}

bool
tt_read_options_overlaps(const struct tt_read_options *ro, int64_t begin_us, int64_t end_us)
{
	return (!ro->have_from || end_us >= ro->from_us) && (!ro->have_to || begin_us <= ro->to_us);
}

bool
tt_read_options_keep_diag(const struct tt_read_options *ro, const struct tt_diag *d,
			  const struct tt_record *feeding)
{
	int64_t t;

	if (d->check == TT_CHECK_BAD_LINE || d->check == TT_CHECK_READER_WARNING || d->line == 0)
		return true;
	if (feeding && !tt_record_time(feeding, &t))
		return true;
	return in_time(ro, d->time_us);
}

int
tt_read_options_check_end(const struct tt_read_options *ro, const char *name, bool have_time, int64_t last_us)
{
	char tb[32];

	if (!ro->have_from || (have_time && ro->from_us <= last_us))
		return 0;
	return tt_usage_error(ro->cmd, "--from %s s is past the end of %s: nothing at or after it",
			      tt_format_time(tb, sizeof(tb), ro->from_us), name);
}

bool
tt_read_options_note(struct tt_read_options *ro, const struct tt_reader *r, const struct tt_record *rec)
{
	int64_t t;

	if (tt_record_time(rec, &t))
		ro->from_reached = true;
	if (ro->have_from && !ro->from_reached)
		return false;
	for (size_t i = 0; i < ro->ndevices; i++) {
		if (!tt_reader_device(r, ro->devices[i]))
			return false;
	}
	for (size_t i = 0; i < ro->nhid_devices; i++) {
		if (!tt_reader_hid_device(r, ro->hid_devices[i]))
			return false;
	}
	return true;
}

int
tt_read_options_check_reached(const struct tt_read_options *ro, const char *name)
{
	return tt_read_options_check_end(ro, name, ro->from_reached, ro->from_us);
}

static void
bound_json(struct tt_json_emit *j, const char *key, bool have, int64_t us)
{
	tt_json_emit_key(j, key);
	if (have)
		tt_json_emit_int(j, us);
	else
		tt_json_emit_null(j);
}

void
tt_read_options_window_json(const struct tt_read_options *ro, struct tt_json_emit *j)
{
	bound_json(j, "from_us", ro->have_from, ro->from_us);
	bound_json(j, "to_us", ro->have_to, ro->to_us);
}

void
tt_read_options_window_text(const struct tt_read_options *ro, FILE *out)
{
	char tb[32];

	if (!tt_read_options_has_window(ro))
		return;
	fputs(" (", out);
	if (ro->have_from)
		fprintf(out, "from %s s%s", tt_format_time(tb, sizeof(tb), ro->from_us), ro->have_to ? " " : "");
	if (ro->have_to)
		fprintf(out, "to %s s", tt_format_time(tb, sizeof(tb), ro->to_us));
	fputc(')', out);
}

int
tt_read_options_finish(const struct tt_read_options *ro, struct tt_reader *r)
{
	for (size_t i = 0; i < ro->ndevices; i++) {
		if (tt_reader_device(r, ro->devices[i]))
			continue;
		tt_error("%s: there is no device %" PRIu32 " (--device; 'touchtape print' lists the devices)",
			 tt_reader_name(r), ro->devices[i]);
		return -ENODEV;
	}
	for (size_t i = 0; i < ro->nhid_devices; i++) {
		if (tt_reader_hid_device(r, ro->hid_devices[i]))
			continue;
		tt_error("%s: there is no HID device %" PRIu32 " (--device hid%" PRIu32
			 "; 'touchtape print' lists the devices)", tt_reader_name(r), ro->hid_devices[i],
			 ro->hid_devices[i]);
		return -ENODEV;
	}
	return 0;
}

int
tt_read_positive_option(const char *cmd, const char *opt, const char *arg, double *out)
{
	double v;

	if (tt_parse_double(arg, &v) < 0 || !(v > 0) || !isfinite(v))
		return tt_usage_error(cmd, "%s takes a positive number, not '%s'", opt, arg);
	*out = v;
	return 0;
}

int
tt_read_refresh_option(const char *cmd, const char *arg, double *hz)
{
	return tt_read_positive_option(cmd, "--refresh", arg, hz);
}

int
tt_read_grade_option(const char *cmd, const char *arg, struct tt_grade_profile **profile)
{
	_cleanup_free_ char *error = NULL;

	if (*profile)
		return tt_usage_error(cmd, "--grade given twice");
	if (tt_grade_profile_load(arg, profile, &error) < 0) {
		tt_error("%s", error ? error : "cannot read the profile");
		return TT_EXIT_TROUBLE;
	}
	return 0;
}
