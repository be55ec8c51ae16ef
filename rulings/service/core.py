"""What every part of the service shares: its settings (Config), the warm books (Books: the one owner of the
loaded books, the standard and every house book, following what the podium publishes), the Service a request
works through (books, log, logins, the ruling threads), the API's refusal (ApiError) and a step as the API gives
it (step_json). No web framework and no SQLAlchemy here: the API (api/) and the podium (podium/) build on this,
the store (store/) is what it keeps things in."""
from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from rulings.ruling import books as bookstore
from rulings.rulebook.catalogue import did_you_mean
from rulings.ruling.consult import Consultation, Step, answered
from rulings.problems import Problem, ProblemsError
from rulings.report.render import report_json
from rulings.rulebook.house import house_names
from rulings.rulebook.load import ROOT
from rulings.service.store import db
from rulings.service.store.auth import Auth, AuthError, Limiter
from rulings.service.store.chain import ChainBooks, is_chain, shared_secret
from rulings.service.store.housebook import HouseBooks, stop_checks
from rulings.service.store.log import DUPLICATE, Log, dumps, ruling_row
from rulings.settings import env_whole

log = logging.getLogger("rulings.service")


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (the system's tz database, Python's zoneinfo); ValueError naming it when unknown."""
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(f"'{name}' is not a time zone: give an IANA name such as America/New_York or "
                         "Europe/London") from None


def room_zone(config: Any, room: str | None) -> ZoneInfo:
    """The zone of ``room``'s clock: its own (Config.room_zones), else the service's (Config.time_zone)."""
    rooms = getattr(config, "room_zones", None) or {}
    return zone(rooms.get(room) or getattr(config, "time_zone", None) or "UTC")


@dataclass
class Config:
    data_dir: Path = field(default_factory=db.default_data_dir)
    database: str | None = None          # a postgresql:// URL; default SQLite in data_dir
    session_hours: float = 12.0
    login_attempts: int = 5              # failures of one name from one address before the waits begin
    login_window: float = 3600.0         # how long a failure counts
    session_check_seconds: float = 1.0   # how long a worker trusts a session it has checked (logout bound)
    time_zone: str = "UTC"               # the room's clock on the podium's pages (IANA name); stored times stay UTC
    room_zones: dict = field(default_factory=dict)   # a room's own zone, where it differs: {"main": "America/New_York"}
    address_logins: int = 10             # failed logins one client address may start at once (LoginGate) ...
    address_every: float = 3.0           # ... and one more each this many seconds
    login_queue: int = 8                 # logins waiting for or in a password hash, per worker (LoginGate)

    def __post_init__(self) -> None:
        for name in (self.time_zone, *self.room_zones.values()):
            zone(name)                   # an unknown zone is refused when the service starts, never guessed


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, problems: list | None = None, headers=None):
        super().__init__(message)
        self.status, self.code, self.message, self.problems, self.headers = status, code, message, problems or [], headers


@dataclass
class WarmBook:
    name: str
    book: Any
    engine: Any
    hash: str
    extends: str | None
    path: str | None = None      # the file a house book was loaded from
    version: int | None = None   # the published version (None: the standard book, or a house book as shipped)

    @property
    def consultation(self) -> Consultation:
        return Consultation(self.book, self.engine, "<request>")


def _files_hash(paths: list[Path], seed: str = "") -> str:
    h = hashlib.sha256(seed.encode())
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return "sha256:" + h.hexdigest()


class Books:
    """The standard book and every house book, loaded and compiled once, kept warm; content hash of each.

    The one owner of the warm books: the API, the podium's pages and the podium's publishing all reach a book
    through ``get`` (or ``names``), which serve the version of a house book published last (``published``:
    the data folder's store of published versions), also when another worker published it. On PostgreSQL
    (``chain``) ``published`` is the database's (``store.chain.ChainBooks``), and its watcher thread puts a
    version published by any server of the chain in force here (``_published_elsewhere``)."""

    def __init__(self, data_dir: Path | None = None, engine: Any = None):
        cat = Path(bookstore.__file__).resolve().parents[1]   # the package's folder (books is in ruling/)
        self.standard_hash = _files_hash(sorted((ROOT / "standard").glob("*.yaml")) +
                                         sorted((cat / "facts").glob("*.yaml")) + [cat / "citations.yaml"])
        self.books: dict[str, WarmBook] = {}
        book, engine_ = bookstore.load()
        self.books["standard"] = WarmBook("standard", book, engine_, self.standard_hash, None)
        # on PostgreSQL the chain's database holds the published versions, and a watcher thread puts a version
        # published by any server in force here (off the floor's threads: a request never loads a book); on
        # SQLite the data folder holds them, and a request follows the version published last (a file read)
        self.chain = engine is not None and is_chain(engine)
        published: HouseBooks | None = None
        if self.chain:
            published = ChainBooks(engine, data_dir or Path("."), hasher=self._house_hash)
        elif data_dir is not None:
            published = HouseBooks(data_dir, hasher=self._house_hash)
        self.published = published
        self._lock = threading.Lock()
        for name in sorted(set(house_names()) | set(published.names() if published else ())):
            live = published.live_path(name) if published else None   # a version published from the podium
            path = live or bookstore.house_path(name)
            try:
                book, engine_ = bookstore.load(str(live) if live else name)
            except ProblemsError as exc:   # a broken house book is left out and said so; the others serve
                log.warning("house book %s not served: %d problem(s)", name, len(exc.problems))
                continue
            self.books[name] = WarmBook(name, book, engine_, self._house_hash(path), self._extends(path),
                                        str(path), _version(live))
        if isinstance(published, ChainBooks):
            published.watch(self._published_elsewhere)

    def _published_elsewhere(self, names: set[str]) -> None:
        for name in sorted(names):
            self._follow(name)

    def close(self) -> None:
        if isinstance(self.published, ChainBooks):
            self.published.close()

    def _extends(self, path: Path) -> str | None:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            return data.get("extends") if isinstance(data, dict) else None
        except (OSError, yaml.YAMLError):
            return None

    def _house_hash(self, path: Path) -> str:
        chain, seen, here = [path], {path}, path
        while True:
            parent = self._extends(here)
            if not parent or parent == "standard":
                break
            nxt = bookstore.house_path(parent)
            if nxt in seen or not nxt.exists():
                break
            chain.append(nxt)
            seen.add(nxt)
            here = nxt
        return _files_hash(chain, self.standard_hash)

    def get(self, name: str | None) -> WarmBook:
        name = name or "standard"
        if isinstance(name, str) and name != "standard" and not self.chain:
            self._follow(name)
        if not isinstance(name, str) or name not in self.books:
            close = did_you_mean(str(name), self.books)
            raise ApiError(404, "not_found", f"no rulebook '{name}'",
                           [Problem("<request>", 0, 0, "S104", f"book: no rulebook '{name}'", ("book",),
                                    f"did you mean '{close}'?" if close else "books: " + ", ".join(self.books)
                                    ).to_json()])
        return self.books[name]

    def names(self) -> list[str]:
        """The books served: standard first, then every house book (each published one in its live version)."""
        for name in (self.published.names() if self.published is not None and not self.chain else ()):
            self._follow(name)
        return ["standard"] + sorted(n for n in self.books if n != "standard")

    def reload(self, name: str) -> None:
        """A house book was just published here: serve its live version from the next ruling on."""
        self._follow(name)

    def _follow(self, name: str) -> None:
        """Serve the version of a house book published last, also when another worker or podium published it."""
        if self.published is None:
            return
        live = self.published.live_path(name)     # one small file read; None when never published here
        if live is None:
            return
        warm = self.books.get(name)
        if warm is not None and warm.path == str(live):
            return
        with self._lock:
            warm = self.books.get(name)
            if warm is not None and warm.path == str(live):
                return
            try:
                book, engine = bookstore.load(str(live))
            except ProblemsError as exc:
                log.warning("published house book %s not served: %d problem(s)", name, len(exc.problems))
                return
            self.books[name] = WarmBook(name, book, engine, self._house_hash(live), self._extends(live), str(live),
                                        _version(live))
            log.info("house book %s: version %s in force", name, _version(live))


def _version(live: Path | None) -> int | None:
    """The version number of a published version's file (``0003.yaml``: 3); None for the repository's file."""
    return int(live.stem) if live is not None and live.stem.isdigit() else None


LOGIN_THREADS = 1      # threads that hash passwords, per worker: never the floor's (guard.cpu) nor the rulers


class LoginGate:
    """Where a login waits for its password hash, kept apart from the floor's work.

    An Argon2id hash costs 64 MiB and tens of milliseconds of a core, and anyone on the network may ask for one:
    a login needs no account. So a worker hashes passwords on ``LOGIN_THREADS`` threads of their own (argon2-cffi
    lets go of the interpreter while it hashes; on Linux at a lower priority, ``LOGINS_BEHIND``), holds at most ``queue`` logins waiting for or in a hash (the
    next is refused 503, to come back in a second) and lets one client address start ``burst`` logins, then
    one each ``every`` seconds (a bucket of tokens; the next is refused 429 with the seconds to wait). Both are
    checked on the event loop before anything else is done, in this process's memory: no hash, no database. A
    login that succeeds gives its token back, so a room whose tablets share one address logs them all in; a
    wrong password, or a name that has no account, keeps it spent, so fresh names get no further than one.
    The per-name limit (``store.auth.Limiter``, in the database) still holds behind this one.
    """

    MAX_ADDRESSES = 10_000     # addresses remembered; past it those whose bucket has filled again are forgotten

    def __init__(self, burst: int = 10, every: float = 3.0, queue: int = 8, threads: int = LOGIN_THREADS):
        self.burst, self.every, self.queue, self.threads = burst, every, queue, threads
        self.pool: ThreadPoolExecutor | None = None      # started by the first login (again after ``close``)
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}   # address -> (tokens left, when counted)
        self._waiting = 0

    def admit(self, client: str) -> None:
        """Take a token of ``client``'s bucket and a place in the queue; AuthError 429 or 503 when there is none."""
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) / self.every)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                wait = int((1 - tokens) * self.every) + 1
                raise AuthError(429, "rate_limited", f"too many failed logins from this address; try again in {wait} s",
                                wait)
            if self._waiting >= self.queue:
                raise AuthError(503, "busy", "the service is checking other logins; try again in a moment", 1)
            self._waiting += 1
            self._buckets[client] = (tokens - 1, now)
            if len(self._buckets) > self.MAX_ADDRESSES:
                self._forget(now)

    def _forget(self, now: float) -> None:
        full = [a for a, (tokens, at) in self._buckets.items() if tokens + (now - at) / self.every >= self.burst]
        for a in full:
            del self._buckets[a]
        if len(self._buckets) > self.MAX_ADDRESSES:    # every one still spending: the oldest go
            for a in list(self._buckets)[: len(self._buckets) - self.MAX_ADDRESSES]:
                del self._buckets[a]

    def run(self, client: str, login, *args) -> Future:
        """``login(*args)`` on the login threads, once ``admit(client)`` has let it in; its token comes back when
        it succeeds."""
        def attempt():
            out = login(*args)
            with self._lock:
                tokens, at = self._buckets.get(client, (0.0, time.monotonic()))
                self._buckets[client] = (min(float(self.burst), tokens + 1), at)
            return out

        def done(_: Future) -> None:      # run, failed or dropped by ``close``: its place in the queue is free
            with self._lock:
                self._waiting -= 1
        with self._lock:
            if self.pool is None:
                self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="rulings-login", initializer=_behind)
            pool = self.pool
        try:
            future = pool.submit(attempt)
        except RuntimeError:       # closed meanwhile: the worker is stopping
            with self._lock:
                self._waiting -= 1
            raise AuthError(503, "busy", "the service is stopping; try again in a moment", 5) from None
        future.add_done_callback(done)
        return future

    def close(self) -> None:
        """Stop the login threads (logins waiting are dropped); a later login starts them again, as the rest of a
        closed Service still answers (an app's lifespan closes it; a program may go on using it)."""
        with self._lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


LOGINS_BEHIND = 10    # the login threads' nice value over the worker's: on a busy machine the floor goes first


def _behind() -> None:
    """Lower this thread's priority by ``LOGINS_BEHIND`` (Linux: a thread's own nice value); elsewhere as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + LOGINS_BEHIND)
    except (AttributeError, OSError):
        pass


RULING_THREADS = 1


def ruling_threads() -> int:
    """Threads that rule for one worker process (``RULINGS_RULING_THREADS``, default 1).

    A request is ruled and its entry handed to the log writer in one call on one of these threads, and
    the event loop is woken once, when the entry is committed (anyio's pool, before, took the ruling
    there and back and the loop then wrote the entry itself). Rulings hold the interpreter lock, so more
    ruling threads in one process only take turns and pay for the switching: on a quiet 2-core machine
    (benchmarks/service_speed.py, SQLite, 8 clients, one worker, alternated) one thread gave 568-637
    rulings/s with p99 21.6-25.5 ms, eight 425-518/s with p99 31.9-37.9 ms, two 479-503/s. (Under other
    load on the machine eight did better; more cores means more workers, not threads.) Requests wait
    in order for the thread; consultation steps run in the general thread pool, not behind rulings.
    """
    return env_whole("RULINGS_RULING_THREADS", RULING_THREADS, 1, 64)


class Service:
    """Everything a request needs: warm books, the log, logins."""

    def __init__(self, config: Config):
        self.config = config
        self.url = db.database_url(config.database, Path(config.data_dir))
        self.engine = db.make_engine(self.url)
        db.migrate(self.engine)
        self.auth = Auth(self.engine, config.session_hours,
                         Limiter(self.engine, config.login_attempts, config.login_window),
                         config.session_check_seconds)
        self.log = Log(self.engine, config.time_zone, config.room_zones)
        self.books = Books(Path(config.data_dir), self.engine)
        self.rulers = ThreadPoolExecutor(ruling_threads(), thread_name_prefix="rulings-ruler")
        self.logins = LoginGate(config.address_logins, config.address_every, config.login_queue)
        if self.books.chain:
            self.shared_secret("csrf")      # read once here: a login page never waits for the database for it

    @property
    def database(self) -> str:
        return self.engine.dialect.name

    def shared_secret(self, name: str) -> bytes | None:
        """The chain's secret ``name``, the same on every server (PostgreSQL); None on SQLite, where the data
        folder keeps it (``guard.data_secret``)."""
        if not self.books.chain:
            return None
        kept = self.__dict__.setdefault("_secrets", {})
        if name not in kept:
            import secrets
            kept[name] = shared_secret(self.engine, name, secrets.token_bytes(32))
        return kept[name]

    def consult(self, incident: Any, book: str | None = None, answers: dict | None = None) -> Step:
        """One consultation step (no record); ProblemsError when the incident or an answer is refused."""
        return self.books.get(bookstore.book_for(incident, book)).consultation.step(incident, answers or {})

    def rule_and_record(self, account, *, incident: Any, book: str | None = None, answers: dict | None = None,
                        table: str | None = None, asked: list | None = None, request_id: str | None = None,
                        room: str | None = None, consult: bool = True, consultation: str | None = None) -> dict:
        """Rule (a full consultation step unless ``consult`` is false) and record the ruling in the log.

        Returns the step as the JSON API gives it, with ``entry``; the entry is committed when this returns.
        ProblemsError for a refused incident or answer, ApiError for an unknown book.
        """
        warm = self.books.get(bookstore.book_for(incident, book))     # the request's book, else the incident's house
        first = self.log.by_request(account, request_id)
        if first is not None:
            return replayed(first)
        answers = dict(answers or {})
        step = (warm.consultation.step if consult else warm.consultation.rule)(incident, answers)
        return self._committed(account, warm, incident, step, table=table, asked=asked, request_id=request_id,
                               room=room, consultation=consultation)

    def record_ruled(self, account, warm: WarmBook, incident: Any, step: Step, *, table: str | None = None,
                     asked: list | None = None, request_id: str | None = None, room: str | None = None,
                     consultation: str | None = None) -> dict:
        """Record a ruling already made (``step``, under ``warm``): the very ruling the caller has shown, never
        ruled again. As ``rule_and_record`` answers (the step JSON with ``entry``, committed when this returns; a
        retried ``request_id``: the first record, ``replayed``)."""
        first = self.log.by_request(account, request_id)
        if first is not None:
            return replayed(first)
        return self._committed(account, warm, incident, step, table=table, asked=asked, request_id=request_id,
                               room=room, consultation=consultation)

    def _committed(self, account, warm: WarmBook, incident: Any, step: Step, **where: Any) -> dict:
        try:
            return self.record(account, warm, incident, step, **where).result(timeout=60)
        except DUPLICATE:       # the same request id recorded by another request meanwhile
            first = self.log.by_request(account, where.get("request_id"))
            if first is None:
                raise
            return replayed(first)

    def record(self, account, warm: WarmBook, incident: Any, step: Step, *, table: str | None, asked: list | None,
               request_id: str | None, room: str | None = None, consultation: str | None = None):
        """Hand the ruling to the log writer; a future of the step JSON with its ``entry`` (set once committed)."""
        out = step_json(step)
        if asked is None:
            asked = answered(step.answers)
        room = room or account.room
        report_text = dumps(out["report"])     # written once: stored in the log and sent in the answer
        row = ruling_row(account, room=room, table=table, book=warm.name, book_hash=warm.hash,
                         book_version=warm.version, incident=incident,
                         answers=asked, report=out["report"], outcome=step.outcome, request_id=request_id,
                         report_text=report_text, consultation=consultation)
        done: Future = Future()
        done.report_text = report_text     # type: ignore[attr-defined]
        # the answer up to its "entry", written here (off the event loop): the report and, when no answer
        # changed it, the incident are the very texts the log row holds
        data_text = row["incident"] if step.data is incident else dumps(step.data)
        done.head = "".join((       # type: ignore[attr-defined]
            '{"outcome":', dumps(out["outcome"]), ',"report":', report_text, ',"questions":', dumps(out["questions"]),
            ',"also":', dumps(out.get("also", [])), ',"open":', dumps(out["open"]), ',"incident":', data_text, ',"answers":', dumps(out["answers"])))

        def committed(fut: Future) -> None:
            if fut.exception() is not None:
                done.set_exception(fut.exception())
                return
            out["entry"] = {"id": fut.result(), "at": row["at"], "book": warm.name, "book_hash": warm.hash,
                            "book_version": warm.version, "room": room, "table": table, "consultation": consultation}
            done.set_result(out)
        self.log.record(row).add_done_callback(committed)
        return done

    def close(self) -> None:
        stop_checks(running_only=True)     # a manager's check still running is ended, never left behind the service
        self.books.close()
        self.logins.close()
        self.rulers.shutdown(wait=True)
        self.log.close()
        self.engine.dispose()


def replayed(entry: dict) -> dict:
    """The answer to a retried request id: the first record, as the ruling answered it (``replayed``: true)."""
    return {"outcome": entry["outcome"], "report": entry["report"], "questions": [], "open": [],
            "incident": entry["incident"], "answers": entry["answers"], "replayed": True,
            "entry": {"id": entry["id"], "at": entry["at"], "book": entry["book"], "book_hash": entry["book_hash"],
                      "book_version": entry.get("book_version"), "room": entry["room"], "table": entry["table"], "consultation": entry["consultation"]}}


def step_json(step: Step) -> dict:
    """A step as the API gives it. With several disputed acts the report is the first act's and carries the
    others' in ``more_acts`` (hand order); each report's ``outcome`` is its act's, ``outcome`` the whole one."""
    report = report_json(step.report)
    report["outcome"] = step.outcomes[0] if step.outcomes else step.outcome
    for act, outcome in zip(report.get("more_acts", ()), step.outcomes[1:]):
        act["outcome"] = outcome
    return {"outcome": step.outcome, "report": report, "questions": step.questions, "also": step.also,
            "open": step.open, "incident": step.data, "answers": step.answers}


