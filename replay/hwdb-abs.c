/* SPDX-License-Identifier: MIT */
/* replay --hwdb-abs (hwdb-abs.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hwdb-abs.h"
#include "util-mem.h"

#define PREFIX "EVDEV_ABS_"

static int
parse_field(const char *s, size_t len, bool *set, int32_t *value)
{
	char buf[16], *end;
	long v;

	if (len == 0)
		return 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (*end || errno || v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	*set = true;
	*value = (int32_t)v;
	return 0;
}

int
rp_hwdb_abs_parse(const char *spec, struct rp_hwdb_abs *out)
{
	struct rp_hwdb_abs a = { 0 };
	const char *eq, *s;
	char *end;
	unsigned long code;

	if (strncmp(spec, PREFIX, strlen(PREFIX)) != 0 || !(eq = strchr(spec, '=')))
		return -EINVAL;
	code = strtoul(spec + strlen(PREFIX), &end, 16);
	if (end != eq || end == spec + strlen(PREFIX) || code > ABS_MAX)
		return -EINVAL;
	a.code = (unsigned int)code;
	s = eq + 1;
	for (int f = 0; f < 5; f++) {
		const char *colon = strchr(s, ':');
		size_t len = colon ? (size_t)(colon - s) : strlen(s);

		if (parse_field(s, len, &a.set[f], &a.value[f]) < 0)
			return -EINVAL;
		if (!colon)
			break;
		if (f == 4)
			return -EINVAL;
		s = colon + 1;
	}
	*out = a;
	return 0;
}

static int
apply_one(int fd, const struct rp_hwdb_abs *a)
{
	struct input_absinfo ai;
	int32_t *field[5] = { &ai.minimum, &ai.maximum, &ai.resolution, &ai.fuzz, &ai.flat };

	if (ioctl(fd, EVIOCGABS(a->code), &ai) < 0)
		return errno == EINVAL ? 0 : -errno;	/* an axis the device lacks */
	for (int f = 0; f < 5; f++) {
		if (a->set[f])
			*field[f] = a->value[f];
	}
	return ioctl(fd, EVIOCSABS(a->code), &ai) < 0 ? -errno : 0;
}

int
rp_hwdb_abs_apply(const struct rp_hwdb_abs *abs, size_t n, const char *node)
{
	_cleanup_close_ int fd = -1;
	int rc;

	if (!n)
		return 0;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		if ((rc = apply_one(fd, &abs[i])) < 0)
			return rc;
	}
	return 0;
}
