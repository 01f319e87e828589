/* Hand evaluation from the tables of tables.c: scalar functions, batches, and the
 * sequential seven-card enumeration used as a benchmark and an exhaustive check. */
#include "pokereval.h"
#include "lookup.h"

uint16_t pe_eval_hi(const uint8_t *cards, int n) {
    uint64_t key = PE_SUIT_BIAS, mask = 0;
    for (int i = 0; i < n; i++) { key += pe_card_key[cards[i]]; mask |= pe_card_mask[cards[i]]; }
    return high_value(key, mask);
}

uint16_t pe_eval_low8(const uint8_t *cards, int n) {
    unsigned low = 0;
    for (int i = 0; i < n; i++) low |= pe_card_lowbit[cards[i]];
    return pe_low8[low];
}

uint16_t pe_eval_razz(const uint8_t *cards, int n) {
    uint32_t key = 0;
    for (int i = 0; i < n; i++) key += pe_rank_weight[cards[i] >> 2];
    return rank_value(pe_razz_rank, key);
}

/* Two of nhole hole cards with three of nboard board cards: the best of the C(nhole,2) x
 * C(nboard,3) five-card hands. A combination can only be a flush when its three board
 * cards and its two hole cards all share one suit. */
uint16_t pe_eval_omaha_hi(const uint8_t *hole, int nhole, const uint8_t *board, int nboard) {
    uint32_t tkey[10]; unsigned tmask[10]; int tsuit[10], nt = 0;
    for (int a = 0; a < nboard; a++)
        for (int b = a + 1; b < nboard; b++)
            for (int c = b + 1; c < nboard; c++) {
                uint8_t x = board[a], y = board[b], z = board[c];
                tkey[nt] = pe_rank_weight[x >> 2] + pe_rank_weight[y >> 2] + pe_rank_weight[z >> 2];
                tmask[nt] = 1u << (x >> 2) | 1u << (y >> 2) | 1u << (z >> 2);
                tsuit[nt++] = ((x & 3) == (y & 3) && (y & 3) == (z & 3)) ? (x & 3) : -1;
            }
    uint16_t best = 0;
    for (int a = 0; a < nhole; a++)
        for (int b = a + 1; b < nhole; b++) {
            uint8_t x = hole[a], y = hole[b];
            uint32_t pkey = pe_rank_weight[x >> 2] + pe_rank_weight[y >> 2];
            int psuit = (x & 3) == (y & 3) ? (x & 3) : -2;
            unsigned pmask = 1u << (x >> 2) | 1u << (y >> 2);
            for (int t = 0; t < nt; t++) {
                uint16_t v = tsuit[t] == psuit ? pe_hi_flush[pmask | tmask[t]]
                                               : rank_value(pe_hi_rank, pkey + tkey[t]);
                if (v > best) best = v;
            }
        }
    return best;
}

uint16_t pe_eval_omaha_low8(const uint8_t *hole, int nhole, const uint8_t *board, int nboard) {
    unsigned h = 0, b = 0;
    for (int i = 0; i < nhole; i++) h |= pe_card_lowbit[hole[i]];
    for (int i = 0; i < nboard; i++) b |= pe_card_lowbit[board[i]];
    return pe_omaha_low8[h << 8 | b];
}

/* A row is valid when its cards are 0..51 and distinct (pe_card_mask has one bit per card).
 * The check rides along with the sums the evaluation needs, in one pass over the row. */
static inline int row_sums(const uint8_t *row, int n, uint64_t *key, uint64_t *mask) {
    uint64_t k = PE_SUIT_BIAS, m = 0;
    for (int i = 0; i < n; i++) {
        uint8_t c = row[i];
        if (c > 51 || (m & pe_card_mask[c])) return 0;
        k += pe_card_key[c];
        m |= pe_card_mask[c];
    }
    *key = k;
    *mask = m;
    return 1;
}

/* Batches stop at the first invalid row and return its index (-1: every row evaluated). */
#define BATCH(name, finish)                                                      \
    int64_t name(const uint8_t *cards, size_t rows, int n, uint16_t *out) {      \
        uint64_t key, mask;                                                      \
        for (size_t r = 0; r < rows; r++) {                                      \
            if (!row_sums(cards + r * (size_t)n, n, &key, &mask)) return (int64_t)r; \
            out[r] = finish;                                                     \
        }                                                                        \
        return -1;                                                               \
    }
BATCH(pe_eval_hi_batch, high_value(key, mask))
BATCH(pe_eval_low8_batch, pe_low8[low_ranks(mask)])
BATCH(pe_eval_razz_batch, rank_value(pe_razz_rank, (uint32_t)key))

int64_t pe_eval_omaha_batch(const uint8_t *holes, int nhole, const uint8_t *boards, int nboard,
                            size_t rows, uint16_t *hi_out, uint16_t *low_out) {
    uint8_t both[10];
    uint64_t key, mask;
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *h = holes + r * (size_t)nhole, *b = boards + r * (size_t)nboard;
        for (int i = 0; i < nhole; i++) both[i] = h[i];
        for (int i = 0; i < nboard; i++) both[nhole + i] = b[i];
        if (!row_sums(both, nhole + nboard, &key, &mask)) return (int64_t)r;
        if (hi_out) hi_out[r] = pe_eval_omaha_hi(h, nhole, b, nboard);
        if (low_out) low_out[r] = pe_eval_omaha_low8(h, nhole, b, nboard);
    }
    return -1;
}

/* The hands of six cards (key, mask) with each card from `first` on, tallied by category
 * into hist[suit of the seventh card][category]: four tallies, so that consecutive
 * hands rarely add to the same counter (each add waits on the previous one to it).
 * Six cards with no suit at four cannot make a flush with any seventh card: their
 * hands skip the flush test. */
static inline void seventh_card(uint64_t key, uint64_t mask, int first, uint64_t hist[4][16]) {
    /* suit counters start at 3: a suit of four or more cards reaches 7, and 8 after +1 */
    if (((key + (0x1111ull << PE_SUIT_SHIFT)) & PE_FLUSH_BITS) == 0) {
        uint32_t rank_key = (uint32_t)key;
        for (int g = first; g < 52; g++)
            hist[g & 3][rank_value(pe_hi_rank, rank_key + pe_rank_weight[g >> 2]) >> 12]++;
        return;
    }
    for (int g = first; g < 52; g++)
        hist[g & 3][high_value(key + pe_card_key[g], mask | pe_card_mask[g]) >> 12]++;
}

/* Nested loops with running (key, mask) sums; the seventh card in seventh_card(). */
void pe_enumerate7(uint64_t counts[9]) {
    uint64_t hist[4][16] = {{0}};
    for (int a = 0; a < 52; a++) {
        uint64_t ka = PE_SUIT_BIAS + pe_card_key[a], ma = pe_card_mask[a];
        for (int b = a + 1; b < 52; b++) {
            uint64_t kb = ka + pe_card_key[b], mb = ma | pe_card_mask[b];
            for (int c = b + 1; c < 52; c++) {
                uint64_t kc = kb + pe_card_key[c], mc = mb | pe_card_mask[c];
                for (int d = c + 1; d < 52; d++) {
                    uint64_t kd = kc + pe_card_key[d], md = mc | pe_card_mask[d];
                    for (int e = d + 1; e < 52; e++) {
                        uint64_t ke = kd + pe_card_key[e], me = md | pe_card_mask[e];
                        for (int f = e + 1; f < 51; f++)
                            seventh_card(ke + pe_card_key[f], me | pe_card_mask[f], f + 1, hist);
                    }
                }
            }
        }
    }
    for (int i = 0; i < 9; i++) counts[i] += hist[0][i] + hist[1][i] + hist[2][i] + hist[3][i];
}
