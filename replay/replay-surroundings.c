/* SPDX-License-Identifier: MIT */
/* replay: the recorded surroundings recreated for the replayed devices
 * (a udev rule, libinput quirks), and --isolate. See replay-surroundings.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "replay-surroundings.h"
#include "util-mem.h"

#define RULE_PREFIX "99-touchtape-replay-"
#define QUIRKS_MARK "# touchtape replay "

struct rp_sur {
	struct rp_sur_options o;
	pid_t pid;
	size_t n;
	char **tags;		/* per device, NULL when none installed */
	char *rule_path;	/* written, to remove */
	bool quirks_written;
};

/* Properties udev or the kernel set from the device itself: copying the
 * recorded ones would lie about the replayed device (its node, its
 * path) or fight udev's own bookkeeping. */
bool
rp_sur_property_is_udevs(const char *name)
{
	static const char *const exact[] = {
		"ACTION", "SEQNUM", "DEVPATH", "DEVNAME", "DEVTYPE", "DEVLINKS", "DRIVER",
		"MAJOR", "MINOR", "SUBSYSTEM", "USEC_INITIALIZED", "TAGS", "CURRENT_TAGS",
		"ID_PATH", "ID_PATH_TAG", "ID_PATH_WITH_USB_REVISION", "ID_FOR_SEAT",
		"PRODUCT", "NAME", "PHYS", "UNIQ", "PROP", "EV", "KEY", "REL", "ABS", "MSC",
		"LED", "SND", "FF", "SW", "MODALIAS",
	};

	for (size_t i = 0; i < ARRAY_LENGTH(exact); i++) {
		if (strcmp(name, exact[i]) == 0)
			return true;
	}
	return strncmp(name, "SYSTEMD_", 8) == 0 || name[0] == '.';
}

bool
rp_sur_udev_quote(FILE *f, const char *s)
{
	if (strpbrk(s, "\"\\\n"))
		return false;
	for (; *s; s++) {
		if (*s == '%' || *s == '$')
			fputc(*s, f);
		fputc(*s, f);
	}
	return true;
}

bool
rp_sur_quirk_is_valid(const char *line)
{
	const char *p = line;

	if (*p < 'A' || *p > 'Z')
		return false;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		p++;
	/* "Match..." lines would widen the section to other devices. */
	return *p == '=' && p[1] && !strchr(p, '\n') && strncmp(line, "Match", 5) != 0;
}

/* Out of memory aborts, as tt_zalloc does. */
static FILE *
memstream(char **out, size_t *size)
{
	FILE *f = open_memstream(out, size);

	if (!f)
		abort();
	return f;
}

static bool
pid_runs(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* The pid of a marker line "# touchtape replay PID begin", else 0. */
static pid_t
marker_pid(const char *line, const char *what)
{
	char word[16];
	long pid;

	if (strncmp(line, QUIRKS_MARK, strlen(QUIRKS_MARK)) != 0)
		return 0;
	if (sscanf(line + strlen(QUIRKS_MARK), "%ld %15s", &pid, word) != 2 ||
	    strcmp(word, what) != 0 || pid <= 0 || pid > INT32_MAX)
		return 0;
	return (pid_t)pid;
}

char *
rp_sur_quirks_strip(const char *text, pid_t pid)
{
	size_t size = 0;
	char *out = NULL;
	FILE *f = memstream(&out, &size);
	pid_t skipping = 0;

	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		_cleanup_free_ char *l = tt_strndup(line, len);
		pid_t p;

		if (!skipping && (p = marker_pid(l, "begin")) && (p == pid || !pid_runs(p)))
			skipping = p;
		else if (skipping && marker_pid(l, "end") == skipping)
			skipping = 0;
		else if (!skipping)
			fputs(l, f);
		line += len;
	}
	fclose(f);
	return out;
}

static char *
read_text(const char *path, int *err)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	size_t size = 0;
	char *out = NULL;
	FILE *m;
	char buf[4096];
	size_t got;

	*err = 0;
	if (!f) {
		*err = errno == ENOENT ? 0 : -errno;
		return *err ? NULL : tt_strdup("");
	}
	m = memstream(&out, &size);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, m);
	if (ferror(f))
		*err = -EIO;
	fclose(m);
	if (*err)
		free(out);
	return *err ? NULL : out;
}

/* Replaces @path by @text atomically (a file beside it, renamed); an
 * empty @text removes the file: it held only replayers' sections. */
static int
write_text(const char *path, const char *text)
{
	_cleanup_free_ char *tmp = NULL;
	FILE *f;
	int rc = 0;

	if (strspn(text, " \t\n") == strlen(text))
		return unlink(path) == 0 || errno == ENOENT ? 0 : -errno;
	if (asprintf(&tmp, "%s.touchtape-%d", path, (int)getpid()) < 0)
		abort();
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	if (fflush(f) != 0 || ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	return rc;
}

/* Edits the quirks file under a lock (two replays at once): strips dead
 * replayers' sections and @pid's own (0: none), appends @add (NULL:
 * nothing). */
static int
edit_quirks(const char *path, pid_t pid, const char *add)
{
	_cleanup_free_ char *dir = tt_strdup(path);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *kept = NULL;
	_cleanup_free_ char *joined = NULL;
	_cleanup_close_ int lock = -1;
	char *slash = strrchr(dir, '/');
	int rc;

	if (slash)
		*slash = '\0';
	if (add && slash && slash != dir)
		(void)mkdir(dir, 0755);	/* /etc/libinput need not exist */
	lock = open(slash ? (slash == dir ? "/" : dir) : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0)
		(void)flock(lock, LOCK_EX);
	text = read_text(path, &rc);
	if (!text)
		return rc;
	kept = rp_sur_quirks_strip(text, pid);
	if (!add && strcmp(kept, text) == 0)
		return 0;
	if (asprintf(&joined, "%s%s%s", kept, *kept && kept[strlen(kept) - 1] != '\n' ? "\n" : "",
		     add ? add : "") < 0)
		abort();
	return write_text(path, joined);
}

/* Removes the rules of replayers that no longer run. */
static void
clean_rules(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid;
		char tail[16];

		if (sscanf(e->d_name, RULE_PREFIX "%ld%15s", &pid, tail) != 2 ||
		    strcmp(tail, ".rules") != 0 || pid <= 0 || pid > INT32_MAX || pid_runs((pid_t)pid))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			tt_info("removed %s/%s, left by a replay that was killed", dir, e->d_name);
	}
	closedir(d);
}

static int
run_udevadm_reload(void)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		return -errno;
	if (child == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execlp("udevadm", "udevadm", "control", "--reload", (char *)NULL);
		_exit(127);
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static bool
udevd_runs(const struct rp_sur *s)
{
	return access(s->o.udev_control, F_OK) == 0;
}

static void
reload(const struct rp_sur *s)
{
	int rc;

	if (!udevd_runs(s))
		return;
	rc = s->o.reload();
	if (rc < 0)
		tt_warning("udevadm control --reload failed (%s): udevd may not use the replay's rule "
			   "at once", strerror(-rc));
}

/* What the rule sets on device @dev: ENV{NAME}="value" assignments. */
static bool
write_assignments(FILE *f, const struct rp_sur *s, const struct tt_device *dev)
{
	bool any = false;

	for (uint32_t k = 0; s->o.recreate && k < dev->nudev; k++) {
		const struct tt_property *p = &dev->udev[k];
		long pos = ftell(f);

		if (rp_sur_property_is_udevs(p->name) || !tt_property_name_is_valid(p->name))
			continue;
		fprintf(f, ", ENV{%s}=\"", p->name);
		if (!rp_sur_udev_quote(f, p->value)) {
			fseek(f, pos, SEEK_SET);
			tt_warning("device %" PRIu32 ": udev property %s has a value a udev rule cannot hold: "
				   "not set", dev->id, p->name);
			continue;
		}
		fputc('"', f);
		any = true;
	}
	if (s->o.isolate) {
		fprintf(f, ", ENV{ID_SEAT}=\"%s\"", RP_SUR_ISOLATE_SEAT);
		if (!s->o.own_libinput)
			fputs(", ENV{LIBINPUT_IGNORE_DEVICE}=\"1\"", f);
		any = true;
	}
	return any;
}

/* The rule text for every device that needs one, NULL when none does. */
static char *
rule_text(struct rp_sur *s, const struct tt_device *const *devs, bool *has_rule)
{
	size_t size = 0;
	char *out = NULL;
	FILE *f = memstream(&out, &size);
	bool any = false;

	fprintf(f, "# touchtape replay %d: the recorded surroundings of its devices; removed when it "
		"ends\n", (int)s->pid);
	for (size_t i = 0; i < s->n; i++) {
		long start = ftell(f);

		fprintf(f, "SUBSYSTEM==\"input\", ATTRS{name}==\"*%s\"", s->tags[i]);
		has_rule[i] = write_assignments(f, s, devs[i]);
		if (!has_rule[i]) {
			fseek(f, start, SEEK_SET);
			continue;
		}
		fputc('\n', f);
		any = true;
	}
	/* fseek back leaves bytes after the position: cut them. */
	long end = ftell(f);
	fclose(f);
	out[end] = '\0';
	if (!any)
		free(out);
	return any ? out : NULL;
}

static void
install_rule(struct rp_sur *s, const struct tt_device *const *devs, bool *has_rule)
{
	_cleanup_free_ char *text = rule_text(s, devs, has_rule);
	_cleanup_free_ char *path = NULL;
	int rc;

	if (!text)
		return;
	if (!udevd_runs(s)) {
		tt_warning("udevd does not run (no %s): the recorded udev properties%s cannot be set",
			   s->o.udev_control, s->o.isolate ? " and --isolate" : "");
		memset(has_rule, 0, s->n * sizeof(*has_rule));
		return;
	}
	if (asprintf(&path, "%s/%s%d.rules", s->o.rules_dir, RULE_PREFIX, (int)s->pid) < 0)
		abort();
	(void)mkdir(s->o.rules_dir, 0755);
	rc = write_text(path, text);
	if (rc < 0) {
		tt_warning("cannot write %s (%s%s): the recorded udev properties%s are not set", path,
			   strerror(-rc), rc == -EACCES || rc == -EPERM ? ", not root?" : "",
			   s->o.isolate ? " and --isolate" : "");
		memset(has_rule, 0, s->n * sizeof(*has_rule));
		return;
	}
	tt_info("%s: the recorded udev properties%s of the replayed devices, until the replay ends",
		path, s->o.isolate ? " and --isolate's seat" : "");
	s->rule_path = steal(&path);
	reload(s);
}

/* One section per device with quirks; false when none has any. */
static char *
quirks_text(struct rp_sur *s, const struct tt_device *const *devs, bool *has_quirks)
{
	size_t size = 0;
	char *out = NULL;
	FILE *f = memstream(&out, &size);
	bool any = false;

	fprintf(f, QUIRKS_MARK "%d begin (the recorded quirks of its devices; removed when it ends)\n",
		(int)s->pid);
	for (size_t i = 0; i < s->n; i++) {
		const struct tt_device *d = devs[i];

		for (uint32_t k = 0; s->o.recreate && k < d->nquirks; k++) {
			if (!rp_sur_quirk_is_valid(d->quirks[k])) {
				tt_warning("device %" PRIu32 ": quirk \"%s\" is not a libinput quirk line: "
					   "not installed", d->id, d->quirks[k]);
				continue;
			}
			if (!has_quirks[i])
				fprintf(f, "[touchtape replay %d device %" PRIu32 "]\nMatchName=*%s\n",
					(int)s->pid, d->id, s->tags[i]);
			fprintf(f, "%s\n", d->quirks[k]);
			has_quirks[i] = any = true;
		}
	}
	fprintf(f, QUIRKS_MARK "%d end\n", (int)s->pid);
	fclose(f);
	if (!any)
		free(out);
	return any ? out : NULL;
}

static void
install_quirks(struct rp_sur *s, const struct tt_device *const *devs, bool *has_quirks)
{
	_cleanup_free_ char *text = quirks_text(s, devs, has_quirks);
	int rc;

	if (!text)
		return;
	rc = edit_quirks(s->o.quirks_file, s->pid, text);
	if (rc < 0) {
		tt_warning("cannot write %s (%s%s): the recorded libinput quirks are not installed",
			   s->o.quirks_file, strerror(-rc),
			   rc == -EACCES || rc == -EPERM ? ", not root?" : "");
		memset(has_quirks, 0, s->n * sizeof(*has_quirks));
		return;
	}
	tt_info("%s: the recorded quirks of the replayed devices, until the replay ends", s->o.quirks_file);
	s->quirks_written = true;
}

static void
set_defaults(struct rp_sur_options *o)
{
	if (!o->rules_dir)
		o->rules_dir = RP_SUR_RULES_DIR;
	if (!o->quirks_file)
		o->quirks_file = RP_SUR_QUIRKS_FILE;
	if (!o->udev_control)
		o->udev_control = RP_SUR_UDEV_CONTROL;
	if (!o->reload)
		o->reload = run_udevadm_reload;
}

int
rp_sur_new(const struct tt_device *const *devs, size_t n, const struct rp_sur_options *o,
	   struct rp_sur **out)
{
	struct rp_sur *s = tt_zalloc(sizeof(*s));
	_cleanup_free_ bool *has_rule = tt_zalloc(n * sizeof(bool) + 1);
	_cleanup_free_ bool *has_quirks = tt_zalloc(n * sizeof(bool) + 1);

	s->o = *o;
	set_defaults(&s->o);
	s->pid = getpid();
	s->n = n;
	s->tags = tt_zalloc(n * sizeof(*s->tags) + 1);
	/* Leftovers of killed replayers, whatever this replay asked. */
	clean_rules(s->o.rules_dir);
	(void)edit_quirks(s->o.quirks_file, 0, NULL);
	for (size_t i = 0; i < n; i++) {
		if (asprintf(&s->tags[i], " (pid %d.%" PRIu32 ")", (int)s->pid, devs[i]->id) < 0)
			abort();
	}
	if (o->recreate || o->isolate) {
		install_rule(s, devs, has_rule);
		install_quirks(s, devs, has_quirks);
	}
	for (size_t i = 0; i < n; i++) {
		if (!has_rule[i] && !has_quirks[i]) {
			free(s->tags[i]);
			s->tags[i] = NULL;
		}
	}
	*out = s;
	return 0;
}

const char *
rp_sur_tag(const struct rp_sur *s, size_t i)
{
	return s && i < s->n ? s->tags[i] : NULL;
}

void
rp_sur_free(struct rp_sur *s)
{
	if (!s)
		return;
	if (s->rule_path) {
		if (unlink(s->rule_path) < 0 && errno != ENOENT)
			tt_warning("cannot remove %s: %s", s->rule_path, strerror(errno));
		reload(s);
	}
	if (s->quirks_written) {
		int rc = edit_quirks(s->o.quirks_file, s->pid, NULL);
		if (rc < 0)
			tt_warning("cannot remove the replay's quirks from %s: %s", s->o.quirks_file,
				   strerror(-rc));
	}
	for (size_t i = 0; i < s->n; i++)
		free(s->tags[i]);
	free(s->tags);
	free(s->rule_path);
	free(s);
}
