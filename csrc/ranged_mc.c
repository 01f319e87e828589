/* Monte Carlo with players given as ranges (every sampled range run; see
 * pokereval.equity.ranged).  Each chunk draws from its own stream (xoshiro.h) trials until
 * its samples are accepted: each listed player's holding drawn by weight (alias method),
 * an attempt whose holdings share a card rejected, then the dealt hands and the run-out
 * dealt by a partial Fisher-Yates from the rest of the deck, which samples the product of
 * the weights conditioned on no collision without bias.  These are trial for trial the
 * samples of the Numba kernels this replaced (checked bit for bit against them when it
 * came, commit ad13a64), so no seed's answer changed.  Nothing global is written (the
 * pair table is built once, thread-safe), so the chunks of one call may run on any
 * thread.  Also the alias tables the draws (and PQL's) read. */
#include <stdlib.h>
#include <string.h>
#include "pokereval.h"
#include "board_parts.h"
#include "tally.h"
#include "xoshiro.h"

#define ONE_53 (1ull << 53)

/* Walker / Vose alias table (a threshold on 53 random bits and a local alias per row), the
 * arithmetic of the former Numba version step for step. */
int pe_alias_table(const double *weights, int64_t m, uint64_t *prob, int64_t *alias) {
    double total = 0.0, *q = malloc(sizeof(double) * (size_t)m);
    int64_t *small = malloc(sizeof(int64_t) * (size_t)m), *large = malloc(sizeof(int64_t) * (size_t)m);
    if (!q || !small || !large) { free(q); free(small); free(large); return -1; }
    for (int64_t i = 0; i < m; i++) total += weights[i];
    for (int64_t i = 0; i < m; i++) q[i] = weights[i] * (double)m / total;
    int64_t ns = 0, nl = 0;
    for (int64_t i = 0; i < m; i++) {
        if (q[i] < 1.0) small[ns++] = i;
        else large[nl++] = i;
    }
    const double scale = (double)ONE_53;
    while (ns > 0 && nl > 0) {
        int64_t s = small[--ns], l = large[nl - 1];
        prob[s] = (uint64_t)(q[s] * scale);
        alias[s] = l;
        q[l] = (q[l] + q[s]) - 1.0;
        if (q[l] < 1.0) { nl--; small[ns++] = l; }
    }
    for (int64_t i = 0; i < nl; i++) { prob[large[i]] = ONE_53; alias[large[i]] = large[i]; }
    for (int64_t i = 0; i < ns; i++) { prob[small[i]] = ONE_53; alias[small[i]] = small[i]; }
    free(q); free(small); free(large);
    return 0;
}

/* A holding row of player p drawn by weight. */
static inline int64_t draw(const pe_ranges_t *R, int p, xo_t *st) {
    int64_t i = xo_below(st, (uint64_t)R->pcount[p]);
    if (!R->uniform[p] && (xo_next(st) >> 11) >= R->prob[R->pstart[p] + i])
        i = R->alias[R->pstart[p] + i];
    return R->pstart[p] + i;
}

/* What a chunk's trials share: the spot, and the players' rows and cards that never change. */
typedef struct {
    const pe_ranges_t *R;
    const pe_deal_t *D;
    const pe_pair_high_t *P;  /* the Omaha family's pair table */
    uint64_t fixed;  /* the exact hands' cards */
    int listed;      /* the last listed player (the one when D->use_rest) */
    const uint8_t *rest;  /* D->use_rest: each of its holdings' deck less its cards */
    int width;            /* ... of D->ndeck - nc cards each, in deck order */
    int need;        /* cards dealt per trial: the dealt hands', then the board's (or stud's) */
    int first;       /* board games: where the board cards start in a trial's deal */
    int offs[PE_MAX_BOARD_PLAYERS];  /* a dealt hand's first card in a trial's deal */
} chunk_t;

/* One accepted trial's showdown (board games): every player's high and low; the Omaha
 * family's no-flush highs from the pair table (one read per pair of hole cards). */
static inline __attribute__((always_inline)) void
board_trial(const chunk_t *C, const int64_t *rows, const uint8_t *dealt, int64_t *counts,
            const int nc, const int omaha) {
    const pe_ranges_t *R = C->R;
    const pe_deal_t *D = C->D;
    int n = R->n;
    uint8_t cards[5];
    for (int i = 0; i < D->nknown; i++) cards[i] = D->known[i];
    for (int i = D->nknown; i < 5; i++) cards[i] = dealt[C->first + i - D->nknown];
    uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
    unsigned blow = 0;
    uint64_t bkey = PE_SUIT_BIAS, bmask = 0;
    int suits[4] = {0, 0, 0, 0}, fs = -1;
    for (int i = 0; i < 5; i++) {
        blow |= pe_card_lowbit[cards[i]];
        bkey += pe_card_key[cards[i]];
        bmask |= pe_card_mask[cards[i]];
        suits[cards[i] & 3]++;
    }
    for (int s = 0; s < 4; s++) if (suits[s] >= 3) fs = s;
    const uint16_t *row = NULL;
    unsigned bsm = 0;  /* the board's ranks of its flush suit */
    if (omaha) {
        row = C->P->high + (size_t)C->P->slot_of[rank_index((uint32_t)bkey)] * PE_RANK_PAIRS;
        if (fs >= 0) bsm = (unsigned)(bmask >> (16 * fs)) & 0x1FFF;
    }
    for (int p = 0; p < n; p++) {
        const uint8_t *hole = R->kind[p] == PE_PLAYER_DEALT ? dealt + C->offs[p]
                                                            : R->holes + rows[p] * nc;
        if (omaha) {
            const uint8_t *pc = C->P->pair_class;
            uint16_t best = 0;
            unsigned low = 0, smask = 0;
            for (int i = 0; i < nc; i++) {
                low |= pe_card_lowbit[hole[i]];
                if ((hole[i] & 3) == fs) smask |= 1u << (hole[i] >> 2);
                for (int j = i + 1; j < nc; j++) {
                    uint16_t v = row[pc[13 * (hole[i] >> 2) + (hole[j] >> 2)]];
                    if (v > best) best = v;
                }
            }
            if (fs >= 0 && __builtin_popcount(smask) >= 2) {
                uint16_t f = omaha_flush_masks(smask, bsm);
                if (f > best) best = f;
            }
            hv[p] = best;
            lv[p] = D->low ? pe_omaha_low8[low << 8 | blow] : 0;
        } else {
            uint64_t key = bkey, mask = bmask;
            for (int i = 0; i < nc; i++) { key += pe_card_key[hole[i]]; mask |= pe_card_mask[hole[i]]; }
            hv[p] = high_value(key, mask);
            lv[p] = D->low ? pe_low8[low_ranks(mask)] : 0;
        }
    }
    tally_showdown(n, hv, lv, 1, counts);
}

/* One accepted trial's showdown (stud): each holding and its drawn cards. */
static void stud_trial(const chunk_t *C, const int64_t *rows, const uint8_t *dealt,
                       int64_t *counts) {
    const pe_ranges_t *R = C->R;
    const pe_deal_t *D = C->D;
    int n = R->n, nc = R->nc, mo = D->mo, game = D->game;
    uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
    for (int p = 0; p < n; p++) {
        uint64_t key = PE_SUIT_BIAS, mask = 0;
        unsigned low = 0;
        const uint8_t *hole = R->holes + rows[p] * nc;
        for (int i = 0; i < nc + mo + D->shared; i++) {
            uint8_t c = i < nc ? hole[i] : i < nc + mo ? dealt[p * mo + i - nc] : dealt[n * mo];
            key += pe_card_key[c];
            mask |= pe_card_mask[c];
            low |= pe_card_lowbit[c];
        }
        hv[p] = game == PE_RAZZ ? 0 : high_value(key, mask);
        lv[p] = game == PE_RAZZ ? rank_value(pe_razz_rank, (uint32_t)key)
                : game == PE_STUD_HILO ? pe_low8[low] : 0;
    }
    tally_showdown(n, hv, lv, game != PE_RAZZ, counts);
}

/* One chunk's trials until ns are accepted or maxtry attempted: info = (accepted, attempts). */
static inline __attribute__((always_inline)) void
run_chunk(const chunk_t *C, xo_t *st, int64_t ns, int64_t maxtry, int64_t *counts, int64_t *info,
          const int nc, const int board, const int omaha) {
    const pe_ranges_t *R = C->R;
    const pe_deal_t *D = C->D;
    int n = R->n, need = C->need;
    uint8_t d[64], dealt[64];
    int64_t rows[PE_MAX_BOARD_PLAYERS], accepted = 0, tries = 0;
    for (int i = 0; i < D->ndeck; i++) d[i] = D->deck[i];
    for (int p = 0; p < n; p++) rows[p] = R->pstart[p];
    while (accepted < ns && tries < maxtry) {
        tries++;
        if (D->use_rest) {
            /* the drawn holding's rest of the deck, in deck order, shuffled afresh */
            int64_t h = draw(R, C->listed, st);
            uint64_t m = R->masks[h];
            if (C->fixed & m) continue;
            rows[C->listed] = h;
            const int nr = C->width;
            const uint8_t *rest = C->rest + (h - R->pstart[C->listed]) * nr;
            for (int i = 0; i < nr; i++) d[i] = rest[i];
            for (int a = 0; a < need; a++) {
                int j = a + (int)xo_below(st, (uint64_t)(nr - a));
                uint8_t c = d[j];
                d[j] = d[a];
                d[a] = c;
                dealt[a] = c;
            }
        } else {
            /* every listed holding drawn, a collision rejects the attempt; the deal moves a
             * listed holding's card it meets to the deck's tail */
            uint64_t used = C->fixed;
            int ok = 1;
            for (int p = 0; p < n && ok; p++) {
                if (R->kind[p] != PE_PLAYER_LISTED) continue;
                int64_t h = draw(R, p, st);
                uint64_t m = R->masks[h];
                if (used & m) ok = 0;
                used |= m;
                rows[p] = h;
            }
            if (!ok) continue;
            int hi = D->ndeck, i = 0;
            while (i < need) {
                int j = i + (int)xo_below(st, (uint64_t)(hi - i));
                uint8_t c = d[j];
                if (used >> c & 1) {
                    hi--;
                    d[j] = d[hi];
                    d[hi] = c;
                    continue;
                }
                d[j] = d[i];
                d[i] = c;
                dealt[i] = c;
                i++;
            }
        }
        accepted++;
        if (board) board_trial(C, rows, dealt, counts, nc, omaha);
        else stud_trial(C, rows, dealt, counts);
    }
    info[0] = accepted;
    info[1] = tries;
}

/* run_chunk inlined with constant hole cards and game family at the common shapes' call
 * sites, so that each gets its loops unrolled (as the kernels' four-card code is). */
static void chunk_any(const chunk_t *C, xo_t *st, int64_t ns, int64_t maxtry, int64_t *counts,
                      int64_t *info) {
    int nc = C->R->nc, board = C->D->game == PE_BOARD_GAME, omaha = C->D->omaha;
    if (board && omaha && nc == 4) run_chunk(C, st, ns, maxtry, counts, info, 4, 1, 1);
    else if (board && omaha && nc == 5) run_chunk(C, st, ns, maxtry, counts, info, 5, 1, 1);
    else if (board && !omaha && nc == 2) run_chunk(C, st, ns, maxtry, counts, info, 2, 1, 0);
    else run_chunk(C, st, ns, maxtry, counts, info, nc, board, omaha);
}

int64_t pe_ranged_mc(const pe_ranges_t *R, const pe_deal_t *D, uint64_t seed, int64_t first_chunk,
                     int64_t nchunks, int64_t chunk, int64_t total, int64_t maxfactor,
                     int64_t *counts, int64_t *info) {
    int n = R->n, board = D->game == PE_BOARD_GAME;
    if (n < 2 || n > (board ? PE_MAX_BOARD_PLAYERS : PE_MAX_STUD_PLAYERS) || R->nc < 1
        || D->ndeck > 52 || chunk < 1 || maxfactor < 1
        || (board ? D->nknown < 0 || D->nknown > 5 || R->nc > 5 || (D->omaha && R->nc < 4)
                  : D->game < PE_STUD_HIGH || D->game > PE_RAZZ || R->nc + D->mo + D->shared != 7))
        return -1;
    chunk_t C;
    C.R = R;
    C.D = D;
    C.P = board && D->omaha ? pe_pair_high() : NULL;
    C.fixed = 0;
    C.listed = -1;
    int ndealt = 0;
    for (int p = 0; p < n; p++) {
        if (R->kind[p] == PE_PLAYER_EXACT) C.fixed |= R->masks[R->pstart[p]];
        else if (R->kind[p] == PE_PLAYER_LISTED) C.listed = p;
        else if (!board) return -1;  /* stud has no dealt hands */
        else C.offs[p] = (ndealt++) * R->nc;
    }
    if (D->use_rest && C.listed < 0) return -1;
    C.first = ndealt * R->nc;
    C.need = board ? C.first + 5 - D->nknown : n * D->mo + D->shared;
    if (C.need > D->ndeck) return -1;
    uint8_t *rest = NULL;
    if (D->use_rest) {
        /* a copy per trial is cheaper than filtering the deck per trial (a holding with
         * a card outside the deck is rejected before its row is read) */
        int64_t first = R->pstart[C.listed], m = R->pcount[C.listed];
        C.width = D->ndeck - R->nc;
        if (C.width < 0 || !(rest = malloc((size_t)(m * C.width) + 1))) return -1;
        for (int64_t r = 0; r < m; r++) {
            uint64_t mask = R->masks[first + r];
            uint8_t *row = rest + r * C.width;
            for (int i = 0, k = 0; i < D->ndeck && k < C.width; i++)
                if (!(mask >> D->deck[i] & 1)) row[k++] = D->deck[i];
        }
    }
    C.rest = rest;
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int64_t accepted = 0;
    for (int64_t ci = 0; ci < nchunks; ci++) {
        int64_t g = first_chunk + ci, ns = total - g * chunk;
        if (ns > chunk) ns = chunk;
        info[2 * ci] = info[2 * ci + 1] = 0;
        if (ns <= 0) continue;
        xo_t st;
        seed_stream(&st, seed, (uint64_t)g);
        chunk_any(&C, &st, ns, ns * maxfactor, counts, info + 2 * ci);
        accepted += info[2 * ci];
    }
    free(rest);
    return accepted;
}
