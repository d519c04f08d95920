/* SPDX-License-Identifier: MIT */
/*
 * record --wayland: the connection, the fullscreen surface and the loop
 * source. The listeners that turn events into records are in wl-input.c.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "util-strings.h"
#include "util-time.h"
#include "wl-private.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

/* Roundtrips to wait for the first configure: a compositor answers the
 * first commit within one, but a busy one may take a few. */
#define WL_CONFIGURE_ROUNDTRIPS 10

struct tt_wl_event
wl_cap_event(enum tt_wl_event_type kind, void *proxy)
{
	return (struct tt_wl_event){
		.kind = kind,
		.object = proxy ? wl_proxy_get_id(proxy) : 0,
	};
}

static int64_t
receive_time(const struct tt_wl_capture *cap)
{
	if (cap->batch_time_us >= 0)
		return cap->batch_time_us;
	return tt_now_us(CLOCK_MONOTONIC) - cap->opts.start_us;
}

void
wl_cap_write(struct tt_wl_capture *cap, struct tt_wl_event *ev)
{
	int rc;

	if (cap->write_failed)
		return;
	ev->time_us = receive_time(cap);
	ev->client = (char *)"wayland";
	rc = tt_writer_wl_event(cap->opts.writer, ev);
	if (rc < 0) {
		cap->write_failed = true;
		if (cap->opts.on_error)
			cap->opts.on_error(cap->opts.userdata, rc);
		return;
	}
	cap->nevents++;
	if (ev->kind == TT_WL_TOUCH_DOWN)
		cap->touches_down++;
	else if (ev->kind == TT_WL_TOUCH_UP && cap->touches_down)
		cap->touches_down--;
	else if (ev->kind == TT_WL_TOUCH_CANCEL)
		cap->touches_down = 0;
}

static void
write_marker(struct tt_wl_capture *cap, enum tt_marker_kind kind, const char *text)
{
	struct tt_marker m = {
		.time_us = receive_time(cap),
		.kind = kind,
		.device = -1,
		.text = (char *)text,
	};
	int rc;

	if (cap->write_failed)
		return;
	rc = tt_writer_marker(cap->opts.writer, &m);
	if (rc < 0) {
		cap->write_failed = true;
		if (cap->opts.on_error)
			cap->opts.on_error(cap->opts.userdata, rc);
	}
}

/* ---- xdg-shell ---- */

static void
wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

/* A zero-filled (black) XRGB8888 buffer of the size asked for: memfd
 * pages are only allocated when written, and nothing writes them. */
static int
make_buffer(struct tt_wl_capture *cap, int32_t width, int32_t height, struct wl_buffer **out)
{
	int32_t stride = width * 4;
	size_t size = (size_t)stride * (size_t)height;
	struct wl_shm_pool *pool;
	int fd = memfd_create("touchtape-wayland", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	pool = wl_shm_create_pool(cap->shm, fd, (int32_t)size);
	*out = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return 0;
}

/* The size to draw: what the compositor asked for, else the first
 * output's current mode, else something small it may scale. */
static void
surface_size(const struct tt_wl_capture *cap, int32_t *width, int32_t *height)
{
	*width = cap->want_width;
	*height = cap->want_height;
	if ((*width <= 0 || *height <= 0) && cap->noutputs > 0) {
		*width = cap->outputs[0].width;
		*height = cap->outputs[0].height;
	}
	if (*width <= 0 || *height <= 0 || *width > 16384 || *height > 16384) {
		*width = 640;
		*height = 480;
	}
}

/* The compositor's configure is acked: draw at the size it asked for
 * (a new buffer only when the size changed) and commit, which maps the
 * surface the first time. */
void
wl_cap_surface_configured(struct tt_wl_capture *cap)
{
	struct wl_buffer *buffer = NULL;
	int32_t width, height;

	cap->configured = true;
	surface_size(cap, &width, &height);
	if (cap->buffer && width == cap->buffer_width && height == cap->buffer_height) {
		wl_surface_commit(cap->surface);
		return;
	}
	if (make_buffer(cap, width, height, &buffer) < 0) {
		tt_warning("Wayland: no buffer of %dx%d for the surface: %s", width, height, strerror(errno));
		wl_surface_commit(cap->surface);
		return;
	}
	wl_surface_attach(cap->surface, buffer, 0, 0);
	wl_surface_damage(cap->surface, 0, 0, width, height);
	wl_surface_commit(cap->surface);
	if (cap->buffer)
		wl_buffer_destroy(cap->buffer);
	cap->buffer = buffer;
	cap->buffer_width = width;
	cap->buffer_height = height;
}

static void
xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	xdg_surface_ack_configure(xdg_surface, serial);
	wl_cap_surface_configured(data);
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void
toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height,
		   struct wl_array *states)
{
	struct tt_wl_capture *cap = data;
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOPLEVEL_CONFIGURE, toplevel);

	ev.width = width;
	ev.height = height;
	ev.fields |= TT_WL_F_SIZE;
	wl_cap_write(cap, &ev);
	cap->want_width = width;
	cap->want_height = height;
}

/* The compositor asks us to close: the recording of the other layers is
 * not its to end, so only the record says so. */
static void
toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	struct tt_wl_event ev = wl_cap_event(TT_WL_TOPLEVEL_CLOSE, toplevel);

	wl_cap_write(data, &ev);
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

/* ---- the registry ---- */

static void
add_seat(struct tt_wl_capture *cap, uint32_t name, uint32_t version)
{
	struct wl_cap_seat *s;

	if (cap->nseats >= WL_MAX_SEATS)
		return;
	s = &cap->seats[cap->nseats++];
	s->cap = cap;
	s->name = name;
	s->touch_ts_us = -1;
	s->pointer_ts_us = -1;
	s->seat = wl_registry_bind(cap->registry, name, &wl_seat_interface,
				   version < (uint32_t)wl_seat_interface.version ?
				   version : (uint32_t)wl_seat_interface.version);
	wl_seat_add_listener(s->seat, &wl_cap_seat_listener, s);
}

static void
add_output(struct tt_wl_capture *cap, uint32_t name, uint32_t version)
{
	struct wl_cap_output *o;

	if (cap->noutputs >= WL_MAX_OUTPUTS)
		return;
	o = &cap->outputs[cap->noutputs++];
	o->cap = cap;
	o->name = name;
	o->output = wl_registry_bind(cap->registry, name, &wl_output_interface,
				     version < (uint32_t)wl_output_interface.version ?
				     version : (uint32_t)wl_output_interface.version);
	wl_output_add_listener(o->output, &wl_cap_output_listener, o);
}

static void *
bind_max(struct tt_wl_capture *cap, uint32_t name, const struct wl_interface *iface,
	 uint32_t version, uint32_t max)
{
	return wl_registry_bind(cap->registry, name, iface, version < max ? version : max);
}

static void
registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
		uint32_t version)
{
	struct tt_wl_capture *cap = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0 && !cap->compositor) {
		cap->compositor = bind_max(cap, name, &wl_compositor_interface, version, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0 && !cap->shm) {
		cap->shm = bind_max(cap, name, &wl_shm_interface, version, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0 && !cap->wm_base) {
		cap->wm_base = bind_max(cap, name, &xdg_wm_base_interface, version, 1);
		xdg_wm_base_add_listener(cap->wm_base, &wm_base_listener, cap);
	} else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0 && !cap->layer_shell) {
		cap->layer_shell = bind_max(cap, name, &zwlr_layer_shell_v1_interface, version, 1);
	} else if (strcmp(interface, zwp_pointer_gestures_v1_interface.name) == 0 && !cap->gestures) {
		cap->gestures = bind_max(cap, name, &zwp_pointer_gestures_v1_interface, version, 3);
		cap->gestures_version = version < 3 ? version : 3;
	} else if (strcmp(interface, zwp_input_timestamps_manager_v1_interface.name) == 0 &&
		   !cap->timestamps) {
		cap->timestamps = bind_max(cap, name, &zwp_input_timestamps_manager_v1_interface, version, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		add_seat(cap, name, version);
	} else if (strcmp(interface, wl_output_interface.name) == 0) {
		add_output(cap, name, version);
	}
}

/* A seat or output going away: its objects are dropped, its records
 * stay. */
static void
registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	struct tt_wl_capture *cap = data;

	for (size_t i = 0; i < cap->nseats; i++) {
		if (cap->seats[i].name == name && cap->seats[i].seat)
			wl_cap_seat_release(&cap->seats[i]);
	}
	for (size_t i = 0; i < cap->noutputs; i++) {
		struct wl_cap_output *o = &cap->outputs[i];
		if (o->name == name && o->output) {
			wl_output_destroy(o->output);
			o->output = NULL;
		}
	}
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

/* ---- the connection in the loop ---- */

/* Why the connection failed: the compositor's protocol error, or errno. */
static void
lost_reason(struct tt_wl_capture *cap, int err, char *why, size_t size)
{
	const struct wl_interface *iface = NULL;
	uint32_t id = 0;
	uint32_t code;

	if (wl_display_get_error(cap->display) == EPROTO) {
		code = wl_display_get_protocol_error(cap->display, &iface, &id);
		snprintf(why, size, "protocol error %u on %s@%u", code, iface ? iface->name : "?", id);
		return;
	}
	if (err == 0 || err == EPIPE || err == ECONNRESET)
		snprintf(why, size, "the compositor closed the connection");
	else
		snprintf(why, size, "%s", strerror(err));
}

/* The compositor went away: the source ends with a marker, the rest of
 * the recording goes on. */
static void
connection_lost(struct tt_wl_capture *cap, int err)
{
	char why[256];
	char text[512];

	if (cap->lost)
		return;
	cap->lost = true;
	lost_reason(cap, err, why, sizeof(why));
	if (cap->source) {
		tt_loop_remove(cap->opts.loop, cap->source);
		cap->source = NULL;
	}
	snprintf(text, sizeof(text), "connection to Wayland compositor %s lost: %s", cap->display_name, why);
	write_marker(cap, TT_MARKER_WL_LOST, text);
	if (cap->opts.on_lost)
		cap->opts.on_lost(cap->opts.userdata, text);
}

/* Sends what the listeners queued (pongs, acks, commits). EAGAIN leaves
 * the rest for the next time: the requests are few and small. */
static void
flush(struct tt_wl_capture *cap)
{
	if (wl_display_flush(cap->display) < 0 && errno != EAGAIN)
		connection_lost(cap, errno);
}

/* Events already queued (by a roundtrip, or read by prepare_read's
 * caller) first, then one non-blocking read of the socket. */
static void
read_and_dispatch(struct tt_wl_capture *cap, bool readable)
{
	struct wl_display *d = cap->display;

	while (wl_display_prepare_read(d) != 0) {
		if (wl_display_dispatch_pending(d) < 0)
			return connection_lost(cap, errno);
	}
	if (!readable) {
		wl_display_cancel_read(d);
		return flush(cap);
	}
	if (wl_display_read_events(d) < 0)
		return connection_lost(cap, errno);
	if (cap->opts.before_write)
		cap->opts.before_write(cap->opts.userdata);
	cap->batch_time_us = tt_now_us(CLOCK_MONOTONIC) - cap->opts.start_us;
	if (wl_display_dispatch_pending(d) < 0)
		connection_lost(cap, errno);
	cap->batch_time_us = -1;
	if (!cap->lost)
		flush(cap);
}

static void
on_readable(struct tt_loop *loop, struct tt_loop_source *source, uint32_t events, void *userdata)
{
	struct tt_wl_capture *cap = userdata;

	/* A hang-up still has the last events (and maybe the protocol
	 * error) to read: read_events() reports the end after them. */
	read_and_dispatch(cap, true);
}

void
tt_wl_capture_dispatch(struct tt_wl_capture *cap)
{
	struct pollfd p;

	if (!cap || cap->lost)
		return;
	p.fd = wl_display_get_fd(cap->display);
	p.events = POLLIN;
	read_and_dispatch(cap, poll(&p, 1, 0) > 0);
}

void
tt_wl_capture_drain(struct tt_wl_capture *cap, int max_ms)
{
	int64_t end = tt_now_us(CLOCK_MONOTONIC) + (int64_t)max_ms * 1000;

	tt_wl_capture_dispatch(cap);
	while (cap && !cap->lost && !cap->write_failed && cap->touches_down) {
		int64_t left_ms = (end - tt_now_us(CLOCK_MONOTONIC)) / 1000;
		struct pollfd p = { wl_display_get_fd(cap->display), POLLIN, 0 };

		if (left_ms <= 0)
			return;
		if (poll(&p, 1, (int)left_ms) > 0)
			read_and_dispatch(cap, true);
	}
}

size_t
tt_wl_capture_nevents(const struct tt_wl_capture *cap)
{
	return cap ? cap->nevents : 0;
}

/* ---- setup ---- */

/* A roundtrip; -errno (reported as lost) when the connection failed. */
static int
roundtrip(struct tt_wl_capture *cap)
{
	if (wl_display_roundtrip(cap->display) < 0) {
		int e = errno ? errno : EPIPE;
		connection_lost(cap, e);
		return -e;
	}
	return 0;
}

/* The overlay where the compositor offers layer-shell (unless told
 * otherwise): above every window and panel, so every touch on the output
 * reaches it; else the fullscreen toplevel. */
static bool
use_overlay(const struct tt_wl_capture *cap)
{
	switch (cap->surface_mode) {
	case TT_WL_SURFACE_OVERLAY:
		return true;
	case TT_WL_SURFACE_TOPLEVEL:
		return false;
	case TT_WL_SURFACE_AUTO:
		break;
	}
	return cap->offered & WL_OFFERS_LAYER_SHELL;
}

static int
check_globals(const struct tt_wl_capture *cap)
{
	unsigned o = cap->offered;
	const char *missing = !(o & WL_OFFERS_COMPOSITOR) ? "wl_compositor" :
			      !(o & WL_OFFERS_SHM) ? "wl_shm" :
			      use_overlay(cap) && !(o & WL_OFFERS_LAYER_SHELL) ? "zwlr_layer_shell_v1 (layer-shell)" :
			      !use_overlay(cap) && !(o & WL_OFFERS_XDG_SHELL) ? "xdg_wm_base (xdg-shell)" : NULL;

	if (!missing)
		return 0;
	tt_error("Wayland compositor %s does not offer %s: no surface to receive input",
		 cap->display_name, missing);
	return -ENOTSUP;
}

static void
probe_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
	     uint32_t version)
{
	static const struct { const struct wl_interface *iface; unsigned bit; } needed[] = {
		{ &wl_compositor_interface, WL_OFFERS_COMPOSITOR },
		{ &wl_shm_interface, WL_OFFERS_SHM },
		{ &xdg_wm_base_interface, WL_OFFERS_XDG_SHELL },
		{ &zwlr_layer_shell_v1_interface, WL_OFFERS_LAYER_SHELL },
	};
	struct tt_wl_capture *cap = data;

	for (size_t i = 0; i < ARRAY_LENGTH(needed); i++) {
		if (strcmp(interface, needed[i].iface->name) == 0)
			cap->offered |= needed[i].bit;
	}
}

static void
probe_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener probe_listener = {
	.global = probe_global,
	.global_remove = probe_global_remove,
};

/* Which globals the surface needs are offered, seen through a registry
 * that binds nothing (so no event comes before there is a file to write
 * it to): a compositor that lacks them is refused before any file is
 * made. */
static int
probe_globals(struct tt_wl_capture *cap)
{
	struct wl_registry *probe = wl_display_get_registry(cap->display);
	int rc;

	wl_registry_add_listener(probe, &probe_listener, cap);
	rc = wl_display_roundtrip(cap->display);
	wl_registry_destroy(probe);
	if (rc < 0) {
		rc = errno ? -errno : -EPIPE;
		tt_error("Wayland compositor %s: the connection failed: %s", cap->display_name,
			 strerror(-rc));
		return rc;
	}
	return check_globals(cap);
}

static void
make_toplevel(struct tt_wl_capture *cap)
{
	cap->xdg_surface = xdg_wm_base_get_xdg_surface(cap->wm_base, cap->surface);
	xdg_surface_add_listener(cap->xdg_surface, &xdg_surface_listener, cap);
	cap->toplevel = xdg_surface_get_toplevel(cap->xdg_surface);
	xdg_toplevel_add_listener(cap->toplevel, &toplevel_listener, cap);
	xdg_toplevel_set_title(cap->toplevel, "touchtape record");
	xdg_toplevel_set_app_id(cap->toplevel, "touchtape");
	xdg_toplevel_set_fullscreen(cap->toplevel, NULL);
}

/* The overlay or the fullscreen toplevel, committed without a buffer:
 * the compositor answers with a configure, which attaches the buffer
 * that maps it. */
static int
map_surface(struct tt_wl_capture *cap)
{
	int rc = 0;

	cap->surface = wl_compositor_create_surface(cap->compositor);
	if (use_overlay(cap))
		wl_cap_make_overlay(cap);
	else
		make_toplevel(cap);
	wl_surface_commit(cap->surface);
	for (int i = 0; rc == 0 && !cap->configured && i < WL_CONFIGURE_ROUNDTRIPS; i++)
		rc = roundtrip(cap);
	if (rc == 0 && !cap->configured) {
		tt_error("Wayland compositor %s did not configure the surface", cap->display_name);
		return -ETIMEDOUT;
	}
	/* The buffer's commit reaches the compositor: mapped from here. */
	return rc == 0 ? roundtrip(cap) : rc;
}

static void
write_connected(struct tt_wl_capture *cap)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "connected to Wayland compositor %s; %s %dx%d; %zu seat%s, %zu output%s; "
		 "pointer gestures %s; input timestamps %s",
		 cap->display_name, cap->overlay ? "overlay layer surface" : "fullscreen surface",
		 cap->buffer_width, cap->buffer_height,
		 cap->nseats, cap->nseats == 1 ? "" : "s", cap->noutputs, cap->noutputs == 1 ? "" : "s",
		 cap->gestures ? "yes" : "not offered", cap->timestamps ? "yes" : "not offered");
	write_marker(cap, TT_MARKER_WL_CONNECTED, text);
}

int
tt_wl_capture_connect(const char *display, enum tt_wl_surface_mode surface,
		      struct tt_wl_capture **out)
{
	_cleanup_(tt_wl_capture_freep) struct tt_wl_capture *cap = tt_zalloc(sizeof(*cap));
	const char *name = display;
	int rc;

	if (!name)
		name = getenv("WAYLAND_DISPLAY");
	if (!name || !*name)
		name = "wayland-0";
	cap->batch_time_us = -1;
	cap->display_name = tt_str_sanitize(name, strlen(name), 256);
	cap->display = wl_display_connect(display);
	if (!cap->display) {
		int e = errno ? errno : ECONNREFUSED;
		tt_error("cannot connect to Wayland compositor %s: %s (is WAYLAND_DISPLAY set, and "
			 "XDG_RUNTIME_DIR?)", cap->display_name, strerror(e));
		return -e;
	}
	cap->surface_mode = surface;
	rc = probe_globals(cap);
	if (rc < 0)
		return rc;
	*out = steal(&cap);
	return 0;
}

int
tt_wl_capture_start(struct tt_wl_capture *cap, const struct tt_wl_capture_options *opts)
{
	int rc;

	cap->opts = *opts;
	cap->registry = wl_display_get_registry(cap->display);
	wl_registry_add_listener(cap->registry, &registry_listener, cap);
	/* The globals, then what binding them sent (seat capabilities,
	 * output modes), written as it comes. */
	if ((rc = roundtrip(cap)) < 0 || (rc = roundtrip(cap)) < 0 || (rc = map_surface(cap)) < 0)
		return rc;
	cap->source = tt_loop_add(opts->loop, wl_display_get_fd(cap->display), on_readable, cap);
	if (!cap->source) {
		rc = -errno;
		tt_error("cannot watch the Wayland connection: %s", strerror(-rc));
		return rc;
	}
	write_connected(cap);
	return 0;
}

static void
destroy_surface(struct tt_wl_capture *cap)
{
	wl_cap_destroy_overlay(cap);
	if (cap->toplevel)
		xdg_toplevel_destroy(cap->toplevel);
	if (cap->xdg_surface)
		xdg_surface_destroy(cap->xdg_surface);
	if (cap->surface)
		wl_surface_destroy(cap->surface);
	if (cap->buffer)
		wl_buffer_destroy(cap->buffer);
}

static void
destroy_globals(struct tt_wl_capture *cap)
{
	for (size_t i = 0; i < cap->nseats; i++)
		if (cap->seats[i].seat)
			wl_cap_seat_release(&cap->seats[i]);
	for (size_t i = 0; i < cap->noutputs; i++)
		if (cap->outputs[i].output)
			wl_output_destroy(cap->outputs[i].output);
	if (cap->gestures)
		zwp_pointer_gestures_v1_destroy(cap->gestures);
	if (cap->timestamps)
		zwp_input_timestamps_manager_v1_destroy(cap->timestamps);
	if (cap->wm_base)
		xdg_wm_base_destroy(cap->wm_base);
	if (cap->layer_shell)
		zwlr_layer_shell_v1_destroy(cap->layer_shell);
	if (cap->shm)
		wl_shm_destroy(cap->shm);
	if (cap->compositor)
		wl_compositor_destroy(cap->compositor);
	if (cap->registry)
		wl_registry_destroy(cap->registry);
}

void
tt_wl_capture_free(struct tt_wl_capture *cap)
{
	if (!cap)
		return;
	if (cap->source)
		tt_loop_remove(cap->opts.loop, cap->source);
	if (cap->display) {
		destroy_surface(cap);
		destroy_globals(cap);
		wl_display_disconnect(cap->display);
	}
	free(cap->display_name);
	free(cap);
}
