#!/usr/bin/env python
"""Soak test of ``pokereval serve`` (issue 26, goal 4): many clients, mixed valid and
invalid requests, for a long time, every answer checked, the server's memory sampled.

Starts ``python -m pokereval serve`` on a free localhost port (loopback only), then
``--clients`` threads, each a client of its own loopback address (127.0.0.2, .3, ...:
the server's per-client cap sees distinct clients), send requests one after another for
``--seconds``, each on a fresh connection (raw sockets: the hostile shapes too):

* valid: exact flop spots and seeded Monte Carlo range spots (``/api/equity`` and the
  NDJSON ``/api/equity/stream``), an exact and a seeded PQL query (``/api/pql``), an
  evaluation; each answer must equal the serial ``pe.equity`` / ``pe.pql`` /
  ``pe.evaluate`` answer computed here first (``elapsed`` aside);
* invalid: a bad card, too many players, too many samples, broken JSON, a JSON array,
  an unknown field, a wrong content type, a body over the size cap, a foreign Host
  header, headers over the cap, a bad query, an unknown path, a wrong method, a body
  sent too slowly (the server's body timeout), headers sent too slowly (its header
  timeout), each must be answered with its 4xx and a one-line error;
* flood: 40 connections at once from the client's address, sending nothing: the 8 beyond
  the server's per-client connection cap (32) must be answered 503 at once (not counted
  as 5xx: the cap's own answer);
* dropped: a long computation whose client hangs up at once (no answer to check; the
  server must stop it).

The server's RSS (and its worker processes') is sampled every second.  Printed: the
requests, answers by kind, failures by kind (a wrong figure, a 5xx, a multi-line
error, an unexpected status, a connection error), RSS start/end/max, and the server's
own counts (worker restarts).  Exit status 1 on any failure or 5xx.

    python benchmarks/web_soak.py [--clients 20] [--seconds 600] [--workers 2]
                                  [--seed 1] [--json REPORT.json]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pokereval as pe  # noqa: E402
from pokereval import protocol  # noqa: E402

BODY_TIMEOUT = 2.0  # the soak server's --body-timeout (the slow-body case waits it out)
HEADER_TIMEOUT = 3.0  # its --header-timeout (the slow-header case waits it out)
PER_CLIENT_CONNECTIONS = 32  # its --max-connections-per-client (the flood opens more)
FLOOD = 40  # connections a flooding client opens at once
IGNORED = ("elapsed", "id")


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------


def start_server(workers: int) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "pokereval", "serve", "--port", str(port),
                             "--workers", str(workers), "--body-timeout", str(BODY_TIMEOUT),
                             "--header-timeout", str(HEADER_TIMEOUT),
                             "--max-connections-per-client", str(PER_CLIENT_CONNECTIONS)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if exchange(port, request("GET", "/api/health"))[0] == 200:
                return proc, port
        except OSError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("pokereval serve did not start")


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# ---------------------------------------------------------------------------
# HTTP over raw sockets
# ---------------------------------------------------------------------------


def request(method: str, path: str, body: bytes = b"", *, kind: str = "application/json",
            host: str = "localhost", extra: str = "", length: int | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}"
    if method == "POST":
        head += f"Content-Type: {kind}\r\nContent-Length: {len(body) if length is None else length}\r\n"
    return head.encode() + b"\r\n" + body


def post(path: str, obj: Any) -> bytes:
    return request("POST", path, json.dumps(obj).encode())


def exchange(port: int, data: bytes, client: str = "127.0.0.1", timeout: float = 120,
             pause: float = 0.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` (the last byte after ``pause`` seconds, if any) and read the whole
    answer: status, headers (lower case), body (chunked decoded)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                  source_address=(client, 0)) as conn:
        if pause:
            conn.sendall(data[:-1])
            time.sleep(pause)
            try:
                conn.sendall(data[-1:])
            except OSError:  # the server gave up on us first
                pass
        else:
            conn.sendall(data)
        raw = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return status, headers, body


def dechunk(data: bytes) -> bytes:
    out, at = b"", 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0], 16)
        if size == 0:
            return out
        out += data[end + 2:end + 2 + size]
        at = end + 4 + size


def drop(port: int, data: bytes, client: str) -> None:
    """Send a request and hang up without reading the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(client, 0)) as conn:
        conn.sendall(data)
        time.sleep(0.2)


# ---------------------------------------------------------------------------
# The requests and their expected answers
# ---------------------------------------------------------------------------


def strip(data: Any) -> Any:
    """An answer without what differs from run to run: the time taken, and the seed of an
    exact answer (drawn, and unused)."""
    if not isinstance(data, dict):
        return data
    return {k: v for k, v in data.items()
            if k not in IGNORED and not (k == "seed" and data.get("exact") is True)}


def canonical(value: Any) -> Any:
    """What ``value`` looks like once through the server's JSON."""
    return json.loads(protocol.dumps(value))


def flop_spots(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    games = ["omaha-hilo", "omaha", "holdem", "omaha5-hilo", "stud-hilo"]
    spots = []
    for i in range(count):
        game = pe.get_game(games[i % len(games)])
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        rng.shuffle(deck)
        players = 2 + i % 2
        if game.name == "stud-hilo":  # third street, every card to come walked? sample it
            hands = ["".join(deck[3 * p:3 * p + 3]) for p in range(players)]
            spots.append({"game": game.name, "hands": hands, "samples": 20_000, "seed": i})
            continue
        hands = ["".join(deck[p * game.hole:(p + 1) * game.hole]) for p in range(players)]
        board = "".join(deck[players * game.hole:players * game.hole + 3])
        spots.append({"game": game.name, "hands": hands, "board": board})
    return spots


RANGED = [{"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**"], "samples": 20_000, "seed": 7},
          {"game": "holdem", "hands": ["AKs", "QQ+"], "samples": 50_000, "seed": 8}]
QUERIES = [{"query": "select avg(riverEquity(hero)) as heroEquity, count(winsHi(hero)) as wins "
                     "from game='holdem', hero='AhAs', villain='KhKs', board='2c3d4s'"},
           {"query": "select count(scoops(hero)) as scoop, histogram(fractionalRiverEquity(hero)) "
                     "from game='stud8', hero='AsKs2c', villain='QhQd5s'", "trials": 20_000, "seed": 3}]
EVALUATE = {"game": "omaha-hilo", "hole": "AhKd2c3s", "board": "Ks5d8h7cKh"}
LONG = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**"], "samples": 20_000_000, "seed": 1}  # minutes


def expected_answers(spots: list[dict]) -> list[tuple[str, dict, Any]]:
    """(path, body, the answer the serial engine gives) for every valid request."""
    valid = []
    for body in spots + RANGED:
        options = {k: body[k] for k in ("samples", "seed") if k in body}
        result = pe.equity(body["game"], body["hands"], body.get("board", ""), **options)
        valid.append(("/api/equity", body, strip(canonical(protocol.result_dict(result)))))
    for body in QUERIES:
        result = pe.pql(body["query"], trials=body.get("trials"), seed=body.get("seed"))
        valid.append(("/api/pql", body, strip(canonical(result.to_dict()))))
    game = pe.get_game(EVALUATE["game"])
    result = pe.evaluate(game, EVALUATE["hole"], EVALUATE["board"])
    valid.append(("/api/evaluate", EVALUATE,
                  canonical(protocol.evaluation_dict(game, EVALUATE["hole"], EVALUATE["board"], result))))
    return valid


def invalid_requests() -> list[tuple[str, bytes, tuple[int, ...], float]]:
    """(kind, raw request, the statuses it may get, pause before its last byte)."""
    big = json.dumps({"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "x" * 20_000}).encode()
    return [
        ("bad card", post("/api/equity", {"game": "holdem", "hands": ["AhZz", "KsKd"]}), (400,), 0),
        ("too many players", post("/api/equity", {"game": "holdem", "hands": ["AA"] * 11}), (400,), 0),
        ("too many samples", post("/api/equity", {"game": "holdem", "hands": ["AA", "KK"],
                                                  "samples": 10 ** 12}), (400,), 0),
        ("broken JSON", request("POST", "/api/equity", b'{"game": "holdem", "hands": ['), (400,), 0),
        ("JSON array", request("POST", "/api/equity", b"[1, 2, 3]"), (400,), 0),
        ("unknown field", post("/api/equity", {"game": "holdem", "hands": ["AA", "KK"], "x": 1}), (400,), 0),
        ("content type", request("POST", "/api/equity", b"game=holdem", kind="text/plain"), (415,), 0),
        ("body too large", request("POST", "/api/equity", big), (413,), 0),
        ("foreign Host", request("GET", "/api/health", host="evil.example"), (400,), 0),
        ("huge headers", request("GET", "/api/health", extra="X-Pad: " + "x" * 9000 + "\r\n"), (400, 431), 0),
        ("bad query", post("/api/pql", {"query": "select avg(riverEquity(p1) from game='holdem', p1='AA'"}),
         (400,), 0),
        ("low in a high game", post("/api/pql", {"query": "select count(winsLo(p1)) from game='holdem', "
                                                          "p1='AA', p2='KK'"}), (400,), 0),
        ("unknown path", request("GET", "/api/nothing"), (404,), 0),
        ("wrong method", request("GET", "/api/equity"), (405,), 0),
        ("slow body", post("/api/equity", {"game": "holdem", "hands": ["AA", "KK"]}), (408,),
         BODY_TIMEOUT + 1.0),
        ("slow headers", request("GET", "/api/health"), (408,), HEADER_TIMEOUT + 1.0),
    ]


def flood(port: int, client: str) -> str | None:
    """Open FLOOD connections from ``client`` at once, sending nothing: those beyond the
    server's per-client cap must be answered 503 and closed, the others held open (until
    they are closed here).  Why not (None when so)."""
    conns = []
    try:
        for _ in range(FLOOD):
            conns.append(socket.create_connection(("127.0.0.1", port), timeout=30,
                                                  source_address=(client, 0)))
        extra = FLOOD - PER_CLIENT_CONNECTIONS
        # the refusals, well before the header timeout closes the admitted ones
        refused, deadline = 0, time.monotonic() + HEADER_TIMEOUT - 0.5
        waiting = list(conns)
        while waiting and refused < extra and time.monotonic() < deadline:
            ready = select.select(waiting, [], [], max(0.0, deadline - time.monotonic()))[0]
            for conn in ready:
                waiting.remove(conn)
                data = b""
                while chunk := conn.recv(65536):
                    data += chunk
                if not data.startswith(b"HTTP/1.1 503 "):
                    return f"flood answer {data[:40]!r}"
                refused += 1
        time.sleep(0.05)  # any more refused come at once
        refused += len(select.select(waiting, [], [], 0)[0])
        # one or two of this client's previous connections may not be counted out yet
        return None if extra <= refused <= extra + 2 else f"{refused} of {FLOOD} refused"
    finally:
        for conn in conns:
            conn.close()
        # the server counts them out as it sees them close: a next connection at once could
        # still be refused; the refusal says Retry-After: 1, and the flooding client waits so
        time.sleep(1.0)


# ---------------------------------------------------------------------------
# The soak
# ---------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.kinds: collections.Counter = collections.Counter()
        self.failures: collections.Counter = collections.Counter()
        self.statuses: collections.Counter = collections.Counter()
        self.examples: list[str] = []

    def add(self, kind: str, status: int | None, failure: str | None = None, detail: str = "") -> None:
        with self.lock:
            self.requests += 1
            self.kinds[kind] += 1
            if status is not None:
                self.statuses[status] += 1
            if failure:
                self.failures[failure] += 1
                if len(self.examples) < 20:
                    self.examples.append(f"{kind}: {failure}: {detail[:300]}")


def one_line_error(status: int, headers: dict, body: bytes) -> str | None:
    """Why a 4xx answer is not a one-line error (None when it is)."""
    text = body.decode("utf-8", "replace")
    if headers.get("content-type", "").startswith("application/json"):
        try:
            error = json.loads(body)["error"]
        except (ValueError, KeyError, TypeError):
            return "not an error object"
        return None if isinstance(error, str) and error and "\n" not in error else "multi-line error"
    # the HTTP layer's own refusal (headers over its limit) is plain text
    return None if status in (400, 431) and "\n" not in text.strip() else "not JSON"


def check_valid(path: str, status: int, body: bytes, want: Any) -> str | None:
    if status >= 500:
        return "5xx"
    if status == 429:
        return None  # busy: a valid refusal, counted by status
    if status != 200:
        return f"status {status}"
    if path == "/api/equity/stream":
        lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
        if not lines or lines[-1].get("event") != "result":
            return "stream without a result"
        got = strip(lines[-1]["result"])
    else:
        got = strip(json.loads(body))
    return None if got == want else "wrong answer"


def client_loop(port: int, client: str, rng: random.Random, stop: float, tally: Tally,
                valid: list, invalid: list) -> None:
    while time.monotonic() < stop:
        roll = rng.random()
        try:
            if roll < 0.6:
                path, body, want = rng.choice(valid)
                if path == "/api/equity" and rng.random() < 0.3:
                    path = "/api/equity/stream"
                status, _, answer = exchange(port, post(path, body), client)
                failure = check_valid(path, status, answer, want)
                tally.add(f"valid {path}", status, failure, answer.decode("utf-8", "replace"))
            elif roll < 0.97:
                kind, data, statuses, pause = rng.choice(invalid)
                status, headers, answer = exchange(port, data, client, pause=pause)
                failure = ("5xx" if status >= 500 else None) or \
                    (None if status in statuses else f"status {status}") or \
                    one_line_error(status, headers, answer)
                tally.add(f"invalid {kind}", status, failure, answer.decode("utf-8", "replace"))
            elif roll < 0.985:
                drop(port, post("/api/equity", LONG), client)
                tally.add("dropped long computation", None)
            else:
                failure = flood(port, client)
                tally.add("connection flood", None, failure, failure or "")
        except (OSError, ValueError) as exc:
            tally.add("connection", None, "connection error", repr(exc))


def soak(clients: int, seconds: float, workers: int, seed: int, out=sys.stdout) -> dict:
    spots = flop_spots(12, seed)
    print(f"computing the expected answers of {len(spots) + len(RANGED) + len(QUERIES) + 1} "
          "valid requests serially...", file=out, flush=True)
    valid = expected_answers(spots)
    invalid = invalid_requests()
    proc, port = start_server(workers)
    samples: list[tuple[float, int, int]] = []
    try:
        for path, body, _ in valid:  # warm: every kind of computation once
            exchange(port, post(path, body))
        health = json.loads(exchange(port, request("GET", "/api/health"))[2])
        start_rss = rss_kib(proc.pid)
        tally = Tally()
        begin = time.monotonic()
        stop = begin + seconds
        done = threading.Event()

        def sampler() -> None:
            while not done.is_set():
                try:
                    pids = json.loads(exchange(port, request("GET", "/api/health"), timeout=10)[2])["worker_pids"]
                except (OSError, ValueError, KeyError):
                    pids = []
                samples.append((time.monotonic() - begin, rss_kib(proc.pid), sum(rss_kib(p) for p in pids)))
                done.wait(1.0)

        watcher = threading.Thread(target=sampler, daemon=True)
        watcher.start()
        threads = [threading.Thread(target=client_loop, daemon=True,
                                    args=(port, f"127.0.0.{2 + i}", random.Random(seed * 1000 + i),
                                          stop, tally, valid, invalid))
                   for i in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - begin
        done.set()
        watcher.join()
        time.sleep(1.5)  # the dropped computations stop
        health = json.loads(exchange(port, request("GET", "/api/health"))[2])
        end_rss = rss_kib(proc.pid)
        alive = proc.poll() is None
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    server = [s[1] for s in samples if s[1]] or [start_rss]
    worker = [s[2] for s in samples if s[2]] or [0]
    report = {
        "clients": clients, "seconds": round(wall, 1), "workers": workers,
        "requests": tally.requests, "requests_per_s": round(tally.requests / wall, 1),
        "kinds": dict(sorted(tally.kinds.items())), "statuses": dict(sorted(tally.statuses.items())),
        "failures": dict(tally.failures), "failure_examples": tally.examples,
        "5xx": sum(n for s, n in tally.statuses.items() if s >= 500),
        "rss_kib": {"start": start_rss, "end": end_rss, "min": min(server), "max": max(server),
                    "growth": round((end_rss - start_rss) / start_rss, 4) if start_rss else None,
                    "max_over_start": round(max(server) / start_rss - 1, 4) if start_rss else None},
        "workers_rss_kib": {"first": worker[0], "last": worker[-1], "max": max(worker)},
        # (seconds, server KiB, workers KiB) about every tenth of the run: is it flat?
        "rss_series": samples[::max(1, len(samples) // 10)] + samples[-1:],
        "server": {k: health.get(k) for k in ("restarts", "crashes", "killed", "busy", "queued")},
        "server_alive": alive,
    }
    return report


def print_report(r: dict, out=sys.stdout) -> None:
    print(f"{r['requests']:,} requests from {r['clients']} clients in {r['seconds']} s "
          f"({r['requests_per_s']}/s), {r['workers']} workers", file=out)
    for kind, n in r["kinds"].items():
        print(f"  {kind:<36} {n:>8,}", file=out)
    print(f"statuses: {r['statuses']}", file=out)
    print(f"failures: {r['failures'] or 'none'}; 5xx: {r['5xx']}", file=out)
    for example in r["failure_examples"]:
        print(f"  {example}", file=out)
    rss = r["rss_kib"]
    print(f"server RSS (MiB): start {rss['start'] / 1024:.1f}, end {rss['end'] / 1024:.1f}, "
          f"min {rss['min'] / 1024:.1f}, max {rss['max'] / 1024:.1f} "
          f"(end {100 * rss['growth']:+.1f}%, max {100 * rss['max_over_start']:+.1f}% of start)", file=out)
    w = r["workers_rss_kib"]
    print(f"workers RSS (MiB, all together): first {w['first'] / 1024:.1f}, last {w['last'] / 1024:.1f}, "
          f"max {w['max'] / 1024:.1f}", file=out)
    print("RSS over the run (s: server / workers MiB): " + ", ".join(
        f"{t:.0f}: {a / 1024:.1f} / {b / 1024:.1f}" for t, a, b in r["rss_series"]), file=out)
    print(f"server counts: {r['server']}; still answering: {r['server_alive']}", file=out)


def main(argv: list[str] | None = None, out=sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 250:
        parser.error("--clients must be from 1 to 250 (one loopback address each)")
    report = soak(args.clients, args.seconds, args.workers, args.seed, out)
    print_report(report, out)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if report["failures"] or report["5xx"] or not report["server_alive"] else 0


if __name__ == "__main__":
    sys.exit(main())
