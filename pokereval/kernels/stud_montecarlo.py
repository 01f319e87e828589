"""Monte Carlo sampling of stud run-outs.

The sampling is that of the board kernels (see :mod:`.montecarlo`): chunk ``g``
draws from its own xoshiro256** stream seeded from ``(seed, g)``; a sample is a
partial Fisher-Yates draw of ``n * mo`` (+1 shared) cards from the chunk's own
copy of the unseen cards, player ``p`` taking positions ``[p * mo, (p + 1) * mo)``
and the shared card position ``n * mo``.  The chunk shuffles *indices* into
``unseen`` instead of the cards themselves (the same permutation), so a
sample's cards index the per-card tables directly.

Evaluation is incremental: :func:`stud_mc_tables` sums each player's known
cards once (rank key, suit counters, low-rank mask, suit rank masks), so a
sample adds only the drawn cards and finishes with one lookup:

* one int64 word per card carries its rank weight (bits 0..31) and its suit
  counter (``1 << 32 + 4 * suit``), so one addition per card updates both;
* the flush test runs only for a player with a suit that can still reach five;
* when a player draws at most two cards (fifth street on, or sixth street plus
  a shared card) the player's values of every pair of unseen cards are
  tabulated up front and a sample reads one entry.

A chunk runs in blocks of :data:`BLOCK` samples and three loops: deal the
block, evaluate it into one outcome code per sample (who wins the high, who
the low), count the codes.  Measured (one thread, stud-hilo three-way third
street) that is about a third faster than dealing, evaluating and tallying
each sample in turn: the counter updates no longer wait on the evaluation,
and a histogram of codes (up to :data:`HIST_PLAYERS` players) replaces a
read-modify-write of every player's cell per sample.

Values are those of :func:`.handeval.stud_values` (the same tables, the same
flush rule), so ranks and ties are the C evaluator's.
"""
import numpy as np
from numba import prange

from ._jit import jit
from .exact import sum_chunks
from .handeval import U, ph
from .rng import seed_stream, xo_below

_KEY_MASK = np.int64(0xFFFFFFFF)
#: Samples dealt in a row before they are evaluated.
BLOCK = 64
#: The flags (see :func:`pokereval.kernels.game_flags`) of the stud games, each of
#: which gets its own copy of the evaluation loop.
HIGH = (0, 1, 1, 0, 0)
HILO = (0, 1, 1, 1, 0)
RAZZ = (0, 1, 0, 1, 1)
#: Most players whose outcomes are counted in a histogram (2 ** (2n + 1) cells).
HIST_PLAYERS = 5


@jit(inline=True)
def _finish(KT, G, s, low, p, bsm, csuit, cbit, d, start, stop, extra, flushable):
    """(high, low) of player ``p`` from the summed word ``s`` and low mask ``low`` of its
    seven cards; ``d[start:stop]`` and ``extra`` (-1: none) index its drawn cards."""
    key = s & _KEY_MASK
    packed = s >> 32
    hv = np.int64(0)
    lv = np.int64(0)
    if G[2]:
        flag = (packed + 0x3333) & 0x8888
        if flushable[p] and flag:
            # the suit with five or more (only one can) and its rank mask, without
            # branches: which cards are of that suit is a coin flip
            fs = (np.int64((flag & 0x8880) != 0) + np.int64((flag & 0x8800) != 0)
                  + np.int64((flag & 0x8000) != 0))
            mask = bsm[p, fs]
            for i in range(start, stop):
                x = U(d[U(i)])
                mask |= cbit[x] * np.int64(csuit[x] == fs)
            if extra >= 0:
                mask |= cbit[U(extra)] * np.int64(csuit[U(extra)] == fs)
            hv = np.int64(KT[3][U(mask)])
        else:
            hv = np.int64(KT[1][ph(key, KT[0])])
    if G[3]:
        if G[4]:
            lv = np.int64(KT[2][ph(key, KT[0])])
        else:
            lv = np.int64(KT[4][U(low)])
    return hv, lv


@jit(inline=True)
def _player(KT, G, T, p, d, start, stop, extra):
    """(high, low) of player ``p`` with the unseen cards ``d[start:stop]`` and
    ``extra`` (an unseen index, -1: none)."""
    base, blow, bsm, flushable, cw, cl, csuit, cbit, _ = T
    s = base[p]
    low = blow[p]
    for i in range(start, stop):
        x = U(d[U(i)])
        s += cw[x]
        low |= cl[x]
    if extra >= 0:
        s += cw[U(extra)]
        low |= cl[U(extra)]
    return _finish(KT, G, s, low, p, bsm, csuit, cbit, d, start, stop, extra, flushable)


@jit
def stud_mc_tables(KT, G, known, unseen, mo, shared):
    """The tables :func:`stud_mc` reads for the players' ``known`` cards (uint8[n, c])
    and the ``unseen`` cards, each player drawing ``mo`` own cards (+1 ``shared``):

    ``(base, blow, bsm, flushable, cw, cl, csuit, cbit, pv)``: per player the summed
    word (rank key | suit counters << 32), low mask, suit rank masks [n, 4] and
    whether a suit can reach five; per unseen card its word, low bit, suit and
    rank bit; the player's values ``pv[p, a * u + b]`` (``high << 16 | low``) of the
    unseen cards ``a``, ``b`` when a player draws two cards (``pv[p, a]`` for one card),
    else an empty [n, 0].
    """
    card_w = KT[6]
    card_low = KT[7]
    n = known.shape[0]
    u = unseen.shape[0]
    base = np.zeros(n, np.int64)
    blow = np.zeros(n, np.int64)
    bsm = np.zeros((n, 4), np.int64)
    flushable = np.zeros(n, np.int64)
    draws = mo + (1 if shared else 0)
    for p in range(n):
        for i in range(known.shape[1]):
            c = np.int64(known[p, i])
            base[p] += card_w[c] + (np.int64(1) << (32 + 4 * (c & 3)))
            blow[p] |= card_low[c]
            bsm[p, c & 3] |= np.int64(1) << (c >> 2)
        for s in range(4):
            cnt = (base[p] >> (32 + 4 * s)) & 0xF
            if cnt + draws >= 5:
                flushable[p] = 1
    cw = np.zeros(u, np.int64)
    cl = np.zeros(u, np.int64)
    csuit = np.zeros(u, np.int64)
    cbit = np.zeros(u, np.int64)
    for i in range(u):
        c = np.int64(unseen[i])
        cw[i] = card_w[c] + (np.int64(1) << (32 + 4 * (c & 3)))
        cl[i] = card_low[c]
        csuit[i] = c & 3
        cbit[i] = np.int64(1) << (c >> 2)
    width = 0  # tabulated up to two drawn cards: u * u entries a player
    if draws == 1:
        width = u
    elif draws == 2:
        width = u * u
    pv = np.zeros((n, width), np.int64)
    T = (base, blow, bsm, flushable, cw, cl, csuit, cbit, pv)
    idx = np.zeros(2, np.int64)
    for p in range(n):
        for k in range(width):
            a = k // u if draws == 2 else k
            b = k % u
            if draws == 2 and a == b:
                continue
            idx[0] = a
            hv, lv = _player(KT, G, T, p, idx, 0, 1, b if draws == 2 else -1)
            pv[p, k] = (hv << 16) | lv
    return T


@jit(inline=True)
def _tabled(T, drawn, o, mo, shared, nd, hv, lv, n):
    """:func:`_evaluate` when a player draws at most two cards: one table entry each."""
    pv = T[8]
    draws = mo + (1 if shared else 0)
    extra = drawn[U(o + n * mo)] if shared else -1
    for p in range(n):
        if draws == 1:
            k = drawn[U(o + p * mo)] if mo else extra
        elif mo == 2:
            k = drawn[U(o + 2 * p)] * nd + drawn[U(o + 2 * p + 1)]
        else:
            k = drawn[U(o + p)] * nd + extra
        v = pv[p, U(k)]
        hv[p] = v >> 16
        lv[p] = v & 0xFFFF


@jit(inline=True)
def _incremental(KT, G, T, drawn, o, mo, shared, hv, lv, n):
    """:func:`_evaluate` from the players' known-card sums plus the drawn cards."""
    extra = drawn[U(o + n * mo)] if shared else -1
    for p in range(n):
        x, y = _player(KT, G, T, p, drawn, o + p * mo, o + (p + 1) * mo, extra)
        hv[p] = x
        lv[p] = y


@jit(inline=True)
def _evaluate(KT, G, T, drawn, o, mo, shared, nd, hv, lv):
    """Every player's (high, low) into ``hv``, ``lv`` for the sample whose unseen indices
    are ``drawn[o:o + n * mo]`` (player by player) and, when ``shared``, ``drawn[o + n * mo]``;
    ``nd``: the number of unseen cards."""
    if T[8].shape[1] > 0:
        _tabled(T, drawn, o, mo, shared, nd, hv, lv, hv.shape[0])
    else:
        _incremental(KT, G, T, drawn, o, mo, shared, hv, lv, hv.shape[0])


@jit
def sample_values(KT, G, T, drawn, mo, shared):
    """(high [r, n], low [r, n]) of each row of ``drawn`` (int64[r, n * mo + shared]: the
    unseen indices of one sample, in dealing order), by the sampling loop's own code
    (tests check it against the C evaluator)."""
    n = T[0].shape[0]
    r = drawn.shape[0]
    nd = T[4].shape[0]
    high = np.zeros((r, n), np.int64)
    low = np.zeros((r, n), np.int64)
    hv = np.zeros(n, np.int64)
    lv = np.zeros(n, np.int64)
    for i in range(r):
        _evaluate(KT, G, T, drawn[i], 0, mo, shared, nd, hv, lv)
        high[i] = hv
        low[i] = lv
    return high, low


@jit(inline=True)
def outcome_code(G, n, hv, lv):
    """One sample's showdown as an int below ``2 ** (2n + 1)``: the high winners' bits
    (none when no high is contested or won), the low winners' bits shifted by ``n``
    (none when no low is won) and, at bit ``2n``, whether a low is won."""
    bh = np.int64(0)
    bl = np.int64(0)
    for p in range(n):
        bh = max(bh, hv[p])
        bl = max(bl, lv[p])
    hm = np.int64(0)
    lm = np.int64(0)
    for p in range(n):
        hm |= np.int64(hv[p] == bh) << p
        lm |= np.int64(lv[p] == bl) << p
    hm *= np.int64(G[2] != 0) & np.int64(bh > 0)
    has_low = np.int64(G[3] != 0) & np.int64(bl > 0)
    return hm | ((lm * has_low) << n) | (has_low << (2 * n))


@jit(inline=True)
def add_outcome(n, code, weight, out):
    """Add ``weight`` samples of outcome ``code`` to the cells of :func:`.handeval.tally`."""
    full = (np.int64(1) << n) - 1
    hm = code & full
    lm = (code >> n) & full
    has_low = code >> (2 * n)
    nh = 0
    nl = 0
    for p in range(n):
        nh += (hm >> p) & 1
        nl += (lm >> p) & 1
    for p in range(n):
        row = nh * ((hm >> p) & 1)
        col = has_low * (1 + nl * ((lm >> p) & 1))
        out[p, U(row), U(col)] += weight


@jit(inline=True)
def _tabled_block(G, T, drawn, nb, mo, shared, nd, hv, lv, codes, n):
    """The outcome codes ``codes[:nb]`` of the ``nb`` samples dealt into ``drawn`` (tabled)."""
    need = n * mo + (1 if shared else 0)
    o = 0
    for b in range(nb):
        _tabled(T, drawn, o, mo, shared, nd, hv, lv, n)
        codes[b] = outcome_code(G, n, hv, lv)
        o += need


@jit(inline=True)
def _incremental_block(KT, G, T, drawn, nb, mo, shared, hv, lv, codes, n):
    """The outcome codes ``codes[:nb]`` of the ``nb`` samples dealt into ``drawn``."""
    need = n * mo + (1 if shared else 0)
    o = 0
    for b in range(nb):
        _incremental(KT, G, T, drawn, o, mo, shared, hv, lv, n)
        codes[b] = outcome_code(G, n, hv, lv)
        o += need


@jit(inline=True)
def _blocks(KT, GC, T, d, n, mo, shared, tabled, s0, s1, s2, s3, nsamples, out, hv, lv, drawn,
            codes, hist):
    """The sampling loop of :func:`_stud_chunk` with the random state in ``s0..s3``: the new
    state.  ``GC``, ``n``, ``mo``, ``shared`` and ``tabled`` are constants at the call sites of
    the common shapes, so each of those gets a copy with its loops unrolled."""
    nd = d.shape[0]
    need = n * mo + (1 if shared else 0)
    block = codes.shape[0]
    done = 0
    while done < nsamples:
        nb = min(block, nsamples - done)
        done += nb
        # deal a block of samples, evaluate it, count it: three tight loops run
        # faster than one that interleaves them
        o = 0
        for _ in range(nb):
            for i in range(need):
                r, s0, s1, s2, s3 = xo_below(nd - i, s0, s1, s2, s3)
                j = U(i + r)
                t = d[j]
                d[j] = d[U(i)]
                d[U(i)] = t
                drawn[U(o + i)] = t
            o += need
        if tabled:
            _tabled_block(GC, T, drawn, nb, mo, shared, nd, hv, lv, codes, n)
        else:
            _incremental_block(KT, GC, T, drawn, nb, mo, shared, hv, lv, codes, n)
        # counting apart: counter updates that no longer wait on each sample's
        # evaluation; a histogram of the outcomes when it is small
        if hist.shape[0]:
            for b in range(nb):
                hist[U(codes[b])] += 1
        else:
            for b in range(nb):
                add_outcome(n, codes[b], 1, out)
    return s0, s1, s2, s3


@jit(hot=True)
def _stud_chunk(KT, G, T, d, mo, shared, state, nsamples, out, hv, lv, drawn, codes, hist):
    """``nsamples`` samples into ``out``; ``d``: the chunk's own permutation of the
    unseen indices; scratch: ``hv``, ``lv`` [n], ``drawn`` [BLOCK * cards drawn], ``codes``
    [BLOCK], ``hist`` [2 ** (2n + 1)] or [0] (no histogram).

    Each game gets its own copy of the evaluation, with constant flags (the razz copy
    is a fifth faster than one that tests the flags).  Two common shapes get copies
    with constant sizes too, the dealing and the players' loops unrolled: two players
    drawing two cards each (fifth street, tabled: a small copy) and razz with three
    players drawing four (third street).  Copies for stud and Stud Hi/Lo three-way
    were left out: with them stud_mc took 43 CPU s to compile (15.5 s before any of
    these copies), for a Stud Hi/Lo gain within the noise of a shared machine.
    The tables do not depend on the game."""
    n = hv.shape[0]
    # the random state in locals (registers) for the whole chunk (see montecarlo)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    if T[8].shape[1] > 0:
        if n == 2 and mo == 2 and not shared:
            s0, s1, s2, s3 = _blocks(KT, G, T, d, 2, 2, 0, True, s0, s1, s2, s3,
                                     nsamples, out, hv, lv, drawn, codes, hist)
        else:
            s0, s1, s2, s3 = _blocks(KT, G, T, d, n, mo, shared, True, s0, s1, s2, s3,
                                     nsamples, out, hv, lv, drawn, codes, hist)
    elif G[4] and n == 3 and mo == 4 and not shared:
        s0, s1, s2, s3 = _blocks(KT, RAZZ, T, d, 3, 4, 0, False, s0, s1, s2, s3,
                                 nsamples, out, hv, lv, drawn, codes, hist)
    elif G[4]:
        s0, s1, s2, s3 = _blocks(KT, RAZZ, T, d, n, mo, shared, False, s0, s1, s2, s3,
                                 nsamples, out, hv, lv, drawn, codes, hist)
    elif G[3]:
        s0, s1, s2, s3 = _blocks(KT, HILO, T, d, n, mo, shared, False, s0, s1, s2, s3,
                                 nsamples, out, hv, lv, drawn, codes, hist)
    else:
        s0, s1, s2, s3 = _blocks(KT, HIGH, T, d, n, mo, shared, False, s0, s1, s2, s3,
                                 nsamples, out, hv, lv, drawn, codes, hist)


@jit
def _add_histogram(n, hist, out):
    """Add the outcome counts ``hist[code]`` to ``out``."""
    for code in range(hist.shape[0]):
        if hist[code]:
            add_outcome(n, code, hist[code], out)


@jit(parallel=True)
def stud_mc(KT, G, T, unseen, mo, shared, seed, first_chunk, nchunks, chunk, total):
    """Outcome counts of the stud samples in chunks ``[first_chunk, first_chunk + nchunks)``:
    each player draws ``mo`` own cards, then (``shared``) one card shared by all;
    ``T`` from :func:`stud_mc_tables` for the same ``unseen``, ``mo`` and ``shared``."""
    if not (G[2:] == RAZZ[2:] or G[2:] == HILO[2:] or G[2:] == HIGH[2:]):
        raise ValueError("stud_mc: the game is none of stud, stud-hilo, razz")
    n = T[0].shape[0]
    u = unseen.shape[0]
    need = n * mo + (1 if shared else 0)
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            hist = np.zeros(1 << (2 * n + 1) if n <= HIST_PLAYERS else 0, np.int64)
            _stud_chunk(KT, G, T, np.arange(u), mo, shared, seed_stream(seed, g), ns, out[ci],
                        np.zeros(n, np.int64), np.zeros(n, np.int64),
                        np.zeros(BLOCK * need, np.int64), np.zeros(BLOCK, np.int64), hist)
            _add_histogram(n, hist, out[ci])
    return sum_chunks(out)
