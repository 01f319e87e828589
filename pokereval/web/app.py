"""The Starlette app behind ``pokereval serve``: the calculator page and a JSON API.

Routes (bodies and answers are the CLI's ``--json`` shapes)::

    GET  /                    the calculator page (static; the spot is read from the URL)
    GET  /static/app.js|query.js|app.css
    GET  /api/games           'pokereval games --json'
    GET  /api/health          status, busy workers, worker restarts, limits, features
    GET  /api/spec            the equity table of each game: its columns (key, label)
    POST /api/equity          a 'pokereval batch' request -> 'pokereval equity --json'
    POST /api/equity/stream   the same, as NDJSON lines: progress events, then the result
    POST /api/evaluate        {"game", "hole", "board"} -> 'pokereval eval --json'
    POST /api/graph           next-street distribution (when pe.equity_distribution exists)
    POST /api/percentile      {"game", "hand", "players"} (when pe.percentile exists)
    POST /api/pql             {"query", "trials"?, "stderr"?, "exact"?, "seed"?} -> 'pokereval pql --json'

Bad input -> 400 ``{"error": "<one line>", "field", "player", "fields": [...]}``: ``field``
and ``player`` are the engine error's own (what it is about: "game", "player", "board",
"dead", "hole", "option"; the 0-based player), present when known; ``fields`` names the
page's inputs they point at (``game``, ``h1``.., ``board``, ``dead``, ``hole``).
Caps: a Host header that is not the server's (400, :mod:`.guard`), header size (431),
body size (413), the time to receive a body (408: a body is read whole before anything
is started, so a client sending it byte by byte never holds a worker), players and
samples (400), wall time (an exact run cut short is a 400; a sampled one returns its
figures marked ``partial`` with ``stopped``), a full worker pool or ``per_client``
computations already running or waiting for one client address (429).  One request
is one computation, on the worker's fixed share of threads.  A request whose client disconnects is cancelled.  Computations run in
worker processes (:mod:`.jobs`, :mod:`.workers`), named as tasks (:mod:`.tasks`): one
that crashes its worker is answered 500 ``{"error": "internal error: the computation's
worker process died (SIGABRT); ..."}`` and the worker is replaced.
Unexpected errors are logged here and answered 500 ``{"error": "internal error"}``:
no tracebacks, no paths.  No CORS headers; POST bodies must be ``application/json``
(so another site's page cannot post to it without a preflight it would fail).
"""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .. import api
from .._version import __version__
from ..errors import PokerEvalError
from ..games import get_game
from ..protocol import (BATCH_FIELDS, RequestError, dumps, equity_table_spec, evaluation_dict,
                        footer, format_seconds, games_list, legend, max_players, one_line,
                        parse_request, result_dict, type_name)
from .guard import LOCAL_HOSTS, RequestGuard, SecurityHeaders
from .jobs import Busy, ComputationFailed, Job, Task, WorkerPool
from .tasks import FAULTS

__all__ = ["Limits", "create_app"]

log = logging.getLogger("pokereval.web")

STATIC = {"app.js": "text/javascript; charset=utf-8", "query.js": "text/javascript; charset=utf-8",
          "app.css": "text/css; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}


#: Seconds the server waits at start-up for its worker processes to be warm.
READY_SECONDS = 60.0


@dataclass(frozen=True)
class Limits:
    """Per-request caps and the size of the worker pool."""

    max_body: int = 16_384          # bytes of one request body
    body_seconds: float = 10.0      # wall time to receive one request body (408 beyond)
    # enforced by pokereval serve's protocol (web/connections.py), not by this ASGI app:
    header_seconds: float = 10.0    # wall time to receive a request line and headers (408)
    send_seconds: float = 30.0      # wall time an answer may wait for its client to read (abort)
    connections_per_client: int = 32  # open connections per client address (0: any; 503)
    max_connections: int = 512      # open connections in all (0: any; 503)
    max_header: int = 8_192         # bytes of the request line and headers
    allowed_hosts: tuple[str, ...] | None = LOCAL_HOSTS  # Host header names (None: any)
    max_players: int = 10           # hands in one request
    max_samples: int = 20_000_000   # Monte Carlo samples of one request
    max_seconds: float = 20.0       # wall time of one computation
    workers: int = 2                # computations running at once
    queue: int = 64                 # computations waiting for a worker
    per_client: int = 16            # computations running or waiting per client address (0: any)
    threads: int | None = None      # engine threads per computation (None: the pool's share)
    isolation: str = "process"      # "process": worker processes; "thread": in this process
    test_faults: bool = False       # honour the test-only "_fault" request field


class ApiError(Exception):
    """An answer other than 200: status code, one-line message and, for bad input, what
    it is about (``field``, ``player``: see :class:`pokereval.errors.PokerEvalError`)."""

    def __init__(self, status: int, message: str, headers: dict | None = None, *,
                 field: str | None = None, player: int | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, one_line(message), headers
        self.field, self.player = field, player


def features() -> dict[str, bool]:
    """The optional engine features this version has (the page hides what is missing)."""
    return {"graph": hasattr(api, "equity_distribution"),
            "percentile": hasattr(api, "percentile"),
            "breakdown": "breakdown" in inspect.signature(api.equity).parameters}


def error_about(field: str | None, player: int | None) -> dict[str, Any]:
    """What a 400 says it is about: the error's ``field`` and ``player`` (when known) and
    ``fields``, the page's inputs they name (``h1``.. for a player; a player error about no
    one player, such as a count, and an option error name none).

    >>> error_about("player", 1), error_about("board", None), error_about(None, None)
    ({'field': 'player', 'player': 1, 'fields': ['h2']}, {'field': 'board', 'fields': ['board']}, {'fields': []})
    """
    about: dict[str, Any] = {}
    if field is not None:
        about["field"] = field
    if player is not None:
        about["player"] = player
    if field == "player":
        about["fields"] = [f"h{player + 1}"] if player is not None else []
    else:
        about["fields"] = [field] if field in ("game", "board", "dead", "hole") else []
    return about


def _json(data: Any, status: int = 200, headers: dict | None = None) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store", **(headers or {})})


def _error(status: int, message: str, headers: dict | None = None, field: str | None = None,
           player: int | None = None) -> Response:
    body: dict[str, Any] = {"error": message}
    if status == 400:
        body.update(error_about(field, player))
    return _json(body, status, headers)


# ---------------------------------------------------------------------------
# Reading requests
# ---------------------------------------------------------------------------


async def _body(request: Request, limit: int) -> dict:
    """The request's JSON object, read up to ``limit`` bytes (413 beyond)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "send the request as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "")
    too_big = f"request body too large: at most {limit:,} bytes"
    close = {"Connection": "close"}  # what is left of the body is not read
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, too_big, close)

    async def read() -> bytes:
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise ApiError(413, too_big, close)
        return bytes(data)

    # the whole body first, in bounded time: a client sending it byte by byte holds a
    # connection for at most this long, and never a worker (nothing is started before)
    seconds = request.app.state.limits.body_seconds
    try:
        data = await asyncio.wait_for(read(), seconds)
    except TimeoutError:
        raise ApiError(408, f"request body not received within {seconds:g} s; "
                            "send the whole body at once", close) from None
    try:
        obj = json.loads(data)
    except ValueError as exc:
        raise ApiError(400, f"invalid JSON: {getattr(exc, 'msg', exc)} at column "
                            f"{getattr(exc, 'colno', '?')}") from None
    except RecursionError:  # [[[[... within the size limit: not a server fault
        raise ApiError(400, "invalid JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise ApiError(400, f"expected a JSON object, got {type_name(obj)}")
    return obj


def _whole(value: Any) -> int | None:
    """``value`` as a whole number when it is one (the engine reports anything else)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _equity_call(obj: dict, limits: Limits, allowed: tuple[str, ...]) -> tuple[list, dict]:
    """Check an equity-like request (the ``pokereval batch`` shape) against the caps:
    positional arguments and options for the engine."""
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (known: {', '.join(allowed)})")
    try:
        call, options = parse_request(obj)
    except RequestError as exc:
        raise ApiError(400, str(exc)) from None
    get_game(call[0])
    options = {k: v for k, v in options.items() if k in allowed}
    if len(call[1]) > limits.max_players:
        raise ApiError(400, f"at most {limits.max_players} players per request on this server, "
                            f"got {len(call[1])}", field="player")
    samples = _whole(options.get("samples"))
    if samples is not None and samples > limits.max_samples:
        raise ApiError(400, f"samples must be at most {limits.max_samples:,} on this server, "
                            f"got {samples:,}")
    if options.get("samples") is None and options.get("stderr") is not None:
        options["samples"] = limits.max_samples  # a precision target stops at the cap
    threads = _whole(options.get("threads"))
    if limits.threads is not None:
        options["threads"] = min(threads or limits.threads, limits.threads)
    return call, options


# ---------------------------------------------------------------------------
# Running jobs
# ---------------------------------------------------------------------------


def _take_fault(request: Request, obj: dict) -> str | None:
    """The test-only ``_fault`` field, taken out of ``obj`` when this server honours it
    (started with ``POKEREVAL_TEST_FAULTS=1``); elsewhere it stays an unknown field."""
    if not request.app.state.limits.test_faults or "_fault" not in obj:
        return None
    fault = obj.pop("_fault")
    if fault not in FAULTS:
        raise ApiError(400, f"'_fault' must be one of {', '.join(FAULTS)}, got {fault!r}")
    return fault


def _start(request: Request, name: str, args: tuple, kwargs: dict | None = None,
           fault: str | None = None) -> Job:
    """Admit task ``name`` (see :mod:`pokereval.web.tasks`) with plain arguments to the
    worker pool (429 when it is full, or holds ``per_client`` jobs of this client's
    address already)."""
    state = request.app.state
    job = Job(asyncio.get_running_loop(), state.limits.max_seconds)
    client = request.client.host if request.client else None
    try:
        state.pool.submit(job, Task(name, tuple(args), dict(kwargs or {}), fault), client)
    except Busy as exc:
        raise ApiError(429, str(exc), {"Retry-After": "1"}) from None
    return job


async def _next_event(request: Request | None, job: Job, poll: float = 0.1,
                      timeout: float | None = None) -> tuple | None:
    """The job's next event; None when the client disconnected (the job is then cancelled)
    or, with ``timeout``, when nothing came in that time (``("idle", None)``)."""
    getter = asyncio.ensure_future(job.events.get())
    waited = 0.0
    while True:
        done, _ = await asyncio.wait({getter}, timeout=poll)
        if done:
            return getter.result()
        waited += poll
        if request is not None and await request.is_disconnected():
            getter.cancel()
            job.cancel.set()
            return None
        if timeout is not None and waited >= timeout:
            getter.cancel()
            return ("idle", None)


async def _final_event(request: Request, job: Job) -> tuple | None:
    """The job's result or error (progress skipped); None if the client left."""
    while True:
        event = await _next_event(request, job)
        if event is None or event[0] != "progress":
            return event


def _failure(exc: BaseException) -> ApiError:
    """The answer to an exception raised by the engine in a worker."""
    if isinstance(exc, ComputationFailed):  # a worker died, or was stopped: logged there
        return ApiError(exc.status, exc.message)
    if isinstance(exc, (PokerEvalError, ValueError, TypeError, RequestError)):
        # PokerEvalError is the engine's input error; a ValueError/TypeError is a check
        # it missed on request values: both are bad input, not a server fault.
        return ApiError(400, str(exc), field=getattr(exc, "field", None),
                        player=getattr(exc, "player", None))
    log.error("internal error in a computation", exc_info=exc)
    return ApiError(500, "internal error")


def _equity_answer(job: Job, result: Any, echo: dict) -> dict:
    """The JSON of an equity result (the CLI's ``--json``), with the time cap applied."""
    data = {**echo, **result_dict(result)}
    if job.timed_out and result.partial:
        limit = format_seconds(job.seconds)
        if result.exact:
            done = result.fraction_done
            share = f" after {100 * done:.0f}% of the run-outs" if done is not None else ""
            raise ApiError(400, f"the exact answer needs more than this server's time limit of "
                                f"{limit} (stopped{share}); ask for samples instead")
        data["stopped"] = f"time limit of {limit} reached"
    return data


def _echo(obj: dict) -> dict:
    return {"id": obj["id"]} if "id" in obj else {}


# ---------------------------------------------------------------------------
# Routes
# ---------------------------------------------------------------------------


EQUITY_FIELDS = BATCH_FIELDS
GRAPH_FIELDS = ("game", "hands", "board", "dead", "exact", "samples", "seed", "threads", "id")


async def page(request: Request) -> Response:
    return _static_response(request, "index.html")


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC or name == "index.html":
        raise HTTPException(404)
    return _static_response(request, name)


def _static_response(request: Request, name: str) -> Response:
    return Response(request.app.state.files[name], media_type=STATIC[name],
                    headers={"Cache-Control": "no-cache"})


async def api_games(request: Request) -> Response:
    return _json(request.app.state.games)


async def api_health(request: Request) -> Response:
    state = request.app.state
    limits = state.limits
    most = {g["name"]: min(max_players(g["name"]), limits.max_players) for g in state.games}
    return _json({"status": "ok", "version": __version__, **state.pool.stats(),
                  "limits": asdict(limits), "features": features(), "max_players": most,
                  **({"connections": state.connections()} if state.connections else {})})


async def api_spec(request: Request) -> Response:
    """What the page draws as the CLI does: per game, the equity table's columns (the
    legend and footer of each answer come with it on the stream)."""
    return _json({"equity_table": request.app.state.spec})


async def api_equity(request: Request) -> Response:
    obj = await _body(request, request.app.state.limits.max_body)
    fault = _take_fault(request, obj)
    call, options = _equity_call(obj, request.app.state.limits, EQUITY_FIELDS)
    job = _start(request, "equity", call, options, fault)
    event = await _final_event(request, job)
    if event is None or event[0] == "cancelled":
        return Response(status_code=499)  # nobody is listening any more
    kind, payload = event
    if kind == "error":
        raise _failure(payload)
    return _json(_equity_answer(job, payload, _echo(obj)))


async def api_equity_stream(request: Request) -> Response:
    """NDJSON: ``{"event": "progress", "result": {...partial}}`` lines, then
    ``{"event": "result", "result": {...}}`` or ``{"event": "error", "error": ...}``.
    Input errors found before the run starts are a plain 400.  Closing the
    connection (the page's Cancel) stops the computation."""
    obj = await _body(request, request.app.state.limits.max_body)
    fault = _take_fault(request, obj)
    call, options = _equity_call(obj, request.app.state.limits, EQUITY_FIELDS)
    job = _start(request, "equity", call, options, fault)
    pool = request.app.state.pool
    first = await _next_event(request, job)
    if first is None or first[0] == "cancelled":
        return Response(status_code=499)
    if first[0] == "error":
        raise _failure(first[1])

    async def lines() -> AsyncIterator[str]:
        event: tuple | None = first
        try:
            while event is not None:
                kind, payload = event
                if kind == "progress":  # still running: "PARTIAL:" without a reason
                    yield _line({"event": "progress", "fraction_done": payload.fraction_done,
                                 "result": result_dict(payload), "legend": legend(payload),
                                 "footer": footer(payload, None)})
                elif kind == "idle":  # a heartbeat: a send to a closed connection fails
                    yield _line({"event": "alive", "busy": pool.stats()["busy"]})
                elif kind == "result":
                    try:
                        answer = _equity_answer(job, payload, _echo(obj))
                        yield _line({"event": "result", "result": answer, "legend": legend(payload),
                                     "footer": footer(payload, answer.get("stopped", "interrupted"))})
                    except ApiError as exc:
                        yield _line({"event": "error", "error": exc.message})
                    return
                elif kind == "error":
                    failure = _failure(payload)
                    yield _line({"event": "error", "error": failure.message,
                                 **error_about(failure.field, failure.player)})
                    return
                else:  # cancelled
                    return
                # no request here: the streaming response itself notices a disconnect
                event = await _next_event(None, job, timeout=1.0)
        finally:
            job.cancel.set()  # the client went away (or we are done): stop computing

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _line(data: dict) -> str:
    return dumps(data) + "\n"


async def api_evaluate(request: Request) -> Response:
    obj = await _body(request, request.app.state.limits.max_body)
    allowed = ("game", "hole", "board")
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (known: {', '.join(allowed)})")
    for key in ("game", "hole"):
        if not isinstance(obj.get(key), str):
            raise ApiError(400, f"'{key}' must be a string" if key in obj else f"missing field {key!r}")
    board = obj.get("board") or ""
    if not isinstance(board, str):
        raise ApiError(400, "'board' must be a string")
    game = get_game(obj["game"])
    result = api.evaluate(game, obj["hole"], board)  # microseconds: no worker needed
    return _json(evaluation_dict(game, obj["hole"], board, result))


async def api_graph(request: Request) -> Response:
    if not features()["graph"]:
        raise ApiError(501, "the next-street graph is not available in this version of pokereval")
    obj = await _body(request, request.app.state.limits.max_body)
    fault = _take_fault(request, obj)
    call, options = _equity_call(obj, request.app.state.limits, GRAPH_FIELDS)
    job = _start(request, "distribution", call, options, fault)
    event = await _final_event(request, job)
    if event is None or event[0] == "cancelled":
        return Response(status_code=499)
    if event[0] == "error":
        raise _failure(event[1])
    return _json({**_echo(obj), **event[1].to_dict()})


async def api_percentile(request: Request) -> Response:
    if not features()["percentile"]:
        raise ApiError(501, "hand percentiles are not available in this version of pokereval")
    obj = await _body(request, request.app.state.limits.max_body)
    fault = _take_fault(request, obj)
    game, hand, players = obj.get("game"), obj.get("hand"), obj.get("players", 10)
    if not isinstance(game, str) or not isinstance(hand, str):
        raise ApiError(400, "'game' and 'hand' must be strings")
    if _whole(players) is None:
        raise ApiError(400, "'players' must be a whole number")
    job = _start(request, "percentile", (game, hand), {"players": _whole(players)}, fault)
    event = await _final_event(request, job)
    if event is None or event[0] == "cancelled":
        return Response(status_code=499)
    if event[0] == "error":
        raise _failure(event[1])
    return _json({"game": get_game(game).name, "hand": hand, "players": _whole(players),
                  "percentile": float(event[1])})


async def api_pql(request: Request) -> Response:
    limits = request.app.state.limits
    obj = await _body(request, limits.max_body)
    fault = _take_fault(request, obj)
    query = obj.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ApiError(400, "'query' must be a PQL statement", field="query")
    trials, seed, stderr, exact = (obj.get(k) for k in ("trials", "seed", "stderr", "exact"))
    if trials is not None and (_whole(trials) is None or not 1 <= _whole(trials) <= limits.max_samples):
        raise ApiError(400, f"'trials' must be a whole number from 1 to {limits.max_samples:,}",
                       field="trials")
    if seed is not None and _whole(seed) is None:
        raise ApiError(400, "'seed' must be a whole number", field="seed")
    if stderr is not None and (isinstance(stderr, bool) or not isinstance(stderr, (int, float))):
        raise ApiError(400, "'stderr' must be a number", field="stderr")
    if exact not in (None, True, False):
        raise ApiError(400, "'exact' must be true, false or absent", field="exact")
    options = dict(trials=_whole(trials) if trials is not None else None, stderr=stderr,
                   seed=_whole(seed) if seed is not None else None,
                   exact=exact, threads=limits.threads)
    job = _start(request, "pql", (query,), options, fault)
    event = await _final_event(request, job)
    if event is None or event[0] == "cancelled":
        return Response(status_code=499)
    if event[0] == "error":
        raise _failure(event[1])
    result = event[1]
    data = {**_echo(obj), **result.to_dict()}
    if result.partial and job.timed_out:
        limit = format_seconds(job.seconds)
        if result.exact or exact:
            raise ApiError(400, f"the exact answer needs more than this server's time limit of "
                                f"{limit}; ask for trials instead")
        data["stopped"] = f"time limit of {limit} reached"
    return _json(data)


# ---------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------


async def _api_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return _error(exc.status, exc.message, exc.headers, exc.field, exc.player)
    if isinstance(exc, HTTPException):
        text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, exc.detail)
        return _error(exc.status_code, str(text))
    if isinstance(exc, PokerEvalError):
        return _error(400, one_line(exc), field=exc.field, player=exc.player)
    log.error("internal error answering %s %s", request.method, request.url.path, exc_info=exc)
    return _error(500, "internal error")


def create_app(limits: Limits | None = None) -> Starlette:
    """The web calculator as an ASGI app (run it with uvicorn, or ``pokereval serve``)."""
    limits = limits or Limits()
    pool = WorkerPool(limits.workers, limits.queue, isolation=limits.isolation,
                      threads=limits.threads, per_client=limits.per_client)
    folder = resources.files("pokereval.web") / "static"
    files = {name: (folder / name).read_bytes() for name in STATIC}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        # the workers warm up before the first request is taken (a worker not ready in
        # time warms up on its first job)
        await asyncio.to_thread(pool.start, READY_SECONDS)
        try:
            yield
        finally:
            pool.shutdown()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/static/{name}", static),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/api/games", api_games),
            Route("/api/health", api_health),
            Route("/api/spec", api_spec),
            Route("/api/equity", api_equity, methods=["POST"]),
            Route("/api/equity/stream", api_equity_stream, methods=["POST"]),
            Route("/api/evaluate", api_evaluate, methods=["POST"]),
            Route("/api/graph", api_graph, methods=["POST"]),
            Route("/api/percentile", api_percentile, methods=["POST"]),
            Route("/api/pql", api_pql, methods=["POST"]),
        ],
        exception_handlers={Exception: _api_error, HTTPException: _api_error,
                            ApiError: _api_error, PokerEvalError: _api_error},
        lifespan=lifespan,
    )
    app.state.limits, app.state.pool, app.state.files = limits, pool, files
    app.state.connections = None  # pokereval serve: its open connections' counts
    app.state.games = games_list()  # the shape of 'pokereval games --json'
    app.state.spec = equity_table_spec()
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestGuard, hosts=limits.allowed_hosts, max_header=limits.max_header)
    return app
