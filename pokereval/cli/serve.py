"""``pokereval serve``: the web calculator on a local port (Starlette app run by uvicorn).

::

    pokereval serve [--host 127.0.0.1] [--port 8000] [--open] [--workers N] [--queue N]
                    [--time-limit S] [--max-samples N] [--isolation process|thread]
                    [--allow-host NAME]... [--per-client N] [--body-timeout S]
                    [--header-timeout S] [--send-timeout S]
                    [--max-connections-per-client N] [--max-connections N]
"""
from __future__ import annotations

import argparse
from typing import TextIO

from ..errors import install_hint
from .common import PROG, Formatter, UsageError, positive_int

__all__ = ["register", "cmd_serve"]

_SERVE_EPILOG = """\
examples:
  pokereval serve                      # http://127.0.0.1:8000/
  pokereval serve --port 9000 --open   # and open it in the default browser
  pokereval serve --host 0.0.0.0 --allow-host calc.lan
                                       # reachable from other machines as calc.lan (mind the caps)

Needs the web extra: pip install starlette uvicorn (in a clone: pip install ".[web]").  The page and the JSON API
(/api/equity, /api/evaluate, /api/graph, /api/games, /api/health) are served from
the package; nothing is fetched from the network."""


def _seconds_limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must be between 0 and 86400 seconds, got {text!r}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be between 0 and 65535, got {text!r}")
    return value


def _log_to(err: TextIO) -> None:
    """The app's own log lines (stopped computations, internal errors) on ``err``."""
    import logging

    logger = logging.getLogger("pokereval.web")
    if not logger.handlers:
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``serve`` to the ``pokereval`` command line."""
    sv = commands.add_parser(
        "serve", help="run the web calculator on a local port",
        description="Serve the equity calculator page and its JSON API with uvicorn. "
                    "Binds 127.0.0.1 unless --host says otherwise.",
        epilog=_SERVE_EPILOG, formatter_class=Formatter)
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free one)")
    sv.add_argument("--open", action="store_true", help="open the page in a web browser")
    sv.add_argument("--workers", type=positive_int, default=2, metavar="N",
                    help="computations running at once: worker processes (default 2)")
    sv.add_argument("--queue", type=int, default=64, metavar="N",
                    help="computations waiting for a worker before answering 429 (default 64)")
    sv.add_argument("--per-client", type=int, default=16, metavar="N",
                    help="computations running or waiting for one client address before "
                         "answering 429 (default 16; 0: no cap). Behind a proxy every client "
                         "has the proxy's address")
    sv.add_argument("--body-timeout", type=_seconds_limit, default=10.0, metavar="S",
                    help="seconds a client has to send a request body (default 10; 408 beyond)")
    sv.add_argument("--header-timeout", type=_seconds_limit, default=10.0, metavar="S",
                    help="seconds a connection has to send a request line and headers, from "
                         "its opening or its previous answer (default 10; then closed, with "
                         "408 if part of a request came)")
    sv.add_argument("--send-timeout", type=_seconds_limit, default=30.0, metavar="S",
                    help="seconds an answer may wait for a client that has stopped reading "
                         "(default 30; then the connection is dropped)")
    sv.add_argument("--max-connections-per-client", type=int, default=32, metavar="N",
                    help="connections open at once from one client address (default 32; "
                         "0: no cap); one more is answered 503 and closed")
    sv.add_argument("--max-connections", type=int, default=512, metavar="N",
                    help="connections open at once in all (default 512; 0: no cap); one more "
                         "is answered 503 and closed")
    sv.add_argument("--time-limit", type=_seconds_limit, default=20.0, metavar="S",
                    help="wall-time cap of one computation in seconds (default 20)")
    sv.add_argument("--max-samples", type=positive_int, default=20_000_000, metavar="N",
                    help="Monte Carlo samples one request may ask for (default 20,000,000)")
    sv.add_argument("--isolation", choices=("process", "thread"), default="process",
                    help="where computations run: worker processes the server replaces when "
                         "one crashes (default), or threads of the server process")
    sv.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="also answer requests whose Host header names NAME (repeatable; "
                         "'*': any). By default only the bound address and localhost are "
                         "answered, which stops DNS-rebinding pages")
    sv.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import socket  # here, not at the top: every other command starts without them
    import threading
    import webbrowser

    try:
        import uvicorn

        from ..web import Limits, create_app
        from ..web.connections import guarded_protocol
        from ..web.guard import allowed_hosts
        from ..web.tasks import faults_enabled
    except ImportError as exc:
        raise UsageError(f"'{PROG} serve' needs the web extra ({exc.name} is missing): "
                         + install_hint("web")) from None
    if args.queue < 0:
        raise UsageError(f"{PROG} serve: --queue must be 0 or more, got {args.queue}")
    for option in ("per_client", "max_connections_per_client", "max_connections"):
        if getattr(args, option) < 0:
            raise UsageError(f"{PROG} serve: --{option.replace('_', '-')} must be 0 or more, "
                             f"got {getattr(args, option)}")
    limits = Limits(workers=args.workers, queue=args.queue, max_seconds=args.time_limit,
                    max_samples=args.max_samples, test_faults=faults_enabled(),
                    isolation=args.isolation, per_client=args.per_client,
                    body_seconds=args.body_timeout, header_seconds=args.header_timeout,
                    send_seconds=args.send_timeout,
                    connections_per_client=args.max_connections_per_client,
                    max_connections=args.max_connections,
                    allowed_hosts=allowed_hosts(args.host, args.allow_host))
    # Bind here, so a busy port is one clear line rather than a uvicorn log dump.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: "
                         f"{exc.strerror or exc}") from None
    with sock:  # closed however we leave: a refused bind, Ctrl-C, the server's end
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((args.host, args.port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {args.host}:{args.port}: "
                             f"{exc.strerror or exc}") from None
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/"
        print(f"{PROG}: serving the web calculator on {url} (Ctrl-C to stop)", file=err,
              flush=True)
        if args.open:
            threading.Timer(1.0, webbrowser.open, args=(url,)).start()
        _log_to(err)
        app = create_app(limits)
        # h11 (not httptools, whatever is installed): the header timer and the connection
        # caps are its subclass, and h11_max_incomplete_event_size is h11's
        protocol = guarded_protocol(limits.header_seconds, limits.connections_per_client,
                                    limits.max_connections, limits.send_seconds)
        app.state.connections = protocol.stats

        class Server(uvicorn.Server):
            async def shutdown(self, sockets=None):
                # computations end first (their workers stopped): the requests waiting on
                # them are answered at once rather than cut at the graceful timeout
                app.state.pool.shutdown()
                await super().shutdown(sockets=sockets)

        config = uvicorn.Config(app, http=protocol, log_level="info", access_log=False,
                                timeout_graceful_shutdown=2,
                                h11_max_incomplete_event_size=limits.max_header)
        Server(config).run(sockets=[sock])
    return 0
