"""Reports do not change when the engine does: every example and thousands of random incidents against a snapshot.

tests/golden/reports/digests.json holds one SHA-256 per case (the JSON
report and the order the rules fired in, or the refusal, or the engine's
error). The cases: every example of every rule of the standard book and of
each house book (under that book), every file of examples/incidents, and
random incidents from tests/incident_gen.py. A change to the engine must
leave every digest as it is; a deliberate change to a rulebook or to the
report rewrites them: RULINGS_UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/test_report_snapshot.py (then read the changed cases it lists).
The check runs again (every example, 500 random incidents) in a child
process with another hash seed, so an order that depends on set iteration
shows up as a difference.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from examples_ruled import examples_ruled
from incident_gen import random_incidents

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "reports" / "digests.json"
UPDATE = os.environ.get("RULINGS_UPDATE_GOLDEN") == "1"
RANDOM = 2500


def _outcome(book, engine, data: dict, file: str = "<example>") -> str:
    from rulings.engine.rulesets import EngineError
    from rulings.incident import incident_from_data
    from rulings.problems import ProblemsError
    from rulings.ruling.decide import rule_on
    try:
        return _shown(rule_on(incident_from_data(data, file=file, book=book), book, engine))
    except (ProblemsError, EngineError) as exc:
        return _shown(exc)


def _shown(report) -> str:
    """What a case's digest is made of: the JSON report and the rules' firing order, or the refusal, or the
    engine's error."""
    from rulings.engine.rulesets import EngineError
    from rulings.problems import ProblemsError
    from rulings.report.render import dumps, report_json
    if isinstance(report, ProblemsError):
        return "refused " + json.dumps([p.to_json() for p in report.problems], sort_keys=True)
    if isinstance(report, EngineError):
        return f"engine error {report}"
    return dumps(report_json(report)) + "\ntrace " + " ".join(report.trace)


def digests(random: int = RANDOM) -> dict[str, str]:
    """Every case's digest, computed through the engine as it is now."""
    import yaml
    from rulings.ruling import books
    out: dict[str, str] = {}

    def put(key: str, text: str) -> None:
        out[key] = hashlib.sha256(text.encode()).hexdigest()[:24]
    book, engine = books.load()
    for r in examples_ruled():            # every example, as the other tests over every example read it
        put(f"standard {r.rule.id} {r.index}", _shown(r.report))
    for house in sorted((ROOT / "rulebooks" / "houses").glob("*.yaml")):
        for r in examples_ruled(house.stem):
            put(f"{house.stem} {r.rule.id} {r.index}", _shown(r.report))
    for f in sorted((ROOT / "examples" / "incidents").iterdir()):
        data = yaml.safe_load(f.read_text())
        b, e = books.load(data.get("house")) if data.get("house") else (book, engine)
        put(f"file {f.name}", _outcome(b, e, data, f.name))
    for i, data in enumerate(random_incidents(11, random)):
        put(f"random {i}", _outcome(book, engine, data))
    return out


def test_reports_match_the_snapshot():
    got = digests()
    if UPDATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        old = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        GOLDEN.write_text(json.dumps(got, indent=0, sort_keys=True) + "\n")
        changed = sorted(k for k in got if old.get(k) != got[k])
        print(f"{len(changed)} cases changed: {changed[:50]}")
        return
    want = json.loads(GOLDEN.read_text())
    assert len(want) > RANDOM + 500
    differ = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    assert not differ, f"{len(differ)} reports differ from the snapshot, e.g. {differ[:20]}"


CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_report_snapshot import digests
print(json.dumps(digests(500)))
"""


def test_reports_do_not_depend_on_the_hash_seed():
    if UPDATE:
        return
    want = json.loads(GOLDEN.read_text())
    env = dict(os.environ, PYTHONHASHSEED="12345")
    proc = subprocess.run([sys.executable, "-c", CHILD, str(Path(__file__).parent)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)
    assert len(got) > 1500
    differ = sorted(k for k in got if want.get(k) != got[k])
    assert not differ, f"{len(differ)} reports change with the hash seed, e.g. {differ[:20]}"
