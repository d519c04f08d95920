/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <X11/Xatom.h>

#include "util-mem.h"
#include "util-strings.h"
#include "xi-convert.h"

static void
start(struct tt_xi_event *out, int32_t evtype, uint32_t server_time, int64_t time_us,
      const char *client)
{
	memset(out, 0, sizeof(*out));
	out->evtype = evtype;
	out->server_time = server_time;
	out->time_us = time_us;
	out->client = client ? tt_strdup(client) : NULL;
}

/* The header every device-specific event has. */
static void
start_dev(struct tt_xi_event *out, int32_t evtype, Time server_time, int64_t time_us,
	  const char *client, int deviceid, int sourceid)
{
	start(out, evtype, (uint32_t)server_time, time_us, client);
	out->deviceid = deviceid;
	out->sourceid = sourceid;
}

static bool
mask_bit(const unsigned char *mask, int mask_len, unsigned int bit)
{
	return mask && bit / 8 < (unsigned int)mask_len && (mask[bit / 8] & (1u << (bit % 8)));
}

/* The k-th set bit of the mask has its value at values[k]. At most
 * TT_MAX_XI_VALUATORS are kept; the mask is read only as far as the values
 * go (a hostile mask_len cannot make us read past mask_len bytes). */
static void
copy_valuators(const XIValuatorState *vs, const double *raw, struct tt_xi_event *out)
{
	uint32_t n = 0;
	unsigned int nbits;

	if (!vs->mask || vs->mask_len <= 0 || !vs->values)
		return;
	nbits = (unsigned int)vs->mask_len * 8;
	for (unsigned int b = 0; b < nbits && n < TT_MAX_XI_VALUATORS; b++)
		n += mask_bit(vs->mask, vs->mask_len, b);
	if (!n)
		return;
	out->valuator_numbers = tt_reallocarray(NULL, n, sizeof(*out->valuator_numbers));
	out->valuator_values = tt_reallocarray(NULL, n, sizeof(*out->valuator_values));
	if (raw)
		out->raw_values = tt_reallocarray(NULL, n, sizeof(*out->raw_values));
	uint32_t k = 0;
	for (unsigned int b = 0; b < nbits && k < n; b++) {
		if (!mask_bit(vs->mask, vs->mask_len, b))
			continue;
		out->valuator_numbers[k] = (int32_t)b;
		out->valuator_values[k] = vs->values[k];
		if (raw)
			out->raw_values[k] = raw[k];
		k++;
	}
	out->nvaluators = n;
}

static void
copy_buttons(const XIButtonState *bs, struct tt_xi_event *out)
{
	uint32_t n = 0;
	unsigned int nbits;

	if (!bs->mask || bs->mask_len <= 0)
		return;
	nbits = (unsigned int)bs->mask_len * 8;
	if (nbits > TT_MAX_XI_BUTTONS)
		nbits = TT_MAX_XI_BUTTONS;
	for (unsigned int b = 0; b < nbits; b++)
		n += mask_bit(bs->mask, bs->mask_len, b);
	if (!n)
		return;
	out->buttons = tt_reallocarray(NULL, n, sizeof(*out->buttons));
	for (unsigned int b = 0; b < nbits; b++) {
		if (mask_bit(bs->mask, bs->mask_len, b))
			out->buttons[out->nbuttons++] = (int32_t)b;
	}
}

void
tt_xi_convert_device_event(const XIDeviceEvent *ev, int64_t time_us, const char *client,
			   struct tt_xi_event *out)
{
	start_dev(out, ev->evtype, ev->time, time_us, client, ev->deviceid, ev->sourceid);
	out->detail = (uint32_t)ev->detail;
	out->flags = (uint32_t)ev->flags;
	out->root_x = ev->root_x;
	out->root_y = ev->root_y;
	out->event_x = ev->event_x;
	out->event_y = ev->event_y;
	out->root = (uint32_t)ev->root;
	out->event = (uint32_t)ev->event;
	out->child = (uint32_t)ev->child;
	copy_valuators(&ev->valuators, NULL, out);
	copy_buttons(&ev->buttons, out);
	out->mods_base = ev->mods.base;
	out->mods_latched = ev->mods.latched;
	out->mods_locked = ev->mods.locked;
	out->mods_effective = ev->mods.effective;
	out->group_base = ev->group.base;
	out->group_latched = ev->group.latched;
	out->group_locked = ev->group.locked;
	out->group_effective = ev->group.effective;
}

void
tt_xi_convert_raw_event(const XIRawEvent *ev, int64_t time_us, const char *client,
			struct tt_xi_event *out)
{
	start_dev(out, ev->evtype, ev->time, time_us, client, ev->deviceid, ev->sourceid);
	out->detail = (uint32_t)ev->detail;
	out->flags = (uint32_t)ev->flags;
	copy_valuators(&ev->valuators, ev->raw_values, out);
}

void
tt_xi_convert_ownership(const XITouchOwnershipEvent *ev, int64_t time_us, const char *client,
			struct tt_xi_event *out)
{
	start_dev(out, ev->evtype, ev->time, time_us, client, ev->deviceid, ev->sourceid);
	out->touchid = ev->touchid;
	out->flags = (uint32_t)ev->flags;
	out->root = (uint32_t)ev->root;
	out->event = (uint32_t)ev->event;
	out->child = (uint32_t)ev->child;
}

void
tt_xi_convert_hierarchy(const XIHierarchyEvent *ev, int64_t time_us, const char *client,
			struct tt_xi_event *out)
{
	uint32_t n;

	start(out, ev->evtype, (uint32_t)ev->time, time_us, client);
	out->flags = (uint32_t)ev->flags;
	if (!ev->info || ev->num_info <= 0)
		return;
	n = (uint32_t)ev->num_info;
	if (n > TT_MAX_XI_CHANGES)
		n = TT_MAX_XI_CHANGES;
	out->changes = tt_reallocarray(NULL, n, sizeof(*out->changes));
	for (uint32_t i = 0; i < n; i++) {
		const XIHierarchyInfo *in = &ev->info[i];
		struct tt_xi_change *c = &out->changes[i];
		c->deviceid = in->deviceid;
		c->attachment = in->attachment;
		c->use = in->use;
		c->enabled = in->enabled != 0;
		c->flags = (uint32_t)in->flags;
	}
	out->nchanges = n;
}

void
tt_xi_convert_device_changed(const XIDeviceChangedEvent *ev, int64_t time_us, const char *client,
			     struct tt_xi_event *out)
{
	start_dev(out, ev->evtype, ev->time, time_us, client, ev->deviceid, ev->sourceid);
	out->reason = ev->reason;
}

int
tt_xi_convert_cookie(int evtype, const void *data, int64_t time_us, const char *client,
		     struct tt_xi_event *out)
{
	if (!data)
		return -EINVAL;
	switch (evtype) {
	case XI_KeyPress:
	case XI_KeyRelease:
	case XI_ButtonPress:
	case XI_ButtonRelease:
	case XI_Motion:
	case XI_TouchBegin:
	case XI_TouchUpdate:
	case XI_TouchEnd:
		tt_xi_convert_device_event(data, time_us, client, out);
		return 0;
	case XI_RawKeyPress:
	case XI_RawKeyRelease:
	case XI_RawButtonPress:
	case XI_RawButtonRelease:
	case XI_RawMotion:
	case XI_RawTouchBegin:
	case XI_RawTouchUpdate:
	case XI_RawTouchEnd:
		tt_xi_convert_raw_event(data, time_us, client, out);
		return 0;
	case XI_TouchOwnership:
		tt_xi_convert_ownership(data, time_us, client, out);
		return 0;
	case XI_HierarchyChanged:
		tt_xi_convert_hierarchy(data, time_us, client, out);
		return 0;
	case XI_DeviceChanged:
		tt_xi_convert_device_changed(data, time_us, client, out);
		return 0;
	default:
		return -ENOTSUP;
	}
}

void
tt_xi_convert_request(bool accept, int32_t deviceid, uint32_t touchid, uint32_t window,
		      int64_t time_us, const char *client, struct tt_xi_event *out)
{
	start(out, accept ? TT_XI_REQ_ACCEPT : TT_XI_REQ_REJECT, 0, time_us, client);
	out->deviceid = deviceid;
	out->touchid = touchid;
	out->event = window;
}

void
tt_xi_convert_pointer_request(int32_t evtype, int32_t deviceid, uint32_t mode, uint32_t window,
			      int64_t time_us, const char *client, struct tt_xi_event *out)
{
	start(out, evtype, 0, time_us, client);
	out->deviceid = deviceid;
	out->detail = mode;
	out->event = window;
}

static char *
sanitized(const char *s)
{
	return s ? tt_str_sanitize(s, strnlen(s, TT_MAX_STRING_BYTES), TT_MAX_STRING_BYTES) : NULL;
}

static void
add_valuator(struct tt_xi_device *d, const XIValuatorClassInfo *v, tt_xi_atom_name_fn atom_name,
	     void *atom_data)
{
	struct tt_xi_valuator *out;
	_cleanup_free_ char *label = NULL;

	if (d->nvaluators >= TT_MAX_XI_VALUATORS)
		return;
	d->valuators = tt_reallocarray(d->valuators, d->nvaluators + 1, sizeof(*d->valuators));
	out = &d->valuators[d->nvaluators++];
	memset(out, 0, sizeof(*out));
	out->number = v->number;
	if (v->label != None && atom_name)
		label = atom_name(atom_data, v->label);
	out->label = sanitized(label);
	out->min = v->min;
	out->max = v->max;
	out->value = v->value;
	out->resolution = v->resolution;
	out->mode = v->mode;
}

struct tt_xi_device *
tt_xi_convert_device_info(const XIDeviceInfo *info, tt_xi_atom_name_fn atom_name, void *atom_data,
			  const char *device_node, int64_t evdev_device)
{
	struct tt_xi_device *d = tt_zalloc(sizeof(*d));

	d->id = (uint32_t)info->deviceid;
	d->deviceid = info->deviceid;
	d->name = sanitized(info->name ? info->name : "");
	d->use = info->use;
	d->attachment = info->attachment;
	d->enabled = info->enabled != 0;
	d->touch_mode = TT_XI_TOUCH_NONE;
	d->device_node = sanitized(device_node);
	d->evdev_device = evdev_device;
	for (int i = 0; info->classes && i < info->num_classes; i++) {
		const XIAnyClassInfo *c = info->classes[i];
		if (!c)
			continue;
		switch (c->type) {
		case XIButtonClass:
			d->num_buttons = ((const XIButtonClassInfo *)c)->num_buttons;
			break;
		case XIValuatorClass:
			add_valuator(d, (const XIValuatorClassInfo *)c, atom_name, atom_data);
			break;
		case XITouchClass: {
			const XITouchClassInfo *t = (const XITouchClassInfo *)c;
			d->touch_mode = t->mode == XIDirectTouch ? TT_XI_TOUCH_DIRECT :
					t->mode == XIDependentTouch ? TT_XI_TOUCH_DEPENDENT :
					TT_XI_TOUCH_NONE;
			d->num_touches = t->num_touches;
			break;
		}
		default:
			break;
		}
	}
	return d;
}

char *
tt_xi_device_node(Atom type, int format, unsigned long nitems, const unsigned char *data)
{
	size_t len;

	if (type != XA_STRING || format != 8 || !data || nitems == 0)
		return NULL;
	len = strnlen((const char *)data, nitems < TT_MAX_STRING_BYTES ? nitems : TT_MAX_STRING_BYTES);
	if (len == 0)
		return NULL;
	return tt_str_sanitize((const char *)data, len, TT_MAX_STRING_BYTES);
}
