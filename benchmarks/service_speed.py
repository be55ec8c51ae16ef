"""Service speed: recorded rulings per second and latency p50/p99 over loopback, SQLite and PostgreSQL,
beside the in-process ruling time.

Starts `rulings serve [--workers N]` on 127.0.0.1 with a fresh data folder (and, for PostgreSQL, a
throw-away server like the tests'). Each client is a podium: its own floor account, logged in over HTTP
(Argon2id), one keep-alive connection, a bearer token on every request, and POST /api/rule with the
book's example incidents (examples/incidents, all 15) in turn from its own starting point — each ruling
recorded in the log and acknowledged only once committed. Request counts are bounded.

Printed beside each other, from the same run: the in-process ruling of the same incidents (wall time
and CPU time), rulings/s and p50/p99 latency per backend, the server's CPU per ruling (all its
processes) and the two ratios that move least on a shared machine: server CPU per ruling over the
in-process CPU per ruling, and the rate over one core's in-process rate.

Each backend is run --runs times (3), the two taking turns (SQLite, PostgreSQL, SQLite, ...) so that both see
the machine alike; every run's line carries the load average, and the summary gives each backend's median and
spread and the paired PostgreSQL/SQLite ratios.

`--backend chain`: a chain of rooms (docs/service.md) beside one server: two `rulings serve` processes on
one PostgreSQL behind the system's nginx (tests/proxy.py, the test's configuration), the clients sending
every request through the proxy, taking turns with one server on PostgreSQL without the proxy; the rates
and p99s are printed beside each other, with their ratio.

Run: .venv/bin/python benchmarks/service_speed.py [--requests 3000] [--clients 8] [--workers 1]
     [--backend sqlite|postgresql|both|chain] [--runs 3]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
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



def incidents() -> list[dict]:
    """Every example incident of the book (examples/incidents), as a client would send it: a JSON object."""
    import yaml
    out = []
    for path in sorted((ROOT / "examples" / "incidents").iterdir()):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        out.append(json.loads(json.dumps(data)))     # keys as JSON gives them (seat numbers as text)
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def in_process(n: int) -> tuple[float, float, float]:
    """Median and p99 wall time and mean CPU time (ms) of ruling the example incidents in turn, in this process
    (no HTTP, no log). CPU time is what the service's own CPU per ruling is set beside: on a shared machine it
    moves far less than wall time."""
    from rulings.service.core import Books
    warm = Books().get("standard")
    mix = incidents()
    for _ in range(5):
        for one in mix:
            warm.consultation.rule(one)
    times = []
    cpu = time.process_time()
    for i in range(n):
        t = time.perf_counter()
        warm.consultation.rule(mix[i % len(mix)])
        times.append(time.perf_counter() - t)
    cpu = (time.process_time() - cpu) / n
    return statistics.median(times) * 1000, cpu * 1000, pct(times, 99) * 1000


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data: Path, database: str | None, workers: int = 1, clients: int = 8, accounts: bool = True,
          proxy: bool = False) -> tuple[subprocess.Popen, int]:
    from rulings.service.store import db
    from rulings.service.store.auth import add_account
    if accounts:
        engine = db.make_engine(db.database_url(database, data))
        db.migrate(engine)
        for n in range(clients):     # one floorperson per podium, each with its own login
            add_account(engine, f"floor{n}", "bench-password", "floor")
        engine.dispose()
    port = _port()
    cmd = [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data),
           "--workers", str(workers)]
    if database:
        cmd += ["--database", database]
    if proxy:
        cmd += ["--trusted-proxy", "127.0.0.1"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return listening(proc, port, "the server did not start")


def listening(proc: subprocess.Popen, port: int, failure: str) -> tuple[subprocess.Popen, int]:
    """The server and its port once it accepts a connection (two minutes at most; else it is killed)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(failure)


def every_worker_up(port: int, workers: int, proc: subprocess.Popen) -> None:
    """Wait (two minutes at most) until each of the server's workers has answered a /health on a connection
    of its own: the timed clients' connections are opened together, and stay with the worker that takes them."""
    import http.client
    seen: set[int] = set()
    deadline = time.monotonic() + 120
    while len(seen) < workers:
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"only {len(seen)} of the server's {workers} workers answered")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/health", headers={"Connection": "close"})
            seen.add(json.loads(conn.getresponse().read())["worker"])
        except OSError:
            time.sleep(0.2)
        finally:
            conn.close()


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
    bodies = [json.dumps({"incident": one, "table": str(1 + i % 9)}).encode() for i, one in enumerate(incidents())]
    latencies: list[float] = []
    left = [requests]

    async def client(n: int) -> None:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        status, data = await _request(r, w, "POST", "/api/login", json.dumps(
            {"username": f"floor{n}", "password": "bench-password"}).encode(), None)
        assert status == 200, data
        token = json.loads(data)["token"]
        for i in range(3):   # warm-up on each connection, not timed
            await _request(r, w, "POST", "/api/rule", bodies[(n + i) % len(bodies)], token)
        i = n   # each client goes through the examples in turn, from its own starting point
        while left[0] > 0:
            left[0] -= 1
            i += 1
            body = bodies[i % len(bodies)]
            t = time.perf_counter()
            status, data = await _request(r, w, "POST", "/api/rule", body, token)
            latencies.append(time.perf_counter() - t)
            assert status == 200, data[:300]
        w.close()

    t = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
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


def run(backend: str, requests: int, clients: int, workers: int = 1) -> tuple[float, float, float, float, float]:
    """One timed run: ``sqlite`` or ``postgresql`` (one server, the clients straight to it), or ``chain`` (two
    servers on one PostgreSQL, the clients through nginx)."""
    pg = None
    database = None
    nginx = None
    if backend in ("postgresql", "chain"):
        import pgtemp
        pg = pgtemp.TempPostgres()
        database = pg.new_database()
    folders = [Path(tempfile.mkdtemp(prefix="rulings-bench-")) for _ in range(2 if backend == "chain" else 1)]
    servers: list[subprocess.Popen] = []
    try:
        for n, data in enumerate(folders):
            proc, port = start(data, database, workers, clients, accounts=n == 0, proxy=backend == "chain")
            servers.append(proc)
            every_worker_up(port, workers, proc)   # a worker still loading its books would take no connection
        if backend == "chain":
            import proxy
            ports = [int(p.args[p.args.index("--port") + 1]) for p in servers]
            nginx = proxy.Nginx(ports)
            port = nginx.port
        cpu0, mine = sum(cpu_seconds(p.pid) for p in servers), time.process_time()
        wall, lat = asyncio.run(drive(port, requests, clients))
        sent = len(lat) + 4 * clients        # the timed requests, the warm-up ones and the logins
        cpu = (sum(cpu_seconds(p.pid) for p in servers) - cpu0) / sent * 1000
        client_cpu = (time.process_time() - mine) / sent * 1000
    finally:
        if nginx is not None:
            nginx.stop()
        for proc in servers:
            proc.terminate()
            proc.wait(timeout=30)
        if pg:
            pg.stop()
        for data in folders:
            shutil.rmtree(data, ignore_errors=True)   # its log of 3,000 rulings: tens of MB a run
    return len(lat) / wall, pct(lat, 50) * 1000, pct(lat, 99) * 1000, cpu, client_cpu


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1, help="server worker processes")
    ap.add_argument("--backend", choices=("sqlite", "postgresql", "both", "chain"), default="both",
                    help="chain: two servers on PostgreSQL behind nginx, beside one server without the proxy")
    ap.add_argument("--runs", type=int, default=3, help="runs per backend, the backends taking turns")
    args = ap.parse_args()
    os.environ.setdefault("RULINGS_ARGON2_MEMORY_KIB", "8192")   # the login is not what is measured
    requests = min(args.requests, 100_000)
    med, mean, p99 = in_process(1500)
    print(f"in-process ruling of the {len(incidents())} example incidents in turn (parse + rule, no HTTP, no log): "
          f"median {med:.2f} ms, p99 {p99:.2f} ms; CPU {mean:.2f} ms per ruling (= {1000 / mean:.0f}/s on one core); "
          f"{load()}")
    backends = {"both": ["sqlite", "postgresql"], "chain": ["postgresql", "chain"]}.get(args.backend, [args.backend])
    got: dict[str, list[tuple]] = {b: [] for b in backends}
    for n in range(max(1, min(args.runs, 20))):      # the backends take turns, so both see the machine alike
        for backend in backends:
            rate, p50, p99, cpu, client_cpu = run(backend, requests, args.clients, args.workers)
            got[backend].append((rate, p50, p99, cpu))
            print(f"{backend:10}  run {n + 1}: {requests} recorded rulings, {args.clients} clients, {args.workers} "
                  f"worker(s): {rate:.0f} rulings/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms; server CPU {cpu:.2f} ms per "
                  f"ruling = {cpu / mean:.2f}x the in-process ruling; rate = {rate * mean / 1000:.2f}x one core's "
                  f"in-process rate; the clients' CPU {client_cpu:.2f} ms per ruling; server + clients fit "
                  f"{2000 / (cpu + client_cpu):.0f} rulings/s into 2 idle cores; {load()}", flush=True)
    print("aim: >= 500 rulings/s with p99 < 50 ms on 2 cores, each database")
    for backend, rows in got.items():
        rates, p99s, cpus = [r[0] for r in rows], [r[2] for r in rows], [r[3] for r in rows]
        print(f"{backend:10}  {len(rows)} runs: {statistics.median(rates):.0f} rulings/s "
              f"({min(rates):.0f}-{max(rates):.0f}), p99 {statistics.median(p99s):.1f} ms "
              f"({min(p99s):.1f}-{max(p99s):.1f}), server CPU {statistics.median(cpus):.2f} ms per ruling "
              f"({min(cpus):.2f}-{max(cpus):.2f})")
    if backends == ["postgresql", "chain"]:
        pairs = list(zip(got["chain"], got["postgresql"]))
        rate_ratio = [p[0] / q[0] for p, q in pairs]
        p99_ratio = [p[2] / q[2] for p, q in pairs]
        print(f"two servers through nginx / one server without it, paired runs: rate "
              f"{statistics.median(rate_ratio):.2f}x ({min(rate_ratio):.2f}-{max(rate_ratio):.2f}), p99 "
              f"{statistics.median(p99_ratio):.2f}x ({min(p99_ratio):.2f}-{max(p99_ratio):.2f})")
    elif len(backends) == 2:
        pairs = list(zip(got["postgresql"], got["sqlite"]))
        rate_ratio = [p[0] / q[0] for p, q in pairs]
        cpu_ratio = [p[3] / q[3] for p, q in pairs]
        print(f"PostgreSQL / SQLite, paired runs: rate {statistics.median(rate_ratio):.2f}x "
              f"({min(rate_ratio):.2f}-{max(rate_ratio):.2f}), server CPU per ruling "
              f"{statistics.median(cpu_ratio):.2f}x ({min(cpu_ratio):.2f}-{max(cpu_ratio):.2f}) (aim: rate >= 1.0x)")
    print(f"at the end: {load()}")


if __name__ == "__main__":
    import signal
    # stopped with SIGTERM (kill, timeout), the run's server, its workers and its PostgreSQL are stopped and
    # their folders removed, as at the end of a run: the signal unwinds through run()'s clean-up
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
