"""The batch: `rulings rule --jsonl` on 10,000 lines of the book's own mix, CPU on one core (aim: < 5 s).

The mix is every rule example of the standard book, every incident under examples/incidents (whole
hands, showdowns, procedures) and the several-act hands below, in turn, written as JSON lines. Each run
is the command itself (`rulings.cli.main.main`, as the installed script calls it) in a child process; its CPU
is the child's user + system time. The same child counts the CPU spent inside ``pot_question`` (the
trial rulings for a later street's pot not given, rulings/ruling/unknowns.py), so the figure is printed both
over the whole mix and with those trials taken out. Each mix run takes turns with a run of 10,000
random incidents (the figure the batch met before the mix grew: 4.55 s at load 1), so both saw the same
machine; the load average is printed beside every line.

With ``--against DIR`` each run also rules the same mix with the checkout at DIR (its own .venv, from its
own folder: e.g. main's), in turn with this one's, and prints the paired ratio. Run it on one core
(``taskset -c 1``): the CPU is the child's, and the load is printed beside every line.

Run: taskset -c 1 .venv/bin/python benchmarks/batch_speed.py [--n 10000] [--runs 3] [--out FILE] [--against DIR]
     (--out: also keep the last mix run's output, to compare reports before and after a change)
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

# Hands with several disputed acts, each ruled by itself at its own point of the hand: two short calls in
# no-limit, a raise and a "pot" on two streets of pot-limit Omaha, three acts of a fixed-limit hand.
SEVERAL_ACTS = [
    {"game": {"variant": "holdem", "structure": "no-limit", "blinds": [2, 5]}, "button": 5,
     "players": {"1": 400, "2": 400, "3": 400, "4": 400, "5": 400},
     "streets": [
         {"street": "preflop", "actions": [{"seat": 3, "action": "call"}, {"seat": 4, "action": "fold"},
                                           {"seat": 5, "action": "call"}, {"seat": 1, "action": "call"},
                                           {"seat": 2, "action": "check"}]},
         {"street": "flop", "board": "Ah 7c 2d",
          "actions": [{"seat": 1, "action": "bet", "to": 60}, {"seat": 2, "action": "call"},
                      {"seat": 3, "action": "call"}, {"seat": 5, "action": "fold"}]}],
     "disputed": [{"seat": 2, "said": "call", "chips": [25], "at": {"street": "flop", "after": 1}},
                  {"seat": 3, "chips": [100], "at": {"street": "flop", "after": 2}}]},
    {"game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
     "players": {"1": 300, "2": 300, "3": 300},
     "streets": [
         {"street": "preflop", "actions": [{"seat": 3, "action": "raise", "to": 6}, {"seat": 1, "action": "call"},
                                           {"seat": 2, "action": "call"}]},
         {"street": "flop", "board": "Ks 9d 4c",
          "actions": [{"seat": 1, "action": "check"}, {"seat": 2, "action": "bet", "to": 18},
                      {"seat": 3, "action": "call"}, {"seat": 1, "action": "fold"}]},
         {"street": "turn", "board": "3h", "actions": [{"seat": 2, "action": "bet", "to": 40}]}],
     "disputed": [{"seat": 3, "said": "raise", "chips": [100], "at": {"street": "flop", "after": 2}},
                  {"seat": 3, "said": "pot", "at": {"street": "turn", "after": 1}}]},
    {"game": {"variant": "holdem", "structure": "fixed-limit", "bet_sizes": [10, 20], "blinds": [5, 10]},
     "button": 4, "players": {"1": 500, "2": 500, "3": 500, "4": 500},
     "streets": [
         {"street": "preflop", "actions": [{"seat": 3, "action": "call"}, {"seat": 4, "action": "raise", "to": 20},
                                           {"seat": 1, "action": "call"}, {"seat": 2, "action": "call"},
                                           {"seat": 3, "action": "call"}]},
         {"street": "flop", "board": "Qc Jd 5s",
          "actions": [{"seat": 1, "action": "check"}, {"seat": 2, "action": "bet", "to": 10},
                      {"seat": 3, "action": "call"}, {"seat": 4, "action": "call"}]}],
     "disputed": [{"seat": 1, "said": "raise", "at": {"street": "preflop", "after": 2}},
                  {"seat": 3, "chips": [5], "at": {"street": "flop", "after": 2}},
                  {"seat": 4, "said": "call", "chips": [25], "at": {"street": "flop", "after": 3}}]},
]

# the command in a child: rulings.cli.run as the installed script calls it, with the CPU inside
# pot_question counted (outermost calls only) and written to the file named by the last argument
CHILD = """
import sys, time
import rulings.ruling.unknowns as u
spent = [0.0, 0]
inner = u.pot_question
def counted(*a, **k):
    t = time.process_time()
    try:
        return inner(*a, **k)
    finally:
        spent[0] += time.process_time() - t
        spent[1] += 1
u.pot_question = counted
out = sys.argv.pop()
from rulings.cli.main import main
try:
    code = main(sys.argv[1:])   # as `rulings rule --jsonl SRC` does, returning here rather than leaving at once
finally:
    sys.stdout.flush()
    open(out, "w").write(f"{spent[0]} {spent[1]}")
sys.exit(code)
"""


def book_mix(n: int) -> list[dict]:
    """The book's own mix: every rule example of the standard book, every incident under examples/incidents
    (whole hands, showdowns, procedures) and SEVERAL_ACTS, in turn, n lines (as JSON gives them: seat keys
    as text)."""
    import yaml

    from rulings.report.render import dumps
    from rulings.rulebook.load import standard_book
    book = standard_book()
    datas = [ex.incident for r in book.rules.values() for ex in r.examples]
    for path in sorted((ROOT / "examples" / "incidents").iterdir()):
        text = path.read_text(encoding="utf-8")
        datas.append(json.loads(text) if path.suffix == ".json" else yaml.safe_load(text))
    datas += SEVERAL_ACTS
    plain = [json.loads(dumps(d, indent=None)) for d in datas]
    return [plain[i % len(plain)] for i in range(n)]


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {yardstick():.2f} s yardstick"


def yardstick() -> float:
    """CPU seconds of ten million steps of a plain Python loop, measured now: on a shared machine a CPU
    second is not a fixed amount of work (cores shared with hyperthreads of other loads run slower), so each
    figure is printed beside what the same core does with a fixed piece of work at the same moment."""
    import time
    t = time.process_time()
    s = 0
    for i in range(10_000_000):
        s += i
    return time.process_time() - t


def run_batch(src: Path, out: Path | None = None, root: Path = ROOT) -> tuple[float, float, int, float]:
    """CPU of one `rulings rule --jsonl SRC` (user + system of the child), the CPU inside pot_question and
    its calls, and the wall time; ``root``: the checkout whose code runs (its .venv, from its folder)."""
    import time
    with tempfile.TemporaryDirectory() as d:
        spent = Path(d) / "spent"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        with open(out or os.devnull, "w") as sink:
            python = sys.executable if root == ROOT else str(root / ".venv" / "bin" / "python")
            subprocess.run([python, "-c", CHILD, "rule", "--jsonl", str(src), str(spent)],
                           stdout=sink, cwd=root, check=False)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        pot, calls = spent.read_text().split()
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, float(pot), int(calls), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="keep the last mix run's output here")
    ap.add_argument("--against", help="another checkout (its .venv) to rule the same mix, in turn")
    args = ap.parse_args()
    other = Path(args.against).resolve() if args.against else None
    from incident_gen import random_incidents
    with tempfile.TemporaryDirectory() as d:
        mix, rnd = Path(d) / "mix.jsonl", Path(d) / "random.jsonl"
        mix.write_text("".join(json.dumps(x) + "\n" for x in book_mix(args.n)), encoding="utf-8")
        rnd.write_text("".join(json.dumps(x) + "\n" for x in random_incidents(5, args.n)), encoding="utf-8")
        mixes, randoms, others = [], [], []
        for i in range(args.runs):   # taking turns: each mix run beside a random run at the same moments
            m = run_batch(mix, Path(args.out) if args.out and i == args.runs - 1 else None)
            r = run_batch(rnd)
            mixes.append(m)
            randoms.append(r)
            print(f"run {i + 1}: the book's mix {m[0]:.2f} s CPU ({m[3]:.1f} s wall), of which pot_question "
                  f"{m[1]:.2f} s in {m[2]:,} calls, without it {m[0] - m[1]:.2f} s; random incidents {r[0]:.2f} s "
                  f"CPU; {load()}")
            if other is not None:
                o = run_batch(mix, root=other)
                others.append(o)
                print(f"run {i + 1}: the book's mix with {other}: {o[0]:.2f} s CPU ({o[3]:.1f} s wall), "
                      f"pot_question {o[1]:.2f} s; this / that {m[0] / o[0]:.2f}x; {load()}")
    cpu = statistics.median(m[0] for m in mixes)
    pot = statistics.median(m[1] for m in mixes)
    bare = statistics.median(m[0] - m[1] for m in mixes)
    rand = statistics.median(r[0] for r in randoms)
    ratio = statistics.median(m[0] / r[0] for m, r in zip(mixes, randoms))
    print(f"batch: {args.n:,} lines of the book's own mix through `rulings rule --jsonl`, one core: "
          f"{cpu:.2f} s CPU (median of {args.runs}; {args.n / cpu:,.0f} lines/s), pot_question {pot:.2f} s "
          f"({pot / cpu:.0%}), without the pot trials {bare:.2f} s (aim: < 5 s); random incidents {rand:.2f} s; "
          f"mix / random {ratio:.2f}x (paired); {load()}")
    if others:
        that = statistics.median(o[0] for o in others)
        paired = statistics.median(m[0] / o[0] for m, o in zip(mixes, others))
        print(f"against {other}: {that:.2f} s CPU (median of {args.runs}); this / that {paired:.2f}x "
              f"(median of the paired runs' ratios); {load()}")


if __name__ == "__main__":
    main()
