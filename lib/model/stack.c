/* SPDX-License-Identifier: MIT */
/* The layer stack: one kernel touch model, the layers on it and the
 * commands subscribed to it. See stack.h. */
#include "config.h"

#include <errno.h>

#include "stack.h"

struct listener {
	const struct tt_model_callbacks *cb;
	void *data;
};

struct layer {
	const struct tt_layer_ops *ops;
	void *self;
};

struct tt_stack {
	int64_t only_device;
	struct tt_model *model;
	struct tt_detect *detect;
	struct tt_li_model *li;
	struct tt_wl_model *wl;
	/* Every kernel model callback goes to each listener in turn: the
	 * layers' first, in the order they were added, then the
	 * subscribers'. */
	struct listener listeners[TT_STACK_MAX_LISTENERS];
	size_t nlisteners;
	struct layer layers[TT_STACK_MAX_LISTENERS];
	size_t nlayers;
	struct tt_model_callbacks subs[TT_STACK_MAX_LISTENERS];
	size_t nsubs;
	/* The Wayland layer's subscribers, in the order they came. */
	struct tt_wl_callbacks wl_subs[TT_STACK_MAX_LISTENERS];
	void *wl_data[TT_STACK_MAX_LISTENERS];
	size_t nwl;
	/* The libinput layer's subscribers, likewise. */
	struct tt_li_callbacks li_subs[TT_STACK_MAX_LISTENERS];
	void *li_data[TT_STACK_MAX_LISTENERS];
	size_t nli;
};

/* ---- the fan-out of the kernel model's callbacks ---- */

#define FAN_OUT(s, member, ...)                                                    \
	do {                                                                       \
		for (size_t i_ = 0; i_ < (s)->nlisteners; i_++) {                  \
			const struct listener *l_ = &(s)->listeners[i_];           \
			if (l_->cb->member)                                        \
				l_->cb->member(l_->data, __VA_ARGS__);             \
		}                                                                  \
	} while (0)

static void
fan_kbegin(void *data, struct tt_ktouch *t)
{
	FAN_OUT((struct tt_stack *)data, kernel_begin, t);
}

static void
fan_kupdate(void *data, struct tt_ktouch *t, const struct tt_kupdate *u)
{
	FAN_OUT((struct tt_stack *)data, kernel_update, t, u);
}

static void
fan_kend(void *data, struct tt_ktouch *t)
{
	FAN_OUT((struct tt_stack *)data, kernel_end, t);
}

static void
fan_frame(void *data, const struct tt_device *dev, const struct tt_frame *f, size_t line, uint32_t nactive)
{
	FAN_OUT((struct tt_stack *)data, frame, dev, f, line, nactive);
}

static void
fan_xbegin(void *data, struct tt_xtouch *t)
{
	FAN_OUT((struct tt_stack *)data, xi_begin, t);
}

static void
fan_xupdate(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	FAN_OUT((struct tt_stack *)data, xi_update, t, ev, line);
}

static void
fan_xownership(void *data, struct tt_xtouch *t, const struct tt_xi_event *ev, size_t line)
{
	FAN_OUT((struct tt_stack *)data, xi_ownership, t, ev, line);
}

static void
fan_xend(void *data, struct tt_xtouch *t)
{
	FAN_OUT((struct tt_stack *)data, xi_end, t);
}

static void
fan_hbegin(void *data, struct tt_htouch *t)
{
	FAN_OUT((struct tt_stack *)data, hid_begin, t);
}

static void
fan_hupdate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	FAN_OUT((struct tt_stack *)data, hid_update, t, u);
}

static void
fan_hstate(void *data, struct tt_htouch *t, const struct tt_hupdate *u)
{
	FAN_OUT((struct tt_stack *)data, hid_state, t, u);
}

static void
fan_hend(void *data, struct tt_htouch *t)
{
	FAN_OUT((struct tt_stack *)data, hid_end, t);
}

static void
fan_hreport(void *data, const struct tt_hreport *r)
{
	FAN_OUT((struct tt_stack *)data, hid_report, r);
}

static void
fan_hframe(void *data, const struct tt_hframe *l)
{
	FAN_OUT((struct tt_stack *)data, hid_frame, l);
}

static const struct tt_model_callbacks fan_out = {
	.kernel_begin = fan_kbegin,
	.kernel_update = fan_kupdate,
	.kernel_end = fan_kend,
	.frame = fan_frame,
	.xi_begin = fan_xbegin,
	.xi_update = fan_xupdate,
	.xi_ownership = fan_xownership,
	.xi_end = fan_xend,
	.hid_begin = fan_hbegin,
	.hid_update = fan_hupdate,
	.hid_state = fan_hstate,
	.hid_end = fan_hend,
	.hid_report = fan_hreport,
	.hid_frame = fan_hframe,
};

/* ---- life ---- */

static int
add_listener(struct tt_stack *s, const struct tt_model_callbacks *cb, void *data)
{
	if (s->nlisteners >= TT_STACK_MAX_LISTENERS)
		return -ENOSPC;
	s->listeners[s->nlisteners++] = (struct listener){ .cb = cb, .data = data };
	return 0;
}

int
tt_stack_add_layer(struct tt_stack *s, const struct tt_layer_ops *ops, void *self)
{
	/* Subscribers come after every layer: a layer added late goes
	 * before them. */
	if (s->nlayers >= TT_STACK_MAX_LISTENERS || s->nlisteners >= TT_STACK_MAX_LISTENERS)
		return -ENOSPC;
	size_t at = s->nlisteners - s->nsubs;
	for (size_t i = s->nlisteners; i > at; i--)
		s->listeners[i] = s->listeners[i - 1];
	s->listeners[at] = (struct listener){ .cb = &ops->kernel, .data = self };
	s->nlisteners++;
	s->layers[s->nlayers++] = (struct layer){ .ops = ops, .self = self };
	return 0;
}

struct tt_stack *
tt_stack_new(const struct tt_detect_options *opts, tt_diag_fn fn, void *diag_data)
{
	struct tt_stack *s = tt_zalloc(sizeof(*s));

	s->only_device = opts ? opts->only_device : -1;
	s->model = tt_model_new(&fan_out, s);
	s->detect = tt_detect_new(opts, s->model, fn, diag_data);
	s->li = tt_li_model_new(s->model);
	s->wl = tt_wl_model_new(NULL, NULL, tt_detect_check_fn(), s->detect);
	tt_model_set_link(s->model, !(opts && opts->no_link), opts ? opts->link_window_us : 0, 0);
	tt_stack_add_layer(s, tt_detect_layer(), s->detect);
	tt_stack_add_layer(s, tt_li_model_layer(), s->li);
	tt_stack_add_layer(s, tt_wl_model_layer(), s->wl);
	return s;
}

void
tt_stack_free(struct tt_stack *s)
{
	if (!s)
		return;
	/* The model first: freeing it may still end touches the layers
	 * hold. */
	tt_model_free(s->model);
	tt_detect_free(s->detect);
	tt_li_model_free(s->li);
	tt_wl_model_free(s->wl);
	free(s);
}

int
tt_stack_subscribe(struct tt_stack *s, const struct tt_model_callbacks *cb, void *data)
{
	if (s->nsubs >= TT_STACK_MAX_LISTENERS)
		return -ENOSPC;
	s->subs[s->nsubs] = *cb;
	int rc = add_listener(s, &s->subs[s->nsubs], data);
	if (rc == 0)
		s->nsubs++;
	return rc;
}

/* The libinput layer's callbacks to each of its subscribers in turn. */
#define LI_FAN_OUT(s, member, ...)                                         \
	do {                                                               \
		for (size_t i_ = 0; i_ < (s)->nli; i_++) {                 \
			if ((s)->li_subs[i_].member)                       \
				(s)->li_subs[i_].member((s)->li_data[i_], __VA_ARGS__); \
		}                                                          \
	} while (0)

static void
li_touch_end(void *data, const struct tt_li_touch *t)
{
	LI_FAN_OUT((struct tt_stack *)data, touch_end, t);
}

static void
li_gesture_end(void *data, const struct tt_li_gesture *g)
{
	LI_FAN_OUT((struct tt_stack *)data, gesture_end, g);
}

static void
li_tap(void *data, uint32_t device, int64_t time_us, uint32_t button, size_t line)
{
	LI_FAN_OUT((struct tt_stack *)data, tap, device, time_us, button, line);
}

int
tt_stack_subscribe_li(struct tt_stack *s, const struct tt_li_callbacks *cb, void *data)
{
	static const struct tt_li_callbacks fan_out_li = {
		.touch_end = li_touch_end, .gesture_end = li_gesture_end, .tap = li_tap,
	};

	if (s->nli >= TT_STACK_MAX_LISTENERS)
		return -ENOSPC;
	s->li_subs[s->nli] = *cb;
	s->li_data[s->nli++] = data;
	tt_li_model_set_callbacks(s->li, &fan_out_li, s);
	return 0;
}

/* The Wayland layer's callbacks to each of its subscribers in turn. */
#define WL_FAN_OUT(s, member, ...)                                         \
	do {                                                               \
		for (size_t i_ = 0; i_ < (s)->nwl; i_++) {                 \
			if ((s)->wl_subs[i_].member)                       \
				(s)->wl_subs[i_].member((s)->wl_data[i_], __VA_ARGS__); \
		}                                                          \
	} while (0)

static void
wl_begin(void *data, struct tt_wl_touch *t)
{
	WL_FAN_OUT((struct tt_stack *)data, touch_begin, t);
}

static void
wl_update(void *data, struct tt_wl_touch *t, const struct tt_wl_event *ev, size_t line)
{
	WL_FAN_OUT((struct tt_stack *)data, touch_update, t, ev, line);
}

static void
wl_end(void *data, struct tt_wl_touch *t)
{
	WL_FAN_OUT((struct tt_stack *)data, touch_end, t);
}

int
tt_stack_subscribe_wl(struct tt_stack *s, const struct tt_wl_callbacks *cb, void *data)
{
	static const struct tt_wl_callbacks fan_out_wl = {
		.touch_begin = wl_begin, .touch_update = wl_update, .touch_end = wl_end,
	};

	if (s->nwl >= TT_STACK_MAX_LISTENERS)
		return -ENOSPC;
	s->wl_subs[s->nwl] = *cb;
	s->wl_data[s->nwl++] = data;
	tt_wl_model_set_callbacks(s->wl, &fan_out_wl, s);
	return 0;
}

/* ---- the pass ---- */

void
tt_stack_feed(struct tt_stack *s, const struct tt_record *rec)
{
	if (rec->type == TT_RECORD_FRAME && s->only_device >= 0 && rec->frame->device != s->only_device)
		return;
	for (size_t i = 0; i < s->nlayers; i++) {
		if (s->layers[i].ops->feed)
			s->layers[i].ops->feed(s->layers[i].self, rec);
	}
	tt_model_feed(s->model, rec);
}

void
tt_stack_reader_error(struct tt_stack *s, const char *file, const char *message)
{
	tt_detect_reader_error(s->detect, file, message);
}

void
tt_stack_reader_warning(struct tt_stack *s, const char *file, const char *message)
{
	tt_detect_reader_warning(s->detect, file, message);
}

#define EACH_LAYER(s, hook)                                                        \
	do {                                                                       \
		for (size_t i_ = 0; i_ < (s)->nlayers; i_++) {                     \
			if ((s)->layers[i_].ops->hook)                             \
				(s)->layers[i_].ops->hook((s)->layers[i_].self);   \
		}                                                                  \
	} while (0)

void
tt_stack_finish(struct tt_stack *s)
{
	EACH_LAYER(s, end_input);
	tt_model_finish(s->model);
	EACH_LAYER(s, finish);
	EACH_LAYER(s, conclude);
}

/* ---- what it holds ---- */

const struct tt_stats *
tt_stack_stats(const struct tt_stack *s)
{
	return tt_detect_stats(s->detect);
}

const struct tt_xi_own *
tt_stack_xi_own(const struct tt_stack *s)
{
	return tt_detect_xi_own(s->detect);
}

struct tt_model *
tt_stack_model(struct tt_stack *s)
{
	return s->model;
}

struct tt_li_model *
tt_stack_li(struct tt_stack *s)
{
	return s->li;
}

struct tt_wl_model *
tt_stack_wl(struct tt_stack *s)
{
	return s->wl;
}

const struct tt_li_model *
tt_stack_li_const(const struct tt_stack *s)
{
	return s->li;
}

const struct tt_wl_model *
tt_stack_wl_const(const struct tt_stack *s)
{
	return s->wl;
}
