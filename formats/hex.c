/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>

#include "hex.h"
#include "util-mem.h"

int
tt_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
tt_hex_decode(const char *s, size_t len, size_t max, uint8_t **out, uint32_t *outlen,
	      size_t *bad)
{
	uint8_t *bytes;

	for (size_t i = 0; i < len; i++) {
		if (tt_hex_digit(s[i]) < 0) {
			*bad = i;
			return -EINVAL;
		}
	}
	if (len == 0)
		return -ENODATA;
	if (len % 2)
		return -EMSGSIZE;
	if (len / 2 > max)
		return -E2BIG;
	bytes = tt_zalloc(len / 2);
	for (size_t i = 0; i < len / 2; i++)
		bytes[i] = (uint8_t)(tt_hex_digit(s[2 * i]) << 4 | tt_hex_digit(s[2 * i + 1]));
	*out = bytes;
	*outlen = (uint32_t)(len / 2);
	return 0;
}

void
tt_hex_encode(char *dst, const uint8_t *src, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		dst[2 * i] = digits[src[i] >> 4];
		dst[2 * i + 1] = digits[src[i] & 0xf];
	}
}
