/* Tables shared by tables.c (which builds them) and eval.c (which reads them). */
#ifndef POKEREVAL_TABLES_H
#define POKEREVAL_TABLES_H
#include <stddef.h>
#include <stdint.h>
#include "pokereval.h"

extern const uint32_t pe_rank_weight[13];
extern int32_t pe_ph_offset[];
extern uint16_t pe_hi_rank[];
extern uint16_t pe_razz_rank[];
extern uint16_t pe_hi_flush[8192];
extern uint16_t pe_low8[256];
extern uint16_t pe_omaha_low8[65536];
extern uint8_t pe_card_lowbit[52];

/* Per-card 64-bit key: rank weight in the low 32 bits, a 4-bit suit counter per suit from
 * bit PE_SUIT_SHIFT. Counters start at 3 (PE_SUIT_BIAS), so bit 3 of a counter is set
 * exactly when that suit has 5 or more cards (3 + 7 = 10 still fits in 4 bits). */
#define PE_SUIT_SHIFT 48
#define PE_SUIT_BIAS (0x3333ull << PE_SUIT_SHIFT)
#define PE_FLUSH_BITS (0x8888ull << PE_SUIT_SHIFT)
extern uint64_t pe_card_key[52];
/* Per-card bit in a 64-bit mask: 16 bits per suit, bit = rank. */
extern uint64_t pe_card_mask[52];

/* Row-displacement hash of the n distinct keys (sorted in place): offset[row] for each of
 * the nrows rows of 2^shift keys, placed first fit, the fullest rows first, so that
 * key + offset[key >> shift] are distinct.  Returns the slots used (the largest index + 1;
 * n when minimal), or 0 when memory ran out.  (The rank hashes below, the pair table's
 * board hash.) */
size_t pe_row_hash(uint32_t *keys, size_t n, int shift, int32_t *offset, uint32_t nrows);

/* Exactly seven cards (the stud sampler, stud_mc.c): the 49,205 rank multisets hashed
 * into as many slots: index = key + pe_r7_offset[key >> PE_R7_SHIFT], as pe_ph_offset. */
#define PE_R7_SHIFT 11
#define PE_R7_ROWS ((PE_RANK_KEY_MAX >> PE_R7_SHIFT) + 1)
#define PE_R7_MULTISETS 49205
extern int32_t pe_r7_offset[];

#endif
