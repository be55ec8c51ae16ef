"""SIGKILL in the middle of a burst of recorded rulings: every acknowledged ruling is in the log after restart, intact."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from service_support import BACKENDS, PASSWORDS, database_for, overchip

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(data: Path, database: str | None) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data)]
    if database:
        cmd += ["--database", database]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(base + "/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start within 120 s")


def _users(data: Path, database: str | None) -> None:
    from rulings.service.store import db
    from rulings.service.store.auth import add_account
    engine = db.make_engine(db.database_url(database, data))
    db.migrate(engine)
    add_account(engine, "fiona", PASSWORDS["fiona"], "floor")
    add_account(engine, "manny", PASSWORDS["manny"], "manager")
    engine.dispose()


def _token(base: str, name: str) -> str:
    r = httpx.post(base + "/api/login", json={"username": name, "password": PASSWORDS[name]}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["token"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_loses_no_acknowledged_ruling(backend, tmp_path):
    data = tmp_path / "data"
    database = database_for(backend)
    _users(data, database)
    proc, base = _start(data, database)
    token = _token(base, "fiona")
    acked: dict[str, dict] = {}
    lock = threading.Lock()
    stop = threading.Event()

    def burst(worker: int) -> None:
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as c:
            for i in range(10_000):
                if stop.is_set():
                    return
                rid = f"w{worker}-{i}"
                incident = overchip()
                incident["incident"] = rid
                try:
                    r = c.post("/api/rule", json={"incident": incident, "table": str(worker), "request_id": rid})
                except httpx.TransportError:
                    return                                 # the server is gone: this one was never acknowledged
                if r.status_code == 200:
                    with lock:
                        acked[rid] = r.json()

    threads = [threading.Thread(target=burst, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while len(acked) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)                      # mid-burst: requests are still in flight
    proc.wait(timeout=30)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    assert len(acked) >= 60
    proc, base = _start(data, database)                    # restart on the same data
    try:
        manager = _token(base, "manny")
        r = httpx.get(base + "/api/log/export?format=json&kind=ruling",
                      headers={"Authorization": f"Bearer {manager}"}, timeout=60)
        logged = {e["request_id"]: e for e in json.loads(r.text)["entries"]}
        missing = [rid for rid in acked if rid not in logged]
        assert not missing, f"{len(missing)} acknowledged rulings lost: {missing[:5]}"
        for rid, answer in acked.items():
            e = logged[rid]
            assert e["id"] == answer["entry"]["id"]
            assert e["incident"]["incident"] == rid and e["table"] == rid[1:].split("-")[0]
            assert e["report"] == answer["report"]            # the report as it was given
            assert e["report"]["rulings"][0]["effects"] == {"wager_to": 80, "returned": 420}
        # every logged entry is whole (no half-written rows), acknowledged or not
        assert all(e["report"]["rulings"] and e["book_hash"].startswith("sha256:") for e in logged.values())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
