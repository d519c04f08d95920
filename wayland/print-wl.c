/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "print-wl.h"
#include "util-strings.h"

/* Writes ", " before every argument but the first. */
struct args {
	FILE *out;
	bool any;
};

static void
arg(struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
arg(struct args *a, const char *fmt, ...)
{
	va_list ap;

	if (a->any)
		fputs(", ", a->out);
	a->any = true;
	va_start(ap, fmt);
	vfprintf(a->out, fmt, ap);
	va_end(ap);
}

static void
print_capabilities(struct args *a, uint32_t caps)
{
	const char *sep = "";

	arg(a, "capabilities ");
	for (unsigned int bit = 0; bit < 3; bit++) {
		if (caps & (1u << bit)) {
			fprintf(a->out, "%s%s", sep, tt_wl_capability_name(1u << bit));
			sep = "|";
		}
	}
	if (!*sep)
		fputs("none", a->out);
}

static void
print_input_args(struct args *a, const struct tt_wl_event *ev)
{
	uint32_t f = ev->fields;

	if (f & TT_WL_F_SERIAL) arg(a, "serial %" PRIu32, ev->serial);
	if (f & TT_WL_F_TIME_MS) arg(a, "time %" PRIu32, ev->time_ms);
	if (f & TT_WL_F_TIME_COMPOSITOR_US) arg(a, "time_us %" PRId64, ev->time_compositor_us);
	if (f & TT_WL_F_SURFACE) arg(a, "surface %" PRIu32, ev->surface);
	if (f & TT_WL_F_XY) arg(a, "x %.2f, y %.2f", ev->x, ev->y);
	if (f & TT_WL_F_SHAPE) arg(a, "major %.2f, minor %.2f", ev->major, ev->minor);
	if (f & TT_WL_F_ORIENTATION) arg(a, "orientation %.2f", ev->orientation);
	if (f & TT_WL_F_BUTTON) arg(a, "button %" PRIu32 " %s", ev->button, ev->pressed ? "pressed" : "released");
	if (f & TT_WL_F_AXIS) arg(a, "axis %s", ev->axis == 0 ? "vertical" : ev->axis == 1 ? "horizontal" : "?");
	if (f & TT_WL_F_VALUE) arg(a, "value %.2f", ev->value);
	if (f & TT_WL_F_STEPS) arg(a, "%" PRId32, ev->steps);
	if (f & TT_WL_F_FINGERS) arg(a, "fingers %" PRIu32, ev->fingers);
	if (f & TT_WL_F_DELTA) arg(a, "dx %.2f, dy %.2f", ev->dx, ev->dy);
	if (f & TT_WL_F_SCALE) arg(a, "scale %g", ev->scale);
	if (f & TT_WL_F_ROTATION) arg(a, "rotation %.2f", ev->rotation);
	if (f & TT_WL_F_CANCELLED) arg(a, "cancelled %s", ev->cancelled ? "yes" : "no");
}

static void
print_output_args(struct args *a, const struct tt_wl_event *ev)
{
	uint32_t f = ev->fields;

	if (f & TT_WL_F_CAPABILITIES) print_capabilities(a, ev->capabilities);
	/* Names come from the compositor: sanitized by the reader, quoted
	 * here so an empty one shows. */
	if (f & TT_WL_F_NAME) arg(a, "\"%s\"", ev->name ? ev->name : "");
	if (f & TT_WL_F_POSITION) arg(a, "at %" PRId32 ",%" PRId32, ev->pos_x, ev->pos_y);
	if (f & TT_WL_F_SIZE) arg(a, "%" PRId32 "x%" PRId32, ev->width, ev->height);
	if (f & TT_WL_F_SIZE_MM) arg(a, "%" PRId32 "x%" PRId32 " mm", ev->width_mm, ev->height_mm);
	if (f & TT_WL_F_MAKE_MODEL) arg(a, "\"%s\" \"%s\"", ev->make ? ev->make : "", ev->model ? ev->model : "");
	if (f & TT_WL_F_SUBPIXEL) arg(a, "subpixel %" PRId32, ev->subpixel);
	if (f & TT_WL_F_TRANSFORM) arg(a, "transform %" PRId32, ev->transform);
	if (f & TT_WL_F_MODE_FLAGS) arg(a, "flags 0x%" PRIx32, ev->mode_flags);
	if (f & TT_WL_F_REFRESH) arg(a, "%.3f Hz", ev->refresh_mhz / 1000.0);
}

void
print_wl_event(FILE *out, const struct tt_wl_event *ev)
{
	bool known = ev->kind != TT_WL_OTHER;
	struct args a = { out, false };
	char ts[32];
	char id[16] = "";

	tt_format_time(ts, sizeof(ts), ev->time_us);
	if (ev->fields & TT_WL_F_ID)
		snprintf(id, sizeof(id), "id %" PRId32, ev->id);
	fprintf(out, "%s WL    %-8s %s@%" PRIu32 ".%s(", ts, id,
		known ? tt_wl_interface_name(ev->kind) : ev->interface, ev->object,
		known ? tt_wl_event_name(ev->kind) : ev->event);
	print_input_args(&a, ev);
	print_output_args(&a, ev);
	fputc(')', out);
}
