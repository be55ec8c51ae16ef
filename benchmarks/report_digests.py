"""Digests of every example's report, to show a speed change leaves reports byte-identical.

For the standard book and each house book under rulebooks/houses: every rule's examples and every
incident under examples/incidents, each ruled and written as the JSON report (`rulings rule --json`'s
text), or the refusal's messages; one SHA-256 per example and one over all. Run it before and after a
change and compare the files (`diff`): any line that differs names the example whose report changed.

With ``--without-blinds`` every case whose game gives blinds is ruled again without them (the blinds' trials
run). With ``--without-pot`` every case is ruled a second time with its pots removed (the top-level ``pot`` and each
told street's), so the trial rulings for an unknown pot run; ``--generated N`` adds N random incidents
(tests/incident_gen.py, seed 27), each also without its pot; ``--incidents DIR`` adds the YAML incidents of a
folder you name (e.g. a bench outside the repository: read, never copied). With ``--consult`` each case is
taken through one consultation step instead (``Consultation.step``, as the podium and ``POST /api/rule`` take
it) and the step's JSON is digested: the report, the questions with each answer's rulings, "also worth
asking", in their order. With ``--without-lines`` the line of every rule and example is left out of what is
digested (an edit of a topic file that moves its rules' lines, and only that, then leaves the digests as they were).

Run: .venv/bin/python benchmarks/report_digests.py OUT.txt [--house NAME ...] [--without-pot] [--without-blinds] [--generated N]
     [--incidents DIR] [--consult] [--without-lines]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def without_pot(data):
    """The incident with its pots not given (a later street's pot then is unknown), or None when it gives none."""
    if not isinstance(data, dict):
        return None
    out = dict(data)
    changed = out.pop("pot", None) is not None
    if isinstance(out.get("streets"), list):
        out["streets"] = [{k: v for k, v in s.items() if k != "pot"} if isinstance(s, dict) else s
                          for s in out["streets"]]
        changed = changed or out["streets"] != data["streets"]
    return out if changed else None


def without_blinds(data):
    """The incident with its game's blinds not given (a big-bet game's blinds are then unknown, and their trials
    run), or None when it gives none."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict) or "blinds" not in data["game"]:
        return None
    return {**data, "game": {k: v for k, v in data["game"].items() if k != "blinds"}}


_AT = re.compile(r"(\.ya?ml):\d+(?::\d+)?")


def lineless(text: str) -> str:
    """A report's JSON (or a refusal) with the rules' lines left out: every origin's line, every file:line."""
    try:
        data = json.loads(text)
    except ValueError:
        return _AT.sub(r"\1", text)

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if not (k == "line" and "file" in v)}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return _AT.sub(r"\1", v) if isinstance(v, str) else v
    return json.dumps(strip(data), ensure_ascii=False)


def digests(house: str | None, pot: bool = False, generated: int = 0, extra: str | None = None,
            consult: bool = False, blinds: bool = False, lines: bool = True) -> list[tuple[str, str]]:
    import yaml
    from rulings.ruling import books
    from rulings.incident import incident_from_data
    from rulings.problems import ProblemsError
    from rulings.report.render import dumps, report_json
    from rulings.ruling.decide import rule_on
    book, engine = books.load(house)
    if consult:
        from rulings.ruling.consult import Consultation
        from rulings.service.core import step_json
        consultation = Consultation(book, engine)
    cases = [(f"{rule.id}/{ex.name}", ex.incident, str(ex.origin) if lines else ex.origin.file)
             for rule in book.rules.values()
             for ex in rule.examples]
    for path in sorted((ROOT / "examples" / "incidents").iterdir()):
        text = path.read_text(encoding="utf-8")
        cases.append((f"incident/{path.name}", json.loads(text) if path.suffix == ".json" else yaml.safe_load(text),
                      str(path)))
    if extra:
        for path in sorted(Path(extra).glob("*.yaml")):
            cases.append((f"extra/{path.name}", yaml.safe_load(path.read_text(encoding="utf-8")), str(path)))
    if generated:
        sys.path.insert(0, str(ROOT / "tests"))
        from incident_gen import random_incidents
        cases += [(f"generated/{i}", d, "generated.yaml") for i, d in enumerate(random_incidents(27, generated))]
    if pot or blinds:
        told = list(cases)
        if pot:
            cases += [(name + "/without-pot", bare, origin) for name, data, origin in told
                      if (bare := without_pot(data)) is not None]
        if blinds:
            cases += [(name + "/without-blinds", bare, origin) for name, data, origin in told
                      if (bare := without_blinds(data)) is not None]
    out = []
    for name, data, origin in cases:
        try:
            if consult:
                text = dumps(step_json(consultation.step(data)))
            else:
                text = dumps(report_json(rule_on(incident_from_data(data, file=origin, book=book), book, engine)))
        except ProblemsError as exc:
            text = "refused: " + "\n".join(p.message for p in exc.problems)
        except Exception as exc:   # noqa: BLE001 (a digest of what went wrong: it must not change either)
            text = f"error: {type(exc).__name__}: {exc}"
        if not lines:
            text = lineless(text)
        out.append((name, hashlib.sha256(text.encode()).hexdigest()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--house", action="append", help="house books (default: the standard book and every house)")
    ap.add_argument("--without-pot", action="store_true", help="each case again with its pots removed")
    ap.add_argument("--without-blinds", action="store_true", help="each case again with its game's blinds removed")
    ap.add_argument("--generated", type=int, default=0, help="N random incidents too")
    ap.add_argument("--incidents", help="a folder of YAML incidents too")
    ap.add_argument("--consult", action="store_true", help="digest each case's consultation step, not its report")
    ap.add_argument("--without-lines", action="store_true", help="leave the rules' and examples' lines out")
    args = ap.parse_args()
    houses = args.house or [None] + sorted(p.stem for p in (ROOT / "rulebooks" / "houses").glob("*.yaml"))
    lines = []
    for house in houses:
        lines += [f"{house or 'standard'} {name} {d}" for name, d in digests(house, args.without_pot, args.generated, args.incidents,
                                                                        args.consult, args.without_blinds,
                                                                        not args.without_lines)]
    whole = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} reports; digest of all: {whole}")


if __name__ == "__main__":
    main()
