/* pokereval C evaluator: lookup tables built once by pe_init(), scalar and batch evaluation.
 *
 * Cards are 0..51, card = 4*rank + suit:
 *
 *          c   d   h   s          rank: 0=2 1=3 ... 8=T 9=J 10=Q 11=K 12=A
 *     2    0   1   2   3          suit: 0=c 1=d 2=h 3=s
 *     3    4   5   6   7
 *    ...
 *     A   48  49  50  51
 *
 * Values, all uint16, larger is better, equal is a tie, 0 means "no hand":
 *   high  category << 12 | order   (category 0 high card .. 8 straight flush; 7,462 classes)
 *   low8  255 - mask               (mask: the five low ranks, bit 0 = ace .. bit 7 = eight)
 *   razz  ace-to-five lowball, pairs count, no qualifier (1 .. 6,175)
 *
 * Every function except pe_init assumes valid input: cards in 0..51, distinct within a hand.
 * The Python layer validates before calling.
 */
#ifndef POKEREVAL_H
#define POKEREVAL_H

#include <stddef.h>
#include <stdint.h>

#define PE_PH_SHIFT 8          /* perfect hash: index = key + ph_offset[key >> PE_PH_SHIFT] */
#define PE_RANK_KEY_MAX 33548415u
#define PE_RANK_MULTISETS 76155 /* rank multisets of 0..7 cards, at most 4 of a rank */

/* Read-only views of the tables, for the Numba kernels (see docs/ARCHITECTURE.md). */
typedef struct {
    const uint32_t *rank_weight; size_t rank_weight_len;   /* [13] additive rank key weights */
    const int32_t *ph_offset;    size_t ph_offset_len;     /* perfect-hash row displacements */
    const uint16_t *hi_rank;     size_t hi_rank_len;       /* [76155] high value, flushes ignored */
    const uint16_t *razz_rank;   size_t razz_rank_len;     /* [76155] razz value */
    const uint16_t *hi_flush;    size_t hi_flush_len;      /* [8192] high value of a one-suit rank mask */
    const uint16_t *low8;        size_t low8_len;          /* [256] 8-or-better low of a low-rank mask */
    const uint16_t *omaha_low8;  size_t omaha_low8_len;    /* [65536] [hole mask << 8 | board mask] */
    const uint8_t *card_lowbit;  size_t card_lowbit_len;   /* [52] low-rank bit of a card */
} pe_tables_t;

/* Builds the tables (idempotent). Returns 0 on success, -1 if memory ran out. */
int pe_init(void);
const pe_tables_t *pe_tables(void);

/* Best five of n cards, n in 5..7. */
uint16_t pe_eval_hi(const uint8_t *cards, int n);
uint16_t pe_eval_low8(const uint8_t *cards, int n);
uint16_t pe_eval_razz(const uint8_t *cards, int n);
/* Omaha family: exactly two of nhole (4 or 5) hole cards and exactly three of nboard (3..5). */
uint16_t pe_eval_omaha_hi(const uint8_t *hole, int nhole, const uint8_t *board, int nboard);
uint16_t pe_eval_omaha_low8(const uint8_t *hole, int nhole, const uint8_t *board, int nboard);

/* Batches over row-major uint8 arrays: rows of n cards (hands) or nhole/nboard cards.
 * Each checks its rows (cards 0..51, no repeats) and stops at the first bad one, returning
 * its index; -1 means every row was evaluated. */
int64_t pe_eval_hi_batch(const uint8_t *cards, size_t rows, int n, uint16_t *out);
int64_t pe_eval_low8_batch(const uint8_t *cards, size_t rows, int n, uint16_t *out);
int64_t pe_eval_razz_batch(const uint8_t *cards, size_t rows, int n, uint16_t *out);
int64_t pe_eval_omaha_batch(const uint8_t *holes, int nhole, const uint8_t *boards, int nboard,
                            size_t rows, uint16_t *hi_out, uint16_t *low_out);

/* Exact board-game spot (csrc/board_exact.c): every run-out of the 5 - nboard cards from
 * deck[ndeck] completing board[nboard], n players (2..PE_MAX_BOARD_PLAYERS) of nhole cards
 * each in holes (row-major); omaha: exactly two hole cards, else best five of seven (hold'em,
 * nhole 2); low8: eight-or-better low.  The run-outs are walked by the rank multisets of the
 * missing cards, in their order (the units, pe_board_rank_sets of them): a call tallies the
 * units u in [first, first + count) (count < 0: to the last) with u % parts == part (one
 * thread's share; the shares add up to the whole).  counts[n][n + 1][n + 2] (outcome cells,
 * see pokereval.equity.results) are overwritten.  Returns the run-outs the units stand for,
 * or -1 for arguments out of range. */
#define PE_MAX_BOARD_PLAYERS 10
int64_t pe_board_exact(const uint8_t *holes, int n, int nhole, int omaha, int low8,
                       const uint8_t *board, int nboard, const uint8_t *deck, int ndeck,
                       int64_t first, int64_t count, int part, int parts, int64_t *counts);
/* How many rank multisets (units of pe_board_exact) the 5 - nboard cards from deck have;
 * -1 when they cannot complete the board. */
int64_t pe_board_rank_sets(const uint8_t *deck, int ndeck, int nboard);
/* The same walk for players given as ranges: rows[nrows][nhole] every holding, tuples[t][n]
 * the rows of combination t, tgroup[t] its group; the combinations t in [first, first +
 * count) are each walked over the run-outs of the deck less their cards, and added to
 * counts[tgroup[t]][n][n + 1][n + 2] (not overwritten).  Returns the run-outs walked, or -1
 * for arguments out of range. */
int64_t pe_board_exact_tuples(const uint8_t *rows, int64_t nrows, int nhole, const int32_t *tuples,
                              const int64_t *tgroup, int n, int64_t first, int64_t count,
                              int omaha, int low8, const uint8_t *board, int nboard,
                              const uint8_t *deck, int ndeck, int64_t *counts);
/* Stud Monte Carlo (csrc/stud_mc.c, the one sampler of fixed-hand stud): n players
 * (2..PE_MAX_STUD_PLAYERS) with nknown >= 3 cards each (known, row-major), each drawing mo
 * more from unseen[u] (then one shared card when shared), seven cards each in all; game
 * one of PE_STUD_HIGH, PE_STUD_HILO, PE_RAZZ; the samples of chunks [first_chunk,
 * first_chunk + nchunks), chunk g holding samples [g * chunk, min((g + 1) * chunk, total))
 * from its own stream of seed.  counts[n][n + 1][n + 2] are overwritten.  Returns the
 * samples drawn, or -1 for arguments out of range. */
#define PE_MAX_STUD_PLAYERS 8
#define PE_STUD_HIGH 0
#define PE_STUD_HILO 1
#define PE_RAZZ 2
int64_t pe_stud_mc(const uint8_t *known, int n, int nknown, const uint8_t *unseen, int u, int mo,
                   int shared, int game, uint64_t seed, int64_t first_chunk, int64_t nchunks,
                   int64_t chunk, int64_t total, int64_t *counts);
/* Omaha family: the best no-flush two + three high of a hole rank pair with three of a
 * five-card board's ranks: high[slot * PE_RANK_PAIRS + pair_class[13 * r1 + r2]], slot =
 * slot_of[perfect-hash index of the board's rank key], or (a smaller hash of the five-card
 * rank keys alone) board_slot[key + board_off[key >> PE_BOARD_HASH_SHIFT]] (built on
 * first call, thread-safe). */
#define PE_BOARD_RANK_SETS 6175
#define PE_RANK_PAIRS 91
#define PE_BOARD_HASH_SHIFT 12
#define PE_BOARD_HASH_ROWS 5858  /* (the largest five-card key, AAAAK, >> 12) + 1 */
#define PE_BOARD_HASH_SIZE 8192
typedef struct {
    const uint16_t *slot_of; size_t slot_of_len;
    const uint16_t *high;    size_t high_len;
    const uint8_t *pair_class;
    const int32_t *board_off;   size_t board_off_len;
    const uint16_t *board_slot; size_t board_slot_len;
} pe_pair_high_t;
const pe_pair_high_t *pe_pair_high(void);
/* Monte Carlo with players given as ranges (csrc/ranged_mc.c).  Player p's holdings are rows [pstart[p], pstart[p] +
 * pcount[p]) of holes (nc cards each); kind[p] is how a trial finds its holding: its one
 * row (an exact hand), a row drawn by weight (alias method: prob a threshold on 53 random
 * bits, alias a local row; uniform[p] = 1 needs no coin), or (board games) dealt from the
 * deck. */
#define PE_PLAYER_EXACT 0
#define PE_PLAYER_LISTED 1
#define PE_PLAYER_DEALT 2
typedef struct {
    int n, nc;
    const uint8_t *holes;
    const int64_t *pstart, *pcount, *alias, *uniform, *kind;
    const uint64_t *prob, *masks;
} pe_ranges_t;
/* The deal: game PE_BOARD_GAME (omaha: exactly two hole cards; low: eight-or-better; the
 * board's nknown cards given) or a stud game (mo cards drawn each, then a shared one when
 * shared); deck: the cards that may come (the ranged holdings' included; a holding with a
 * card outside it is never dealt). */
#define PE_BOARD_GAME 3
typedef struct {
    int game, omaha, low;
    const uint8_t *known;
    int nknown, mo, shared;
    const uint8_t *deck;
    int ndeck;
} pe_deal_t;
/* Chunks [first_chunk, first_chunk + nchunks) as pe_stud_mc's, each stopping after its
 * samples are accepted or maxfactor times as many attempts: counts[n][n + 1][n + 2]
 * overwritten, info[nchunks][2] = (accepted, attempts).  Returns the samples accepted, or
 * -1 for arguments out of range. */
int64_t pe_ranged_mc(const pe_ranges_t *R, const pe_deal_t *D, uint64_t seed, int64_t first_chunk,
                     int64_t nchunks, int64_t chunk, int64_t total, int64_t maxfactor,
                     int64_t *counts, int64_t *info);
/* Walker alias table of weights[m] > 0 into prob[m] / alias[m] (see pe_ranges_t); -1 when
 * memory ran out. */
int pe_alias_table(const double *weights, int64_t m, uint64_t *prob, int64_t *alias);
/* Walks all 133,784,560 seven-card hands in order; counts[category] += 1. */
void pe_enumerate7(uint64_t counts[9]);

#endif
