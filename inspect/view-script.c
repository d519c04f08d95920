/* SPDX-License-Identifier: MIT */
/* Key scripts: the headless mode's and the tests' input. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util-mem.h"
#include "view-model.h"

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Left", TV_KEY_LEFT }, { "Right", TV_KEY_RIGHT }, { "Up", TV_KEY_UP }, { "Down", TV_KEY_DOWN },
	{ "S-Left", TV_KEY_SLEFT }, { "S-Right", TV_KEY_SRIGHT }, { "PgUp", TV_KEY_PGUP },
	{ "PgDn", TV_KEY_PGDN }, { "Home", TV_KEY_HOME }, { "End", TV_KEY_END },
	{ "Enter", TV_KEY_ENTER }, { "Esc", TV_KEY_ESC }, { "BS", TV_KEY_BACKSPACE }, { "Tab", '\t' },
	{ "lt", '<' }, { "Dump", TV_SCRIPT_DUMP },
};

int
tv_parse_script(const char *script, struct tv_script_key **out, size_t *n, size_t *bad)
{
	size_t len = strlen(script), cnt = 0;
	struct tv_script_key *keys = tt_reallocarray(NULL, len + 1, sizeof(*keys));

	for (size_t i = 0; i < len;) {
		struct tv_script_key k = { 0, 0, 0 };
		if (script[i] != '<') {
			k.key = (unsigned char)script[i++];
			keys[cnt++] = k;
			continue;
		}
		const char *end = strchr(script + i, '>');
		if (!end) {
			*bad = i;
			free(keys);
			return -1;
		}
		size_t nl = (size_t)(end - script) - i - 1;
		const char *name = script + i + 1;
		bool found = false;
		for (size_t j = 0; j < ARRAY_LENGTH(key_names) && !found; j++) {
			if (strlen(key_names[j].name) == nl && strncmp(name, key_names[j].name, nl) == 0) {
				k.key = key_names[j].key;
				found = true;
			}
		}
		if (!found && nl > 7 && strncmp(name, "Resize:", 7) == 0 &&
		    sscanf(name + 7, "%dx%d", &k.cols, &k.rows) == 2 && k.cols > 0 && k.rows > 0 &&
		    k.cols <= 1000 && k.rows <= 1000) {
			k.key = TV_SCRIPT_RESIZE;
			found = true;
		}
		if (!found) {
			*bad = i;
			free(keys);
			return -1;
		}
		keys[cnt++] = k;
		i += nl + 2;
	}
	*out = keys;
	*n = cnt;
	return 0;
}

const char *
tv_key_label(int key, char *buf, size_t size)
{
	for (size_t j = 0; j < ARRAY_LENGTH(key_names); j++) {
		if (key_names[j].key == key) {
			snprintf(buf, size, "%s", key_names[j].name);
			return buf;
		}
	}
	if (key >= 0x20 && key < 0x7f)
		snprintf(buf, size, "%c", key);
	else
		snprintf(buf, size, "%d", key);
	return buf;
}

const char *
tv_key_name(int key, char *buf, size_t size)
{
	char label[16];

	tv_key_label(key, label, sizeof(label));
	if (key >= 0x20 && key < 0x7f)
		snprintf(buf, size, "%s", label);
	else
		snprintf(buf, size, "<%s>", label);
	return buf;
}
