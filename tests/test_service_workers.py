"""`rulings serve --workers 2`: the login limit and a logout hold across worker processes."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from service_support import BACKENDS, PASSWORDS, database_for, seed_log

ROOT = Path(__file__).resolve().parent.parent
CHECK_SECONDS = 1.0      # the bound API.md states: a logout reaches every worker within this


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fresh(base: str, method: str, path: str, **kw) -> httpx.Response:
    """One request on a new connection, so that either worker may take it."""
    with httpx.Client(base_url=base, timeout=30, headers={"Connection": "close"}) as c:
        return c.request(method, path, **kw)


@pytest.fixture(params=BACKENDS)
def two_workers(request, tmp_path):
    data, database = tmp_path / "data", database_for(request.param)
    seed_log(data, database)
    port = _free_port()
    cmd = [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data), "--workers", "2"]
    if database:
        cmd += ["--database", database]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    workers: set[int] = set()
    deadline = time.monotonic() + 180
    try:
        while len(workers) < 2:      # both workers up and answering before the test begins
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, f"two workers did not both answer within 180 s ({workers})"
            try:
                workers.add(_fresh(base, "GET", "/health").json()["worker"])
            except httpx.TransportError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _spread(base: str, n: int, method: str, path: str, both: bool = True, **kw) -> tuple[list[int], set[int]]:
    """n requests on fresh connections, with /health between them, then (``both``) on until both workers have
    answered, up to 60 more: the kernel hands each connection to one worker and may pick the same one ten
    times running. The statuses and the workers seen."""
    statuses, workers = [], set()
    while len(statuses) < n or (both and len(workers) < 2 and len(statuses) < n + 60):
        statuses.append(_fresh(base, method, path, **kw).status_code)
        workers.add(_fresh(base, "GET", "/health").json()["worker"])
    return statuses, workers


def test_the_login_limit_holds_across_workers(two_workers):
    base = two_workers
    wrong = {"json": {"username": "fiona", "password": "not-her-password"}}
    first, _ = _spread(base, 5, "POST", "/api/login", both=False, **wrong)
    assert first == [401] * 5
    # a count kept per worker would let another 5 through on the other worker; the shared one makes each
    # further attempt wait (1 s after the latest, then 2, 4, 8 ...): only an attempt sent after its wait
    # is checked, and each one checked doubles the next wait
    began = time.monotonic()
    later, workers = _spread(base, 12, "POST", "/api/login", **wrong)
    took = time.monotonic() - began
    assert len(workers) == 2, "the requests all went to one worker; the test proves nothing"
    # k attempts checked take at least 1 + 2 + ... + 2^(k-1) = 2^k - 1 seconds of waits: never more than that
    # allows in the time the requests took (however many the spread needed to reach both workers)
    checked = later.count(401)
    assert set(later) <= {401, 429} and len(later) >= 12 and checked < len(later)
    assert 2 ** checked - 1 <= took + 1, (checked, took)
    # the right password sent at once after a checked attempt falls inside the wait that attempt began (2 s at
    # least by now); sent after the last of the spread, it might come when that wait is over (a slow machine)
    for _ in range(4):
        attempt = _fresh(base, "POST", "/api/login", **wrong)
        if attempt.status_code == 401:
            break
        assert attempt.status_code == 429
        time.sleep(int(attempt.headers["retry-after"]))
    assert attempt.status_code == 401
    right = _fresh(base, "POST", "/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]})
    assert right.status_code == 429 and int(right.headers["retry-after"]) > 0
    # only the name from this address waits: another account from it logs in
    assert _fresh(base, "POST", "/api/login", json={"username": "manny", "password": PASSWORDS["manny"]}
                  ).status_code == 200


def test_a_logout_reaches_every_worker_within_the_stated_bound(two_workers):
    base = two_workers
    r = _fresh(base, "POST", "/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]})
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    seen, workers = _spread(base, 10, "GET", "/api/me", headers=auth)     # both workers now hold the session
    assert set(seen) == {200} and len(seen) >= 10 and len(workers) == 2
    assert _fresh(base, "POST", "/api/logout", headers=auth).status_code == 204
    time.sleep(CHECK_SECONDS + 0.5)
    after, workers = _spread(base, 12, "GET", "/api/me", headers=auth)
    assert len(workers) == 2
    assert set(after) == {401} and len(after) >= 12
