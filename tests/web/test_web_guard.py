"""Issue 26, goal 4 (first part): the Host-header allowlist and the request size limits.

A page of another site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its
own name as ``Host``: refused with 400 before any route runs.  The request line and
headers are capped (431), the body too (413, tested in test_web_api.py).
"""
from __future__ import annotations

import json
import socket

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
