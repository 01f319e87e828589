"""Issue 26, goal 4: connections that never finish their headers, and connection floods.

``pokereval serve`` runs uvicorn's h11 protocol with a request-header timer and caps on
open connections (pokereval/web/connections.py).  These tests run a real server and talk
to it over raw sockets from distinct loopback addresses (127.0.0.N, each one a client):

* slow-loris connections (headers a byte at a time, or nothing at all) are closed after
  ``--header-timeout`` (408 first when part of a request came) while the server keeps
  answering others, computations included; the timer covers kept-alive connections
  between requests, and stops once a request's headers are in;
* one address may hold ``--max-connections-per-client`` connections (32): the next one is
  answered 503 and closed while other addresses are served, and the count follows the
  connections that close (1000 opened and closed, then the cap still admits 32);
* ``--max-connections`` caps them in all;
* a client that pipelines requests and never reads the answers is dropped after
  ``--send-timeout`` while a slow reader of the same answers is not.

Each test fails through a socket timeout if the server never closes a connection.
"""
from __future__ import annotations

import contextlib
import json
import select
import socket
import struct
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from pokereval.cli import main  # noqa: E402
from pokereval.web.connections import guarded_protocol  # noqa: E402
from webserver import serve  # noqa: E402

FLOP = {"game": "holdem", "hands": ["AhAd", "KsKd"], "board": "2c3c4c"}
HEALTH = b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n"


def _connect(port: int, client: int) -> socket.socket:
    """A connection from loopback address 127.0.0.``client``."""
    return socket.create_connection(("127.0.0.1", port), timeout=30,
                                    source_address=(f"127.0.0.{client}", 0))


def _read_to_end(conn: socket.socket) -> bytes:
    """All the server sends until it closes the connection (a socket timeout fails)."""
    data = b""
    try:
        while chunk := conn.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def _json_body(answer: bytes) -> dict:
    return json.loads(answer.partition(b"\r\n\r\n")[2])


def _get_health(port: int, client: int) -> bytes:
    with _connect(port, client) as conn:
        conn.sendall(HEALTH + b"Connection: close\r\n\r\n")
        return _read_to_end(conn)


def _open_connections(server, expected: int, seconds: float = 30) -> int:
    """Wait until /api/health counts ``expected`` open connections (its own included)."""
    deadline = time.monotonic() + seconds
    while True:
        seen = server.get("/api/health")["connections"]["open"]
        if seen == expected or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


def test_slow_header_connections_are_closed_while_others_are_served():
    """50 connections from 5 addresses: 25 send a request's headers a byte at a time,
    25 send nothing.  Meanwhile /api/health and a real /api/equity are answered; after
    --header-timeout every one of the 50 is closed, the trickling ones with a one-line
    408, the silent ones without a word."""
    request = (b"POST /api/equity HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
               b"Content-Length: 100\r\n\r\n")
    with serve("--workers", "1", "--header-timeout", "3") as server, \
            contextlib.ExitStack() as stack:
        assert server.post("/api/equity", FLOP)[0] == 200  # warm
        conns = [stack.enter_context(_connect(server.port, 40 + i % 5)) for i in range(50)]
        slow, silent = conns[:25], conns[25:]
        assert _open_connections(server, 51) == 51
        sent, answered, closed = 0, 0, set()
        while len(closed) < len(slow) and sent < len(request):
            readable = set(select.select(slow, [], [], 0)[0])  # answered: sent no more
            closed.update(i for i, conn in enumerate(slow) if conn in readable)
            for i, conn in enumerate(slow):  # one more byte of the headers each
                if i not in closed:
                    try:
                        conn.sendall(request[sent:sent + 1])
                    except OSError:  # closed by the server: its 408 is read below
                        closed.add(i)
            sent += 1
            status, data = server.post("/api/equity", FLOP)
            assert status == 200 and data["players"], data
            assert server.get("/api/health")["status"] == "ok"
            answered += 1
            time.sleep(0.1)
        assert answered >= 3 and sent < len(request), "the headers were sent whole"
        for conn in slow:
            answer = _read_to_end(conn)
            assert _status(answer) == 408, answer[:200]
            assert _json_body(answer) == {"error": "request headers not received within 3 s; "
                                                   "send the request line and headers at once"}
            assert b"\r\nconnection: close\r\n" in answer
        for conn in silent:
            assert _read_to_end(conn) == b""
        assert _open_connections(server, 1) == 1
        assert server.post("/api/equity", FLOP)[0] == 200


def test_the_header_timer_covers_kept_alive_connections_and_stops_for_a_request():
    """On a kept-alive connection the next request's headers are timed from the previous
    answer (part of a request: 408; nothing: closed); a request whose headers are in is
    not cut by the timer however long its body takes (within --body-timeout); two
    pipelined requests are both answered."""
    with serve("--workers", "1", "--header-timeout", "1.5") as server:
        with _connect(server.port, 2) as conn:
            conn.sendall(HEALTH + b"\r\n")
            time.sleep(0.2)
            assert conn.recv(65536).startswith(b"HTTP/1.1 200 ")
            conn.sendall(b"GET /api/he")
            answer = _read_to_end(conn)
        assert _status(answer) == 408 and b"within 1.5 s" in answer
        with _connect(server.port, 2) as conn:
            conn.sendall(HEALTH + b"\r\n")
            time.sleep(0.2)
            assert conn.recv(65536).startswith(b"HTTP/1.1 200 ")
            assert _read_to_end(conn) == b""  # idle after its answer: closed
        body = json.dumps(FLOP).encode()
        with _connect(server.port, 3) as conn:  # headers at once, the body over 3 s
            conn.sendall(b"POST /api/equity HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                         b"Content-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body))
            for i in range(0, len(body), len(body) // 6 + 1):
                time.sleep(0.5)
                conn.sendall(body[i:i + len(body) // 6 + 1])
            answer = _read_to_end(conn)
        assert _status(answer) == 200 and _json_body(answer)["players"]
        with _connect(server.port, 4) as conn:
            conn.sendall(HEALTH + b"\r\n" + HEALTH + b"Connection: close\r\n\r\n")
            answer = _read_to_end(conn)
        assert answer.count(b"HTTP/1.1 200 ") == 2, answer[:300]


def test_per_client_connection_cap_refuses_the_33rd_and_does_not_leak():
    """32 idle connections from 127.0.0.2 (the default cap): its 33rd is answered 503
    with a one-line error and closed, while 127.0.0.3 is served (health and a
    computation).  Once they close, 1000 connections opened and closed from 127.0.0.2
    (some after a request, some reset) leave the count at zero: the cap admits 32 again."""
    with serve("--workers", "1", "--header-timeout", "60") as server, \
            contextlib.ExitStack() as stack:
        held = [stack.enter_context(_connect(server.port, 2)) for _ in range(32)]
        with _connect(server.port, 2) as extra:
            answer = _read_to_end(extra)
        assert _status(answer) == 503, answer[:200]
        assert b"\r\nretry-after: 1\r\n" in answer and b"\r\nconnection: close\r\n" in answer
        assert _json_body(answer) == {"error": "too many connections from one client: at most 32 "
                                               "open at once from one address; close one and retry"}
        assert _status(_get_health(server.port, 3)) == 200
        with _connect(server.port, 3) as other:
            body = json.dumps(FLOP).encode()
            other.sendall(b"POST /api/equity HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                          b"Content-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n" % len(body) + body)
            answer = _read_to_end(other)
        assert _status(answer) == 200 and _json_body(answer)["players"]
        assert _open_connections(server, 33) == 33  # 32 held, and this health request
        assert server.get("/api/health")["connections"]["clients"] == 2
        for conn in held:
            conn.close()
        assert _open_connections(server, 1) == 1
        for i in range(1000):
            conn = _connect(server.port, 2)
            if i % 10 == 0:  # a whole request first
                conn.sendall(HEALTH + b"Connection: close\r\n\r\n")
                assert _status(_read_to_end(conn)) == 200
            elif i % 10 == 1:  # reset rather than closed
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
        assert _open_connections(server, 1) == 1
        again = [stack.enter_context(_connect(server.port, 2)) for _ in range(32)]
        for conn in again:
            conn.sendall(HEALTH + b"Connection: close\r\n\r\n")
        assert [_status(_read_to_end(conn)) for conn in again] == [200] * 32


def test_max_connections_caps_all_addresses():
    with serve("--workers", "1", "--max-connections", "4", "--header-timeout", "60") as server, \
            contextlib.ExitStack() as stack:
        held = [stack.enter_context(_connect(server.port, 10 + i)) for i in range(4)]
        with _connect(server.port, 20) as extra:
            answer = _read_to_end(extra)
        assert _status(answer) == 503
        assert _json_body(answer)["error"] == ("too many connections to this server (at most 4 "
                                               "open at once); retry shortly")
        held.pop().close()
        deadline = time.monotonic() + 30
        while True:  # the closed one is counted out soon after
            answer = _get_health(server.port, 20)
            if _status(answer) == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert _status(answer) == 200
        assert _json_body(answer)["connections"] == {"open": 4, "clients": 4}


def _pipelining_client(port: int, client: int, requests: int) -> socket.socket:
    """A connection with a small receive buffer that has sent ``requests`` pipelined
    GETs of the page's script (25 KB each), more than the socket buffers hold."""
    conn = socket.socket()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.bind((f"127.0.0.{client}", 0))
    conn.connect(("127.0.0.1", port))
    conn.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n" * requests)
    return conn


def test_a_client_that_never_reads_its_answers_is_dropped_a_slow_reader_is_not():
    """Two clients pipeline 400 requests for the 25 KB script: one never reads, one
    reads 4 KB every 0.2 s.  With --send-timeout 2 the first is dropped within a few
    seconds (without the send watch it is held for ever: its answer waits on a full
    buffer); the slow reader keeps getting data past three timeouts; health is answered
    throughout."""
    with serve("--workers", "1", "--send-timeout", "2") as server, contextlib.ExitStack() as stack:
        stalled = stack.enter_context(_pipelining_client(server.port, 61, 400))
        slow = stack.enter_context(_pipelining_client(server.port, 62, 400))
        slow.settimeout(5)
        assert _open_connections(server, 3) == 3
        started, received = time.monotonic(), 0
        dropped_after = None
        while time.monotonic() - started < 7:
            received += len(slow.recv(4096))
            if dropped_after is None and server.get("/api/health")["connections"]["open"] == 2:
                dropped_after = time.monotonic() - started
            time.sleep(0.2)
        assert dropped_after is not None and dropped_after < 6, dropped_after
        assert received > 100_000  # the slow reader was answered all along
        assert server.get("/api/health")["connections"] == {"open": 2, "clients": 2}
        stalled.settimeout(10)
        answers = _read_to_end(stalled).count(b"HTTP/1.1 200 ")  # what the socket held, then EOF
        assert 0 < answers < 400, answers


@pytest.mark.parametrize("option", ["--max-connections-per-client", "--max-connections"])
def test_negative_connection_caps_are_one_line(capsys, option):
    assert main(["serve", option, "-1"]) == 2
    err = capsys.readouterr().err
    assert err == f"pokereval serve: {option} must be 0 or more, got -1\n"


def test_serve_help_names_the_connection_options(capsys):
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for option in ("--header-timeout S", "--send-timeout S", "--max-connections-per-client N",
                   "--max-connections N"):
        assert option in out


def test_each_server_has_its_own_counts():
    one, two = guarded_protocol(1, 2, 3), guarded_protocol(4, 5, 6, 7)
    one.open_by_client["10.0.0.1"] += 1
    assert one.stats() == {"open": 1, "clients": 1} and two.stats() == {"open": 0, "clients": 0}
    assert (two.header_seconds, two.per_client, two.max_connections, two.send_seconds) == \
        (4.0, 5, 6, 7.0)
    assert one.send_seconds == 30.0
