/*
 * uinput-flood: the injector of the recording benchmark (runs in the VM).
 * Creates NDEV multi-touch screens through uinput ("touchtape-bench flood
 * N", 10 slots), prints their nodes, waits for a line on stdin, then writes
 * SECONDS worth of frames (10 fingers moving, 31 events per frame) round
 * robin over the devices at RATE events per second in total (0: as fast as
 * it can), prints what it wrote, waits for another line and destroys them.
 *
 * Usage: uinput-flood NDEV RATE SECONDS
 * Output: "node /dev/input/eventN" per device, then
 *         "wrote EVENTS events in SECONDS s: RATE events/s, FRAMES frames".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/uinput.h>

#define MAXDEV 16
#define SLOTS 10

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
abs_setup(int fd, int code, int max)
{
	struct uinput_abs_setup a = { .code = (__u16)code };

	a.absinfo.maximum = max;
	ioctl(fd, UI_SET_ABSBIT, code);
	ioctl(fd, UI_ABS_SETUP, &a);
}

static int
create(int n, char *node, size_t len)
{
	struct uinput_setup us = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1234, .product = 0x5678 } };
	char sys[64];
	int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	snprintf(us.name, sizeof(us.name), "touchtape-bench flood %d", n);
	ioctl(fd, UI_SET_EVBIT, EV_SYN);
	ioctl(fd, UI_SET_EVBIT, EV_KEY);
	ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
	ioctl(fd, UI_SET_EVBIT, EV_ABS);
	ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	abs_setup(fd, ABS_X, 4095);
	abs_setup(fd, ABS_Y, 4095);
	abs_setup(fd, ABS_MT_SLOT, SLOTS - 1);
	abs_setup(fd, ABS_MT_POSITION_X, 4095);
	abs_setup(fd, ABS_MT_POSITION_Y, 4095);
	abs_setup(fd, ABS_MT_TRACKING_ID, 65535);
	if (ioctl(fd, UI_DEV_SETUP, &us) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
		close(fd);
		return -errno;
	}
	if (ioctl(fd, UI_GET_SYSNAME(sizeof(sys)), sys) >= 0)
		snprintf(node, len, "/sys/devices/virtual/input/%s", sys);
	return fd;
}

static void
ev(struct input_event *e, int *n, int type, int code, int value)
{
	e[*n] = (struct input_event){ .type = (__u16)type, .code = (__u16)code, .value = value };
	(*n)++;
}

int
main(int argc, char **argv)
{
	int fds[MAXDEV];
	char line[64];
	int ndev, i, d;
	double rate, seconds, t0, t1;
	unsigned long long events = 0, frame = 0;

	if (argc != 4) {
		fprintf(stderr, "Usage: uinput-flood NDEV RATE SECONDS\n");
		return 2;
	}
	ndev = atoi(argv[1]);
	rate = atof(argv[2]);
	seconds = atof(argv[3]);
	if (ndev < 1 || ndev > MAXDEV || seconds <= 0) {
		fprintf(stderr, "uinput-flood: 1 to %d devices, SECONDS > 0\n", MAXDEV);
		return 2;
	}
	for (d = 0; d < ndev; d++) {
		char sys[128] = "";

		fds[d] = create(d, sys, sizeof(sys));
		if (fds[d] < 0) {
			fprintf(stderr, "uinput-flood: /dev/uinput: %s\n", strerror(-fds[d]));
			return 1;
		}
		printf("sys %s\n", sys);
	}
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;

	t0 = now();
	for (;;) {
		struct input_event e[4 * SLOTS + 4];
		int n = 0;
		double t = now() - t0;

		if (t >= seconds)
			break;
		if (rate > 0 && (double)events / rate > t) {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
			continue;
		}
		d = (int)(frame % (unsigned long long)ndev);
		for (i = 0; i < SLOTS; i++) {
			int v = (int)((frame / (unsigned long long)ndev * 7 + (unsigned long long)i * 401) % 4000);

			ev(e, &n, EV_ABS, ABS_MT_SLOT, i);
			if (frame < (unsigned long long)ndev)
				ev(e, &n, EV_ABS, ABS_MT_TRACKING_ID, i);
			ev(e, &n, EV_ABS, ABS_MT_POSITION_X, v);
			ev(e, &n, EV_ABS, ABS_MT_POSITION_Y, 4000 - v);
		}
		ev(e, &n, EV_SYN, SYN_REPORT, 0);
		if (write(fds[d], e, sizeof(e[0]) * (size_t)n) < 0) {
			fprintf(stderr, "uinput-flood: write: %s\n", strerror(errno));
			return 1;
		}
		events += (unsigned long long)n;
		frame++;
	}
	t1 = now();
	printf("wrote %llu events in %.3f s: %.0f events/s, %llu frames\n", events, t1 - t0,
	       (double)events / (t1 - t0), frame);
	fflush(stdout);
	if (fgets(line, sizeof(line), stdin) == NULL)
		clearerr(stdin);	/* EOF: destroy them now */
	for (d = 0; d < ndev; d++) {
		ioctl(fds[d], UI_DEV_DESTROY);
		close(fds[d]);
	}
	return 0;
}
