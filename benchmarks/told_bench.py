#!/usr/bin/env python3
"""The floor bench told as text: each main case's `description:` read and ruled as `rulings rule FILE.txt` does,
judged by the bench scorer's test (numbers stated, first citation cited, discretion flagged).

usage: told_bench.py [--bench DIR] [--cases FILE ...] [--scorer PATH] [--only ID,ID] [-v] [--speed]

Prints three figures over the main cases (variants are not told apart in a description):
  ruled as the incident is  the scorer's test passes on the told report (a refusal case: refused, no ruling)
  ruled wrongly             a ruling given (outcome 'ruled') that fails the test: worse than asking
  asking                    the rest: the text not read (the words named), refused, or questions asked
Without --cases, both sets of the floor bench: its folder is given with --bench DIR (or $RULINGS_FLOOR_BENCH);
nothing outside the repository is read unless named so.
--speed: the p50/p99 time to read and rule one told dispute, warm, beside the same incident given as YAML.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

import yaml

def _bench(argv: list[str]) -> Path:
    """The floor bench's folder, as named: the project reads no path outside the repository on its own."""
    import os
    named = argv[argv.index("--bench") + 1] if "--bench" in argv else os.environ.get("RULINGS_FLOOR_BENCH")
    if not named:
        raise SystemExit("told_bench: name the floor bench's folder with --bench DIR or RULINGS_FLOOR_BENCH "
                         "(the folder holding cases.yaml, cases2.yaml and score.py), or give --cases FILE and --scorer PATH")
    return Path(named)


def _scorer(path: Path):
    spec = importlib.util.spec_from_file_location("floor_score", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"told_bench: cannot load the scorer {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def judge(score, out: str, code: int, case: dict) -> tuple[str, str]:
    """'pass', 'wrong' or 'asking', and why."""
    try:
        rep = json.loads(out) if out.strip() else {}
    except ValueError:
        rep = {}
    reports = rep if isinstance(rep, list) else [rep]
    rulings = [r for one in reports if isinstance(one, dict) for r in (one.get("rulings") or [])]
    outcome = {one.get("outcome") for one in reports if isinstance(one, dict)}
    if case.get("refusal"):
        return ("pass", "refused") if code != 0 and not rulings else ("wrong", "ruled on a refusal case")
    if code not in (0, 3) or not rulings:
        problems = rep.get("problems") if isinstance(rep, dict) else None
        first = problems[0]["message"] if problems else "no rulings"
        return "asking", f"exit {code}: {first[:160]}"
    expected = case["expected"]
    why = []
    have = {n for r in rulings for n in score.numbers(r)}
    import re
    for r in rulings:
        for t in (r.get("sentence"), r.get("say")):
            if isinstance(t, str):
                have |= {round(float(m.replace(",", "")), 6) for m in re.findall(r"\d[\d,]*(?:\.\d+)?", t)}
    for name, v in (expected.get("numbers") or {}).items():
        want = list(score.numbers(v))
        if want and not all(w in have for w in want):
            why.append(f"{name}={v} not found")
    cites = {k for r in rulings for k in score.cite_keys(r)}
    exp_c = expected.get("citations") or []
    if exp_c and not score.cited(exp_c[0], cites):
        why.append(f"primary citation {exp_c[0]} missing")
    if case.get("discretion") and not any(score.discretionary(r) for r in rulings):
        why.append("not flagged discretionary")
    if not why:
        return "pass", ""
    return ("wrong" if outcome <= {"ruled"} else "asking"), "; ".join(why)


def main(argv: list[str]) -> int:
    files = [Path(argv[i + 1]) for i, a in enumerate(argv) if a == "--cases"] or \
        [_bench(argv) / "cases.yaml", _bench(argv) / "cases2.yaml"]
    scorer = Path(argv[argv.index("--scorer") + 1]) if "--scorer" in argv else _bench(argv) / "score.py"
    only = set(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else None
    verbose = "-v" in argv
    score = _scorer(scorer)
    from rulings.told.rule import rule_told_text
    if "--speed" in argv:
        return speed(rule_told_text)
    tally = {"pass": 0, "wrong": 0, "asking": 0}
    first = time.perf_counter()
    for path in files:
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            if only and case["id"] not in only:
                continue
            try:
                out, code = rule_told_text(" ".join(str(case.get("description", "")).split()), fmt="json")
            except Exception as exc:     # counted, and said: the reader must never raise
                out, code = json.dumps({"problems": [{"message": f"TRACEBACK {type(exc).__name__}: {exc}"}]}), 70
            verdict, why = judge(score, out, code, case)
            tally[verdict] += 1
            if verbose or verdict == "wrong" or code == 70:
                print(f"{case['id']:12} {verdict:7} {why}")
    total = sum(tally.values()) or 1
    print(f"told bench over {total} disputes ({time.perf_counter() - first:.0f} s):")
    print(f"  ruled as the incident is  {tally['pass']:4d}  {100 * tally['pass'] / total:5.1f}%")
    print(f"  ruled wrongly             {tally['wrong']:4d}  {100 * tally['wrong'] / total:5.1f}%")
    print(f"  asking (not read, refused or questions) {tally['asking']:4d}  {100 * tally['asking'] / total:5.1f}%")
    return 0


TOLD = ("NL 2/5, flop, $60 in the pot. Seat 1 bets 40, seat 2 says raise and puts out three black chips. "
        "Seat 1 objects.")
YAML = """
game: {variant: holdem, structure: no-limit, blinds: [2, 5]}
button: 2
players: {1: null, 2: null}
street: flop
pot: 60
actions: [{seat: 1, action: bet, to: 40}]
disputed: {seat: 2, said: raise, chips: [100, 100, 100], words_first: words}
"""


def speed(rule_told_text) -> int:
    from rulings.incident import incident_from_text
    from rulings.report.render import dumps, report_json
    from rulings.ruling import books
    from rulings.ruling.decide import rule_on
    book, engine = books.load(None)

    def yaml_once():
        return dumps(report_json(rule_on(incident_from_text(YAML, "<yaml>", book), book, engine)))

    for _ in range(20):
        rule_told_text(TOLD, fmt="json")
        yaml_once()
    from rulings.told.reader import _shape

    def cold():
        _shape.cache_clear()        # every sentence shape parsed afresh: a dispute told in a new way
        return rule_told_text(TOLD, fmt="json")

    for name, run in (("told", lambda: rule_told_text(TOLD, fmt="json")), ("told, shapes not seen before", cold),
                      ("yaml", yaml_once)):
        times = []
        for _ in range(300):
            t = time.perf_counter()
            run()
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"{name}: p50 {1000 * times[len(times) // 2]:.1f} ms, p99 {1000 * times[int(len(times) * 0.99)]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
