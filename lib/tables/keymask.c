/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "keymask.h"

bool
tt_keymask_is_private(unsigned int code)
{
	switch (code) {
	case KEY_1 ... KEY_EQUAL:		/* digits, - = */
	case KEY_Q ... KEY_RIGHTBRACE:		/* letters, [ ] */
	case KEY_A ... KEY_GRAVE:		/* letters, ; ' ` */
	case KEY_BACKSLASH ... KEY_SLASH:	/* \ letters , . / */
	case KEY_KPASTERISK:
	case KEY_SPACE:
	case KEY_KP7 ... KEY_KPDOT:		/* the keypad */
	case KEY_102ND:
	case KEY_RO:
	case KEY_KPJPCOMMA:
	case KEY_KPENTER:
	case KEY_KPSLASH:
	case KEY_KPEQUAL:
	case KEY_KPPLUSMINUS:
	case KEY_KPCOMMA:
	case KEY_YEN:
	case KEY_KPLEFTPAREN:
	case KEY_KPRIGHTPAREN:
		return true;
	default:
		return false;
	}
}

/* One list for replay (replay/schedule.c): a recording replayed through
 * uinput reaches the focused window and the session's key bindings like a
 * real keyboard, so a shared or forged recording could type a command and
 * run it, switch VT (Ctrl+Alt+Fn), trigger magic SysRq or power the
 * machine off. */
bool
tt_keymask_is_guarded(unsigned int code)
{
	if (tt_keymask_is_private(code))
		return true;
	switch (code) {
	case KEY_ESC:
	case KEY_BACKSPACE:
	case KEY_TAB:
	case KEY_ENTER:
	case KEY_DELETE:
	case KEY_LEFTCTRL:
	case KEY_RIGHTCTRL:
	case KEY_LEFTSHIFT:
	case KEY_RIGHTSHIFT:
	case KEY_LEFTALT:
	case KEY_RIGHTALT:
	case KEY_LEFTMETA:
	case KEY_RIGHTMETA:
	case KEY_COMPOSE:
	case KEY_CAPSLOCK:
	case KEY_NUMLOCK:
	case KEY_SCROLLLOCK:
	case KEY_F1 ... KEY_F10:
	case KEY_F11:
	case KEY_F12:
	case KEY_F13 ... KEY_F24:
	case KEY_SYSRQ:
	case KEY_POWER:
	case KEY_POWER2:
	case KEY_SLEEP:
	case KEY_SUSPEND:
	case KEY_LOGOFF:
		return true;
	default:
		return false;
	}
}

void
tt_keymask_init(struct tt_keymask *m, const struct tt_device *dev, bool enabled)
{
	memset(m, 0, sizeof(*m));
	if (!enabled)
		return;
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (!tt_keymask_is_private(code) || !tt_device_has(dev, EV_KEY, code))
			continue;
		m->placeholders[m->nplaceholders++] = (uint16_t)code;
		if (m->nplaceholders == TT_KEYMASK_PLACEHOLDERS)
			break;
	}
	m->active = m->nplaceholders > 0;
}

/* The placeholder index for @code: the one it holds, else the lowest free
 * one, else the last (more than eight private keys held at once). */
static unsigned int
slot_for(struct tt_keymask *m, unsigned int code)
{
	unsigned int free_slot = m->nplaceholders;

	for (unsigned int i = 0; i < m->nplaceholders; i++) {
		if (m->held[i] == code)
			return i;
		if (!m->held[i] && free_slot == m->nplaceholders)
			free_slot = i;
	}
	return free_slot < m->nplaceholders ? free_slot : m->nplaceholders - 1;
}

static uint16_t
mask_key(struct tt_keymask *m, unsigned int code, int32_t value)
{
	unsigned int i = slot_for(m, code);

	if (value)
		m->held[i] = (uint16_t)code;
	else if (m->held[i] == code)
		m->held[i] = 0;
	return m->placeholders[i];
}

void
tt_keymask_device(struct tt_keymask *m, struct tt_device *dev)
{
	uint8_t down[sizeof(dev->keys_down)];

	if (!m->active)
		return;
	memcpy(down, dev->keys_down, sizeof(down));
	for (unsigned int code = 0; code < KEY_CNT; code++) {
		if (!bit_is_set(down, code) || !tt_keymask_is_private(code))
			continue;
		clear_bit(dev->keys_down, code);
		set_bit(dev->keys_down, mask_key(m, code, 1));
	}
}

void
tt_keymask_event(struct tt_keymask *m, struct tt_event *e)
{
	if (!m->active)
		return;
	if (e->type == EV_MSC && e->code == MSC_SCAN)
		e->value = 0;
	else if (e->type == EV_KEY && tt_keymask_is_private(e->code))
		e->code = mask_key(m, e->code, e->value);
}
