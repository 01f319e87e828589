"""Issue 26, goal 4: the web server in a hostile place.

A page of another site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its
own name as ``Host``: refused with 400 before any route runs.  The request line and
headers are capped (431), the body too (413, also tested in test_web_api.py).  One
client address may have at most ``--per-client`` computations running or waiting (429
beyond; another address is still served).  A client that sends its body byte by byte
holds no worker (the computation starts once the whole body is in) and is answered 408
after ``--body-timeout``.  The real-server tests use raw sockets from distinct loopback
addresses (127.0.0.N) as distinct clients.
"""
from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient  # noqa: E402

from pokereval.web import Limits, create_app  # noqa: E402
from pokereval.web.guard import allowed_hosts, host_name  # noqa: E402
from webserver import serve  # noqa: E402

FLOP = {"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "2c3c4c"}


@pytest.fixture(scope="module")
def client():
    limits = Limits(isolation="thread", allowed_hosts=allowed_hosts("127.0.0.1", ["calc.lan"]))
    with TestClient(create_app(limits), base_url="http://localhost") as c:
        yield c


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "LOCALHOST", "127.0.0.1:1234",
                                  "[::1]:8000", "calc.lan", "calc.lan:80"])
def test_allowed_hosts_are_answered(client, host):
    response = client.get("/api/health", headers={"Host": host})
    assert response.status_code == 200
    assert client.post("/api/equity", json=FLOP, headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "localhost.evil.example",
                                  "127.0.0.2", "calc.lan.evil.example", ""])
def test_other_hosts_are_refused(client, host):
    for response in (client.get("/", headers={"Host": host}),
                     client.post("/api/equity", json=FLOP, headers={"Host": host})):
        assert response.status_code == 400
        error = response.json()["error"]
        assert "is not one this server answers to" in error and "\n" not in error
        assert "allowed: 127.0.0.1, ::1, calc.lan, localhost" in error
        assert response.headers["x-frame-options"] == "DENY"  # still the security headers


def test_any_host_when_asked():
    limits = Limits(isolation="thread", allowed_hosts=allowed_hosts("0.0.0.0", ["*"]))
    with TestClient(create_app(limits)) as c:  # the test client's own Host: testserver
        assert c.get("/api/health").status_code == 200


def test_header_size_cap(client):
    response = client.get("/api/health", headers={"X-Padding": "x" * 9000})
    assert response.status_code == 431
    assert response.json() == {"error": "request headers too large: at most 8,192 bytes"}
    assert client.get("/api/health", headers={"X-Padding": "x" * 4000}).status_code == 200


def test_host_name():
    assert host_name("Example.COM.:443") == "example.com"
    assert host_name("[fe80::1]") == "fe80::1"
    assert allowed_hosts("0.0.0.0") == ("0.0.0.0", "localhost", "127.0.0.1", "::1")


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
        return data


def test_the_real_server_refuses_a_rebound_name_and_huge_headers():
    with serve("--workers", "1") as server:
        answer = _raw(server.port, b"GET /api/health HTTP/1.1\r\nHost: attacker.example\r\n"
                                   b"Connection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert b"is not one this server answers to" in answer
        answer = _raw(server.port, f"GET /api/health HTTP/1.1\r\nHost: localhost:{server.port}\r\n"
                                   f"Connection: close\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 200 ")
        # headers beyond the cap: refused by the HTTP layer itself, never read whole
        padding = b"X-Padding: " + b"x" * 100_000 + b"\r\n"
        answer = _raw(server.port, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n" + padding +
                      b"Connection: close\r\n\r\n")
        assert answer.split(b" ")[1] in (b"400", b"431"), answer[:200]
        status, data = server.post("/api/equity", FLOP)  # the server is still there
        assert status == 200 and json.loads(json.dumps(data))["players"]


FAULTS = {"POKEREVAL_TEST_FAULTS": "1"}


def _connect(port: int, client: int = 1) -> socket.socket:
    """A connection from loopback address 127.0.0.``client`` (each one a client address)."""
    return socket.create_connection(("127.0.0.1", port), timeout=60,
                                    source_address=(f"127.0.0.{client}", 0))


def _request(body: bytes, path: str = "/api/equity", length: int | None = None) -> bytes:
    length = len(body) if length is None else length
    return (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode() + body


def _answer(conn: socket.socket) -> tuple[int, dict, bytes]:
    """Status, JSON body and raw headers of the answer on ``conn`` (read until it closes)."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body), head


def test_per_client_cap_on_concurrent_computations():
    """Two computations from 127.0.0.2 fill its cap: its third is a one-line 429 while
    127.0.0.3 is still answered; when the first client's connections close, its slots
    are free again."""
    hang = json.dumps({**FLOP, "_fault": "hang"}).encode()  # holds a worker, no CPU
    with serve("--workers", "3", "--per-client", "2", "--time-limit", "120", env=FAULTS) as server, \
            contextlib.ExitStack() as stack:
        held = [stack.enter_context(_connect(server.port, 2)) for _ in range(2)]
        for conn in held:
            conn.sendall(_request(hang))
        assert server.wait_busy(2, seconds=60)
        assert server.get("/api/health")["clients"] == 1
        with _connect(server.port, 2) as third:
            third.sendall(_request(json.dumps(FLOP).encode()))
            status, data, head = _answer(third)
        assert status == 429 and b"retry-after: 1" in head.lower()
        assert data["error"].startswith("too many computations from one client: 2 running or waiting")
        assert "\n" not in data["error"]
        with _connect(server.port, 3) as other:  # another address: its own slots
            other.sendall(_request(json.dumps(FLOP).encode()))
            status, data, _ = _answer(other)
        assert status == 200 and data["players"]
        for conn in held:  # gone: their computations are stopped, the slots freed
            conn.close()
        assert server.wait_busy(0, seconds=60)
        deadline = time.monotonic() + 30
        while server.get("/api/health")["clients"] and time.monotonic() < deadline:
            time.sleep(0.1)
        with _connect(server.port, 2) as again:
            again.sendall(_request(json.dumps(FLOP).encode()))
            assert _answer(again)[0] == 200


def test_slow_bodies_hold_no_worker_and_time_out():
    """Clients that send their bodies a byte at a time: while they trickle, no computation
    is started for them (busy and queued stay 0) and the one worker answers others at
    once; a slow body that completes within --body-timeout is then answered, one that
    does not gets a one-line 408 and its connection closed."""
    body = json.dumps(FLOP).encode()
    with serve("--workers", "1", "--body-timeout", "4") as server, contextlib.ExitStack() as stack:
        assert server.post("/api/equity", FLOP)[0] == 200  # warm
        slow = [stack.enter_context(_connect(server.port, 10 + i)) for i in range(8)]
        for conn in slow:
            conn.sendall(_request(b"", length=len(body)))
        finishing = stack.enter_context(_connect(server.port, 30))
        finishing.sendall(_request(b"", length=len(body)))
        started = time.monotonic()
        sent, looks = 0, []
        while sent < len(body):  # the finishing one in ~2.5 s; the others a byte/0.3 s
            finishing.sendall(body[sent:sent + 3])
            sent += 3
            if int((time.monotonic() - started) / 0.3) > len(looks):
                for conn in slow:
                    conn.sendall(body[len(looks):len(looks) + 1])
                health = server.get("/api/health")
                looks.append((health["busy"], health["queued"]))
                t0 = time.monotonic()
                assert server.post("/api/equity", FLOP)[0] == 200
                assert time.monotonic() - t0 < 5, "a slow body held the worker"
            time.sleep(0.05)
        assert looks and set(looks) == {(0, 0)}, looks
        status, data, _ = _answer(finishing)
        assert status == 200 and data["players"]
        for conn in slow:
            status, data, head = _answer(conn)  # read to the end: the server closed it
            assert status == 408, data
            assert data == {"error": "request body not received within 4 s; send the whole "
                                     "body at once"}
            assert b"connection: close" in head.lower()
        assert time.monotonic() - started < 15
        assert server.get("/api/health")["busy"] == 0


def test_body_size_cap_on_the_real_server():
    with serve("--workers", "1") as server:
        big = b'{"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "' + b"x" * 20_000 + b'"}'
        with _connect(server.port) as conn:  # declared too large: refused before it is read
            conn.sendall(_request(big))
            status, data, _ = _answer(conn)
        assert status == 413 and data == {"error": "request body too large: at most 16,384 bytes"}
        with _connect(server.port) as conn:  # chunked, no length: refused once past the cap
            conn.sendall(b"POST /api/equity HTTP/1.1\r\nHost: localhost\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            try:
                for i in range(0, len(big), 4096):
                    piece = big[i:i + 4096]
                    conn.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                conn.sendall(b"0\r\n\r\n")
            except OSError:  # the server may close before the rest is sent
                pass
            status, data, _ = _answer(conn)
        assert status == 413 and data["error"].startswith("request body too large")
        assert server.get("/api/health")["busy"] == 0


def test_pool_counts_jobs_per_client():
    """The pool's own count: a client's jobs are released when they finish (whatever the
    outcome), and a client without an address (None) is not capped."""
    import asyncio
    import threading

    from pokereval.web.jobs import Busy, Job, WorkerPool

    async def scenario():
        pool = WorkerPool(workers=4, queue=4, isolation="thread", per_client=2)
        loop = asyncio.get_running_loop()
        gate = threading.Event()
        try:
            held = [Job(loop, 10) for _ in range(2)]
            for job in held:
                pool.submit(job, lambda progress: gate.wait(), "10.0.0.1")
            with pytest.raises(Busy, match="too many computations from one client: 2 "):
                pool.submit(Job(loop, 10), lambda progress: 0, "10.0.0.1")
            other = Job(loop, 10)
            pool.submit(other, lambda progress: 1, "10.0.0.2")
            anonymous = Job(loop, 10)
            pool.submit(anonymous, lambda progress: 2, None)
            assert await other.events.get() == ("result", 1)
            assert await anonymous.events.get() == ("result", 2)
            assert pool.stats()["clients"] == 1
            gate.set()
            for job in held:
                assert (await job.events.get())[0] == "result"
            assert pool.stats()["clients"] == 0
            failing = Job(loop, 10)
            pool.submit(failing, lambda progress: 1 / 0, "10.0.0.1")
            assert (await failing.events.get())[0] == "error"
            assert pool.stats()["clients"] == 0
        finally:
            pool.shutdown()

    asyncio.run(scenario())
