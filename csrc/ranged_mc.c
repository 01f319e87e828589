/* Monte Carlo with players given as ranges (every sampled range run; see
 * pokereval.equity.ranged).  Each chunk draws trials from its own stream (xoshiro.h) until
 * its samples are accepted.  An attempt draws each listed player's holding by weight
 * (alias method) and is rejected when two holdings share a card (or one holds a card not
 * in the deck); an accepted one then deals the random hands and the run-out by a partial
 * Fisher-Yates over the rest of the deck.  That samples the product of the weights
 * conditioned on no collision, without bias.
 *
 * Speed.  The rest of the deck has the same size whatever the holdings, so the bounded
 * draws of every trial have the same bounds: they come several to 32 random bits
 * (batched ranged draws, xoshiro.h), the groups and rejection thresholds worked out once
 * per call.  Trials go a block at a time through three passes (each its own function,
 * with its own registers): the holdings drawn, then the deals, then the showdowns, for
 * the common shapes with constant players and cards.  The rest of the deck is the deck
 * less the listed holdings' cards; when a call has samples enough, each holding's parts
 * (pair classes of the pair table, low ranks, suits: record_t) and one listed range's
 * rest of the deck per holding are worked out once.  Nothing global is written (the
 * pair table is built once, thread-safe), so the chunks of one call may run on any
 * thread, and the counts depend on the chunks only.  Also the alias tables the draws
 * (and PQL's) read. */
#include <stdlib.h>
#include <string.h>
#include "pokereval.h"
#include "board_parts.h"
#include "tally.h"
#include "xoshiro.h"

#define ONE_53 (1ull << 53)
#define GROUP_MAX (1u << 24)  /* a half's product of holding bounds: redraws under 1/256 */
#define DEAL_GROUP 4      /* deal steps to a half: 52^4 < 2^23, redraws under 1/500 */
#define MAX_HALVES (PE_MAX_BOARD_PLAYERS + 52 / DEAL_GROUP + 2)
#define BLOCK 32          /* trials a pass works through */
#define RECORD_READS 4    /* holding records are worked out for at least 4 samples each */
#define MAX_RECORDS (1 << 19)  /* 12 MB of them */
#define MAX_RESTS (1 << 17)    /* 8 MB of rests of the deck */
/* board suit counters from 5: bit 3 of a counter is set when 3 or more board cards share
 * the suit (an Omaha flush is possible) */
#define BOARD_BIAS (0x5555ull << PE_SUIT_SHIFT)

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

/* An Omaha-family holding row's parts, worked out once per call when its rows are few
 * against its samples: its hole pairs' pair classes (the pair table's columns), its low
 * ranks and its cards' suit-major mask (flushes). */
typedef struct {
    uint64_t mask;
    uint8_t pc[10];
    uint8_t low_bits;
} record_t;

/* What every trial of a call shares. */
typedef struct {
    const pe_ranges_t *R;
    const pe_deal_t *D;
    const pe_pair_high_t *P;  /* the Omaha family's pair table */
    int nlisted, listed[PE_MAX_BOARD_PLAYERS];  /* the players whose holdings are drawn */
    uint64_t deckmask;
    uint8_t deck[64], pos[64];  /* the deck in descending order, and each card's place */
    int ndeck;
    int need;        /* cards dealt per trial: the dealt hands', then the board's (or stud's) */
    int first;       /* board games: where the board cards start in a trial's deal */
    int offs[PE_MAX_BOARD_PLAYERS];  /* a dealt hand's first card in a trial's deal */
    uint8_t dealt[PE_MAX_BOARD_PLAYERS];  /* the player's hand is dealt */
    uint8_t pcc[52 << 6];  /* Omaha: the pair class of cards a, b at a << 6 | b */
    record_t *rec;         /* Omaha: each holding row's parts, or NULL */
    uint8_t *rest;         /* one listed range: each of its holdings' rest of the deck (64
                            * bytes apart), or NULL */
    /* the bounded draws, from halves (32 bits) of the stream's outputs: first the listed
     * holdings' rows (a run of draws from one half while the product of their bounds
     * stays under GROUP_MAX; hnew[q]: holding q starts a half), then the deal's steps,
     * DEAL_GROUP to a half; an even count of halves, the last maybe unused.  An attempt
     * draws the first hout outputs (the holdings'), an accepted one the rest */
    uint32_t hbound[PE_MAX_BOARD_PLAYERS];
    int64_t hfirst[PE_MAX_BOARD_PLAYERS];  /* listed range q's first row */
    uint8_t hnew[PE_MAX_BOARD_PLAYERS];
    int simple;  /* every listed range's holdings from the first half, equal weights */
    int nhalves, hhalves, hout;  /* halves, the holdings' halves, the holdings' outputs */
    uint32_t product[MAX_HALVES], threshold[MAX_HALVES];  /* a half's bounds' */
    uint64_t key0, mask0;  /* board games: the known board cards' */
    unsigned low0;
} spot_t;

/* One trial: its holding rows, its random bits, its deal. */
typedef struct {
    uint8_t cards[64];  /* dealt: the dealt hands', then the board's (or stud's) */
    int64_t rows[PE_MAX_BOARD_PLAYERS];
    uint64_t used;      /* the cards of the listed holdings, and those not in the deck */
    uint32_t half[MAX_HALVES];  /* its random bits */
} trial_t;

/* A trial's whole board: its rank key and suit counters (no bias), card mask, low ranks,
 * and (Omaha) its pair-table row. */
typedef struct {
    uint64_t key, mask;
    unsigned low;
    const uint16_t *row;
} board_t;

/* Output o of the stream as halves 2o (its low 32 bits) and 2o + 1, redrawn until both
 * pass Lemire's rule for their draws. */
static inline __attribute__((always_inline)) void
draw_output(const spot_t *S, xo_t *s, uint32_t *half, int o) {
    const uint32_t *product = S->product + 2 * o, *threshold = S->threshold + 2 * o;
    uint64_t x = xo_next(s);
    while (!xo_batch_ok((uint32_t)x, product[0], threshold[0])
           | !xo_batch_ok((uint32_t)(x >> 32), product[1], threshold[1]))
        x = xo_next(s);
    half[2 * o] = (uint32_t)x;
    half[2 * o + 1] = (uint32_t)(x >> 32);
}

/* Up to want trials' holdings drawn into T (with each trial's random bits), attempts
 * counted in *tries up to maxtry; returns how many.  An attempt draws each listed
 * holding by weight (an alias coin, 53 bits, for a weighted range) and ends when two
 * share a card (or one holds a card not in the deck).  simple: every listed range's
 * holdings from the first half, equal weights. */
static inline __attribute__((always_inline)) int
draw_holdings(const spot_t *S, xo_t *st, trial_t *T, int want, int64_t *tries, int64_t maxtry,
              const int simple) {
    const pe_ranges_t *R = S->R;
    const int nlisted = S->nlisted, hout = S->hout, nout = S->nhalves / 2;
    const uint64_t blocked = ~S->deckmask, *masks = R->masks;
    xo_t s = *st;
    int k = 0;
    int64_t tried = *tries;
    while (k < want && tried < maxtry) {
        trial_t *t = T + k;
        tried++;
        for (int o = 0; o < hout; o++) draw_output(S, &s, t->half, o);
        uint64_t used = blocked;
        uint32_t x = hout ? t->half[0] : 0;
        int q = 0;
        for (int g = 0; q < nlisted; q++) {
            if (!simple && S->hnew[q]) x = t->half[g++];
            int64_t first = S->hfirst[q], h = first + xo_digit(&x, S->hbound[q]);
            int p = S->listed[q];
            if (!simple && !R->uniform[p] && (xo_next(&s) >> 11) >= R->prob[h])
                h = first + R->alias[h];
            if (used & masks[h]) break;
            used |= masks[h];
            t->rows[p] = h;
        }
        if (q < nlisted) continue;
        if (S->rec)  /* the showdown reads them: fetched ahead */
            for (q = 0; q < nlisted; q++) __builtin_prefetch(S->rec + t->rows[S->listed[q]]);
        if (S->rest) __builtin_prefetch(S->rest + 64 * (t->rows[S->listed[0]] - S->hfirst[0]));
        t->used = used;
        for (int o = hout; o < nout; o++) draw_output(S, &s, t->half, o);
        k++;
    }
    *st = s;
    *tries = tried;
    return k;
}

static int draw_simple(const spot_t *S, xo_t *st, trial_t *T, int want, int64_t *tries,
                       int64_t maxtry) {
    return draw_holdings(S, st, T, want, tries, maxtry, 1);
}
static int draw_any(const spot_t *S, xo_t *st, trial_t *T, int want, int64_t *tries,
                    int64_t maxtry) {
    return draw_holdings(S, st, T, want, tries, maxtry, 0);
}

/* The deck less the cards of mask (in it) into d: each, from the last place in the deck
 * (the deck is in descending order) to the first, replaced by the last card (the places
 * after it are settled, so the card is still at its own place). */
static inline __attribute__((always_inline)) void
rest_of_deck(const spot_t *S, uint64_t mask, uint8_t *restrict d) {
    const uint8_t *pos = S->pos;
    int tail = S->ndeck;
    memcpy(d, S->deck, sizeof S->deck);
    for (; mask; mask &= mask - 1) d[pos[__builtin_ctzll(mask)]] = d[--tail];
}

/* Fisher-Yates step a of d's first rest cards, from the random bits x. */
static inline __attribute__((always_inline)) void
step(uint8_t *restrict d, uint32_t *x, int rest, int a) {
    int j = a + (int)xo_digit(x, (uint32_t)(rest - a));
    uint8_t c = d[j];
    d[j] = d[a];
    d[a] = c;
}

/* A trial's deal, its holdings drawn: the rest of the deck (the deck less the listed
 * holdings' cards), then a partial Fisher-Yates of it. */
static inline __attribute__((always_inline)) void deal(const spot_t *S, trial_t *t) {
    const int nc = S->R->nc, need = S->need;
    const uint32_t *dh = t->half + S->hhalves;
    uint8_t *restrict d = t->cards;
    int tail = S->ndeck - S->nlisted * nc;
    if (S->rest) {
        memcpy(d, S->rest + 64 * (t->rows[S->listed[0]] - S->hfirst[0]), 64);
    } else {
        rest_of_deck(S, t->used & S->deckmask, d);
    }
    /* DEAL_GROUP steps to a half */
    int a = 0;
    uint32_t x;
    for (; a + DEAL_GROUP <= need; a += DEAL_GROUP) {
        x = *dh++;
        step(d, &x, tail, a);
        step(d, &x, tail, a + 1);
        step(d, &x, tail, a + 2);
        step(d, &x, tail, a + 3);
    }
    if (a < need)
        for (x = *dh; a < need; a++) step(d, &x, tail, a);
}

/* A trial's board (nb cards dealt to it). */
static inline __attribute__((always_inline)) void
board_summary(const spot_t *S, const trial_t *t, board_t *B, const int omaha, const int nb) {
    uint64_t key = S->key0, mask = S->mask0;
    unsigned low = S->low0;
    const uint8_t *b = t->cards + S->first;
    for (int i = 0; i < nb; i++) {
        key += pe_card_key[b[i]];
        mask |= pe_card_mask[b[i]];
        low |= pe_card_lowbit[b[i]];
    }
    B->key = key;
    B->mask = mask;
    B->low = low;
    B->row = NULL;
    if (omaha) {
        uint32_t k = (uint32_t)key;
        unsigned slot = S->P->board_slot[k + (uint32_t)S->P->board_off[k >> PE_BOARD_HASH_SHIFT]];
        B->row = S->P->high + (size_t)slot * PE_RANK_PAIRS;
    }
}

/* A board's flush suit for the Omaha family: a hand's ranks in it are (mask >> shift) &
 * ranks (0 when the board has no three of a suit), the board's are board. */
typedef struct {
    int shift;
    unsigned ranks, board;
} flush_t;

/* An Omaha-family player's high and low from its parts: the no-flush high from the pair
 * table (one read per pair of hole cards), a flush when the board has three of a suit. */
static inline __attribute__((always_inline)) void
omaha_values(const uint8_t *pc, unsigned low, uint64_t mask, const int nc, const board_t *B,
             const flush_t *fl, int low8, uint16_t *hv, uint16_t *lv) {
    uint16_t best = 0;
    for (int k = 0; k < nc * (nc - 1) / 2; k++) {
        uint16_t v = B->row[pc[k]];
        best = v > best ? v : best;
    }
    /* a flush needs two hole cards of the board's flush suit (a branch rarely taken) */
    unsigned hm = (unsigned)(mask >> fl->shift) & fl->ranks;
    if (hm & (hm - 1)) {
        uint16_t f = omaha_flush_top(hm, fl->board);
        best = f > best ? f : best;
    }
    *hv = best;
    *lv = low8 ? pe_omaha_low8[low << 8 | B->low] : 0;
}

/* Player p's high and low on the board B (board games). */
static inline __attribute__((always_inline)) void
player_values(const spot_t *S, const trial_t *t, const board_t *B, const flush_t *fl, int p,
              const int nc, const int omaha, uint16_t *hv, uint16_t *lv) {
    int low8 = S->D->low;
    const uint8_t *hole = S->dealt[p] ? t->cards + S->offs[p] : S->R->holes + t->rows[p] * nc;
    if (omaha && S->rec && !S->dealt[p]) {  /* its record */
        const record_t *r = S->rec + t->rows[p];
        omaha_values(r->pc, r->low_bits, r->mask, nc, B, fl, low8, hv, lv);
    } else if (omaha) {
        uint8_t pc[10];
        unsigned low = 0;
        uint64_t mask = 0;
        for (int i = 0, k = 0; i < nc; i++) {
            low |= pe_card_lowbit[hole[i]];
            mask |= pe_card_mask[hole[i]];
            for (int j = i + 1; j < nc; j++) pc[k++] = S->pcc[hole[i] << 6 | hole[j]];
        }
        omaha_values(pc, low, mask, nc, B, fl, low8, hv, lv);
    } else {
        uint64_t key = B->key + PE_SUIT_BIAS, mask = B->mask;
        for (int i = 0; i < nc; i++) { key += pe_card_key[hole[i]]; mask |= pe_card_mask[hole[i]]; }
        *hv = high_value(key, mask);
        *lv = low8 ? pe_low8[low_ranks(mask)] : 0;
    }
}

/* One accepted trial's showdown (board games) on its board B. */
static inline __attribute__((always_inline)) void
board_trial(const spot_t *S, const trial_t *t, const board_t *B, int64_t *counts, const int n,
            const int nc, const int omaha) {
    uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
    /* the board's flush suit (three of its cards or more): where its ranks are in a mask,
     * and all ranks (no such suit: none) */
    uint64_t fb = (B->key + BOARD_BIAS) & PE_FLUSH_BITS;
    int fs = (__builtin_ctzll(fb | 1ull << 63) - PE_SUIT_SHIFT - 3) >> 2 & 3;  /* no branch */
    flush_t fl = {16 * fs, -(unsigned)(fb != 0) & 0x1FFF, (unsigned)(B->mask >> (16 * fs)) & 0x1FFF};
    if (n == 2) {  /* (heads-up: straight-line code) */
        player_values(S, t, B, &fl, 0, nc, omaha, hv, lv);
        player_values(S, t, B, &fl, 1, nc, omaha, hv + 1, lv + 1);
    } else {
        for (int p = 0; p < n; p++) player_values(S, t, B, &fl, p, nc, omaha, hv + p, lv + p);
    }
    tally_showdown(n, hv, lv, 1, counts);
}

/* One accepted trial's showdown (stud): each holding and its drawn cards. */
static void stud_trial(const spot_t *S, const trial_t *t, int64_t *counts) {
    const pe_ranges_t *R = S->R;
    const pe_deal_t *D = S->D;
    int n = R->n, nc = R->nc, mo = D->mo, game = D->game;
    const uint8_t *dealt = t->cards;
    uint16_t hv[PE_MAX_BOARD_PLAYERS], lv[PE_MAX_BOARD_PLAYERS];
    for (int p = 0; p < n; p++) {
        uint64_t key = PE_SUIT_BIAS, mask = 0;
        unsigned low = 0;
        const uint8_t *hole = R->holes + t->rows[p] * nc;
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

/* The record of a holding (see record_t). */
static void make_record(const spot_t *S, const uint8_t *hole, record_t *r) {
    int nc = S->R->nc, k = 0;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < nc; i++) {
        r->low_bits |= pe_card_lowbit[hole[i]];
        r->mask |= pe_card_mask[hole[i]];
        for (int j = i + 1; j < nc; j++) r->pc[k++] = S->pcc[hole[i] << 6 | hole[j]];
    }
}

/* The deals of k trials whose holdings are drawn. */
static void deal_block(const spot_t *S, trial_t *T, int k) {
    for (int i = 0; i < k; i++) deal(S, T + i);
}

/* The showdowns of k dealt trials, with constant players, hole cards, game family and
 * cards dealt to the board at the common shapes' call sites (each its own function:
 * loops unrolled, registers its own).  The boards first: their pair-table rows (1.1 MB
 * in all) are fetched while the others are summarised. */
static inline __attribute__((always_inline)) void
eval_block(const spot_t *S, const trial_t *T, int k, int64_t *counts, const int n, const int nc,
           const int board, const int omaha, const int nb) {
    board_t B[BLOCK];
    for (int i = 0; i < k && board; i++) {
        board_summary(S, T + i, B + i, omaha, nb);
        if (omaha) {  /* the row's lines (four at most) */
            const char *row = (const char *)B[i].row;
            __builtin_prefetch(row);
            __builtin_prefetch(row + 64);
            __builtin_prefetch(row + 128);
            __builtin_prefetch(row + 2 * PE_RANK_PAIRS - 1);
        }
    }
    for (int i = 0; i < k; i++) {
        if (board) board_trial(S, T + i, B + i, counts, n, nc, omaha);
        else stud_trial(S, T + i, counts);
    }
}

static void eval_omaha4_hu_preflop(const spot_t *S, const trial_t *T, int k, int64_t *counts) {
    eval_block(S, T, k, counts, 2, 4, 1, 1, 5);
}
static void eval_omaha4(const spot_t *S, const trial_t *T, int k, int64_t *counts) {
    eval_block(S, T, k, counts, S->R->n, 4, 1, 1, 5 - S->D->nknown);
}
static void eval_omaha5(const spot_t *S, const trial_t *T, int k, int64_t *counts) {
    eval_block(S, T, k, counts, S->R->n, 5, 1, 1, 5 - S->D->nknown);
}
static void eval_holdem(const spot_t *S, const trial_t *T, int k, int64_t *counts) {
    eval_block(S, T, k, counts, S->R->n, 2, 1, 0, 5 - S->D->nknown);
}
static void eval_any(const spot_t *S, const trial_t *T, int k, int64_t *counts) {
    eval_block(S, T, k, counts, S->R->n, S->R->nc, S->D->game == PE_BOARD_GAME, S->D->omaha,
               5 - S->D->nknown);
}

/* One chunk's trials until ns are accepted or maxtry attempted: info = (accepted, attempts).
 * A block of trials is dealt, then evaluated (the counts do not depend on the block). */
static void run_chunk(const spot_t *S, xo_t *st, int64_t ns, int64_t maxtry, int64_t *counts,
                      int64_t *info) {
    int n = S->R->n, nc = S->R->nc, board = S->D->game == PE_BOARD_GAME, omaha = S->D->omaha;
    void (*eval)(const spot_t *, const trial_t *, int, int64_t *) =
        !board ? eval_any
        : omaha && nc == 4 ? (n == 2 && S->D->nknown == 0 ? eval_omaha4_hu_preflop : eval_omaha4)
        : omaha && nc == 5 ? eval_omaha5 : !omaha && nc == 2 ? eval_holdem : eval_any;
    int (*draw)(const spot_t *, xo_t *, trial_t *, int, int64_t *, int64_t) =
        S->simple ? draw_simple : draw_any;
    trial_t T[BLOCK];
    int64_t accepted = 0, tries = 0;
    for (int k = 0; k < BLOCK; k++)
        for (int p = 0; p < S->R->n; p++) T[k].rows[p] = S->R->pstart[p];
    while (accepted < ns && tries < maxtry) {
        int k = draw(S, st, T, ns - accepted < BLOCK ? (int)(ns - accepted) : BLOCK, &tries,
                     maxtry);
        deal_block(S, T, k);
        eval(S, T, k, counts);
        accepted += k;
    }
    info[0] = accepted;
    info[1] = tries;
}

/* The spot's shared part; -1 when the deck cannot deal a trial. */
static int set_up(spot_t *S, const pe_ranges_t *R, const pe_deal_t *D) {
    int n = R->n, board = D->game == PE_BOARD_GAME, ndealt = 0;
    S->R = R;
    S->D = D;
    S->P = board && D->omaha ? pe_pair_high() : NULL;
    S->nlisted = 0;
    for (int p = 0; p < n; p++) {
        if (R->kind[p] == PE_PLAYER_LISTED) {
            if (R->pcount[p] < 1 || R->pcount[p] > 0x7FFFFFFF) return -1;
            S->hbound[S->nlisted] = (uint32_t)R->pcount[p];
            S->hfirst[S->nlisted] = R->pstart[p];
            S->listed[S->nlisted++] = p;
        }
        S->dealt[p] = R->kind[p] == PE_PLAYER_DEALT;
        if (S->dealt[p]) {
            if (!board) return -1;  /* stud has no dealt hands */
            S->offs[p] = (ndealt++) * R->nc;
        }
    }
    S->deckmask = 0;
    for (int i = 0; i < D->ndeck; i++) S->deckmask |= 1ull << D->deck[i];
    memset(S->deck, 0, sizeof S->deck);
    S->ndeck = 0;
    for (int c = 51; c >= 0; c--)
        if (S->deckmask >> c & 1) { S->pos[c] = (uint8_t)S->ndeck; S->deck[S->ndeck++] = (uint8_t)c; }
    S->first = ndealt * R->nc;
    S->need = board ? S->first + 5 - D->nknown : n * D->mo + D->shared;
    int rest = S->ndeck - S->nlisted * R->nc;  /* the deck less the drawn holdings */
    if (S->need > rest) return -1;
    /* the draws' halves: the holdings' runs under GROUP_MAX, then the deal's steps */
    uint64_t product = GROUP_MAX + 1;
    int h = 0;
    for (int q = 0; q < S->nlisted; q++) {
        S->hnew[q] = product * S->hbound[q] > GROUP_MAX;
        if (S->hnew[q]) {
            if (q) S->product[h++] = (uint32_t)product;
            product = 1;
        }
        product *= S->hbound[q];
    }
    if (S->nlisted) S->product[h++] = (uint32_t)product;
    S->hhalves = h;
    S->simple = h <= 1;
    for (int q = 0; q < S->nlisted; q++) S->simple &= R->uniform[S->listed[q]] != 0;
    for (int a = 0; a < S->need; a += DEAL_GROUP) {
        product = 1;
        for (int i = a; i < a + DEAL_GROUP && i < S->need; i++) product *= (uint64_t)(rest - i);
        S->product[h++] = (uint32_t)product;
    }
    S->product[h] = 1;  /* (unused unless h is odd) */
    S->nhalves = h + h % 2;
    S->hout = (S->hhalves + 1) / 2;
    for (h = 0; h < S->nhalves; h++) S->threshold[h] = xo_batch_threshold(S->product[h]);
    if (S->P)
        for (int a = 0; a < 52; a++)
            for (int b = 0; b < 52; b++) S->pcc[a << 6 | b] = S->P->pair_class[13 * (a >> 2) + (b >> 2)];
    S->key0 = S->mask0 = 0;
    S->low0 = 0;
    for (int i = 0; i < D->nknown; i++) {
        S->key0 += pe_card_key[D->known[i]];
        S->mask0 |= pe_card_mask[D->known[i]];
        S->low0 |= pe_card_lowbit[D->known[i]];
    }
    return 0;
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
    spot_t S;
    if (set_up(&S, R, D) < 0) return -1;
    S.rec = NULL;
    int64_t rows = R->pstart[n - 1] + R->pcount[n - 1], samples = 0;
    for (int64_t g = first_chunk; g < first_chunk + nchunks; g++)
        samples += total - g * chunk < 0 ? 0 : total - g * chunk < chunk ? total - g * chunk : chunk;
    /* the records (Omaha) and rests of the deck (one listed range) pay when each is read
     * a few times; else, or without the memory, they are left out: the same answers */
    int few = rows <= samples / RECORD_READS;
    if (few && S.P && rows <= MAX_RECORDS && (S.rec = malloc(sizeof(record_t) * (size_t)rows)))
        for (int64_t h = 0; h < rows; h++) make_record(&S, R->holes + h * R->nc, S.rec + h);
    S.rest = NULL;
    if (few && S.nlisted == 1 && R->pcount[S.listed[0]] <= MAX_RESTS) {
        int64_t first = S.hfirst[0], m = R->pcount[S.listed[0]];
        if ((S.rest = malloc(64 * (size_t)m)) != NULL)
            for (int64_t r = 0; r < m; r++)  /* (a holding with a card not in the deck is
                                              * never drawn) */
                rest_of_deck(&S, R->masks[first + r] & S.deckmask, S.rest + 64 * r);
    }
    memset(counts, 0, sizeof(int64_t) * (size_t)(n * (n + 1) * (n + 2)));
    int64_t accepted = 0;
    for (int64_t ci = 0; ci < nchunks; ci++) {
        int64_t g = first_chunk + ci, ns = total - g * chunk;
        if (ns > chunk) ns = chunk;
        info[2 * ci] = info[2 * ci + 1] = 0;
        if (ns <= 0) continue;
        xo_t st;
        seed_stream(&st, seed, (uint64_t)g);
        run_chunk(&S, &st, ns, ns * maxfactor, counts, info + 2 * ci);
        accepted += info[2 * ci];
    }
    free(S.rec);
    free(S.rest);
    return accepted;
}
