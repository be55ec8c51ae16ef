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
import threading
from concurrent.futures import Future
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from rulings.service import db

KINDS = ("ruling", "decision", "correction")
DECISIONS = ("followed", "departed")
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

    def _write(self, rows: list[dict]) -> list[int]:
        """Insert the rows in one transaction; their ids in the rows' order."""
        full = [{c: row.get(c) for c in self._COLS} for row in rows]
        for row in full:
            for c in ("rules", "topics", "citations"):
                row[c] = row[c] or ""
        if self.engine.dialect.name == "sqlite":
            return self._write_sqlite(full)
        if self.engine.dialect.driver == "psycopg":
            return self._write_psycopg(full)
        stmt = db.entries.insert().returning(db.entries.c.id, sort_by_parameter_order=True)
        with db.write_lock(self.engine), self.engine.begin() as conn:
            return [r[0] for r in conn.execute(stmt, full)]

    _PG_INSERT = (f"INSERT INTO entries ({', '.join(_COLS)}) VALUES ({', '.join(['%s'] * len(_COLS))}) RETURNING id")

    def _write_psycopg(self, rows: list[dict]) -> list[int]:
        """The same insert on PostgreSQL through psycopg itself: the batch's rows and the commit in one pipeline.

        Through SQLAlchemy a batch cost a pool check-out with its ping, BEGIN, the insert and COMMIT, each a
        round trip to the server, and the statement machinery's CPU on the worker; here the writer keeps one
        connection for its life and sends every row and the commit at once (one statement per row, so each
        id is its own row's). A failed write lets the connection go, as on SQLite; a duplicate request id is
        raised as SQLAlchemy's IntegrityError, as the pooled path raised it.
        """
        import psycopg
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        pg = self._raw.driver_connection
        try:
            with pg.cursor() as cur:
                with pg.pipeline():
                    cur.executemany(self._PG_INSERT, [[row[c] for c in self._COLS] for row in rows], returning=True)
                    ids = []
                    while True:
                        ids.append(cur.fetchone()[0])
                        if not cur.nextset():
                            break
                    pg.commit()
        except BaseException as exc:
            raw, self._raw = self._raw, None
            try:
                pg.rollback()
            except Exception:   # noqa: BLE001 - the connection is let go either way
                pass
            finally:
                raw.invalidate()
            if isinstance(exc, psycopg.IntegrityError):
                raise sa.exc.IntegrityError(self._PG_INSERT, None, exc) from None
            raise
        return ids

    def _write_sqlite(self, rows: list[dict]) -> list[int]:
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
                for row in rows:
                    cur.execute(self._SQLITE_INSERT, [row[c] for c in self._COLS])
                    ids.append(cur.lastrowid)
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


def ruling_row(account, *, room: str, table: str | None, book: str, book_hash: str, incident: Any,
               answers: list, report: dict, outcome: str, request_id: str | None,
               report_text: str | None = None, consultation: str | None = None) -> dict:
    """A ruling's log row; ``report_text`` is the report already written as JSON, when the caller has it."""
    acts = _acts(report)       # every disputed act's rulings are searchable
    rules = [r["rule"] for one in acts for r in one.get("rulings", [])]
    cites = [c["key"] for one in acts for r in one.get("rulings", []) for c in r.get("citations", [])]
    return dict(kind="ruling", refers_to=None, at=db.now(), room=room, table_name=table,
                floorperson=account.username, book=book, book_hash=book_hash, outcome=outcome,
                incident=dumps(incident), answers=dumps(answers),
                report=report_text if report_text is not None else dumps(report),
                rules=_padded(rules), topics=_padded(r.split(".")[0] for r in rules), citations=_padded(cites),
                request_id=request_id, consultation=consultation)


def entry_json(row) -> dict:
    return {
        "id": row["id"], "kind": row["kind"], "refers_to": row["refers_to"], "at": row["at"], "room": row["room"],
        "table": row["table_name"], "floorperson": row["floorperson"], "book": row["book"],
        "book_hash": row["book_hash"], "outcome": row["outcome"], "incident": loads(row["incident"]),
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


FILTERS = ("table", "room", "date_from", "date_to", "topic", "rule", "citation", "floorperson", "kind",
           "consultation")


def _day(value: str, name: str) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise LogError(422, "request", f"{name}: '{value}' is not a date like 2026-11-30") from None


class Log:
    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.writer = Writer(engine)

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
        from rulings.consult import answered
        c = db.consult_steps
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
        for name, col in (("topic", e.c.topics), ("rule", e.c.rules), ("citation", e.c.citations)):
            if filters.get(name):
                conds.append(col.contains(f" {filters[name]} ", autoescape=True))
        if filters.get("date_from"):
            conds.append(e.c.at >= _day(filters["date_from"], "date_from").isoformat())
        if filters.get("date_to"):
            conds.append(e.c.at < (_day(filters["date_to"], "date_to") + timedelta(days=1)).isoformat())
        if not account.may("manager"):
            if filters.get("room") and filters["room"] != account.room:
                raise LogError(403, "role", f"a floor account reads only its own room's log ({account.room})")
            conds.append(e.c.room == account.room)
        elif filters.get("room"):
            conds.append(e.c.room == filters["room"])
        return conds

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
        cols = ["id", "kind", "refers_to", "at", "room", "table", "floorperson", "book", "book_hash", "outcome",
                "rules", "citations", "rulings", "decision", "reason", "note"]
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
        else:
            if decision is not None and decision not in DECISIONS:
                problems.append({"field": "decision", "message": f"{decision!r} is not one of: followed, departed"})
            if not (isinstance(note, str) and note.strip()):
                problems.append({"field": "note", "message": "a correction says what it corrects and why"})
        if problems:
            raise LogError(422, "request", f"the {kind} has {len(problems)} problem(s)", problems)
        row = dict(kind=kind, refers_to=entry_id, at=db.now(), room=target["room"],
                   table_name=table if table is not None else target["table"], floorperson=account.username,
                   book=target["book"], book_hash=target["book_hash"], outcome=target["outcome"],
                   decision=decision, reason=reason, note=note, rules=_padded(target["rules"]),
                   topics=_padded(target["topics"]), citations=_padded(target["citations"]))
        if ruling is not None:
            fresh = ruling_row(account, room=target["room"], table=row["table_name"], book=ruling["book"],
                               book_hash=ruling["book_hash"], incident=ruling["incident"], answers=ruling["answers"],
                               report=ruling["report"], outcome=ruling["outcome"], request_id=None)
            row.update({k: fresh[k] for k in ("book", "book_hash", "incident", "answers", "report", "outcome",
                                              "rules", "topics", "citations")})
        new_id = self.record(row).result(timeout=60)
        return self.get(new_id)


def _acts(report: dict | None) -> list[dict]:
    """A report and the reports of the incident's other disputed acts, in hand order."""
    return [report, *(report.get("more_acts") or [])] if report else []


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
