/* SPDX-License-Identifier: MIT */
/* touchtape diff of the devices' surroundings: the udev properties that
 * decide how a device is handled (udev's ID_INPUT_*, libinput's
 * LIBINPUT_*, hwdb's) and the libinput quirks, device by device in file
 * order, where both recordings have them. Properties of the node itself
 * (DEVNAME, ID_PATH, ...) differ from any one plugging to the next and
 * are not compared. */
#include "config.h"

#include <string.h>

#include "diff.h"
#include "surroundings-print.h"

/* The key properties of @a that @b lacks or holds otherwise; with
 * @changed_too false only those @b lacks (the other direction's call
 * reported the changed ones). */
static void
compare_properties(struct differ *df, size_t i, const struct tt_device *a, const struct tt_device *b,
		   const char *aname, const char *bname, bool changed_too)
{
	for (uint32_t k = 0; k < a->nudev; k++) {
		const struct tt_property *p = &a->udev[k];
		const char *other;

		if (!tt_sur_is_key_property(a, p->name) && !tt_sur_is_key_property(b, p->name))
			continue;
		other = tt_properties_get(b->udev, b->nudev, p->name);
		if (!other)
			diff_difference(df, "surroundings", 0, 0, "device %zu udev property %s=%s only in %s", i, p->name, p->value,
					aname);
		else if (changed_too && strcmp(other, p->value) != 0)
			diff_difference(df, "surroundings", 0, 0, "device %zu udev property %s is \"%s\" in %s vs \"%s\" in %s", i,
					p->name, p->value, aname, other, bname);
	}
}

static bool
has_quirk(const struct tt_device *d, const char *line)
{
	for (uint32_t k = 0; k < d->nquirks; k++) {
		if (strcmp(d->quirks[k], line) == 0)
			return true;
	}
	return false;
}

static void
compare_quirks(struct differ *df, size_t i, const struct tt_device *a, const struct tt_device *b,
	       const char *aname)
{
	for (uint32_t k = 0; k < a->nquirks; k++) {
		if (!has_quirk(b, a->quirks[k]))
			diff_difference(df, "surroundings", 0, 0, "device %zu quirk %s only in %s", i, a->quirks[k], aname);
	}
}

void
diff_compare_surroundings(struct differ *df)
{
	const struct side *a = df->a, *b = df->b;

	for (size_t i = 0; i < a->ndevs && i < b->ndevs; i++) {
		const struct tt_device *da = a->devs[i].dev, *db = b->devs[i].dev;

		if (da->has_udev && db->has_udev) {
			compare_properties(df, i, da, db, a->name, b->name, true);
			compare_properties(df, i, db, da, b->name, a->name, false);
		}
		if (da->has_quirks && db->has_quirks) {
			compare_quirks(df, i, da, db, a->name);
			compare_quirks(df, i, db, da, b->name);
		}
	}
}
