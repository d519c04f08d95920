/* SPDX-License-Identifier: MIT */
/* Thin wrappers over the JSON emitter (json-emit.h) for the commands that
 * print their JSON reports piece by piece. */
#include "config.h"

#include "json-emit.h"
#include "model-json.h"

void
tt_json_string(FILE *out, const char *str)
{
	struct tt_json_emit j;

	tt_json_emit_init_file(&j, out);
	tt_json_emit_string(&j, str);
}

void
tt_json_double(FILE *out, double v, int decimals)
{
	struct tt_json_emit j;

	tt_json_emit_init_file(&j, out);
	tt_json_emit_fixed(&j, v, decimals);
}
