/* Small exact board-game spots walked entirely in C: every run-out of the missing board
 * cards, every player's high and low, and the outcome tally (see pokereval.h). One call
 * replaces building the run-out arrays, one batch per player and a NumPy tally, which
 * dominated the time of a flop spot (a few hundred run-outs). */
#include <stdlib.h>
#include <string.h>
#include "pokereval.h"
#include "board_parts.h"
#include "tally.h"

/* Walks with more run-outs than this keep each player's no-flush best per board rank
 * multiset (a board's ranks recur: 1.07 M preflop run-outs have 6,175 rank multisets). */
#define CACHE_RUNOUTS 20000

static int64_t count_runouts(int ndeck, int k) {
    int64_t c = 1;
    for (int i = 0; i < k; i++) c = c * (ndeck - i) / (i + 1);
    return c;
}

int64_t pe_board_exact(const uint8_t *holes, int n, int nhole, int omaha, int low8,
                       const uint8_t *board, int nboard, const uint8_t *deck, int ndeck,
                       int64_t *counts) {
    player_t players[PE_MAX_BOARD_PLAYERS];
    int k = 5 - nboard, idx[5];
    int64_t runouts = 0;
    if (n < 2 || n > PE_MAX_BOARD_PLAYERS || nhole < 2 || nhole > 5 || k < 0 || k > ndeck)
        return -1;
    for (int p = 0; p < n; p++) prepare(&players[p], holes + p * nhole, nhole);
    uint16_t *cache = NULL; /* [player][rank multiset index]: no-flush best, 0 = not known */
    if (omaha && count_runouts(ndeck, k) > CACHE_RUNOUTS)
        cache = calloc((size_t)n * PE_RANK_MULTISETS, sizeof(uint16_t));
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    for (int i = 0; i < k; i++) idx[i] = i;
    uint8_t cards[5];
    for (int i = 0; i < nboard; i++) cards[i] = board[i];
    for (;;) {
        for (int i = 0; i < k; i++) cards[nboard + i] = deck[idx[i]];
        uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
        unsigned blow = 0;
        for (int i = 0; i < 5; i++) blow |= pe_card_lowbit[cards[i]];
        if (omaha) {
            /* the board's suit with three cards or more (at most one of five), its ranks */
            int suits[4] = {0, 0, 0, 0}, fs = -1;
            uint32_t rkey = 0;
            for (int i = 0; i < 5; i++) { suits[cards[i] & 3]++; rkey += pe_rank_weight[cards[i] >> 2]; }
            for (int s = 0; s < 4; s++) if (suits[s] >= 3) fs = s;
            triples_t tr;
            int have_triples = 0;
            uint16_t *slot = cache ? cache + (rkey + (uint32_t)pe_ph_offset[rkey >> PE_PH_SHIFT]) : NULL;
            for (int p = 0; p < n; p++) {
                const player_t *pl = &players[p];
                uint16_t best = slot ? slot[(size_t)p * PE_RANK_MULTISETS] : 0;
                if (!best) {
                    if (!have_triples) { board_triples(&tr, cards); have_triples = 1; }
                    best = omaha_nonflush(pl, &tr);
                    if (slot) slot[(size_t)p * PE_RANK_MULTISETS] = best;
                }
                if (fs >= 0) {
                    if (!have_triples) { board_triples(&tr, cards); have_triples = 1; }
                    uint16_t f = omaha_flush(pl, &tr, fs);
                    if (f > best) best = f;
                }
                hv[p] = best;
                lv[p] = low8 ? pe_omaha_low8[pl->lowbits << 8 | blow] : 0;
            }
        } else {
            uint64_t bkey = PE_SUIT_BIAS, bmask = 0;
            for (int i = 0; i < 5; i++) { bkey += pe_card_key[cards[i]]; bmask |= pe_card_mask[cards[i]]; }
            for (int p = 0; p < n; p++) {
                uint64_t mask = bmask | players[p].mask;
                hv[p] = high_value(bkey + players[p].key, mask);
                lv[p] = low8 ? pe_low8[low_ranks(mask)] : 0;
            }
        }
        tally_showdown(n, hv, lv, 1, counts);
        runouts++;
        /* next k-subset of the deck, in lexicographic order */
        int i = k - 1;
        while (i >= 0 && idx[i] == ndeck - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    free(cache);
    return runouts;
}
