/* SPDX-License-Identifier: MIT */
/* replay/surroundings.c on the host: the rule and quirks it writes for a
 * device with recorded surroundings, --isolate, what it keeps of a quirks
 * file, what it removes (its own at the end, a killed replayer's at the
 * start), and its warnings instead of failures. Paths are a scratch
 * folder; udevd's control socket a plain file there. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replay-surroundings.h"
#include "test-common.h"

static char scratch[] = "/tmp/tt-sur-XXXXXX";
static char rules[256], quirks[256], control[256];
static int reloads;

static int
fake_reload(void)
{
	reloads++;
	return 0;
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	check(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *
slurp(const char *path)
{
	size_t len;

	return access(path, F_OK) == 0 ? tt_test_slurp(path, &len) : NULL;
}

/* A pid that surely does not run: a child that has been reaped. */
static pid_t
dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

static struct tt_device *
touchpad(void)
{
	struct tt_device *d = tt_zalloc(sizeof(*d));

	d->id = 3;
	d->name = tt_strdup("ELAN touchpad");
	d->has_udev = true;
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "ID_INPUT", "1"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "ID_INPUT_TOUCHPAD", "1"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "ID_INPUT_WIDTH_MM", "123"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "DEVNAME", "/dev/input/event5"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "ID_PATH", "platform-i8042"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "LIBINPUT_ATTR_X", "50%$"), 0);
	check_int_eq(tt_properties_add(&d->udev, &d->nudev, "ID_BAD", "a\"b"), 0);
	d->has_quirks = true;
	check_int_eq(tt_device_add_quirk(d, "ModelAppleTouchpad=1"), 0);
	check_int_eq(tt_device_add_quirk(d, "MatchName=*"), 0);
	return d;
}

static void
free_device(struct tt_device *d)
{
	tt_device_clear_surroundings(d);
	free(d->name);
	free(d);
}

static struct rp_sur_options
options(void)
{
	return (struct rp_sur_options){
		.recreate = true, .rules_dir = rules, .quirks_file = quirks,
		.udev_control = control, .reload = fake_reload,
	};
}

static void
test_install_and_remove(void)
{
	struct tt_device *d = touchpad();
	const struct tt_device *devs[] = { d };
	struct rp_sur_options o = options();
	struct rp_sur *s = NULL;
	char rule[512], tag[64];
	pid_t dead = dead_pid();
	char old[512];

	/* The user's own overrides, and a section a killed replayer left. */
	snprintf(old, sizeof(old), "[mine]\nMatchName=foo\nAttrSizeHint=10x10\n"
		 "# touchtape replay %d begin\n[x]\nMatchName=* (pid %d.0)\nModelFoo=1\n"
		 "# touchtape replay %d end\n", (int)dead, (int)dead, (int)dead);
	put(quirks, old);
	snprintf(rule, sizeof(rule), "%s/99-touchtape-replay-%d.rules", rules, (int)dead);
	put(rule, "# left\n");
	reloads = 0;
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	check(access(rule, F_OK) < 0);	/* the killed replayer's rule went */
	snprintf(tag, sizeof(tag), " (pid %d.3)", (int)getpid());
	check_str_eq(rp_sur_tag(s, 0), tag);
	check(rp_sur_tag(s, 1) == NULL);
	check_int_eq(reloads, 1);

	snprintf(rule, sizeof(rule), "%s/99-touchtape-replay-%d.rules", rules, (int)getpid());
	char *text = slurp(rule);
	check_contains(text, "SUBSYSTEM==\"input\", ATTRS{name}==\"* (pid ");
	check_contains(text, "ENV{ID_INPUT_TOUCHPAD}=\"1\", ENV{ID_INPUT_WIDTH_MM}=\"123\"");
	check_contains(text, "ENV{LIBINPUT_ATTR_X}=\"50%%$$\"");
	check(text && !strstr(text, "DEVNAME") && !strstr(text, "ID_PATH") && !strstr(text, "ID_BAD"));
	check(text && !strstr(text, "ID_SEAT"));
	free(text);

	text = slurp(quirks);
	check_contains(text, "[mine]\nMatchName=foo\nAttrSizeHint=10x10\n");
	check_contains(text, "MatchName=*");
	check_contains(text, tag);
	check_contains(text, "\nModelAppleTouchpad=1\n");
	check(text && !strstr(text, "ModelFoo") && !strstr(text, "MatchName=*\n"));
	free(text);

	rp_sur_free(s);
	check(access(rule, F_OK) < 0);
	check_int_eq(reloads, 2);
	text = slurp(quirks);
	check_str_eq(text, "[mine]\nMatchName=foo\nAttrSizeHint=10x10\n");
	free(text);
	free_device(d);
}

static void
test_isolate(void)
{
	struct tt_device *d = touchpad();
	const struct tt_device *devs[] = { d };
	struct rp_sur_options o = options();
	struct rp_sur *s = NULL;
	char rule[512];

	unlink(quirks);
	o.recreate = false;
	o.isolate = true;
	snprintf(rule, sizeof(rule), "%s/99-touchtape-replay-%d.rules", rules, (int)getpid());
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	char *text = slurp(rule);
	check_contains(text, "ENV{ID_SEAT}=\"" RP_SUR_ISOLATE_SEAT "\", ENV{LIBINPUT_IGNORE_DEVICE}=\"1\"");
	check(text && !strstr(text, "ID_INPUT_TOUCHPAD"));
	free(text);
	check(access(quirks, F_OK) < 0);	/* --no-surroundings: no quirks */
	check(rp_sur_tag(s, 0) != NULL);
	rp_sur_free(s);

	/* Our own libinput must still take the devices. */
	o.own_libinput = true;
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	text = slurp(rule);
	check_contains(text, "ENV{ID_SEAT}=");
	check(text && !strstr(text, "LIBINPUT_IGNORE_DEVICE"));
	free(text);
	rp_sur_free(s);
	check(access(rule, F_OK) < 0);
	free_device(d);
}

/* No udevd: no rule and no tag for a device without quirks; the quirks
 * alone still go in. Nothing asked: nothing written, nothing tagged. */
static void
test_no_udevd(void)
{
	struct tt_device *d = touchpad();
	const struct tt_device *devs[] = { d };
	struct rp_sur_options o = options();
	struct rp_sur *s = NULL;
	char rule[512];

	unlink(control);
	snprintf(rule, sizeof(rule), "%s/99-touchtape-replay-%d.rules", rules, (int)getpid());
	reloads = 0;
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	check(access(rule, F_OK) < 0);
	check_int_eq(reloads, 0);
	check(rp_sur_tag(s, 0) != NULL);	/* the quirks need it */
	rp_sur_free(s);
	check(access(quirks, F_OK) < 0);	/* it held only ours: gone */

	tt_device_clear_surroundings(d);
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	check(rp_sur_tag(s, 0) == NULL);
	rp_sur_free(s);
	o.recreate = false;
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	check(rp_sur_tag(s, 0) == NULL);
	rp_sur_free(s);
	put(control, "");
	free_device(d);
}

/* A read-only quirks folder: a warning, the rule still written. */
static void
test_unwritable(void)
{
	struct tt_device *d = touchpad();
	const struct tt_device *devs[] = { d };
	struct rp_sur_options o = options();
	struct rp_sur *s = NULL;

	o.quirks_file = "/proc/touchtape-no/local-overrides.quirks";
	check_int_eq(rp_sur_new(devs, 1, &o, &s), 0);
	check(rp_sur_tag(s, 0) != NULL);
	rp_sur_free(s);
	free_device(d);
}

static void
test_pure(void)
{
	pid_t dead = dead_pid();
	char text[512], want[512];
	char *out;

	check(rp_sur_quirk_is_valid("AttrPressureRange=10:8"));
	check(!rp_sur_quirk_is_valid("MatchName=*"));
	check(!rp_sur_quirk_is_valid("=1"));
	check(!rp_sur_quirk_is_valid("Attr Foo=1"));
	check(!rp_sur_quirk_is_valid("ModelX="));
	check(rp_sur_property_is_udevs("DEVNAME"));
	check(rp_sur_property_is_udevs("SYSTEMD_WANTS"));
	check(!rp_sur_property_is_udevs("ID_INPUT_TOUCHPAD"));
	/* A running replayer's section stays, a dead one's and our own go. */
	snprintf(text, sizeof(text), "a\n# touchtape replay 1 begin\nx\n# touchtape replay 1 end\n"
		 "# touchtape replay %d begin\ny\n# touchtape replay %d end\nb\n"
		 "# touchtape replay %d begin\nz\n# touchtape replay %d end\n",
		 (int)dead, (int)dead, (int)getpid(), (int)getpid());
	out = rp_sur_quirks_strip(text, getpid());
	check_str_eq(out, "a\n# touchtape replay 1 begin\nx\n# touchtape replay 1 end\nb\n");
	free(out);
	out = rp_sur_quirks_strip(text, 0);
	snprintf(want, sizeof(want), "a\n# touchtape replay 1 begin\nx\n# touchtape replay 1 end\nb\n"
		 "# touchtape replay %d begin\nz\n# touchtape replay %d end\n", (int)getpid(), (int)getpid());
	check_str_eq(out, want);
	free(out);
}

int
main(void)
{
	char cmd[300];

	if (!mkdtemp(scratch))
		return 99;
	snprintf(rules, sizeof(rules), "%s/rules.d", scratch);
	snprintf(quirks, sizeof(quirks), "%s/libinput/local-overrides.quirks", scratch);
	snprintf(control, sizeof(control), "%s/control", scratch);
	put(control, "");
	snprintf(cmd, sizeof(cmd), "%s/libinput", scratch);
	mkdir(cmd, 0755);
	mkdir(rules, 0755);
	RUN(test_pure);
	RUN(test_install_and_remove);
	RUN(test_isolate);
	RUN(test_no_udevd);
	RUN(test_unwritable);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	(void)!system(cmd);
	return tt_test_result();
}
