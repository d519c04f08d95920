// SPDX-License-Identifier: MIT
/* analyze's report of the XI ownership chains, as text and as JSON. Times
 * in the text are milliseconds like the kernel-to-X latency's, in JSON
 * integer microseconds; both from the kernel frame that began the touch
 * (or the first TouchBegin when no kernel touch was linked). */
#include "config.h"

#include <inttypes.h>

#include "xi-chains.h"

#define MAX_STAGES 32

static double
ms(int64_t us)
{
	return (double)us / 1000.0;
}

static void
stage_text(const struct tt_xi_chain *c, size_t k, FILE *out)
{
	const struct tt_xi_stage *st = &c->stages[k];

	fprintf(out, "    %zu %s: owned +%.3f ms (%s, line %zu), %s", k + 1, st->client, ms(st->delay_us),
		st->owned_by == TT_XI_OWNED_BY_BEGIN ? "its TouchBegin" :
		st->owned_by == TT_XI_OWNED_BY_OWNERSHIP ? "TouchOwnership" :
		st->owned_by == TT_XI_OWNED_BY_BUTTON_PRESS ? "its emulated ButtonPress" : "the previous reject",
		st->owned_line,
		tt_xi_decision_name(st->decision));
	if (st->decided_us >= 0 && st->decided_us < st->owned_us)
		fprintf(out, " early, at +%.3f ms (line %zu)", ms(st->decided_us - c->base_us), st->decided_line);
	else if (st->decision_us >= 0)
		fprintf(out, " after %.3f ms (line %zu)", ms(st->decision_us), st->decided_line);
	for (size_t i = 0; i < k; i++)
		fprintf(out, "%s%s %.3f ms", i ? ", " : "; waited for ", c->stages[i].client,
			ms(c->stages[i].decision_us > 0 ? c->stages[i].decision_us : 0));
	if (st->order != TT_XI_ORDER_OK)
		fprintf(out, "; order broken: %s", tt_xi_order_name(st->order));
	fputc('\n', out);
}

static void
chain_text(const struct tt_xi_chain *c, FILE *out)
{
	char line[512];

	tt_xi_chain_format(c, false, line, sizeof(line));
	fprintf(out, "  XI device %" PRId32 " touch %" PRIu32, c->sourceid, c->touchid);
	if (c->kernel)
		fprintf(out, " (device %" PRIu32 " slot %" PRId32 " tracking ID %" PRId32 ", line %zu)", c->device,
			c->slot, c->tracking_id, c->base_line);
	else
		fprintf(out, " (no kernel touch linked: from its first TouchBegin, line %zu)", c->base_line);
	fprintf(out, ": %s\n", line);
	for (size_t k = 0; k < c->nstages; k++)
		stage_text(c, k, out);
}

static void
stats_text(const struct tt_xi_stage_stats *s, FILE *out)
{
	fprintf(out, "  stage %" PRIu32 " %s: %" PRIu64 " touch%s, ownership delay median %.3f ms, p95 %.3f ms",
		s->position, s->client, s->count, s->count == 1 ? "" : "es", ms(s->median_delay_us),
		ms(s->p95_delay_us));
	if (s->ndecisions)
		fprintf(out, "; decision median %.3f ms, p95 %.3f ms", ms(s->median_decision_us),
			ms(s->p95_decision_us));
	fprintf(out, "; accept %" PRIu64 ", reject %" PRIu64 ", none %" PRIu64 ", pending-end %" PRIu64 "\n",
		s->decisions[TT_XI_DECIDED_ACCEPT], s->decisions[TT_XI_DECIDED_REJECT],
		s->decisions[TT_XI_DECIDED_NONE], s->decisions[TT_XI_DECIDED_PENDING_END]);
}

void
xi_chains_text(const struct tt_xi_own *o, FILE *out)
{
	struct tt_xi_stage_stats stats[MAX_STAGES];
	size_t n;
	const struct tt_xi_chain *chains = tt_xi_own_chains(o, &n);
	size_t nstats;

	if (!n)
		return;
	fprintf(out, "XI ownership chains (times from the kernel frame that began the touch):\n");
	for (size_t i = 0; i < n; i++)
		chain_text(&chains[i], out);
	nstats = tt_xi_own_stage_stats(o, stats, MAX_STAGES);
	for (size_t i = 0; i < nstats && i < MAX_STAGES; i++)
		stats_text(&stats[i], out);
}

/* ---- JSON ---- */

static void
waited_json(const struct tt_xi_chain *c, size_t k, struct tt_json_emit *j)
{
	tt_json_emit_key(j, "waited");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < k; i++) {
		tt_json_emit_object_begin(j);
		tt_json_emit_member_string(j, "client", c->stages[i].client);
		tt_json_emit_member_int(j, "decision_us", c->stages[i].decision_us > 0 ? c->stages[i].decision_us : 0);
		tt_json_emit_object_end(j);
	}
	tt_json_emit_array_end(j);
}

static void
stage_json(const struct tt_xi_chain *c, size_t k, struct tt_json_emit *j)
{
	const struct tt_xi_stage *st = &c->stages[k];

	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "position", (int64_t)k + 1);
	tt_json_emit_member_string(j, "client", st->client);
	tt_json_emit_member_string(j, "decision", tt_xi_decision_name(st->decision));
	tt_json_emit_member_int(j, "delay_us", st->delay_us);
	tt_json_emit_member_string(j, "owned_by", tt_xi_owned_by_name(st->owned_by));
	tt_json_emit_member_int(j, "owned_line", (int64_t)st->owned_line);
	tt_json_emit_member_int_or_null(j, "decision_us", st->decision_us);
	if (st->decided_us >= 0) {
		tt_json_emit_member_int(j, "decided_line", (int64_t)st->decided_line);
		tt_json_emit_member_bool(j, "early", st->decided_us < st->owned_us);
	}
	waited_json(c, k, j);
	tt_json_emit_member_string(j, "order", tt_xi_order_name(st->order));
	tt_json_emit_object_end(j);
}

static void
chain_json(const struct tt_xi_chain *c, struct tt_json_emit *j)
{
	char line[512];

	tt_xi_chain_format(c, false, line, sizeof(line));
	tt_json_emit_newline(j, "  ");
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "deviceid", c->sourceid);
	tt_json_emit_member_int(j, "touchid", c->touchid);
	tt_json_emit_key(j, "kernel");
	if (c->kernel) {
		tt_json_emit_object_begin(j);
		tt_json_emit_member_int(j, "device", c->device);
		tt_json_emit_member_int(j, "slot", c->slot);
		tt_json_emit_member_int(j, "tracking_id", c->tracking_id);
		tt_json_emit_object_end(j);
	} else {
		tt_json_emit_null(j);
	}
	tt_json_emit_member_int(j, "base_us", c->base_us);
	tt_json_emit_member_int(j, "base_line", (int64_t)c->base_line);
	tt_json_emit_member_string(j, "chain", line);
	tt_json_emit_key(j, "stages");
	tt_json_emit_array_begin(j);
	for (size_t k = 0; k < c->nstages; k++)
		stage_json(c, k, j);
	tt_json_emit_array_end(j);
	tt_json_emit_object_end(j);
}

static void
stats_json(const struct tt_xi_stage_stats *s, struct tt_json_emit *j)
{
	tt_json_emit_object_begin(j);
	tt_json_emit_member_int(j, "position", s->position);
	tt_json_emit_member_string(j, "client", s->client);
	tt_json_emit_member_int(j, "count", (int64_t)s->count);
	tt_json_emit_member_int(j, "median_delay_us", s->median_delay_us);
	tt_json_emit_member_int(j, "p95_delay_us", s->p95_delay_us);
	tt_json_emit_member_int(j, "decisions", (int64_t)s->ndecisions);
	tt_json_emit_member_int_or_null(j, "median_decision_us", s->median_decision_us);
	tt_json_emit_member_int_or_null(j, "p95_decision_us", s->p95_decision_us);
	for (int d = TT_XI_DECIDED_NONE; d <= TT_XI_DECIDED_PENDING_END; d++)
		tt_json_emit_member_int(j, tt_xi_decision_name(d), (int64_t)s->decisions[d]);
	tt_json_emit_object_end(j);
}

void
xi_chains_json(const struct tt_xi_own *o, struct tt_json_emit *j)
{
	struct tt_xi_stage_stats stats[MAX_STAGES];
	size_t n;
	const struct tt_xi_chain *chains = tt_xi_own_chains(o, &n);
	size_t nstats = tt_xi_own_stage_stats(o, stats, MAX_STAGES);

	tt_json_emit_newline(j, "");
	tt_json_emit_key(j, "xi_chains");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < n; i++)
		chain_json(&chains[i], j);
	tt_json_emit_array_end(j);
	tt_json_emit_newline(j, "");
	tt_json_emit_key(j, "xi_chain_stages");
	tt_json_emit_array_begin(j);
	for (size_t i = 0; i < nstats && i < MAX_STAGES; i++)
		stats_json(&stats[i], j);
	tt_json_emit_array_end(j);
}
