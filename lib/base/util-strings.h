/* SPDX-License-Identifier: MIT */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at @s (1-4, at most @avail bytes),
 * or 0 if invalid; *cp is its code point. Rejects overlong forms,
 * surrogates and code points above U+10FFFF. */
size_t tt_utf8_seq_len(const unsigned char *s, size_t avail, uint32_t *cp);

/*
 * Returns a newly allocated copy of the first @len bytes of @in that is
 * safe for a file and a terminal: valid UTF-8, with C0 and C1 control
 * characters and DEL replaced by '?', invalid UTF-8 bytes replaced by
 * U+FFFD, and at most @maxbytes bytes long (cut on a character
 * boundary). Device names come from devices and are never trusted.
 */
char *tt_str_sanitize(const char *in, size_t len, size_t maxbytes);

/* True when @s (of @len bytes) needs no change by tt_str_sanitize(). */
bool tt_str_is_clean(const char *s, size_t len);

/* Strict decimal parsing: the whole string, no overflow. 0 or -errno,
 * *out untouched on failure. */
int tt_parse_int64(const char *s, int64_t *out);
int tt_parse_double(const char *s, double *out);

/* Parses "1.5", "250ms", "2s", "1m", "500us" into microseconds. */
int tt_parse_duration_us(const char *s, int64_t *out);

/* Formats microseconds as seconds "12.345678" into @buf. */
const char *tt_format_time(char *buf, size_t size, int64_t us);

/* A MAC-like address in @s: six pairs of hex digits joined by ':' (as a
 * Bluetooth device's phys and uniq hold them, "00:1a:7d:da:71:13"). Both
 * return how many there are; the second overwrites each one's digits
 * with 'x' ("xx:xx:xx:xx:xx:xx"), which is no longer an address. */
size_t tt_str_count_addresses(const char *s);
size_t tt_str_mask_addresses(char *s);
