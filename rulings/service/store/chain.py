"""A chain of rooms on one PostgreSQL: what a single host keeps in its data folder, kept in the database.

On PostgreSQL a server keeps nothing of its own that another server needs:

- **Published house books** (``ChainBooks``): every version a manager publishes is a row of ``book_versions``
  (append-only, numbered per book; the newest is in force). Each server writes the versions it reads into
  its data folder's ``cache/houses/NAME/0001.yaml`` (and ``.json``) only because a book is loaded from a
  file; the folder can be deleted at any time and is written again from the database at the next start.
  A publish notifies every server (``NOTIFY rulings_books``); each server's watcher thread ``LISTEN``\\ s,
  and also asks the database for the newest version's id once a second in case a notice was lost (a
  connection dropped and made again), then loads the new version off the floor's threads and puts it in
  force (``on_change``).
- **The login form's CSRF secret** (``shared_secret``): one for the chain, so a form shown by one server can
  be posted through the balancer to another.
- **The kill page's table states** (``load_table_state`` / ``save_table_state``): one row per room and
  table.

Accounts, sessions, login limits, the consultation trail and the log were already in the database.
SQLite (one host) keeps the data folder's files, as before (``housebook.HouseBooks``).
"""
from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable

import sqlalchemy as sa

from rulings.service.store import db
from rulings.service.store.housebook import NAME, Check, HouseBooks, _write, content_hash

log = logging.getLogger("rulings.service")

CHANNEL = "rulings_books"
POLL_SECONDS = 1.0       # the watcher's look at the newest version when no notice came (a notice lost)


def is_chain(engine: sa.Engine) -> bool:
    """Whether the service keeps the chain's shared state in the database (PostgreSQL) rather than the folder."""
    return engine.dialect.name == "postgresql"


class ChainBooks(HouseBooks):
    """The published house books of the chain's database, as ``HouseBooks`` serves the data folder's.

    The files under ``DATA/cache/houses`` are a copy of the database's rows, never read as the truth: which
    version is in force is kept in memory (``_live``), set from the database by ``refresh``."""

    def __init__(self, engine: sa.Engine, data_dir: str | Path, hasher: Callable[[Path], str] | None = None):
        super().__init__(data_dir, hasher)
        self.engine = engine
        self.root = Path(data_dir) / "cache" / "houses"
        self._live: dict[str, int] = {}      # book -> the version in force (the newest)
        self._seen = 0                       # the highest book_versions.id read
        self._refresh_lock = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._on_change: Callable[[set[str]], None] | None = None
        self.refresh()

    # ---- reading: the newest version of each book, kept in memory; its file written from the database
    def names(self) -> list[str]:
        from rulings.rulebook.house import house_names
        return sorted(set(house_names()) | set(self._live))

    def live_path(self, name: str) -> Path | None:
        version = self._live.get(name) if NAME.match(name) else None
        return None if version is None else self.root / name / f"{version:04d}.yaml"

    def live_version(self, name: str) -> int | None:
        return self._live.get(name)

    def refresh(self) -> set[str]:
        """Read the versions published since the last look, write their files, and move each book's version in
        force to its newest; the names of the books whose version changed."""
        with self._refresh_lock:
            cols = db.book_versions.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(cols.id, cols.name, cols.version, cols.content, cols.hash,
                                              cols.published_by, cols.at, cols.note, cols.room)
                                    .where(cols.id > self._seen).order_by(cols.id)).all()
            changed = set()
            for row in rows:
                if not NAME.match(row.name):       # never a path: the name was checked when published
                    continue
                folder = self.root / row.name
                folder.mkdir(parents=True, exist_ok=True)
                stem = f"{row.version:04d}"
                text_file = folder / f"{stem}.yaml"
                if not text_file.exists() or content_hash(text_file.read_text(encoding="utf-8")) != row.hash:
                    _write(text_file, row.content)
                info = {"version": row.version, "hash": row.hash, "by": row.published_by, "note": row.note or "",
                        "at": row.at, "room": row.room}
                _write(folder / f"{stem}.json", json.dumps(info, indent=1))
                if row.version > self._live.get(row.name, 0):
                    self._live[row.name] = row.version
                    changed.add(row.name)
                self._seen = max(self._seen, row.id)
            return changed

    # ---- publishing: a row, numbered after the newest, and a notice to every server
    def publish(self, name: str, text: str, by: str, note: str = "", room: str | None = None
                ) -> tuple[Check, dict | None]:
        result = self.check(name, text, with_diff=False)
        if not result.ok:
            return result, None
        info = store_version(self.engine, name, text, by, note, room)
        self._tell()
        return result, info

    # ---- following the other servers' publishing
    def watch(self, on_change: Callable[[set[str]], None]) -> None:
        """Start the watcher thread: ``on_change(names)`` whenever versions published anywhere come in force."""
        if self._watcher is not None:
            return
        self._on_change = on_change
        self._watcher = threading.Thread(target=self._watch, name="rulings-books-watch", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            raw = None
            try:
                raw = self.engine.raw_connection()
                pg: Any = raw.driver_connection
                raw.detach()                 # this connection listens for good; it never goes back to the pool
                pg.rollback()
                pg.autocommit = True
                pg.execute(f"LISTEN {CHANNEL}")
                while not self._stop.is_set():
                    # the newest id, asked on this connection: a notice lost while it was down is found here
                    newest = pg.execute("SELECT coalesce(max(id), 0) FROM book_versions").fetchone()[0]
                    if newest > self._seen and not self._stop.is_set():
                        self._tell()
                    for _ in pg.notifies(timeout=POLL_SECONDS, stop_after=1):
                        pass
            except Exception as exc:     # noqa: BLE001 - the database went away: look again in a second
                if not self._stop.is_set():
                    log.warning("the house-book watcher lost the database (%s); trying again", exc.__class__.__name__)
                    self._stop.wait(POLL_SECONDS)
            finally:
                if raw is not None:
                    try:
                        raw.close()
                    except Exception:   # noqa: BLE001 - already broken
                        pass

    def _tell(self) -> None:
        """Refresh, and tell the watcher's ``on_change`` of every book whose version in force moved."""
        changed = self.refresh()
        if changed and self._on_change is not None:
            self._on_change(changed)

    def close(self) -> None:
        """Stop watching (the thread, waiting at most ``POLL_SECONDS`` for a notice, ends by itself)."""
        self._stop.set()


def newest_version(url: str, name: str) -> tuple[int, str] | None:
    """The newest published version of house book ``name`` in the database at ``url`` (its number and text), for
    the command line (``--house NAME``: rulings/service/running.py); None when there is none."""
    engine = db.make_engine(url)
    try:
        cols = db.book_versions.c
        with engine.connect() as conn:
            row = conn.execute(sa.select(cols.version, cols.content).where(cols.name == name)
                               .order_by(cols.version.desc()).limit(1)).first()
    finally:
        engine.dispose()
    return None if row is None else (int(row.version), str(row.content))


def store_version(engine: sa.Engine, name: str, text: str, by: str, note: str = "", room: str | None = None,
                  at: str | None = None) -> dict:
    """Append ``text`` as the next version of house book ``name`` (in force from now on) and notify every
    server; the version's record. Two servers publishing at once each get a number of their own."""
    if not NAME.match(name):
        raise ValueError(f"'{name}' is not a house book name")
    cols = db.book_versions.c
    for _ in range(10):
        try:
            with engine.begin() as conn:
                number = 1 + (conn.execute(sa.select(sa.func.coalesce(sa.func.max(cols.version), 0))
                                           .where(cols.name == name)).scalar() or 0)
                info = {"version": number, "hash": content_hash(text), "by": by, "note": note,
                        "at": at or db.now()[:19] + "Z", "room": room}
                conn.execute(db.book_versions.insert().values(
                    name=name, version=number, content=text, hash=info["hash"], published_by=by, at=info["at"],
                    note=note, room=room))
                if is_chain(engine):
                    conn.execute(sa.text("SELECT pg_notify(:channel, :name)"), {"channel": CHANNEL, "name": name})
            return info
        except sa.exc.IntegrityError:     # another server took this number meanwhile: the next one
            continue
    raise RuntimeError(f"could not number a new version of '{name}'")


def import_folder(engine: sa.Engine, data_dir: Path) -> list[dict]:
    """A single host's published house books (``DATA/houses/NAME/0001.yaml`` with its ``.json``) into the
    database, oldest first, each as the next version of its book; the folder's version in force
    (``current``) goes last, so it is in force after the import too. A version whose text the database
    already holds for that book is left out, so the import can be run again. What was imported."""
    root = Path(data_dir) / "houses"
    done: list[dict] = []
    if not root.is_dir():
        return done
    cols = db.book_versions.c
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and NAME.match(p.name)):
        files = sorted(folder.glob("[0-9]*.yaml"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
        current = folder / "current"
        live = current.read_text(encoding="utf-8").strip() if current.exists() else None
        files = [f for f in files if f.name != live] + [f for f in files if f.name == live]
        for f in files:
            text = f.read_text(encoding="utf-8")
            meta = f.with_suffix(".json")
            info = json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else {}
            digest = content_hash(text)
            with engine.connect() as conn:
                held = conn.execute(sa.select(cols.id).where(cols.name == folder.name, cols.hash == digest)
                                    .limit(1)).scalar() is not None
                newest = conn.execute(sa.select(cols.hash).where(cols.name == folder.name)
                                      .order_by(cols.version.desc()).limit(1)).scalar()
            if (newest == digest) if f.name == live else held:    # already there (the live one: in force)
                continue
            note = info.get("note") or ""
            note = (note + " " if note else "") + f"(from {folder.name}/{f.name})"
            record = store_version(engine, folder.name, text, str(info.get("by") or "import"), note,
                                   at=info.get("at"))
            done.append({"name": folder.name, "file": f.name, **record})
    return done


# ---- the login form's CSRF secret, one for the chain

def shared_secret(engine: sa.Engine, name: str, fresh: bytes) -> bytes:
    """The chain's secret ``name``: the one already kept, else ``fresh``, kept now (the first server wins)."""
    t = db.shared_secrets
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO shared_secrets (name, value) VALUES (:n, :v) ON CONFLICT (name) DO NOTHING"),
                     {"n": name, "v": fresh.hex()})
        value = conn.execute(sa.select(t.c.value).where(t.c.name == name)).scalar()
    return bytes.fromhex(str(value))


# ---- the kill page's tables

def load_table_state(engine: sa.Engine, room: str, table: str) -> dict | None:
    t = db.table_states
    with engine.connect() as conn:
        text = conn.execute(sa.select(t.c.state).where(t.c.room == room, t.c.table_name == table)).scalar()
    return json.loads(text) if text else None


def save_table_state(engine: sa.Engine, room: str, table: str, state: dict) -> None:
    from sqlalchemy.dialects.postgresql import insert
    t = db.table_states
    stmt = insert(t).values(room=room, table_name=table, state=json.dumps(state), at=db.now())
    with engine.begin() as conn:
        conn.execute(stmt.on_conflict_do_update(index_elements=[t.c.room, t.c.table_name],
                                                set_={"state": stmt.excluded.state, "at": stmt.excluded.at}))


# ---- a room's own house book: its managers change only that one (both databases)

def room_book(engine: sa.Engine, room: str) -> str | None:
    """The house book of ``room``, when the room has one of its own (``rulings chain room-book``)."""
    t = db.room_books
    with engine.connect() as conn:
        return conn.execute(sa.select(t.c.book).where(t.c.room == room)).scalar()


def set_room_book(engine: sa.Engine, room: str, book: str | None) -> None:
    """Give ``room`` its own house book (None: none; its managers change any book again)."""
    if book is not None and not NAME.match(book):
        raise ValueError(f"'{book}' is not a house book name (lower-case letters, digits and dashes)")
    if not room or len(room) > 64:
        raise ValueError("a room is named by 1 to 64 characters")
    t = db.room_books
    with engine.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.room == room))
        if book is not None:
            conn.execute(sa.insert(t).values(room=room, book=book, at=db.now()))
