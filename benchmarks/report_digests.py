"""Digests of every example's report, to show a speed change leaves reports byte-identical.

For the standard book and each house book under rulebooks/houses: every rule's examples and every
incident under examples/incidents, each ruled and written as the JSON report (`rulings rule --json`'s
text), or the refusal's messages; one SHA-256 per example and one over all. Run it before and after a
change and compare the files (`diff`): any line that differs names the example whose report changed.

Run: .venv/bin/python benchmarks/report_digests.py OUT.txt [--house NAME ...]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def digests(house: str | None) -> list[tuple[str, str]]:
    import yaml
    from rulings import books
    from rulings.incident import incident_from_data
    from rulings.problems import ProblemsError
    from rulings.render import dumps, report_json
    from rulings.ruling import rule_on
    book, engine = books.load(house)
    cases = [(f"{rule.id}/{ex.name}", ex.incident, str(ex.origin)) for rule in book.rules.values()
             for ex in rule.examples]
    for path in sorted((ROOT / "examples" / "incidents").iterdir()):
        text = path.read_text(encoding="utf-8")
        cases.append((f"incident/{path.name}", json.loads(text) if path.suffix == ".json" else yaml.safe_load(text),
                      str(path)))
    out = []
    for name, data, origin in cases:
        try:
            text = dumps(report_json(rule_on(incident_from_data(data, file=origin, book=book), book, engine)))
        except ProblemsError as exc:
            text = "refused: " + "\n".join(p.message for p in exc.problems)
        out.append((name, hashlib.sha256(text.encode()).hexdigest()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--house", action="append", help="house books (default: the standard book and every house)")
    args = ap.parse_args()
    houses = args.house or [None] + sorted(p.stem for p in (ROOT / "rulebooks" / "houses").glob("*.yaml"))
    lines = []
    for house in houses:
        lines += [f"{house or 'standard'} {name} {d}" for name, d in digests(house)]
    whole = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} reports; digest of all: {whole}")


if __name__ == "__main__":
    main()
