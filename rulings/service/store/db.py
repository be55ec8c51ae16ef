"""The database: SQLite in the data folder by default (WAL, every commit synced), PostgreSQL by URL (psycopg 3).

The tables are described here for queries (SQLAlchemy Core); the schema
itself is made and upgraded only by the Alembic migrations under
``migrations/``, run in place at every start. Log entries and published book
versions are append-only: the migrations add triggers that refuse UPDATE and
DELETE on them in both databases.
"""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

HERE = Path(__file__).resolve().parent
meta = sa.MetaData()

accounts = sa.Table(
    "accounts", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("username", sa.String(64), nullable=False, unique=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("room", sa.String(64), nullable=False),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("disabled", sa.Boolean, nullable=False, default=False),
)
sessions = sa.Table(
    "sessions", meta,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.String(32), nullable=False),
    sa.Column("revoked", sa.Boolean, nullable=False, default=False),
)
entries = sa.Table(
    "entries", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("refers_to", sa.Integer, sa.ForeignKey("entries.id")),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("room", sa.String(64), nullable=False),
    sa.Column("table_name", sa.String(64)),
    sa.Column("floorperson", sa.String(64), nullable=False),
    sa.Column("book", sa.String(128)),
    sa.Column("book_hash", sa.String(80)),
    sa.Column("outcome", sa.String(16)),
    sa.Column("incident", sa.Text),
    sa.Column("answers", sa.Text),
    sa.Column("report", sa.Text),
    sa.Column("rules", sa.Text, nullable=False, default=""),
    sa.Column("topics", sa.Text, nullable=False, default=""),
    sa.Column("citations", sa.Text, nullable=False, default=""),
    sa.Column("decision", sa.String(16)),
    sa.Column("reason", sa.Text),
    sa.Column("note", sa.Text),
    sa.Column("request_id", sa.String(128)),
    sa.Column("consultation", sa.String(64)),
    sa.Column("book_version", sa.Integer),      # the published version of the house book ruled under (0006)
)
consult_steps = sa.Table(
    "consult_steps", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("consultation", sa.String(64), nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("room", sa.String(64), nullable=False),
    sa.Column("table_name", sa.String(64)),
    sa.Column("floorperson", sa.String(64), nullable=False),
    sa.Column("book", sa.String(128)),
    sa.Column("book_hash", sa.String(80)),
    sa.Column("incident", sa.Text),
    sa.Column("answers", sa.Text, nullable=False),
    sa.Column("answered", sa.Text, nullable=False),
    sa.Column("questions", sa.Text, nullable=False),
    sa.Column("outcome", sa.String(16)),
    sa.Column("rules", sa.Text, nullable=False, default=""),
)
# one row per ruling in force of a ruling entry and each key it is found by: the rule's id (``sentence`` set:
# the ruling's sentence) and each citation key of the rule; ``matter`` is what the ruling decides. Read by
# Log.earlier (the room's earlier rulings on the same rule and matter) and the log's rule and matter filters
ruling_keys = sa.Table(
    "ruling_keys", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("entry_id", sa.Integer, sa.ForeignKey("entries.id"), nullable=False),
    sa.Column("room", sa.String(64), nullable=False),
    sa.Column("key", sa.String(128), nullable=False),
    sa.Column("matter", sa.String(64), nullable=False),
    sa.Column("sentence", sa.Text),
)
login_failures = sa.Table(
    "login_failures", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
book_versions = sa.Table(
    "book_versions", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(128), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("hash", sa.String(80), nullable=False),
    sa.Column("published_by", sa.String(64), nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("note", sa.Text),
    sa.Column("room", sa.String(64)),
)
# on PostgreSQL, what every server of a chain shares that a single host keeps in its data folder (0006)
shared_secrets = sa.Table(
    "shared_secrets", meta,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
room_books = sa.Table(
    "room_books", meta,
    sa.Column("room", sa.String(64), primary_key=True),
    sa.Column("book", sa.String(128), nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
)
table_states = sa.Table(
    "table_states", meta,
    sa.Column("room", sa.String(64), primary_key=True),
    sa.Column("table_name", sa.String(64), primary_key=True),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
)


def inserted_id(result: sa.CursorResult) -> int:
    """The id the database gave the one row an insert just wrote (SQLAlchemy has none only for an insert of
    several rows at once, which is not asked here)."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the database gave no id for the row just written")
    return key[0]


def now() -> str:
    """UTC now as sortable text, the same in both databases: 2026-11-30T12:34:56.123456Z."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def default_data_dir() -> Path:
    """The service's data folder when --data does not say: $RULINGS_DATA, else the user's data directory
    ($XDG_DATA_HOME/rulings, or ~/.local/share/rulings): the same folder wherever the command is started."""
    if os.environ.get("RULINGS_DATA"):
        return Path(os.environ["RULINGS_DATA"])
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"   # as XDG says
    return base / "rulings"


def database_url(database: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL: PostgreSQL through psycopg 3 when asked, else SQLite in the data folder."""
    if database:
        for prefix in ("postgresql://", "postgres://"):
            if database.startswith(prefix):
                return "postgresql+psycopg://" + database[len(prefix):]
        return database
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'rulings.db').resolve()}"


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                  pool_size=8, max_overflow=8)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")      # readers never wait for the writer
            cur.execute("PRAGMA synchronous=FULL")      # in WAL mode, FULL syncs the log at every commit
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()
        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


_LOCKS: dict[str, tuple[int, threading.Lock]] = {}
_LOCKS_GUARD = threading.Lock()


@contextlib.contextmanager
def write_lock(engine: sa.Engine) -> Iterator[None]:
    """Hold the SQLite file's write turn across every worker process of this machine (nothing for PostgreSQL).

    SQLite lets one writer in at a time and makes the others retry on a sleeping
    back-off (1, 2, 5, 10 … 100 ms between tries): with two workers committing
    at once, a request waited tens of milliseconds for nothing. An exclusive
    ``flock`` on ``rulings.db.write-lock`` queues the writers instead, and the
    next one is woken the moment the lock is let go.
    """
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    try:
        import fcntl
    except ImportError:     # not a POSIX system: SQLite's own busy wait
        fcntl = None        # type: ignore[assignment]
    if not path or path == ":memory:" or fcntl is None:
        yield
        return
    with _LOCKS_GUARD:
        held = _LOCKS.get(path)
        if held is None:
            held = _LOCKS[path] = (os.open(path + ".write-lock", os.O_RDWR | os.O_CREAT, 0o600), threading.Lock())
    fd, local = held
    with local:      # the lock is per open file, so threads of one process take turns here first
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


def migrate(engine: sa.Engine, target: str = "head") -> None:
    """Bring the schema up to the newest migration (or ``target``), in place; a new database is made from nothing."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)


def revision(engine: sa.Engine) -> str | None:
    with engine.connect() as conn:
        try:
            return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        except sa.exc.DatabaseError:
            return None
