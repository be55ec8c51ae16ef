"""Service speed: recorded rulings per second and latency p50/p99 over loopback, SQLite and PostgreSQL,
beside the in-process ruling time.

Starts `rulings serve` (one process) on 127.0.0.1 with a fresh data folder (and, for PostgreSQL, a
throw-away server like the tests'), logs in, and drives POST /api/rule — the ruling recorded in the
log, acknowledged only once committed — from concurrent keep-alive clients. Request counts are bounded.

Run: .venv/bin/python benchmarks/service_speed.py [--requests 3000] [--clients 8] [--workers 1]
     [--backend sqlite|postgresql|both]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

INCIDENT = {"incident": "pl-silent-overchip",
            "game": {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "blinds": [1, 2]},
            "button": 3, "players": {"1": 1000, "2": 640, "3": 815}, "street": "flop", "pot": 80,
            "actions": [], "disputed": {"seat": 1, "chips": [500]}}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def in_process(n: int) -> tuple[float, float]:
    from rulings.service.app import Books
    warm = Books().get("standard")
    for _ in range(50):
        warm.consultation.rule(INCIDENT)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        warm.consultation.rule(INCIDENT)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, pct(times, 99) * 1000


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, database: str | None, workers: int = 1) -> tuple[subprocess.Popen, int]:
    from rulings.service import db
    from rulings.service.auth import add_account
    engine = db.make_engine(db.database_url(database, data))
    db.migrate(engine)
    add_account(engine, "bench", "bench-password", "floor")
    engine.dispose()
    port = _port()
    cmd = [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data),
           "--workers", str(workers)]
    if database:
        cmd += ["--database", database]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


async def _request(reader, writer, method: str, path: str, body: bytes, token: str | None) -> tuple[int, bytes]:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
            f"Content-Length: {len(body)}"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    await writer.drain()
    status_line = await reader.readline()
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    data = await reader.readexactly(length)
    return int(status_line.split()[1]), data


async def drive(port: int, requests: int, clients: int) -> tuple[float, list[float]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    status, data = await _request(reader, writer, "POST", "/api/login",
                                  json.dumps({"username": "bench", "password": "bench-password"}).encode(), None)
    assert status == 200, data
    token = json.loads(data)["token"]
    writer.close()
    body = json.dumps({"incident": INCIDENT, "table": "1"}).encode()
    latencies: list[float] = []
    left = [requests]

    async def client() -> None:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(3):   # warm-up on each connection, not timed
            await _request(r, w, "POST", "/api/rule", body, token)
        while left[0] > 0:
            left[0] -= 1
            t = time.perf_counter()
            status, data = await _request(r, w, "POST", "/api/rule", body, token)
            latencies.append(time.perf_counter() - t)
            assert status == 200, data[:300]
        w.close()

    t = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return time.perf_counter() - t, latencies


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children so far (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()] \
        if Path(f"/proc/{pid}/task/{pid}/children").exists() else [pid]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def run(backend: str, requests: int, clients: int, workers: int = 1) -> tuple[float, float, float, float]:
    pg = None
    database = None
    if backend == "postgresql":
        import pgtemp
        pg = pgtemp.TempPostgres()
        database = pg.new_database()
    data = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    proc, port = start(data, database, workers)
    time.sleep(1.0 if workers > 1 else 0)   # every worker up before timing
    try:
        cpu0 = cpu_seconds(proc.pid)
        wall, lat = asyncio.run(drive(port, requests, clients))
        cpu = (cpu_seconds(proc.pid) - cpu0) / (len(lat) + 3 * clients + 1) * 1000
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if pg:
            pg.stop()
    return len(lat) / wall, pct(lat, 50) * 1000, pct(lat, 99) * 1000, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1, help="server worker processes")
    ap.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    args = ap.parse_args()
    os.environ.setdefault("RULINGS_ARGON2_MEMORY_KIB", "8192")   # the login is not what is measured
    requests = min(args.requests, 100_000)
    med, p99 = in_process(1000)
    print(f"in-process ruling (parse + rule, no HTTP, no log): median {med:.2f} ms, p99 {p99:.2f} ms "
          f"(= {1000 / med:.0f}/s on one core)")
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    for backend in backends:
        rate, p50, p99, cpu = run(backend, requests, args.clients, args.workers)
        print(f"{backend:10}  {requests} recorded rulings, {args.clients} clients, {args.workers} worker(s): "
              f"{rate:.0f} rulings/s, "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms; server CPU {cpu:.2f} ms per ruling")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
