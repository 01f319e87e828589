/* Board-game hands in C from their parts (board_exact.c, ranged_mc.c): a player's hole
 * cards summarised once, a five-card board's three-card subsets, and the Omaha family's
 * best two + three from them (flushes from rank masks). */
#ifndef POKEREVAL_BOARD_PARTS_H
#define POKEREVAL_BOARD_PARTS_H
#include "lookup.h"

#define MAX_PAIRS 10 /* C(5, 2) */

/* A player's precomputed parts: the rank key of each pair of hole cards (Omaha), the
 * whole hand's card key (a best-five-of-seven game), the hole low bits. */
typedef struct {
    uint32_t pkey[MAX_PAIRS];
    int npairs;
    uint64_t key;
    unsigned lowbits;
} player_t;

static inline void prepare(player_t *p, const uint8_t *hole, int nhole) {
    p->npairs = 0;
    p->key = 0;
    p->lowbits = 0;
    for (int a = 0; a < nhole; a++) {
        p->key += pe_card_key[hole[a]];
        p->lowbits |= pe_card_lowbit[hole[a]];
        for (int b = a + 1; b < nhole; b++)
            p->pkey[p->npairs++] = pe_rank_weight[hole[a] >> 2] + pe_rank_weight[hole[b] >> 2];
    }
}

/* The rank keys of a five-card board's three-card subsets, from its ranks. */
typedef struct {
    uint32_t key[10];
} triples_t;

static inline void board_triples(triples_t *tr, const uint8_t *ranks) {
    int nt = 0;
    for (int a = 0; a < 5; a++)
        for (int b = a + 1; b < 5; b++)
            for (int c = b + 1; c < 5; c++)
                tr->key[nt++] = pe_rank_weight[ranks[a]] + pe_rank_weight[ranks[b]]
                                + pe_rank_weight[ranks[c]];
}

/* A player's best two + three ignoring flushes (depends on the ranks alone). */
static inline uint16_t omaha_nonflush(const player_t *pl, const triples_t *tr) {
    uint16_t best = 0;
    for (int q = 0; q < pl->npairs; q++)
        for (int t = 0; t < 10; t++) {
            uint16_t v = rank_value(pe_hi_rank, pl->pkey[q] + tr->key[t]);
            if (v > best) best = v;
        }
    return best;
}

/* The best flush of two of the hole ranks hmask and three of the board ranks bmask of one
 * suit (0: too few of either), from rank masks alone, every choice tried: the readable
 * reference of omaha_flush_top (pokereval.kernels.handeval.omaha_flush). */
static inline uint16_t omaha_flush_masks(unsigned hmask, unsigned bmask) {
    uint16_t best = 0;
    for (unsigned h1 = hmask; h1; h1 &= h1 - 1)
        for (unsigned h2 = h1 & (h1 - 1); h2; h2 &= h2 - 1) {
            unsigned ab = (h1 & -h1) | (h2 & -h2);
            for (unsigned x1 = bmask; x1; x1 &= x1 - 1)
                for (unsigned x2 = x1 & (x1 - 1); x2; x2 &= x2 - 1)
                    for (unsigned x3 = x2 & (x2 - 1); x3; x3 &= x3 - 1) {
                        uint16_t v = pe_hi_flush[ab | (x1 & -x1) | (x2 & -x2) | (x3 & -x3)];
                        if (v > best) best = v;
                    }
        }
    return best;
}

/* omaha_flush_masks in a few steps (the same value for every hmask of 2 to 5 ranks and
 * disjoint bmask of 3 to 5, checked exhaustively): two hole and three board ranks of one
 * suit are distinct, so the top two of the one with the top three of the other beat every
 * other five at each place, and only a straight flush elsewhere can do better, which
 * needs five ranks in a row among both and exactly two of them from the hole. */
static inline unsigned top_rank(unsigned mask) { return 1u << (31 - __builtin_clz(mask)); }

static inline uint16_t omaha_flush_top(unsigned hmask, unsigned bmask) {
    unsigned h1 = top_rank(hmask), h2 = top_rank(hmask ^ h1), b1 = top_rank(bmask);
    unsigned b2 = top_rank(bmask ^ b1), b3 = top_rank(bmask ^ b1 ^ b2);
    uint16_t best = pe_hi_flush[h1 | h2 | b1 | b2 | b3];
    unsigned all = hmask | bmask, v = all << 1 | (all >> 12 & 1);  /* bit 0: the ace, low */
    for (unsigned runs = v & v >> 1 & v >> 2 & v >> 3 & v >> 4; runs; runs &= runs - 1) {
        int i = __builtin_ctz(runs);  /* ranks i - 1 .. i + 3 (rank -1: the ace) */
        unsigned w = (0x1Fu << i) >> 1 | (i == 0 ? 1u << 12 : 0), two = hmask & w;
        two &= two - 1;
        if (two && !(two & (two - 1)) && pe_hi_flush[w] > best) best = pe_hi_flush[w];
    }
    return best;
}

#endif
