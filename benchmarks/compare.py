#!/usr/bin/env python
"""Side-by-side: pokereval against poker-equity and pokerkit (when installed).

Runs the same spots through each engine in this one process and prints a markdown
table: the spot, each engine's time (exact) or rate (Monte Carlo), the ratio
(how many times faster pokereval is), the target from the equity-engine issue and
PASS / short.  Answers are compared too: exact against exact must agree to 1e-9
(every field), Monte Carlo against the exact answer within 4 standard errors.  A
speed figure whose answers disagree is flagged ("FLAG"), never counted as a PASS.

Targets:

* exact heads-up Omaha Hi/Lo preflop (1,086,008 boards): >= 8x poker-equity's
  ``exact_from_text``, and >= 50x on one thread (issue 27, goal 2);
* Monte Carlo Omaha Hi/Lo heads-up preflop, one thread: >= 3x the showdowns/s of
  poker-equity's ``chunk_from_text(..., threads=1)``;
* exact heads-up 5-Card Omaha Hi/Lo preflop, Courchevel Hi/Lo with one board card,
  Stud Hi/Lo from fifth street: each >= 5x;
* a flop spot in a second process: < 1 s wall, import included;
* issue 27: Monte Carlo >= 15x poker-equity on one thread in every game (Omaha,
  5-Card Omaha and Courchevel Hi/Lo, Stud Hi/Lo third and fifth street, Razz), and
  the ranged Monte Carlo rows >= 0.8x of two fixed hands.

pokerkit's ``calculate_equities`` is pure Python Monte Carlo (a few hundred to a few
thousand showdowns/s, no standard error): it only gets small spots and small sample
counts, and its answers are checked against the bound 0.5 / sqrt(samples) on the
standard error of an equity.

    python benchmarks/compare.py [--quick] [--threads N] [--no-pokerkit] [--json PATH]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchspots as B  # noqa: E402
from benchspots import Spot, spot  # noqa: E402

EXACT_TOL = 1e-9
#: Seven-card hands per category, high card .. straight flush (as enumerate7.py checks).
SEVEN_CARD_CATEGORIES = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644,
                         3_473_184, 224_848, 41_584)
Z_MAX = 4.0


@dataclass
class Row:
    spot: str
    mode: str
    pokereval: str
    peer: str
    peer_figure: str
    ratio: float | None
    target: str
    status: str
    answers: str
    target_met: bool | None = None  # None: no target (information)
    agree: bool = True


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms" if seconds < 10 else f"{seconds:,.2f} s"


def _rate(per_s: float) -> str:
    if per_s >= 1e6:
        return f"{per_s / 1e6:,.2f} M/s"
    if per_s >= 1e3:
        return f"{per_s / 1e3:,.1f} k/s"
    return f"{per_s:,.0f} /s"


def _status(ratio: float | None, target: float | None, agree: bool,
            have_peer: bool) -> tuple[str, bool | None]:
    if not agree:
        return "FLAG: answers differ", False if target else None
    if target is None:
        return "info", None
    if not have_peer or ratio is None:
        return "no peer", None
    return ("PASS", True) if ratio >= target else ("short", False)


class Compare:
    def __init__(self, args):
        self.args = args
        self.quick = args.quick
        self.repeats = 1 if args.quick else args.repeats
        self.threads = args.threads  # None: all
        self.equity = B.pokereval_equity()
        self.have_pq = B.have("poker_equity") and not args.no_poker_equity
        self.have_pk = B.have("pokerkit") and not args.no_pokerkit
        import numba

        self.threads_all = args.threads or numba.config.NUMBA_NUM_THREADS
        if self.have_pq:
            import poker_equity

            self.pq_threads_all = args.threads or poker_equity.default_thread_count()
        self._exact = {}
        self._mc1 = {}
        self.rows: list[Row] = []

    # -- pokereval -------------------------------------------------------
    def pe(self, s: Spot, **kwargs):
        return self.equity(s.game, list(s.hands), s.board, s.dead, **kwargs)

    def pe_exact(self, s: Spot, threads: int | None = None):
        """(best seconds, players) of pokereval's exact answer on ``threads`` (default:
        ``--threads``, i.e. all cores) (cached)."""
        threads = self.threads if threads is None else threads
        key = (s.id, threads)
        if key not in self._exact:
            t, r = B.best_time(lambda: self.pe(s, exact=True, threads=threads), self.repeats)
            assert r.exact and r.samples == s.runouts, (r.exact, r.samples, s.runouts)
            self._exact[key] = (t, B.pe_players(r))
        return self._exact[key]

    def samples(self, s: Spot) -> int:
        return max(20_000, s.mc_samples // 4) if self.quick else s.mc_samples

    def reference(self, s: Spot):
        return self.pe_exact(s)[1] if s.exact_feasible else None

    def vectors_note(self, s: Spot, players) -> tuple[str, bool]:
        if s.equity is None:
            return "", True
        diff = max(abs(p["equity"] - e) for p, e in zip(players, s.equity))
        ok = diff < 1e-8  # the vectors have 9 decimals
        return ("vectors ok" if ok else f"vectors DIFFER {diff:.1e}"), ok

    # -- rows ----------------------------------------------------------------
    def exact_row(self, s: Spot, target: float | None, target_one_thread: float | None = None):
        """An exact spot against poker-equity's exact answer: the ratio on pokereval's
        default threads against ``target``; with ``target_one_thread``, a second row for
        pokereval on one thread (issue 27, goal 2: exact heads-up Omaha Hi/Lo preflop)."""
        t_pe, pe_pl = self.pe_exact(s)
        t_pe1 = self.pe_exact(s, 1)[0] if self.threads_all > 1 else None
        note, agree = self.vectors_note(s, pe_pl)
        notes = [note] if note else []
        peer_fig, ratio, ratio1 = "not installed", None, None
        if self.have_pq:
            t_pq, r_pq = B.best_time(lambda: B.pq_exact(s), self.repeats)
            if r_pq is None:
                peer_fig = "declined (too many deals)"
            else:
                diff = B.exact_diff(pe_pl, B.pq_players(s.game, r_pq))
                ok = diff <= EXACT_TOL
                agree &= ok
                notes.append(f"exact = exact (max diff {diff:.0e})" if ok else f"DIFFER by {diff:.1e}")
                peer_fig, ratio = f"{_ms(t_pq)} (1 thr)", t_pq / t_pe
                ratio1 = t_pq / t_pe1 if t_pe1 else None
        status, met = _status(ratio, target, agree, self.have_pq)
        figure = f"{_ms(t_pe)} ({self.threads_all} thr)"
        if t_pe1 is not None:
            figure += f"; 1 thr: {_ms(t_pe1)}" + (f" = {ratio1:,.1f}x" if ratio1 else "")
        self.rows.append(Row(f"{s.label} [{s.runouts:,} run-outs]", "exact", figure,
                             "poker-equity exact_from_text", peer_fig, ratio,
                             f">= {target:g}x" if target else "", status, "; ".join(notes), met, agree))
        if target_one_thread is not None and t_pe1 is not None:
            status1, met1 = _status(ratio1, target_one_thread, agree, self.have_pq)
            self.rows.append(Row(f"{s.label} [{s.runouts:,} run-outs], one thread", "exact 1 thr",
                                 f"{_ms(t_pe1)} (1 thr)", "poker-equity exact_from_text", peer_fig,
                                 ratio1, f">= {target_one_thread:g}x", status1, "; ".join(notes),
                                 met1, agree))

    def mc_row(self, s: Spot, one_thread: bool, target: float | None):
        n = self.samples(s)
        pe_threads = 1 if one_thread else self.threads
        t_pe, r_pe = B.best_time(lambda: self.pe(s, samples=n, seed=1, threads=pe_threads), self.repeats)
        rate_pe = r_pe.samples / t_pe
        pe_pl = B.pe_players(r_pe)
        if one_thread:
            self._mc1[s.id] = (rate_pe, pe_pl)
        ref = self.reference(s)
        notes, agree = [], True
        if ref is not None:
            z = B.mc_z(pe_pl, ref)
            agree &= z <= Z_MAX
            notes.append(f"pokereval {z:.1f} se from exact")
        peer_fig, ratio = "not installed", None
        if self.have_pq:
            pq_threads = 1 if one_thread else self.pq_threads_all
            t_pq, r_pq = B.best_time(lambda: B.pq_chunk(s, n, pq_threads), self.repeats)
            pq_pl = B.pq_players(s.game, r_pq)
            if ref is not None:
                zq = B.mc_z(pq_pl, ref)
                notes.append(f"poker-equity {zq:.1f} se")
            else:
                zq = B.mc_z(pe_pl, pq_pl, ref_se=True)
                notes.append(f"pokereval vs poker-equity {zq:.1f} se")
            agree &= zq <= Z_MAX
            rate_pq = r_pq["samples"] / t_pq
            peer_fig = f"{_rate(rate_pq)} ({pq_threads} thr)"
            ratio = rate_pe / rate_pq
        status, met = _status(ratio, target, agree, self.have_pq)
        thr = 1 if one_thread else self.threads_all
        self.rows.append(Row(f"{s.label} [{n:,} samples]", f"MC {thr} thr",
                             f"{_rate(rate_pe)} ({thr} thr)", "poker-equity chunk_from_text",
                             peer_fig, ratio, f">= {target:g}x" if target else "", status,
                             "; ".join(notes), met, agree))

    def range_row(self, hands: list[str], target: float | None):
        """Monte Carlo of ranges (Omaha Hi/Lo heads-up preflop, one thread) against the same
        run with two fixed hands: ratio = range rate / fixed rate.  ``AA** vs ****`` deals a
        random hand; ``AA2* vs KK**`` draws two listed ranges."""
        s = spot("o8-hu-preflop")
        n = self.samples(s)
        (t_r, r_r), (t_f, r_f) = B.best_times(
            [lambda: self.equity(s.game, hands, samples=n, seed=1, threads=1),
             lambda: self.pe(s, samples=n, seed=1, threads=1)], self.repeats)
        rate_r, rate_f = r_r.samples / t_r, r_f.samples / t_f
        ratio = rate_r / rate_f
        status, met = _status(ratio, target, True, True)
        self.rows.append(Row(f"Omaha Hi/Lo heads-up preflop, {' vs '.join(hands)} [{n:,} samples]",
                             "MC 1 thr", f"{_rate(rate_r)} (1 thr)", "pokereval, two fixed hands",
                             f"{_rate(rate_f)} (1 thr)", ratio, f">= {target:g}x" if target else "",
                             status, f"acceptance {r_r.acceptance:.3f}", met, True))

    def scaling_row(self, s: Spot, threads: int, target: float | None):
        """Monte Carlo on ``threads`` threads against one thread, same spot, same run."""
        n = self.samples(s)
        (t1, r1), (tn, rn) = B.best_times([lambda: self.pe(s, samples=n, seed=1, threads=1),
                                           lambda: self.pe(s, samples=n, seed=1, threads=threads)],
                                          self.repeats)
        ratio = t1 / tn
        same = B.pe_players(r1) == B.pe_players(rn)  # same seed: same answer on any thread count
        status, met = _status(ratio, target, same, True)
        self.rows.append(Row(f"{s.label} [{n:,} samples], {threads} threads vs 1", f"MC {threads} thr",
                             f"{_rate(rn.samples / tn)} ({threads} thr)", "pokereval, 1 thread",
                             f"{_rate(r1.samples / t1)} (1 thr)", ratio,
                             f">= {target:g}x" if target else "", status,
                             "same answer on 1 and N threads" if same else "answers DIFFER", met, same))

    def thread_scaling_row(self, label: str, call: str, kw: dict, threads: int = 2):
        """One path of :mod:`thread_scaling`: the spot on ``threads`` threads against one."""
        import thread_scaling

        m = thread_scaling.measure(call, kw, threads, self.repeats)
        ratio = m["t1"] / m["tn"]
        status, met = _status(ratio, 1.8, m["same"], True)
        self.rows.append(Row(f"thread scaling, {label}", f"{threads} thr vs 1",
                             f"{_ms(m['tn'])} ({threads} thr)", "pokereval, 1 thread",
                             f"{_ms(m['t1'])} (1 thr)", ratio, ">= 1.8x", status,
                             "same answer on 1 and N threads" if m["same"] else "answers DIFFER",
                             met, m["same"]))

    def small_row(self, s: Spot, target: float | None, calls: int = 200):
        """A small exact spot, called many times in-process (per-call overhead counts)."""
        calls = calls // 4 if self.quick else calls

        def many(fn):
            return B.best_time(lambda: [fn() for _ in range(calls)][-1], self.repeats)

        t_pe, r = many(lambda: self.pe(s, exact=True))
        pe_pl = B.pe_players(r)
        notes, agree = [], True
        peer_fig, ratio = "not installed", None
        if self.have_pq:
            t_pq, r_pq = many(lambda: B.pq_exact(s))
            diff = B.exact_diff(pe_pl, B.pq_players(s.game, r_pq))
            agree = diff <= EXACT_TOL
            notes.append(f"exact = exact (max diff {diff:.0e})" if agree else f"DIFFER by {diff:.1e}")
            peer_fig, ratio = f"{t_pq / calls * 1e3:.3f} ms/call", t_pq / t_pe
        status, met = _status(ratio, target, agree, self.have_pq)
        self.rows.append(Row(f"{s.label} [{s.runouts:,} run-outs], {calls} calls in-process", "exact",
                             f"{t_pe / calls * 1e3:.3f} ms/call", "poker-equity exact_from_text",
                             peer_fig, ratio, f">= {target:g}x" if target else "", status,
                             "; ".join(notes), met, agree))

    def batch_row(self, target_per_s: float):
        """``pokereval batch`` (in-process, one thread) on random Omaha Hi/Lo flop spots."""
        import io
        import random
        import tempfile

        from pokereval import cli
        from pokereval.cards import cards_str

        rnd = random.Random(15)
        lines = []
        for i in range(100 if self.quick else 400):
            deck = list(range(52))
            rnd.shuffle(deck)
            n = 2 + i % 2  # heads-up and 3-way
            hands = [cards_str(deck[4 * p:4 * p + 4]) for p in range(n)]
            lines.append(json.dumps({"game": "omaha-hilo", "hands": hands,
                                     "board": cards_str(deck[12:15]), "threads": 1}))
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        out = io.StringIO()

        def run():
            out.seek(0)
            out.truncate()
            rc = cli.cmd_batch(argparse.Namespace(file=f.name, ordering=None), out, sys.stderr)
            return rc, out.getvalue()

        try:
            run()  # warm-up
            wall = cpu = math.inf
            for _ in range(self.repeats):
                w0, c0 = time.perf_counter(), time.process_time()
                rc, text = run()
                wall = min(wall, time.perf_counter() - w0)
                cpu = min(cpu, time.process_time() - c0)
        finally:
            os.unlink(f.name)
        replies = [json.loads(x) for x in text.splitlines()]
        ok = rc == 0 and len(replies) == len(lines) and all("error" not in r and r["exact"]
                                                               for r in replies)
        # "on one core": spots per CPU-second of this one-thread process (on a busy
        # machine the wall clock also counts the time other jobs held the core)
        rate, rate_wall = len(lines) / cpu, len(lines) / wall
        met = rate >= target_per_s
        status = "FLAG: answers differ" if not ok else ("PASS" if met else "short")
        self.rows.append(Row(f"`pokereval batch`, Omaha Hi/Lo flop spots (HU and 3-way) "
                             f"[{len(lines)} lines]", "exact 1 thr",
                             f"{rate:,.0f} spots per CPU-s ({rate_wall:,.0f} per wall-s)",
                             "", "", None, f">= {target_per_s:,.0f} spots/s", status,
                             "every reply exact" if ok else "errors in replies", met and ok, ok))

    def enumerate7_row(self, target_per_s: float):
        """Every seven-card hand through the sequential C walk."""
        from pokereval._native import enumerate7_counts

        t, counts = B.best_time(enumerate7_counts, 1 if self.quick else self.repeats)
        ok = tuple(counts.tolist()) == SEVEN_CARD_CATEGORIES
        rate = 133_784_560 / t
        met = rate >= target_per_s
        status = "FLAG: answers differ" if not ok else ("PASS" if met else "short")
        self.rows.append(Row("seven-card hands, sequential C walk [133,784,560 hands]", "C 1 thr",
                             _rate(rate), "", "", None, f">= {_rate(target_per_s)}", status,
                             "category counts ok" if ok else "category counts WRONG",
                             met and ok, ok))

    def timed_row(self, label: str, mode: str, fn, target_s: float, check):
        """An absolute-time target (``fn`` returns the result; ``check(result)`` -> note, ok)."""
        t, r = B.best_time(fn, self.repeats)
        note, ok = check(r)
        met = t <= target_s
        status = "FLAG: answers differ" if not ok else ("PASS" if met else "short")
        self.rows.append(Row(label, mode, f"{_ms(t)} ({self.threads_all} thr)", "", "", None,
                             f"<= {target_s:g} s", status, note, met and ok, ok))

    def holdem_range_row(self):
        """Exact hold'em AKs vs QQ: 4 x 6 combos, 24 of them compatible, 1,712,304 boards each."""
        def check(r):
            ok = r.exact and r.samples == 24 * 1_712_304
            return f"{r.players[0].equity:.6f} vs {r.players[1].equity:.6f}", ok

        self.timed_row("Hold'em AKs vs QQ, exact (24 combos x 1,712,304 boards)", "exact",
                       lambda: self.equity("holdem", ["AKs", "QQ"], exact=True,
                                           threads=self.threads), 0.2, check)

    def stud8_eight_handed_row(self):
        s = B.STUD8_8HANDED_5TH

        def check(r):
            ok = r.exact and r.samples == s.runouts
            return f"{s.runouts:,} run-outs", ok

        self.timed_row(f"{s.label} [{s.runouts:,} run-outs]", "exact",
                       lambda: self.pe(s, exact=True, threads=self.threads), 0.3, check)

    def board_range_rows(self):
        """Issue 27, goal 6: exact board ranges walked one suit-renaming class at a time
        (or refused up front with the estimate)."""
        def check(r):
            mc = self.equity("holdem", ["AA", "KK"], board="Q**", samples=200_000, seed=3)
            z = abs(r.players[0].equity - mc.players[0].equity) / mc.players[0].std_error
            ok = r.exact and r.boards == 4_804 and z < Z_MAX
            return f"{r.players[0].equity:.6f} (MC {mc.players[0].equity:.4f}, {z:.1f} SE)", ok

        self.timed_row("Hold'em AA vs KK, board Q**, exact (4,804 boards)", "exact",
                       lambda: self.equity("holdem", ["AA", "KK"], board="Q**", exact=True,
                                           threads=self.threads), 5.0, check)

        def refusal():
            try:
                self.equity("omaha", ["AA:$ds", "KK", "QQ"], board="K**", exact=True)
            except Exception as error:  # noqa: BLE001  (the refusal is the answer)
                return str(error)
            return None

        def refused(message):
            ok = message is not None and message.startswith("exact enumeration of 4,804 boards")
            return (message.split(" (")[0] if ok else "not refused"), ok

        # heads-up (AA:$ds vs KK) is estimated at about 25 minutes since the walk by rank
        # multisets, under the one-hour limit: it runs; a third range is refused
        self.timed_row("Omaha AA:$ds vs KK vs QQ, board K**, exact: refused up front", "exact",
                       refusal, 1.0, refused)

    def pokerkit_row(self, s: Spot):
        n = s.pokerkit_samples if not self.quick else max(100, s.pokerkit_samples // 5)
        B.pokerkit_equity(s, 20)  # imports, first-call costs
        t0 = time.perf_counter()
        eq = B.pokerkit_equity(s, n)
        t_pk = time.perf_counter() - t0
        rate_pk = n / t_pk
        if s.id not in self._mc1:
            m = self.samples(s)
            t_pe, r_pe = B.best_time(lambda: self.pe(s, samples=m, seed=1, threads=1), self.repeats)
            self._mc1[s.id] = (r_pe.samples / t_pe, B.pe_players(r_pe))
        rate_pe, pe_pl = self._mc1[s.id]
        bound = 0.5 / math.sqrt(n)  # an equity is in [0, 1]: its sd is at most 1/2
        ref = self.reference(s)
        if ref is not None:
            z = max(abs(e - r["equity"]) for e, r in zip(eq, ref)) / bound
            note = f"pokerkit {z:.1f} se-bound from exact"
        else:
            z = max(abs(e - p["equity"]) / math.hypot(bound, p["std_error"]) for e, p in zip(eq, pe_pl))
            note = f"pokerkit vs pokereval MC {z:.1f} se-bound"
        agree = z <= Z_MAX
        status, met = _status(rate_pe / rate_pk, None, agree, True)
        self.rows.append(Row(f"{s.label} [pokerkit: {n:,} samples]", "MC 1 thr",
                             f"{_rate(rate_pe)} (1 thr)", "pokerkit calculate_equities",
                             f"{_rate(rate_pk)} (1 thr, pure Python)", rate_pe / rate_pk, "",
                             status, note, met, agree))

    def second_process_row(self):
        import coldstart

        best, _median, out = coldstart.second_process_flop(self.repeats)
        s = B.FLOP_SPOT
        ref = self.reference(s)
        agree, note = True, ""
        if out and ref is not None:
            got = json.loads(out)["equity"]
            diff = max(abs(a - r["equity"]) for a, r in zip(got, ref))
            agree = diff <= EXACT_TOL
            note = f"child = in-process exact (diff {diff:.0e})"
        target = coldstart.FLOP_TARGET_S
        met = best < target
        status = "FLAG: answers differ" if not agree else ("PASS" if met else "short")
        self.rows.append(Row(f"{s.label} [{s.runouts:,} run-outs], fresh process", "exact",
                             f"{best:.3f} s wall", "", "", None, f"< {target:g} s", status,
                             note, met and agree, agree))

    def warm_cli_rows(self, target_s: float = 0.35):
        """Issue 27, goal 5: a warm ``pokereval equity`` process for spots that need the
        Numba kernels (stud, razz, a range), wall time best of ``repeats`` after one run."""
        import subprocess

        spots = [("Stud Hi/Lo 3rd street", ["stud-hilo", "AhAd2c", "KsKdQh"]),
                 ("Razz 3rd street", ["razz", "A23", "KQJ"]),
                 ("Omaha Hi/Lo AA** vs KK** preflop", ["omaha-hilo", "AA**", "KK**"])]
        for label, argv in spots:
            cmd = [sys.executable, "-m", "pokereval", "equity", *argv, "--json"]

            def once():
                out = subprocess.run(cmd, capture_output=True, text=True, check=False)
                return out.returncode, out.stdout

            t, (rc, out) = B.best_time(once, max(3, self.repeats))
            try:
                eq = [p["equity"] for p in json.loads(out)["players"]] if rc == 0 else None
            except (ValueError, KeyError):
                eq = None
            ok = eq is not None and abs(sum(eq) - 1) < 1e-9
            status = "FLAG: no answer" if not ok else ("PASS" if t <= target_s else "short")
            self.rows.append(Row(f"warm CLI, {label}", "CLI", f"{t:.3f} s wall", "", "", None,
                                 f"<= {target_s:g} s", status,
                                 "equities sum to 1" if ok else f"exit {rc}", ok and t <= target_s,
                                 ok))

    # -- the plan ------------------------------------------------------------
    def run(self):
        log = self.args.verbose
        steps = [
            ("o8-hu-preflop exact", lambda: self.exact_row(spot("o8-hu-preflop"), 8.0, 50.0)),
            ("o8-hu-preflop mc", lambda: self.mc_row(spot("o8-hu-preflop"), True, 15.0)),
            ("o5-8-hu-preflop exact", lambda: self.exact_row(spot("o5-8-hu-preflop"), 5.0)),
            ("courchevel8-1card exact", lambda: self.exact_row(spot("courchevel8-1card"), 5.0)),
            ("stud8-hu-5th exact", lambda: self.exact_row(spot("stud8-hu-5th"), 5.0)),
            ("second-process", self.second_process_row),
            ("range AA** ****", lambda: self.range_row(["AA**", "****"], 0.8)),
            # performance round two (issue 15)
            ("stud8-3way-3rd mc", lambda: self.mc_row(spot("stud8-3way-3rd"), True, 15.0)),
            ("razz-3way-3rd mc", lambda: self.mc_row(spot("razz-3way-3rd"), True, 15.0)),
            ("stud8-hu-5th mc", lambda: self.mc_row(spot("stud8-hu-5th"), True, 15.0)),
            # issue 27 goal 1: Monte Carlo >= 15x poker-equity per thread in every game
            ("o5-8-hu-preflop mc", lambda: self.mc_row(spot("o5-8-hu-preflop"), True, 15.0)),
            ("courchevel8-1card mc", lambda: self.mc_row(spot("courchevel8-1card"), True, 15.0)),
            ("o8-hu-preflop scaling", lambda: self.scaling_row(spot("o8-hu-preflop"), 2, 1.8)),
            ("o8-hu-flop small", lambda: self.small_row(spot("o8-hu-flop"), 3.0)),
            ("o8-3way-flop small", lambda: self.small_row(spot("o8-3way-flop"), 3.0)),
            ("batch", lambda: self.batch_row(2000.0)),
            ("enumerate7", lambda: self.enumerate7_row(500e6)),
            ("holdem-range exact", self.holdem_range_row),
            ("stud8-8handed exact", self.stud8_eight_handed_row),
            ("range AA2* KK**", lambda: self.range_row(["AA2*", "KK**"], 0.8)),
            ("board range exact", self.board_range_rows),
            ("warm CLI", self.warm_cli_rows),
        ]
        info = [
            ("o8-3way-preflop exact info", lambda: self.exact_row(spot("o8-3way-preflop"), None)),
            ("o8-hu-flop exact info", lambda: self.exact_row(spot("o8-hu-flop"), None)),
            ("o8-3way-flop exact info", lambda: self.exact_row(spot("o8-3way-flop"), None)),
            ("o8-hu-preflop mc-threads info", lambda: self.mc_row(spot("o8-hu-preflop"), False, None)),
            ("o8-3way-preflop mc info", lambda: self.mc_row(spot("o8-3way-preflop"), True, None)),
            ("stud8-3way-3rd mc-threads info", lambda: self.mc_row(spot("stud8-3way-3rd"), False, None)),
        ]
        if self.quick:
            info = info[:1] + info[3:4]
        steps += info
        import thread_scaling  # goal 2 of issue 27: 1 and 2 threads on every path

        steps += [(f"scaling {label}", (lambda a=(label, call, kw): self.thread_scaling_row(*a)))
                  for label, call, kw in thread_scaling.PATHS]
        if self.have_pk:
            pk = [s for s in B.SPOTS if s.pokerkit_samples]
            if self.quick:
                pk = pk[:1]
            steps += [(f"{s.id} pokerkit", (lambda s=s: self.pokerkit_row(s))) for s in pk]
        if self.args.only:
            steps = [(name, fn) for name, fn in steps
                     if any(word in name for word in self.args.only)]
        if self.args.list:
            print("\n".join(name for name, _fn in steps))
            return
        for i, (_name, fn) in enumerate(steps):
            t0 = time.perf_counter()
            fn()
            if log:
                r = self.rows[-1]
                print(f"[{i + 1}/{len(steps)}] {r.spot} {r.mode}: {r.status} "
                      f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)

    def table(self) -> str:
        head = ("| spot | mode | pokereval | peer | peer figure | ratio | target | result | answers |\n"
                "|---|---|---|---|---|---|---|---|---|\n")
        lines = []
        for r in self.rows:
            ratio = f"{r.ratio:,.1f}x" if r.ratio is not None else ""
            lines.append(f"| {r.spot} | {r.mode} | {r.pokereval} | {r.peer} | {r.peer_figure} | "
                         f"{ratio} | {r.target} | {r.status} | {r.answers} |")
        return head + "\n".join(lines) + "\n"


def _versions() -> str:
    out = []
    for mod in ("pokereval", "numba", "numpy", "poker_equity", "pokerkit"):
        try:
            m = __import__(mod)
            v = getattr(m, "__version__", None)
            if v is None:
                from importlib.metadata import version

                v = version({"poker_equity": "poker-equity"}.get(mod, mod))
            out.append(f"{mod} {v}")
        except Exception:
            pass
    return ", ".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="one timed repeat, a quarter of the samples, fewer information rows")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for pokereval's exact and all-thread rows (default: all cores)")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats, best kept (default 3)")
    ap.add_argument("--no-pokerkit", action="store_true", help="skip pokerkit (slow)")
    ap.add_argument("--no-poker-equity", action="store_true", help="skip poker-equity")
    ap.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    ap.add_argument("--only", nargs="+", metavar="WORD",
                    help="run only the rows whose step name contains one of these words "
                         "(e.g. --only 'stud8-3way-3rd mc' razz)")
    ap.add_argument("--list", action="store_true", help="print the step names and exit")
    args = ap.parse_args(argv)

    load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.perf_counter()
    c = Compare(args)
    c.run()
    if args.list:
        return 0
    load1 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    print(f"# pokereval comparison{' (--quick)' if args.quick else ''}\n")
    print(f"{platform.platform()}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs; Python {platform.python_version()}; {_versions()}")
    print(f"load average (1 min) {load0:.2f} at start, {load1:.2f} at end; "
          f"best of {c.repeats} timed run(s) after a warm-up run; "
          f"{time.perf_counter() - started:.0f} s in all\n")
    print("ratio = how many times faster pokereval is (peer time / pokereval time, or "
          "pokereval rate / peer rate), from pokereval's default thread count (--threads; "
          "exact rows also show pokereval on one thread). MC rates are showdowns "
          "(sampled run-outs, every player evaluated) per second.\n")
    print(c.table())
    targets = [r for r in c.rows if r.target]
    passed = sum(1 for r in targets if r.status == "PASS")
    flagged = [r for r in c.rows if not r.agree]
    print(f"targets: {passed}/{len(targets)} PASS"
          + (f"; {len(flagged)} row(s) FLAGGED for disagreeing answers" if flagged else ""))
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in c.rows], indent=2))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
