"""The service's guards against a hostile client on the room's network (policy: API.md, "Security").

- ``Guard``, ASGI middleware around every route: a state-changing request whose ``Origin`` (or, without
  one, ``Referer``) names another origin than the one it was sent to is refused (403); a body is bounded
  while it is read (413 at the limit, the declared ``Content-Length`` refused before a byte is read) and
  must arrive within ``body_seconds`` (408).
- CSRF tokens for the podium's forms (``csrf_token``, ``csrf_ok``): tied to the session (an HMAC of
  the session token) and, before a login, to a random pre-login cookie signed with the data folder's
  secret. Starlette ships no CSRF mechanism, and the double-submit-cookie packages (starlette-csrf,
  asgi-csrf) are not tied to the session; a page on another port of the same host can write this host's
  cookies, so a bare double-submit cookie is not enough here.
- ``GuardedHttpTools``, uvicorn's httptools protocol with what uvicorn lacks: a deadline for a request's
  head (uvicorn's ``timeout_keep_alive`` covers only the idle time *between* requests), a bound on the
  head's size, and caps on open connections, in all and per client address.
- ``cpu``: CPU work (book checks, examples, consultations, publishing, page rendering) on a bounded set
  of threads (anyio's ``CapacityLimiter``, Starlette's own thread mechanism), so the event loop stays free.
- ``login``: a login's password checked on the service's login threads, behind the per-address bucket and the
  bounded queue (``core.LoginGate``), never on the floor's threads.
- ``bounded``: a parsed JSON value checked for nesting depth and control characters, without recursion.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import os
import re
import secrets
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import anyio.to_thread
from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, JSONResponse

from rulings.service.session import current_account, token_of

MAX_REQUEST = 1024 * 1024        # every route's body bound (the JSON API cuts at 256 KiB itself)
BODY_SECONDS = float(os.environ.get("RULINGS_BODY_SECONDS") or 30.0)   # the whole body arrives within this
HEAD_SECONDS = float(os.environ.get("RULINGS_HEAD_SECONDS") or 10.0)   # a request's line and headers arrive within this
MAX_HEAD = 64 * 1024             # bytes of request line and headers
MAX_CONNECTIONS = 512            # open connections per worker (well under the usual 1,024 descriptors)
MAX_PER_ADDRESS = 64             # open connections per client address
MAX_DEPTH = 64                   # nesting of a JSON value (an incident is 4-5 levels deep)
SAFE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
LOGIN_COOKIE = "rulings_prelogin"


class Refused(Exception):
    """A request refused by a guard: status, code and words (the same shape as the API's errors)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# ---------------------------------------------------------------- where a request came from

def _origin_of(url: str) -> str | None:
    """``host[:port]`` of an Origin or Referer value (lower case), or None when it names no host."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.netloc or parts.scheme not in ("http", "https"):
        return None
    return parts.netloc.rpartition("@")[2].lower()


def cross_origin(headers) -> str | None:
    """Why a state-changing request is from another origin, or None.

    The request's own origin is its ``Host``; a browser always sends ``Origin`` on a cross-origin POST
    (and on same-origin ones); without it the ``Referer`` is checked; a request with neither (a
    command-line client) is left to the other checks (the CSRF token, the JSON content type).
    """
    host = (headers.get("host") or "").lower()
    ours = {host, *_also_ours()}
    origin = headers.get("origin")
    if origin is not None:
        if origin == "null" or _origin_of(origin) not in ours:
            return f"Origin {origin[:100]!r} is not this service ({host})"
        return None
    referer = headers.get("referer")
    if referer and _origin_of(referer) not in ours:
        return f"the request came from another page ({(_origin_of(referer) or '?')[:100]}), not this service"
    return None


def _also_ours() -> list[str]:
    """``RULINGS_ORIGINS``: further ``host[:port]`` names the podium is opened under, comma-separated (behind
    a proxy that sends the service another ``Host`` than the browser's address)."""
    raw = os.environ.get("RULINGS_ORIGINS") or ""
    return [_origin_of(o.strip()) or o.strip().lower() for o in raw.split(",") if o.strip()]


# ---------------------------------------------------------------- the middleware

class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class Guard:
    """ASGI middleware: the origin check, the body bound and the body deadline, for every route."""

    def __init__(self, app, max_body: int = MAX_REQUEST, body_seconds: float = BODY_SECONDS):
        self.app, self.max_body, self.body_seconds = app, max_body, body_seconds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        if scope["method"] not in SAFE:
            why = cross_origin(headers)
            if why:
                return await _refuse(scope, receive, send, Refused(403, "origin", "refused: " + why))
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return await _refuse(scope, receive, send, Refused(
                413, "too_large", f"the body is {declared[:20]} bytes, over the limit of {self.max_body:,}"))
        started = False
        seen = 0
        deadline: float | None = None
        loop = asyncio.get_running_loop()

        async def bounded_receive():
            nonlocal seen, deadline
            if deadline is None:
                deadline = loop.time() + self.body_seconds
            if deadline == float("inf"):      # the body is in: later calls only wait for the client to leave
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.001))
            except asyncio.TimeoutError:
                raise _TooSlow() from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge()
                if not message.get("more_body", False):
                    deadline = float("inf")
            elif message["type"] == "http.disconnect":
                deadline = float("inf")
            return message

        async def watched_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, bounded_receive, watched_send)
        except (_TooLarge, _TooSlow) as exc:
            if started:
                raise
            refusal = (Refused(413, "too_large", f"the body is over the limit of {self.max_body:,} bytes")
                       if isinstance(exc, _TooLarge) else
                       Refused(408, "too_slow", f"the body did not arrive within {self.body_seconds:g} s"))
            await _refuse(scope, receive, send, refusal)


async def _refuse(scope, receive, send, exc: Refused) -> None:
    """The refusal as JSON on the API, as a short page elsewhere; the connection is closed after it."""
    headers = {"Connection": "close", "Cache-Control": "no-store"}
    if scope.get("path", "").startswith("/api") or scope.get("path") in ("/health", "/openapi.json"):
        response: Any = JSONResponse({"error": {"status": exc.status, "code": exc.code, "message": exc.message,
                                                "problems": []}}, exc.status, headers=headers)
    else:
        words = {403: "Refused", 408: "Too slow", 413: "Too large"}.get(exc.status, "Refused")
        response = HTMLResponse(f"<!doctype html><title>{words}</title><h1>{words}</h1><p>{escape(exc.message)}"
                                "</p><p><a href=\"/podium\">Back to the podium</a></p>", exc.status, headers=headers)
    await response(scope, receive, send)


# ---------------------------------------------------------------- CSRF tokens

_SECRETS: dict[str, bytes] = {}


def data_secret(data_dir: Path) -> bytes:
    """The data folder's signing secret (``csrf.key``, made once, readable by its owner only)."""
    key = str(Path(data_dir).resolve())
    if key in _SECRETS:
        return _SECRETS[key]
    path = Path(data_dir) / "csrf.key"
    try:
        value = path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = secrets.token_bytes(32)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(fresh)
            value = fresh
        except FileExistsError:       # another worker made it first
            value = path.read_bytes()
    if len(value) < 32:
        raise RuntimeError(f"{path} is damaged: delete it and restart")
    _SECRETS[key] = value
    return value


def _mac(key: bytes, what: str) -> str:
    return hmac.new(key, what.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def csrf_token(request) -> tuple[str, str | None]:
    """The token for the request's forms, and a fresh pre-login cookie value to set (or None).

    Logged in: an HMAC keyed by the session token (only the browser holding the cookie can know it).
    Not logged in (the login form): an HMAC of the pre-login cookie keyed by the data folder's secret.
    """
    session = token_of(request)
    if session and _logged_in(request):
        return _mac(session.encode(), "rulings-csrf"), None
    pre = request.cookies.get(LOGIN_COOKIE)
    fresh = None
    if not pre or len(pre) > 100:
        pre = fresh = secrets.token_urlsafe(24)
    return _mac(_secret(request), "login:" + pre), fresh


def csrf_ok(request, sent: str, login: bool = False) -> bool:
    """Whether ``sent`` is the token of this request's session (``login``: of its pre-login cookie)."""
    if not sent or len(sent) > 200:
        return False
    if login:
        pre = request.cookies.get(LOGIN_COOKIE)
        return bool(pre) and hmac.compare_digest(sent, _mac(_secret(request), "login:" + pre))
    session = token_of(request)
    if not session:
        return False
    return hmac.compare_digest(sent, _mac(session.encode(), "rulings-csrf"))


def _logged_in(request) -> bool:
    return current_account(request) is not None


def _secret(request) -> bytes:
    svc = request.app.state.service
    return data_secret(Path(getattr(getattr(svc, "config", None), "data_dir", None) or "rulings-data"))


# ---------------------------------------------------------------- JSON values

async def read_body(request, limit: int, too_large) -> bytes:
    """The request's body, read in pieces and refused (``too_large()`` raised) as soon as it passes ``limit``
    bytes, so that an oversized body is never held whole."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)


# what a record may not hold: the control characters (Unicode category Cc: U+0000-001F and U+007F-009F) but
# tab, line feed and carriage return, and the lone surrogates (category Cs: U+D800-DFFF)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def control_characters(text: str) -> str | None:
    """The first character of ``text`` a record may not hold (NUL, other controls, lone surrogates), or None.

    Tab, line feed and carriage return are allowed (a note typed in a text box has them). One search of
    the text (every string of every request body is checked: a loop over its characters in Python was a
    tenth of the event loop's time on POST /api/rule).
    """
    found = _CONTROL.search(text)
    return found.group() if found else None


def bounded(value: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """Why a parsed JSON value is refused (nested deeper than ``max_depth``, or a string with a control
    character), or None. Walks the value with a stack of its own, never recursion; the path a refusal
    names is written out only for a refusal."""
    stack: list[tuple[Any, int, Any]] = [(value, 1, None)]     # (value, depth, (parent's path, key) or None)
    while stack:
        item, depth, at = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > max_depth:
                return f"the body is nested more than {max_depth} levels deep (at {_path(at) or 'the top'})"
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for k, v in pairs:
                if isinstance(k, str):
                    bad = control_characters(k)
                    if bad is not None:
                        return f"a field name holds the control character U+{ord(bad):04X}"
                if isinstance(v, (dict, list, str)):
                    stack.append((v, depth + 1, (at, k)))
        elif isinstance(item, str):
            bad = control_characters(item)
            if bad is not None:
                return f"{_path(at) or 'the body'}: holds the control character U+{ord(bad):04X}, which a record may not hold"
    return None


def _path(at: Any) -> str:
    """``a.b.0.c`` from the chain of (parent, key) that ``bounded`` keeps."""
    keys = []
    while at is not None:
        at, key = at
        keys.append(str(key))
    return ".".join(reversed(keys))


# ---------------------------------------------------------------- CPU work off the event loop

CPU_THREADS = 2
_LIMITER = None


def cpu_threads() -> int:
    raw = os.environ.get("RULINGS_CPU_THREADS") or ""
    return int(raw) if raw.isdigit() and int(raw) > 0 else CPU_THREADS


async def cpu(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` on one of ``cpu_threads()`` threads (anyio's thread pool, bounded by a
    CapacityLimiter of its own), so the event loop answers other requests while it runs."""
    global _LIMITER
    if _LIMITER is None:
        _LIMITER = anyio.CapacityLimiter(cpu_threads())
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=_LIMITER)


# ---------------------------------------------------------------- logins off the floor's threads

def client_address(request) -> str:
    """The client's address: the connection's peer, or what a trusted proxy said it is (``--trusted-proxy``;
    uvicorn reads ``X-Forwarded-For`` only from those)."""
    return request.client.host if request.client else "?"


async def login(request, username: str, password: str):
    """``Auth.login`` for this request: refused at once (429, 503; AuthError) by the service's ``LoginGate``
    when the client's address has spent its logins or the login threads have enough waiting, else hashed on
    the login threads while the event loop and the floor's threads go on."""
    svc = request.app.state.service
    client = client_address(request)
    svc.logins.admit(client)
    return await asyncio.wrap_future(svc.logins.run(client, svc.auth.login, username, password, client))


# ---------------------------------------------------------------- the HTTP protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:          # pragma: no cover - uvicorn[standard] is a dependency
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


if HttpToolsProtocol is not None:
    class GuardedHttpTools(HttpToolsProtocol):   # type: ignore[misc,valid-type]
        """uvicorn's httptools protocol with a deadline and a size bound on each request's head, and caps
        on open connections (``MAX_CONNECTIONS`` in all, ``MAX_PER_ADDRESS`` from one client address).

        uvicorn has a keep-alive timeout (idle time between requests) and ``limit_concurrency`` (a 503
        once a request's head has arrived), but nothing that ends a connection whose head never
        completes: held open by the thousand, such connections use up the process's file descriptors.
        """
        head_seconds = HEAD_SECONDS
        max_head = MAX_HEAD
        max_connections = MAX_CONNECTIONS
        max_per_address = MAX_PER_ADDRESS
        _per_address: dict[str, int] = {}

        def connection_made(self, transport):
            super().connection_made(transport)
            self._head_timer = None
            self._in_head, self._head_bytes = True, 0
            address = self.client[0] if self.client else "?"
            self._address = address
            n = self._per_address[address] = self._per_address.get(address, 0) + 1
            if len(self.connections) > self.max_connections or n > self.max_per_address:
                self.logger.warning("connection from %s refused: too many open connections", address)
                transport.close()
                return
            self._arm()

        def connection_lost(self, exc):
            self._disarm()
            n = self._per_address.get(self._address, 1) - 1
            if n <= 0:
                self._per_address.pop(self._address, None)
            else:
                self._per_address[self._address] = n
            super().connection_lost(exc)

        def _arm(self):
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_slow)

        def _disarm(self):
            if getattr(self, "_head_timer", None) is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self):
            self._head_timer = None
            if self._in_head and not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_head and not self.transport.is_closing():    # still in a head after these bytes
                self._head_bytes += len(data)
                if self._head_bytes > self.max_head:
                    self.send_400_response("Request head too large")   # closes the connection

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head, self._head_bytes = True, 0
            self._arm()

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._disarm()
            super().on_headers_complete()


def uvicorn_options() -> dict:
    """The uvicorn settings `rulings serve` runs with (API.md, "Security")."""
    return dict(http="rulings.service.guard:GuardedHttpTools", limit_concurrency=256, timeout_keep_alive=5,
                backlog=512, h11_max_incomplete_event_size=MAX_HEAD)
