/* Lookups shared by the C evaluators (eval.c, board_exact.c): one definition of how a
 * (key, mask) summary of up to seven cards becomes a high value or a set of low ranks. */
#ifndef POKEREVAL_LOOKUP_H
#define POKEREVAL_LOOKUP_H
#include "pokereval.h"
#include "tables.h"

/* The perfect-hash index of a rank key (a multiset of up to 7 ranks, at most 4 of each). */
static inline uint32_t rank_index(uint32_t rank_key) {
    return rank_key + (uint32_t)pe_ph_offset[rank_key >> PE_PH_SHIFT];
}

static inline uint16_t rank_value(const uint16_t *table, uint32_t rank_key) {
    return table[rank_index(rank_key)];
}

/* High value of up to 7 cards summarised as (key, mask). With at most 7 cards, a flush
 * beats every other hand the same cards make, so a flush needs only the flush table. */
static inline uint16_t high_value(uint64_t key, uint64_t mask) {
    uint64_t flush = key & PE_FLUSH_BITS;
    if (flush) {
        int suit = (__builtin_ctzll(flush) - PE_SUIT_SHIFT - 3) >> 2;
        return pe_hi_flush[(mask >> (16 * suit)) & 0x1FFF];
    }
    return rank_value(pe_hi_rank, (uint32_t)key);
}

/* The eight low ranks of a card mask: bits A,2..8 from each suit's 13-bit rank mask. */
static inline unsigned low_ranks(uint64_t mask) {
    uint64_t ranks = (mask | mask >> 16 | mask >> 32 | mask >> 48) & 0x1FFF;
    return (unsigned)((ranks >> 12 & 1) | (ranks & 0x7F) << 1);
}

#endif
