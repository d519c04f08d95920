/* SPDX-License-Identifier: MIT */
/* The libinput gesture counts as text and JSON (li-counts-print.h). */
#include "config.h"

#include <inttypes.h>

#include "li-counts-print.h"

void
tt_li_counts_gestures_text(const struct tt_li_counts *c, FILE *out)
{
	bool any = false;

	for (int k = 0; k < TT_LI_GESTURE_KINDS; k++) {
		for (int f = 0; f <= TT_LI_MAX_FINGERS; f++) {
			if (!c->gestures[k][f])
				continue;
			fprintf(out, "%s %s %d-finger %" PRIu64, any ? "," : " gestures:",
				tt_li_gesture_kind_name(k), f, c->gestures[k][f]);
			any = true;
		}
	}
	if (any && c->gestures_cancelled)
		fprintf(out, " (%" PRIu64 " cancelled)", c->gestures_cancelled);
	if (!any)
		fprintf(out, " no gestures");
}

void
tt_li_counts_gestures_json(const struct tt_li_counts *c, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "gestures");
	tt_json_emit_array_begin(j);
	for (int k = 0; k < TT_LI_GESTURE_KINDS; k++) {
		for (int f = 0; f <= TT_LI_MAX_FINGERS; f++) {
			if (!c->gestures[k][f])
				continue;
			tt_json_emit_object_begin(j);
			tt_json_emit_member_string(j, "kind", tt_li_gesture_kind_name(k));
			tt_json_emit_member_int(j, "fingers", f);
			tt_json_emit_member_int(j, "count", (int64_t)c->gestures[k][f]);
			tt_json_emit_object_end(j);
		}
	}
	tt_json_emit_array_end(j);
	tt_json_emit_member_int(j, "gestures_cancelled", (int64_t)c->gestures_cancelled);
}
