/* SPDX-License-Identifier: MIT */
/*
 * xi-link: the kernel-to-X link of a recording as JSON lines, for the VM
 * tests of record --xi to assert on. One line per kernel touch (in end
 * order) with its XI partner and latency, one per XI touch sequence (per
 * client, raw separately) with its ownership outcome. Uses the library's
 * model (lib/model/model.h, tt_model_set_link) as every other consumer does.
 *
 * Usage: xi-link FILE [WINDOW_US]
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "reader.h"

static void
kernel_end(void *data, struct tt_ktouch *t)
{
	(void)data;
	printf("{\"kind\":\"ktouch\",\"serial\":%" PRIu64 ",\"device\":%u,\"slot\":%d,"
	       "\"tracking_id\":%d,\"begin_us\":%" PRId64 ",\"end_us\":%" PRId64 ",\"link\":\"%s\"",
	       t->serial, t->device, t->slot, t->tracking_id, t->begin_us, t->end_us,
	       tt_link_status_name(t->link));
	if (t->link == TT_LINK_LINKED)
		printf(",\"xi_deviceid\":%d,\"xi_touchid\":%u,\"xi_begin_us\":%" PRId64
		       ",\"latency_us\":%" PRId64 ",\"emulating_pointer\":%s",
		       t->xi_deviceid, t->xi_touchid, t->xi_begin_us, t->xi_begin_us - t->begin_us,
		       !t->xi_emulating_known ? "null" : t->xi_emulating_pointer ? "true" : "false");
	printf("}\n");
}

static void
xi_end(void *data, struct tt_xtouch *t)
{
	(void)data;
	printf("{\"kind\":\"xtouch\",\"serial\":%" PRIu64 ",\"client\":\"%s\",\"deviceid\":%d,"
	       "\"sourceid\":%d,\"touchid\":%u,\"raw\":%s,\"begin_us\":%" PRId64 ",\"end_us\":%" PRId64
	       ",\"emulating_pointer\":%s,\"owned_us\":%" PRId64 ",\"began_unowned\":%s,"
	       "\"outcome\":\"%s\",\"active_at_end\":%s}\n",
	       t->serial, t->client, t->deviceid, t->sourceid, t->touchid,
	       (t->flags & TT_XTOUCH_RAW) ? "true" : "false", t->begin_us, t->end_us,
	       (t->flags & TT_XTOUCH_EMULATING_POINTER) ? "true" : "false", t->owned_us,
	       (t->flags & TT_XTOUCH_BEGAN_UNOWNED) ? "true" : "false", tt_own_outcome_name(t->outcome),
	       (t->flags & TT_XTOUCH_ACTIVE_AT_END) ? "true" : "false");
}

int
main(int argc, char **argv)
{
	const struct tt_model_callbacks cb = { .kernel_end = kernel_end, .xi_end = xi_end };
	struct tt_reader *r = NULL;
	struct tt_model *m;
	struct tt_record rec;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: xi-link FILE [WINDOW_US]\n");
		return 2;
	}
	if (tt_reader_open(argv[1], &r) < 0) {
		fprintf(stderr, "xi-link: cannot open %s\n", argv[1]);
		return 1;
	}
	m = tt_model_new(&cb, NULL);
	tt_model_set_link(m, true, argc == 3 ? strtoll(argv[2], NULL, 10) : 0, 0);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			fprintf(stderr, "%s\n", tt_reader_error(r));
			continue;
		}
		tt_model_feed(m, &rec);
	}
	tt_model_finish(m);
	tt_model_free(m);
	rc = tt_reader_nerrors(r) ? 1 : 0;
	tt_reader_free(r);
	return rc;
}
