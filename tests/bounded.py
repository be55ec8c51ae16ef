"""Running hostile inputs where a hang or a blow-up fails a test instead of hanging or killing CI.

``run_cli`` runs many ``rulings`` command lines in one child process with a
memory limit (``resource.setrlimit``) and a wall-clock timeout; each case's
exit code, output and any exception come back, with the child's peak memory.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 1 << 30      # address space of the child: far above a normal run (~200 MB), far below a blow-up
# resident memory a batch of hostile cases may reach. Measured on the merged book (~240 rules, split into
# 7 durable-rules rulesets), warm or cold book cache alike: a plain `rulings rule` ~50-55 MB, the three
# house books in one process ~80 MB, the hostile files and 120-400 fuzzed house books ~60 MB (flat in N:
# each fuzzed engine is closed), 400 fuzzed incidents ~105 MB, tests/test_house_limits.py ~110 MB.
PEAK_LIMIT_KB = 150_000

_CHILD = r"""
import contextlib, io, json, resource, sys, traceback
from rulings.cli.main import main
out = []
for argv in json.load(sys.stdin):
    o, e = io.StringIO(), io.StringIO()
    exc = None
    try:
        with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            code = main(argv)
    except SystemExit as s:
        code = s.code
    except BaseException:
        code, exc = None, traceback.format_exc(limit=5)
    out.append({"code": code, "out": o.getvalue()[:20000], "err": e.getvalue()[:20000], "exc": exc})
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open("/proc/self/status") as fh:   # VmHWM starts afresh at exec; ru_maxrss keeps the forking parent's size
    peak = next((int(line.split()[1]) for line in fh if line.startswith("VmHWM:")), peak)
json.dump({"cases": out, "peak_kb": peak}, sys.stdout)
"""


@dataclass
class Case:
    code: int | None
    out: str
    err: str
    exc: str | None

    @property
    def text(self) -> str:
        return self.out + self.err


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_child(code: str, stdin: str, timeout: float) -> tuple[dict, str]:
    """Run ``code`` in a child python with the memory limit; the JSON it prints, and its stderr."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, preexec_fn=_limit, env=env)
    assert proc.returncode == 0, f"the child failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout), proc.stderr


def run_cli(cases: list[list[str]], timeout: float = 120) -> tuple[list[Case], int]:
    """Every command line's result, and the child's peak resident memory in KB."""
    result, _ = run_child(_CHILD, json.dumps(cases), timeout)
    return [Case(**c) for c in result["cases"]], result["peak_kb"]


def examples(ci: int) -> int:
    """How many generated cases to run: ``ci`` in the suite, ``FUZZ_EXAMPLES`` when set (long runs on demand)."""
    return int(os.environ.get("FUZZ_EXAMPLES") or ci)
