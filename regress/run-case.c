/* SPDX-License-Identifier: MIT */
/* One case, in a child that leads its own process group: replay the
 * recording (uinput, or uhid for HID), record the replayed devices again
 * with the layers the original has, and diff. Every step is this
 * touchtape binary run as a command, so a case behaves exactly like the
 * commands a developer would type; a case past its timeout has its whole
 * group killed, and replay's own exit path removes the devices. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "reader.h"
#include "regress.h"
#include "run-command.h"

volatile sig_atomic_t rg_interrupted;

/* The files a case's folder may hold, removed when it passes. */
static const char *const case_files[] = {
	"replayed.jsonl", "replay.log", "record.log", "diff.txt", "why",
};

struct case_plan {
	unsigned layers;	/* what is recorded again */
	bool has_frames;	/* the original has evdev frames */
	int64_t duration_us;
	const char *display;	/* XI: the X display */
};

double
rg_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *
in_dir(const char *dir, const char *file)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, file) < 0)
		abort();
	return p;
}

static void
note_layers(struct case_plan *p, const struct tt_record *rec, int64_t *first)
{
	int64_t t;

	if (rec->type == TT_RECORD_FRAME)
		p->has_frames = true;
	else if (rec->type == TT_RECORD_XI_EVENT)
		p->layers |= RG_LAYER_XI;
	else if (rec->type == TT_RECORD_LI_EVENT || rec->type == TT_RECORD_LI_DEVICE)
		p->layers |= RG_LAYER_LIBINPUT;
	else if (rec->type == TT_RECORD_HID_DEVICE)
		p->layers |= RG_LAYER_HID;
	else if (rec->type == TT_RECORD_WL_EVENT)
		p->layers |= RG_LAYER_WAYLAND;
	if (tt_record_time(rec, &t)) {
		if (*first < 0)
			*first = t;
		if (t - *first > p->duration_us)
			p->duration_us = t - *first;
	}
}

/* What the original holds: its layers and its length. */
static int
plan_case(const char *path, struct case_plan *out)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	struct case_plan p = { RG_LAYER_KERNEL, false, 0, NULL };
	struct tt_record rec;
	int64_t first = -1;
	int rc = tt_reader_open(path, &r);

	if (rc < 0)
		return rc;
	if (tt_reader_format(r) == TT_FORMAT_HID_RECORDER)
		p.layers |= RG_LAYER_HID;
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc > 0)
			note_layers(&p, &rec, &first);
		else if (rc == -EIO)
			return rc;
	}
	*out = p;
	return 0;
}

/* ---- the child ---------------------------------------------------------- */

static void
say_why(const char *dir, const char *fmt, ...) _printf_(2, 3);

static void
say_why(const char *dir, const char *fmt, ...)
{
	_cleanup_free_ char *path = in_dir(dir, "why");
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

/* Runs touchtape ARGV with stdin @in (-1: /dev/null) and stdout and
 * stderr appended to @log; -1 when it could not fork. */
static pid_t
spawn(const char *const *argv, int in, const char *log)
{
	struct tt_run_io io = { .in = in >= 0 ? in : TT_RUN_NULL, .log = log };
	pid_t pid;

	if (tt_run_command(argv, &io, &pid) < 0)
		return -1;
	return pid;
}

static int
wait_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static char *
slurp(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &size, '\0', f) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Waits until @log holds @needle; false when @pid ended or time ran out
 * first (the case's own timeout is the parent's). */
static bool
wait_log(const char *log, const char *needle, pid_t pid, double seconds)
{
	double end = rg_now_s() + seconds;

	while (rg_now_s() < end) {
		_cleanup_free_ char *text = slurp(log);
		if (text && strstr(text, needle))
			return true;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return false;
		usleep(20000);
	}
	return false;
}

/* The exit status of @pid, SIGINT after @seconds if it is still there. */
static int
wait_gone(pid_t pid, double seconds)
{
	double end = rg_now_s() + seconds;
	int st;

	while (rg_now_s() < end) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
		usleep(20000);
	}
	kill(pid, SIGINT);
	return wait_exit(pid);
}

/* The last line of a log, for a one-line reason. */
static char *
last_line(const char *log)
{
	_cleanup_free_ char *text = slurp(log);
	size_t n = text ? strlen(text) : 0;

	while (n && text[n - 1] == '\n')
		text[--n] = '\0';
	if (!n)
		return strdup("(no output)");
	char *nl = strrchr(text, '\n');
	return strdup(nl ? nl + 1 : text);
}

/* The evdev nodes replay printed: "/dev/input/eventN" words. */
static size_t
replay_nodes(const char *log, char **nodes, size_t max)
{
	_cleanup_free_ char *text = slurp(log);
	size_t n = 0;

	for (char *p = text; p && (p = strstr(p, "/dev/input/event")) && n < max;) {
		size_t len = strlen("/dev/input/event");
		while (p[len] >= '0' && p[len] <= '9')
			len++;
		nodes[n++] = strndup(p, len);
		p += len;
	}
	return n;
}

struct child {
	const struct rg_case *c;
	const struct rg_run_opts *o;
	const struct case_plan *plan;
	const char *dir;
	char *out;		/* replayed.jsonl */
	char *rlog, *clog;	/* replay.log, record.log */
};

static void
free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

/* record's command line: the nodes, and XI as the case asks. */
static size_t
record_argv(const struct child *ch, const char **argv, char **nodes, size_t nnodes, char *xi, size_t xisize,
	    char *grab, size_t grabsize)
{
	size_t n = 0;

	argv[n++] = "touchtape";
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = ch->out;
	if (ch->plan->layers & RG_LAYER_XI) {
		snprintf(xi, xisize, "--xi=%s", ch->plan->display);
		argv[n++] = xi;
		if (ch->c->side.xi_grab) {
			snprintf(grab, grabsize, "--xi-grab=%s", ch->c->side.xi_grab);
			argv[n++] = grab;
		}
		if (ch->c->side.xi_window)
			argv[n++] = "--xi-window";
	}
	/* The compositor of $WAYLAND_DISPLAY (Weston in the VM). */
	if (ch->plan->layers & RG_LAYER_WAYLAND)
		argv[n++] = "--wayland";
	for (size_t i = 0; i < nnodes; i++)
		argv[n++] = nodes[i];
	argv[n] = NULL;
	return n;
}

/* The X server takes a new device a moment after the kernel has it: a
 * touch played before would reach the kernel only. Wait (a bounded time:
 * X may also ignore a device) until record has written each node's XI
 * device. */
static void
wait_x_devices(const struct child *ch, pid_t rec, char **nodes, size_t nnodes)
{
	for (size_t i = 0; i < nnodes; i++) {
		char needle[128];
		snprintf(needle, sizeof(needle), "\"device_node\":\"%s\"", nodes[i]);
		if (!wait_log(ch->out, needle, rec, 10))
			return;
	}
}

/* The seat's capability events in record's Wayland layer so far: their
 * number, and whether the last has touch or pointer. */
static size_t
wl_seat_caps(const char *path, bool *input)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	size_t n = 0;

	*input = false;
	while (f && getline(&line, &size, f) > 0) {
		if (!strstr(line, "\"ev\":\"capabilities\""))
			continue;
		n++;
		*input = strstr(line, "\"touch\"") || strstr(line, "\"pointer\"");
	}
	return n;
}

/* The compositor, too, adds a new device a moment after the kernel (it
 * hears of it from udev), and removes the previous case's a moment after
 * it went: wait, a bounded time, until the client's seat has input and
 * has not changed for half a second. */
static void
wait_wl_seat(const struct child *ch, pid_t rec)
{
	double end = rg_now_s() + 10;
	double since = rg_now_s();
	size_t seen = 0;
	bool input = false;

	while (rg_now_s() < end) {
		size_t n = wl_seat_caps(ch->out, &input);
		if (n != seen) {
			seen = n;
			since = rg_now_s();
		} else if (input && rg_now_s() - since >= 0.5) {
			return;
		}
		if (waitpid(rec, NULL, WNOHANG) == rec)
			return;
		usleep(50000);
	}
}

/* Starts record once the replay's devices exist, then lets the replay
 * begin (it waits for Enter), so no frame is played before record reads. */
static int
record_replay(struct child *ch, pid_t replay, int go)
{
	char *nodes[16];
	const char *argv[40];
	char xi[256];
	char grab[128];
	size_t nnodes;
	pid_t rec;
	int rc;

	if (!wait_log(ch->rlog, "Press Enter", replay, 30)) {
		_cleanup_free_ char *why = last_line(ch->rlog);
		say_why(ch->dir, "replay did not start: %s", why);
		return TT_EXIT_TROUBLE;
	}
	nnodes = replay_nodes(ch->rlog, nodes, ARRAY_LENGTH(nodes));
	/* The compositor learns of the devices from udev: once udev is done
	 * with them, the client record starts sees them from its start. */
	if ((ch->plan->layers & RG_LAYER_WAYLAND) && ch->o->svc)
		rg_services_settle(ch->o->svc);
	record_argv(ch, argv, nodes, nnodes, xi, sizeof(xi), grab, sizeof(grab));
	rec = spawn(argv, -1, ch->clog);
	if (!wait_log(ch->clog, "recording ", rec, 30)) {
		_cleanup_free_ char *why = last_line(ch->clog);
		say_why(ch->dir, "record did not start: %s", why);
		free_strv(nodes, nnodes);
		return TT_EXIT_TROUBLE;
	}
	if (ch->plan->layers & RG_LAYER_XI)
		wait_x_devices(ch, rec, nodes, nnodes);
	if (ch->plan->layers & RG_LAYER_WAYLAND)
		wait_wl_seat(ch, rec);
	free_strv(nodes, nnodes);
	(void)!write(go, "\n", 1);
	close(go);
	rc = wait_exit(replay);
	/* record ends when its devices go; SIGINT if one lingers (XI). */
	int rrc = wait_gone(rec, 2);
	if (rc != 0 || rrc != 0) {
		_cleanup_free_ char *why = last_line(rc != 0 ? ch->rlog : ch->clog);
		say_why(ch->dir, "%s exited %d: %s", rc != 0 ? "replay" : "record", rc != 0 ? rc : rrc, why);
		return TT_EXIT_TROUBLE;
	}
	return 0;
}

static int
replay_kernel(struct child *ch)
{
	const char *argv[] = { "touchtape", "replay", "--wait", ch->c->path, NULL, NULL };
	int go[2];

	if (ch->plan->layers & RG_LAYER_HID) {
		argv[3] = "--hid";
		argv[4] = ch->c->path;
	}
	if (pipe2(go, O_CLOEXEC) < 0)
		return TT_EXIT_TROUBLE;
	pid_t replay = spawn(argv, go[0], ch->rlog);
	close(go[0]);
	return record_replay(ch, replay, go[1]);
}

/* libinput: replay --libinput records both layers itself. */
static int
replay_libinput(struct child *ch)
{
	const char *argv[] = { "touchtape", "replay", "--libinput", "-o", ch->out, ch->c->path, NULL };
	int rc = wait_exit(spawn(argv, -1, ch->rlog));

	if (rc != 0) {
		_cleanup_free_ char *why = last_line(ch->rlog);
		say_why(ch->dir, "replay --libinput exited %d: %s", rc, why);
		return TT_EXIT_TROUBLE;
	}
	return 0;
}

static int
compare(struct child *ch)
{
	const struct rg_sidecar *s = &ch->c->side;
	const char *argv[ARRAY_LENGTH(s->diff_args) + 8];
	_cleanup_free_ char *log = in_dir(ch->dir, "diff.txt");
	size_t n = 0;

	argv[n++] = "touchtape";
	argv[n++] = "diff";
	for (size_t i = 0; i < s->ndiff_args; i++)
		argv[n++] = s->diff_args[i];
	argv[n++] = ch->c->expected ? ch->c->expected : ch->c->path;
	argv[n++] = ch->out;
	argv[n] = NULL;
	int rc = wait_exit(spawn(argv, -1, log));
	if (rc == 1) {
		_cleanup_free_ char *count = last_line(log);
		say_why(ch->dir, "%s from %s", count, ch->c->expected ? "its expected recording" : "the original");
	}
	else if (rc != 0)
		say_why(ch->dir, "diff exited %d", rc);
	return rc == 0 || rc == 1 ? rc : TT_EXIT_TROUBLE;
}

static int
child_main(struct child *ch)
{
	int rc;

	if (!ch->plan->has_frames && !ch->c->expected && !ch->o->bless) {
		say_why(ch->dir, "no evdev frames to compare with: give it a NAME.expected.jsonl "
				 "(a run with --keep on a known-good stack makes one)");
		return TT_EXIT_TROUBLE;
	}
	if (ch->plan->layers & RG_LAYER_LIBINPUT)
		rc = replay_libinput(ch);
	else
		rc = replay_kernel(ch);
	/* --bless: the run is the new expected recording, not compared. */
	return rc || ch->o->bless ? rc : compare(ch);
}

/* ---- the parent --------------------------------------------------------- */

/* The case's folder under the work folder: its name with '/' as '_',
 * and '_' and '%' escaped as %5F and %25, so that two names never share a
 * folder ("a/b" is a_b, "a_b" is a%5Fb) and a folder gives its name back. */
static char *
case_dir(const char *workdir, const char *name)
{
	char *dir = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&dir, &size);

	if (!f)
		abort();
	fprintf(f, "%s/", workdir);
	for (const char *p = name; *p; p++) {
		if (*p == '/')
			fputc('_', f);
		else if (*p == '_' || *p == '%')
			fprintf(f, "%%%02X", (unsigned char)*p);
		else
			fputc(*p, f);
	}
	if (fclose(f) != 0)
		abort();
	return dir;
}

static void
remove_case_dir(const char *dir)
{
	for (size_t i = 0; i < ARRAY_LENGTH(case_files); i++) {
		_cleanup_free_ char *p = in_dir(dir, case_files[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* Until the group @pgid is empty (its orphans reaped by init), at most
 * @seconds. */
static void
wait_group(pid_t pgid, double seconds)
{
	double end = rg_now_s() + seconds;

	while (rg_now_s() < end && kill(-pgid, 0) == 0)
		usleep(50000);
}

/* Waits for the case's child until @deadline; past it, the whole group
 * is stopped: SIGTERM first so that replay lifts its touches and removes
 * its devices, SIGKILL for what is left. */
static int
wait_case(pid_t pid, double deadline, const struct rg_run_opts *o, bool *timed_out)
{
	int st;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return TT_EXIT_TROUBLE;
		if ((rg_now_s() >= deadline || rg_interrupted) && !*timed_out) {
			*timed_out = true;
			kill(-pid, SIGTERM);
			deadline = rg_now_s() + 3;
			continue;
		}
		if (rg_now_s() >= deadline) {
			kill(-pid, SIGKILL);
			deadline += 3600;
		}
		if (o->tick)
			o->tick(o->tick_data);
		usleep(50000);
	}
	/* Stopped: the leader went at once, let replay finish lifting its
	 * touches; whatever is left of the group then goes with SIGKILL. */
	if (*timed_out)
		wait_group(pid, 3);
	kill(-pid, SIGKILL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : TT_EXIT_TROUBLE;
}

static void
fill_result(struct rg_result *res, const char *dir, int rc, bool timed_out, double timeout_s)
{
	_cleanup_free_ char *why = in_dir(dir, "why");
	_cleanup_free_ char *diff = in_dir(dir, "diff.txt");

	res->verdict = rc == 0 ? RG_PASS : rc == 1 ? RG_FAIL : RG_ERROR;
	if (timed_out) {
		res->verdict = RG_ERROR;
		if (asprintf(&res->message, "timed out after %.0f s: the case's processes were killed", timeout_s) < 0)
			abort();
	} else {
		res->message = slurp(why);
	}
	unlink(why);	/* said in the message: not a file to keep */
	if (rc != 0 && !res->message)
		res->message = strdup(rc == 1 ? "differs" : "could not be run");
	if (rc == 1)
		res->diff_text = slurp(diff);
}

static void
bless(const struct rg_case *c, const char *dir, struct rg_result *res)
{
	_cleanup_free_ char *replayed = in_dir(dir, "replayed.jsonl");

	if (rg_bless(c, replayed, &res->blessed) < 0) {
		res->verdict = RG_ERROR;
		if (asprintf(&res->message, "--bless: %s could not be written", c->bless_path) < 0)
			abort();
	}
}

static int
run_child(const struct rg_case *c, const struct rg_run_opts *o, const struct case_plan *plan, const char *dir)
{
	struct child ch = { c, o, plan, dir, in_dir(dir, "replayed.jsonl"), in_dir(dir, "replay.log"),
			    in_dir(dir, "record.log") };
	int rc;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	rc = child_main(&ch);
	free(ch.out);
	free(ch.rlog);
	free(ch.clog);
	return rc;
}

static int
prepare(const struct rg_case *c, const struct rg_run_opts *o, struct case_plan *plan)
{
	int rc = plan_case(c->path, plan);

	if (rc < 0)
		return rc;
	if (c->side.layers)
		plan->layers &= c->side.layers | RG_LAYER_HID;
	plan->display = o->display;
	/* In the VM an XI case gets the rig's Xorg; elsewhere XI needs an X
	 * display given, and Wayland $WAYLAND_DISPLAY. */
	if (o->svc)
		return 0;
	if (!o->display)
		plan->layers &= ~(unsigned)RG_LAYER_XI;
	const char *wl = getenv("WAYLAND_DISPLAY");
	if (!wl || !*wl)
		plan->layers &= ~(unsigned)RG_LAYER_WAYLAND;
	return 0;
}

/* In the VM: what the case needs, started; an error when it did not
 * start (the case never ran: trouble). */
static int
start_services(const struct rg_run_opts *o, struct case_plan *plan, struct rg_result *res)
{
	char *why = NULL;

	if (!o->svc)
		return 0;
	if (rg_services_need(o->svc, plan->layers, &res->ran, &why) < 0) {
		res->verdict = RG_ERROR;
		res->message = why;
		return -EIO;
	}
	res->versions = rg_services_versions(o->svc, plan->layers);
	if (plan->layers & RG_LAYER_XI)
		plan->display = rg_services_display(o->svc);
	return 0;
}

unsigned
rg_case_layers(const struct rg_case *c)
{
	struct case_plan plan;

	if (c->side.skip || plan_case(c->path, &plan) < 0)
		return 0;
	if (c->side.layers)
		plan.layers &= c->side.layers | RG_LAYER_HID;
	return plan.layers;
}

unsigned
rg_case_nodes(const struct rg_case *c)
{
	struct case_plan plan;

	if (c->side.skip || plan_case(c->path, &plan) < 0)
		return 0;
	if (!plan.has_frames && !c->expected)
		return 0;	/* an error that replays nothing */
	return plan.layers & RG_LAYER_HID ? RG_NODE_UHID : RG_NODE_UINPUT;
}

int
rg_case_run(const struct rg_case *c, const struct rg_run_opts *o, struct rg_result *res)
{
	struct case_plan plan;
	_cleanup_free_ char *dir = case_dir(o->workdir, c->name);
	double start = rg_now_s();
	double timeout_s;
	bool timed_out = false;
	int rc;

	memset(res, 0, sizeof(*res));
	res->kernel = o->kernel;
	if (c->side.skip) {
		res->verdict = RG_SKIP;
		res->message = strdup(c->side.skip);
		return 0;
	}
	if ((rc = prepare(c, o, &plan)) < 0) {
		res->verdict = RG_ERROR;
		if (asprintf(&res->message, "cannot read %s: %s", c->path, strerror(-rc)) < 0)
			abort();
		return 0;
	}
	if (start_services(o, &plan, res) < 0)
		return 0;
	remove_case_dir(dir);	/* a --keep DIR reused: no stale files */
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		rc = -errno;
		tt_error("%s: %s", dir, strerror(-rc));
		return rc;
	}
	timeout_s = c->side.timeout_us ? c->side.timeout_us / 1e6 : plan.duration_us / 1e6 + 30;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(run_child(c, o, &plan, dir));
	setpgid(pid, pid);
	rc = wait_case(pid, start + timeout_s, o, &timed_out);
	fill_result(res, dir, rc, timed_out, timeout_s);
	if (o->bless && res->verdict == RG_PASS)
		bless(c, dir, res);
	res->seconds = rg_now_s() - start;
	if ((res->verdict == RG_PASS && !o->keep_all) || rmdir(dir) == 0)
		remove_case_dir(dir);	/* (or nothing in it to keep) */
	else
		res->dir = steal(&dir);
	return 0;
}

void
rg_result_release(struct rg_result *r)
{
	if (!r)
		return;
	free(r->message);
	free(r->dir);
	free(r->diff_text);
	free(r->ran);
	free(r->versions);
	free(r->blessed);
	memset(r, 0, sizeof(*r));
}
