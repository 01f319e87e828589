"""Issue 26, goal 2: the server survives its computations (a real ``pokereval serve``).

Computations run in worker processes.  A fault injected into one of them (the test-only
``_fault`` request field, honoured only with ``POKEREVAL_TEST_FAULTS=1``) costs that one
request a one-line 500; the next requests are answered with the engine's figures, and
``/api/health`` counts the replaced worker.  A computation that never reaches a stop
point is ended by killing its worker, when its client leaves or at the time limit.
Stopping the server (SIGTERM, Ctrl-C) leaves no worker behind, nor does killing it.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import pokereval as pe
from pokereval import protocol

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from webserver import serve  # noqa: E402

FAULTS = {"POKEREVAL_TEST_FAULTS": "1"}
FLOP = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h"}
RANGED = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KK**"], "samples": 100_000, "seed": 3}
GRAPH = {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h"}


def without_elapsed(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("elapsed", "id")}


def engine(body: dict) -> dict:
    options = {k: body[k] for k in ("samples", "seed") if k in body}
    result = pe.equity(body["game"], body["hands"], body.get("board", ""), **options)
    return without_elapsed(json.loads(protocol.dumps(protocol.result_dict(result))))


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not; but a
    leader thread shows Z while the process's other threads are still ending)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return fields["State"].split()[0] not in ("Z", "X") or int(fields["Threads"]) > 1


def wait_gone(pids: list[int], seconds: float = 15) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [pid for pid in pids if alive(pid)]
        if not left:
            return []
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def stream_events(server, body: dict) -> list[dict]:
    import urllib.request

    request = urllib.request.Request(server.url + "/api/equity/stream", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return [json.loads(line) for line in response.read().decode().splitlines() if line]


def test_an_aborting_computation_costs_one_request():
    with serve("--workers", "2", env=FAULTS) as server:
        before = server.get("/api/health")
        assert before["isolation"] == "process" and before["workers"] == 2
        assert before["restarts"] == 0 and len(before["worker_pids"]) == 2
        status, data = server.post("/api/equity", {**FLOP, "_fault": "abort"})
        assert status == 500, data
        assert data == {"error": "internal error: the computation's worker process died (SIGABRT); "
                                 "the server has started another"}
        # the next requests: answered, with the engine's figures
        for _ in range(3):
            status, data = server.post("/api/equity", FLOP)
            assert status == 200 and without_elapsed(data) == engine(FLOP)
        status, data = server.post("/api/equity", RANGED)
        assert status == 200 and without_elapsed(data) == engine(RANGED)
        status, data = server.post("/api/graph", GRAPH)
        assert status == 200 and data["players"]
        health = server.get("/api/health")
        assert health["status"] == "ok" and health["busy"] == 0
        assert health["restarts"] == 1 and health["crashes"] == 1 and health["killed"] == 0
        assert len(health["worker_pids"]) == 2 and health["worker_pids"] != before["worker_pids"]
        assert "died (SIGABRT)" in server.log()


@pytest.mark.parametrize("fault, restarted", [("exit", True), ("memory", True), ("raise", False)])
def test_other_faults_are_one_line_500s(fault, restarted):
    with serve("--workers", "1", env=FAULTS) as server:
        status, data = server.post("/api/equity", {**FLOP, "_fault": fault})
        assert status == 500 and data["error"].startswith("internal error"), data
        assert "\n" not in data["error"] and "Traceback" not in data["error"]
        status, data = server.post("/api/equity", FLOP)
        assert status == 200 and without_elapsed(data) == engine(FLOP)
        assert server.get("/api/health")["restarts"] == int(restarted)


def test_a_fault_on_the_stream_is_its_error_event():
    with serve("--workers", "1", env=FAULTS) as server:
        # the worker dies before the first event: a plain 500, as an input error is a 400
        status, data = server.post("/api/equity/stream", {**RANGED, "_fault": "abort"})
        assert status == 500 and "SIGABRT" in data["error"], data
        events = stream_events(server, RANGED)
        assert events[-1]["event"] == "result"
        assert without_elapsed(events[-1]["result"]) == engine(RANGED)


def test_faults_mixed_into_concurrent_requests_cost_only_themselves():
    bodies = [("/api/equity", FLOP), ("/api/equity", RANGED), ("/api/graph", GRAPH),
              ("/api/percentile", {"game": "omaha", "hand": "AsAh7c2d"})]
    with serve("--workers", "2", "--per-client", "0", env=FAULTS) as server:
        serial = [server.post(path, body) for path, body in bodies]
        calls = bodies * 4 + [("/api/equity", {**FLOP, "_fault": "abort"})] * 2
        with ThreadPoolExecutor(max_workers=len(calls)) as pool:
            answers = list(pool.map(lambda call: server.post(*call), calls))
        health = server.get("/api/health")
    for i, (status, data) in enumerate(answers[:-2]):
        want_status, want = serial[i % len(bodies)]
        assert status == want_status == 200, data
        assert without_elapsed(data) == without_elapsed(want), bodies[i % len(bodies)][0]
    assert [status for status, _ in answers[-2:]] == [500, 500]
    assert health["crashes"] == 2 and health["restarts"] == 2 and health["busy"] == 0


def test_the_fault_field_is_unknown_without_the_test_switch():
    with serve("--workers", "1", env={"POKEREVAL_TEST_FAULTS": ""}) as server:
        status, data = server.post("/api/equity", {**FLOP, "_fault": "abort"})
        assert status == 400 and data["error"].startswith("unknown field '_fault'")
        assert server.get("/api/health")["restarts"] == 0


def _send(port: int, body: dict) -> socket.socket:
    data = json.dumps(body).encode()
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(f"POST /api/equity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return conn


def test_a_run_without_stop_points_is_ended_by_killing_its_worker():
    with serve("--workers", "1", "--queue", "0", "--time-limit", "3600", env=FAULTS) as server:
        conn = _send(server.port, {**FLOP, "_fault": "hang"})
        try:
            assert server.wait_busy(1, seconds=60)
        finally:
            conn.close()  # the client goes away; the run never reaches a stop point
        left = time.monotonic()
        assert server.wait_busy(0, seconds=30), server.log()
        assert time.monotonic() - left < 10
        health = server.get("/api/health")
        assert health["killed"] == 1 and health["restarts"] == 1 and health["crashes"] == 0
        status, data = server.post("/api/equity", FLOP)
        assert status == 200 and without_elapsed(data) == engine(FLOP)


def test_the_time_limit_ends_a_run_without_stop_points():
    with serve("--workers", "1", "--time-limit", "1", env=FAULTS) as server:
        started = time.monotonic()
        status, data = server.post("/api/equity", {**FLOP, "_fault": "hang"})
        took = time.monotonic() - started
        assert status == 400 and data["error"] == ("the computation needs more than this server's "
                                                   "time limit of 1.00 s (stopped)"), data
        assert took < 10
        assert server.get("/api/health")["killed"] == 1
        status, data = server.post("/api/equity", FLOP)
        assert status == 200, data


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_stopping_the_server_leaves_no_worker(how):
    with serve("--workers", "2", env=FAULTS) as server:
        pids = server.get("/api/health")["worker_pids"]
        assert len(pids) == 2 and all(alive(pid) for pid in pids)
        conn = _send(server.port, {**FLOP, "_fault": "hang"})  # one worker busy
        try:
            assert server.wait_busy(1, seconds=60)
            if how == "SIGINT":  # Ctrl-C in a terminal: the whole process group gets it
                for pid in [*pids, server.process.pid]:
                    os.kill(pid, signal.SIGINT)
            else:
                os.kill(server.process.pid, getattr(signal, how))
            code = server.process.wait(30)
        finally:
            conn.close()
        # uvicorn ends with the signal it caught (re-raised after its shutdown) or 0
        assert code in ((-signal.SIGKILL,) if how == "SIGKILL" else (0, -getattr(signal, how), 130)), \
            server.log()
        if how != "SIGKILL":
            assert "Application shutdown complete" in server.log()
        assert wait_gone(pids) == [], f"workers left behind after {how}"


def test_a_worker_killed_while_idle_costs_no_request():
    with serve("--workers", "1") as server:
        (pid,) = server.get("/api/health")["worker_pids"]
        os.kill(pid, signal.SIGKILL)  # e.g. the kernel's out-of-memory killer
        assert wait_gone([pid]) == []
        status, data = server.post("/api/equity", FLOP)
        assert status == 200 and without_elapsed(data) == engine(FLOP), (data, server.log())
        health = server.get("/api/health")
        assert health["crashes"] == 1 and health["restarts"] == 1 and pid not in health["worker_pids"]
