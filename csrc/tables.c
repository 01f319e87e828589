/* Builds every lookup table from the rules (about 75 ms). The build runs this once, in
 * csrc/gen_tables.c, and compiles the filled tables into the module
 * (PE_PREBUILT_TABLES: tables_prebuilt.h, generated, never committed), so that pe_init()
 * has nothing left to do at import; without it pe_init() builds them.
 *
 * 1. Hand keys. Every five-card high hand (flush or not) gets a comparable key
 *    category << 20 | tie-break ranks (4 bits each); sorting the distinct keys of each
 *    category gives the dense value category << 12 | order (7,462 classes in all).
 * 2. hi_rank / razz_rank: for each multiset of 0..7 ranks (at most 4 of a rank), the value
 *    of its best five-card sub-multiset, indexed by a perfect hash of the additive rank key.
 * 3. Perfect hash: OMPEval-style row displacement over keys sum(rank_weight), rows of
 *    2^PE_PH_SHIFT keys placed first-fit in decreasing size; minimal (76,155 slots).
 * 4. Flush and low tables on bitmasks.
 * 5. The seven-card hash (stud_mc.c): the same kind of hash for the multisets of exactly
 *    seven ranks, rows of 2^PE_R7_SHIFT keys: 64 KB of offsets instead of 512 KB.
 */
#include <stdlib.h>
#include <string.h>
#include "pokereval.h"
#include "tables.h"

/* Rank weights (from OMPEval): sums of at most 7 weights, 4 per rank, are all distinct. */
const uint32_t pe_rank_weight[13] = {0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000,
                                     0x41a013, 0x47802e, 0x479068, 0x48c0e4, 0x48f211, 0x494493};
#define PH_ROWS ((PE_RANK_KEY_MAX >> PE_PH_SHIFT) + 1)
#ifdef PE_PREBUILT_TABLES
#include "tables_prebuilt.h" /* the arrays below, as gen_tables.c filled them */
enum { PREBUILT = 1 };
#else
int32_t pe_ph_offset[PH_ROWS];
uint16_t pe_hi_rank[PE_RANK_MULTISETS];
uint16_t pe_razz_rank[PE_RANK_MULTISETS];
uint16_t pe_hi_flush[8192];
uint16_t pe_low8[256];
uint16_t pe_omaha_low8[65536];
uint8_t pe_card_lowbit[52];
uint64_t pe_card_key[52];
uint64_t pe_card_mask[52];
int32_t pe_r7_offset[PE_R7_ROWS];
enum { PREBUILT = 0 };
#endif

enum { HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH };

/* ---- 1. comparable keys of five-card hands ------------------------------------------ */

/* Top rank of a straight in a 13-bit rank mask (3 for the wheel), or -1. */
static int straight_top(unsigned mask) {
    for (int top = 12; top >= 4; top--) {
        unsigned run = 0x1Fu << (top - 4);
        if ((mask & run) == run) return top;
    }
    return (mask & 0x100Fu) == 0x100Fu ? 3 : -1; /* A-2-3-4-5 */
}

/* Ranks listed by (count desc, rank desc), packed 4 bits each, highest group first. */
static uint32_t grouped_ranks(const int counts[13], int ace_low) {
    uint32_t packed = 0;
    for (int c = 4; c >= 1; c--)
        for (int i = 12; i >= 0; i--) {
            /* razz orders the ace below the deuce: rank order A,2,..,K */
            int r = ace_low ? (i == 0 ? 12 : i - 1) : i;
            int label = ace_low ? i : r;
            for (int k = 0; k < counts[r] && counts[r] == c; k++) packed = packed << 4 | (uint32_t)label;
        }
    return packed;
}

/* Key of five non-flush cards given as rank counts. */
static uint32_t high_key5(const int counts[13]) {
    int shape[5] = {0};
    unsigned mask = 0;
    for (int r = 0; r < 13; r++) {
        shape[counts[r]]++;
        if (counts[r]) mask |= 1u << r;
    }
    uint32_t cat;
    if (shape[4]) cat = QUADS;
    else if (shape[3] && shape[2]) cat = FULL_HOUSE;
    else if (shape[3]) cat = TRIPS;
    else if (shape[2] == 2) cat = TWO_PAIR;
    else if (shape[2]) cat = PAIR;
    else {
        int top = straight_top(mask);
        if (top >= 0) return (uint32_t)STRAIGHT << 20 | (uint32_t)top;
        cat = HIGH_CARD;
    }
    return cat << 20 | grouped_ranks(counts, 0);
}

/* Razz key of five cards (smaller is better): pair shape, then grouped ranks, ace low. */
static uint32_t razz_key5(const int counts[13]) {
    int shape[5] = {0};
    for (int r = 0; r < 13; r++) shape[counts[r]]++;
    uint32_t s = shape[4] ? 5 : shape[3] && shape[2] ? 4 : shape[3] ? 3 : shape[2] == 2 ? 2 : shape[2] ? 1 : 0;
    return s << 20 | grouped_ranks(counts, 1);
}

static uint32_t flush_key(unsigned mask) {
    int top = straight_top(mask);
    if (top >= 0) return (uint32_t)STRAIGHT_FLUSH << 20 | (uint32_t)top;
    uint32_t packed = 0;
    int taken = 0;
    for (int r = 12; r >= 0 && taken < 5; r--)
        if (mask >> r & 1) { packed = packed << 4 | (uint32_t)r; taken++; }
    return (uint32_t)FLUSH << 20 | packed;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorted distinct keys; value of a key = its position, made dense within categories. */
typedef struct { uint32_t *keys; uint16_t *values; size_t n; } key_index_t;

static int key_index_build(key_index_t *ix, uint32_t *keys, size_t n, int larger_is_better) {
    qsort(keys, n, sizeof *keys, cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || keys[i] != keys[m - 1]) keys[m++] = keys[i];
    ix->keys = keys;
    ix->n = m;
    ix->values = malloc(m * sizeof *ix->values);
    if (!ix->values) return -1;
    uint32_t order = 0, cat = UINT32_MAX;
    for (size_t i = 0; i < m; i++) {
        if (larger_is_better) { /* high: category << 12 | order within category */
            if (keys[i] >> 20 != cat) { cat = keys[i] >> 20; order = 0; }
            ix->values[i] = (uint16_t)(cat << 12 | ++order);
        } else { /* razz: smaller key is better, so value counts down to 1 */
            ix->values[i] = (uint16_t)(m - i);
        }
    }
    return 0;
}

static uint16_t key_value(const key_index_t *ix, uint32_t key) {
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ix->keys[mid] < key) lo = mid + 1; else hi = mid;
    }
    return ix->values[lo]; /* every key looked up was registered */
}

/* ---- 2. rank multisets --------------------------------------------------------------- */

typedef void (*multiset_fn)(const int counts[13], int n, void *ctx);

static void each_multiset(int r, int left, int n, int counts[13], multiset_fn fn, void *ctx) {
    if (r == 13) { fn(counts, n, ctx); return; }
    for (int c = 0; c <= 4 && c <= left; c++) {
        counts[r] = c;
        each_multiset(r + 1, left - c, n + c, counts, fn, ctx);
    }
    counts[r] = 0;
}

typedef struct { uint32_t *keys; size_t n; int razz; } key_list_t;

static void collect_five(const int counts[13], int n, void *ctx) {
    key_list_t *kl = ctx;
    if (n == 5) kl->keys[kl->n++] = kl->razz ? razz_key5(counts) : high_key5(counts);
}

static uint32_t rank_key(const int counts[13]) {
    uint32_t key = 0;
    for (int r = 0; r < 13; r++) key += (uint32_t)counts[r] * pe_rank_weight[r];
    return key;
}

typedef struct {
    uint32_t *keys; size_t n;            /* rank key of every multiset, for the perfect hash */
    const key_index_t *high, *razz;      /* five-card values */
    int pass;                            /* fill_rank_values: the card count filled now */
} multisets_t;

static void collect_rank_key(const int counts[13], int n, void *ctx) {
    (void)n;
    multisets_t *ms = ctx;
    ms->keys[ms->n++] = rank_key(counts);
}

static uint32_t ph_index(uint32_t key) { return key + (uint32_t)pe_ph_offset[key >> PE_PH_SHIFT]; }

/* Five cards: the value of their key. More cards: the best five of n cards is the best
 * over the (n-1)-card multisets one card smaller, already filled (pass n after n - 1). */
static void fill_rank_values(const int counts[13], int n, void *ctx) {
    multisets_t *ms = ctx;
    if (n != ms->pass) return;
    uint32_t key = rank_key(counts), slot = ph_index(key);
    if (n < 5) { pe_hi_rank[slot] = 0; pe_razz_rank[slot] = 0; return; }
    if (n == 5) {
        pe_hi_rank[slot] = key_value(ms->high, high_key5(counts));
        pe_razz_rank[slot] = key_value(ms->razz, razz_key5(counts));
        return;
    }
    uint16_t high = 0, razz = 0;
    for (int r = 0; r < 13; r++) {
        if (!counts[r]) continue;
        uint32_t smaller = ph_index(key - pe_rank_weight[r]);
        if (pe_hi_rank[smaller] > high) high = pe_hi_rank[smaller];
        if (pe_razz_rank[smaller] > razz) razz = pe_razz_rank[smaller];
    }
    pe_hi_rank[slot] = high;
    pe_razz_rank[slot] = razz;
}

/* ---- 3. perfect hash ----------------------------------------------------------------- */

typedef struct { uint32_t row, count, first; } ph_row_t;

static int cmp_row_desc(const void *a, const void *b) {
    const ph_row_t *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : (x->row > y->row) - (x->row < y->row);
}

/* Union-find "next free slot" with path halving. */
static uint32_t next_free(uint32_t *next, uint32_t i) {
    while (next[i] != i) { next[i] = next[next[i]]; i = next[i]; }
    return i;
}

size_t pe_row_hash(uint32_t *keys, size_t n, int shift, int32_t *offset, uint32_t nrows) {
    qsort(keys, n, sizeof *keys, cmp_u32);
    const uint32_t *sorted_keys = keys;
    ph_row_t *rows = calloc(nrows, sizeof *rows);
    size_t cap = 2 * n + (1u << shift);
    uint8_t *used = calloc(cap, 1);
    uint32_t *next = malloc((cap + 1) * sizeof *next);
    if (!rows || !used || !next) { free(rows); free(used); free(next); return 0; }
    for (uint32_t r = 0; r < nrows; r++) rows[r].row = r;
    for (size_t i = 0; i < n; i++) {
        ph_row_t *row = &rows[sorted_keys[i] >> shift];
        if (row->count++ == 0) row->first = (uint32_t)i;
    }
    qsort(rows, nrows, sizeof *rows, cmp_row_desc);
    for (size_t i = 0; i <= cap; i++) next[i] = (uint32_t)i;
    uint32_t max_slot = 0;
    memset(offset, 0, nrows * sizeof *offset);
    for (size_t i = 0; i < nrows && rows[i].count; i++) {
        const uint32_t *k = sorted_keys + rows[i].first;
        uint32_t base = rows[i].row << shift, c0 = k[0] - base;
        /* Try each free slot for the row's first key; the rest must land on free slots too. */
        for (uint32_t f = next_free(next, 0);; f = next_free(next, f + 1)) {
            uint32_t j = 1;
            while (j < rows[i].count && !used[f + (k[j] - k[0])]) j++;
            if (j < rows[i].count) continue;
            for (j = 0; j < rows[i].count; j++) {
                uint32_t slot = f + (k[j] - k[0]);
                used[slot] = 1;
                next[slot] = slot + 1;
                if (slot > max_slot) max_slot = slot;
            }
            offset[rows[i].row] = (int32_t)(f - c0) - (int32_t)base;
            break;
        }
    }
    free(rows); free(used); free(next);
    return (size_t)max_slot + 1;
}

static void collect_seven(const int counts[13], int n, void *ctx) {
    key_list_t *kl = ctx;
    if (n == 7) kl->keys[kl->n++] = rank_key(counts);
}

/* ---- 4. bitmask tables ----------------------------------------------------------------- */

/* The k lowest set bits of mask, or 0 if it has fewer. */
static unsigned lowest_bits(unsigned mask, int k) {
    unsigned out = 0;
    for (; k > 0 && mask; k--) { unsigned b = mask & -mask; out |= b; mask ^= b; }
    return k == 0 ? out : 0;
}

static void build_low_tables(void) {
    for (unsigned m = 0; m < 256; m++) {
        unsigned five = lowest_bits(m, 5);
        pe_low8[m] = five ? (uint16_t)(255 - five) : 0;
    }
    /* Omaha: for a fixed hole pair the best three board ranks are the three lowest
     * board ranks not in the pair; take the best over the hole pairs. */
    for (unsigned hole = 0; hole < 256; hole++)
        for (unsigned board = 0; board < 256; board++) {
            unsigned best = 256;
            for (unsigned a = 0; a < 8; a++)
                for (unsigned b = a + 1; b < 8; b++) {
                    unsigned pair = 1u << a | 1u << b;
                    if ((hole & pair) != pair) continue;
                    unsigned three = lowest_bits(board & ~pair, 3);
                    if (three && (pair | three) < best) best = pair | three;
                }
            pe_omaha_low8[hole << 8 | board] = best < 256 ? (uint16_t)(255 - best) : 0;
        }
    for (int c = 0; c < 52; c++) {
        int rank = c >> 2;
        pe_card_lowbit[c] = rank == 12 ? 1 : rank <= 6 ? (uint8_t)(1u << (rank + 1)) : 0;
    }
}

static void build_card_keys(void) {
    for (int c = 0; c < 52; c++) {
        pe_card_key[c] = pe_rank_weight[c >> 2] | 1ull << (PE_SUIT_SHIFT + 4 * (c & 3));
        pe_card_mask[c] = 1ull << (16 * (c & 3) + (c >> 2));
    }
}

/* ---- pe_init ------------------------------------------------------------------------- */

static pe_tables_t tables;
static int initialized;

/* Fills every table (see the top of this file); 0 on success, -1 out of memory. */
static int build_tables(void) {
    int status = -1, counts[13] = {0};
    key_index_t high = {0}, razz = {0};
    uint32_t *high_keys = malloc((6175 + 8192) * sizeof *high_keys);
    uint32_t *razz_keys = malloc(6175 * sizeof *razz_keys);
    multisets_t ms = {malloc(PE_RANK_MULTISETS * sizeof(uint32_t)), 0, &high, &razz, 0};
    if (!high_keys || !razz_keys || !ms.keys) goto done;

    key_list_t hk = {high_keys, 0, 0}, rk = {razz_keys, 0, 1};
    each_multiset(0, 5, 0, counts, collect_five, &hk);
    each_multiset(0, 5, 0, counts, collect_five, &rk);
    for (unsigned m = 0; m < 8192; m++)
        if (__builtin_popcount(m) == 5) high_keys[hk.n++] = flush_key(m);
    if (key_index_build(&high, high_keys, hk.n, 1) || key_index_build(&razz, razz_keys, rk.n, 0)) goto done;

    for (unsigned m = 0; m < 8192; m++) {
        /* best five of a one-suit mask: the flush key of its best five bits */
        if (__builtin_popcount(m) < 5) { pe_hi_flush[m] = 0; continue; }
        uint32_t best = 0;
        for (unsigned sub = m; sub; sub = (sub - 1) & m)
            if (__builtin_popcount(sub) == 5 && flush_key(sub) > best) best = flush_key(sub);
        pe_hi_flush[m] = key_value(&high, best);
    }

    each_multiset(0, 7, 0, counts, collect_rank_key, &ms);
    /* first fit is minimal for these keys (and for the seven-card ones below) */
    if (pe_row_hash(ms.keys, ms.n, PE_PH_SHIFT, pe_ph_offset, PH_ROWS) != PE_RANK_MULTISETS)
        goto done;
    for (ms.pass = 0; ms.pass <= 7; ms.pass++) each_multiset(0, 7, 0, counts, fill_rank_values, &ms);
    key_list_t seven = {ms.keys, 0, 0};  /* the keys of seven cards only, reusing ms.keys */
    each_multiset(0, 7, 0, counts, collect_seven, &seven);
    if (pe_row_hash(seven.keys, seven.n, PE_R7_SHIFT, pe_r7_offset, PE_R7_ROWS) != PE_R7_MULTISETS)
        goto done;
    build_low_tables();
    build_card_keys();
    status = 0;
done:
    free(high_keys); free(razz_keys); free(ms.keys); free(high.values); free(razz.values);
    return status;
}

int pe_init(void) {
    if (initialized) return 0;
    if (!PREBUILT && build_tables() != 0) return -1;
    tables = (pe_tables_t){pe_rank_weight, 13, pe_ph_offset, PH_ROWS, pe_hi_rank, PE_RANK_MULTISETS,
                           pe_razz_rank, PE_RANK_MULTISETS, pe_hi_flush, 8192, pe_low8, 256,
                           pe_omaha_low8, 65536, pe_card_lowbit, 52};
    initialized = 1;
    return 0;
}

const pe_tables_t *pe_tables(void) { return initialized ? &tables : NULL; }
