/* SPDX-License-Identifier: MIT */
/* Small helpers around write(2). */
#pragma once

#include <stddef.h>

/* Writes all @len bytes of @buf to @fd, going on after short writes and
 * EINTR. 0 or a negative errno. */
int tt_write_all(int fd, const void *buf, size_t len);
