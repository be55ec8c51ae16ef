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
import threading
from concurrent.futures import Future
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa

from rulings.service import db

KINDS = ("ruling", "decision", "correction")
DECISIONS = ("followed", "departed")
_DEC = re.compile(r'"__dec__(-?[0-9.E+-]+)__"')


def dumps(data: Any) -> str:
    """Compact JSON with exact decimal money (84.50 written as 84.5, never through a float)."""
    def default(o):
        if isinstance(o, Decimal):
            return f"__dec__{o.normalize():f}__"
        raise TypeError(f"cannot write {type(o).__name__} as JSON")
    return _DEC.sub(r"\1", json.dumps(data, default=default, ensure_ascii=False, separators=(",", ":")))


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

    def _write(self, rows: list[dict]) -> list[int]:
        """Insert the rows in one transaction; their ids in the rows' order."""
        cols = [c.name for c in db.entries.columns if c.name != "id"]
        full = [{c: row.get(c) for c in cols} for row in rows]
        for row in full:
            for c in ("rules", "topics", "citations"):
                row[c] = row[c] or ""
        stmt = db.entries.insert().returning(db.entries.c.id, sort_by_parameter_order=True)
        with self.engine.begin() as conn:
            return [r[0] for r in conn.execute(stmt, full)]


def _padded(words) -> str:
    return " " + " ".join(dict.fromkeys(words)) + " " if words else ""


def ruling_row(account, *, room: str, table: str | None, book: str, book_hash: str, incident: Any,
               answers: list, report: dict, outcome: str, request_id: str | None,
               report_text: str | None = None) -> dict:
    """A ruling's log row; ``report_text`` is the report already written as JSON, when the caller has it."""
    rules = [r["rule"] for r in report.get("rulings", [])]
    cites = [c["key"] for r in report.get("rulings", []) for c in r.get("citations", [])]
    return dict(kind="ruling", refers_to=None, at=db.now(), room=room, table_name=table,
                floorperson=account.username, book=book, book_hash=book_hash, outcome=outcome,
                incident=dumps(incident), answers=dumps(answers),
                report=report_text if report_text is not None else dumps(report),
                rules=_padded(rules), topics=_padded(r.split(".")[0] for r in rules), citations=_padded(cites),
                request_id=request_id)


def entry_json(row) -> dict:
    return {
        "id": row["id"], "kind": row["kind"], "refers_to": row["refers_to"], "at": row["at"], "room": row["room"],
        "table": row["table_name"], "floorperson": row["floorperson"], "book": row["book"],
        "book_hash": row["book_hash"], "outcome": row["outcome"], "incident": loads(row["incident"]),
        "answers": loads(row["answers"]), "report": loads(row["report"]),
        "rules": row["rules"].split(), "topics": row["topics"].split(), "citations": row["citations"].split(),
        "decision": row["decision"], "reason": row["reason"], "note": row["note"], "request_id": row["request_id"],
    }


FILTERS = ("table", "room", "date_from", "date_to", "topic", "rule", "citation", "floorperson", "kind")


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
        out = entry_json(row)
        out["later"] = [entry_json(r) for r in later]
        return out

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
                      rulings=" | ".join(r["sentence"] for r in ((en["report"] or {}).get("rulings") or [])))
            w.writerow([_cell(en.get(c)) for c in cols])
        return out.getvalue()

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


def _sees(account, room: str) -> bool:
    return account.may("manager") or account.room == room


def _cell(value: Any) -> str:
    """CSV cell as text; a leading = + - @ is quoted so a spreadsheet shows it rather than computing it."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
