"""The ruling log: append-only entries, written with group commit, searched and exported.

Every request that records something hands its entry to one writer thread
and waits; the writer takes every entry waiting, inserts them in one
transaction, commits (SQLite syncs its write-ahead log at that commit;
PostgreSQL's commit is durable by default), and only then wakes the requests
with their entry ids. So a request is acknowledged only once its entry is on
disk, and a burst of requests costs one disk sync, not one each.
"""
from __future__ import annotations

import csv
import io
import json
import queue
import re
import secrets
import sqlite3
import threading
from concurrent.futures import Future
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from rulings.service.store import db

# a unique index refused the entry: through SQLAlchemy (PostgreSQL), or SQLite's driver (the log writer's own path)
DUPLICATE = (sa.exc.IntegrityError, sqlite3.IntegrityError)
KINDS = ("ruling", "decision", "correction")
DECISIONS = ("followed", "departed")
ENTRY_ID_MAX = 2 ** 31 - 1   # the largest entry id (PostgreSQL's integer): a client's id past it is no entry
# a Decimal is written as a marked string and the marks taken off afterwards; the mark carries a random
# token, so text somebody typed (a table, a reason) can never pass for a number
_MARK = "__dec" + secrets.token_hex(8) + "__"
_DEC = re.compile('"' + _MARK + r'(-?[0-9.E+-]+)__"')


def _default(o):
    if isinstance(o, Decimal):
        return f"{_MARK}{o.normalize():f}__"
    raise TypeError(f"cannot write {type(o).__name__} as JSON")


_ENCODER = json.JSONEncoder(default=_default, ensure_ascii=False, separators=(",", ":"))


def dumps(data: Any) -> str:
    """Compact JSON with exact decimal money (84.50 written as 84.5, never through a float).

    One encoder for every call, and the decimal marks rewritten only when there are any (most
    reports carry whole-number money): a recorded ruling writes three or four of these.
    """
    text = _ENCODER.encode(data)
    return _DEC.sub(r"\1", text) if _MARK in text else text


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text, parse_float=Decimal)


class LogError(Exception):
    def __init__(self, status: int, code: str, message: str, problems: list | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.problems = status, code, message, problems or []


class Writer:
    """One thread that commits waiting entries together (group commit)."""

    def __init__(self, engine: sa.Engine, batch: int = 200):
        self.engine, self.batch = engine, batch
        self._raw: Any = None          # the writer's own connection (SQLite, psycopg; made on its first write)
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="rulings-log-writer", daemon=True)
        self._thread.start()

    def submit(self, row: dict) -> Future:
        fut: Future = Future()
        self._queue.put((row, fut))
        return fut

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)
        if self._raw is not None and not self._thread.is_alive():
            if self.engine.dialect.driver == "psycopg":     # back to the pool as the pool gave it
                try:
                    self._raw.driver_connection.autocommit = False
                except Exception:   # noqa: BLE001 - a connection that cannot be reset is let go
                    self._raw.invalidate()
                    self._raw = None
                    return
            self._raw.close()
            self._raw = None

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            items = [item]
            while len(items) < self.batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)
                    break
                items.append(nxt)
            try:
                ids = self._write([row for row, _ in items])
            except Exception:   # one bad entry must not sink the others: write them one by one
                for row, fut in items:
                    try:
                        fut.set_result(self._write([row])[0])
                    except Exception as exc:   # noqa: BLE001 - handed to the waiting request
                        fut.set_exception(exc)
                continue
            for (_, fut), new_id in zip(items, ids, strict=True):
                fut.set_result(new_id)

    _COLS = [c.name for c in db.entries.columns if c.name != "id"]
    _SQLITE_INSERT = (f"INSERT INTO entries ({', '.join(_COLS)}) VALUES ({', '.join('?' * len(_COLS))})")

    _KEY_COLS = ("entry_id", "room", "key", "matter", "sentence")
    _SQLITE_KEYS = f"INSERT INTO ruling_keys ({', '.join(_KEY_COLS)}) VALUES (?, ?, ?, ?, ?)"

    def _write(self, rows: list[dict]) -> list[int]:
        """Insert the rows in one transaction, each with its ruling keys (``_keys``); their ids in the rows' order."""
        full = [{c: row.get(c) for c in self._COLS} for row in rows]
        for row in full:
            for c in ("rules", "topics", "citations"):
                row[c] = row[c] or ""
        keys = [row.get("_keys") or () for row in rows]
        if self.engine.dialect.name == "sqlite":
            return self._write_sqlite(full, keys)
        if self.engine.dialect.driver == "psycopg":
            return self._write_psycopg(full, keys)
        stmt = db.entries.insert().returning(db.entries.c.id, sort_by_parameter_order=True)
        with db.write_lock(self.engine), self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(stmt, full)]
            found = [(i, row["room"], k["key"], k["matter"], k["sentence"])
                     for i, row, ks in zip(ids, full, keys, strict=True) for k in ks]
            if found:       # one statement for the whole batch's keys (an executemany paid a round trip a row)
                conn.execute(self._PG_KEYS, dict(zip(("e", "r", "k", "m", "s"), map(list, zip(*found)))))
            return ids

    _PG_INSERT = (f"INSERT INTO entries ({', '.join(_COLS)}) VALUES ({', '.join(['%s'] * len(_COLS))}) RETURNING id")

    # one statement an entry: the entry and its ruling keys (a CTE), so that on a connection in autocommit an
    # entry alone is one round trip and one transaction, with no BEGIN and COMMIT of its own to send
    _PG_ONE = ("WITH e AS (" + _PG_INSERT + "), k AS (INSERT INTO ruling_keys (entry_id, room, key, matter, sentence) "
               "SELECT e.id, x.room, x.key, x.matter, x.sentence FROM e, unnest(%s::text[], %s::text[], %s::text[], "
               "%s::text[]) AS x(room, key, matter, sentence)) SELECT id FROM e")

    def _write_psycopg(self, rows: list[dict], keys: list) -> list[int]:
        """The same insert on PostgreSQL through psycopg itself, an entry and its ruling keys in one statement.

        Through SQLAlchemy a batch cost a pool check-out with its ping, BEGIN, the insert and COMMIT, each a
        round trip to the server, and the statement machinery's CPU on the worker. The writer keeps one
        connection for its life, in autocommit: an entry alone (the usual batch below full load) is one
        statement, committed by the server as it runs, with no BEGIN or COMMIT sent (a third of the client's
        CPU of the pipeline of BEGIN, insert, keys, COMMIT it replaced: 0.29 against 0.81 ms an entry); several
        are one transaction whose statements go in one pipeline (one commit for the batch). The answer still
        waits for the commit. A failed write lets the connection go, as on SQLite; a duplicate request id is
        raised as SQLAlchemy's IntegrityError, as the pooled path raised it.
        """
        import psycopg
        if self._raw is None:
            raw = self.engine.raw_connection()
            driver: Any = raw.driver_connection     # psycopg's own connection (the dialect's driver is psycopg)
            driver.autocommit = True
            self._raw = raw
        pg = self._raw.driver_connection
        params = [[row[c] for c in self._COLS] + [[row["room"]] * len(ks)]
                  + [[k[n] for k in ks] for n in ("key", "matter", "sentence")] for row, ks in zip(rows, keys, strict=True)]
        try:
            with pg.cursor() as cur:
                if len(params) == 1:
                    cur.execute(self._PG_ONE, params[0])
                    ids = [cur.fetchone()[0]]
                else:
                    with pg.transaction(), pg.pipeline():
                        cur.executemany(self._PG_ONE, params, returning=True)
                        ids = []
                        while True:
                            ids.append(cur.fetchone()[0])
                            if not cur.nextset():
                                break
        except BaseException as exc:
            raw, self._raw = self._raw, None
            raw.invalidate()
            if isinstance(exc, psycopg.IntegrityError):
                raise sa.exc.IntegrityError(self._PG_INSERT, None, exc) from None
            raise
        return ids

    _PG_KEYS = sa.text("INSERT INTO ruling_keys (entry_id, room, key, matter, sentence) SELECT * FROM unnest("
                       "CAST(:e AS integer[]), CAST(:r AS text[]), CAST(:k AS text[]), CAST(:m AS text[]), "
                       "CAST(:s AS text[]))")

    def _write_sqlite(self, rows: list[dict], keys: list) -> list[int]:
        """The same insert on SQLite through the driver itself: one statement per row and its rowid, one commit.

        This is the service's busiest write (every recorded ruling); SQLAlchemy's statement machinery and
        the pool's check-out and reset cost more here than the insert did. The writer keeps one connection
        of the pool (made with its pragmas: WAL, synced commits) for its life; the table and its columns
        are still those of ``db.entries``.
        """
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        raw = self._raw
        with db.write_lock(self.engine):
            cur = raw.cursor()
            ids = []
            try:
                for row, ks in zip(rows, keys, strict=True):
                    cur.execute(self._SQLITE_INSERT, [row[c] for c in self._COLS])
                    ids.append(cur.lastrowid)
                    if ks:
                        cur.executemany(self._SQLITE_KEYS, [(cur.lastrowid, row["room"], k["key"], k["matter"],
                                                             k["sentence"]) for k in ks])
                raw.commit()
            except BaseException:
                self._raw = None          # a failed write: this connection is let go, the next write takes another
                try:
                    cur.close()
                    raw.rollback()
                finally:
                    raw.close()
                raise
            cur.close()
        return ids


def _padded(words) -> str:
    return " " + " ".join(dict.fromkeys(words)) + " " if words else ""


KEY_CHARS = 128      # ruling_keys.key's size


def ruling_keys(report: dict | None) -> list[dict]:
    """What a ruling entry is found by: for each ruling in force (every disputed act's), the rule's id with
    the ruling's sentence, and each citation key of the rule itself (not those marked ``via``, which
    another rule derived), each with the matter the ruling decides; once per entry each."""
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for one in _acts(report):
        for r in one.get("rulings") or []:
            matter, rule = r.get("decides") or "", r.get("rule")
            if not isinstance(rule, str) or not rule:
                continue
            keys = [(rule, r.get("sentence"))] + [(c["key"], None) for c in r.get("citations") or []
                                                   if isinstance(c, dict) and c.get("key") and not c.get("via")]
            for key, sentence in keys:
                key, matter = key[:KEY_CHARS], matter[:64]     # the columns' sizes (a longer id is cut alike)
                if (key, matter) not in seen:
                    seen.add((key, matter))
                    out.append({"key": key, "matter": matter, "sentence": sentence})
    return out


def ruling_row(account, *, room: str, table: str | None, book: str, book_hash: str, incident: Any,
               answers: list, report: dict, outcome: str, request_id: str | None,
               report_text: str | None = None, consultation: str | None = None,
               book_version: int | None = None) -> dict:
    """A ruling's log row; ``report_text`` is the report already written as JSON, when the caller has it."""
    acts = _acts(report)       # every disputed act's rulings are searchable
    rules = [r["rule"] for one in acts for r in one.get("rulings", [])]
    cites = [c["key"] for one in acts for r in one.get("rulings", []) for c in r.get("citations", [])]
    return dict(kind="ruling", refers_to=None, at=db.now(), room=room, table_name=table,
                floorperson=account.username, book=book, book_hash=book_hash, book_version=book_version,
                outcome=outcome, incident=dumps(incident), answers=dumps(answers),
                report=report_text if report_text is not None else dumps(report),
                rules=_padded(rules), topics=_padded(r.split(".")[0] for r in rules), citations=_padded(cites),
                request_id=request_id, consultation=consultation, _keys=ruling_keys(report))


def entry_json(row) -> dict:
    return {
        "id": row["id"], "kind": row["kind"], "refers_to": row["refers_to"], "at": row["at"], "room": row["room"],
        "table": row["table_name"], "floorperson": row["floorperson"], "book": row["book"],
        "book_hash": row["book_hash"], "book_version": row["book_version"], "outcome": row["outcome"],
        "incident": loads(row["incident"]),
        "answers": loads(row["answers"]), "report": loads(row["report"]),
        "rules": row["rules"].split(), "topics": row["topics"].split(), "citations": row["citations"].split(),
        "decision": row["decision"], "reason": row["reason"], "note": row["note"], "request_id": row["request_id"],
        "consultation": row["consultation"],
    }


def step_entry_json(row) -> dict:
    return {"consultation": row["consultation"], "step": row["step"], "at": row["at"], "room": row["room"],
            "table": row["table_name"], "floorperson": row["floorperson"], "book": row["book"],
            "book_hash": row["book_hash"], "incident": loads(row["incident"]), "answers": loads(row["answers"]),
            "answered": loads(row["answered"]), "questions": loads(row["questions"]), "outcome": row["outcome"],
            "rules": row["rules"].split()}


FILTERS = ("table", "room", "date_from", "date_to", "topic", "rule", "matter", "citation", "floorperson", "kind",
           "consultation")
EARLIER = 5          # earlier rulings shown beside a ruling; the rest by a search of the log


def _day(value: str, name: str) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise LogError(422, "request", f"{name}: '{value}' is not a date like 2026-11-30") from None


def day_starts(day: date, zone_name: str) -> str:
    """The moment ``day`` begins on a room's clock (IANA ``zone_name``), as the log's UTC text sorts it."""
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo
    start = datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(zone_name))
    return start.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Log:
    def __init__(self, engine: sa.Engine, time_zone: str = "UTC", room_zones: dict | None = None):
        """``time_zone`` and ``room_zones`` (Config's): the rooms' clocks, by which a date filter counts days."""
        self.engine = engine
        self.writer = Writer(engine)
        self.time_zone, self.room_zones = time_zone or "UTC", dict(room_zones or {})

    def close(self) -> None:
        self.writer.close()

    def get(self, entry_id: int, account=None) -> dict | None:
        e = db.entries
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(e).where(e.c.id == entry_id)).mappings().first()
            if row is None or (account is not None and not _sees(account, row["room"])):
                return None
            later = conn.execute(sa.select(e).where(e.c.refers_to == entry_id).order_by(e.c.id)).mappings().all()
            trail = self._steps(conn, row["consultation"]) if row["consultation"] else []
        out = entry_json(row)
        out["later"] = [entry_json(r) for r in later]
        out["trail"] = trail
        return out

    @staticmethod
    def _steps(conn, consultation: str) -> list[dict]:
        c = db.consult_steps
        rows = conn.execute(sa.select(c).where(c.c.consultation == consultation).order_by(c.c.step)).mappings().all()
        return [step_entry_json(r) for r in rows]

    def trail(self, consultation: str, account) -> dict | None:
        """A consultation's steps in order and the rulings recorded from it; None when unknown or not the
        account's to read (another room's, for a floor account)."""
        e = db.entries
        with self.engine.connect() as conn:
            steps = self._steps(conn, consultation)
            if not steps or not _sees(account, steps[0]["room"]):
                return None
            ids = conn.execute(sa.select(e.c.id).where(e.c.consultation == consultation).order_by(e.c.id)).scalars()
            return {"consultation": consultation, "steps": steps, "entries": list(ids)}

    def known(self, consultation: str, account) -> bool:
        """Whether a consultation with this id exists and the account may continue it (its room, or a manager)."""
        c = db.consult_steps
        with self.engine.connect() as conn:
            room = conn.execute(sa.select(c.c.room).where(c.c.consultation == consultation).limit(1)).scalar()
        return room is not None and _sees(account, room)

    def record_step(self, account, consultation: str | None, *, room: str, table: str | None, book: str,
                    book_hash: str, incident: Any, answers: dict, questions: list[dict], outcome: str,
                    rules: list[str]) -> dict:
        """Append one consultation step to its trail (a new consultation when ``consultation`` is None).

        The step is committed when this returns. ``answered`` holds the answers given since the previous
        step, each with its question; LogError 404 for an unknown consultation or another room's.
        """
        for _ in range(3):     # two steps of one consultation at the same moment: the later one tries again
            try:
                return self._append_step(account, consultation, dict(
                    at=db.now(), room=room, table_name=table, floorperson=account.username, book=book,
                    book_hash=book_hash, incident=dumps(incident), answers=dumps(answers), outcome=outcome,
                    rules=_padded(rules), questions=dumps([{"fact": q["fact"], "question": q["question"],
                                                            "asked_by": q.get("asked_by"),
                                                            **({"act": q["act"]} if q.get("act") else {})}
                                                           for q in questions])),
                    answers)
            except sa.exc.IntegrityError:
                if consultation is None:
                    raise
        raise LogError(409, "busy", f"consultation '{consultation}' is being answered elsewhere; send the step again")

    def _append_step(self, account, consultation: str | None, row: dict, answers: dict) -> dict:
        import secrets
        from rulings.ruling.consult import answered
        c = db.consult_steps
        before: dict[str, Any]
        with db.write_lock(self.engine), self.engine.begin() as conn:
            if consultation is None:
                name, before, number = "c-" + secrets.token_hex(8), {}, 1
            else:
                last = conn.execute(sa.select(c.c.step, c.c.room, c.c.answers).where(
                    c.c.consultation == consultation).order_by(c.c.step.desc()).limit(1)).first()
                if last is None or not _sees(account, last.room):
                    raise LogError(404, "not_found", f"no consultation '{consultation}'",
                                   [{"field": "consultation", "message": "not a consultation this account may "
                                                                         "continue; leave it out to start one"}])
                name, before, number = consultation, loads(last.answers) or {}, last.step + 1
            new = answered({f: v for f, v in answers.items() if f not in before or before[f] != v})
            conn.execute(c.insert().values(consultation=name, step=number, answered=dumps(new), **row))
        return {"id": name, "step": number, "at": row["at"]}

    def where(self, filters: dict, account) -> list:
        e = db.entries
        conds = []
        unknown = [k for k in filters if k not in FILTERS + ("limit", "offset", "format")]
        if unknown:
            raise LogError(422, "request", f"unknown filter: {', '.join(unknown)}",
                           [{"field": k, "message": "unknown filter; one of: " + ", ".join(FILTERS)} for k in unknown])
        if filters.get("table"):
            conds.append(e.c.table_name == filters["table"])
        if filters.get("floorperson"):
            conds.append(e.c.floorperson == filters["floorperson"])
        if filters.get("kind"):
            conds.append(e.c.kind == filters["kind"])
        if filters.get("consultation"):
            conds.append(e.c.consultation == filters["consultation"])
        for name, col in (("topic", e.c.topics), ("citation", e.c.citations)):
            if filters.get(name):
                conds.append(col.contains(f" {filters[name]} ", autoescape=True))
        if filters.get("rule") or filters.get("matter"):
            conds.append(self._by_keys(filters.get("rule"), filters.get("matter")))
        if not account.may("manager"):
            if filters.get("room") and filters["room"] != account.room:
                raise LogError(403, "role", f"a floor account reads only its own room's log ({account.room})")
            conds.append(e.c.room == account.room)
        elif filters.get("room"):
            conds.append(e.c.room == filters["room"])
        first = _day(filters["date_from"], "date_from") if filters.get("date_from") else None
        last = _day(filters["date_to"], "date_to") if filters.get("date_to") else None
        if first or last:
            room = filters.get("room") or (None if account.may("manager") else account.room)
            conds.append(self._days(first, last, room))
        return conds

    def _days(self, first: date | None, last: date | None, room: str | None):
        """Entries from the start of day ``first`` to the end of day ``last``, on the room's clock (its own zone,
        else the service's): a ruling at 23:30 in New York is of that evening's date, not of the next UTC day.
        Over every room (a manager's search), each room's entries by its own clock."""
        e = db.entries

        def span(zone_name: str):
            return sa.and_(*([e.c.at >= day_starts(first, zone_name)] if first else []),
                           *([e.c.at < day_starts(last + timedelta(days=1), zone_name)] if last else []))
        if room is not None or not self.room_zones:
            return span(self.room_zones.get(room) or self.time_zone)
        by_zone: dict[str, list[str]] = {}
        for name, zone_name in sorted(self.room_zones.items()):
            by_zone.setdefault(zone_name, []).append(name)
        return sa.or_(*(sa.and_(e.c.room.in_(rooms), span(z)) for z, rooms in by_zone.items()),
                      sa.and_(e.c.room.not_in(sorted(self.room_zones)), span(self.time_zone)))

    @staticmethod
    def _by_keys(rule: str | None, matter: str | None):
        """Entries with a ruling in force by ``rule`` (its id, or a citation key of the rule) on ``matter``
        (both on one ruling when both are given), and the decisions and corrections referring to them: read
        through the ruling keys' indexes (migration 0005)."""
        k, e = db.ruling_keys, db.entries
        sub = sa.select(k.c.entry_id)
        if rule:
            sub = sub.where(k.c.key == rule[:KEY_CHARS])
        if matter:
            sub = sub.where(k.c.matter == matter[:64])
        return sa.or_(e.c.id.in_(sub), e.c.refers_to.in_(sub))

    def earlier(self, account, room: str | None, rule: str, matter: str, *, before: int | None = None,
                limit: int = EARLIER) -> dict:
        """The room's rulings by ``rule`` on ``matter``, newest first (before entry ``before`` when given), at
        most ``limit``: when, by whom, the ruling's sentence, the floor's decision and any corrections.

        One range read of index ``ruling_keys_lookup`` (key, matter, room, entry_id), backwards from
        ``before``, stopping after ``limit`` + 1 rows (``more``: whether there are others), then the entries
        referring to those (index ``entries_refers_to``). LogError 403 for another room's log on a floor
        account: only the room's own rulings are ever shown. ``room`` None: every room of the chain, for a
        manager (the range of (key, matter) in the same index, every room's, sorted by entry); each ruling
        says its room."""
        if not (_sees(account, room) if room is not None else account.may("manager")):
            raise LogError(403, "role", f"a floor account reads only its own room's log ({account.room})")
        e = db.entries
        with self.engine.connect() as conn:
            rows = conn.execute(earlier_query(room, rule, matter, before, limit + 1)).all()
            more, rows = len(rows) > limit, rows[:limit]
            ids = [r.entry_id for r in rows]
            later = conn.execute(
                sa.select(e.c.id, e.c.kind, e.c.refers_to, e.c.at, e.c.floorperson, e.c.decision, e.c.reason,
                          e.c.note, e.c.report).where(e.c.refers_to.in_(ids)).order_by(e.c.id)).all() if ids else []
            missing = [r.entry_id for r in rows if r.sentence is None]     # found by a citation key
            reports = dict(conn.execute(sa.select(e.c.id, e.c.report).where(e.c.id.in_(missing))).all()) \
                if missing else {}
        out = []
        for r in rows:
            follow = [x for x in later if x.refers_to == r.entry_id]
            decided = [x for x in follow if x.kind == "decision"]
            sentence = r.sentence if r.sentence is not None else _sentence(loads(reports.get(r.entry_id)), rule,
                                                                            matter)
            out.append({
                "entry": r.entry_id, "at": r.at, "room": r.room, "floorperson": r.floorperson, "table": r.table_name,
                "book": r.book, "sentence": sentence,
                "decision": {"decision": decided[-1].decision, "reason": decided[-1].reason,
                             "floorperson": decided[-1].floorperson, "at": decided[-1].at} if decided else None,
                "corrected": any(x.kind == "correction" for x in follow),
                "corrections": [{"entry": x.id, "at": x.at, "floorperson": x.floorperson, "note": x.note,
                                 "decision": x.decision, "reason": x.reason,
                                 "sentence": _sentence(loads(x.report), None, matter) if x.report else None}
                                for x in follow if x.kind == "correction"]})
        return {"room": room, "rule": rule, "matter": matter, "earlier": out, "more": more}

    def earlier_for(self, entry: dict, account, limit: int = EARLIER, chain: bool = False) -> list[dict]:
        """For each ruling in force of a ruling entry (every act's), the room's rulings before it by the same
        rule on the same matter (``earlier``; ``chain``: every room's); the entry as ``get`` gives it."""
        out: list[dict] = []
        if entry.get("kind") != "ruling":
            return out
        seen = set()
        for n, one in enumerate(_acts(entry.get("report"))):
            for r in one.get("rulings") or []:
                key = (r.get("rule"), r.get("decides") or "")
                if isinstance(key[0], str) and key not in seen:
                    seen.add(key)
                    out.append({"act": n, **self.earlier(account, None if chain else entry["room"], key[0], key[1],
                                                         before=entry["id"], limit=limit)})
        return out

    def recent_incidents(self, room, account, limit: int) -> list[str]:
        """The incident texts of this room's last ``limit`` rulings, newest first (the room rule of ``where``):
        no count of the whole log and no report parsed, for the floor form's recent games."""
        e = db.entries
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(e.c.incident)
                                     .where(*self.where({"room": room, "kind": "ruling"}, account))
                                     .order_by(e.c.id.desc()).limit(limit)).scalars().all())

    def search(self, filters: dict, account, limit: int = 50, offset: int = 0) -> dict:
        e = db.entries
        conds = self.where(filters, account)
        with self.engine.connect() as conn:
            total = conn.execute(sa.select(sa.func.count()).select_from(e).where(*conds)).scalar()
            rows = conn.execute(sa.select(e).where(*conds).order_by(e.c.id.desc()).limit(limit).offset(offset)
                                ).mappings().all()
        return {"entries": [entry_json(r) for r in rows], "total": total}

    def export(self, filters: dict, account, fmt: str) -> str:
        e = db.entries
        conds = self.where(filters, account)
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(e).where(*conds).order_by(e.c.id)).mappings().all()
        entries = [entry_json(r) for r in rows]
        if fmt == "json":
            return dumps({"entries": entries})
        out = io.StringIO()
        cols = ["id", "kind", "refers_to", "at", "room", "table", "floorperson", "book", "book_hash", "book_version",
                "outcome", "rules", "citations", "rulings", "decision", "reason", "note"]
        w = csv.writer(out)
        w.writerow(cols)
        for en in entries:
            en = dict(en, rules=" ".join(en["rules"]), citations=" ".join(en["citations"]),
                      rulings=" | ".join(r["sentence"] for one in _acts(en["report"]) for r in one.get("rulings") or []))
            w.writerow([_cell(en.get(c)) for c in cols])
        return out.getvalue()

    def by_request(self, account, request_id: str | None) -> dict | None:
        """The ruling this account recorded with ``request_id`` (the first, should an old log hold two), or None."""
        if not request_id:
            return None
        e = db.entries
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(e).where(e.c.floorperson == account.username, e.c.request_id == request_id,
                                                  e.c.kind == "ruling").order_by(e.c.id).limit(1)).mappings().first()
        return entry_json(row) if row is not None else None

    def record(self, row: dict) -> Future:
        return self.writer.submit(row)

    def follow_up(self, account, entry_id: int, kind: str, body: dict, ruling: dict | None = None) -> dict:
        """A decision on a ruling, or a correction of any entry: a new entry referring to it.

        ``ruling`` (a correction of the incident, ruled again) gives the new incident, answers, report,
        outcome, book and book_hash that the correction entry carries instead of the corrected entry's.
        """
        target = self.get(entry_id, account)
        if target is None:
            raise LogError(404, "not_found", f"no log entry {entry_id}")
        problems = []
        decision, reason, note, table = body.get("decision"), body.get("reason"), body.get("note"), body.get("table")
        for name, value in (("reason", reason), ("note", note), ("table", table)):
            if value is not None and not isinstance(value, str):
                problems.append({"field": name, "message": "expected text"})
        if kind == "decision":
            if target["kind"] != "ruling":
                problems.append({"field": "id", "message": f"entry {entry_id} is a {target['kind']}, not a ruling"})
            if decision not in DECISIONS:
                problems.append({"field": "decision", "message": f"{decision!r} is not one of: followed, departed"})
            if decision == "departed" and not (isinstance(reason, str) and reason.strip()):
                problems.append({"field": "reason", "message": "say why the floor departed from the ruling"})
            if decision == "followed" and target["outcome"] == "questions":
                # a non-answer: its ruling depends on questions still open, so it cannot be followed as it
                # stands (issue 45); the floor answers them and follows the ruling that comes, or departs
                problems.append({"field": "decision", "message": f"entry {entry_id} still has questions whose "
                                 "answers change its ruling: answer them and follow the ruling that comes, or "
                                 "record that the floor departed from it (and why)"})
        else:
            if decision is not None and decision not in DECISIONS:
                problems.append({"field": "decision", "message": f"{decision!r} is not one of: followed, departed"})
            if not (isinstance(note, str) and note.strip()):
                problems.append({"field": "note", "message": "a correction says what it corrects and why"})
            if decision == "followed" and (ruling or target)["outcome"] == "questions":
                problems.append({"field": "decision", "message": "the ruling still has questions whose answers "
                                 "change it: it cannot be recorded as followed"})
        if problems:
            raise LogError(422, "request", f"the {kind} has {len(problems)} problem(s)", problems)
        row = dict(kind=kind, refers_to=entry_id, at=db.now(), room=target["room"],
                   table_name=table if table is not None else target["table"], floorperson=account.username,
                   book=target["book"], book_hash=target["book_hash"], book_version=target.get("book_version"),
                   outcome=target["outcome"], decision=decision, reason=reason, note=note, rules=_padded(target["rules"]),
                   topics=_padded(target["topics"]), citations=_padded(target["citations"]))
        if ruling is not None:
            fresh = ruling_row(account, room=target["room"], table=row["table_name"], book=ruling["book"],
                               book_hash=ruling["book_hash"], incident=ruling["incident"], answers=ruling["answers"],
                               report=ruling["report"], outcome=ruling["outcome"], request_id=None,
                               book_version=ruling.get("book_version"))
            row.update({k: fresh[k] for k in ("book", "book_hash", "book_version", "incident", "answers", "report", "outcome",
                                              "rules", "topics", "citations")})
        new_id = self.record(row).result(timeout=60)
        written = self.get(new_id)
        if written is None:   # written just now and never deleted: no account's view stands in the way
            raise LogError(404, "not_found", f"no log entry {new_id}")
        return written


def _acts(report: dict | None) -> list[dict]:
    """A report and the reports of the incident's other disputed acts, in hand order."""
    return [report, *(report.get("more_acts") or [])] if report else []


def earlier_query(room: str | None, rule: str, matter: str, before: int | None, limit: int):
    """The room's ruling entries by ``rule`` (a rule id or citation key) on ``matter``, newest first: an index
    range of ``ruling_keys_lookup`` (key, matter, room, entry_id) read backwards, each joined to its entry.
    ``room`` None: every room's (the index's (key, matter) range, sorted by entry id)."""
    k, e = db.ruling_keys, db.entries
    q = (sa.select(k.c.entry_id, k.c.room, k.c.sentence, e.c.at, e.c.floorperson, e.c.table_name, e.c.book)
         .join(e, e.c.id == k.c.entry_id)
         .where(k.c.key == rule[:KEY_CHARS], k.c.matter == matter[:64]))
    if room is not None:
        q = q.where(k.c.room == room)
    if before is not None:
        q = q.where(k.c.entry_id < before)
    return q.order_by(k.c.entry_id.desc()).limit(limit)


def _sentence(report: dict | None, rule: str | None, matter: str) -> str | None:
    """The sentence of a report's ruling on ``matter`` by ``rule`` (a rule id or one of its citation keys;
    any rule when None)."""
    for one in _acts(report):
        for r in one.get("rulings") or []:
            if (r.get("decides") or "") == matter and (rule is None or r.get("rule") == rule or any(
                    isinstance(c, dict) and c.get("key") == rule for c in r.get("citations") or [])):
                return r.get("sentence")
    return None


def _sees(account, room: str) -> bool:
    return account.may("manager") or account.room == room


def _cell(value: Any) -> str:
    """CSV cell as text, neutralised as OWASP advises for CSV injection: a cell whose first character
    (after any spaces, tabs or line breaks) is = + - @, or that starts with a tab or carriage return, is written with a
    leading apostrophe, so a spreadsheet shows it as text rather than computing it."""
    text = "" if value is None else str(value)
    if text[:1] in ("\t", "\r") or text.lstrip()[:1] in ("=", "+", "-", "@"):
        return "'" + text
    return text
