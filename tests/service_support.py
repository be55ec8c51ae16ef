"""Helpers for the service tests: a service on SQLite or on a throw-away PostgreSQL, with three accounts."""
from __future__ import annotations

import copy
import os
from pathlib import Path

import yaml

import pgtemp

# lighter Argon2id for speed (the same algorithm and code path; production keeps 64 MiB, 3 passes)
os.environ.setdefault("RULINGS_ARGON2_MEMORY_KIB", "8192")
os.environ.setdefault("RULINGS_ARGON2_TIME", "1")
ROOT = Path(__file__).resolve().parent.parent
PASSWORDS = {"fiona": "floor-pass-1", "manny": "manager-pass-1", "ada": "admin-pass-1", "otto": "other-room-1"}
# Never skipped: without PostgreSQL's server the PostgreSQL half fails, saying what to install (scripts/test does).
BACKENDS = ["sqlite", "postgresql"]


def example(name: str) -> dict:
    return yaml.safe_load((ROOT / "examples" / "incidents" / f"{name}.yaml").read_text(encoding="utf-8"))


def overchip() -> dict:
    """RRP-PL-6: a silent $500 chip as the opening bet into an $80 pot-limit pot."""
    return copy.deepcopy(example("pl-silent-overchip"))


def database_for(backend: str) -> str | None:
    return pgtemp.shared().new_database() if backend == "postgresql" else None


def make_service(tmp_path: Path, backend: str, **config):
    from rulings.service.core import Config, Service
    from rulings.service.store.auth import add_account
    svc = Service(Config(data_dir=tmp_path / "data", database=database_for(backend), **config))
    add_account(svc.engine, "fiona", PASSWORDS["fiona"], "floor", "main")
    add_account(svc.engine, "manny", PASSWORDS["manny"], "manager", "main")
    add_account(svc.engine, "ada", PASSWORDS["ada"], "admin", "main")
    add_account(svc.engine, "otto", PASSWORDS["otto"], "floor", "riverside")
    return svc


def seed_log(data: Path, database: str | None = None) -> None:
    """A ruling log, migrated, holding the floor account fiona and the manager manny, for a served process."""
    from rulings.service.store import db
    from rulings.service.store.auth import add_account
    engine = db.make_engine(db.database_url(database, data))
    db.migrate(engine)
    add_account(engine, "fiona", PASSWORDS["fiona"], "floor")
    add_account(engine, "manny", PASSWORDS["manny"], "manager")
    engine.dispose()


def login(client, name: str) -> dict:
    r = client.post("/api/login", json={"username": name, "password": PASSWORDS[name]})
    assert r.status_code == 200, r.text
    client.cookies.clear()      # each test names its account explicitly with a bearer token
    return {"Authorization": f"Bearer {r.json()['token']}"}


def count_entries(svc) -> int:
    import sqlalchemy as sa
    from rulings.service.store import db
    with svc.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(db.entries)).scalar()


def form_client(app, **kw):
    """A test client of the podium that sends each form with its page's CSRF token, as a browser does
    (the token is read from a page, never computed here)."""
    import re
    import warnings
    with warnings.catch_warnings():    # starlette asks for httpx2, which is not needed here
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    class FormClient(TestClient):
        _token: str | None = None
        _token_for: tuple | None = None

        def _key(self) -> tuple:
            return self.cookies.get("rulings_session"), self.cookies.get("rulings_prelogin")

        def csrf(self) -> str:
            if self._token is None or self._token_for != self._key():
                r = self.get("/podium/log" if self.cookies.get("rulings_session") else "/login")
                self._token = re.search(r'name="csrf" value="([^"]+)"', r.text)[1]
                self._token_for = self._key()
            return self._token

        def post(self, url, *args, data=None, **kwargs):
            if isinstance(data, dict) and "csrf" not in data:
                data = dict(data, csrf=self.csrf())
            return super().post(url, *args, data=data, **kwargs)

    return FormClient(app, **kw)


def logged_at(svc, account, incident, at: str, table: str) -> int:
    """A ruling recorded as the service records one (standard book), stamped ``at``: a shift before this one."""
    from rulings.service.core import step_json
    from rulings.service.store.log import ruling_row
    warm = svc.books.get("standard")
    step = warm.consultation.rule(incident, {})
    row = ruling_row(account, room=account.room, table=table, book=warm.name, book_hash=warm.hash,
                     incident=incident, answers=[], report=step_json(step)["report"], outcome=step.outcome,
                     request_id=None)
    row["at"] = at
    return svc.log.record(row).result(timeout=30)


def accounts_of(svc) -> dict:
    """The service's accounts by name (as the service's own Account objects)."""
    import sqlalchemy as sa
    from rulings.service.store import db
    from rulings.service.store.auth import Account
    with svc.engine.connect() as conn:
        return {r.username: Account(r.id, r.username, r.role, r.room) for r in conn.execute(sa.select(db.accounts))}


def serve(data: Path, *args: str, env: dict | None = None, light_hashes: bool = True, port: int | None = None):
    """`rulings serve` on a free loopback port (or ``port``) as a process of its own: (base URL, process), once it
    answers /health. ``light_hashes`` false: Argon2id at its production cost (64 MiB), as a stranger's logins
    cost it. Stop it with ``stop``."""
    import socket
    import subprocess
    import sys
    import time
    import httpx
    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = dict(os.environ, **(env or {}))
    if not light_hashes:
        env.pop("RULINGS_ARGON2_MEMORY_KIB", None)
        env.pop("RULINGS_ARGON2_TIME", None)
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data),
                             *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode()[-2000:])
        if time.monotonic() > deadline:
            stop(proc)
            raise AssertionError("the service did not answer within 120 s")
        try:
            if httpx.get(base + "/health", timeout=5).status_code == 200:
                return base, proc
        except httpx.TransportError:
            time.sleep(0.2)


def stop(proc) -> str:
    """Stop a served process (SIGTERM, then SIGKILL after 30 s); what it wrote on standard error."""
    import subprocess
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate(timeout=30)
    return err.decode("utf-8", "replace")
