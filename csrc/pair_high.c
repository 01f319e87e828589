/* The Omaha family's pair table: the best no-flush two + three high of a hole rank pair
 * with three of a five-card board's ranks, for every (board rank multiset, rank pair).
 * With it a holding's no-flush high costs one read per pair of hole cards instead of the
 * 10 three-card subsets of the board per pair (ranged_mc.c, and the Numba kernels through
 * pokereval.kernels.range_tables); a small hash of the five-card rank keys finds a board's
 * row.  Built once, on first use (2.7 M lookups, a few ms), so that importing the module
 * stays cheap. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include "pokereval.h"
#include "lookup.h"

static uint16_t slot_of[PE_RANK_MULTISETS];
static uint16_t high[PE_BOARD_RANK_SETS * PE_RANK_PAIRS];
static uint8_t pair_class[13 * 13];
static int32_t board_off[PE_BOARD_HASH_ROWS];
static uint16_t board_slot[PE_BOARD_HASH_SIZE];
static pe_pair_high_t view;
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* The five-card boards' small perfect hash, keys[row] the rank key of each pair-table
 * row: tables.c's first-fit row displacement (as the kernels' kernels.boards), 23 KB of
 * offsets instead of the general hash's 512 KB and a 152 KB slot_of, so that finding a
 * board's row costs no cache miss. */
static void build_board_hash(const uint32_t *keys, int nkeys) {
    static uint32_t sorted[PE_BOARD_RANK_SETS];
    memcpy(sorted, keys, sizeof sorted);
    size_t used = pe_row_hash(sorted, (size_t)nkeys, PE_BOARD_HASH_SHIFT, board_off,
                              PE_BOARD_HASH_ROWS);
    for (int i = 0; i < nkeys && used && used <= PE_BOARD_HASH_SIZE; i++)
        board_slot[keys[i] + (uint32_t)board_off[keys[i] >> PE_BOARD_HASH_SHIFT]] = (uint16_t)i;
}

static void build(void) {
    static uint32_t keys[PE_BOARD_RANK_SETS];
    int a[2], pc = 0;
    for (a[0] = 0; a[0] < 13; a[0]++)  /* pairs in the order a <= b (itertools' order) */
        for (a[1] = a[0]; a[1] < 13; a[1]++, pc++)
            pair_class[13 * a[0] + a[1]] = pair_class[13 * a[1] + a[0]] = (uint8_t)pc;
    int r[5], slot = 0;
    for (r[0] = 0; r[0] < 13; r[0]++)
        for (r[1] = r[0]; r[1] < 13; r[1]++)
            for (r[2] = r[1]; r[2] < 13; r[2]++)
                for (r[3] = r[2]; r[3] < 13; r[3]++)
                    for (r[4] = r[3]; r[4] < 13; r[4]++) {
                        if (r[0] == r[4]) continue;  /* five of a rank */
                        int count[13] = {0};
                        uint32_t key = 0;
                        for (int i = 0; i < 5; i++) { count[r[i]]++; key += pe_rank_weight[r[i]]; }
                        slot_of[rank_index(key)] = (uint16_t)slot;
                        keys[slot] = key;
                        uint16_t *row = high + slot * PE_RANK_PAIRS;
                        for (a[0] = 0; a[0] < 13; a[0]++)
                            for (a[1] = a[0]; a[1] < 13; a[1]++) {
                                uint16_t best = 0;
                                count[a[0]]++; count[a[1]]++;
                                /* a pair the board leaves no cards for is never dealt
                                 * with it: 0, never read */
                                int possible = count[a[0]] <= 4 && count[a[1]] <= 4;
                                for (int i = 0; i < 3 && possible; i++)
                                    for (int j = i + 1; j < 4; j++)
                                        for (int l = j + 1; l < 5; l++) {
                                            uint32_t k = pe_rank_weight[a[0]] + pe_rank_weight[a[1]]
                                                + pe_rank_weight[r[i]] + pe_rank_weight[r[j]]
                                                + pe_rank_weight[r[l]];
                                            uint16_t v = pe_hi_rank[rank_index(k)];
                                            if (v > best) best = v;
                                        }
                                count[a[0]]--; count[a[1]]--;
                                row[pair_class[13 * a[0] + a[1]]] = best;
                            }
                        slot++;
                    }
    build_board_hash(keys, PE_BOARD_RANK_SETS);
    view.slot_of = slot_of;
    view.slot_of_len = PE_RANK_MULTISETS;
    view.high = high;
    view.high_len = PE_BOARD_RANK_SETS * PE_RANK_PAIRS;
    view.pair_class = pair_class;
    view.board_off = board_off;
    view.board_off_len = PE_BOARD_HASH_ROWS;
    view.board_slot = board_slot;
    view.board_slot_len = PE_BOARD_HASH_SIZE;
}

const pe_pair_high_t *pe_pair_high(void) {
    pthread_once(&built, build);
    return &view;
}
