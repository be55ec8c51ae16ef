"""Fuzzing incidents, house books and declarations: a report or a refusal with a code, never a traceback,
never a hang, memory bounded.

Each kind runs in its own child process (tests/fuzz_cases.py) under a memory limit and a timeout; inside
it every case has its own time limit. The suite runs a small, fixed set of cases (Hypothesis chooses the
seeds, derandomized). Long runs on demand:

    FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest tests/test_fuzz.py -q -s

runs 100,000 incidents, 100,000 declarations and 10,000 house books (FUZZ_HOUSES=N for another count;
each book is linted, ruled on 15 incidents and runs its own examples) with fresh random seeds
(FUZZ_SEED=N repeats a run) and prints the counts.
"""
from __future__ import annotations

import json
import os
import random

import pytest

from tests.bounded import PEAK_LIMIT_KB, run_child

CI = {"incidents": 400, "houses": 120, "declarations": 1000}
LONG = os.environ.get("FUZZ_EXAMPLES")
SEED = os.environ.get("FUZZ_SEED") or str(random.SystemRandom().getrandbits(32))
SECONDS_PER_CASE = {"incidents": 0.2, "houses": 3.0, "declarations": 0.05}   # only the timeout: a hang's bound

_CHILD = """
import json, os, sys
from tests.fuzz_cases import main
json.dump(main(sys.argv[1], int(sys.argv[2])), sys.stdout)
"""


def _count(kind: str) -> int:
    if not LONG:
        return CI[kind]
    if kind == "houses":
        return int(os.environ.get("FUZZ_HOUSES") or int(LONG) // 10)
    return int(LONG)


@pytest.fixture(scope="module", params=sorted(CI))
def fuzzed(request):
    kind = request.param
    n = _count(kind)
    if LONG:
        os.environ["FUZZ_RANDOM"] = SEED
    try:
        result, _ = run_child(_CHILD.replace("sys.argv[1]", repr(kind)).replace("int(sys.argv[2])", str(n)),
                              "", timeout=60 + n * SECONDS_PER_CASE[kind])
    finally:
        os.environ.pop("FUZZ_RANDOM", None)
    if LONG:
        print(f"\nfuzz {kind} (seed {SEED}): {json.dumps({k: v for k, v in result.items() if k != 'failures'})}")
        for f in result["failures"]:
            print(f"--- {f['outcome']}: {f['why'][-1500:]}\n{f['input'][:3000]}")
    return result


def _failures(result, outcome):
    return "\n\n".join(f"{f['why']}\n--- input:\n{f['input']}" for f in result["failures"]
                       if f["outcome"] == outcome)


def test_every_case_gives_a_report_or_a_refusal_with_a_code(fuzzed):
    counts = fuzzed["counts"]
    assert sum(counts.values()) >= 0.9 * _count(fuzzed["kind"])   # Hypothesis may stop short of n distinct seeds
    assert counts.get("traceback", 0) == 0, _failures(fuzzed, "traceback")
    assert counts.get("refused without a code", 0) == 0
    assert counts.get("report", 0) > 0   # the generators reach the rules, not only the refusals


def test_no_case_hangs(fuzzed):
    assert fuzzed["counts"].get("hang", 0) == 0, _failures(fuzzed, "hang")


def test_memory_stays_bounded(fuzzed):
    assert fuzzed["peak_kb"] < PEAK_LIMIT_KB


def test_no_report_is_lost_to_one_failing_rule(fuzzed):
    assert fuzzed["counts"].get("lost report", 0) == 0, _failures(fuzzed, "lost report")
