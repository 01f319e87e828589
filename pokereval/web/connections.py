"""Connection limits of ``pokereval serve``, below the ASGI app: uvicorn's h11 protocol with
a request-header timer and caps on open connections.

uvicorn waits for a request's line and headers for ever (its keep-alive timer covers an
idle connection only until its first byte), so a client sending its headers a byte at a
time, or connecting and sending nothing, would hold a socket indefinitely.
:func:`guarded_protocol` builds the protocol class the server runs (``uvicorn.Config(http=...)``):

* a connection must deliver a request's line and headers within ``header_seconds`` of
  its opening, and on a kept-alive connection within ``header_seconds`` of the previous
  answer; otherwise it is closed, with a one-line 408 first when part of a request had
  arrived (an idle connection is just closed, as keep-alive does);
* at most ``per_client`` connections may be open from one client address (0: any) and
  ``max_connections`` in all (0: any); a connection beyond either cap is answered 503
  (``Retry-After: 1``) at once and closed, without reading it.

It subclasses :class:`uvicorn.protocols.http.h11_impl.H11Protocol` and relies on its
``connection_made`` / ``data_received`` / ``on_response_complete`` / ``connection_lost``
hooks and on ``cycle`` (the request-response cycle, replaced when a request's headers have
been read); ``tests/web/test_web_connections.py`` runs a real server against each of them.
"""
from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import PokerEvalError, one_line
from .guard import SECURITY_HEADERS

__all__ = ["guarded_protocol", "raw_answer"]


def raw_answer(status: int, reason: str, message: str, retry: bool = False) -> bytes:
    """A whole HTTP/1.1 answer ``{"error": message}`` that closes the connection, written
    outside h11 (no request has been read, so h11 would refuse to send a response)."""
    body = json.dumps({"error": one_line(message)}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "cache-control: no-store", "connection: close"]
    if retry:
        head.append("retry-after: 1")
    head += [f"{name.lower()}: {value}" for name, value in SECURITY_HEADERS.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class _Guarded(H11Protocol):
    """The h11 protocol with the header timer and the connection caps (see the module)."""

    header_seconds: float = 10.0
    per_client: int = 32
    max_connections: int = 512
    open_by_client: Counter  # open (admitted) connections per client address, of one server

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._waiting_cycle: Any = None   # the cycle that was current when the timer started
        self._received = 0                # bytes received since then
        self._counted: str | None = None  # the address this connection is counted under

    @classmethod
    def stats(cls) -> dict[str, int]:
        """Open connections and the client addresses they come from."""
        return {"open": sum(cls.open_by_client.values()), "clients": len(cls.open_by_client)}

    # -- uvicorn's hooks --------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else "?"
        if self.max_connections and sum(self.open_by_client.values()) >= self.max_connections:
            self._refuse(f"too many connections to this server (at most {self.max_connections} "
                         "open at once); retry shortly")
        elif self.per_client and self.open_by_client[host] >= self.per_client:
            self._refuse(f"too many connections from one client: at most {self.per_client} open "
                         "at once from one address; close one and retry")
        else:
            self.open_by_client[host] += 1
            self._counted = host
            self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is not None:
            self._received += len(data)
        super().data_received(data)
        self._headers_read()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._start_header_timer()  # the next request's headers, from now
        super().on_response_complete()  # may read a pipelined request at once
        self._headers_read()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        if self._counted is not None:
            left = self.open_by_client[self._counted] - 1
            if left > 0:
                self.open_by_client[self._counted] = left
            else:
                del self.open_by_client[self._counted]
            self._counted = None
        super().connection_lost(exc)

    # -- the timer and the caps -------------------------------------------------------

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._waiting_cycle, self._received = self.cycle, 0
        self._header_timer = self.loop.call_later(self.header_seconds, self._header_timeout)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_read(self) -> None:
        """Stops the timer once a request's headers are in (uvicorn started a new cycle)."""
        if self._header_timer is not None and self.cycle is not self._waiting_cycle:
            self._stop_header_timer()

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.cycle is not self._waiting_cycle:
            return
        if self._received:  # part of a request came: say why it is closed
            seconds = f"{self.header_seconds:g}"
            self.transport.write(raw_answer(
                408, "Request Timeout", f"request headers not received within {seconds} s; "
                                        "send the request line and headers at once"))
        self.transport.close()

    def _refuse(self, message: str) -> None:
        self.transport.write(raw_answer(503, "Service Unavailable", message, retry=True))
        self.transport.close()


def guarded_protocol(header_seconds: float, per_client: int, max_connections: int) -> type:
    """A protocol class for one server (its own connection counts): pass it as
    ``uvicorn.Config(http=...)``; ``stats()`` gives its open connections."""
    if header_seconds <= 0:
        raise PokerEvalError(f"header_seconds must be positive, got {header_seconds}", field="option")
    return type("GuardedH11Protocol", (_Guarded,),
                {"header_seconds": float(header_seconds), "per_client": int(per_client),
                 "max_connections": int(max_connections), "open_by_client": Counter()})
