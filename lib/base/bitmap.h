/* SPDX-License-Identifier: MIT */
/* Fixed-size bit sets for event types, codes and properties. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define TT_BITMAP_BYTES(nbits) (((nbits) + 7) / 8)

static inline bool
bit_is_set(const uint8_t *map, unsigned int bit)
{
	return map[bit / 8] & (1u << (bit % 8));
}

static inline void
set_bit(uint8_t *map, unsigned int bit)
{
	map[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

static inline void
clear_bit(uint8_t *map, unsigned int bit)
{
	map[bit / 8] &= (uint8_t)~(1u << (bit % 8));
}
