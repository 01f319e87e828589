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

#define GOLDEN 0x9E3779B97F4A7C15ull
#define MAX_UNSEEN 52
#define MAX_DRAWN 52

static inline uint64_t splitmix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

typedef struct { uint64_t s0, s1, s2, s3; } xo_t;

/* pokereval.kernels.rng.seed_stream */
static void seed_stream(xo_t *st, uint64_t seed, uint64_t stream) {
    uint64_t x = splitmix64(seed ^ splitmix64(stream * GOLDEN + GOLDEN)), s[4];
    for (int i = 0; i < 4; i++) { x += GOLDEN; s[i] = splitmix64(x); }
    st->s0 = s[0]; st->s1 = s[1]; st->s2 = s[2]; st->s3 = s[3];
}

static inline uint64_t xo_next(xo_t *st) {
    uint64_t result = rotl(st->s1 * 5, 7) * 9, t = st->s1 << 17;
    st->s2 ^= st->s0; st->s3 ^= st->s1; st->s1 ^= st->s2; st->s0 ^= st->s3;
    st->s2 ^= t; st->s3 = rotl(st->s3, 45);
    return result;
}

/* A uniform integer in [0, bound) (pokereval.kernels.rng.xo_below). */
static inline uint32_t xo_below(xo_t *st, uint64_t bound) {
    uint64_t m = (xo_next(st) >> 32) * bound, low = m & 0xFFFFFFFFull;
    if (low < bound) {
        uint64_t threshold = (0x100000000ull - bound) % bound;
        while (low < threshold) {
            m = (xo_next(st) >> 32) * bound;
            low = m & 0xFFFFFFFFull;
        }
    }
    return (uint32_t)(m >> 32);
}

int64_t pe_stud_mc(const uint8_t *known, int n, int nknown, const uint8_t *unseen, int u, int mo,
                   int shared, int game, uint64_t seed, int64_t first_chunk, int64_t nchunks,
                   int64_t chunk, int64_t total, int64_t *counts) {
    int need = n * mo + (shared ? 1 : 0);
    int has_high = game != PE_RAZZ, has_low = game != PE_STUD_HIGH;
    if (n < 2 || n > PE_MAX_STUD_PLAYERS || nknown + mo + (shared ? 1 : 0) != 7 || u > MAX_UNSEEN
        || need > u || need > MAX_DRAWN || game < PE_STUD_HIGH || game > PE_RAZZ || chunk < 1)
        return -1;
    uint64_t base_key[PE_MAX_STUD_PLAYERS], base_mask[PE_MAX_STUD_PLAYERS];
    uint64_t ukey[MAX_UNSEEN], umask[MAX_UNSEEN];
    for (int p = 0; p < n; p++) {
        base_key[p] = PE_SUIT_BIAS;
        base_mask[p] = 0;
        for (int i = 0; i < nknown; i++) {
            base_key[p] += pe_card_key[known[p * nknown + i]];
            base_mask[p] |= pe_card_mask[known[p * nknown + i]];
        }
    }
    for (int i = 0; i < u; i++) { ukey[i] = pe_card_key[unseen[i]]; umask[i] = pe_card_mask[unseen[i]]; }
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int64_t samples = 0;
    for (int64_t ci = 0; ci < nchunks; ci++) {
        int64_t g = first_chunk + ci, ns = total - g * chunk;
        if (ns > chunk) ns = chunk;
        if (ns <= 0) continue;
        xo_t st;
        seed_stream(&st, seed, (uint64_t)g);
        uint8_t d[MAX_UNSEEN], drawn[MAX_DRAWN];
        for (int i = 0; i < u; i++) d[i] = (uint8_t)i;
        for (int64_t s = 0; s < ns; s++) {
            for (int i = 0; i < need; i++) {
                int j = i + (int)xo_below(&st, (uint64_t)(u - i));
                uint8_t t = d[j];
                d[j] = d[i];
                d[i] = t;
                drawn[i] = t;
            }
            uint16_t hv[PE_MAX_STUD_PLAYERS], lv[PE_MAX_STUD_PLAYERS], bh = 0, bl = 0;
            for (int p = 0; p < n; p++) {
                uint64_t key = base_key[p], mask = base_mask[p];
                for (int i = p * mo; i < (p + 1) * mo; i++) { key += ukey[drawn[i]]; mask |= umask[drawn[i]]; }
                if (shared) { key += ukey[drawn[n * mo]]; mask |= umask[drawn[n * mo]]; }
                hv[p] = has_high ? high_value(key, mask) : 0;
                lv[p] = game == PE_RAZZ ? rank_value(pe_razz_rank, (uint32_t)key)
                        : game == PE_STUD_HILO ? pe_low8[low_ranks(mask)] : 0;
                if (hv[p] > bh) bh = hv[p];
                if (lv[p] > bl) bl = lv[p];
            }
            /* the tally of pokereval.kernels.stud_montecarlo.add_outcome: row = players
             * sharing the high (0: not a winner, or no high contested), column = 0 no low
             * won, 1 lost the low, else 1 + players sharing it */
            int high_won = has_high && bh > 0, low_won = has_low && bl > 0, nh = 0, nl = 0;
            for (int p = 0; p < n; p++) { nh += hv[p] == bh; nl += lv[p] == bl; }
            for (int p = 0; p < n; p++) {
                int row = high_won && hv[p] == bh ? nh : 0;
                int col = low_won ? (lv[p] == bl ? 1 + nl : 1) : 0;
                counts[(p * (n + 1) + row) * (n + 2) + col]++;
            }
        }
        samples += ns;
    }
    return samples;
}
