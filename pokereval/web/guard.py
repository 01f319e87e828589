"""ASGI middleware that guards every request of the web app before a route sees it.

* :class:`RequestGuard`: the ``Host`` header must name an allowed host (by default the
  address the server is bound to and ``localhost``), so a page of another site whose
  name was rebound to 127.0.0.1 (DNS rebinding) is answered 400 rather than served;
  the request line and headers together may take at most ``max_header`` bytes (431).
* :class:`SecurityHeaders`: adds :data:`SECURITY_HEADERS` to every response.

Both are plain ASGI middleware, so streaming responses and disconnect detection are
untouched.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from starlette.datastructures import MutableHeaders

from ..errors import one_line

__all__ = ["RequestGuard", "SecurityHeaders", "SECURITY_HEADERS", "LOCAL_HOSTS", "host_name",
           "allowed_hosts"]

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}

#: The names of this machine that a DNS answer cannot take over.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def host_name(value: str) -> str:
    """The host of a ``Host`` header value, lower case, without port or brackets.

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):  # an IPv6 literal
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":")[0]
    return value.rstrip(".")  # "localhost." is localhost


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host names a server bound to ``bound`` answers: that address, ``localhost``
    (and its loopback addresses), and ``extra``; ``*`` in ``extra`` allows any."""
    names = [host_name(bound), *LOCAL_HOSTS, *(host_name(e) if e != "*" else "*" for e in extra)]
    return tuple(dict.fromkeys(n for n in names if n))


async def _answer(send: Callable, status: int, message: str) -> None:
    body = json.dumps({"error": one_line(message)}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), (b"connection", b"close")]
    headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """Refuses a request whose ``Host`` is not in ``hosts`` (400; None: any host) or whose
    request line and headers exceed ``max_header`` bytes (431)."""

    def __init__(self, app: Any, hosts: tuple[str, ...] | None, max_header: int):
        self.app = app
        self.hosts = None if hosts is None or "*" in hosts else frozenset(hosts)
        self.max_header = max_header

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", ())
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        size += sum(len(k) + len(v) + 4 for k, v in headers)
        if size > self.max_header:
            await _answer(send, 431, f"request headers too large: at most {self.max_header:,} bytes")
            return
        if self.hosts is not None:
            given = [v.decode("latin-1") for k, v in headers if k == b"host"]
            name = host_name(given[0]) if len(given) == 1 else None
            if name not in self.hosts:
                shown = repr(given[0][:100]) if len(given) == 1 else "missing or repeated"
                await _answer(send, 400, f"Host header {shown} is not one this server answers to "
                                         f"(allowed: {', '.join(sorted(self.hosts))})")
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
