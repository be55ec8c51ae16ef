"""What the code and the tests start is gone when they are: a pool's worker ends with the process that started it
(a service or a batch killed outright, SIGKILL: no clean-up runs, leaves no worker waiting for work for ever),
and a throw-away PostgreSQL that does not start leaves no folder."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import os, sys
from rulings.workers import pool
workers = pool(1, nice=3)
pid = workers.submit(os.getpid).result()
nice = workers.submit(os.nice, 0).result()
Path = __import__("pathlib").Path
Path(sys.argv[1]).write_text(f"{pid} {nice}")
os.kill(os.getpid(), 9)
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"   # a zombie has ended: only its exit status is left


def test_a_pools_worker_ends_when_the_process_that_started_it_is_killed(tmp_path):
    out = tmp_path / "worker"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(out)], cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert proc.returncode == -9
    pid, nice = (int(x) for x in out.read_text().split())
    assert nice == os.nice(0) + 3   # below the starting process's priority, as the service's book checker is
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), f"worker {pid} outlived the process that started it"


def test_a_postgres_that_does_not_start_leaves_no_folder(tmp_path, monkeypatch):
    """The tests' throw-away PostgreSQL (tests/pgtemp.py): a server that cannot start is reported, and its folder
    under RULINGS_PG_TMP is gone. Here the folder lies deeper than a Unix socket's path allows (and, run as
    root, where the server's own account cannot reach it), so initdb or pg_ctl fails."""
    import pgtemp
    if pgtemp.binaries() is None:   # scripts/test installs PostgreSQL; without it the service tests fail loudly
        raise AssertionError(pgtemp.MISSING)
    deep = tmp_path / ("x" * 100)
    deep.mkdir()
    monkeypatch.setenv("RULINGS_PG_TMP", str(deep))
    try:
        pg = pgtemp.TempPostgres()
    except RuntimeError as exc:
        assert "initdb failed" in str(exc) or "pg_ctl failed" in str(exc), exc
    else:
        pg.stop()
        raise AssertionError("a server with a socket path of over 107 bytes started")
    assert list(deep.iterdir()) == []
