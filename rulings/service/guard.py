"""The service's guards against a hostile client on the room's network (policy: API.md, "Security").

- ``Guard``, ASGI middleware around every route: a state-changing request whose ``Origin`` (or, without
  one, ``Referer``) names another origin than the one it was sent to is refused (403); a body is bounded
  while it is read (413 at the limit, the declared ``Content-Length`` refused before a byte is read) and
  must arrive within ``body_seconds`` (408); a client that leaves before its body is in is one line at info
  level, never a traceback.
- CSRF tokens for the podium's forms (``csrf_token``, ``csrf_ok``): tied to the session (an HMAC of
  the session token) and, before a login, to a random pre-login cookie signed with the data folder's
  secret. Starlette ships no CSRF mechanism, and the double-submit-cookie packages (starlette-csrf,
  asgi-csrf) are not tied to the session; a page on another port of the same host can write this host's
  cookies, so a bare double-submit cookie is not enough here.
- ``GuardedHttpTools``, uvicorn's httptools protocol with what uvicorn lacks: a deadline for a request's
  head (uvicorn's ``timeout_keep_alive`` covers only the idle time *between* requests), a bound on the
  head's size, and caps on open connections, in all and per client address.
- ``cpu``: CPU work (consultations, page rendering) on a bounded set of threads (anyio's ``CapacityLimiter``,
  Starlette's own thread mechanism), so the event loop stays free; ``manager_work``: the house-book pages, whose
  checks wait for the checking process, on threads of their own, never the floor's.
- ``login``: a login's password checked on the service's login threads, behind the per-address bucket and the
  bounded queue (``core.LoginGate``), never on the floor's threads.
- ``bounded``: a parsed JSON value checked for nesting depth and control characters, without recursion.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
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
from starlette.requests import ClientDisconnect
from starlette.responses import HTMLResponse, JSONResponse

from rulings.service.session import current_account, token_of
from rulings.settings import env_whole
from rulings.money import digits

MAX_REQUEST = 1024 * 1024        # every route's body bound (the JSON API cuts at 256 KiB itself)
BODY_SECONDS = float(os.environ.get("RULINGS_BODY_SECONDS") or 30.0)   # the whole body arrives within this
HEAD_SECONDS = float(os.environ.get("RULINGS_HEAD_SECONDS") or 10.0)   # a request's line and headers arrive within this
MAX_HEAD = 64 * 1024             # bytes of request line and headers
MAX_CONNECTIONS = 512            # open connections per worker (well under the usual 1,024 descriptors)
MAX_PER_ADDRESS = 16             # open connections per client address, not counting those with a live session
RESERVED = 64                    # of MAX_CONNECTIONS, kept for connections whose requests carry a live session
MAX_DEPTH = 64                   # nesting of a JSON value (an incident is 4-5 levels deep)
SAFE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
LOGIN_COOKIE = "rulings_prelogin"
log = logging.getLogger("rulings.service")


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
        if declared is not None and digits(declared.strip()) is None:   # '²', 5,000 digits, '-1', '1e9'
            return await _refuse(scope, receive, send, Refused(
                400, "bad_length", "the Content-Length header is not a number of bytes"))
        if declared is not None and int(declared) > self.max_body:
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
        except ClientDisconnect:      # the client left before its body was in: nobody to answer, nothing wrong here
            log.info("%s %s: the client left after %d byte(s) of its body", scope["method"], scope.get("path", "")[:200],
                     seen)
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
        words = {400: "Bad request", 403: "Refused", 408: "Too slow", 413: "Too large"}.get(exc.status, "Refused")
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
    shared = svc.shared_secret("csrf") if hasattr(svc, "shared_secret") else None
    if shared is not None:        # a chain on PostgreSQL: one secret for every server behind the balancer
        return shared
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
    return env_whole("RULINGS_CPU_THREADS", CPU_THREADS, 1, 64)


async def cpu(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` on one of ``cpu_threads()`` threads (anyio's thread pool, bounded by a
    CapacityLimiter of its own), so the event loop answers other requests while it runs."""
    global _LIMITER
    if _LIMITER is None:
        _LIMITER = anyio.CapacityLimiter(cpu_threads())
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=_LIMITER)


CHECK_THREADS = 4
_CHECK_LIMITER = None


async def manager_work(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` on one of ``CHECK_THREADS`` threads of the managers' own: the house-book pages,
    whose checks wait (up to ``housebook.check_seconds()``) for the checking process. On the floor's threads
    (``cpu``), two managers' checks that never ended held both, and every podium page and consultation waited."""
    global _CHECK_LIMITER
    if _CHECK_LIMITER is None:
        _CHECK_LIMITER = anyio.CapacityLimiter(CHECK_THREADS)
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=_CHECK_LIMITER)


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
        """uvicorn's httptools protocol with a deadline and a size bound on each request's head, and caps on
        open connections that a stranger cannot fill.

        uvicorn has a keep-alive timeout (idle time between requests) and ``limit_concurrency`` (a 503
        once a request's head has arrived), but nothing that ends a connection whose head never
        completes: held open by the thousand, such connections use up the process's file descriptors.

        A connection is a stranger's until one of its requests carries a live session (``_known``). One
        client address holds at most ``MAX_PER_ADDRESS`` strangers' connections (a trusted proxy, which
        speaks for many, is not held to it): the next from there is closed at once. Strangers' connections
        together hold at most ``MAX_CONNECTIONS - RESERVED``, and every connection at most
        ``MAX_CONNECTIONS``: past either, the oldest stranger's connection that is idle (a head still
        coming, or kept alive between requests) is closed to make room, and only with none idle is the
        new one closed. So the ``RESERVED`` connections are always there for the room's logged-in
        tablets, and a flood of half-open connections from many addresses sheds itself, not the floor.
        """
        head_seconds = HEAD_SECONDS
        max_head = MAX_HEAD
        max_connections = MAX_CONNECTIONS
        max_per_address = MAX_PER_ADDRESS
        reserved = RESERVED
        _open: dict[Any, None] = {}         # this worker's open connections, oldest first
        _refused: list = [0, 0.0]           # connections closed unserved since the last warning, and its time
        _trusted: tuple[Any, Any] | None = None    # (forwarded_allow_ips as given, the networks it names)

        def connection_made(self, transport):
            super().connection_made(transport)
            self._head_timer = None
            self._in_head, self._head_bytes = True, 0
            self._session = False
            self._address = self.client[0] if self.client else "?"
            self._open[self] = None
            why = self._admit()
            if why:
                self._open.pop(self, None)
                self._said(why)
                transport.close()
                return
            self._arm()

        def _admit(self) -> str | None:
            """Why this new connection is closed at once, or None (room made, when it must be, by closing
            the oldest idle stranger's connection)."""
            strangers = [c for c in self._open if not c._known()]
            if not self._proxy(self._address) and \
                    sum(1 for c in strangers if c._address == self._address) > self.max_per_address:
                return f"{self._address} holds {self.max_per_address} connections without a session"
            if len(strangers) <= self.max_connections - self.reserved and len(self._open) <= self.max_connections:
                return None
            victim = next((c for c in strangers if c is not self and c._idle()), None)
            if victim is None:
                return f"{len(self._open) - 1} connections open, none idle to close"
            self._open.pop(victim, None)      # counted out now: its connection_lost comes on a later turn
            victim._disarm()
            victim.transport.close()
            return None

        def _known(self) -> bool:
            """Whether a request on this connection carried a live session (the app names the account it found
            in the request's scope, session.current_account)."""
            if not self._session:
                scope = getattr(self, "scope", None)
                self._session = bool(scope and scope.get("rulings.account"))
            return self._session

        def _idle(self) -> bool:
            """Nothing asked and unanswered: a head still coming, or kept alive between two requests."""
            if self.transport.is_closing():
                return False
            return self._in_head or self.cycle is None or (self.cycle.response_complete and not self.pipeline)

        def _proxy(self, address: str) -> bool:
            """Whether ``address`` is a proxy ``rulings serve --trusted-proxy`` names."""
            config = self.config
            if not getattr(config, "proxy_headers", False):
                return False
            given = getattr(config, "forwarded_allow_ips", None) or ()
            cls = type(self)
            if cls._trusted is None or cls._trusted[0] is not given:
                cls._trusted = (given, trusted_networks(given))
            return in_networks(address, cls._trusted[1])

        def _said(self, why: str) -> None:
            """One warning line every 10 s at most, with the count, however many connections a flood sends."""
            count = self._refused
            count[0] += 1
            now = self.loop.time()
            if now - count[1] >= 10:
                self.logger.warning("%d connection(s) closed unserved in the last %.0f s (the last: %s)",
                                    count[0], min(now - count[1], 10), why)
                count[0], count[1] = 0, now

        def connection_lost(self, exc):
            self._disarm()
            self._open.pop(self, None)
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
            self._known()           # before the request before it gives way to this one
            super().on_message_begin()
            self._in_head, self._head_bytes = True, 0
            self._arm()

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._disarm()
            super().on_headers_complete()


def trusted_networks(given) -> list:
    """The networks a ``--trusted-proxy`` list names (addresses or CIDR networks, a list or comma-separated);
    ValueError naming one that is neither."""
    import ipaddress
    items = given.split(",") if isinstance(given, str) else list(given)
    out = []
    for item in (i.strip() for i in items):
        if item:
            try:
                out.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"'{item}' is not an IP address or network (e.g. 10.0.0.2 or 10.0.0.0/24)") from None
    return out


def in_networks(address: str, networks: list) -> bool:
    import ipaddress
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in n for n in networks if n.version == ip.version)


def uvicorn_options(trusted_proxies: list[str] | tuple = ()) -> dict:
    """The uvicorn settings `rulings serve` runs with (API.md, "Security").

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read only from ``trusted_proxies`` (``--trusted-proxy``):
    uvicorn's own default trusts them from 127.0.0.1, so any program on the host could name the address a
    login is counted against. With none given, the headers are not read at all."""
    proxies = ",".join(str(n) for n in trusted_networks(list(trusted_proxies)))
    # no limit_concurrency: uvicorn's 503 counts every open connection, so a stranger's idle connections made
    # it refuse the floor's requests; GuardedHttpTools's caps hold the connections, and so the requests
    return dict(http="rulings.service.guard:GuardedHttpTools", limit_concurrency=None, timeout_keep_alive=5,
                backlog=512, h11_max_incomplete_event_size=MAX_HEAD, proxy_headers=bool(proxies),
                forwarded_allow_ips=proxies or "")
