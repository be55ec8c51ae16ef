"""Ruling speed: warm latency (median, p99), cold `rulings rule` beside a bare import, book load + compile.

Run: .venv/bin/python benchmarks/ruling_speed.py [--n 5000]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulings.engine.rulesets import Engine  # noqa: E402
from rulings.incident import incident_from_data  # noqa: E402
from rulings.rulebook.load import standard_book  # noqa: E402
from rulings.ruling.decide import rule_on  # noqa: E402


def wall(cmd: list[str], runs: int = 5) -> float:
    best = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        best.append(time.perf_counter() - t)
    return statistics.median(best)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=5000)
    n = ap.parse_args().n
    import os
    import tempfile
    os.environ["RULINGS_CACHE"] = tempfile.mkdtemp()   # first load misses the cache, second hits it
    t = time.perf_counter()
    book = standard_book()
    t_load = time.perf_counter() - t
    t = time.perf_counter()
    standard_book()
    t_hit = time.perf_counter() - t
    del os.environ["RULINGS_CACHE"]
    t = time.perf_counter()
    engine = Engine(book)
    t_compile = time.perf_counter() - t
    data = {"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
            "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 80,
            "disputed": {"seat": 1, "chips": [500]}}
    incident = incident_from_data(data)
    for _ in range(200):
        rule_on(incident, book, engine)
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        rule_on(incident, book, engine)
        lat.append(time.perf_counter() - t)
    lat.sort()
    med, p99 = lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.99)] * 1e3
    py = str(ROOT / ".venv" / "bin" / "python")
    bares, colds = [], []
    for _ in range(5):     # paired: a bare import, then the command, five times over
        bares.append(wall([py, "-c", "import yaml, jinja2, rulings._durable.engine"], runs=1))
        colds.append(wall([str(ROOT / ".venv" / "bin" / "rulings"), "rule", "examples/incidents/pl-silent-overchip.yaml"], runs=1))
    bare, cold = statistics.median(bares), statistics.median(colds)
    ratio = statistics.median(c / b for c, b in zip(colds, bares))
    print(f"rules in the standard book:        {len(book.rules)}")
    print(f"load + check the book:             {t_load * 1e3:8.1f} ms  (from the cache: {t_hit * 1e3:.1f} ms)")
    print(f"compile + register (durable):      {t_compile * 1e3:8.1f} ms")
    print(f"warm ruling, median / p99:         {med:8.3f} / {p99:.3f} ms   (aim: median < 0.5 ms)")
    print(f"cold `rulings rule`:               {cold * 1e3:8.1f} ms")
    print(f"bare import yaml, jinja2, durable: {bare * 1e3:8.1f} ms")
    print(f"cold / bare ratio:                 {ratio:8.2f}x   (median of 5 paired runs, wall time; aim: < 2x)")
    print(f"load average:                      {os.getloadavg()[0]:8.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
