/* SPDX-License-Identifier: MIT */
/* What the evemu, libinput-record and hid-recorder writers share:
 * dispatch to each record kind's export (its layer's records-*.c), the
 * time base, and the check of the output. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export-private.h"
#include "record-layer.h"

static const struct {
	enum tt_file_format format;
	const char *name;	/* as in tt_header.source_format */
	int (*init)(struct tt_export *e);
} backends[] = {
	{ TT_FORMAT_EVEMU, "evemu", evemu_export_init },
	{ TT_FORMAT_LIBINPUT, "libinput-record", libinput_export_init },
	{ TT_FORMAT_HID_RECORDER, "hid-recorder", hidrec_export_init },
};

int
tt_export_new(enum tt_file_format format, int fd, struct tt_export **out)
{
	struct tt_export *e;
	size_t b = 0;
	int dupfd;
	int rc;

	while (b < ARRAY_LENGTH(backends) && backends[b].format != format)
		b++;
	if (b == ARRAY_LENGTH(backends))
		return -EINVAL;
	dupfd = dup(fd);
	if (dupfd < 0)
		return -errno;
	e = tt_zalloc(sizeof(*e));
	e->fd = fd;
	e->format_name = backends[b].name;
	e->out = fdopen(dupfd, "w");
	if (!e->out) {
		rc = -errno;
		close(dupfd);
		free(e);
		return rc;
	}
	rc = backends[b].init(e);
	if (rc < 0) {
		tt_export_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void
tt_export_set_device(struct tt_export *e, uint32_t id)
{
	e->have_filter = true;
	e->filter = id;
}

static int
check_io(struct tt_export *e)
{
	if (!e->error && ferror(e->out))
		e->error = errno ? -errno : -EIO;
	return e->error;
}

int
tt_export_record(struct tt_export *e, const struct tt_record *rec)
{
	const struct tt_record_kind *kind;
	int rc = 0;

	if (e->error)
		return e->error;
	kind = tt_record_kind(rec->type);
	if (kind && kind->export)
		rc = kind->export(e, rec);
	if (rc < 0 && !e->error)
		e->error = rc;
	return rc < 0 ? rc : check_io(e);
}

int
tt_export_finish(struct tt_export *e)
{
	int rc;

	if (e->error)
		return e->error;
	rc = e->ops->finish ? e->ops->finish(e) : 0;
	if (rc < 0)
		return e->error = rc;
	if (fflush(e->out) != 0 && !e->error)
		e->error = -errno;
	return check_io(e);
}

const struct tt_export_stats *
tt_export_stats(const struct tt_export *e)
{
	return &e->stats;
}

void
tt_export_free(struct tt_export *e)
{
	if (!e)
		return;
	if (e->ops && e->ops->destroy)
		e->ops->destroy(e);
	if (e->out)
		fclose(e->out);
	free(e->kernel);
	free(e->tool);
	free(e->source_format);
	free(e);
}

uint64_t
export_event_time(struct tt_export *e, const struct tt_frame *f, uint32_t i)
{
	int64_t t = e->base_us + f->time_us + f->events[i].dt_us;

	if (t < 0) {
		e->stats.times_clamped++;
		return 0;
	}
	return (uint64_t)t;
}
