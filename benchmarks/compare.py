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
  ``exact_from_text``;
* Monte Carlo Omaha Hi/Lo heads-up preflop, one thread: >= 3x the showdowns/s of
  poker-equity's ``chunk_from_text(..., threads=1)``;
* exact heads-up 5-Card Omaha Hi/Lo preflop, Courchevel Hi/Lo with one board card,
  Stud Hi/Lo from fifth street: each >= 5x;
* a flop spot in a second process: < 1 s wall, import included.

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
    def exact_row(self, s: Spot, target: float | None):
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

    def range_row(self, target: float | None):
        """Monte Carlo against a wide range (AA** vs ****, Omaha Hi/Lo heads-up preflop, one
        thread) against the same run with two fixed hands: ratio = range rate / fixed rate."""
        s = spot("o8-hu-preflop")
        n = self.samples(s)
        hands = ["AA**", "****"]
        t_r, r_r = B.best_time(lambda: self.equity(s.game, hands, samples=n, seed=1, threads=1),
                               self.repeats)
        t_f, r_f = B.best_time(lambda: self.pe(s, samples=n, seed=1, threads=1), self.repeats)
        rate_r, rate_f = r_r.samples / t_r, r_f.samples / t_f
        ratio = rate_r / rate_f
        status, met = _status(ratio, target, True, True)
        self.rows.append(Row(f"Omaha Hi/Lo heads-up preflop, AA** vs **** [{n:,} samples]",
                             "MC 1 thr", f"{_rate(rate_r)} (1 thr)", "pokereval, two fixed hands",
                             f"{_rate(rate_f)} (1 thr)", ratio, f">= {target:g}x" if target else "",
                             status, f"acceptance {r_r.acceptance:.3f}", met, True))

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

    # -- the plan ------------------------------------------------------------
    def run(self):
        log = self.args.verbose
        steps = [
            ("target", lambda: self.exact_row(spot("o8-hu-preflop"), 8.0)),
            ("target", lambda: self.mc_row(spot("o8-hu-preflop"), True, 3.0)),
            ("target", lambda: self.exact_row(spot("o5-8-hu-preflop"), 5.0)),
            ("target", lambda: self.exact_row(spot("courchevel8-1card"), 5.0)),
            ("target", lambda: self.exact_row(spot("stud8-hu-5th"), 5.0)),
            ("target", self.second_process_row),
            ("target", lambda: self.range_row(0.5)),
        ]
        info = [
            lambda: self.exact_row(spot("o8-3way-preflop"), None),
            lambda: self.exact_row(spot("o8-hu-flop"), None),
            lambda: self.exact_row(spot("o8-3way-flop"), None),
            lambda: self.mc_row(spot("o8-hu-preflop"), False, None),
            lambda: self.mc_row(spot("o8-3way-preflop"), True, None),
            lambda: self.mc_row(spot("o5-8-hu-preflop"), True, None),
            lambda: self.mc_row(spot("courchevel8-1card"), True, None),
            lambda: self.mc_row(spot("stud8-hu-5th"), True, None),
            lambda: self.mc_row(spot("stud8-3way-3rd"), True, None),
            lambda: self.mc_row(spot("stud8-3way-3rd"), False, None),
            lambda: self.mc_row(spot("razz-3way-3rd"), True, None),
        ]
        if self.quick:
            info = info[:1] + info[3:4]
        steps += [("info", f) for f in info]
        if self.have_pk:
            pk = [s for s in B.SPOTS if s.pokerkit_samples]
            if self.quick:
                pk = pk[:1]
            steps += [("pokerkit", (lambda s=s: self.pokerkit_row(s))) for s in pk]
        for i, (_kind, fn) in enumerate(steps):
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
    args = ap.parse_args(argv)

    load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.perf_counter()
    c = Compare(args)
    c.run()
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
