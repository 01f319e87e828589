/* Stud Monte Carlo in C, sample for sample the Numba kernel's (pokereval.kernels.
 * stud_montecarlo.stud_mc): the same per-chunk xoshiro256** streams seeded through
 * SplitMix64, the same unbiased bounded draws (Lemire), the same partial Fisher-Yates
 * over a chunk's own permutation of the unseen cards, so a seed gives the same counts
 * bit for bit in either.  It answers a process's stud runs without loading Numba (see
 * pokereval.equity.plan), and the chunks of one call may run on any thread (nothing
 * global is written; cffi releases the GIL). */
#include <string.h>
#include "pokereval.h"
#include "lookup.h"
#include "xoshiro.h"

#define MAX_UNSEEN 52
#define MAX_DRAWN 52

/* A spot's per-player sums of the known cards and per-unseen-card parts. */
typedef struct {
    uint64_t base_key[PE_MAX_STUD_PLAYERS], base_mask[PE_MAX_STUD_PLAYERS];
    unsigned base_low[PE_MAX_STUD_PLAYERS];
    uint64_t ukey[MAX_UNSEEN], umask[MAX_UNSEEN];
    unsigned ulow[MAX_UNSEEN];
    int u;
} stud_t;

/* Most players whose outcomes go to a histogram of codes (2 ** (2n + 1) cells). */
#define HIST_PLAYERS 5
/* Samples dealt in a row before they are evaluated. */
#define BLOCK 64

/* Add `weight` samples of outcome `code` (the high winners' bits, the low winners' bits
 * shifted by n, bit 2n: a low was won) to counts[n][n + 1][n + 2]: row = players sharing
 * the high (0: not a winner, or no high contested), column = 0 no low won, 1 lost the
 * low, else 1 + players sharing it (pokereval.kernels.stud_montecarlo.add_outcome). */
static void add_outcome(int n, unsigned code, int64_t weight, int64_t *counts) {
    unsigned full = (1u << n) - 1, hm = code & full, lm = (code >> n) & full;
    int low_won = (int)(code >> (2 * n)), nh = __builtin_popcount(hm), nl = __builtin_popcount(lm);
    for (int p = 0; p < n; p++) {
        int row = (hm >> p & 1) ? nh : 0;
        int col = low_won ? ((lm >> p & 1) ? 1 + nl : 1) : 0;
        counts[(p * (n + 1) + row) * (n + 2) + col] += weight;
    }
}

/* One chunk's `ns` samples into hist[code] (n <= HIST_PLAYERS) or counts.  Inlined with
 * constant n, mo, shared and game at the common shapes' call sites, so that each gets
 * its loops unrolled and its game's branches folded. */
static inline __attribute__((always_inline)) void
run_chunk(const stud_t *S, xo_t *st, int64_t ns, const int n, const int mo, const int shared,
          const int game, int64_t *hist, int64_t *counts) {
    const int need = n * mo + (shared ? 1 : 0), u = S->u;
    const int has_high = game != PE_RAZZ, has_low = game != PE_STUD_HIGH;
    uint8_t d[MAX_UNSEEN], drawn[BLOCK * MAX_DRAWN];
    for (int i = 0; i < u; i++) d[i] = (uint8_t)i;
    for (int64_t done = 0; done < ns; done += BLOCK) {
        /* deal a block of samples, then evaluate it: two tight loops run faster than
         * one that interleaves them (as in the kernel) */
        int nb = ns - done < BLOCK ? (int)(ns - done) : BLOCK;
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < need; i++) {
                int j = i + (int)xo_below(st, (uint64_t)(u - i));
                uint8_t t = d[j];
                d[j] = d[i];
                d[i] = t;
                drawn[b * need + i] = t;
            }
        for (int b = 0; b < nb; b++) {
            const uint8_t *dr = drawn + b * need;
            unsigned hv[PE_MAX_STUD_PLAYERS], lv[PE_MAX_STUD_PLAYERS], bh = 0, bl = 0;
            for (int p = 0; p < n; p++) {
                uint64_t key = S->base_key[p], mask = S->base_mask[p];
                unsigned low = S->base_low[p];
                for (int i = p * mo; i < (p + 1) * mo; i++) {
                    key += S->ukey[dr[i]];
                    if (has_high) mask |= S->umask[dr[i]];
                    if (game == PE_STUD_HILO) low |= S->ulow[dr[i]];
                }
                if (shared) {
                    key += S->ukey[dr[n * mo]];
                    if (has_high) mask |= S->umask[dr[n * mo]];
                    if (game == PE_STUD_HILO) low |= S->ulow[dr[n * mo]];
                }
                hv[p] = has_high ? high_value(key, mask) : 0;
                lv[p] = game == PE_RAZZ ? rank_value(pe_razz_rank, (uint32_t)key)
                        : game == PE_STUD_HILO ? pe_low8[low] : 0;
                bh = hv[p] > bh ? hv[p] : bh;
                bl = lv[p] > bl ? lv[p] : bl;
            }
            /* pokereval.kernels.stud_montecarlo.outcome_code */
            unsigned hm = 0, lm = 0;
            for (int p = 0; p < n; p++) { hm |= (unsigned)(hv[p] == bh) << p; lm |= (unsigned)(lv[p] == bl) << p; }
            unsigned low_won = has_low && bl > 0;
            if (!(has_high && bh > 0)) hm = 0;
            unsigned code = hm | (low_won ? lm << n : 0) | low_won << (2 * n);
            if (n <= HIST_PLAYERS) hist[code]++;
            else add_outcome(n, code, 1, counts);
        }
    }
}

#define SHAPE(N, MO, SH, GAME) \
    if (n == N && mo == MO && shared == SH && game == GAME) { run_chunk(S, st, ns, N, MO, SH, GAME, hist, counts); return; }
#define SHAPES(GAME) SHAPE(2, 4, 0, GAME) SHAPE(3, 4, 0, GAME) SHAPE(2, 3, 0, GAME) \
    SHAPE(3, 3, 0, GAME) SHAPE(2, 2, 0, GAME) SHAPE(2, 1, 0, GAME)

static void chunk_any(const stud_t *S, xo_t *st, int64_t ns, int n, int mo, int shared, int game,
                      int64_t *hist, int64_t *counts) {
    SHAPES(PE_STUD_HIGH)
    SHAPES(PE_STUD_HILO)
    SHAPES(PE_RAZZ)
    run_chunk(S, st, ns, n, mo, shared, game, hist, counts);
}

int64_t pe_stud_mc(const uint8_t *known, int n, int nknown, const uint8_t *unseen, int u, int mo,
                   int shared, int game, uint64_t seed, int64_t first_chunk, int64_t nchunks,
                   int64_t chunk, int64_t total, int64_t *counts) {
    int need = n * mo + (shared ? 1 : 0);
    if (n < 2 || n > PE_MAX_STUD_PLAYERS || nknown + mo + (shared ? 1 : 0) != 7 || u > MAX_UNSEEN
        || need > u || need > MAX_DRAWN || game < PE_STUD_HIGH || game > PE_RAZZ || chunk < 1)
        return -1;
    stud_t S;
    S.u = u;
    for (int p = 0; p < n; p++) {
        S.base_key[p] = PE_SUIT_BIAS;
        S.base_mask[p] = 0;
        S.base_low[p] = 0;
        for (int i = 0; i < nknown; i++) {
            uint8_t c = known[p * nknown + i];
            S.base_key[p] += pe_card_key[c];
            S.base_mask[p] |= pe_card_mask[c];
            S.base_low[p] |= pe_card_lowbit[c];
        }
    }
    for (int i = 0; i < u; i++) {
        S.ukey[i] = pe_card_key[unseen[i]];
        S.umask[i] = pe_card_mask[unseen[i]];
        S.ulow[i] = pe_card_lowbit[unseen[i]];
    }
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int64_t hist[1 << (2 * HIST_PLAYERS + 1)];
    int cells = n <= HIST_PLAYERS ? 1 << (2 * n + 1) : 0;
    memset(hist, 0, sizeof(int64_t) * (size_t)cells);
    int64_t samples = 0;
    for (int64_t ci = 0; ci < nchunks; ci++) {
        int64_t g = first_chunk + ci, ns = total - g * chunk;
        if (ns > chunk) ns = chunk;
        if (ns <= 0) continue;
        xo_t st;
        seed_stream(&st, seed, (uint64_t)g);
        chunk_any(&S, &st, ns, n, mo, shared, game, hist, counts);
        samples += ns;
    }
    for (int code = 0; code < cells; code++)
        if (hist[code]) add_outcome(n, (unsigned)code, hist[code], counts);
    return samples;
}
