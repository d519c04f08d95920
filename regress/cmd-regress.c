/* SPDX-License-Identifier: MIT */
/* touchtape regress: every recording under DIR... replayed, recorded
 * again and compared, as TAP 14 (and JUnit XML) for CI. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "output.h"
#include "regress.h"
#include "util-strings.h"

struct regress_args {
	bool list;
	unsigned shard_k, shard_n;
	const char *junit;
	const char *keep;
	const char *display;
	bool vm;
	const char *kernels[RG_MAX_KERNELS];
	size_t nkernels;
	int tap_version;
	bool bless;
};

/* Progress on a terminal: case N of M, kernel, elapsed, failures so
 * far. In the VM (whose serial port is a log on the host) it goes to the
 * file regress --vm on the host names in TT_REGRESS_PROGRESS, which
 * shows it on its own terminal. */
struct progress {
	bool on;
	size_t n, total, failed;
	const char *name, *kernel, *file;
	double start, last;
};

static void
progress_show(void *data)
{
	struct progress *p = data;
	double t = rg_now_s();

	if (!p->on || t - p->last < 0.5)
		return;
	p->last = t;
	if (p->file) {
		_cleanup_fclose_ FILE *f = fopen(p->file, "we");
		if (f)
			fprintf(f, "%zu %zu %zu %s %.1f\n%s\n", p->n, p->total, p->failed, p->kernel, t - p->start,
				p->name);
		return;
	}
	rg_progress_line(p->n, p->total, p->kernel, t - p->start, p->failed, p->name);
}

/* A terminal only: not a pipe, not CI's log, not the VM rig's serial
 * port (a tty in the guest, a log on the host). */
static bool
progress_wanted(void)
{
	return isatty(STDERR_FILENO) && !getenv("CI") && !getenv("TT_VM_GUEST");
}

void
rg_progress_line(size_t n, size_t total, const char *kernel, double elapsed, size_t failed, const char *name)
{
	int s = (int)elapsed;

	fprintf(stderr, "\r\033[Kcase %zu of %zu, kernel %s, %d:%02d elapsed, %zu failed: %s", n, total, kernel,
		s / 60, s % 60, failed, name);
}

static void
progress_clear(struct progress *p)
{
	if (p->on && !p->file)
		fputs("\r\033[K", stderr);
	else if (p->on)
		unlink(p->file);	/* the host's line goes */
	p->last = 0;
}

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: touchtape regress [OPTIONS] DIR...\n"
		"\n"
		"Runs a directory of recordings as a regression suite. Every recording under\n"
		"each DIR (timeline .jsonl/.jsonl.gz, evemu, libinput record YAML, hid-recorder;\n"
		"found by content, like every reader) is a case: replayed at the layer it\n"
		"holds (uinput, or uhid for a HID recording), recorded again with the layers\n"
		"it has (kernel; XI when an X display is given and it has XI; libinput when it\n"
		"has libinput events), and compared as 'touchtape diff' compares, against\n"
		"NAME.expected.jsonl beside it if there is one, else against itself.\n"
		"NAME.regress beside it sets tolerances, ignores, skip=, layers=, timeout=\n"
		"(see touchtape-regress(1)). Each case runs in a process group of its own.\n"
		"TAP 14 goes to stdout, a one-line summary to stderr.\n"
		"\n"
		"Options:\n"
		"      --list             print the cases (of this shard) and exit\n"
		"      --shard K/N        run only shard K of N (by a hash of each case's\n"
		"                         path under its DIR: stable, so N jobs cover all)\n"
		"      --junit FILE       also write JUnit XML for GitLab and GitHub test\n"
		"                         reports (written beside FILE, then renamed)\n"
		"      --tap-version N    13 or 14 (default): 13 for TAP consumers that know no\n"
		"                         later version (the prove of Debian 12); the lines\n"
		"                         are the same\n"
		"      --keep DIR         keep every case's re-recording and logs in DIR\n"
		"                         (by default only failures are kept, in a\n"
		"                         temporary folder the output names)\n"
		"      --display DISPLAY  the X server for the XI layer (default $DISPLAY;\n"
		"                         with --vm, the VM's own Xorg)\n"
		"      --bless            write each case's NAME.expected.jsonl from this run\n"
		"                         (not compared); says each file written or replaced\n"
		"      --vm               run the suite inside the source tree's VM rig\n"
		"                         (tests/vm/run), no root needed: uinput, and what\n"
		"                         each case needs, started once: uhid and the HID\n"
		"                         drivers, udevd (libinput), Xorg (XI), Weston\n"
		"                         (Wayland)\n"
		"      --kernel KERNEL    with --vm: boot this kernel: a Debian kernel version\n"
		"                         or package (6.12, fetched into the VM cache), a\n"
		"                         linux-image .deb, or a vmlinux/bzImage run with the\n"
		"                         cached modules; given again, the suite runs on each\n"
		"                         kernel in turn, one test suite per kernel\n"
		"  -h, --help             show this help\n"
		"\n"
		"Exit status: 0 every case passed (or was skipped), 1 a case differs, 2 trouble\n"
		"(bad usage, a bad sidecar, a case that could not be run or timed out).\n"
		"Replaying needs root (uinput, uhid), or --vm.\n"
		"\n"
		"Examples:\n"
		"  sudo touchtape regress bugs/\n"
		"  sudo touchtape regress --shard 2/4 --junit report.xml bugs/\n"
		"  touchtape regress --vm --kernel 6.1 --kernel 6.12 --junit report.xml bugs/\n"
		"  touchtape regress --list bugs/\n");
}

static int
parse_shard(const char *arg, struct regress_args *a)
{
	int64_t k;
	int64_t n;
	_cleanup_free_ char *copy = strdup(arg);
	char *slash = strchr(copy, '/');

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (tt_parse_int64(copy, &k) < 0 || tt_parse_int64(slash + 1, &n) < 0 || n < 1 || n > 100000 || k < 1 ||
	    k > n)
		return -EINVAL;
	a->shard_k = (unsigned)k;
	a->shard_n = (unsigned)n;
	return 0;
}

/* --kernel, once per kernel the suite runs on. */
static int
add_kernel(struct regress_args *a, const char *kernel)
{
	if (a->nkernels >= RG_MAX_KERNELS)
		return -E2BIG;
	a->kernels[a->nkernels++] = kernel;
	return 0;
}

enum { O_LIST = 256, O_SHARD, O_JUNIT, O_KEEP, O_DISPLAY, O_VM, O_KERNEL, O_TAP_VERSION, O_BLESS };

/* The options (cli/commands.c lists them for every command). */
const struct option tt_regress_options[] = {
	{ "list", no_argument, NULL, O_LIST },
	{ "shard", required_argument, NULL, O_SHARD },
	{ "junit", required_argument, NULL, O_JUNIT },
	{ "keep", required_argument, NULL, O_KEEP },
	{ "display", required_argument, NULL, O_DISPLAY },
	{ "vm", no_argument, NULL, O_VM },
	{ "kernel", required_argument, NULL, O_KERNEL },
	{ "tap-version", required_argument, NULL, O_TAP_VERSION },
	{ "bless", no_argument, NULL, O_BLESS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char tt_regress_short_options[] = "h";

static int
parse_args(int argc, char **argv, struct regress_args *a)
{
	int c;

	while ((c = getopt_long(argc, argv, tt_regress_short_options, tt_regress_options, NULL)) != -1) {
		switch (c) {
		case O_LIST: a->list = true; break;
		case O_SHARD:
			if (parse_shard(optarg, a) < 0)
				return tt_usage_error("regress", "--shard takes K/N with 1 <= K <= N, not '%s'", optarg);
			break;
		case O_JUNIT: a->junit = optarg; break;
		case O_KEEP: a->keep = optarg; break;
		case O_DISPLAY: a->display = optarg; break;
		case O_VM: a->vm = true; break;
		case O_BLESS: a->bless = true; break;
		case O_KERNEL:
			if (add_kernel(a, optarg) < 0)
				return tt_usage_error("regress", "--kernel is given at most %d times", RG_MAX_KERNELS);
			break;
		case O_TAP_VERSION:
			if (strcmp(optarg, "13") != 0 && strcmp(optarg, "14") != 0)
				return tt_usage_error("regress", "--tap-version takes 13 or 14, not '%s'", optarg);
			a->tap_version = atoi(optarg);
			break;
		case 'h': usage(stdout); return -1;
		default: return tt_usage_error("regress", "unknown option");
		}
	}
	if (optind >= argc)
		return tt_usage_error("regress", "a DIR of recordings is needed");
	if (a->nkernels && !a->vm)
		return tt_usage_error("regress", "--kernel is for --vm");
	if (a->junit && strcmp(a->junit, "-") == 0)
		return tt_usage_error("regress", "--junit needs a file (TAP is on stdout)");
	return 0;
}

/* Replaying needs uinput (uhid for a HID case): said before the first
 * case, not as an error in every case. A node is checked only when it
 * cannot be opened, so a machine that has it reads no case twice. In the
 * VM, uhid comes with the HID drivers the first HID case loads (@later). */
static int
check_nodes(const struct rg_suite *s, unsigned later)
{
	static const struct {
		unsigned node;
		const char *path, *name;
	} nodes[] = {
		{ RG_NODE_UINPUT, "/dev/uinput", "uinput" },
		{ RG_NODE_UHID, "/dev/uhid", "uhid" },
	};
	unsigned missing = 0;
	int why[ARRAY_LENGTH(nodes)] = { 0 };

	for (size_t i = 0; i < ARRAY_LENGTH(nodes); i++) {
		if (!(later & nodes[i].node) && access(nodes[i].path, R_OK | W_OK) < 0) {
			missing |= nodes[i].node;
			why[i] = errno;
		}
	}
	for (size_t k = 0; missing && k < s->ncases; k++) {
		unsigned need = rg_case_nodes(&s->cases[k]) & missing;
		for (size_t i = 0; need && i < ARRAY_LENGTH(nodes); i++) {
			if (!(need & nodes[i].node))
				continue;
			tt_error("%s: %s: case %s replays through %s; run as root on a kernel with %s, "
				 "or in a VM with --vm",
				 nodes[i].path, strerror(why[i]), s->cases[k].name, nodes[i].name, nodes[i].name);
			return -why[i];
		}
	}
	return 0;
}

/* Where the cases' folders go: --keep DIR, or a temporary folder. */
static char *
work_dir(const char *keep)
{
	char *dir = NULL;

	if (keep) {
		struct stat st;

		if (mkdir(keep, 0755) < 0 && errno != EEXIST) {
			tt_error("%s: %s", keep, strerror(errno));
			return NULL;
		}
		errno = 0;
		if (stat(keep, &st) < 0 || !S_ISDIR(st.st_mode) || access(keep, W_OK | X_OK) < 0) {
			tt_error("%s: --keep needs a folder it can write in: %s", keep,
				 strerror(errno ? errno : ENOTDIR));
			return NULL;
		}
		return realpath(keep, NULL);
	}
	const char *tmp = getenv("TMPDIR");
	if (asprintf(&dir, "%s/touchtape-regress.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		abort();
	if (!mkdtemp(dir)) {
		tt_error("%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

static void
on_stop_signal(int sig)
{
	(void)sig;
	rg_interrupted = 1;
}

struct tally {
	size_t n[4];
	size_t run;
	size_t kept;	/* cases whose files are kept */
};

static void
summary(const struct tally *t, size_t total, double seconds, const char *kernel, const char *workdir, bool keep)
{
	fprintf(stderr, "touchtape regress: %zu case%s: %zu passed, %zu failed, %zu errors, %zu skipped in %.1f s on %s",
		total, total == 1 ? "" : "s", t->n[RG_PASS], t->n[RG_FAIL], t->n[RG_ERROR], t->n[RG_SKIP], seconds,
		kernel);
	if (t->run < total)
		fprintf(stderr, " (interrupted after %zu)", t->run);
	if (keep || t->kept)
		fprintf(stderr, "; recordings kept in %s", workdir);
	fputc('\n', stderr);
}

/* What --bless wrote, one line each: reviewed before a commit. */
static void
say_blessed(const struct rg_result *r)
{
	if (r->blessed)
		fprintf(stderr, "touchtape regress: --bless: %s\n", r->blessed);
}

static int
run_suite(const struct regress_args *a, const struct rg_suite *s, struct rg_result *res, const char *workdir,
	  struct tt_output *junit, struct rg_services *svc)
{
	struct utsname u;
	const char *pfile = getenv("TT_REGRESS_PROGRESS");
	struct progress p = { progress_wanted() || (pfile && *pfile), 0, s->ncases, 0, "", NULL, NULL,
			      rg_now_s(), 0 };
	struct rg_run_opts o = { .display = a->display ? a->display : getenv("DISPLAY"), .workdir = workdir,
				 .keep_all = a->keep != NULL, .bless = a->bless, .svc = svc,
				 .tick = progress_show, .tick_data = &p };
	struct tally t = { { 0 }, 0, 0 };

	o.kernel = p.kernel = uname(&u) == 0 ? u.release : "unknown";
	p.file = pfile && *pfile ? pfile : NULL;
	if (o.display && !*o.display)
		o.display = NULL;
	rg_tap_begin(stdout, s->ncases, a->tap_version);
	for (size_t i = 0; i < s->ncases && !rg_interrupted; i++) {
		p.n = i + 1;
		p.name = s->cases[i].name;
		if (rg_case_run(&s->cases[i], &o, &res[i]) < 0) {
			progress_clear(&p);
			printf("Bail out! %s: its folder could not be made in %s\n", s->cases[i].name, workdir);
			return TT_EXIT_TROUBLE;
		}
		progress_clear(&p);
		rg_tap_case(stdout, i + 1, &s->cases[i], &res[i]);
		say_blessed(&res[i]);
		t.n[res[i].verdict]++;
		t.run++;
		t.kept += res[i].dir != NULL;
		p.failed = t.n[RG_FAIL] + t.n[RG_ERROR];
	}
	if (junit && rg_junit_write(junit, s, res, rg_now_s() - p.start, o.kernel) < 0)
		return TT_EXIT_TROUBLE;
	summary(&t, s->ncases, rg_now_s() - p.start, o.kernel, workdir, a->keep != NULL);
	if (t.n[RG_ERROR] || rg_interrupted)
		return TT_EXIT_TROUBLE;
	return t.n[RG_FAIL] ? TT_EXIT_FAILURE : TT_EXIT_OK;
}

static int
list_cases(const struct rg_suite *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		printf("%s\n", s->cases[i].path);
	return TT_EXIT_OK;
}

static int
regress(const struct regress_args *a, char *const *dirs, size_t ndirs)
{
	_cleanup_(rg_suite_release) struct rg_suite s = { 0 };
	_cleanup_free_ char *workdir = NULL;
	_cleanup_free_ struct rg_result *res = NULL;
	_cleanup_(tt_output_freep) struct tt_output *junit = NULL;
	_cleanup_(rg_services_freep) struct rg_services *svc = NULL;
	const char *rig = getenv("TT_REGRESS_SERVICES");
	int rc;

	if (rg_suite_find(&s, dirs, ndirs) < 0)
		return TT_EXIT_TROUBLE;
	if (a->shard_n)
		rg_suite_shard(&s, a->shard_k, a->shard_n);
	if (a->list)
		return list_cases(&s);
	/* The devices and both targets before the first case: not after an
	 * hour of them. */
	bool in_vm = getenv("TT_VM_GUEST") && rig && *rig;
	if (check_nodes(&s, in_vm ? RG_NODE_UHID : 0) < 0)
		return TT_EXIT_TROUBLE;
	if (a->junit && rg_junit_open(a->junit, &s, &junit) < 0)
		return TT_EXIT_TROUBLE;
	if (!(workdir = work_dir(a->keep)))
		return TT_EXIT_TROUBLE;
	/* In the VM rig's guest (regress --vm): cases start what they need. */
	if (in_vm)
		rg_services_new(rig, workdir, &svc);
	res = tt_zalloc((s.ncases + 1) * sizeof(*res));
	signal(SIGINT, on_stop_signal);
	signal(SIGTERM, on_stop_signal);
	signal(SIGHUP, on_stop_signal);
	rc = run_suite(a, &s, res, workdir, junit, svc);
	for (size_t i = 0; i < s.ncases; i++)
		rg_result_release(&res[i]);
	if (!a->keep && svc && rc == TT_EXIT_OK)
		rg_services_forget_log(svc);
	if (!a->keep)
		rmdir(workdir);	/* only when empty: nothing failed */
	return rc;
}

/* --vm: the layers the suite's cases have say what the VM needs. */
static int
vm(const struct regress_args *a, int argc, char **argv)
{
	_cleanup_(rg_suite_release) struct rg_suite s = { 0 };
	struct rg_vm_opts vo = {
		.kernels = a->kernels, .nkernels = a->nkernels, .display = a->display != NULL,
		.junit = a->junit, .keep = a->keep, .tap_version = a->tap_version,
		.bless = a->bless, .dirs = argv + optind, .ndirs = (size_t)(argc - optind),
	};

	if (rg_suite_find(&s, argv + optind, (size_t)(argc - optind)) < 0)
		return TT_EXIT_TROUBLE;
	for (size_t i = 0; i < s.ncases; i++)
		vo.layers |= rg_case_layers(&s.cases[i]);
	return rg_vm_run(argc, argv, &vo);
}

int
tt_cmd_regress(int argc, char **argv)
{
	struct regress_args a = { .tap_version = 14 };
	int rc = parse_args(argc, argv, &a);

	if (rc != 0)
		return rc < 0 ? TT_EXIT_OK : rc;
	if (a.vm) {
		return vm(&a, argc, argv);
	}
	return regress(&a, argv + optind, (size_t)(argc - optind));
}
