/* SPDX-License-Identifier: MIT */
/* The Trace Event Format's JSON, one event a line (trace-writer.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "trace-writer.h"
#include "util-mem.h"

void
trace_writer_begin(struct trace_writer *w, FILE *out)
{
	*w = (struct trace_writer){ 0 };
	tt_json_emit_init_file(&w->j, out);
	tt_json_emit_object_begin(&w->j);
	/* The recordings are touches of tens of milliseconds. */
	tt_json_emit_member_string(&w->j, "displayTimeUnit", "ms");
	tt_json_emit_key(&w->j, "traceEvents");
	tt_json_emit_array_begin(&w->j);
}

void
trace_writer_release(struct trace_writer *w)
{
	free(w->named);
	w->named = NULL;
	w->nnamed = w->capnamed = 0;
}

int
trace_writer_end(struct trace_writer *w, FILE *out)
{
	tt_json_emit_raw(&w->j, "\n", 1);
	tt_json_emit_array_end(&w->j);
	tt_json_emit_object_end(&w->j);
	fputc('\n', out);
	trace_writer_release(w);
	if (fflush(out) != 0 || ferror(out))
		return -EIO;
	return 0;
}

void
trace_event(struct trace_writer *w, char ph, const char *name, const char *cat, int64_t ts,
	    const struct trace_track *track)
{
	char phase[2] = { ph, '\0' };

	tt_json_emit_newline(&w->j, "");
	tt_json_emit_object_begin(&w->j);
	tt_json_emit_member_string(&w->j, "name", name);
	if (cat)
		tt_json_emit_member_string(&w->j, "cat", cat);
	tt_json_emit_member_string(&w->j, "ph", phase);
	tt_json_emit_member_int(&w->j, "ts", ts);
	tt_json_emit_member_int(&w->j, "pid", track->pid);
	tt_json_emit_member_int(&w->j, "tid", track->tid);
}

void
trace_args_begin(struct trace_writer *w)
{
	tt_json_emit_key(&w->j, "args");
	tt_json_emit_object_begin(&w->j);
}

void
trace_args_end(struct trace_writer *w)
{
	tt_json_emit_object_end(&w->j);
}

void
trace_event_end(struct trace_writer *w)
{
	tt_json_emit_object_end(&w->j);
}

/* Metadata events carry their value in args.name / args.sort_index. */
static void
metadata(struct trace_writer *w, const char *what, const struct trace_track *track, const char *key,
	 const char *s, int64_t v)
{
	trace_event(w, 'M', what, NULL, 0, track);
	trace_args_begin(w);
	if (s)
		tt_json_emit_member_string(&w->j, key, s);
	else
		tt_json_emit_member_int(&w->j, key, v);
	trace_args_end(w);
	trace_event_end(w);
}

/* Whether (@pid, @tid) was named; notes it if not. */
static bool
named_before(struct trace_writer *w, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < w->nnamed; i++) {
		if (w->named[i].pid == pid && w->named[i].tid == tid)
			return true;
	}
	if (w->nnamed == w->capnamed) {
		w->capnamed = w->capnamed ? 2 * w->capnamed : 16;
		w->named = tt_reallocarray(w->named, w->capnamed, sizeof(*w->named));
	}
	w->named[w->nnamed++] = (struct trace_track){ pid, tid };
	return false;
}

void
trace_process(struct trace_writer *w, int64_t pid, const char *name, int64_t sort_index)
{
	struct trace_track t = { pid, 0 };

	/* tid -1: the process itself. */
	if (named_before(w, pid, -1))
		return;
	metadata(w, "process_name", &t, "name", name, 0);
	metadata(w, "process_sort_index", &t, "sort_index", NULL, sort_index);
}

void
trace_thread(struct trace_writer *w, int64_t pid, int64_t tid, const char *name)
{
	struct trace_track t = { pid, tid };

	if (named_before(w, pid, tid))
		return;
	metadata(w, "thread_name", &t, "name", name, 0);
	metadata(w, "thread_sort_index", &t, "sort_index", NULL, tid);
}

void
trace_slice(struct trace_writer *w, const char *name, const char *cat, int64_t begin_us, int64_t end_us,
	    const struct trace_track *track)
{
	trace_event(w, 'X', name, cat, begin_us, track);
	tt_json_emit_member_int(&w->j, "dur", end_us > begin_us ? end_us - begin_us : 0);
	w->nslices++;
}

void
trace_flow(struct trace_writer *w, const char *name, const struct trace_track *from, int64_t from_ts,
	   const struct trace_track *to, int64_t to_ts)
{
	uint64_t id = ++w->nflows;

	trace_event(w, 's', name, "link", from_ts, from);
	tt_json_emit_member_int(&w->j, "id", (int64_t)id);
	trace_event_end(w);
	trace_event(w, 'f', name, "link", to_ts, to);
	tt_json_emit_member_int(&w->j, "id", (int64_t)id);
	/* "e": the slice enclosing the end, the touch that begins there. */
	tt_json_emit_member_string(&w->j, "bp", "e");
	trace_event_end(w);
}

void
trace_member_point(struct trace_writer *w, const char *key, double x, double y)
{
	tt_json_emit_key(&w->j, key);
	tt_json_emit_array_begin(&w->j);
	tt_json_emit_real(&w->j, x);
	tt_json_emit_real(&w->j, y);
	tt_json_emit_array_end(&w->j);
}
