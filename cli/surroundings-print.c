/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "surroundings-print.h"
#include "util-mem.h"

void
tt_sur_system_text(const struct tt_header *h, const char *lead, FILE *out)
{
	const char *sep = ": ";

	if (!h || (!h->os_id && !h->libinput_version && !h->libevdev_version && !h->dmi_modalias))
		return;
	fprintf(out, "%ssystem", lead);
	if (h->os_id) {
		fprintf(out, "%s%s%s%s", sep, h->os_id, h->os_version_id ? " " : "",
			h->os_version_id ? h->os_version_id : "");
		sep = ", ";
	}
	if (h->libinput_version) {
		fprintf(out, "%slibinput %s", sep, h->libinput_version);
		sep = ", ";
	}
	if (h->libevdev_version)
		fprintf(out, "%slibevdev %s", sep, h->libevdev_version);
	fputc('\n', out);
	if (h->dmi_modalias)
		fprintf(out, "%sDMI: %s\n", lead, h->dmi_modalias);
}

bool
tt_sur_is_key_property(const struct tt_device *d, const char *name)
{
	return strncmp(name, "ID_INPUT", 8) == 0 || strncmp(name, "LIBINPUT_", 9) == 0 ||
	       tt_properties_get(d->hwdb, d->nhwdb, name) != NULL;
}

static void
properties_line(const struct tt_device *d, const char *lead, FILE *out)
{
	bool any = false;

	for (uint32_t i = 0; i < d->nudev; i++) {
		if (!tt_sur_is_key_property(d, d->udev[i].name))
			continue;
		fprintf(out, "%s %s=%s", any ? "" : lead, d->udev[i].name, d->udev[i].value);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

void
tt_sur_device_text(const struct tt_device *d, const char *lead, bool all, FILE *out)
{
	if (d->driver)
		fprintf(out, "%sdriver: %s\n", lead, d->driver);
	if (all && d->syspath)
		fprintf(out, "%ssyspath: %s\n", lead, d->syspath);
	if (d->has_udev && all) {
		for (uint32_t i = 0; i < d->nudev; i++)
			fprintf(out, "%sudev %s=%s\n", lead, d->udev[i].name, d->udev[i].value);
	} else if (d->has_udev) {
		_cleanup_free_ char *l = NULL;
		if (asprintf(&l, "%sudev:", lead) < 0)
			abort();
		properties_line(d, l, out);
	}
	for (uint32_t i = 0; all && i < d->nhwdb; i++)
		fprintf(out, "%shwdb %s=%s\n", lead, d->hwdb[i].name, d->hwdb[i].value);
	if (d->has_quirks && !d->nquirks)
		fprintf(out, "%squirks: none matched\n", lead);
	for (uint32_t i = 0; i < d->nquirks; i++)
		fprintf(out, "%squirk %s\n", lead, d->quirks[i]);
}

static void
string_member(struct tt_json_emit *j, const char *k, const char *s)
{
	if (s)
		tt_json_emit_member_string(j, k, s);
}

void
tt_sur_system_json(const struct tt_header *h, struct tt_json_emit *j)
{
	if (!h || (!h->os_id && !h->os_version_id && !h->libinput_version && !h->libevdev_version &&
	    !h->dmi_modalias))
		return;
	tt_json_emit_key(j, "system");
	tt_json_emit_object_begin(j);
	string_member(j, "dmi_modalias", h->dmi_modalias);
	string_member(j, "os_id", h->os_id);
	string_member(j, "os_version_id", h->os_version_id);
	string_member(j, "libinput_version", h->libinput_version);
	string_member(j, "libevdev_version", h->libevdev_version);
	tt_json_emit_object_end(j);
}

static void
properties_json(struct tt_json_emit *j, const char *k, const struct tt_property *p, uint32_t n)
{
	tt_json_emit_key(j, k);
	tt_json_emit_object_begin(j);
	for (uint32_t i = 0; i < n; i++)
		tt_json_emit_member_string(j, p[i].name, p[i].value);
	tt_json_emit_object_end(j);
}

void
tt_sur_device_json(const struct tt_device *d, struct tt_json_emit *j)
{
	string_member(j, "driver", d->driver);
	string_member(j, "syspath", d->syspath);
	if (d->has_udev) {
		properties_json(j, "udev", d->udev, d->nudev);
		properties_json(j, "hwdb", d->hwdb, d->nhwdb);
	}
	if (!d->has_quirks)
		return;
	tt_json_emit_key(j, "quirks");
	tt_json_emit_array_begin(j);
	for (uint32_t i = 0; i < d->nquirks; i++)
		tt_json_emit_string(j, d->quirks[i]);
	tt_json_emit_array_end(j);
}

void
tt_sur_device_copy(struct tt_device *dst, const struct tt_device *src)
{
	tt_device_clear_surroundings(dst);
	dst->syspath = src->syspath ? tt_strdup(src->syspath) : NULL;
	dst->driver = src->driver ? tt_strdup(src->driver) : NULL;
	dst->has_udev = src->has_udev;
	for (uint32_t i = 0; i < src->nudev; i++)
		(void)tt_properties_add(&dst->udev, &dst->nudev, src->udev[i].name, src->udev[i].value);
	for (uint32_t i = 0; i < src->nhwdb; i++)
		(void)tt_properties_add(&dst->hwdb, &dst->nhwdb, src->hwdb[i].name, src->hwdb[i].value);
	dst->has_quirks = src->has_quirks;
	for (uint32_t i = 0; i < src->nquirks; i++)
		(void)tt_device_add_quirk(dst, src->quirks[i]);
}
