/* SPDX-License-Identifier: MIT */
/* The one replay pipeline (replay/pipeline.h) over a fake device side:
 * the order of its ops, the devices destroyed and their readers freed on
 * every path (a failed create, a failed write, a stop signal), --dry-run
 * playing one loop for --loop 0, and the --report pieces. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pipeline.h"
#include "test-common.h"

struct fake {
	char calls[512];	/* each op's name, in call order */
	int create_rc;
	int play_rc;
	bool raise_term;	/* play: a SIGTERM, then a wait */
	bool verify_fails;
	uint32_t loops_played;
};

static void
called(struct fake *f, const char *op)
{
	size_t n = strlen(f->calls);

	snprintf(f->calls + n, sizeof(f->calls) - n, "%s%s", n ? " " : "", op);
}

static int
fake_play(void *data, const struct rp_options *o, int64_t start_us, struct rp_clock *clock,
	  struct rp_stats *st)
{
	struct fake *f = data;

	called(f, "play");
	f->loops_played = o->loops;
	if (f->raise_term) {
		raise(SIGTERM);
		return clock->wait_until(clock->data, start_us + 1000000);
	}
	if (clock->wait_until(clock->data, start_us + 1000) != 0)
		return -EINTR;
	rp_stats_note(st, start_us + 1000, 5);
	st->frames_written = 1;
	st->extra_frames = 2;
	st->loops_done = o->loops;
	return f->play_rc;
}

static int
fake_create(void *data, struct tt_loop *loop, bool quiet)
{
	struct fake *f = data;

	(void)loop;
	(void)quiet;
	called(f, "create");
	return f->create_rc;
}

static int
fake_start(void *data, struct tt_loop *loop)
{
	(void)loop;
	called(data, "start");
	return 0;
}

static int
fake_finish(void *data, struct tt_loop *loop, bool quiet)
{
	(void)loop;
	(void)quiet;
	called(data, "finish");
	return 0;
}

static void
fake_detach(void *data)
{
	called(data, "detach");
}

static void
fake_destroy(void *data)
{
	called(data, "destroy");
}

static void
fake_counts(void *data, const struct rp_stats *st, bool dry)
{
	(void)st;
	(void)dry;
	called(data, "counts");
}

static void
fake_fields(void *data, FILE *f)
{
	(void)data;
	fputs(",\"fake\":1", f);
}

static int
fake_attach(void *data, struct tt_loop *loop, void **verifier)
{
	(void)loop;
	called(data, "attach");
	*verifier = data;
	return 0;
}

static bool
fake_drain(void *data, struct tt_loop *loop, int timeout_ms)
{
	(void)loop;
	(void)timeout_ms;
	called(data, "drain");
	return true;
}

static bool
fake_conclude(void *data, const struct rp_stats *st, FILE *out)
{
	struct fake *f = data;

	(void)st;
	(void)out;
	called(f, "conclude");
	return f->verify_fails;
}

static void
fake_report(void *data, FILE *f)
{
	(void)data;
	fputs(",\"verify\":{}", f);
}

static const struct rp_verify_ops fake_verify = {
	fake_drain, fake_conclude, fake_report,
};

static const struct rp_side_ops fake_ops = {
	.play = fake_play, .create = fake_create, .start = fake_start, .finish = fake_finish,
	.detach = fake_detach, .destroy = fake_destroy, .print_counts = fake_counts,
	.report_fields = fake_fields, .writing = "writing", .lifted = "lifted",
	.released = "released", .verify_attach = fake_attach, .verify = &fake_verify,
};

static int
live(struct fake *f, bool verify)
{
	struct rp_side side = { .ops = &fake_ops, .data = f };
	const struct rp_pipeline_options po = { .verify = verify, .quiet = true };
	struct rp_options o;

	rp_options_init(&o);
	return rp_pipeline_live(&side, &o, &po, NULL);
}

static void
test_live_order(void)
{
	struct fake f = { 0 };

	check_int_eq(live(&f, true), TT_EXIT_OK);
	check_str_eq(f.calls, "create attach start play drain finish destroy counts conclude "
		     "detach destroy");
	memset(&f, 0, sizeof(f));
	f.verify_fails = true;
	check_int_eq(live(&f, true), TT_EXIT_FAILURE);
	memset(&f, 0, sizeof(f));
	check_int_eq(live(&f, false), TT_EXIT_OK);
	check_str_eq(f.calls, "create start play finish destroy counts detach destroy");
}

/* Whatever goes wrong, what was created goes. */
static void
test_live_errors(void)
{
	struct fake f = { .create_rc = -ENODEV };

	check_int_eq(live(&f, true), TT_EXIT_TROUBLE);
	check_str_eq(f.calls, "create detach destroy");
	memset(&f, 0, sizeof(f));
	f.play_rc = -EIO;
	check_int_eq(live(&f, false), TT_EXIT_TROUBLE);
	check_str_eq(f.calls, "create start play finish destroy counts detach destroy");
}

static void
test_live_signal(void)
{
	struct fake f = { .raise_term = true };

	check_int_eq(live(&f, false), 128 + SIGTERM);
	check_str_eq(f.calls, "create start play finish destroy counts detach destroy");
}

static void
test_dry_report(void)
{
	struct fake f = { 0 };
	struct rp_side side = { .ops = &fake_ops, .data = &f };
	const char *path = tt_test_tmpfile("", 0);
	const char *inputs[] = { NULL };
	struct tt_output *out = NULL;
	struct rp_options o;
	char *text;

	rp_options_init(&o);
	o.loops = 0;
	check_int_eq(tt_output_open(path, inputs, &out), 0);
	check_int_eq(rp_pipeline_dry(&side, &o, out), TT_EXIT_OK);
	tt_output_free(out);
	/* --loop 0 prints one loop; no device made, nothing read back. */
	check_int_eq(f.loops_played, 1);
	check_str_eq(f.calls, "play counts");
	text = tt_test_slurp(path, NULL);
	check_str_eq(text, "{\"frames_written\":1,\"extra_frames\":2,\"loops\":1,\"fake\":1,"
		     "\"lateness\":{\"median_us\":5,\"p99_us\":5,\"max_us\":5,\"drift_us\":0}}\n");
	free(text);
}

int
main(void)
{
	RUN(test_live_order);
	RUN(test_live_errors);
	RUN(test_live_signal);
	RUN(test_dry_report);
	return tt_test_result();
}
