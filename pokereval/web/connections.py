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
* a connection whose client reads nothing of its answers for ``send_seconds`` while they
  wait in the write buffer is aborted: a client that pipelines requests and never reads
  would otherwise hold the connection, and the request waiting to write, for ever (and a
  closing connection waits to flush its buffer before it lets go);
* at most ``per_client`` connections may be open from one client address (0: any) and
  ``max_connections`` in all (0: any); a connection beyond either cap is answered 503
  (``Retry-After: 1``) at once and closed, without reading it.

It subclasses :class:`uvicorn.protocols.http.h11_impl.H11Protocol` and relies on its
``connection_made`` / ``data_received`` / ``on_response_complete`` / ``connection_lost``
/ ``pause_writing`` / ``resume_writing`` hooks and on ``cycle`` (the request-response cycle, replaced when a request's headers have
been read); ``tests/web/test_web_connections.py`` runs a real server against each of them.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import Counter
from typing import Any

try:  # the socket's send queue (Linux): what a slow client has yet to read
    import fcntl
    import termios
except ImportError:  # pragma: no cover - Windows
    fcntl = termios = None  # type: ignore[assignment]

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
    send_seconds: float = 30.0
    per_client: int = 32
    max_connections: int = 512
    open_by_client: Counter  # open (admitted) connections per client address, of one server

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._send_seen = (0, 0, 0.0)     # (unsent bytes, drains, last progress) at the last look
        self._drains = 0                  # resume_writing calls: the client read a buffer's worth
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
        if self.transport.get_write_buffer_size():  # an answer still to be read, maybe closing
            self._watch_send()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._watch_send()

    def resume_writing(self) -> None:
        self._drains += 1  # the client read: progress for the send watch
        super().resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_send_timer()
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
        self._close()

    def _stop_send_timer(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _unsent(self) -> int:
        """Bytes written and not yet read by the client: the transport's buffer and, on
        Linux, the socket's send queue (a client reading slowly drains that first)."""
        unsent = self.transport.get_write_buffer_size()
        sock = self.transport.get_extra_info("socket")
        if sock is not None and hasattr(termios, "TIOCOUTQ"):
            with contextlib.suppress(OSError):
                queued = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
                unsent += int.from_bytes(queued, sys.byteorder)
        return unsent

    def _watch_send(self) -> None:
        if self._send_timer is None:
            self._send_seen = (-1, self._drains, self.loop.time())  # -1: the first look
            self._send_timer = self.loop.call_later(self.send_seconds / 4, self._check_send)

    def _check_send(self) -> None:
        """Four times per ``send_seconds`` while answers wait in the write buffer: abort
        the connection once the client has read nothing for ``send_seconds``."""
        self._send_timer = None
        if not self.transport.get_write_buffer_size():
            return  # the socket holds the rest: a close lets go of it at once
        unsent, now = self._unsent(), self.loop.time()
        seen, drains, progress_at = self._send_seen
        if self._drains != drains or 0 <= unsent < seen:
            progress_at = now  # slow but reading
        elif seen >= 0 and now - progress_at >= self.send_seconds:
            # abort, not close: close would wait for ever to flush what the client won't read
            self.transport.abort()
            return
        # (the first look only records: a write may land just after writing was paused)
        self._send_seen = (unsent, self._drains, progress_at)
        self._send_timer = self.loop.call_later(self.send_seconds / 4, self._check_send)

    def _refuse(self, message: str) -> None:
        self.transport.write(raw_answer(503, "Service Unavailable", message, retry=True))
        self._close()

    def _close(self) -> None:
        self.transport.close()
        if self.transport.get_write_buffer_size():  # it waits to flush: not for ever
            self._watch_send()


def guarded_protocol(header_seconds: float, per_client: int, max_connections: int,
                     send_seconds: float = 30.0) -> type:
    """A protocol class for one server (its own connection counts): pass it as
    ``uvicorn.Config(http=...)``; ``stats()`` gives its open connections."""
    for name, seconds in (("header_seconds", header_seconds), ("send_seconds", send_seconds)):
        if seconds <= 0:
            raise PokerEvalError(f"{name} must be positive, got {seconds}", field="option")
    return type("GuardedH11Protocol", (_Guarded,),
                {"header_seconds": float(header_seconds), "send_seconds": float(send_seconds),
                 "per_client": int(per_client),
                 "max_connections": int(max_connections), "open_by_client": Counter()})
