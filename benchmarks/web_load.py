#!/usr/bin/env python
"""Web calculator under load: requests/s for flop spots and latency percentiles.

Starts ``python -m pokereval serve`` on a free localhost port (or uses ``--url``), warms
it up, then:

* throughput: ``--requests`` flop requests (``POST /api/equity``, heads-up and 3-way
  Omaha Hi/Lo, Omaha, Hold'em, 5-Card Omaha Hi/Lo, each answered exactly) sent by
  ``--concurrency`` clients with keep-alive connections; requests/s over the whole run;
* latency under load: rounds of 50 requests sent at once (50 clients, one request
  each per round); the 50th/90th/99th percentiles and the worst, from send to answer.

Every answer is checked against ``pe.equity`` on the same spot (a wrong or failed
answer makes the script exit 1).  Localhost only.

    python benchmarks/web_load.py [--requests 1000] [--concurrency 8] [--rounds 10]
                                  [--workers 2] [--url http://127.0.0.1:8000]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pokereval as pe  # noqa: E402

GAMES = ["omaha-hilo", "omaha", "holdem", "omaha5-hilo"]


def flop_spots(count: int, seed: int = 2024) -> list[dict]:
    rng = random.Random(seed)
    spots = []
    for i in range(count):
        game = pe.get_game(GAMES[i % len(GAMES)])
        players = 2 + i % 2
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        rng.shuffle(deck)
        hands = ["".join(deck[p * game.hole:(p + 1) * game.hole]) for p in range(players)]
        board = "".join(deck[players * game.hole:players * game.hole + 3])
        spots.append({"game": game.name, "hands": hands, "board": board})
    return spots


class Client:
    """One keep-alive HTTP connection per thread."""

    local = threading.local()

    def __init__(self, url: str):
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port

    def post(self, body: dict) -> tuple[int, dict, float]:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=300)
        data = json.dumps(body)
        started = time.perf_counter()
        conn.request("POST", "/api/equity", body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        answer = json.loads(response.read())
        return response.status, answer, time.perf_counter() - started


def expected_equities(spots: list[dict]) -> list[list[float]]:
    return [[p.equity for p in pe.equity(s["game"], s["hands"], s["board"]).players] for s in spots]


def check(answers, spots, expected) -> int:
    bad = 0
    for (status, data, _), spot, equities in zip(answers, spots, expected):
        if status != 200 or [p["equity"] for p in data["players"]] != equities:
            bad += 1
            if bad <= 3:
                print(f"  wrong answer for {spot}: {status} {str(data)[:200]}", file=sys.stderr)
    return bad


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "pokereval", "serve", "--port", str(port),
                             "--per-client", "0",  # every load client is on 127.0.0.1
                             "--workers", str(workers), "--queue", "256"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=2).request("GET", "/api/health")
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=10, help="rounds of 50 simultaneous requests")
    parser.add_argument("--workers", type=int, default=2, help="server worker threads")
    parser.add_argument("--url", help="an already running server (default: start one)")
    args = parser.parse_args()

    proc = None
    url = args.url
    if url is None:
        proc, url = start_server(args.workers)
    client = Client(url)
    try:
        spots = flop_spots(max(args.requests, 50))
        expected = expected_equities(spots)
        client.post(spots[0])  # warm-up: first imports on the server

        spots_t, expected_t = spots[:args.requests], expected[:args.requests]
        with ThreadPoolExecutor(args.concurrency) as pool:
            started = time.perf_counter()
            answers = list(pool.map(client.post, spots_t))
            took = time.perf_counter() - started
        bad = check(answers, spots_t, expected_t)
        print(f"throughput: {len(spots_t)} flop requests, {args.concurrency} clients: "
              f"{len(spots_t) / took:,.0f} requests/s ({took:.2f} s, {bad} wrong)")

        latencies, wrong = [], 0
        with ThreadPoolExecutor(50) as pool:
            for r in range(args.rounds):
                batch = spots[(r * 50) % len(spots):][:50]
                batch = batch if len(batch) == 50 else spots[:50]
                exp = [expected[spots.index(s)] for s in batch]
                answers = list(pool.map(client.post, batch))
                wrong += check(answers, batch, exp)
                latencies += [a[2] for a in answers]
        ms = [1000 * x for x in latencies]
        print(f"latency under 50 simultaneous requests ({args.rounds} rounds, {len(ms)} requests, "
              f"{wrong} wrong): p50 {percentile(ms, .5):.0f} ms, p90 {percentile(ms, .9):.0f} ms, "
              f"p99 {percentile(ms, .99):.0f} ms, max {max(ms):.0f} ms, mean {statistics.mean(ms):.0f} ms")
        print(f"server: {args.workers} workers; machine: {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.2f}")
        return 1 if bad or wrong else 0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    sys.exit(main())
