/* SPDX-License-Identifier: MIT */
/*
 * record --wayland's surface as a layer-shell overlay: anchored to every
 * edge of the output at size 0 (stretched between the anchors), ignoring
 * other surfaces' exclusive zones, never taking the keyboard. It sits
 * above every window, panel and fullscreen client, so every touch and
 * pointer event on that output comes to it; the keyboard stays where it
 * was, so the terminal that started the recording still gets Ctrl-C.
 */
#include "config.h"

#include "wl-private.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

static void
overlay_configure(void *data, struct zwlr_layer_surface_v1 *overlay, uint32_t serial,
		  uint32_t width, uint32_t height)
{
	struct tt_wl_capture *cap = data;
	struct tt_wl_event ev = wl_cap_event(TT_WL_LAYER_CONFIGURE, overlay);

	ev.width = (int32_t)width;
	ev.height = (int32_t)height;
	ev.fields |= TT_WL_F_SIZE;
	wl_cap_write(cap, &ev);
	cap->want_width = (int32_t)width;
	cap->want_height = (int32_t)height;
	zwlr_layer_surface_v1_ack_configure(overlay, serial);
	wl_cap_surface_configured(cap);
}

/* The compositor took the overlay away (its output went, or it refuses
 * it): only the record says so, as for a toplevel's close. */
static void
overlay_closed(void *data, struct zwlr_layer_surface_v1 *overlay)
{
	struct tt_wl_event ev = wl_cap_event(TT_WL_LAYER_CLOSED, overlay);

	wl_cap_write(data, &ev);
}

static const struct zwlr_layer_surface_v1_listener overlay_listener = {
	.configure = overlay_configure,
	.closed = overlay_closed,
};

void
wl_cap_make_overlay(struct tt_wl_capture *cap)
{
	const uint32_t every_edge = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM |
				    ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;

	cap->overlay = zwlr_layer_shell_v1_get_layer_surface(cap->layer_shell, cap->surface, NULL,
							     ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY,
							     "touchtape-record");
	zwlr_layer_surface_v1_add_listener(cap->overlay, &overlay_listener, cap);
	zwlr_layer_surface_v1_set_size(cap->overlay, 0, 0);
	zwlr_layer_surface_v1_set_anchor(cap->overlay, every_edge);
	zwlr_layer_surface_v1_set_exclusive_zone(cap->overlay, -1);
	zwlr_layer_surface_v1_set_keyboard_interactivity(cap->overlay, 0);
}

void
wl_cap_destroy_overlay(struct tt_wl_capture *cap)
{
	if (cap->overlay)
		zwlr_layer_surface_v1_destroy(cap->overlay);
	cap->overlay = NULL;
}
