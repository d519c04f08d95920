/* SPDX-License-Identifier: MIT */
/* regress --vm, in the guest: what a case needs is started the first
 * time a case needs it (once per boot), by the rig's own guest scripts:
 * the HID drivers for uhid, udevd for libinput, Xorg for XI, Weston for
 * Wayland. Xorg and Weston take turns: each wants the machine's one
 * screen and its input devices, so the one a case needs stops the other. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "regress.h"

enum { SVC_HID, SVC_UDEVD, SVC_XORG, SVC_WESTON, SVC_N };

static const struct {
	unsigned layer;		/* the cases that need it */
	const char *said;	/* in their diagnostics */
	const char *script;	/* bash, $1 the rig's folder */
	const char *version;	/* prints what runs and its version, or NULL */
} svcs[SVC_N] = {
	[SVC_HID] = { RG_LAYER_HID, "uhid with hid-multitouch, wacom, hid-generic",
		      "modprobe -a uhid hid-multitouch wacom hid-generic && test -c /dev/uhid" },
	/* libinput is the library this binary was built with (replay
	 * --libinput runs it in-process); the servers are the guest's. */
	[SVC_UDEVD] = { RG_LAYER_LIBINPUT, "udevd", "\"$1/guest-udevd\" input",
			"echo libinput " TT_LIBINPUT_VERSION },
	[SVC_XORG] = { RG_LAYER_XI, "Xorg :0",
		       "\"$1/guest-weston\" stop && \"$1/guest-xorg\" start",
		       "Xorg -version 2>&1 | sed -n 's/^X.Org X Server /Xorg /p'" },
	[SVC_WESTON] = { RG_LAYER_WAYLAND, "Weston",
			 "\"$1/guest-xorg\" stop && \"$1/guest-weston\" start",
			 "weston --version 2>/dev/null | sed -n 's/^weston /Weston /p'" },
};

struct rg_services {
	char *rig;		/* the rig's folder (tests/vm) */
	char *log;		/* the scripts' output */
	unsigned running;	/* 1 << SVC_* */
	unsigned failed;	/* tried once, not again */
	char *version[SVC_N];	/* "Xorg 1.21.1.7", read once it started */
};

int
rg_services_new(const char *rig, const char *workdir, struct rg_services **out)
{
	struct rg_services *s = tt_zalloc(sizeof(*s));

	s->rig = strdup(rig);
	if (asprintf(&s->log, "%s/services.log", workdir) < 0)
		abort();
	*out = s;
	return 0;
}

void
rg_services_free(struct rg_services *s)
{
	if (!s)
		return;
	free(s->rig);
	free(s->log);
	for (int i = 0; i < SVC_N; i++)
		free(s->version[i]);
	free(s);
}

void
rg_services_freep(struct rg_services **s)
{
	rg_services_free(*s);
}

/* bash -c SCRIPT, its output appended to the log: its exit status. */
static int
run_script(const struct rg_services *s, const char *script)
{
	const char *argv[] = { "/bin/bash", "-c", script, "rg-service", s->rig, NULL };
	pid_t pid;
	int st;

	fflush(NULL);
	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		/* Each start said: a service started once per boot shows so. */
		dprintf(STDOUT_FILENO, "== %s\n", script);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Weston's client variables (guest-weston writes them) into our
 * environment, for record --wayland. */
static void
export_weston_env(void)
{
	_cleanup_fclose_ FILE *f = fopen("/run/ttvm-weston/env", "re");
	char line[512];

	while (f && fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		line[strcspn(line, "\n")] = '\0';
		if (eq) {
			*eq = '\0';
			setenv(line, eq + 1, 1);
		}
	}
}

/* The first line @cmd prints (bash), or NULL. */
static char *
read_version(const char *cmd)
{
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	FILE *p;
	char *v = NULL;

	fflush(NULL);
	if (!(p = popen(cmd, "re")))
		return NULL;
	if (getline(&line, &size, p) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			v = strdup(line);
	}
	pclose(p);
	return v;
}

static int
start(struct rg_services *s, int i, char **why)
{
	int rc;

	if (s->failed & (1u << i))
		rc = -1;
	else
		rc = run_script(s, svcs[i].script);
	if (rc != 0) {
		s->failed |= 1u << i;
		if (asprintf(why, "%s did not start (status %d, see %s)", svcs[i].said, rc, s->log) < 0)
			abort();
		return -EIO;
	}
	/* Xorg and Weston take turns. */
	if (i == SVC_XORG)
		s->running &= ~(1u << SVC_WESTON);
	if (i == SVC_WESTON) {
		s->running &= ~(1u << SVC_XORG);
		export_weston_env();
	}
	s->running |= 1u << i;
	if (svcs[i].version && !s->version[i])
		s->version[i] = read_version(svcs[i].version);
	return 0;
}

int
rg_services_need(struct rg_services *s, unsigned layers, char **ran, char **why)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	for (int i = 0; i < SVC_N; i++) {
		if ((layers & svcs[i].layer) && !(s->running & (1u << i)) && start(s, i, why) < 0)
			return -EIO;
	}
	if (!(f = open_memstream(&text, &size)))
		abort();
	/* A HID case replays through uhid, every other one through uinput. */
	fputs(layers & RG_LAYER_HID ? svcs[SVC_HID].said : "uinput", f);
	for (int i = SVC_HID + 1; i < SVC_N; i++) {
		if (layers & svcs[i].layer)
			fprintf(f, ", %s", svcs[i].said);
	}
	if (fclose(f) != 0)
		abort();
	*ran = text;
	return 0;
}

char *
rg_services_versions(const struct rg_services *s, unsigned layers)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	bool any = false;

	if (!(f = open_memstream(&text, &size)))
		abort();
	for (int i = 0; i < SVC_N; i++) {
		if ((layers & svcs[i].layer) && s->version[i]) {
			fprintf(f, "%s%s", any ? ", " : "", s->version[i]);
			any = true;
		}
	}
	if (fclose(f) != 0)
		abort();
	if (!any) {
		free(text);
		return NULL;
	}
	return text;
}

void
rg_services_settle(const struct rg_services *s)
{
	run_script(s, "udevadm settle --timeout=10");
}

void
rg_services_forget_log(const struct rg_services *s)
{
	unlink(s->log);
}

const char *
rg_services_display(const struct rg_services *s)
{
	return s && (s->running & (1u << SVC_XORG)) ? ":0" : NULL;
}
