/* Exact board-game spots, walked by board rank multisets (see pokereval.h, pe_board_exact
 * and pe_board_exact_tuples).
 *
 * A player's high ignoring flushes, and every low, depend only on the ranks of the board.
 * So the run-outs are walked one rank multiset R of the missing cards at a time (a unit):
 * its values are computed once and tallied with weight N(R), the number of run-outs whose
 * new cards have those ranks (a product of binomials over the ranks' unseen cards).
 * Flushes need three board cards of one suit s (at most one suit of five cards), so for
 * each suit some player could flush with, and each set X of R's ranks whose s card is
 * dealt (enough of them for a flush), the run-outs of exactly that pattern are counted by
 * binomials too, valued with the flushes, tallied, and the same weight of the no-flush
 * outcome taken back.  Heads-up Omaha preflop: 1,086,008 run-outs in 5,947 units.
 *
 * Players given as ranges: every combination of holdings is such a walk over the same
 * units (those of the deck before the holdings), with its own unseen cards. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pokereval.h"
#include "board_parts.h"
#include "tally.h"

#define NO_THRESHOLD 99 /* a suit no player can make a flush in */
#define MAX_UNITS 6188  /* multisets of five ranks: C(17, 5) */

typedef struct { /* a rank multiset of the missing cards */
    uint32_t key;       /* the whole board's rank key, known cards too */
    unsigned low;       /* the whole board's low-rank bits */
    uint16_t slot;      /* its row in the pair table (Omaha family, ranges) */
    uint8_t nd, dr[5], dm[5]; /* the distinct new ranks, how many of each */
    uint8_t br[5];      /* the board's ranks */
} unit_t;

typedef struct { /* what every deal of a walk shares */
    int n, omaha, low8, k;
    unsigned known_sm[4]; /* the known board's rank mask per suit */
    int known_count[4];
    const pe_pair_high_t *pairs; /* Omaha highs from the pair table, or NULL: from triples */
    unit_t units[MAX_UNITS];
    int nunits;
} walk_t;

typedef struct { /* the players' hands and the cards left for the run-outs */
    player_t players[PE_MAX_BOARD_PLAYERS];
    uint8_t pair_class[PE_MAX_BOARD_PLAYERS][MAX_PAIRS];
    unsigned hsm[PE_MAX_BOARD_PLAYERS][4]; /* each player's hole rank mask per suit */
    int hcount[PE_MAX_BOARD_PLAYERS][4];   /* and hole card count per suit */
    int avail[13];                         /* unseen cards of each rank */
    unsigned have[4];                      /* rank mask of the unseen cards of each suit */
    int threshold[4];                      /* new cards of a suit that can make a flush */
} deal_t;

static const int64_t BINOM[5][6] = { /* C(n, k) for n unseen cards of a rank, k <= 5 */
    {1, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0}, {1, 2, 1, 0, 0, 0}, {1, 3, 3, 1, 0, 0},
    {1, 4, 6, 4, 1, 0}};

/* Fill rs[i..k) with the smallest nondecreasing ranks from `from` on that the unseen
 * cards allow (used[r]: ranks taken in rs[0..i)); 0 and nothing changed if none fit. */
static int fill_ranks(int *rs, int i, int k, int from, int *used, const int *avail) {
    int r = from;
    for (int j = i; j < k; j++) {
        while (r < 13 && used[r] >= avail[r]) r++;
        if (r == 13) {
            for (int q = i; q < j; q++) used[rs[q]]--;
            return 0;
        }
        rs[j] = r;
        used[r]++;
    }
    return 1;
}

/* The next rank multiset in order (rs nondecreasing); 0 after the last. */
static int next_ranks(int *rs, int k, int *used, const int *avail) {
    for (int i = k - 1; i >= 0; i--) {
        used[rs[i]]--;
        if (fill_ranks(rs, i, k, rs[i] + 1, used, avail)) return 1;
    }
    return 0;
}

static void count_deck(const uint8_t *deck, int ndeck, int *avail, unsigned *have) {
    memset(avail, 0, 13 * sizeof *avail);
    memset(have, 0, 4 * sizeof *have);
    for (int i = 0; i < ndeck; i++) {
        avail[deck[i] >> 2]++;
        have[deck[i] & 3] |= 1u << (deck[i] >> 2);
    }
}

/* The walk's units: the rank multisets of the 5 - nboard cards from `avail`; 0 when the
 * spot is out of range. */
static int set_walk(walk_t *W, int n, int omaha, int low8, const uint8_t *board, int nboard,
                    const int *avail, int use_pairs) {
    if (n < 2 || n > PE_MAX_BOARD_PLAYERS || nboard < 0 || nboard > 5) return 0;
    W->n = n;
    W->omaha = omaha;
    W->low8 = low8;
    W->k = 5 - nboard;
    W->pairs = omaha && use_pairs ? pe_pair_high() : NULL;
    memset(W->known_sm, 0, sizeof W->known_sm);
    memset(W->known_count, 0, sizeof W->known_count);
    uint32_t key = 0;
    unsigned low = 0;
    for (int i = 0; i < nboard; i++) {
        W->known_sm[board[i] & 3] |= 1u << (board[i] >> 2);
        W->known_count[board[i] & 3]++;
        key += pe_rank_weight[board[i] >> 2];
        low |= pe_card_lowbit[board[i]];
    }
    int rs[5], used[13] = {0}, k = W->k;
    W->nunits = 0;
    if (!fill_ranks(rs, 0, k, 0, used, avail)) return 1;
    do {
        unit_t *u = &W->units[W->nunits++];
        u->key = key;
        u->low = low;
        u->nd = 0;
        for (int i = 0; i < nboard; i++) u->br[i] = (uint8_t)(board[i] >> 2);
        for (int i = 0; i < k; i++) {
            u->br[nboard + i] = (uint8_t)rs[i];
            u->key += pe_rank_weight[rs[i]];
            u->low |= pe_card_lowbit[rs[i] << 2];
            if (u->nd && u->dr[u->nd - 1] == rs[i]) u->dm[u->nd - 1]++;
            else { u->dr[u->nd] = (uint8_t)rs[i]; u->dm[u->nd++] = 1; }
        }
        u->slot = W->pairs ? W->pairs->board_slot[u->key + (uint32_t)W->pairs->board_off[
                                 u->key >> PE_BOARD_HASH_SHIFT]] : 0;
    } while (next_ranks(rs, k, used, avail));
    return 1;
}

/* The deal of the hands holes[p] (nhole cards each) with the cards of `avail` / `have`
 * left but theirs; 0 when a hand is out of range. */
static int set_deal(const walk_t *W, deal_t *D, const uint8_t *const *holes, int nhole,
                    const int *avail, const unsigned *have) {
    if (nhole < 2 || nhole > 5 || (!W->omaha && nhole != 2)) return 0;
    memcpy(D->avail, avail, sizeof D->avail);
    memcpy(D->have, have, sizeof D->have);
    memset(D->hsm, 0, sizeof D->hsm);
    memset(D->hcount, 0, sizeof D->hcount);
    for (int p = 0; p < W->n; p++) {
        const uint8_t *hole = holes[p];
        prepare(&D->players[p], hole, nhole);
        for (int i = 0; i < nhole; i++) {
            int r = hole[i] >> 2, s = hole[i] & 3;
            if (D->have[s] >> r & 1) { D->have[s] &= ~(1u << r); D->avail[r]--; }
            D->hsm[p][s] |= 1u << r;
            D->hcount[p][s]++;
        }
        if (W->pairs) {
            int q = 0;
            for (int a = 0; a < nhole; a++)
                for (int b = a + 1; b < nhole; b++)
                    D->pair_class[p][q++] = W->pairs->pair_class[13 * (hole[a] >> 2) + (hole[b] >> 2)];
        }
    }
    /* Omaha: three board cards and two hole cards of a suit; hold'em: five of seven */
    for (int s = 0; s < 4; s++) {
        int most = 0;
        for (int p = 0; p < W->n; p++) most = D->hcount[p][s] > most ? D->hcount[p][s] : most;
        int t = W->omaha ? (most >= 2 ? 3 : NO_THRESHOLD) : (5 - most > 3 ? 5 - most : 3);
        D->threshold[s] = t == NO_THRESHOLD ? t : t - W->known_count[s];
    }
    return 1;
}

/* Every player's high ignoring flushes and low, on the unit's board. */
static void rank_values(const walk_t *W, const deal_t *D, const unit_t *u, uint16_t *hv,
                        uint16_t *lv) {
    if (W->omaha && W->pairs) {
        const uint16_t *row = W->pairs->high + (size_t)u->slot * PE_RANK_PAIRS;
        for (int p = 0; p < W->n; p++) {
            uint16_t best = 0;
            for (int q = 0; q < D->players[p].npairs; q++)
                best = row[D->pair_class[p][q]] > best ? row[D->pair_class[p][q]] : best;
            hv[p] = best;
            lv[p] = W->low8 ? pe_omaha_low8[D->players[p].lowbits << 8 | u->low] : 0;
        }
    } else if (W->omaha) {
        triples_t tr;
        board_triples(&tr, u->br);
        for (int p = 0; p < W->n; p++) {
            hv[p] = omaha_nonflush(&D->players[p], &tr);
            lv[p] = W->low8 ? pe_omaha_low8[D->players[p].lowbits << 8 | u->low] : 0;
        }
    } else {
        for (int p = 0; p < W->n; p++) {
            hv[p] = rank_value(pe_hi_rank, u->key + (uint32_t)D->players[p].key);
            lv[p] = W->low8 ? pe_low8[D->players[p].lowbits | u->low] : 0;
        }
    }
}

/* Each player's high on a board whose suit s has the rank mask bsm (count cards), from
 * the no-flush highs nf; returns whether any changed. */
static int flush_values(const walk_t *W, const deal_t *D, int s, unsigned bsm, int count,
                        const uint16_t *nf, uint16_t *hv) {
    int changed = 0;
    for (int p = 0; p < W->n; p++) {
        uint16_t v = nf[p];
        if (W->omaha) {
            if (D->hcount[p][s] >= 2) {
                uint16_t f = omaha_flush_top(D->hsm[p][s], bsm);
                v = f > v ? f : v;
            }
        } else if (D->hcount[p][s] + count >= 5) {
            v = pe_hi_flush[bsm | D->hsm[p][s]]; /* of seven cards a flush is the best */
        }
        changed |= v != nf[p];
        hv[p] = v;
    }
    return changed;
}

/* The flush run-outs of suit s among the unit's (how many run-outs each pattern of dealt
 * s cards stands for: binomials), as corrections to the no-flush tally already made. */
static void flush_corrections(const walk_t *W, const deal_t *D, int s, const unit_t *u,
                              const uint16_t *nf, const uint16_t *lv, int64_t *counts) {
    int64_t with[5], without[5]; /* run-outs of rank dr[i] with / without its s card */
    unsigned suited = 0;          /* the distinct ranks whose s card is unseen */
    for (int i = 0; i < u->nd; i++) {
        int r = u->dr[i], e = D->have[s] >> r & 1;
        with[i] = e ? BINOM[D->avail[r] - 1][u->dm[i] - 1] : 0;
        without[i] = BINOM[D->avail[r] - e][u->dm[i]];
        suited |= (unsigned)e << i;
    }
    int need = D->threshold[s];
    if (__builtin_popcount(suited) < need) return;
    /* every set X of the suited distinct ranks dealt in suit s, with enough of them */
    for (unsigned x = suited;; x = (x - 1) & suited) {
        if (__builtin_popcount(x) >= need) {
            int64_t w = 1;
            unsigned bsm = W->known_sm[s];
            for (int i = 0; i < u->nd; i++) {
                if (x >> i & 1) { w *= with[i]; bsm |= 1u << u->dr[i]; }
                else w *= without[i];
            }
            uint16_t hv[PE_MAX_BOARD_PLAYERS];
            if (w && flush_values(W, D, s, bsm, __builtin_popcount(bsm), nf, hv)) {
                tally_showdown_weighted(W->n, hv, lv, 1, w, counts);
                tally_showdown_weighted(W->n, nf, lv, 1, -w, counts);
            }
        }
        if (!x) break;
    }
}

/* Tally the deal's run-outs of the units u in [first, last) with u % parts == part into
 * counts; returns how many run-outs they are. */
static int64_t walk_units(const walk_t *W, const deal_t *D, int64_t first, int64_t last,
                          int part, int parts, int64_t *counts) {
    int64_t runouts = 0;
    if (last > W->nunits) last = W->nunits;
    for (int64_t i = first; i < last; i++) {
        if (i % parts != part) continue;
        const unit_t *u = &W->units[i];
        int64_t w = 1;
        for (int j = 0; j < u->nd; j++) w *= BINOM[D->avail[u->dr[j]]][u->dm[j]];
        if (!w) continue; /* the deal holds the cards these ranks need */
        uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
        rank_values(W, D, u, hv, lv);
        tally_showdown_weighted(W->n, hv, lv, 1, w, counts);
        for (int s = 0; s < 4; s++)
            if (D->threshold[s] <= W->k) flush_corrections(W, D, s, u, hv, lv, counts);
        runouts += w;
    }
    return runouts;
}

/* The deals tuples[t] (a row of `rows` per player) for t in [first, first + count), each
 * over the units [ufirst, ulast) with u % parts == part, added to counts[tgroup[t]]. */
static int64_t walk_deals(const uint8_t *rows, int64_t nrows, int nhole, const int32_t *tuples,
                          const int64_t *tgroup, int n, int64_t first, int64_t count,
                          int64_t ufirst, int64_t ulast, int part, int parts, int use_pairs,
                          int omaha, int low8, const uint8_t *board, int nboard,
                          const uint8_t *deck, int ndeck, int64_t *counts) {
    if (parts < 1 || part < 0 || part >= parts || first < 0 || count < 0 || ufirst < 0
        || 5 - nboard > ndeck)
        return -1;
    walk_t *W = malloc(sizeof *W);
    deal_t D;
    int avail[13];
    unsigned have[4];
    const uint8_t *hands[PE_MAX_BOARD_PLAYERS];
    count_deck(deck, ndeck, avail, have);
    int64_t runouts = -1;
    if (W && set_walk(W, n, omaha, low8, board, nboard, avail, use_pairs)) {
        const int cells = n * (n + 1) * (n + 2);
        runouts = 0;
        for (int64_t t = first; t < first + count && runouts >= 0; t++) {
            for (int p = 0; p < n && runouts >= 0; p++) {
                int64_t r = tuples[t * n + p];
                if (r < 0 || r >= nrows) runouts = -1;
                else hands[p] = rows + r * nhole;
            }
            if (runouts < 0 || tgroup[t] < 0 || !set_deal(W, &D, hands, nhole, avail, have))
                runouts = -1;
            else
                runouts += walk_units(W, &D, ufirst, ulast, part, parts, counts + tgroup[t] * cells);
        }
    }
    free(W);
    return runouts;
}

int64_t pe_board_exact(const uint8_t *holes, int n, int nhole, int omaha, int low8,
                       const uint8_t *board, int nboard, const uint8_t *deck, int ndeck,
                       int64_t first, int64_t count, int part, int parts, int64_t *counts) {
    int32_t players[PE_MAX_BOARD_PLAYERS];
    const int64_t group = 0;
    if (n < 2 || n > PE_MAX_BOARD_PLAYERS) return -1;
    for (int p = 0; p < n; p++) players[p] = p;
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    /* a few hands: their Omaha highs from the board's three-card subsets (building the
     * pair table would cost more) */
    return walk_deals(holes, n, nhole, players, &group, n, 0, 1, first,
                      count < 0 ? INT64_MAX : first + count, part, parts, 0, omaha, low8, board,
                      nboard, deck, ndeck, counts);
}

int64_t pe_board_exact_tuples(const uint8_t *rows, int64_t nrows, int nhole, const int32_t *tuples,
                              const int64_t *tgroup, int n, int64_t first, int64_t count,
                              int omaha, int low8, const uint8_t *board, int nboard,
                              const uint8_t *deck, int ndeck, int64_t *counts) {
    return walk_deals(rows, nrows, nhole, tuples, tgroup, n, first, count, 0, INT64_MAX, 0, 1, 1,
                      omaha, low8, board, nboard, deck, ndeck, counts);
}

int64_t pe_board_rank_sets(const uint8_t *deck, int ndeck, int nboard) {
    int avail[13] = {0}, used[13] = {0}, rs[5], k = 5 - nboard;
    if (k < 0 || k > 5 || k > ndeck) return -1;
    for (int i = 0; i < ndeck; i++) avail[deck[i] >> 2]++;
    if (!fill_ranks(rs, 0, k, 0, used, avail)) return 0;
    int64_t sets = 1;
    while (next_ranks(rs, k, used, avail)) sets++;
    return sets;
}
