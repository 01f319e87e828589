/* The showdown tally in C (pokereval.kernels.handeval.tally): each player's outcome cell
 * counts[p][row][col] of n players, row = players sharing the high (0: not a winner, or
 * no high contested), col = 0 no qualifying low (or none contested), 1 lost the low,
 * else 1 + players sharing it.  A low value of 0 does not qualify.  The weighted form adds
 * `weight` run-outs (negative: takes them back). */
#ifndef POKEREVAL_TALLY_H
#define POKEREVAL_TALLY_H
#include <stdint.h>

/* Without data-dependent branches (who wins is a coin flip to the branch predictor):
 * maxima, then counts of equals. */
static inline void tally_showdown_weighted(int n, const uint16_t *hv, const uint16_t *lv,
                                           int has_high, int64_t weight, int64_t *counts) {
    uint16_t bh = 0, bl = 0;
    int nh = 0, nl = 0;
    for (int p = 0; p < n; p++) {
        bh = hv[p] > bh ? hv[p] : bh;
        bl = lv[p] > bl ? lv[p] : bl;
    }
    for (int p = 0; p < n; p++) {
        nh += hv[p] == bh;
        nl += lv[p] == bl;
    }
    int high = has_high && bh > 0, low = bl > 0;
    for (int p = 0; p < n; p++) {
        int row = (high & (hv[p] == bh)) * nh;
        int col = low * (1 + (lv[p] == bl) * nl);
        counts[(p * (n + 1) + row) * (n + 2) + col] += weight;
    }
}

static inline void tally_showdown(int n, const uint16_t *hv, const uint16_t *lv, int has_high,
                                  int64_t *counts) {
    tally_showdown_weighted(n, hv, lv, has_high, 1, counts);
}

#endif
