/* Exact board-game spots, walked by board rank multisets (see pokereval.h, pe_board_exact).
 *
 * A player's high ignoring flushes, and every low, depend only on the ranks of the board.
 * So the run-outs are walked one rank multiset R of the missing cards at a time: its
 * values are computed once and tallied with weight N(R), the number of run-outs whose new
 * cards have those ranks (a product of binomials over the ranks' unseen cards).  Flushes
 * need three board cards of one suit s (at most one suit of five cards), so for each suit
 * some player could flush with, and each set X of R's ranks whose s card is dealt (enough
 * of them for a flush), the run-outs of exactly that pattern are counted by binomials too,
 * valued with the flushes, tallied, and the same weight of the no-flush outcome taken back.
 * Heads-up Omaha preflop: 1,086,008 run-outs in about 6,000 rank multisets. */
#include <stdint.h>
#include <string.h>
#include "pokereval.h"
#include "board_parts.h"
#include "tally.h"

#define NO_THRESHOLD 99 /* a suit no player can make a flush in */

typedef struct {
    int n, omaha, low8, k;
    player_t players[PE_MAX_BOARD_PLAYERS];
    unsigned hsm[PE_MAX_BOARD_PLAYERS][4]; /* each player's hole rank mask per suit */
    int hcount[PE_MAX_BOARD_PLAYERS][4];   /* and hole card count per suit */
    int avail[13];                         /* unseen cards of each rank */
    unsigned have[4];                      /* rank mask of the unseen cards of each suit */
    int known_ranks[5], nknown;
    unsigned known_sm[4];                  /* the known board's rank mask per suit */
    int threshold[4];                      /* board cards of a suit that can make a flush */
} spot_t;

static int64_t binom(int n, int k) {
    if (k < 0 || k > n) return 0;
    int64_t c = 1;
    for (int i = 0; i < k; i++) c = c * (n - i) / (i + 1);
    return c;
}

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

static int prepare_spot(spot_t *S, const uint8_t *holes, int n, int nhole, int omaha, int low8,
                        const uint8_t *board, int nboard, const uint8_t *deck, int ndeck) {
    if (n < 2 || n > PE_MAX_BOARD_PLAYERS || nhole < 2 || nhole > 5 || (!omaha && nhole != 2)
        || nboard < 0 || nboard > 5 || 5 - nboard > ndeck)
        return -1;
    memset(S, 0, sizeof *S);
    S->n = n;
    S->omaha = omaha;
    S->low8 = low8;
    S->k = 5 - nboard;
    S->nknown = nboard;
    for (int i = 0; i < ndeck; i++) {
        S->avail[deck[i] >> 2]++;
        S->have[deck[i] & 3] |= 1u << (deck[i] >> 2);
    }
    int known_count[4] = {0, 0, 0, 0};
    for (int i = 0; i < nboard; i++) {
        S->known_ranks[i] = board[i] >> 2;
        S->known_sm[board[i] & 3] |= 1u << (board[i] >> 2);
        known_count[board[i] & 3]++;
    }
    for (int p = 0; p < n; p++) {
        const uint8_t *hole = holes + p * nhole;
        prepare(&S->players[p], hole, nhole);
        for (int i = 0; i < nhole; i++) {
            S->hsm[p][hole[i] & 3] |= 1u << (hole[i] >> 2);
            S->hcount[p][hole[i] & 3]++;
        }
    }
    /* Omaha: three board cards and two hole cards of a suit; hold'em: five of seven */
    for (int s = 0; s < 4; s++) {
        int most = 0;
        for (int p = 0; p < n; p++) most = S->hcount[p][s] > most ? S->hcount[p][s] : most;
        int t = omaha ? (most >= 2 ? 3 : NO_THRESHOLD) : (5 - most > 3 ? 5 - most : 3);
        /* the known board cards of s already count toward it */
        S->threshold[s] = t == NO_THRESHOLD ? t : t - known_count[s];
    }
    return 0;
}

/* Every player's high ignoring flushes and low, on the board of ranks br[5]. */
static void rank_values(const spot_t *S, const int *br, uint16_t *hv, uint16_t *lv) {
    uint32_t bkey = 0;
    unsigned blow = 0;
    for (int i = 0; i < 5; i++) {
        bkey += pe_rank_weight[br[i]];
        blow |= pe_card_lowbit[br[i] << 2];
    }
    if (S->omaha) {
        triples_t tr;
        uint8_t cards[5];
        for (int i = 0; i < 5; i++) cards[i] = (uint8_t)(br[i] << 2);
        board_triples(&tr, cards);
        for (int p = 0; p < S->n; p++) {
            hv[p] = omaha_nonflush(&S->players[p], &tr);
            lv[p] = S->low8 ? pe_omaha_low8[S->players[p].lowbits << 8 | blow] : 0;
        }
    } else {
        for (int p = 0; p < S->n; p++) {
            hv[p] = rank_value(pe_hi_rank, bkey + (uint32_t)S->players[p].key);
            lv[p] = S->low8 ? pe_low8[S->players[p].lowbits | blow] : 0;
        }
    }
}

/* Each player's high on a board whose suit s has the rank mask bsm (count cards), from
 * the no-flush highs nf; returns whether any changed. */
static int flush_values(const spot_t *S, int s, unsigned bsm, int count, const uint16_t *nf,
                        uint16_t *hv) {
    int changed = 0;
    for (int p = 0; p < S->n; p++) {
        uint16_t v = nf[p];
        if (S->omaha) {
            if (S->hcount[p][s] >= 2) {
                uint16_t f = omaha_flush_masks(S->hsm[p][s], bsm);
                v = f > v ? f : v;
            }
        } else if (S->hcount[p][s] + count >= 5) {
            v = pe_hi_flush[bsm | S->hsm[p][s]]; /* of seven cards a flush is the best */
        }
        changed |= v != nf[p];
        hv[p] = v;
    }
    return changed;
}

/* The flush run-outs of suit s among those of the new ranks rs[k] (weight: how many
 * run-outs each pattern of dealt s cards stands for), as corrections to the no-flush
 * tally already made. */
static void flush_corrections(const spot_t *S, int s, const int *rs, const uint16_t *nf,
                              const uint16_t *lv, int64_t *counts) {
    int dr[5], dm[5], nd = 0; /* the distinct new ranks and how many of each */
    for (int i = 0; i < S->k; i++) {
        if (nd && dr[nd - 1] == rs[i]) dm[nd - 1]++;
        else { dr[nd] = rs[i]; dm[nd++] = 1; }
    }
    int64_t with[5], without[5]; /* run-outs of rank dr[i] with / without its s card */
    unsigned suited = 0;          /* the distinct ranks whose s card is unseen */
    for (int i = 0; i < nd; i++) {
        int e = S->have[s] >> dr[i] & 1;
        with[i] = e ? binom(S->avail[dr[i]] - 1, dm[i] - 1) : 0;
        without[i] = binom(S->avail[dr[i]] - e, dm[i]);
        suited |= (unsigned)e << i;
    }
    int need = S->threshold[s];
    if (__builtin_popcount(suited) < need) return;
    /* every set X of the suited distinct ranks dealt in suit s, with enough of them */
    for (unsigned x = suited;; x = (x - 1) & suited) {
        if (__builtin_popcount(x) >= need) {
            int64_t w = 1;
            unsigned bsm = S->known_sm[s];
            for (int i = 0; i < nd; i++) {
                if (x >> i & 1) { w *= with[i]; bsm |= 1u << dr[i]; }
                else w *= without[i];
            }
            uint16_t hv[PE_MAX_BOARD_PLAYERS];
            if (w && flush_values(S, s, bsm, __builtin_popcount(bsm), nf, hv)) {
                tally_showdown_weighted(S->n, hv, lv, 1, w, counts);
                tally_showdown_weighted(S->n, nf, lv, 1, -w, counts);
            }
        }
        if (!x) break;
    }
}

int64_t pe_board_exact(const uint8_t *holes, int n, int nhole, int omaha, int low8,
                       const uint8_t *board, int nboard, const uint8_t *deck, int ndeck,
                       int64_t first, int64_t count, int part, int parts, int64_t *counts) {
    spot_t S;
    if (parts < 1 || part < 0 || part >= parts || first < 0
        || prepare_spot(&S, holes, n, nhole, omaha, low8, board, nboard, deck, ndeck))
        return -1;
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int rs[5], used[13] = {0}, k = S.k, br[5];
    int64_t runouts = 0;
    for (int i = 0; i < S.nknown; i++) br[i] = S.known_ranks[i];
    if (!fill_ranks(rs, 0, k, 0, used, S.avail)) return 0;
    int64_t last = count < 0 ? INT64_MAX : first + count;
    for (int64_t unit = 0; unit < last; unit++) {
        if (unit >= first && unit % parts == part) {
            int64_t w = 1;
            for (int i = 0; i < k; i++) {
                br[S.nknown + i] = rs[i];
                if (i == 0 || rs[i] != rs[i - 1]) w *= binom(S.avail[rs[i]], used[rs[i]]);
            }
            uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
            rank_values(&S, br, hv, lv);
            tally_showdown_weighted(n, hv, lv, 1, w, counts);
            for (int s = 0; s < 4; s++)
                if (S.threshold[s] <= k) flush_corrections(&S, s, rs, hv, lv, counts);
            runouts += w;
        }
        if (!next_ranks(rs, k, used, S.avail)) break;
    }
    return runouts;
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
