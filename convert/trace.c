/* SPDX-License-Identifier: MIT */
/* convert --format trace: the recording, its devices and its diagnostics
 * (trace.h); the touches are trace-touches.c's. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-private.h"
#include "util-strings.h"

int64_t
trace_pid(enum trace_layer layer, int64_t id)
{
	/* Ids past the span (hostile files) share its last pid. */
	if (id < 0 || id >= TRACE_PID_SPAN - 1)
		id = TRACE_PID_SPAN - 1;
	return (int64_t)layer * TRACE_PID_SPAN + id + (layer == TRACE_RECORDING ? 1 : 0);
}

static void
name_recording(struct tt_trace *t)
{
	int64_t pid = trace_pid(TRACE_RECORDING, 0);

	trace_process(&t->w, pid, "recording", 0);
	trace_thread(&t->w, pid, TRACE_TID_DIAG, "diagnostics");
	trace_thread(&t->w, pid, TRACE_TID_MARKERS, "markers");
}

void
trace_name_xi(struct tt_trace *t, int32_t sourceid)
{
	char name[160];
	const char *dev = sourceid >= 0 && sourceid < TRACE_XI_NAMES ? t->xi_names[sourceid] : NULL;

	snprintf(name, sizeof(name), "XI device %d%s%s", sourceid, dev ? ": " : "", dev ? dev : "");
	trace_process(&t->w, trace_pid(TRACE_XI, sourceid), name, 3 * TRACE_PID_SPAN + sourceid);
}

void
trace_name_li(struct tt_trace *t, uint32_t device)
{
	char name[64];

	snprintf(name, sizeof(name), "libinput on evdev device %u", device);
	trace_process(&t->w, trace_pid(TRACE_LI, device), name, 4 * TRACE_PID_SPAN + device);
}

void
trace_name_wl(struct tt_trace *t)
{
	trace_process(&t->w, trace_pid(TRACE_WL, 0), "Wayland", 5 * TRACE_PID_SPAN);
}

static void
name_device(struct tt_trace *t, enum trace_layer layer, uint32_t id, const char *what, const char *devname)
{
	char name[200];

	snprintf(name, sizeof(name), "%s %u: %s", what, id, devname ? devname : "");
	trace_process(&t->w, trace_pid(layer, id), name, (int64_t)layer * TRACE_PID_SPAN + id);
}

static void
keep_xi_name(struct tt_trace *t, const struct tt_xi_device *d)
{
	if (d->deviceid < 0 || d->deviceid >= TRACE_XI_NAMES || !d->name)
		return;
	free(t->xi_names[d->deviceid]);
	t->xi_names[d->deviceid] = strdup(d->name);
}

static void
marker(struct tt_trace *t, const struct tt_marker *m, size_t line)
{
	struct trace_track track = { trace_pid(TRACE_RECORDING, 0), TRACE_TID_MARKERS };

	trace_event(&t->w, 'i', m->kind_name ? m->kind_name : "marker", "marker", m->time_us, &track);
	tt_json_emit_member_string(&t->w.j, "s", "t");
	trace_args_begin(&t->w);
	tt_json_emit_member_int(&t->w.j, "line", (int64_t)line);
	if (m->device >= 0)
		tt_json_emit_member_int(&t->w.j, "device", m->device);
	if (m->text)
		tt_json_emit_member_string(&t->w.j, "text", m->text);
	trace_args_end(&t->w);
	trace_event_end(&t->w);
	t->w.ninstants++;
}

void
tt_trace_feed(struct tt_trace *t, const struct tt_record *rec)
{
	switch (rec->type) {
	case TT_RECORD_DEVICE:
		name_device(t, TRACE_KERNEL, rec->device->id, "kernel evdev device", rec->device->name);
		break;
	case TT_RECORD_HID_DEVICE:
		name_device(t, TRACE_HID, rec->hid_device->id, "HID device", rec->hid_device->name);
		break;
	case TT_RECORD_XI_DEVICE: keep_xi_name(t, rec->xi_device); break;
	case TT_RECORD_MARKER: marker(t, rec->marker, rec->line); break;
	default: break;
	}
	tt_stack_feed(t->stack, rec);
}

static void
diag_args(struct trace_writer *w, const struct tt_diag *d)
{
	trace_args_begin(w);
	tt_json_emit_member_string(&w->j, "severity", tt_severity_name(d->severity));
	tt_json_emit_member_string(&w->j, "message", d->message);
	if (d->line)
		tt_json_emit_member_int(&w->j, "line", (int64_t)d->line);
	if (d->device >= 0)
		tt_json_emit_member_int(&w->j, "device", d->device);
	if (d->slot >= 0)
		tt_json_emit_member_int(&w->j, "slot", d->slot);
	if (d->tracking_id >= 0)
		tt_json_emit_member_int(&w->j, "tracking_id", d->tracking_id);
	if (d->touchid >= 0)
		tt_json_emit_member_int(&w->j, "touchid", d->touchid);
	if (d->client[0])
		tt_json_emit_member_string(&w->j, "client", d->client);
	trace_args_end(w);
}

/* Every diagnostic of the stack, each an instant named by the catalog;
 * one about the whole file sits at 0. */
static void
on_diag(void *data, const struct tt_diag *d)
{
	struct tt_trace *t = data;
	struct trace_track track = { trace_pid(TRACE_RECORDING, 0), TRACE_TID_DIAG };

	trace_event(&t->w, 'i', tt_check_name(d->check), "diagnostic", d->time_us > 0 ? d->time_us : 0, &track);
	tt_json_emit_member_string(&t->w.j, "s", "t");
	diag_args(&t->w, d);
	trace_event_end(&t->w);
	t->w.ninstants++;
}

void
tt_trace_reader_error(struct tt_trace *t, const char *file, const char *message)
{
	tt_stack_reader_error(t->stack, file, message);
}

int
tt_trace_new(FILE *out, struct tt_trace **tp)
{
	struct tt_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->out = out;
	t->stack = tt_stack_new(NULL, on_diag, t);
	if (!t->stack) {
		free(t);
		return -ENOMEM;
	}
	trace_writer_begin(&t->w, out);
	name_recording(t);
	trace_touches_subscribe(t);
	*tp = t;
	return 0;
}

int
tt_trace_finish(struct tt_trace *t, struct tt_trace_counts *counts)
{
	tt_stack_finish(t->stack);
	if (counts)
		*counts = (struct tt_trace_counts){ t->w.nslices, t->w.nflows, t->w.ncounters, t->w.ninstants };
	return trace_writer_end(&t->w, t->out);
}

void
tt_trace_free(struct tt_trace *t)
{
	if (!t)
		return;
	tt_stack_free(t->stack);
	trace_lanes_clear(t);
	trace_writer_release(&t->w);
	for (size_t i = 0; i < TRACE_XI_NAMES; i++)
		free(t->xi_names[i]);
	free(t);
}
