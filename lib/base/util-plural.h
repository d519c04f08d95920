/* SPDX-License-Identifier: MIT */
/*
 * Counts in text for people: "1 frame", "2 frames", "0 anomalies". Every
 * count a command prints next to a noun goes through these, so no output
 * says "1 devices".
 */
#pragma once

#include <stdint.h>

/* The ending of a regular noun: printf("%zu frame%s", n, tt_plural_s(n)). */
static inline const char *
tt_plural_s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* A noun with its own plural: tt_plural(n, "anomaly", "anomalies"). */
static inline const char *
tt_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
