"""Where the running services keep their data: each `rulings serve` leaves a note, and the command line reads it.

A service chooses its data folder (``--data``, ``$RULINGS_DATA``, else the user's data folder) and its database
(SQLite in that folder, or ``--database``/``$RULINGS_DATABASE``). A command run from another shell does not
know that choice: `rulings users add` once made an account in another database than the service's, without a
word, and `rulings rule --house NAME` could not find a book the service had published. So each `rulings serve`
writes a note while it runs, ``<pid>.json`` in one folder per user (``$RULINGS_RUN_DIR``, else
``$XDG_RUNTIME_DIR/rulings``, else ``~/.local/state/rulings/run``): its process id, data folder, database
(a PostgreSQL address without its password), address and start time. A note whose process is gone is not read
(and is removed). Only the same user's services are seen: a service run under another account (a system
user) keeps its notes in that account's folder, and the commands are run as that account.

Nothing here imports the web stack or the database: the notes are read by `rulings rule` too.
"""
from __future__ import annotations

import atexit
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

_PASSWORD = re.compile(r"^([a-z0-9+]+://[^:/@]*):[^@]*@", re.IGNORECASE)


def folder() -> Path:
    """The folder the running services' notes are in (the same whatever the data folder)."""
    if os.environ.get("RULINGS_RUN_DIR"):
        return Path(os.environ["RULINGS_RUN_DIR"])
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and Path(runtime).is_absolute():
        return Path(runtime) / "rulings"
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if state and Path(state).is_absolute() else Path.home() / ".local" / "state"
    return base / "rulings" / "run"


def database_of(database: str | None, data: Path) -> str:
    """The database a service or a command writes to, in words both compare: SQLite's file, or a PostgreSQL
    address without its password."""
    if database:
        return _PASSWORD.sub(r"\1@", database.replace("postgresql+psycopg://", "postgresql://")
                             .replace("postgres://", "postgresql://"))
    return f"SQLite {(Path(data) / 'rulings.db').resolve()}"


def announce(data: Path, database: str | None, address: str, signals: bool = True) -> Path | None:
    """Leave this service's note (removed when the process ends normally or on SIGTERM (``signals``); a note
    left by a killed one is passed over). None when the folder cannot be written: the service runs all the
    same."""
    note = {"pid": os.getpid(), "data": str(Path(data).resolve()), "database": database_of(database, data),
            "postgresql": bool(database), "address": address,
            "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")}
    try:
        where = folder()
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = where / f"{os.getpid()}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(note), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return None
    atexit.register(forget, path, os.getpid())
    if signals:
        _on_sigterm(path)
    return path


def _on_sigterm(path: Path) -> None:
    """A SIGTERM (a service manager's stop) ends the process by the signal once uvicorn has shut down, past any
    ``finally``: the note is taken away first, then the signal goes on as it would have."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None):
        return
    pid = os.getpid()

    def bye(signum, frame) -> None:
        forget(path, pid)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)
    signal.signal(signal.SIGTERM, bye)


def forget(path: Path | None, pid: int | None = None) -> None:
    """Take this service's note away (as it stops; again at exit, in case it stopped otherwise)."""
    if path is not None and (pid is None or os.getpid() == pid):    # a forked worker leaves it to the service
        try:
            path.unlink()
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # another user's process under that number: not ours, but alive
        return True
    return True


def services() -> list[dict[str, Any]]:
    """The notes of the services running now, oldest first."""
    try:
        paths = sorted(folder().glob("*.json"))
    except OSError:
        return []
    out = []
    for path in paths:
        try:
            note = json.loads(path.read_text(encoding="utf-8"))
            pid = int(note["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if pid != os.getpid() and not _alive(pid):
            try:
                path.unlink()
            except OSError:
                pass
            continue
        if isinstance(note.get("data"), str) and isinstance(note.get("database"), str):
            out.append(note)
    return sorted(out, key=lambda n: str(n.get("started", "")))


def described(note: dict[str, Any]) -> str:
    """A running service in a few words: 'the service on http://127.0.0.1:8000/ (pid 4242, data folder /srv/r)'."""
    return f"the service on {note.get('address', '?')} (pid {note['pid']}, data folder {note['data']})"


def _default_data() -> Path:
    """The user's data folder as `rulings serve` picks it without --data (store/db.py ``default_data_dir``,
    which imports the database layer; this module does not)."""
    if os.environ.get("RULINGS_DATA"):
        return Path(os.environ["RULINGS_DATA"])
    xdg = os.environ.get("XDG_DATA_HOME", "")
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share") / "rulings"


def published(name: str) -> Path | None:
    """The file of the version of house book ``name`` a service published, the one it rules with, or None.

    Looked for in order: the data folder $RULINGS_DATA names; the data folders of the services running now
    (newest first); the user's data folder; then the databases that hold published books (a chain's
    PostgreSQL: $RULINGS_DATABASE, then the running services'), whose newest version is copied to
    ``DATA/cache/houses/NAME/`` to be read. A database that cannot be read is said on standard error."""
    from rulings.service.store.housebook import NAME, HouseBooks
    if not isinstance(name, str) or not NAME.match(name):
        return None
    notes = services()
    folders = [Path(os.environ["RULINGS_DATA"])] if os.environ.get("RULINGS_DATA") else []
    folders += [Path(n["data"]) for n in reversed(notes) if not n.get("postgresql")] + [_default_data()]
    for where in folders:
        try:
            live = HouseBooks(where).live_path(name)
        except OSError:
            continue
        if live is not None and live.is_file():
            return live
    databases = [os.environ["RULINGS_DATABASE"]] if os.environ.get("RULINGS_DATABASE") else []
    databases += [n["database"] for n in reversed(notes) if n.get("postgresql")]
    for database in dict.fromkeys(databases):
        found = _from_database(database, name)
        if found is not None:
            return found
    return None


def _from_database(database: str, name: str) -> Path | None:
    import sys
    try:
        from rulings.service.store import db
        from rulings.service.store.chain import newest_version
        row = newest_version(db.database_url(database, _default_data()), name)
    except Exception as exc:     # not reachable, no password, not migrated: said, and the search goes on
        print(f"rulings: note: the published books of {database_of(database, Path('.'))} could not be read "
              f"({exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''})", file=sys.stderr)
        return None
    if row is None:
        return None
    from rulings.service.store.housebook import _write
    version, content = row
    path = _default_data() / "cache" / "houses" / name / f"{version:04d}.yaml"
    if not path.is_file() or path.read_text(encoding="utf-8") != content:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, content)
    return path
