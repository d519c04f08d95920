/*
 * evemu-parse: the evemu anchor of the reading benchmark. Reads an evemu
 * file the way evemu-play does (the description with evemu_read, then every
 * event with evemu_read_event) and prints how many events it read.
 *
 * Usage: evemu-parse FILE
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <evemu.h>

int
main(int argc, char **argv)
{
	struct evemu_device *dev;
	struct input_event ev;
	unsigned long long n = 0;
	FILE *fp;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "Usage: evemu-parse FILE\n");
		return 2;
	}
	fp = fopen(argv[1], "r");
	if (!fp) {
		fprintf(stderr, "evemu-parse: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	dev = evemu_new(NULL);
	if (!dev || evemu_read(dev, fp) <= 0) {
		fprintf(stderr, "evemu-parse: %s: no evemu description\n", argv[1]);
		evemu_delete(dev);
		fclose(fp);
		return 1;
	}
	while ((rc = evemu_read_event(fp, &ev)) > 0)
		n++;
	printf("%llu events\n", n);
	evemu_delete(dev);
	fclose(fp);
	return 0;
}
