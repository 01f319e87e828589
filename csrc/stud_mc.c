/* Fixed-hand stud Monte Carlo: stud, stud-hilo and razz, 2 to 8 players, any street, the
 * shared last card when the deck runs short; the one sampler of these spots
 * (pokereval.equity.backends.c.stud_mc).
 *
 * Sampling.  Chunk g draws from its own xoshiro256** stream seeded from (seed, g)
 * (xoshiro.h), so a seed's counts never depend on how the chunks are split over calls or
 * threads.  A sample is a partial Fisher-Yates draw of need = n * mo (+1 shared) cards
 * from the chunk's running permutation of the unseen cards: player p takes positions
 * [p * mo, (p + 1) * mo), the shared card position n * mo.  The bounded draws come three
 * at a time from 32 random bits, two such groups per 64-bit output (see draw_group).
 *
 * Evaluation.  The permutation holds each card's key (pe_card_key: rank weight and suit
 * counters; the card itself in bits 32..39 for the flush test), so a player's seven cards
 * are one sum: the known cards' (once per call) plus the drawn ones.  The rank key reads
 * the player's high and low at once (seven_values); a suit counter past five sends the
 * high to the flush table instead.  Nothing global is written but seven_values (once,
 * pthread_once), so the chunks of one call may run on any thread (cffi releases the GIL). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include "pokereval.h"
#include "lookup.h"
#include "xoshiro.h"

#define MAX_UNSEEN 52
#define GROUP 3 /* bounded draws per 32 random bits: a product of bounds below 2^18 */
#define MAX_DRAWS 54 /* MAX_UNSEEN rounded up to two groups (one 64-bit output) */
#define CARD_SHIFT 32
/* Most players whose outcomes go to a histogram of codes (2 ** (2n + 1) cells). */
#define HIST_PLAYERS 5
/* The dealt cards of a block of samples, evaluated after the block is dealt. */
#define BLOCK_WORDS 256

/* Each game's values of every seven-card rank multiset, high << 16 | low (eight-or-better,
 * razz, or none), by the seven-card hash (tables.h): a player's hand is one read in 200 KB
 * behind 64 KB of offsets, where the general perfect hash (512 KB of offsets) and one
 * table per value made two or three reads: 3-5% slower, the tables crowding a core's L2
 * cache.  Filled on first use (49,205 multisets: under a millisecond). */
static uint32_t seven_values[3][PE_R7_MULTISETS]; /* [game] */
static pthread_once_t seven_values_filled = PTHREAD_ONCE_INIT;

static inline uint32_t seven_index(uint32_t rank_key) {
    return rank_key + (uint32_t)pe_r7_offset[rank_key >> PE_R7_SHIFT];
}

static void fill_seven_values(void) {
    int r[7];
    for (r[0] = 0; r[0] < 13; r[0]++)
     for (r[1] = r[0]; r[1] < 13; r[1]++)
      for (r[2] = r[1]; r[2] < 13; r[2]++)
       for (r[3] = r[2]; r[3] < 13; r[3]++)
        for (r[4] = r[3]; r[4] < 13; r[4]++)
         for (r[5] = r[4]; r[5] < 13; r[5]++)
          for (r[6] = r[5]; r[6] < 13; r[6]++) {
              if (r[0] == r[4] || r[1] == r[5] || r[2] == r[6]) continue;  /* five of a rank */
              uint32_t key = 0;
              unsigned low = 0;
              for (int i = 0; i < 7; i++) {
                  key += pe_rank_weight[r[i]];
                  low |= pe_card_lowbit[4 * r[i]];
              }
              uint32_t slot = seven_index(key), high = rank_value(pe_hi_rank, key);
              seven_values[PE_STUD_HIGH][slot] = high << 16;
              seven_values[PE_STUD_HILO][slot] = high << 16 | pe_low8[low];
              seven_values[PE_RAZZ][slot] = rank_value(pe_razz_rank, key);
          }
}

/* A call's state, in one block so that the loops' stores (the permutation, the dealt
 * cards, the histogram of a few players) and their loads share no address bits 0..11
 * but where they truly meet: loads that only seemed to depend on a store ("4K aliasing")
 * made a sample up to twice as slow, depending on where the stack happened to be.  Per
 * player: the known cards' key sum and rank bits per suit; per draw of a sample: its
 * bound (1 past the sample's draws: a draw of nothing) and, per group, the threshold
 * 2^32 mod (product of the group's bounds). */
typedef struct {
    uint64_t base[PE_MAX_STUD_PLAYERS];
    unsigned suit_ranks[PE_MAX_STUD_PLAYERS][4];
    uint32_t bound[MAX_DRAWS], threshold[MAX_DRAWS / GROUP];
    uint64_t d[MAX_UNSEEN];  /* the chunk's running permutation of the unseen cards' keys */
    uint64_t drawn[BLOCK_WORDS];
    int64_t hist[1 << (2 * HIST_PLAYERS + 1)];
} stud_t;

/* Draws q[i] uniform in [0, bound[i]) for the GROUP draws from i = lo on, from 32 random
 * bits x: the mixed-radix digits of floor(x * P / 2^32), P the product of the bounds;
 * returns x * P mod 2^32, and the group must be drawn again from fresh bits when that is
 * below 2^32 mod P.  That is Lemire's unbiased bounded draw for P, batched
 * (Brackett-Rozinsky and Lemire, 2024): unbiased, a retry rarer than 1 in 30,000, a third
 * of the multiplications and a sixth of the generator's outputs of one draw per output. */
static inline uint32_t draw_group(const stud_t *S, uint32_t x, int lo, uint32_t *q) {
    for (int k = 0; k < GROUP; k++) q[k] = xo_digit(&x, S->bound[lo + k]);
    return x;
}

/* Position i of the partial Fisher-Yates step: swaps in the card q places on. */
static inline __attribute__((always_inline)) void
take(uint64_t *d, unsigned i, uint32_t q, uint64_t *out) {
    unsigned j = i + q;
    uint64_t t = d[j];
    d[j] = d[i];
    d[i] = t;
    out[i] = t;
}

/* Group g's draws from 32 random bits (again from the low half of a fresh output while
 * rejected), then its steps of the partial Fisher-Yates draw: the draws never leave the
 * registers. */
static inline __attribute__((always_inline)) void
deal_group(stud_t *S, xo_t *rng, uint32_t half, int g, const int need, uint64_t *out) {
    uint32_t q[GROUP];
    while (__builtin_expect(draw_group(S, half, g * GROUP, q) < S->threshold[g], 0))
        half = (uint32_t)xo_next(rng);
    for (int k = 0; k < GROUP && g * GROUP + k < need; k++)
        take(S->d, (unsigned)(g * GROUP + k), q[k], out);
}

/* The groups g and g + 1 of one sample from one 64-bit output (its low half, then its high
 * half); `rng` is the caller's own local (in registers: no store to the cards can touch it). */
static inline __attribute__((always_inline)) void
deal_pair(stud_t *S, xo_t *rng, int g, const int need, uint64_t *out) {
    uint64_t x = xo_next(rng);
    deal_group(S, rng, (uint32_t)x, g, need, out);
    if ((g + 1) * GROUP < need) deal_group(S, rng, (uint32_t)(x >> 32), g + 1, need, out);
}

/* One sample: its `need` cards into out[] (and d[0, need)); the loop unrolled when `need`
 * is a constant. */
static inline __attribute__((always_inline)) void
deal(stud_t *S, xo_t *rng, const int need, uint64_t *out) {
    if (__builtin_constant_p(need)) {
        _Pragma("GCC unroll 9")
        for (int g = 0; g * GROUP < need; g += 2) deal_pair(S, rng, g, need, out);
    } else {
        for (int g = 0; g * GROUP < need; g += 2) deal_pair(S, rng, g, need, out);
    }
}

/* Rank bit of a drawn card's key when the card is of `suit`, else 0 (no branch: a coin
 * flip). */
static inline unsigned suit_bit(uint64_t word, int suit) {
    unsigned c = (unsigned)(word >> CARD_SHIFT) & 0xFF;
    return (unsigned)((int)(c & 3) == suit) << (c >> 2);
}

/* Player p's high given its summed key and its high without flushes: the flush table's
 * value when a suit counter passed five (with seven cards at most one can), without
 * branches; `cards`: its own drawn cards' keys, `shared`: the shared card's key or 0. */
static inline __attribute__((always_inline)) unsigned
with_flush(const stud_t *S, int p, uint64_t key, unsigned high, const uint64_t *cards,
           const int mo, const int shared, uint64_t shared_card) {
    uint64_t flush = key & PE_FLUSH_BITS;
    int suit = (__builtin_ctzll(flush | 1ull << 63) - PE_SUIT_SHIFT - 3) >> 2;
    unsigned mask = S->suit_ranks[p][suit];
    for (int i = 0; i < mo; i++) mask |= suit_bit(cards[i], suit);
    if (shared) mask |= suit_bit(shared_card, suit);
    return flush ? pe_hi_flush[mask] : high;
}

/* Add `weight` samples of outcome `code` (the high winners' bits, the low winners' bits
 * shifted by n, bit 2n: a low was won) to counts[n][n + 1][n + 2]: row = players sharing
 * the high (0: not a winner, or no high contested), column = 0 no low won, 1 lost the
 * low, else 1 + players sharing it. */
static void add_outcome(int n, unsigned code, int64_t weight, int64_t *counts) {
    unsigned full = (1u << n) - 1, hm = code & full, lm = (code >> n) & full;
    int low_won = (int)(code >> (2 * n)), nh = __builtin_popcount(hm), nl = __builtin_popcount(lm);
    for (int p = 0; p < n; p++) {
        int row = (hm >> p & 1) ? nh : 0;
        int col = low_won ? ((lm >> p & 1) ? 1 + nl : 1) : 0;
        counts[(p * (n + 1) + row) * (n + 2) + col] += weight;
    }
}

/* The outcome code of the sample whose drawn cards' keys are dr[0, need): the high
 * winners' bits, the low winners' bits shifted by n, bit 2n: a low was won. */
static inline __attribute__((always_inline)) unsigned
outcome(const stud_t *S, const uint32_t *values, const uint64_t *dr, const int n, const int mo,
        const int shared, const int game) {
    const int has_high = game != PE_RAZZ, has_low = game != PE_STUD_HIGH;
    const uint64_t extra = shared ? dr[n * mo] : 0;
    unsigned hv[PE_MAX_STUD_PLAYERS], lv[PE_MAX_STUD_PLAYERS], bh = 0, bl = 0, hm = 0, lm = 0;
    uint64_t keys[PE_MAX_STUD_PLAYERS], any = 0;
    for (int p = 0; p < n; p++) {
        uint64_t key = S->base[p] + extra;
        for (int i = p * mo; i < (p + 1) * mo; i++) key += dr[i];
        uint32_t v = values[seven_index((uint32_t)key)];
        keys[p] = key;
        any |= key;
        hv[p] = has_high ? v >> 16 : 0;
        lv[p] = has_low ? v & 0xFFFF : 0;
    }
    /* one branch a sample for the flushes (rare; a sample's are valued without branches) */
    if (has_high && __builtin_expect((any & PE_FLUSH_BITS) != 0, 0))
        for (int p = 0; p < n; p++)
            hv[p] = with_flush(S, p, keys[p], hv[p], dr + p * mo, mo, shared, extra);
    for (int p = 0; p < n; p++) {
        bh = hv[p] > bh ? hv[p] : bh;
        bl = lv[p] > bl ? lv[p] : bl;
    }
    for (int p = 0; p < n; p++) {
        hm |= (unsigned)(hv[p] == bh) << p;
        lm |= (unsigned)(lv[p] == bl) << p;
    }
    /* without branches: whether a low qualifies is a coin flip in stud-hilo */
    unsigned high_won = (unsigned)has_high & (bh > 0), low_won = (unsigned)has_low & (bl > 0);
    return (hm & -high_won) | (lm << n & -low_won) | low_won << (2 * n);
}

/* One chunk's `ns` samples from its stream into S->hist[code] (n <= HIST_PLAYERS) or
 * counts.  Inlined into each function below with its constants. */
static inline __attribute__((always_inline)) void
run_chunk(stud_t *S, const xo_t *stream, int64_t ns, const int n, const int mo, const int shared,
          const int game, int64_t *counts) {
    const int need = n * mo + (shared ? 1 : 0), per_block = BLOCK_WORDS / (need ? need : 1);
    const uint32_t *values = seven_values[game];
    xo_t rng = *stream;
    for (int64_t done = 0; done < ns; done += per_block) {
        /* deal a block of samples, then evaluate it: two tight loops run faster than
         * one that interleaves them */
        const int nb = ns - done < per_block ? (int)(ns - done) : per_block;
        for (int b = 0; b < nb; b++) deal(S, &rng, need, S->drawn + b * need);
        for (int b = 0; b < nb; b++) {
            unsigned code = outcome(S, values, S->drawn + b * need, n, mo, shared, game);
            if (n <= HIST_PLAYERS) S->hist[code]++;
            else add_outcome(n, code, 1, counts);
        }
    }
}

/* The sampling loop of each game and (own cards drawn, shared card), in its own function
 * (its own registers and code layout) with those constant, and the player count constant
 * too for two and three players with no shared card (the common spots: a shared card
 * comes with seven or eight players): the loops unrolled, the other games' code gone. */
#define CHUNK_FN(MO, SH, GAME) \
    static __attribute__((noinline)) void chunk_##GAME##_##MO##_##SH( \
        stud_t *S, const xo_t *stream, int64_t ns, int n, int64_t *counts) { \
        if (n == 2 && MO && !SH) run_chunk(S, stream, ns, 2, MO, SH, GAME, counts); \
        else if (n == 3 && MO && !SH) run_chunk(S, stream, ns, 3, MO, SH, GAME, counts); \
        else run_chunk(S, stream, ns, n, MO, SH, GAME, counts); }
#define DRAWS(X, GAME) X(0, 0, GAME) X(0, 1, GAME) X(1, 0, GAME) X(1, 1, GAME) X(2, 0, GAME) \
    X(2, 1, GAME) X(3, 0, GAME) X(3, 1, GAME) X(4, 0, GAME)
DRAWS(CHUNK_FN, PE_STUD_HIGH)
DRAWS(CHUNK_FN, PE_STUD_HILO)
DRAWS(CHUNK_FN, PE_RAZZ)

typedef void chunk_fn(stud_t *, const xo_t *, int64_t, int, int64_t *);
#define CHUNK_ROW(MO, SH, GAME) chunk_##GAME##_##MO##_##SH,
/* [game][2 * mo + shared]: a stud player draws at most four cards (three are known) */
static chunk_fn *const chunks[3][9] = {{DRAWS(CHUNK_ROW, PE_STUD_HIGH)},
                                        {DRAWS(CHUNK_ROW, PE_STUD_HILO)},
                                        {DRAWS(CHUNK_ROW, PE_RAZZ)}};

int64_t pe_stud_mc(const uint8_t *known, int n, int nknown, const uint8_t *unseen, int u, int mo,
                   int shared, int game, uint64_t seed, int64_t first_chunk, int64_t nchunks,
                   int64_t chunk, int64_t total, int64_t *counts) {
    int need = n * mo + (shared ? 1 : 0);
    if (n < 2 || n > PE_MAX_STUD_PLAYERS || nknown < 3 || nknown + mo + (shared ? 1 : 0) != 7
        || u > MAX_UNSEEN || need > u || game < PE_STUD_HIGH || game > PE_RAZZ || chunk < 1)
        return -1;
    pthread_once(&seven_values_filled, fill_seven_values);
    stud_t S;
    for (int p = 0; p < n; p++) {
        S.base[p] = PE_SUIT_BIAS;
        memset(S.suit_ranks[p], 0, sizeof S.suit_ranks[p]);
        for (int i = 0; i < nknown; i++) {
            uint8_t c = known[p * nknown + i];
            S.base[p] += pe_card_key[c];
            S.suit_ranks[p][c & 3] |= 1u << (c >> 2);
        }
    }
    uint64_t word[MAX_UNSEEN];  /* the unseen cards' keys, each chunk's first order */
    for (int i = 0; i < u; i++)
        word[i] = pe_card_key[unseen[i]] | (uint64_t)unseen[i] << CARD_SHIFT;
    for (int i = 0; i < MAX_DRAWS; i++) S.bound[i] = i < need ? (uint32_t)(u - i) : 1;
    for (int g = 0; g < MAX_DRAWS / GROUP; g++) {
        uint32_t product = S.bound[GROUP * g] * S.bound[GROUP * g + 1] * S.bound[GROUP * g + 2];
        S.threshold[g] = xo_batch_threshold(product);  /* 2^32 mod product */
    }
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int cells = n <= HIST_PLAYERS ? 1 << (2 * n + 1) : 0;
    memset(S.hist, 0, sizeof(int64_t) * (size_t)cells);
    chunk_fn *run = chunks[game][2 * mo + (shared ? 1 : 0)];
    int64_t samples = 0;
    for (int64_t ci = 0; ci < nchunks; ci++) {
        int64_t g = first_chunk + ci, ns = total - g * chunk;
        if (ns > chunk) ns = chunk;
        if (ns <= 0) continue;
        xo_t st;
        seed_stream(&st, seed, (uint64_t)g);
        memcpy(S.d, word, sizeof(uint64_t) * (size_t)u);
        run(&S, &st, ns, n, counts);
        samples += ns;
    }
    for (int code = 0; code < cells; code++)
        if (S.hist[code]) add_outcome(n, (unsigned)code, S.hist[code], counts);
    return samples;
}
