/* SPDX-License-Identifier: MIT */
/*
 * Bytes as hexadecimal text, the way HID descriptors and reports are
 * written in a timeline ("05010902", two lowercase digits per byte) and in
 * hid-recorder files. Decoding checks everything: the input is a file.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of one hex digit (either case), or -1. */
int tt_hex_digit(char c);

/* Decodes @len characters of @s, two digits per byte with nothing
 * between them, into a new buffer of at most @max bytes. 0, or -EINVAL
 * (*bad is the offset of the first character that is not a hex digit),
 * -EMSGSIZE (odd length), -ENODATA (empty) or -E2BIG (over @max bytes);
 * the out-parameters are set only on success. */
int tt_hex_decode(const char *s, size_t len, size_t max, uint8_t **out, uint32_t *outlen,
		  size_t *bad);

/* Writes 2 * @n lowercase digits (no terminator) to @dst. */
void tt_hex_encode(char *dst, const uint8_t *src, size_t n);
